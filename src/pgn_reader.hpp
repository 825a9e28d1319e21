// pgn_reader.hpp — the inside of the streaming PGN reader (pgn::Reader::Impl), shared by the
// files that implement it by concept: pgn.cpp (the buffer, game boundaries, a game's start and
// end), pgn_tags.cpp (tag pairs), pgn_comments.cpp (comments and their commands) and
// pgn_movetext.cpp (moves, move numbers, NAGs, variations, results). Internal to the library.
#pragma once

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/pgn.hpp"

namespace arbiter::pgn {

// The bytes of PGN told apart (each part of the reader asks them).
namespace lex {
inline constexpr bool is_space(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}
inline constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
inline constexpr bool is_alpha(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Characters that may continue a move-like word: letters, digits and the SAN punctuation. A
// table, since the tokenizer asks this of nearly every byte of movetext.
inline constexpr bool word_char_rule(char c) noexcept {
    return is_alpha(c) || is_digit(c) || c == '+' || c == '#' || c == '=' || c == '-' || c == ':' || c == '/' ||
           c == '@' || c == '!' || c == '?' || c == '.';
}
inline constexpr auto word_chars = [] {
    std::array<bool, 256> t{};
    for (int c = 0; c < 256; ++c) t[static_cast<std::size_t>(c)] = word_char_rule(static_cast<char>(c));
    return t;
}();
inline constexpr bool is_word_char(char c) noexcept { return word_chars[static_cast<unsigned char>(c)]; }
// What skip_blanks makes of a byte, by a table: most bytes it meets are a blank or the first of a
// token, and each is then told apart by one load instead of a chain of compares.
enum class Blank : std::uint8_t { none, blank, newline, percent };
inline constexpr auto blank_kinds = [] {
    std::array<Blank, 256> t{};
    for (int c = 0; c < 256; ++c)
        t[static_cast<std::size_t>(c)] = c == '\n'                        ? Blank::newline
                                         : is_space(static_cast<char>(c)) ? Blank::blank
                                         : c == '%'                       ? Blank::percent
                                                                          : Blank::none;
    return t;
}();
inline constexpr bool is_tag_name_char(char c) noexcept {
    return is_alpha(c) || is_digit(c) || c == '_' || c == '+' || c == '#' || c == '=' || c == ':' || c == '-';
}

// Suffix annotations and the common evaluation glyphs, written as tokens of their own.
inline int glyph_nag(std::string_view w) noexcept {
    static constexpr struct {
        std::string_view text;
        int nag;
    } table[] = {
        {"!", 1},       {"?", 2},       {"!!", 3},     {"??", 4},      {"!?", 5},      {"?!", 6},
        {"=", 10},      {"+=", 14},     {"=+", 15},    {"+/=", 14},    {"=/+", 15},    {"+/-", 16},
        {"-/+", 17},    {"+-", 18},     {"-+", 19},    {"\u00b1", 16}, {"\u2213", 17}, {"\u2a72", 14},
        {"\u2a71", 15}, {"\u221e", 13}, {"\u25a1", 7}, {"N", 146},
    };
    for (const auto& g : table)
        if (g.text == w) return g.nag;
    return 0;
}
}  // namespace lex

using namespace lex;

struct Reader::Impl {
    ByteSource& source;
    ReaderOptions opt;
    // The bytes being read: the source's own text while it lends it (ByteSource::lend), else
    // `own`. Never written through.
    const char* buf = nullptr;
    std::size_t capacity = 0;  // bytes `buf` can hold
    bool lent = false;         // `buf` is the source's text
    std::vector<char> own;
    std::size_t pos = 0;     // next unread byte
    std::size_t end = 0;     // end of the bytes read
    std::uint64_t base = 0;  // input offset of buf[0]
    std::uint32_t line = 1;
    std::uint64_t line_start = 0;  // input offset of the first byte of the current line
    bool eof = false;
    bool started = false;
    bool line_blank = true;              // nothing but blanks seen on the current line so far
    bool token_at_bol = false;           // the byte skip_blanks stopped at is the first on its line
    std::uint32_t newlines_skipped = 0;  // by the last skip_blanks (after a tag line, 1 or more: a blank line)
    std::string tag_names;               // names of this game's tags, each followed by '\n'
    std::optional<InputError> input_err;
    std::uint64_t games = 0;

