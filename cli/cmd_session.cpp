// cmd_session.cpp — `arbiter session new|event|show|export|list` (import: cmd_session_import.cpp): a live game driven
// from the shell, every event journaled (SQLite) before it takes effect.
#include <cctype>
#include <charconv>
#include <iostream>
#include <optional>

#include "arbiter/audit.hpp"
#include "arbiter/journal.hpp"
#include "arbiter/pgn_game.hpp"
#include "game_options.hpp"
#include "line_reader.hpp"
#include "session/session_json.hpp"
#include "session_journal.hpp"

namespace arbiter::cli {

namespace {

// PGN counts seconds: "90+30" is 90 seconds and 30 s a move, which is more likely a typo for
// 5400+30 (90 minutes) than meant. Said on stderr; the session is still created.
void warn_short_base(const TimeControl& tc, const std::string& text) {
    const TimePeriod& first = tc.periods.front();
    if (first.base_ms < 5 * 60'000 && first.bonus_ms >= 30'000)
        std::cerr << "arbiter: warning: --time-control " << printable(text) << " gives " << first.base_ms / 1000
                  << " seconds and " << first.bonus_ms / 1000 << " s a move (PGN counts seconds; 90 minutes would be "
                  << first.base_ms / 1000 * 60 << "+" << first.bonus_ms / 1000 << ")\n";
}

struct NewOptions {
    std::string journal;
    bool json = false;
    NewSessionInput in;
};

void add_new(CLI::App& session) {
    auto* cmd = session.add_subcommand("new", "Start a session; prints its id");
    auto o = std::make_shared<NewOptions>();
    NewSessionInput& in = o->in;
    cmd->add_option("--journal", o->journal, "The journal file (created when missing)")->required();
    add_busy_timeout(*cmd);
    cmd->add_option("--rules", in.rules.rules, rules_option_help());
    auto* tcat = cmd->add_option(
        "--time-category", in.rules.time_category,
        enum_name_list<TimeCategory>() + " (default: derived from --time-control, A.1/B.1; else standard)");
    // The fields of a new session, declared once (face::session_field_table), as the service reads them.
    for (const auto& spec : face::session_field_table()) {
        const std::string flag(spec.flag), help(spec.help);
        if (spec.text) cmd->add_option(flag, in.*spec.text, help);
        if (spec.number) cmd->add_option(flag, in.*spec.number, help)->check(whole_number(spec.min, spec.max));
        if (spec.on) cmd->add_flag(flag, in.*spec.on, help);
    }
    add_rule_options(*cmd, in.rules);
    cmd->add_flag("--json", o->json, "Print the new session's state as JSON");
    add_by(*cmd);
    cmd->callback([o, tcat] {
        o->in.category_given = tcat->count() > 0;
        const SessionConfig cfg = session_config(o->in);
        if (cfg.time_control) warn_short_base(*cfg.time_control, o->in.time_control);
        Journal journal = open_journal(o->journal, Journal::Mode::create_if_missing);
        auto s = JournaledSession::create(journal, cfg, nullptr, author());
        if (!s) fail(s.error());
        if (o->json) {
            std::cout << dump(state_json(s->session(), s->id())) << '\n';
        } else {
            std::cout << s->id() << '\n';
        }
    });
}

struct SessionArgs {
    std::string journal;
    std::string id;
    std::string event;
    bool json = false;
    bool pgn = false;
    bool history = false;
};

// `session show --history`: each journaled event with who entered it and when.
void print_history(const StoredSession& stored) {
    auto who = [](const Entered& e) {
        const Json j = entered_json(e);
        std::string out = e.by.empty() ? "(not recorded)" : printable(e.by);
        if (j.contains("at")) out += ", " + j["at"].get<std::string>();
        return out;
    };
    std::cout << "Created    " << who(stored.created) << '\n';
    for (std::size_t i = 0; i < stored.events.size(); ++i) {
        const Json e = event_to_json(stored.events[i]);
        std::string what = event_type_name(stored.events[i].type);
        for (const char* key : {"side", "move", "kind", "intended"})
            if (e.contains(key) && e[key].is_string()) what += " " + e[key].get<std::string>();
        std::cout << "Event " << std::to_string(i + 1)
                  << std::string(i + 1 < 10    ? 4
                                 : i + 1 < 100 ? 3
                                               : 2,
                                 ' ')
                  << printable(what) << " — " << who(i < stored.entered.size() ? stored.entered[i] : Entered{}) << '\n';
    }
}

// `session event --journal F ID -|FILE`: JSON events one a line (blank lines and lines starting
// with '#' skipped), each journaled as it is applied; the first one that does not read or is
// refused stops the batch (exit 2, naming its line; the ones before stay applied).
void apply_lines(const SessionArgs& a, SessionId id) {
    auto src = open_input(a.event);
    if (!src) throw InputError(src.error().code, "event: " + src.error().describe(), "event");
    Journal journal = open_journal(a.journal, Journal::Mode::open_existing);
    JournaledSession s = open_session(journal, id);
    LineReader reader(**src, 64 * 1024, "session event");
    std::string line;
    std::uint64_t number = 0, applied = 0;
    for (LineReader::Got got; (got = reader.next(line)) != LineReader::Got::end;) {
        ++number;
        const std::string where = "line " + std::to_string(number) + ": ";
        if (got == LineReader::Got::too_long)
            throw InputError(Code::line_too_long, where + "longer than " + std::to_string(reader.max_line_bytes()) +
                                                      " bytes; " + std::to_string(applied) +
                                                      " events before it applied");
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line[first] == '#') continue;
        Event e;
        try {
            e = event_from_json(line);
        } catch (const InputError& bad) {
            throw InputError(bad, where + bad.message() + " (" + std::to_string(applied) + " events before it applied)",
                             bad.field(), bad.offset());
        }
        if (auto err = s.apply(e, author())) {
            if (err->refusal) {
                Json j = refusal_json(*err->refusal, err->message, id);
                j["line"] = number;
                j["applied"] = applied;
                std::cout << dump(j) << '\n';
                throw InputError(*err->refusal,
                                 where + err->message + " (" + std::to_string(applied) + " events before it applied)")
                    .reported_on_stdout();
            }
            fail(*err);
        }
        ++applied;
    }
    std::cout << dump(state_json(s.session(), id)) << '\n';
}

void add_event(CLI::App& session) {
    auto* cmd = session.add_subcommand(
        "event", "Apply one event (JSON), or a whole game of them (one a line from - or a file), and print the state");
    auto a = std::make_shared<SessionArgs>();
    cmd->add_option("--journal", a->journal, "The journal file")->required();
    add_busy_timeout(*cmd);
    cmd->add_option("id", a->id, "Session id")->required();
    cmd->add_option("event", a->event,
                    R"(The event, e.g. '{"type":"move","move":"Nf3","at_ms":1500}'; or - (standard input) or a file: )"
                    "JSON events one a line, applied in order up to the first refused one")
        ->required();
    cmd->add_flag("--json", a->json, "JSON output (the default for this command)");
    add_by(*cmd);
    cmd->footer(event_types_help());
    cmd->callback([a] {
        const SessionId id = parse_id(a->id);
        const auto first = a->event.find_first_not_of(" \t\r\n");
        if (first == std::string::npos || a->event[first] != '{') return apply_lines(*a, id);
        const Event e = event_from_json(a->event);
        Journal journal = open_journal(a->journal, Journal::Mode::open_existing);
        JournaledSession s = open_session(journal, id);
        if (auto err = s.apply(e, author())) {
            // A refusal is an answer too: its code on stdout as JSON, the reason on stderr, exit 2.
            if (err->refusal) {
                std::cout << dump(refusal_json(*err->refusal, err->message, id)) << '\n';
                throw InputError(*err->refusal, err->message).reported_on_stdout();
            }
            fail(*err);
        }
        std::cout << dump(state_json(s.session(), id)) << '\n';
    });
}

void print_state(const Session& s) {
    std::cout << scoresheet_text(s);
    if (s.clock()) {
        std::cout << "Clocks     White " << format_clock(*s.clock_ms(Color::white)) << ", Black "
                  << format_clock(*s.clock_ms(Color::black));
        if (s.clock()->paused()) std::cout << " (paused)";
        std::cout << '\n';
    }
    if (s.pending_offer())
        std::cout << "Offer      " << (s.pending_offer()->by == Color::white ? "White" : "Black")
                  << " has offered a draw\n";
    if (s.must_play()) std::cout << "Must play  " << s.must_play()->written << '\n';
    if (s.awaiting_press())
        std::cout << "Clock      waiting for " << (*s.awaiting_press() == Color::white ? "White" : "Black")
                  << " to press it\n";
}

void add_show(CLI::App& session) {
    auto* cmd = session.add_subcommand("show", "Show a session: scoresheet, clocks, offers, rulings");
    auto a = std::make_shared<SessionArgs>();
    cmd->add_option("--journal", a->journal, "The journal file")->required();
    add_busy_timeout(*cmd);
    cmd->add_option("id", a->id, "Session id")->required();
    cmd->add_flag("--json", a->json, "The state as JSON");
    cmd->add_flag("--history", a->history,
                  "Every journaled event with who entered it and when (with --json: as GET "
                  "/api/v1/sessions/ID/history answers)");
    cmd->callback([a] {
        const SessionId id = parse_id(a->id);
        Journal journal = open_journal(a->journal, Journal::Mode::read_only);
        JournaledSession s = open_session(journal, id);
        if (a->history) {
            auto stored = journal.load(id);
            if (!stored) fail(stored.error());
            if (a->json)
                std::cout << dump(history_json(*stored)) << '\n';
            else
                print_history(*stored);
        } else if (a->json) {
            Json j = state_json(s.session(), id);
            std::cout << dump(j) << '\n';
        } else {
            print_state(s.session());
        }
    });
}

void add_export(CLI::App& session) {
    auto* cmd = session.add_subcommand("export", "Export a session as PGN");
    auto a = std::make_shared<SessionArgs>();
    cmd->add_option("--journal", a->journal, "The journal file")->required();
    add_busy_timeout(*cmd);
    cmd->add_option("id", a->id, "Session id")->required();
    cmd->add_flag("--pgn", a->pgn, "PGN (the default)");
    cmd->add_flag("--json", a->json,
                  "JSON: the PGN text, the journaled events (each in the JSON that `session event` takes) with "
                  "who entered each and when, and the journal's head hash");
    cmd->callback([a] {
        if (a->json && a->pgn)
            throw InputError(Code::bad_usage, "session export: --pgn and --json cannot be combined (choose one)",
                             "json");
        const SessionId id = parse_id(a->id);
        Journal journal = open_journal(a->journal, Journal::Mode::read_only);
        auto stored = journal.load(id);
        if (!stored) fail(stored.error());
        auto s = replay(*stored);
        if (!s) fail(s.error());
        if (a->json) {
            Json events = Json::array(), entered = Json::array();
            for (const auto& e : stored->events) events.push_back(event_to_json(e));
            for (const auto& e : stored->entered) entered.push_back(entered_json(e));
            auto head = journal.head();
            if (!head) fail(head.error());
            std::cout << dump(Json{{"id", id},
                                   {"pgn", export_pgn(*s)},
                                   {"events", events},
                                   {"entered", entered},
                                   {"created", entered_json(stored->created)},
                                   {"journal_head", *head}})
                      << '\n';
        } else {
            std::cout << export_pgn(*s);
        }
    });
}

void add_list(CLI::App& session) {
    auto* cmd = session.add_subcommand("list", "List the sessions in a journal");
    auto a = std::make_shared<SessionArgs>();
    cmd->add_option("--journal", a->journal, "The journal file")->required();
    add_busy_timeout(*cmd);
    cmd->add_flag("--json", a->json, "JSON output");
    cmd->callback([a] {
        Journal journal = open_journal(a->journal, Journal::Mode::read_only);
        auto ids = journal.sessions();
        if (!ids) fail(ids.error());
        Json out = Json::array();
        std::optional<JournalError> first_damage;
        std::size_t damaged = 0;
        for (SessionId id : *ids) {
            auto stored = journal.load(id);
            Expected<Session, JournalError> s =
                stored ? replay(*stored) : Expected<Session, JournalError>(Unexpected(stored.error()));
            if (!s) {
                // A damaged session is marked, and the others are still listed; exit 2 at the end.
                if (s.error().code == JournalError::Code::io) fail(s.error());
                if (!first_damage) first_damage = s.error();
                ++damaged;
                if (a->json)
                    out.push_back(damaged_session_row(id, code_name(s.error().code), s.error().message));
                else
                    std::cout << id << "  DAMAGED: " << printable(s.error().message) << '\n';
                continue;
            }
            if (a->json) {
                out.push_back(session_row(*s, id));
            } else {
                std::cout << id << "  " << s->config().white << " - " << s->config().black << "  " << s->rules().name
                          << "  " << s->result() << "  " << s->moves().size() << " plies, " << s->events_applied()
                          << " events\n";
            }
        }
        if (a->json) std::cout << dump(out) << '\n';
        if (first_damage) {
            // Under --json the list above already names each damaged session and its error.
            InputError e(first_damage->code,
                         std::to_string(damaged) + (damaged == 1 ? " session is" : " sessions are") +
                             " damaged (listed above), the first: " + first_damage->message,
                         "journal");
            if (a->json) e.reported_on_stdout();
            throw e;
        }
    });
}

}  // namespace

void add_session(CLI::App& app) {
    auto* cmd =
        app.add_subcommand("session", "A live game: clocks, touch-move, offers, claims and penalties, journaled");
    cmd->require_subcommand(1);
    add_new(*cmd);
    add_import(*cmd);
    add_event(*cmd);
    add_show(*cmd);
    add_export(*cmd);
    add_list(*cmd);
    add_verify(*cmd);
    add_delete(*cmd);
}

}  // namespace arbiter::cli
