// pgn_tags.cpp — the PGN reader: tag pairs (pgn_reader.hpp).
#include "pgn_reader.hpp"

namespace arbiter::pgn {

void Reader::Impl::read_tag() {
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

bool Reader::Impl::next_tag_starts_game() {
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

}  // namespace arbiter::pgn
