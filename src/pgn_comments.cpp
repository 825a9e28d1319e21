// pgn_comments.cpp — the PGN reader: comments, their clock and other commands (pgn_reader.hpp).
#include "pgn_reader.hpp"

namespace arbiter::pgn {

Reader::Impl::CommentEnd Reader::Impl::scan_brace_comment(bool in_game, SourcePos p) {
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

Reader::Impl::CommentEnd Reader::Impl::left_open(CommentEnd e, std::size_t i, bool truncated, SourcePos p) {
    if (!truncated && i - pos > opt.max_comment_bytes) deliver_comment(pos, pos + opt.max_comment_bytes, p, true);
    pos = i;
    return e;
}

const char* Reader::Impl::open_comment_message(CommentEnd e) const noexcept {
    return e == CommentEnd::next_game || (opt.input_continues && !input_err)
               ? "comment is not closed before the next game"
               : "comment is not closed before the end of the input";
}

void Reader::Impl::parse_commands(std::string_view text, CommentInfo& info) {
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

void Reader::Impl::read_line_comment() {
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

}  // namespace arbiter::pgn