    // Per game.
    Visitor* v = nullptr;
    std::uint64_t game_start = 0;
    std::uint64_t tokens = 0;
    std::uint32_t plies = 0;        // mainline moves
    std::uint32_t tag_lines = 0;    // tag lines read (good or bad)
    std::uint32_t game_errors = 0;  // errors reported
    std::uint32_t depth = 0;        // open variations
    std::uint32_t skip_depth = 0;   // of which skipped (the innermost ones)
    bool skip_movetext = false;
    bool game_over = false;
    SourcePos first_open{};  // the outermost open '('
    std::string scratch;

    Impl(ByteSource& s, ReaderOptions o) : source(s), opt(o) {
        opt.max_token_bytes = std::clamp<std::size_t>(opt.max_token_bytes, 16, 1 << 16);
        opt.max_tag_bytes = std::clamp<std::size_t>(opt.max_tag_bytes, 64, 1 << 24);
        opt.max_comment_bytes = std::clamp<std::size_t>(opt.max_comment_bytes, 16, 1 << 28);
        const std::size_t keep = std::max({opt.max_token_bytes, opt.max_tag_bytes, opt.max_comment_bytes});
        max_buf = chunk + keep + 64;
    }

    static constexpr std::size_t initial_room = 1 << 16;
    std::size_t max_buf = 0;  // the buffer grows up to this

    static constexpr std::size_t chunk = 1 << 18;

    [[nodiscard]] std::uint64_t abs(std::size_t i) const noexcept { return base + i; }
    [[nodiscard]] SourcePos where(std::size_t i) const noexcept {
        const std::uint64_t a = abs(i);
        return SourcePos{line, static_cast<std::uint32_t>(a - line_start + 1), a};
    }

    // Moves the bytes from `pos` to the front, reads more, and shifts `i` to match. Returns false
    // when nothing more could be read (end of input, an input error, or a full buffer).
    bool pull(std::size_t& i) {
        if (eof) return false;
        if (!started && end == 0) {
            // A source that holds its text lends it: read in place, without a copy.
            if (const std::string_view text = source.lend(); !text.empty()) {
                buf = text.data();
                capacity = end = text.size();
                lent = true;
                return started_reading(i);
            }
        }
        if (lent) {
            // The lent text is read to its end: what is left of it moves to the front of a
            // buffer of our own, and the reading goes on from the source.
            own.resize(std::max(end - pos + 4096, own.size()));
            std::memcpy(own.data(), buf + pos, end - pos);
            lent = false;
            buf = own.data();
            capacity = own.size();
        } else if (own.empty()) {
            own.resize(std::min(max_buf, chunk + initial_room + 64));
            buf = own.data();
            capacity = own.size();
        } else if (pos > 0) {
            std::memmove(own.data(), own.data() + pos, end - pos);
        }
        if (pos > 0) {  // the bytes from pos are now at the front
            base += pos;
            end -= pos;
            i -= pos;
            pos = 0;
        }
        if (end == capacity) {
            if (capacity >= max_buf) return false;
            own.resize(std::min(max_buf, 2 * capacity));
            buf = own.data();
            capacity = own.size();
        }
        const std::size_t room = capacity - end;
        auto got = source.read(own.data() + end, room);
        if (!got) {
            input_err = std::move(got.error());
            eof = true;
            return false;
        }
        if (*got == 0) {
            eof = true;
            return false;
        }
        end += *got;
        return started_reading(i);
    }

    // After bytes came in: at the very start, a UTF-8 byte order mark is skipped (it does not
    // count as a column), also when it arrives in pieces (a pipe, a lent text cut inside it).
    bool started_reading(std::size_t& i) {
        if (started) return true;
        static constexpr unsigned char mark[3] = {0xEF, 0xBB, 0xBF};
        const std::size_t have = std::min<std::size_t>(end - pos, 3);
        std::size_t same = 0;
        while (same < have && static_cast<unsigned char>(buf[pos + same]) == mark[same]) ++same;
        if (same == have && have < 3) {
            // A part of the mark so far: more bytes decide (pull comes back here with them).
            if (pull(i)) return true;
            started = true;
            return true;  // the input ends inside the would-be mark: those bytes are read as they are
        }
        started = true;
        if (same == 3) {
            pos += 3;
            i = std::max(i, pos);
            line_start = abs(pos);
            if (i >= end) return pull(i);  // nothing but the mark was read
        }
        return true;
    }

    // Byte at i (reading more when needed), or -1 at the end.
    int at(std::size_t& i) {
        if (i >= end && !pull(i)) return -1;
        return static_cast<unsigned char>(buf[i]);
    }

    void newline_at(std::size_t i) noexcept {
        ++line;
        line_start = abs(i) + 1;
        line_blank = true;
    }

