// pgn_framer.cpp — complete games out of a PGN stream.
#include "pgn_framer.hpp"

namespace arbiter::watch {

namespace {

bool is_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

void PgnLexer::advance(std::string_view text) noexcept {
    for (; pos_ < text.size(); ++pos_) {
        const char c = text[pos_];
        const bool starts_token = !is_space(c) && (pos_ == 0 || is_space(text[pos_ - 1]));
        if (line_comment_) {
            line_comment_ = c != '\n';
        } else if (brace_) {
            brace_ = c != '}';
        } else if (string_) {
            if (escaped_)
                escaped_ = false;
            else if (c == '\\')
                escaped_ = true;
            else if (c == '"' || c == '\n')
                string_ = false;
        } else {
            if (starts_token) last_token_ = pos_;
            if (c == '{')
                brace_ = true;
            else if (c == ';' || (c == '%' && line_start_))
                line_comment_ = true;
            else if (c == '"')
                string_ = true;
        }
        line_start_ = c == '\n';
    }
}

bool PgnLexer::ends_with_marker(std::string_view text) const noexcept {
    std::size_t end = text.size();
    if (end == 0 || !is_space(text[end - 1])) return false;
    while (end > 0 && is_space(text[end - 1])) --end;
    std::size_t start = end;
    while (start > 0 && !is_space(text[start - 1])) --start;
    const std::string_view last = text.substr(start, end - start);
    if (last != "1-0" && last != "0-1" && last != "1/2-1/2" && last != "*") return false;
    // The marker counts when the lexer saw it begin outside comments and strings.
    return start == last_token_;
}

bool ends_with_marker(std::string_view text) noexcept {
    PgnLexer lexer;
    lexer.advance(text);
    return lexer.ends_with_marker(text);
}

void PgnFramer::append(std::string_view data, std::string& games) {
    buf_.append(data);
    while (true) {
        const std::size_t cut = finder_.find(buf_, 1);
        if (cut == std::string::npos) break;
        games.append(buf_, 0, cut);
        buf_.erase(0, cut);
        finder_.reset();
        lexer_ = {};
    }
    // Each byte is lexed once (again only after a cut): a hostile stream cannot make this quadratic.
    lexer_.advance(buf_);
    if (lexer_.ends_with_marker(buf_)) {
        games += buf_;
        clear();
    } else if (buf_.size() > max_) {
        ++dropped_;
        clear();
    }
}

}  // namespace arbiter::watch
