// pgn.cpp — the streaming PGN tokenizer and reader.
//
// The reader owns one buffer: a read chunk and some room, grown on demand up to a read chunk plus
// the longest token it keeps whole (a reader of short games never pays for the longest comment). Scanning works on
// indices into that buffer; when a token runs into the end of the bytes read so far, `pull` moves the unread tail (from
// `pos_`, the start of the current token) to the front and reads more. Nothing recurses: variation nesting is a
// counter.
#include "arbiter/pgn.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

namespace arbiter::pgn {

std::int64_t parse_clock(std::string_view text) noexcept {
    // The common form first, as Lichess writes every clock: H:MM:SS.
    if (text.size() == 7 && text[1] == ':' && text[4] == ':') {
        const auto d = [&](std::size_t k) { return static_cast<unsigned>(text[k] - '0'); };
        if (d(0) <= 9 && d(2) <= 9 && d(3) <= 9 && d(5) <= 9 && d(6) <= 9)
            return ((d(0) * 60 + d(2) * 10 + d(3)) * 60 + d(5) * 10 + d(6)) * std::int64_t{1000};
    }
    // Up to three colon-separated integer fields, the last one with an optional fraction.
    std::int64_t fields[3] = {0, 0, 0};
    int count = 0;
    std::size_t i = 0;
    const std::size_t n = text.size();
    std::int64_t millis = 0;
    for (;;) {
        if (i >= n || text[i] < '0' || text[i] > '9') return -1;
        std::int64_t v = 0;
        int digits = 0;
        while (i < n && text[i] >= '0' && text[i] <= '9') {
            if (++digits > 9) return -1;
            v = v * 10 + (text[i] - '0');
            ++i;
        }
        if (count == 3) return -1;
        fields[count++] = v;
        if (i < n && text[i] == ':') {
            ++i;
            continue;
        }
        if (i < n && text[i] == '.') {
            ++i;
            std::int64_t scale = 100;
            if (i >= n || text[i] < '0' || text[i] > '9') return -1;
            while (i < n && text[i] >= '0' && text[i] <= '9') {
                millis += (text[i] - '0') * scale;
                scale /= 10;
                ++i;
            }
        }
        break;
    }
    if (i != n) return -1;
    std::int64_t seconds = 0;
    for (int k = 0; k < count; ++k) seconds = seconds * 60 + fields[k];
    return seconds * 1000 + millis;
}

namespace {

constexpr bool is_space(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}
constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
constexpr bool is_alpha(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Characters that may continue a move-like word: letters, digits and the SAN punctuation. A
// table, since the tokenizer asks this of nearly every byte of movetext.
constexpr bool word_char_rule(char c) noexcept {
    return is_alpha(c) || is_digit(c) || c == '+' || c == '#' || c == '=' || c == '-' || c == ':' || c == '/' ||
           c == '@' || c == '!' || c == '?' || c == '.';
}
constexpr auto word_chars = [] {
    std::array<bool, 256> t{};
    for (int c = 0; c < 256; ++c) t[static_cast<std::size_t>(c)] = word_char_rule(static_cast<char>(c));
    return t;
}();
constexpr bool is_word_char(char c) noexcept { return word_chars[static_cast<unsigned char>(c)]; }
// What skip_blanks makes of a byte, by a table: most bytes it meets are a blank or the first of a
// token, and each is then told apart by one load instead of a chain of compares.
enum class Blank : std::uint8_t { none, blank, newline, percent };
constexpr auto blank_kinds = [] {
    std::array<Blank, 256> t{};
    for (int c = 0; c < 256; ++c)
        t[static_cast<std::size_t>(c)] = c == '\n'                        ? Blank::newline
                                         : is_space(static_cast<char>(c)) ? Blank::blank
                                         : c == '%'                       ? Blank::percent
                                                                          : Blank::none;
    return t;
}();
constexpr bool is_tag_name_char(char c) noexcept {
    return is_alpha(c) || is_digit(c) || c == '_' || c == '+' || c == '#' || c == '=' || c == ':' || c == '-';
}

// Suffix annotations and the common evaluation glyphs, written as tokens of their own.
int glyph_nag(std::string_view w) noexcept {
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

}  // namespace

// --- Game boundaries ---------------------------------------------------------------------

namespace {

constexpr std::string_view boundary_tag = "[Event ";

// Where the blank run of the line that ends with the newline at `nl` begins.
std::size_t blank_run_start(std::string_view text, std::size_t nl) noexcept {
    std::size_t k = nl;
    while (k > 0 && (text[k - 1] == ' ' || text[k - 1] == '\t' || text[k - 1] == '\r')) --k;
    return k;
}

// Is the line that ends with the newline at `nl` blank, and is there a newline before it?
bool blank_line_before(std::string_view text, std::size_t nl) noexcept {
    const std::size_t k = blank_run_start(text, nl);
    return k > 0 && text[k - 1] == '\n';
}

}  // namespace

bool is_game_boundary(std::string_view text, std::size_t offset) noexcept {
    return offset > 0 && offset < text.size() && text[offset - 1] == '\n' &&
           text.substr(offset).starts_with(boundary_tag) && blank_line_before(text, offset - 1);
}

std::size_t game_boundary_anchor(std::string_view text, std::size_t offset) noexcept {
    return blank_run_start(text, offset - 1) - 1;
}

std::size_t BoundaryFinder::find(std::string_view text, std::size_t min_offset) noexcept {
    // Searched for: the newline before "[Event "; then the line before that newline is looked at.
    static constexpr std::string_view marker = "\n[Event ";
    static_assert(marker.substr(1) == boundary_tag);
    std::size_t from = std::max(scanned_, min_offset > 0 ? min_offset - 1 : 0);
    for (;;) {
        const std::size_t at = text.find(marker, from);
        if (at == std::string_view::npos) {
            scanned_ = text.size() >= marker.size() ? std::max(from, text.size() - marker.size()) : from;
            return std::string_view::npos;
        }
        if (is_game_boundary(text, at + 1)) {
            scanned_ = 0;
            return at + 1;
        }
        from = at + 1;
    }
}

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
    void read_tag() {
        const SourcePos p = where(pos);
        std::size_t i = pos;
        std::size_t eol = 0;
        bool too_long = false;  // decided on the line's length alone, not on how much the buffer holds
        for (;;) {
            const void* nl = std::memchr(buf + i, '\n', end - i);
            if (nl) {
                eol = static_cast<std::size_t>(static_cast<const char*>(nl) - buf);
                too_long = eol - pos > opt.max_tag_bytes;
                break;
            }
            i = end;
            if (end - pos > opt.max_tag_bytes) {
                too_long = true;
                break;
            }
            if (!pull(i)) {
                eol = end;  // last line without a newline
                too_long = eol - pos > opt.max_tag_bytes;
                break;
            }
        }
        if (too_long) {
            report(Error::Code::tag_too_long, p,
                   "tag line longer than " + std::to_string(opt.max_tag_bytes) + " bytes (the tag is skipped)");
            skip_line(i);
            return;
        }
        // Parse [pos, eol): possibly several tags on one line.
        i = pos;
        bool bad = false;
        while (!bad && i < eol && buf[i] == '[') {
            bad = true;
            const SourcePos tp = where(i);
            ++i;
            while (i < eol && (buf[i] == ' ' || buf[i] == '\t')) ++i;
            const std::size_t name_start = i;
            while (i < eol && is_tag_name_char(buf[i])) ++i;
            const std::string_view name(buf + name_start, i - name_start);
            if (name.empty()) {
                report(Error::Code::bad_tag, tp, "tag without a name");
                break;
            }
            while (i < eol && (buf[i] == ' ' || buf[i] == '\t')) ++i;
            if (i >= eol || buf[i] != '"') {
                report(Error::Code::bad_tag, where(i), "tag " + std::string(name) + ": value must be in double quotes");
                break;
            }
            const SourcePos quote = where(i);
            ++i;
            scratch.clear();
            bool closed = false;
            // Is there only blank space and ']' (then the end of the line) after index k?
            auto closes = [&](std::size_t k, bool need_eol) {
                while (k < eol && (buf[k] == ' ' || buf[k] == '\t')) ++k;
                if (k >= eol || buf[k] != ']') return false;
                if (!need_eol) return true;
                ++k;
                while (k < eol && is_space(buf[k])) ++k;
                return k >= eol;
            };
            while (i < eol) {
                // A run of plain bytes is copied at once.
                std::size_t run = i;
                while (run < eol && buf[run] != '"' && buf[run] != '\\' && buf[run] != '\r') ++run;
                scratch.append(buf + i, run - i);
                i = run;
                if (i >= eol) break;
                const char c = buf[i];
                if (c == '\\' && i + 1 < eol && buf[i + 1] == '"') {
                    // `\"` is an escaped quote, unless it ends the line's last tag: then the
                    // backslash is literal (e.g. [Event "C:\"]).
                    if (closes(i + 2, true)) {
                        scratch += '\\';
                        i += 1;
                        continue;
                    }
                    scratch += '"';
                    i += 2;
                } else if (c == '\\' && i + 1 < eol && buf[i + 1] == '\\') {
                    scratch += '\\';
                    i += 2;
                } else if (c == '"') {
                    if (closes(i + 1, false)) {
                        closed = true;
                        ++i;
                        break;
                    }
                    scratch += '"';  // an unescaped quote inside the value
                    ++i;
                } else {
                    if (c != '\r') scratch += c;
                    ++i;
                }
            }
            if (!closed) {
                report(Error::Code::unterminated_string, quote,
                       "tag " + std::string(name) + ": value has no closing quote on its line");
                break;
            }
            while (i < eol && (buf[i] == ' ' || buf[i] == '\t')) ++i;
            ++i;  // ']' (checked by closes)
            ++tokens;
            tag_names += name;
            tag_names += '\n';
            v->tag(name, scratch, tp);
            while (i < eol && is_space(buf[i])) ++i;
            bad = false;
        }
        // The rest of the line: blanks, or movetext after the tags ([Result "*"] e4 *), which is
        // left for the movetext reader.
        while (i < eol && is_space(buf[i])) ++i;
        if (!bad && i < eol) {
            pos = i;
            line_blank = false;
            return;
        }
        i = eol;
        pos = i;
        if (i < end) {
            newline_at(i);
            pos = i + 1;
        }
    }

    // Is the tag at pos ('[') an Event tag, or one whose name this game already has?
    bool next_tag_starts_game() {
        std::size_t i = pos;
        std::size_t k = 1;
        while (peek(i, k) == ' ') ++k;
        std::string name;
        for (int b; (b = peek(i, k)) >= 0 && is_tag_name_char(static_cast<char>(b)) && name.size() < 64; ++k)
            name += static_cast<char>(b);
        if (name == "Event") return true;
        name += '\n';
        for (std::size_t at = 0; (at = tag_names.find(name, at)) != std::string::npos; ++at)
            if (at == 0 || tag_names[at - 1] == '\n') return true;
        return false;
    }

    // --- Comments --------------------------------------------------------------------------

    enum class CommentEnd : std::uint8_t { closed, next_game, end_of_input, too_long };

    // Scans the '{' comment at pos (p is where it is) up to its '}' (pos is then after it), up to
    // a blank line followed by a tag section (pos at the '['), up to the end of the input, or, in a
    // game (`in_game`), up to the byte where the game goes over max_game_bytes (pos there). In a
    // game its text goes to the visitor, cut at max_comment_bytes. Both limits are decided on
    // byte counts alone, never on how much of the input the buffer holds, so that the outcome
    // does not depend on where the input was cut into pieces.
    CommentEnd scan_brace_comment(bool in_game, SourcePos p) {
        ++pos;  // '{'
        std::size_t i = pos;
        bool truncated = !in_game;  // between games nothing is kept
        bool blank = false;         // the comment's current line has only blanks so far (never its first)
        const std::uint64_t limit = in_game ? game_start + opt.max_game_bytes + 1 : UINT64_MAX;
        for (;;) {
            if (i >= end) {
                if (!truncated && end - pos > opt.max_comment_bytes) {
                    deliver_comment(pos, pos + opt.max_comment_bytes, p, true);
                    truncated = true;
                }
                if (truncated) pos = i;  // nothing more to keep
                if (!pull(i)) return left_open(CommentEnd::end_of_input, i, truncated, p);
                continue;
            }
            const std::size_t cap = limit - base < end ? static_cast<std::size_t>(limit - base) : end;
            if (i >= cap) return left_open(CommentEnd::too_long, i, truncated, p);
            const char* s = buf + i;
            const void* close = std::memchr(s, '}', cap - i);
            const std::size_t stop = close ? static_cast<std::size_t>(static_cast<const char*>(close) - buf) : cap;
            const void* nl = std::memchr(s, '\n', stop - i);
            const std::size_t upto = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - buf) : stop;
            if (blank) blank = std::all_of(s, static_cast<const char*>(buf + upto), is_space);
            if (!nl) {
                if (close) {
                    if (!truncated)
                        deliver_comment(pos, std::min(stop, pos + opt.max_comment_bytes), p,
                                        stop - pos > opt.max_comment_bytes);
                    pos = stop + 1;
                    line_blank = false;
                    return CommentEnd::closed;
                }
                i = stop;
                continue;
            }
            // A newline inside the comment. A blank line followed by a tag ("[Event") means the
            // comment was left open: it ends here and the next game starts.
            const bool was_blank = blank;
            newline_at(upto);
            i = upto + 1;
            blank = true;
            if (was_blank && peek(i, 0) == '[' && is_alpha(static_cast<char>(peek(i, 1))))
                return left_open(CommentEnd::next_game, i, truncated, p);
        }
    }

