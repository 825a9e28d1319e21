// pgn_framer.cpp — complete games out of a PGN stream.
#include "pgn_framer.hpp"

namespace arbiter::watch {

namespace {

bool is_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

bool ends_with_marker(std::string_view text) noexcept {
    std::size_t end = text.size();
    if (end == 0 || !is_space(text[end - 1])) return false;
    while (end > 0 && is_space(text[end - 1])) --end;
    std::size_t start = end;
    while (start > 0 && !is_space(text[start - 1])) --start;
    const std::string_view last = text.substr(start, end - start);
    if (last != "1-0" && last != "0-1" && last != "1/2-1/2" && last != "*") return false;
    // Is the marker outside comments and strings? One pass over the game.
    bool brace = false, line_comment = false, string = false, line_start = true;
    for (std::size_t i = 0; i < start; ++i) {
        const char c = text[i];
        if (line_comment) {
            line_comment = c != '\n';
        } else if (brace) {
            brace = c != '}';
        } else if (string) {
            if (c == '\\' && i + 1 < start)
                ++i;
            else if (c == '"' || c == '\n')
                string = false;
        } else if (c == '{') {
            brace = true;
        } else if (c == ';' || (c == '%' && line_start)) {
            line_comment = true;
        } else if (c == '"') {
            string = true;
        }
        line_start = c == '\n';
    }
    return !brace && !line_comment && !string;
}

void PgnFramer::append(std::string_view data, std::string& games) {
    buf_.append(data);
    while (true) {
        const std::size_t cut = finder_.find(buf_, 1);
        if (cut == std::string::npos) break;
        games.append(buf_, 0, cut);
        buf_.erase(0, cut);
        finder_.reset();
    }
    if (ends_with_marker(buf_)) {
        games += buf_;
        clear();
    } else if (buf_.size() > max_) {
        ++dropped_;
        clear();
    }
}

}  // namespace arbiter::watch
