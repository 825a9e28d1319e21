// pgn_movetext.cpp — the PGN reader: movetext (moves, numbers, NAGs, variations, results) (pgn_reader.hpp).
#include "pgn_reader.hpp"

namespace arbiter::pgn {

bool Reader::Impl::movetext_token(int c) {
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
            for (std::string_view r : {std::string_view("1/2-1/2"), std::string_view("1-0"), std::string_view("0-1")}) {
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

bool Reader::Impl::fail_cold(Refusal r, SourcePos p, std::string_view word, int c) {
    switch (r) {
        case Refusal::deep_variation:
            fail(Error::Code::budget_exceeded, p,
                 "variations nested deeper than " + std::to_string(opt.max_variation_depth));
            break;
        case Refusal::unopened_variation: fail(Error::Code::unexpected_char, p, "')' without an open variation"); break;
        case Refusal::bare_dollar: fail(Error::Code::unexpected_char, p, "'$' without a number"); break;
        case Refusal::long_token:
            fail(Error::Code::token_too_long, p, "token longer than " + std::to_string(opt.max_token_bytes) + " bytes");
            break;
        case Refusal::non_ascii: fail(Error::Code::unexpected_char, p, "unexpected character in movetext"); break;
        case Refusal::no_move: fail(Error::Code::unexpected_char, p, "unexpected '" + std::string(word) + "'"); break;
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

}  // namespace arbiter::pgn