    // A comment not closed, scanned up to i: its first max_comment_bytes go to the visitor when
    // it is longer than that (as they do when a buffer end comes first); pos moves to i.
    CommentEnd left_open(CommentEnd e, std::size_t i, bool truncated, SourcePos p) {
        if (!truncated && i - pos > opt.max_comment_bytes) deliver_comment(pos, pos + opt.max_comment_bytes, p, true);
        pos = i;
        return e;
    }

    [[nodiscard]] const char* open_comment_message(CommentEnd e) const noexcept {
        return e == CommentEnd::next_game || (opt.input_continues && !input_err)
                   ? "comment is not closed before the next game"
                   : "comment is not closed before the end of the input";
    }

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

    static void parse_commands(std::string_view text, CommentInfo& info) {
        // The common comment first, a clock alone: " [%clk H:MM:SS] " (blanks around it optional).
        {
            std::size_t a = 0, b = text.size();
            while (a < b && text[a] == ' ') ++a;
            while (b > a && text[b - 1] == ' ') --b;
            if (const std::int64_t ms = lone_clock(text.substr(a, b - a)); ms >= 0) {
                info.clk_ms = ms;
                return;
            }
        }
        std::size_t k = 0;
        while ((k = text.find("[%", k)) != std::string_view::npos) {
            k += 2;
            const std::size_t close = text.find(']', k);
            if (close == std::string_view::npos) return;
            std::string_view cmd = text.substr(k, close - k);
            // The name ends at the first space, tab, CR or LF (a loop: find_first_of searches
            // the set for every byte).
            std::size_t sp = 0;
            while (sp < cmd.size() && cmd[sp] != ' ' && cmd[sp] != '\t' && cmd[sp] != '\r' && cmd[sp] != '\n') ++sp;
            if (sp < cmd.size()) {
                const std::string_view name = cmd.substr(0, sp);
                std::string_view arg = cmd.substr(sp);
                while (!arg.empty() && is_space(arg.front())) arg.remove_prefix(1);
                while (!arg.empty() && is_space(arg.back())) arg.remove_suffix(1);
                if (name == "clk")
                    info.clk_ms = parse_clock(arg);
                else if (name == "emt")
                    info.emt_ms = parse_clock(arg);
            }
            k = close + 1;
        }
    }

