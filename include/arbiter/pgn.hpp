// pgn.hpp — a streaming reader of Portable Game Notation. Bytes come from a ByteSource in chunks
// and are handed, token by token, to a Visitor (begin_game, tag, san, comment, nag, variations,
// result, end_game), so memory stays flat however large the input. Problems are reported per
// game, with line, column and byte offset; after one the reader resynchronises at the next game.
// A per-game budget bounds the work any one game can cause. See docs/pgn.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/input.hpp"
#include "arbiter/names.hpp"

namespace arbiter::pgn {

/// Where something is in the input: 1-based line and column (the column counts bytes from the
/// start of the line; a UTF-8 byte order mark does not count) and the 0-based byte offset in the
/// decompressed input.
struct SourcePos {
    std::uint32_t line = 0;
    std::uint32_t column = 0;
    std::uint64_t offset = 0;
};

/// One problem found in a game. The codes are stable names (see code_name); `pos` points at the
/// first byte of the offending token, tag or bracket.
struct Error {
    enum class Code : std::uint8_t {
        // Found by the Reader (syntax).
        bad_tag,                 ///< a tag pair that is not `[Name "value"]`
        unterminated_string,     ///< a tag value without its closing quote on the same line
        unterminated_comment,    ///< a `{` comment that never closes (before the next game or the end)
        unterminated_variation,  ///< a `(` that is still open when the game ends
        unexpected_char,         ///< a character that starts no PGN token (e.g. a stray `)` or `}`)
        token_too_long,          ///< a move-like token longer than the limit
        budget_exceeded,         ///< the game went over ReaderOptions' token or depth budget
        input_error,             ///< the input could not be read further (see Reader::input_error)
        game_too_long,           ///< more mainline plies or bytes than ReaderOptions allows
        truncated_game,          ///< the input ends in a game that has no termination marker
        tag_too_long,            ///< a tag line longer than ReaderOptions::max_tag_bytes
        // Found by the GameReader (meaning).
        bad_fen,              ///< the FEN tag does not describe a legal position
        unsupported_variant,  ///< a Variant tag other than standard chess or Chess960
        bad_move_syntax,      ///< a token in the mainline that is not a move (SAN or UCI)
        illegal_move,         ///< a well-formed move that is not legal in the position
        ambiguous_move,       ///< a move that matches several legal moves
        null_move,            ///< "--", "Z0" or "0000" in the mainline
        duplicate_tag,        ///< a second FEN, SetUp, Variant or Result tag with another value
        missing_fen,          ///< SetUp "1" without a FEN tag: the start position is unknown
        not_utf8,             ///< a tag value that is not UTF-8, read as Latin-1 (a warning: the game is read)
    };
    Code code;
    SourcePos pos;
    std::string message;
    std::string token;  ///< the offending move as written (move errors), else empty
};

/// Stable name of an error code, e.g. "illegal_move".
}  // namespace arbiter::pgn

namespace arbiter {
template <>
struct EnumNames<pgn::Error::Code> {
    static constexpr auto names = std::to_array<const char*>({"bad_tag",
                                                              "unterminated_string",
                                                              "unterminated_comment",
                                                              "unterminated_variation",
                                                              "unexpected_char",
                                                              "token_too_long",
                                                              "budget_exceeded",
                                                              "input_error",
                                                              "game_too_long",
                                                              "truncated_game",
                                                              "tag_too_long",
                                                              "bad_fen",
                                                              "unsupported_variant",
                                                              "bad_move_syntax",
                                                              "illegal_move",
                                                              "ambiguous_move",
                                                              "null_move",
                                                              "duplicate_tag",
                                                              "missing_fen",
                                                              "not_utf8"});
};
static_assert(enum_count<pgn::Error::Code> == std::size_t(pgn::Error::Code::not_utf8) + 1);
}  // namespace arbiter