    // The byte k places after i (reading more when needed; i is kept in step), or -1.
    int peek(std::size_t& i, std::size_t k) {
        std::size_t j = i + k;
        const int b = at(j);
        i = j - k;
        return b;
    }

    // Counts the newlines in [from, to) and moves line_start after the last one.
    void count_lines(std::size_t from, std::size_t to) noexcept {
        const char* p = buf + from;
        const char* e = buf + to;
        while (p < e) {
            const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(e - p));
            if (!nl) break;
            const char* q = static_cast<const char*>(nl);
            newline_at(static_cast<std::size_t>(q - buf));
            p = q + 1;
        }
    }

    // Skips blanks, newlines and '%' escape lines. Leaves pos at the next significant byte.
    // Returns that byte, or -1 at the end.
    int skip_blanks() {
        newlines_skipped = 0;
        std::size_t i = pos;
        for (;;) {
            if (i >= end) {
                pos = i;
                if (!pull(i)) return -1;
            }
            const char c = buf[i];
            const Blank kind = blank_kinds[static_cast<unsigned char>(c)];
            if (kind == Blank::blank) {
                ++i;
            } else if (kind == Blank::newline) {
                newline_at(i);
                ++newlines_skipped;
                ++i;
            } else if (kind == Blank::percent && abs(i) == line_start) {
                pos = i;
                skip_line(i);
            } else {
                pos = i;
                token_at_bol = line_blank;
                line_blank = false;
                return static_cast<unsigned char>(c);
            }
        }
    }

    // Moves i past the end of the current line (its newline included).
    void skip_line(std::size_t& i) {
        for (;;) {
            const void* nl = std::memchr(buf + i, '\n', end - i);
            if (nl) {
                i = static_cast<std::size_t>(static_cast<const char*>(nl) - buf);
                newline_at(i);
                ++i;
                pos = i;
                return;
            }
            i = end;
            pos = i;
            if (!pull(i)) return;
        }
    }

    // Skips to the next line whose first non-blank byte is '[' (a tag section: the next game).
    void resync() {
        std::size_t i = pos;
        for (;;) {
            skip_line(i);
            int c;
            while ((c = at(i)) == ' ' || c == '\t' || c == '\r') {
                ++i;
                pos = i;
            }
            if (c < 0 || c == '[') {
                pos = i;
                return;
            }
        }
    }

    void report(Error::Code code, SourcePos p, std::string message) {
        ++game_errors;
        v->error(Error{code, p, std::move(message), {}});
    }

    // A syntax error: report it, skip to the next game and end this one.
    void fail(Error::Code code, SourcePos p, std::string message) {
        report(code, p, std::move(message));
        resync();
        game_over = true;
    }

    // Counts a token; true (after reporting) when the game is over its token or byte budget.
    // Asked before every token, so the common answer is an inline compare.
    bool over_budget(std::size_t i) {
        ++tokens;
        if (tokens <= opt.max_game_tokens && abs(i) - game_start <= opt.max_game_bytes) [[likely]]
            return false;
        return report_over_budget(i);
    }

    [[gnu::cold, gnu::noinline]] bool report_over_budget(std::size_t i) {
        if (tokens > opt.max_game_tokens) {
            fail(Error::Code::budget_exceeded, where(i),
                 "game has more than " + std::to_string(opt.max_game_tokens) + " tokens");
        } else {
            fail_too_long(i);
        }
        return true;
    }

    // The game is over its byte budget at index i.
    void fail_too_long(std::size_t i) {
        fail(Error::Code::game_too_long, where(i),
             "game is longer than " + std::to_string(opt.max_game_bytes) + " bytes (ReaderOptions::max_game_bytes)");
    }

    [[nodiscard]] bool quiet() const noexcept { return skip_movetext || skip_depth > 0; }

    // --- Tags ------------------------------------------------------------------------------

    // The tag line starting at pos ('['): made whole in the buffer, then parsed.
    void read_tag();

    // Is the tag at pos ('[') an Event tag, or one whose name this game already has?
    bool next_tag_starts_game();

    // --- Comments --------------------------------------------------------------------------

    enum class CommentEnd : std::uint8_t { closed, next_game, end_of_input, too_long };

    // Scans the '{' comment at pos (p is where it is) up to its '}' (pos is then after it), up to
    // a blank line followed by a tag section (pos at the '['), up to the end of the input, or, in a
    // game (`in_game`), up to the byte where the game goes over max_game_bytes (pos there). In a
    // game its text goes to the visitor, cut at max_comment_bytes. Both limits are decided on
    // byte counts alone, never on how much of the input the buffer holds, so that the outcome
    // does not depend on where the input was cut into pieces.
    CommentEnd scan_brace_comment(bool in_game, SourcePos p);

