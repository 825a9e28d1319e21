// session_input.cpp — a new session's settings as every face takes them (NewSessionInput:
// `session new`'s options, the service's fields), checked and turned into a SessionConfig.
#include <array>
#include <cctype>

#include "requests/request_fields.hpp"
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

using F = NewSessionInput;

const std::array<SessionFieldSpec, 13> fields{{
    {.name = "time_control",
     .flag = "--time-control",
     .help = "PGN TimeControl, all in SECONDS: 5400+30 (90 min + 30 s a move), 40/5400+30:1800+30 (40 moves in 90 "
             "min, then 30 min; +30 s a move), 300 (5 min), 180+2; dN = simple delay, bN = Bronstein delay, e.g. "
             "300d5 (default: no clock)",
     .text = &F::time_control},
    {.name = "start_fen", .flag = "--fen", .help = "Start position (default: the initial position)", .text = &F::fen},
    {.name = "white", .flag = "--white", .help = "White's name (PGN)", .text = &F::white, .tag = true},
    {.name = "black", .flag = "--black", .help = "Black's name (PGN)", .text = &F::black, .tag = true},
    {.name = "event", .flag = "--event", .help = "Event (PGN)", .text = &F::event, .tag = true},
    {.name = "site", .flag = "--site", .help = "Site (PGN)", .text = &F::site, .tag = true},
    {.name = "date",
     .flag = "--date",
     .help = "Date YYYY.MM.DD (PGN; ?? for an unknown part, e.g. 2024.05.?\?)",
     .text = &F::date,
     .tag = true},
    {.name = "round",
     .flag = "--round",
     .help = "Round (PGN): a number such as 3 or 3.1, ? (unknown) or - (none)",
     .text = &F::round,
     .tag = true},
    {.name = "section",
     .flag = "--section",
     .help = "Section (PGN), e.g. Open A: an arbiter user whose sections are listed acts only on these",
     .text = &F::section,
     .tag = true},
    {.name = "board",
     .flag = "--board",
     .help = "Board (PGN), e.g. 12: an arbiter user whose boards are listed acts only on these",
     .text = &F::board,
     .tag = true},
    {.name = "no_offers_before",
     .flag = "--no-offers-before",
     .help = "Competition rule 9.1.1: no draw offers before this move",
     .number = &F::no_offers_before,
     .min = 0,
     .max = max_no_offers_before_move},
    {.name = "quickplay_finish",
     .flag = "--quickplay-finish",
     .help = "Guidelines III (or US Chess Variation 14H) announced for the event",
     .on = &F::quickplay},
    {.name = "blitz_fully_supervised",
     .flag = "--blitz-fully-supervised",
     .help = "fide-2023 blitz under B.2: the literal +2 min penalties",
     .on = &F::blitz_supervised},
}};

}  // namespace

std::span<const SessionFieldSpec> session_field_table() { return fields; }

NewSessionInput new_session_input(const Json& request) {
    std::set<std::string> keys;
    for (const SessionFieldSpec& spec : fields) keys.emplace(spec.name);
    const Fields f(request, with_rule_keys(std::move(keys)));
    NewSessionInput in;
    read_rules(f, in.rules);
    in.category_given = f.has("time_category");
    for (const SessionFieldSpec& spec : fields) {
        const char* key = spec.name.data();  // (the table's names are literals: NUL-terminated)
        if (spec.text) f.text(key, in.*spec.text);
        if (spec.number) f.number(key, in.*spec.number, spec.min, spec.max);
        if (spec.on) f.flag(key, in.*spec.on);
    }
    return in;
}

SessionConfig session_config(const NewSessionInput& in) {
    // Each field at fault is named by its key (the service's, and the CLI's under --json).
    for (const SessionFieldSpec& spec : fields) {
        if (!spec.tag) continue;
        const std::string& text = in.*spec.text;
        if (!is_utf8(text))
            throw InputError(Code::not_utf8,
                             std::string(spec.flag) + ": '" + printable(text) + "' is not valid UTF-8 text",
                             std::string(spec.name));
    }
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
