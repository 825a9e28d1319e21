// audit_output.hpp — the output formats of `arbiter audit` (docs/audit.md): one JSONL record per
// game, CSV rows (one per finding or error), the summary, text or JSON, built from the counts
// the batches add up, the annotated PGN of --pgn-out, and the --only / --select filters. The pipeline (cmd_audit.cpp)
// formats each game on a worker thread without its game number and prefixes the number when it writes the games out in
// input order.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arbiter/audit.hpp"
#include "arbiter/input.hpp"
#include "arbiter/pgn_game.hpp"

namespace arbiter::face {

enum class AuditFormat { jsonl, csv, summary };
}  // namespace arbiter::face

namespace arbiter {
template <>
struct EnumNames<face::AuditFormat> {
    static constexpr auto names = std::to_array<const char*>({"jsonl", "csv", "summary"});
};
static_assert(enum_count<face::AuditFormat> == std::size_t(face::AuditFormat::summary) + 1);
}  // namespace arbiter

namespace arbiter::face {

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
    /// The file's lines and offsets before the batch are not known yet (a task of the distributed
    /// audit): each line and offset of an error is written relative to the task's text, behind a
    /// marker byte (position_marker) that number_records replaces with the number in the file.
    bool relative = false;
};

/// The bytes that precede a relative line number and a relative offset in a record (control
/// characters, which the JSON of a record never holds raw).
inline constexpr char line_marker = '\x01', offset_marker = '\x02';

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

/// One piece of an input as `arbiter audit` audits it: whole games, cut just before a game
/// boundary (pgn::BoundaryFinder) or at the end of the input.
struct AuditPiece {
    std::string_view text;
    std::string file;                          // the input's name as given (the records' "file")
    std::uint64_t first_line = 1;              // line of the piece's first byte in the file
    std::uint64_t first_offset = 0;            // offset of the piece's first byte in the file
    bool ends_at_boundary = false;             // the input goes on with the next game (else: its end)
    std::optional<arbiter::InputError> error;  // the read error that ended the input after `text`
    bool relative = false;                     // lines and offsets relative, behind markers (GameSource)
};

/// What audit_piece gives for one piece.
struct PieceAudit {
    /// jsonl: one line per game read, in order: its jsonl_record, or an empty line for a game the
    /// filter leaves out (counted in the game numbers, not written). Empty with summary.
    std::string text;
    std::uint64_t games_read = 0;  // selected or not
    AuditCounts counts;            // of the selected games
};

struct AuditFilter;

/// Audits the games of one piece exactly as a batch of `arbiter audit` is audited (cmd_audit.cpp),
/// with --only / --select as `filter` says (nullptr: every game, every finding). `format` is jsonl
/// or summary. Numbered with number_records, in input order, the pieces of an input give the
/// output of `arbiter audit --format jsonl` on it.
PieceAudit audit_piece(const AuditPiece& piece, const audit::AuditOptions& options, AuditFormat format,
                       const AuditFilter* filter = nullptr);

/// Lines in `text` (its newlines), sixteen bytes at a time (SSE2; else eight): the readers count
/// every byte of their input.
[[nodiscard]] std::uint64_t count_newlines(std::string_view text) noexcept;

/// The lines of `PieceAudit::text` with their game numbers in front, from `game` and `game_in_file`
/// for its first line on (an empty line takes its numbers and writes nothing), appended to `out`.
/// Relative lines and offsets (GameSource::relative) become `line_base` + line and `offset_base` +
/// offset. Returns the lines (games) of `text`: a final line without its newline counts.
std::uint64_t number_records(std::string_view text, std::uint64_t game, std::uint64_t game_in_file, std::string& out,
                             std::uint64_t line_base = 0, std::uint64_t offset_base = 0);

/// --only and --select: which games are reported at all (every `--select TAG=VALUE` must hold:
/// the game's first tag of that name has exactly that value) and which of their findings (a
/// finding is kept when --only names its type, its kind, or "type/kind"; no --only keeps all).
struct AuditFilter {
    std::vector<std::string> only;
    std::vector<std::pair<std::string, std::string>> select;

