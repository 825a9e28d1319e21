// scoresheet.cpp — the scoresheet and PGN export of a live session.
#include "arbiter/scoresheet.hpp"

#include "arbiter/fen.hpp"

namespace arbiter {

namespace {

// Notes grouped by the record index they follow.
std::vector<std::vector<std::string>> notes_by_ply(const Session& s) {
    std::vector<std::vector<std::string>> out(s.record().size());
    for (const auto& n : s.notes()) out[n.ply].push_back(n.text);
    return out;
}

std::string pad(std::string s, std::size_t width) {
    if (s.size() < width) s.append(width - s.size(), ' ');
    return s;
}

// The move number of the move made from record index i, and whether White makes it.
std::pair<std::uint32_t, bool> number_of(const GameRecord& rec, std::size_t i) {
    const std::uint32_t ply = rec.game_ply(i);
    return {ply / 2 + 1, ply % 2 == 0};
}

std::string tag(const std::string& name, const std::string& value) { return pgn_tag_pair(name, value) + '\n'; }

std::string comment(std::string text) {
    for (char& c : text)
        if (c == '}') c = ')';
    return "{" + text + "}";
}

}  // namespace

const char* pgn_termination(const Session& s) noexcept {
    if (!s.end()) return "unterminated";
    switch (s.end()->kind) {
        case EndKind::time_forfeit:
        case EndKind::both_flags: return "time forfeit";
        case EndKind::illegal_moves:
        case EndKind::illegal_position: return "rules infraction";
        case EndKind::quickplay_finish: return "adjudication";
        default: return "normal";
    }
}

std::string scoresheet_text(const Session& s) {
    const GameRecord& rec = s.record();
    const SessionConfig& cfg = s.config();
    std::string out = "White: " + cfg.white + "    Black: " + cfg.black + "    Rules: " + s.rules().name + ", " +
                      time_category_name(cfg.options.time_category);
    if (cfg.time_control) out += ", " + to_string(*cfg.time_control);
    out += "\n";
    if (!cfg.start_fen.empty()) out += "Start: " + to_fen(rec.position(0)) + "\n";

    const auto& moves = s.moves();
    auto cell = [&](std::size_t k) {
        const MoveEntry& m = moves[k];
        std::string text = pad(m.san + (m.offer_by ? " (=)" : ""), 14);
        text += pad(m.clock_ms ? format_clock(*m.clock_ms) : "", 10);
        return text;
    };
    for (std::size_t k = 0; k < moves.size();) {
        const auto [number, white] = number_of(rec, k);
        std::string line = pad(std::to_string(number) + ".", 5);
        if (white) {
            line += cell(k++);
            if (k < moves.size()) line += cell(k++);
        } else {
            line += pad("...", 24) + cell(k++);
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out += line + "\n";
    }
    if (!s.notes().empty()) {
        out += "Notes\n";
        for (const auto& n : s.notes()) {
            const std::string where = n.ply == 0 ? "at the start" : "after " + rec.move_label(n.ply);
            out += "  " + pad(where, 16) + " " + n.text + "\n";
        }
    }
    if (s.end()) {
        out += "Result " + s.end()->result + " (" + end_kind_name(s.end()->kind) + ", " + s.end()->article + ")\n";
    } else {
        out += "Game in progress: " + side_title(s.record().current().turn()) + " to move\n";
    }
    return out;
}

std::string export_pgn(const Session& s) {
    const GameRecord& rec = s.record();
    const SessionConfig& cfg = s.config();
    std::string out;
    out += tag("Event", cfg.event) + tag("Site", cfg.site) + tag("Date", cfg.date) + tag("Round", cfg.round);
    out += tag("White", cfg.white) + tag("Black", cfg.black) + tag("Result", s.result());
    if (!cfg.section.empty()) out += tag("Section", cfg.section);
    if (!cfg.board.empty()) out += tag("Board", cfg.board);
    if (!cfg.start_fen.empty()) out += tag("SetUp", "1") + tag("FEN", to_fen(rec.position(0)));
    if (cfg.time_control) out += tag("TimeControl", to_string(*cfg.time_control));
    out += tag("Termination", pgn_termination(s));
    out += "\n";

    // Movetext as tokens, then wrapped.
    std::vector<std::string> tokens;
    const auto notes = notes_by_ply(s);
    bool need_number = true;
    auto add_notes = [&](std::size_t i, std::string head) {
        for (const auto& n : notes[i]) head += (head.empty() ? "" : " ") + n;
        if (!head.empty()) {
            tokens.push_back(comment(head));
            need_number = true;
        }
    };
    add_notes(0, "");
    const auto& moves = s.moves();
    for (std::size_t k = 0; k < moves.size(); ++k) {
        const auto [number, white] = number_of(rec, k);
        if (white)
            tokens.push_back(std::to_string(number) + ".");
        else if (need_number)
            tokens.push_back(std::to_string(number) + "...");
        tokens.push_back(moves[k].san);
        need_number = false;
        std::string head;
        if (moves[k].clock_ms) head = "[%clk " + format_pgn_clock(*moves[k].clock_ms) + "]";
        if (moves[k].offer_by) head += std::string(head.empty() ? "" : " ") + "(=)";
        add_notes(k + 1, head);
    }
    tokens.push_back(s.result());

    return out + wrap_movetext(tokens);  // comments may be long: split at their spaces
}

std::string pgn_tag_pair(std::string_view name, std::string_view value) {
    std::string out = "[";
    out += name;
    out += " \"";
    for (char c : value) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';  // a tag is one line
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"]";
}

std::string wrap_movetext(const std::vector<std::string>& tokens, std::size_t width, std::string_view newline,
                          bool split_comments) {
    std::string out, line;
    auto add = [&](std::string_view word) {
        if (!line.empty() && width > 0 && line.size() + 1 + word.size() > width) {
            out += line;
            out += newline;
            line.clear();
        }
        if (!line.empty()) line += ' ';
        line += word;
    };
    for (const auto& t : tokens) {
        if (!split_comments || t.empty() || t.front() != '{') {
            add(t);
            continue;
        }
        for (std::size_t i = 0; i < t.size();) {
            std::size_t j = t.find(' ', i);
            if (j == std::string::npos) j = t.size();
            add(std::string_view(t).substr(i, j - i));
            i = j + 1;
        }
    }
    out += line;
    out += newline;
    return out;
}

std::vector<std::string> numbered_moves(const Position& start, const std::vector<std::string>& san) {
    std::vector<std::string> out;
    std::uint32_t number = start.fullmove_number();
    bool white = start.turn() == Color::white;
    for (std::size_t k = 0; k < san.size(); ++k) {
        if (white)
            out.push_back(std::to_string(number) + ".");
        else if (k == 0)
            out.push_back(std::to_string(number) + "...");
        out.push_back(san[k]);
        if (!white) ++number;
        white = !white;
    }
    return out;
}

}  // namespace arbiter
