// session_json.hpp — live sessions as JSON: events read from JSON (the `arbiter session event`
// argument, and later the server's request bodies) and the session state written as JSON with
// the stable keys of docs/session.md.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "arbiter/journal.hpp"
#include "json/rules_json.hpp"
#include "requests/game_input.hpp"

namespace arbiter::face {

/// Parses one event, e.g. {"type":"move","move":"Nf3","at_ms":1500}. Unknown keys, wrong
/// types and missing fields are errors. Throws InputError with a one-line message.
Event event_from_json(const std::string& text);
/// The JSON that event_from_json reads back to the same event (`session export --json`, the
/// service's event list): only the keys that differ from their defaults.
Json event_to_json(const Event& e);
/// The event types and the keys each takes, for `session event --help` (from the decoder's own
/// table: the keys it accepts).
std::string event_types_help();

/// Who entered a record and when: {"by":"alice","unix_ms":1765103462123,"at":"2026-12-07T10:31:02.123Z"}
/// ("by" empty and no time for a record of a journal written before they were kept).
Json entered_json(const Entered& e);
/// A session's history as journaled (GET /api/v1/sessions/{id}/history, `session show --history
/// --json`): {"id","created":{entered},"events":[{"seq","type","event":{…},"by","unix_ms","at"}]}.
Json history_json(const StoredSession& s);

/// A refused event: {"id":1,"status":"refused","error":{"code":"out_of_turn","message":"out of
/// turn: …"}} (the codes of docs/session.md).
Json refusal_json(EventError::Code code, const std::string& message, SessionId id);

/// A session's row in the list of a journal's sessions (`session list --json`, GET
/// /api/v1/sessions): {"id","white","black","event","round","status":"ongoing"|"ended","result",
/// "ply","rules","events"} and "section", "board" when given (docs/json.md "session list").
Json session_row(const Session& s, SessionId id);
/// The row of a session that cannot be read back: {"id","status":"damaged","error":{"code",
/// "message"}}.
Json damaged_session_row(SessionId id, std::string_view code, const std::string& message);

/// The options of `session new` (and the body of the service's POST /api/v1/sessions).
struct NewSessionInput {
    RuleInput rules;              // --rules, --time-category and the rule options
    bool category_given = false;  // --time-category was given (else derived from the time control)
    std::string time_control;
    std::string fen;
    std::string white = "?", black = "?", event = "?", site = "?", date = "????.??.??", round = "?";
    std::string section, board;  // PGN Section and Board (empty: none)
    int no_offers_before = 0;
    bool quickplay = false;
    bool blitz_supervised = false;
};

/// A field of a new session declared once: its JSON key (POST /api/v1/sessions), the command
/// line's flag (`session new`), its help, and where NewSessionInput keeps it — a text (a PGN tag's
/// is checked for UTF-8), a whole number in a range, or a flag. The CLI registers its flags from
/// this table, the service reads its keys from it (the rule set, time category and rule options
/// come from the option table beside them).
struct SessionFieldSpec {
    std::string_view name;
    std::string_view flag;
    std::string_view help;
    std::string NewSessionInput::*text = nullptr;
    bool tag = false;  ///< a PGN tag's text
    int NewSessionInput::*number = nullptr;
    int min = 0, max = 0;
    bool NewSessionInput::*on = nullptr;
};
/// Every field, in the order the help lists them.
std::span<const SessionFieldSpec> session_field_table();
/// A new session's settings read from a JSON request (the service's body): the table's keys, the
/// rule set and time category, the rule options; FieldError for a key unknown or of the wrong type.
NewSessionInput new_session_input(const Json& request);

/// The configuration those options give, or InputError naming the option (--date, --fen, …).
SessionConfig session_config(const NewSessionInput& in);

/// The state of a session: status, result, termination, ply, side_to_move, clocks,
/// pending_offer, last_verdict, must_play and more (docs/session.md).
Json state_json(const Session& s, SessionId id);

}  // namespace arbiter::face
