// pgn.cpp — the streaming PGN tokenizer and reader.
//
// The reader owns one buffer: a read chunk and some room, grown on demand up to a read chunk plus
// the longest token it keeps whole (a reader of short games never pays for the longest comment). Scanning works on
// indices into that buffer; when a token runs into the end of the bytes read so far, `pull` moves the unread tail (from
// `pos_`, the start of the current token) to the front and reads more. Nothing recurses: variation nesting is a
// counter.
#include "arbiter/pgn.hpp"

#include "pgn_reader.hpp"

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

// --- Games ----------------------------------------------------------------------------------

bool Reader::Impl::read_game(Visitor& visitor) {
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
        if (!game_over && depth > 0) report(Error::Code::unterminated_variation, first_open, "variation is not closed");
    }
    if (!game_over && c < 0 && !opt.input_continues && !input_err && game_errors == 0)
        report(Error::Code::truncated_game, where(pos),
               "the input ends in this game, before its termination marker (1-0, 0-1, 1/2-1/2 or *): "
               "truncated?");
    end_game();
    return true;
}

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