    // A comment not closed, scanned up to i: its first max_comment_bytes go to the visitor when
    // it is longer than that (as they do when a buffer end comes first); pos moves to i.
    CommentEnd left_open(CommentEnd e, std::size_t i, bool truncated, SourcePos p);

    [[nodiscard]] const char* open_comment_message(CommentEnd e) const noexcept;

    // A '{' comment in a game. Returns false when the game must end (unterminated or budget).
    bool read_brace_comment() {
        const SourcePos p = where(pos);
        if (clock_comment(p)) return true;
        const CommentEnd e = scan_brace_comment(true, p);
        if (e == CommentEnd::closed) return true;
        if (e == CommentEnd::too_long) {
            fail_too_long(pos);
            return false;
        }
        report(Error::Code::unterminated_comment, p, open_comment_message(e));
        game_over = true;
        return false;
    }

    // The comment Lichess writes after every move, "{ [%clk H:MM:SS] }", read at pos ('{') without
    // a scan: true when it is that, whole in the buffer and within the game's byte budget; the
    // visitor gets what scan_brace_comment and deliver_comment would give it.
    bool clock_comment(SourcePos p) {
        constexpr std::size_t size = 18;  // "{ [%clk 0:03:00] }"
        if (end - pos < size || abs(pos) + size > game_start + opt.max_game_bytes + 1 ||
            opt.max_comment_bytes < size - 2)
            return false;
        const char* const c = buf + pos;
        if (c[0] != '{' || c[1] != ' ' || c[16] != ' ' || c[17] != '}') return false;
        const std::int64_t ms = lone_clock(std::string_view(c + 2, 14));
        if (ms < 0) return false;
        ++tokens;
        pos += size;
        line_blank = false;
        if (quiet()) return true;
        CommentInfo info;
        info.pos = p;
        info.clk_ms = ms;
        v->comment(std::string_view(c + 1, size - 2), info);
        return true;
    }

    void deliver_comment(std::size_t from, std::size_t to, SourcePos p, bool truncated) {
        ++tokens;
        if (quiet()) return;
        const std::string_view text(buf + from, to - from);
        CommentInfo info;
        info.pos = p;
        info.truncated = truncated;
        if (std::memchr(text.data(), '%', text.size())) parse_commands(text, info);
        v->comment(text, info);
    }

    // The milliseconds of "[%clk H:MM:SS]" (exactly that, nothing around it), or -1.
    static std::int64_t lone_clock(std::string_view c) noexcept {
        if (c.size() != 14 || c.substr(0, 6) != "[%clk " || c[13] != ']') return -1;
        return parse_clock(c.substr(6, 7));
    }

    static void parse_commands(std::string_view text, CommentInfo& info);

    // A ';' comment at pos: up to the end of the line.
    void read_line_comment();

    // --- Movetext ----------------------------------------------------------------------------

    // Scans a word from pos; returns its end (index), or npos when it is too long.
    std::size_t scan_word(std::size_t from) {
        std::size_t i = from;
        for (;;) {
            while (i < end && is_word_char(buf[i])) ++i;
            if (i < end) break;
            if (i - pos > opt.max_token_bytes) break;
            if (!pull(i)) break;
        }
        return i;
    }

    void end_result(std::string_view text, SourcePos p) {
        if (depth > 0) return;  // a result inside a variation is not the game's
        v->result(text, p);
        game_over = true;
    }

    // One movetext token at pos (the byte c). Returns false when the game ends.
    bool movetext_token(int c);

    // The refusals of movetext_token, built out of its hot path. Returns false (the game ends).
    enum class Refusal {
        deep_variation,
        unopened_variation,
        bare_dollar,
        long_token,
        non_ascii,
        no_move,
        many_plies,
        bad_char
    };
    [[gnu::cold, gnu::noinline]] bool fail_cold(Refusal r, SourcePos p, std::string_view word = {}, int c = 0);

    // --- Games -------------------------------------------------------------------------------

    // Starts game number `games + 1` at p.
    void begin_game(SourcePos p) {
        ++games;
        game_start = p.offset;
        tokens = 0;
        plies = 0;
        tag_lines = 0;
        game_errors = 0;
        depth = 0;
        skip_depth = 0;
        skip_movetext = false;
        game_over = false;
        v->begin_game(games, p);
    }

    void end_game() {
        if (input_err) report(Error::Code::input_error, where(pos), input_err->describe());
        v->end_game();
        v = nullptr;
    }

    bool read_game(Visitor& visitor);
};

}  // namespace arbiter::pgn
