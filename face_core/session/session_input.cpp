// session_input.cpp — a new session's settings as every face takes them (NewSessionInput:
// `session new`'s options, the service's fields), checked and turned into a SessionConfig.
#include <cctype>

#include "session/session_json.hpp"
#include "text.hpp"

namespace arbiter::face {

namespace {

// PGN Date: YYYY.MM.DD, each part digits or question marks ("2024.05.??", "????.??.??").
void check_pgn_date(const std::string& date) {
    auto part = [&](std::size_t at, std::size_t len, int lo, int hi) {
        const std::string p = date.substr(at, len);
        if (p.find_first_not_of('?') == std::string::npos) return true;
        if (p.find_first_not_of("0123456789") != std::string::npos) return false;
        const int v = std::stoi(p);
        return v >= lo && v <= hi;
    };
    const bool shape = date.size() == 10 && date[4] == '.' && date[7] == '.';
    if (!shape || !part(0, 4, 0, 9999) || !part(5, 2, 1, 12) || !part(8, 2, 1, 31))
        throw InputError(Code::bad_value,
                         "--date: expected YYYY.MM.DD (PGN; ?? for an unknown part, e.g. 2024.05.?\?), found '" +
                             printable(date) + "'",
                         "date");
}

// PGN Round: "?", "-", or numbers separated by dots ("3", "3.1").
void check_pgn_round(const std::string& round) {
    if (round == "?" || round == "-") return;
    bool ok = !round.empty() && round.front() != '.' && round.back() != '.';
    for (std::size_t i = 0; ok && i < round.size(); ++i)
        ok = std::isdigit(static_cast<unsigned char>(round[i])) || (round[i] == '.' && round[i - 1] != '.');
    if (!ok)
        throw InputError(Code::bad_value,
                         "--round: expected a round number such as 3 or 3.1, ? (unknown) or - (none), found '" +
                             printable(round) + "'",
                         "round");
}

}  // namespace

SessionConfig session_config(const NewSessionInput& in) {
    // Each field at fault is named by its key (the service's, and the CLI's under --json).
    for (const auto& [key, text] : {std::pair<const char*, const std::string&>{"white", in.white},
                                    {"black", in.black},
                                    {"event", in.event},
                                    {"site", in.site},
                                    {"date", in.date},
                                    {"round", in.round},
                                    {"section", in.section},
                                    {"board", in.board}})
        if (!is_utf8(text))
            throw InputError(Code::not_utf8,
                             "--" + std::string(key) + ": '" + printable(text) + "' is not valid UTF-8 text", key);
    check_pgn_date(in.date);
    check_pgn_round(in.round);
    SessionConfig cfg;
    cfg.rules = in.rules.rule_set_or_throw().id;
    in.rules.check_applies(rule_set(cfg.rules));
    cfg.options = in.rules.rule_options();
    cfg.options.no_offers_before_move = in.no_offers_before;
    cfg.options.blitz_fully_supervised = in.blitz_supervised;
    cfg.time_category_given = in.category_given;
    if (!in.time_control.empty()) {
        auto tc = parse_time_control(in.time_control);
        if (!tc)
            throw InputError(Code::bad_value,
                             "--time-control '" + in.time_control + "' (byte " + std::to_string(tc.error().offset) +
                                 "): " + tc.error().message,
                             "time_control", tc.error().offset);
        cfg.time_control = *tc;
    }
    if (!in.fen.empty()) {
        try {
            cfg.start_fen = to_fen(fen_or_throw(in.fen));
        } catch (const InputError& e) {
            throw InputError(e, "--fen: " + e.message(), "start_fen", e.offset());
        }
    }
    cfg.quickplay_finish = in.quickplay;
    cfg.white = in.white;
    cfg.black = in.black;
    cfg.event = in.event;
    cfg.site = in.site;
    cfg.date = in.date;
    cfg.round = in.round;
    cfg.section = in.section;
    cfg.board = in.board;
    return cfg;
}

}  // namespace arbiter::face
