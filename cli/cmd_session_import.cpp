// cmd_session_import.cpp — `arbiter session import`: a session made from a PGN game, its moves,
// clock times ([%clk]) and offers replayed as events, each tried in memory before anything is
// journaled.
#include <iostream>

#include "arbiter/audit.hpp"
#include "arbiter/journal.hpp"
#include "arbiter/pgn_game.hpp"
#include "game_options.hpp"
#include "session/session_json.hpp"
#include "session_journal.hpp"

namespace arbiter::cli {

namespace {

// The time of a move from the mover's clock after it ([%clk]): the time the mover thought, from
// what the face showed before and the bonus the press adds (an increment); 1 s a move when the
// game or the session has no clock.
std::int64_t import_time(const Session& s, Color mover, std::int64_t clk_ms) {
    const std::int64_t now = s.last_event_ms();
    const auto& clock = s.clock();
    if (!clock || clk_ms < 0) return now + 1000;
    if (!clock->started()) return now;  // the first think is free: the clock starts with the move
    const TimePeriod& p = clock->period(mover);
    const std::int64_t bonus = p.bonus == Bonus::increment ? p.bonus_ms : 0;
    return now + std::max<std::int64_t>(0, clock->remaining(mover, now) + bonus - clk_ms);
}

}  // namespace

void add_import(CLI::App& session) {
    auto* cmd = session.add_subcommand("import",
                                       "Create a session from a PGN game (its moves, clock times and "
                                       "offers); prints its id");
    struct ImportOptions {
        std::string journal, pgn, rules = "auto";
        int game = 1;
        bool json = false;
    };
    auto o = std::make_shared<ImportOptions>();
    cmd->add_option("--journal", o->journal, "The journal file (created when missing)")->required();
    add_busy_timeout(*cmd);
    cmd->add_option("--pgn", o->pgn, "The PGN file (plain or compressed)")->required();
    cmd->add_option("--game", o->game, "The game number in the file, from 1 (default 1)")
        ->check(whole_number(1, max_game_number));
    cmd->add_option("--rules", o->rules, rules_option_help() + "; default auto (from the game's Date and Site)");
    cmd->add_flag("--json", o->json, "Print the session's state as JSON");
    add_by(*cmd);
    cmd->callback([o] {
        GameInput in;  // the game read as status --pgn --game reads it, with the same refusals
        in.pgn = o->pgn;
        in.game = o->game;
        in.rules = o->rules;
        const pgn::ParsedGame g = in.read_pgn_game();
        if (!g.complete) in.refuse_pgn(g);
        SessionConfig cfg;
        cfg.rules = o->rules == "auto" ? audit::rules_for_game(g, audit::AuditOptions{}) : in.rule_set_or_throw().id;
        auto tag = [&](const char* name, std::string& into) {
            if (auto v = g.tag(name); v && !v->empty()) into = std::string(*v);
        };
        tag("White", cfg.white);
        tag("Black", cfg.black);
        tag("Event", cfg.event);
        tag("Site", cfg.site);
        tag("Date", cfg.date);
        tag("Round", cfg.round);
        tag("Section", cfg.section);
        tag("Board", cfg.board);
        if (auto tc = g.tag("TimeControl"); tc && !tc->empty() && *tc != "-" && *tc != "?") {
            if (auto parsed = parse_time_control(*tc))
                cfg.time_control = *parsed;
            else
                std::cerr << "arbiter: warning: TimeControl \"" << printable(*tc) << "\" is not read ("
                          << parsed.error().message << "); the session has no clock\n";
        }
        if (!g.start.same_position(Position())) cfg.start_fen = to_fen(g.start);
        // Every event is tried on a session in memory first: a refusal writes nothing.
        auto trial = Session::create(cfg);
        if (!trial) throw InputError(trial.error().code, trial.error().message, "pgn");
        std::vector<Event> events;
        Position pos = g.start;
        for (std::size_t k = 0; k < g.plies.size(); ++k) {
            const pgn::Ply& ply = g.plies[k];
            Event e;
            e.type = EventType::move;
            e.move = to_uci(pos, ply.move);
            e.offer = ply.offer;
            e.at_ms = import_time(*trial, pos.turn(), ply.clk_ms);
            if (auto err = trial->apply(e))
                throw InputError(err->code,
                                 "--pgn: game " + std::to_string(o->game) + ", ply " + std::to_string(k + 1) + " (" +
                                     trial->record().move_number_prefix(trial->record().size() - 1) +
                                     to_san(pos, ply.move) + "): refused: " + err->message,
                                 "pgn", ply.pos.offset);
            events.push_back(e);
            pos.play_unchecked(ply.move);
            if (trial->ended()) break;  // later moves are void (5.2.2, 9.6)
        }
        Journal journal = open_journal(o->journal, Journal::Mode::create_if_missing);
        auto s = JournaledSession::create(journal, cfg, nullptr, author());
        if (!s) fail(s.error());
        for (const Event& e : events)
            if (auto err = s->apply(e, author())) fail(*err);
        if (events.size() < g.plies.size())
            std::cerr << "arbiter: warning: the game ended after ply " << events.size() << " ("
                      << end_kind_name(s->session().end()->kind) << "); the " << g.plies.size() - events.size()
                      << " moves after it are not imported\n";
        if (o->json) {
            std::cout << dump(state_json(s->session(), s->id())) << '\n';
        } else {
            std::cout << s->id() << '\n';
        }
    });
}

}  // namespace arbiter::cli