namespace arbiter::pgn {

constexpr const char* code_name(Error::Code c) noexcept { return enum_name(c); }

/// Comment commands recognised inside `{…}` comments: `[%clk 1:02:03.4]` (the clock of the side
/// that has just moved) and `[%emt 0:00:05]` (the time that move took). Values in milliseconds,
/// -1 when absent.
struct CommentInfo {
    SourcePos pos;
    std::int64_t clk_ms = -1;
    std::int64_t emt_ms = -1;
    /// True when the text was cut at ReaderOptions::max_comment_bytes (the rest is skipped).
    bool truncated = false;
};

/// Parses "h:mm:ss", "h:mm:ss.f…", "mm:ss" or "ss" into milliseconds; -1 when it is none of these.
std::int64_t parse_clock(std::string_view text) noexcept;

/// Whether the visitor wants the next part of the game (movetext or a variation) at all.
enum class Skip : std::uint8_t { no, yes };

/// Receives a game's tokens in order. Every method has a default that ignores the token. The
/// string_views stay valid only during the call.
class Visitor {
public:
    virtual ~Visitor() = default;
    /// A game starts: at its first tag, or at its first move or result when it has no tags.
    /// `index` counts games from 1.
    virtual void begin_game(std::uint64_t index, SourcePos pos) { (void)index, (void)pos; }
    /// A tag pair, with `\"` and `\\` escapes resolved.
    virtual void tag(std::string_view name, std::string_view value, SourcePos pos) {
        (void)name, (void)value, (void)pos;
    }
    /// The tags are over and the movetext starts. Skip::yes skips the movetext up to the result
    /// (still checked for syntax and budget; only errors, result and end_game reach the visitor).
    virtual Skip begin_movetext() { return Skip::no; }
    /// A move token as written, without move number and without a trailing `!`/`?` annotation
    /// (which comes next as a nag), e.g. "Nbd7", "exd8=Q+", "O-O", "e2e4", "--".
    virtual void san(std::string_view text, SourcePos pos) { (void)text, (void)pos; }
    /// A numeric annotation glyph: `$n`, or the suffix annotations `!` 1, `?` 2, `!!` 3, `??` 4,
    /// `!?` 5, `?!` 6.
    virtual void nag(int nag, SourcePos pos) { (void)nag, (void)pos; }
    /// A comment: the text between `{` and `}`, or after `;` up to the end of the line.
    virtual void comment(std::string_view text, const CommentInfo& info) { (void)text, (void)info; }
    /// A variation opens. Skip::yes skips it (nested ones included) up to its closing bracket;
    /// end_variation is then not called for it.
    virtual Skip begin_variation(SourcePos pos) {
        (void)pos;
        return Skip::no;
    }
    virtual void end_variation() {}
    /// The game termination marker: "1-0", "0-1", "1/2-1/2" or "*".
    virtual void result(std::string_view text, SourcePos pos) { (void)text, (void)pos; }
    /// A problem. After a syntax error the rest of the game is skipped (the reader resynchronises
    /// at the next tag section) and end_game follows.
    virtual void error(const Error& e) { (void)e; }
    /// The game is over (always called after begin_game).
    virtual void end_game() {}
};

/// Limits that keep one pathological game from costing unbounded time or memory. Going over one
/// reports Error::Code::game_too_long (plies, bytes) or budget_exceeded (tokens, depth) and skips
/// the rest of the game.
struct ReaderOptions {
    /// Mainline moves of one game. FIDE 9.6.2 (the 75-move rule and fivefold repetition) ends
    /// every game within 17,697 plies; the default is a little above, so that memory per game is
    /// bounded by a constant. Raise it for composed or engine games that ignore 9.6.
    std::uint32_t max_game_plies = 18'000;
    std::uint64_t max_game_bytes = 64ull << 20;  ///< bytes of one game, tags and movetext
    std::uint64_t max_game_tokens = 1u << 20;    ///< tokens of one game (tags, moves, comments…)
    std::uint32_t max_variation_depth = 256;     ///< nesting depth of `(…)`
    /// Longest comment text passed to the visitor; longer ones are cut (CommentInfo::truncated).
    std::size_t max_comment_bytes = 1u << 20;
    /// Longest tag line and longest move token.
    std::size_t max_tag_bytes = 1u << 16;
    std::size_t max_token_bytes = 256;
    /// The input is a piece of a larger one, cut just before a game boundary (BoundaryFinder):
    /// its end is the start of the next game, not the end of the input, so a last game without a
    /// termination marker is not `truncated_game` and an open comment is "not closed before the
    /// next game".
    bool input_continues = false;
};

/// Game boundaries: where a run of PGN may be cut into pieces that read, one after another,
/// exactly as the whole does (same games, same errors, same positions once offsets are added).
/// A boundary is the start of a line that begins with `[Event ` and follows a blank line (a line
/// of spaces, tabs and a CR at most). The Reader starts a new game there whatever it was reading
/// — a tag section, movetext, a variation, a `{` comment left open, or a game it was skipping
/// after an error. The batch audit cuts its input there; a distributed reader can do the same.
///
/// Finds boundaries in a growing buffer without scanning any byte twice: call find() after each
/// append; after cutting the text before a boundary away, call reset().
class BoundaryFinder {
public:
    /// The offset of the first boundary at or after `min_offset` in `text`, or npos when there
    /// is none yet (more text may complete one).
    [[nodiscard]] std::size_t find(std::string_view text, std::size_t min_offset) noexcept;
    /// The text before the last boundary found was removed: offsets start again from 0.
    void reset() noexcept { scanned_ = 0; }

private:
    std::size_t scanned_ = 0;
};

/// True when a game boundary (see BoundaryFinder) starts at `offset` of `text`; `text` must hold
/// the blank line before it and the newline before that (offset 0 is never one: nothing to cut).
[[nodiscard]] bool is_game_boundary(std::string_view text, std::size_t offset) noexcept;

/// The anchor of the game boundary at `offset` of `text` (is_game_boundary holds there): the
/// offset of the newline that ends the line before its blank line. Each boundary has one anchor
/// and no two share one, so readers that each start at some byte S of an input and take the
/// boundaries anchored at or after S — exactly those BoundaryFinder finds in the text from S on —
/// divide its games among them whatever the S (the distributed audit's byte ranges).
[[nodiscard]] std::size_t game_boundary_anchor(std::string_view text, std::size_t offset) noexcept;

/// Streams games out of a ByteSource. Single-threaded; one Reader per source.
class Reader {
public:
    explicit Reader(ByteSource& source, ReaderOptions options = {});
    ~Reader();
    Reader(const Reader&) = delete;
    Reader& operator=(const Reader&) = delete;

    /// Reads the next game and passes its tokens to `visitor`. Returns false, without calling the
    /// visitor, when no game is left.
    bool read_game(Visitor& visitor);
    /// Reads every game that is left; returns how many.
    std::uint64_t read_all(Visitor& visitor);

    /// Games begun so far.
    [[nodiscard]] std::uint64_t games() const noexcept;
    /// Decompressed bytes consumed so far.
    [[nodiscard]] std::uint64_t bytes() const noexcept;
    /// The error that ended the input early (also reported to the game that was being read).
    [[nodiscard]] const std::optional<InputError>& input_error() const noexcept;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace arbiter::pgn