    // A ';' comment at pos: up to the end of the line.
    void read_line_comment() {
        const SourcePos p = where(pos);
        ++pos;
        std::size_t i = pos;
        for (;;) {
            const void* nl = std::memchr(buf + i, '\n', end - i);
            if (nl) {
                std::size_t e = static_cast<std::size_t>(static_cast<const char*>(nl) - buf);
                std::size_t t = e;
                if (t > pos && buf[t - 1] == '\r') --t;
                deliver_comment(pos, std::min(t, pos + opt.max_comment_bytes), p, t - pos > opt.max_comment_bytes);
                newline_at(e);
                pos = e + 1;
                return;
            }
            i = end;
            if (i - pos > opt.max_comment_bytes) {
                deliver_comment(pos, pos + opt.max_comment_bytes, p, true);
                skip_line(i);
                return;
            }
            if (!pull(i)) {
                deliver_comment(pos, end, p, false);
                pos = end;
                return;
            }
        }
    }

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
    bool movetext_token(int c) {
        const std::size_t start = pos;
        const SourcePos p = where(start);
        if (over_budget(start)) return false;
        switch (c) {
            case '{': return read_brace_comment();
            case ';': read_line_comment(); return true;
            case '(':
                ++pos;
                if (depth == 0) first_open = p;
                if (++depth > opt.max_variation_depth) return fail_cold(Refusal::deep_variation, p);
                if (quiet()) {
                    if (skip_depth > 0) ++skip_depth;
                } else if (v->begin_variation(p) == Skip::yes) {
                    skip_depth = 1;
                }
                return true;
            case ')':
                if (depth == 0) return fail_cold(Refusal::unopened_variation, p);
                ++pos;
                --depth;
                if (skip_depth > 0) {
                    --skip_depth;
                } else if (!skip_movetext) {
                    v->end_variation();
                }
                return true;
            case '$': {
                std::size_t i = pos + 1;
                int n = 0;
                int digits = 0;
                for (;;) {
                    if (i >= end && !pull(i)) break;
                    if (!is_digit(buf[i])) break;
                    if (digits < 6) n = n * 10 + (buf[i] - '0');
                    ++digits;
                    ++i;
                }
                if (digits == 0) return fail_cold(Refusal::bare_dollar, p);
                pos = i;
                if (!quiet()) v->nag(n, p);
                return true;
            }
            case '*':
                ++pos;
                end_result("*", p);
                return !game_over;
            default: break;
        }
        if (is_digit(static_cast<char>(c))) {
            // Move number ("12", "12.", "12...", "12…", "12.e4"), result, or "0-0".
            // Nearly every one is digits and dots followed by a blank: with the bytes in the
            // buffer, read without the checks of at() and peek() (anything else takes the
            // general path below, from the start of the token).
            if (end - pos >= 32) {
                std::size_t i = pos + 1;
                while (i - pos < 16 && is_digit(buf[i])) ++i;
                if (i - pos < 16 && buf[i] == '.') {
                    while (i - pos < 24 && buf[i] == '.') ++i;
                    if (blank_kinds[static_cast<unsigned char>(buf[i])] != Blank::none) {
                        pos = i;
                        return true;
                    }
                }
            }
            std::size_t i = pos;
            while (at(i) >= 0 && is_digit(buf[i])) ++i;
            const int d = at(i);
            if (d == '.' || d == 0xE2) {
                // Dots and the UTF-8 ellipsis (E2 80 A6).
                for (;;) {
                    const int e = peek(i, 0);
                    if (e == '.') {
                        ++i;
                    } else if (e == 0xE2 && peek(i, 1) == 0x80 && peek(i, 2) == 0xA6) {
                        i += 3;
                    } else {
                        break;
                    }
                }
                pos = i;
                return true;
            }
            if ((d < 0 || !is_word_char(static_cast<char>(d))) &&
                !(i - pos == 4 && std::memcmp(buf + pos, "0000", 4) == 0)) {
                pos = i;  // a bare move number
                return true;
            }
        }
        if (is_word_char(static_cast<char>(c)) || c >= 0x80) {
            std::size_t i;
            if (c >= 0x80) {
                // A non-ASCII glyph such as "±": up to the next blank.
                i = pos;
                for (;;) {
                    while (i < end && (static_cast<unsigned char>(buf[i]) >= 0x80 || is_word_char(buf[i]))) ++i;
                    if (i < end || i - pos > opt.max_token_bytes || !pull(i)) break;
                }
            } else {
                i = scan_word(pos);
            }
            if (i - pos > opt.max_token_bytes) return fail_cold(Refusal::long_token, p);
            {
                // Nearly every token: a move that starts with a letter, with no dots before it, no
                // annotation or result after it and no "e.p.", nor the glyph "N". The general path
                // below would find the same move; this one keeps the token in registers.
                const char* const t = buf + pos;
                const std::size_t n = i - pos;
                const char e = t[n - 1];
                if (is_alpha(t[0]) && !(n == 1 && t[0] == 'N') && e != '.' && e != '!' && e != '?' &&
                    (n <= 4 || e < '0' || e > '2')) {
                    pos = i;
                    if (depth == 0 && ++plies > opt.max_game_plies) return fail_cold(Refusal::many_plies, p);
                    if (!quiet()) v->san(std::string_view(t, n), p);
                    return true;
                }
            }
            std::string_view w(buf + pos, i - pos);
            pos = i;
            // "...Kf3": dots glued to the front of a move.
            std::size_t lead = 0;
            while (lead < w.size() && w[lead] == '.') ++lead;
            if (lead == w.size()) return true;  // dots alone
            const SourcePos wp = lead ? where(pos - w.size() + lead) : p;
            w.remove_prefix(lead);
            const char first = w[0];
            if (w.size() <= 4 && (w == "+" || w == "#" || w == "e.p.")) return true;  // detached check mark, "e.p."
            if ((first == '0' || first == '1' || first == '\xc2') &&
                (w == "1-0" || w == "0-1" || w == "1/2-1/2" || w == "1/2" || w == "\u00bd-\u00bd")) {
                end_result(w == "1/2" || w.size() > 3 ? std::string_view("1/2-1/2") : w, wp);
                return !game_over;
            }
            if (!is_alpha(first) || (w.size() == 1 && first == 'N')) {
                if (const int nag = glyph_nag(w)) {
                    if (!quiet()) v->nag(nag, wp);
                    return true;
                }
            }
            if (c >= 0x80) return fail_cold(Refusal::non_ascii, p);
            // A result glued to the last move ("Qg20-1"): no SAN ends in "-0", "-1" or "-1/2".
            std::string_view glued;
            const char last = w.back();
            if (w.size() > 4 && (last == '0' || last == '1' || last == '2')) {
                for (std::string_view r :
                     {std::string_view("1/2-1/2"), std::string_view("1-0"), std::string_view("0-1")}) {
                    if (w.size() > r.size() + 1 && w.substr(w.size() - r.size()) == r &&
                        (r.size() > 3 || (w[w.size() - 4] >= '1' && w[w.size() - 4] <= '8') || w[w.size() - 4] == '+' ||
                         w[w.size() - 4] == '#' || w[w.size() - 4] == '!' || w[w.size() - 4] == '?')) {
                        glued = r;
                        w.remove_suffix(r.size());
                        break;
                    }
                }
            }
            // A move, possibly with suffix annotations ("e4!?"), which are split off.
            std::size_t k = w.size();
            while (k > 0 && (w[k - 1] == '!' || w[k - 1] == '?')) --k;
            const std::string_view suffix = w.substr(k);
            std::string_view move = w.substr(0, k);
            if (move.empty()) return fail_cold(Refusal::no_move, p, w);
            if (depth == 0 && ++plies > opt.max_game_plies) return fail_cold(Refusal::many_plies, wp);
            if (!quiet()) {
                v->san(move, wp);
                if (!suffix.empty()) {
                    const int nag = glyph_nag(suffix);
                    if (nag) v->nag(nag, where(pos - suffix.size() - glued.size()));
                }
            }
            if (!glued.empty()) {
                end_result(glued, where(pos - glued.size()));
                return !game_over;
            }
            return true;
        }
        if (c == ',') {  // "9. Bxe7, Qxe7": a separator some editors write; read as a blank
            ++pos;
            return true;
        }
        return fail_cold(Refusal::bad_char, p, {}, c);
    }

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
    [[gnu::cold, gnu::noinline]] bool fail_cold(Refusal r, SourcePos p, std::string_view word = {}, int c = 0) {
        switch (r) {
            case Refusal::deep_variation:
                fail(Error::Code::budget_exceeded, p,
                     "variations nested deeper than " + std::to_string(opt.max_variation_depth));
                break;
            case Refusal::unopened_variation:
                fail(Error::Code::unexpected_char, p, "')' without an open variation");
                break;
            case Refusal::bare_dollar: fail(Error::Code::unexpected_char, p, "'$' without a number"); break;
            case Refusal::long_token:
                fail(Error::Code::token_too_long, p,
                     "token longer than " + std::to_string(opt.max_token_bytes) + " bytes");
                break;
            case Refusal::non_ascii: fail(Error::Code::unexpected_char, p, "unexpected character in movetext"); break;
            case Refusal::no_move:
                fail(Error::Code::unexpected_char, p, "unexpected '" + std::string(word) + "'");
                break;
            case Refusal::many_plies:
                fail(Error::Code::game_too_long, p,
                     "game has more than " + std::to_string(opt.max_game_plies) +
                         " mainline plies (ReaderOptions::max_game_plies, audit --max-plies)");
                break;
            case Refusal::bad_char: {
                const char ch = static_cast<char>(c);
                std::string shown = (c >= 32 && c < 127) ? std::string("'") + ch + "'" : "byte " + std::to_string(c);
                fail(Error::Code::unexpected_char, p, "unexpected " + shown + " in movetext");
                break;
            }
        }
        return false;
    }

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