    /// Adds the comma-separated list of an --only; returns an error message (empty when it is fine)
    /// that lists the valid types and kinds.
    std::string add_only(std::string_view list);
    /// Adds one --select TAG=VALUE; returns an error message, empty when it is fine.
    std::string add_select(std::string_view spec);
    [[nodiscard]] bool selects(const pgn::ParsedGame& game) const;
    [[nodiscard]] bool keeps(const audit::Finding& f) const;
    /// Removes the findings --only does not keep.
    void apply(audit::GameAudit& result) const;
};

/// The comment --pgn-out writes for one finding, braces included (format in docs/audit.md):
/// `{arbiter: TYPE KIND[, SIDE] (ARTICLE): DETAIL [%arbiter TYPE KIND article="A" ply=P …]}`.
std::string pgn_comment(const audit::Finding& f);

/// --pgn-out for the games of one batch or stream, in order: a game with findings is written as
/// it was read — its bytes from its first one up to the next game's first one (or the end of the
/// input) — with each finding's comment inserted after the move that reached the finding's ply
/// (before the first move or the result for ply 0), and a blank line after it. The caller passes
/// the input it still holds (`window`, which starts at `window_start`, in the reader's offsets).
/// When the bytes of a game are no longer held (a game of more than `hold_limit` bytes in a
/// stream), it is written from what was read: its tags, the mainline SAN and the comments.
class PgnOut {
public:
    /// A game was read (all of its bytes are in `window` unless they were given up).
    /// Appends to `out` the previous game, now that its end is known.
    void game(const pgn::ParsedGame& g, const audit::GameAudit& result, std::string_view window,
              std::uint64_t window_start, std::string& out);
    /// The input ends at window_start + window.size(): appends the last game.
    void finish(std::string_view window, std::uint64_t window_start, std::string& out);
    /// The first offset the writer still needs (nullopt: none; the input before it can go).
    [[nodiscard]] std::optional<std::uint64_t> needed() const {
        return pending_ ? std::optional(pending_->start) : std::nullopt;
    }
    /// Games written so far.
    [[nodiscard]] std::uint64_t written() const { return written_; }

private:
    struct Pending {
        std::uint64_t start = 0;
        std::vector<std::pair<std::uint64_t, std::string>> inserts;  // at offset, in order
        std::string from_moves;                                      // the game from its moves, when its bytes may go
    };
    void complete(std::uint64_t end, std::string_view window, std::uint64_t window_start, std::string& out);
    std::optional<Pending> pending_;
    std::uint64_t written_ = 0;

public:
    /// Set for a stream, whose bytes may be given up: each game is also kept as text built from
    /// its moves, for when its bytes are gone by the time it ends.
    bool bytes_may_go = false;
};

/// A game written from what was read (tags, mainline SAN, result) with the finding comments
/// after their plies: what --pgn-out writes when the game's own bytes are not held.
std::string pgn_from_moves(const pgn::ParsedGame& g, const audit::GameAudit& result);

/// The line printed at the end when the report goes to a file and stderr is a terminal:
/// "21 games, 15 with findings (40 findings), 1 with errors, 0.02 s".
std::string summary_line(const AuditCounts& c, double seconds);

/// The progress line: "12.3 of 264.0 MB, 4567 games, 890 games/s, ETA 36 s". `done` and `total`
/// are bytes over all the inputs (`total` 0 when a size is unknown: no "of", no ETA); no ETA before
/// a game was audited. The ETA assumes the rest goes at the rate so far.
std::string progress_line(std::uint64_t done, std::uint64_t total, std::uint64_t games, double seconds);

/// The kinds a finding of type `t` can have (the ending for missed_automatic_draw and
/// result_contradicts_position; `flag`; the claims; `tag_vs_marker`), in a stable order.
std::vector<const char*> finding_kinds(audit::FindingType t);
/// The summary: text, or one JSON object with `json` (findings nested by type, then kind, with
/// zero counts).
void print_summary(std::ostream& out, const AuditCounts& c, double seconds, std::uint64_t bytes, bool json);

}  // namespace arbiter::face
