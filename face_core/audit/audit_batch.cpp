// audit_batch.cpp — a batch's records, and audit_piece (a piece of input audited whole).
#include "audit/audit_batch.hpp"

#include <stdexcept>

#include "json/json.hpp"

namespace arbiter::face {

// A game's output line (jsonl or csv) without its game number; empty for the summary.
std::string format_game(const Batch& b, const AuditConfig& cfg, const pgn::ParsedGame& game,
                        const audit::GameAudit& result) {
    const GameSource from{b.name, b.first_line, b.first_offset, cfg.relative_positions};
    switch (cfg.format) {  // every format (face_core compiles with -Werror=switch)
        case AuditFormat::jsonl: return jsonl_record(game, result, from);
        case AuditFormat::csv: return csv_rows(game, result, from);
        case AuditFormat::summary: return {};
    }
    return {};
}

PieceAudit audit_piece(const AuditPiece& piece, const audit::AuditOptions& options, AuditFormat format,
                       const AuditFilter* filter) {
    if (format == AuditFormat::csv) throw std::invalid_argument("audit_piece: jsonl or summary");
    AuditConfig cfg;
    cfg.format = format;
    cfg.options = options;
    if (filter) cfg.filter = *filter;
    cfg.relative_positions = piece.relative;
    const Batch b{.text = std::string(piece.text),
                  .first_line = piece.first_line,
                  .first_offset = piece.first_offset,
                  .ends_at_boundary = piece.ends_at_boundary,
                  .error = piece.error,
                  .name = &piece.file};
    GameRecord record;
    pgn::ParsedGame game;
    std::string pgn;
    std::uint64_t pgn_games = 0;
    PieceAudit out;
    audit_batch(b, cfg, record, game, pgn, pgn_games,
                [&](const pgn::ParsedGame& g, const audit::GameAudit& result, bool selected) {
                    ++out.games_read;
                    if (selected) out.counts.add_game(g, result);
                    if (format == AuditFormat::summary) return;
                    if (selected)
                        out.text += format_game(b, cfg, g, result);
                    else
                        out.text += '\n';
                });
    return out;
}

}  // namespace arbiter::face