    bool read_game(Visitor& visitor) {
        v = &visitor;
        // Find the start of the next game, skipping comments between games.
        int c;
        for (;;) {
            c = skip_blanks();
            if (c < 0) return false;
            if (c == '{') {
                // Between games a comment belongs to no game and is skipped. One left open ends,
                // as in a game, at a blank line followed by a tag section: it is then reported as
                // a game of its own, so that nothing after it is lost without a word.
                const SourcePos p = where(pos);
                const CommentEnd e = scan_brace_comment(false, p);
                if (e == CommentEnd::closed) continue;
                begin_game(p);
                report(Error::Code::unterminated_comment, p, open_comment_message(e));
                end_game();
                return true;
            }
            if (c == ';') {
                std::size_t i = pos;
                skip_line(i);
                continue;
            }
            break;
        }
        begin_game(where(pos));

        // Tag section: tag lines, blank lines and escape lines, until anything else. A blank line
        // and then an Event tag, or a tag this game already has, starts the next game (this one
        // has no movetext).
        tag_names.clear();
        bool tags_only = false;
        while (c == '[') {
            // (Asked before the budget: a game boundary starts a game whatever this one costs.)
            if (newlines_skipped >= 1 && tag_lines > 0 && next_tag_starts_game()) {
                tags_only = true;
                break;
            }
            if (over_budget(pos)) break;
            read_tag();
            ++tag_lines;
            c = skip_blanks();
        }
        if (!game_over && !tags_only && c >= 0) {
            skip_movetext = v->begin_movetext() == Skip::yes;
            while (!game_over) {
                c = skip_blanks();
                if (c < 0) break;
                if (c == '[') {
                    if (token_at_bol) break;  // the next game's tags: this one has no result
                    fail(Error::Code::unexpected_char, where(pos), "'[' inside movetext");
                    break;
                }
                if (!movetext_token(c)) break;
            }
            if (!game_over && depth > 0)
                report(Error::Code::unterminated_variation, first_open, "variation is not closed");
        }
        if (!game_over && c < 0 && !opt.input_continues && !input_err && game_errors == 0)
            report(Error::Code::truncated_game, where(pos),
                   "the input ends in this game, before its termination marker (1-0, 0-1, 1/2-1/2 or *): "
                   "truncated?");
        end_game();
        return true;
    }
};

Reader::Reader(ByteSource& source, ReaderOptions options) : impl_(std::make_unique<Impl>(source, options)) {}
Reader::~Reader() = default;

bool Reader::read_game(Visitor& visitor) { return impl_->read_game(visitor); }

std::uint64_t Reader::read_all(Visitor& visitor) {
    std::uint64_t n = 0;
    while (read_game(visitor)) ++n;
    return n;
}

std::uint64_t Reader::games() const noexcept { return impl_->games; }
std::uint64_t Reader::bytes() const noexcept { return impl_->abs(impl_->pos); }
const std::optional<InputError>& Reader::input_error() const noexcept { return impl_->input_err; }

}  // namespace arbiter::pgn
