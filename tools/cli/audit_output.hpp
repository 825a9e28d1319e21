// audit_output.hpp — the output formats of `arbiter audit` (docs/audit.md): one JSONL record per
// game, CSV rows (one per finding or error), and the summary, text or JSON, built from the counts
// the batches add up. The pipeline (cmd_audit.cpp) formats each game on a worker thread without
// its game number and prefixes the number when it writes the games out in input order.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>

#include "arbiter/audit.hpp"
#include "arbiter/pgn_game.hpp"

namespace arbiter::cli {

enum class AuditFormat { jsonl, csv, summary };

/// What the summary reports, added up over games.
struct AuditCounts {
    std::uint64_t games = 0, plies = 0, games_with_errors = 0, errors = 0, games_with_findings = 0;
    std::map<std::string, std::uint64_t> findings;  // "type" and "type/kind"
    void add(const AuditCounts& o);
    /// Counts one audited game.
    void add_game(const pgn::ParsedGame& game, const audit::GameAudit& result);
};

/// Where a game's text came from: its file (as named on the command line) and how its line
/// numbers and offsets, relative to the batch, map to the file.
struct GameSource {
    const std::string* file = nullptr;
    std::uint64_t first_line = 1;    // line of the batch's first byte in the file
    std::uint64_t first_offset = 0;  // offset of the batch's first byte in the file
};

/// The JSONL record of one game without its leading `{"game":N,"game_in_file":M` (so it starts
/// with a comma) and with its final newline.
std::string jsonl_record(const pgn::ParsedGame& game, const audit::GameAudit& result, const GameSource& src);
/// The CSV rows of one game, each without its leading game number (each starts with a comma).
std::string csv_rows(const pgn::ParsedGame& game, const audit::GameAudit& result, const GameSource& src);
/// The CSV header line.
extern const char* const csv_header;
/// Writes the formatted text of one game with its game numbers in front (of every CSV row):
/// over all the inputs, and within its file.
void write_numbered(std::ostream& out, AuditFormat format, std::uint64_t game, std::uint64_t game_in_file,
                    const std::string& text);

/// The progress line: "12.3 of 264.0 MB, 4567 games, 890 games/s, ETA 36 s". `done` and `total`
/// are bytes over all the inputs (`total` 0 when a size is unknown: no "of", no ETA); no ETA before
/// a game was audited. The ETA assumes the rest goes at the rate so far.
std::string progress_line(std::uint64_t done, std::uint64_t total, std::uint64_t games, double seconds);

/// The summary: text, or one JSON object with `json`.
void print_summary(std::ostream& out, const AuditCounts& c, double seconds, std::uint64_t bytes, bool json);

}  // namespace arbiter::cli
