// session_json.cpp — JSON events in, JSON session state out.
#include "session/session_json.hpp"

#include "json/json_object.hpp"

#include <cstdio>
#include <ctime>
#include <set>

#include "arbiter/event_fields.hpp"
#include "text.hpp"

namespace arbiter::face {

namespace {

// A refused event text, with the code of the event decoder (docs/session.md), the key at fault
// and, for JSON that does not parse, the byte.
// (The decoder's codes are the session's own, EventError::Code; bad_json is the list's.)
template <class C = EventError::Code>
[[noreturn]] void bad(const std::string& message, C code = EventError::Code::bad_value, const std::string& field = {},
                      std::optional<std::uint64_t> offset = std::nullopt) {
    throw InputError(code, "event: " + message, field, offset);
}

std::string string_field(const Json& j, const char* key) {
    const Json& v = j.at(key);
    if (!v.is_string()) bad(std::string("\"") + key + "\" must be a string", EventError::Code::bad_value, key);
    return v.get<std::string>();
}

bool bool_field(const Json& j, const char* key) {
    const Json& v = j.at(key);
    if (!v.is_boolean()) bad(std::string("\"") + key + "\" must be true or false", EventError::Code::bad_value, key);
    return v.get<bool>();
}

std::int64_t int_field(const Json& j, const char* key) {
    const Json& v = j.at(key);
    if (!v.is_number_integer())
        bad(std::string("\"") + key + "\" must be an integer", EventError::Code::bad_value, key);
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
        bad(std::string("\"") + key + "\" is too large", EventError::Code::bad_value, key);
    return v.get<std::int64_t>();
}

// The field of the table whose JSON key is `key` on an event of type t.
const EventField* json_field(std::string_view key, EventType t) {
    for (const EventField& f : event_fields())
        if (f.json && key == f.json && f.types.contains(t)) return &f;
    return nullptr;
}

// Reads one field's JSON value into the event, as the journal's text the table's setter takes.
void read_field(const EventField& f, const Json& j, Event& e, const std::string& type) {
    const char* key = f.json;
    const Json& v = j.at(key);
    if (f.nullable && v.is_null()) return;
    std::string text;
    switch (f.type) {
        case FieldType::integer: {
            const std::int64_t n = int_field(j, key);
            if (n < f.min || n > f.max)
                bad(std::string("\"") + key + "\" must be from " + std::to_string(f.min) + " to " +
                        std::to_string(f.max),
                    EventError::Code::bad_value, key);
            text = std::to_string(n);
            break;
        }
        case FieldType::flag: text = bool_field(j, key) ? "1" : "0"; break;
        case FieldType::text: text = string_field(j, key); break;
        case FieldType::name: {
            text = string_field(j, key);
            // "side": "both" on a flag: both flags are down (the journal's both=1).
            const bool both_allowed = f.journal && std::string_view(f.journal) == "side" && e.type == EventType::flag;
            if (both_allowed && text == "both") {
                e.both = true;
                return;
            }
            if (!f.access.set(e, text))
                bad(std::string("\"") + key + "\" must be " + f.choices + (both_allowed ? " or \"both\"" : "") +
                        ", not \"" + text + "\"",
                    EventError::Code::bad_value, key);
            return;
        }
    }
    if (f.type == FieldType::text && f.required.contains(e.type) && std::int64_t(text.size()) < f.min)
        bad(missing_field_message(f, type), EventError::Code::missing_field, key);
    f.access.set(e, text);
}

Json clocks_json(const Session& s) {
    if (!s.clock()) return nullptr;
    const Clock& c = *s.clock();
    const std::int64_t at = s.last_event_ms();
    Json j;
    j["white_ms"] = c.remaining(Color::white, at);
    j["black_ms"] = c.remaining(Color::black, at);
    j["running"] = c.running() ? Json(std::string(name(*c.running()))) : Json(nullptr);
    j["paused"] = c.paused();
    j["white_flag"] = c.flag_down(Color::white, at);
    j["black_flag"] = c.flag_down(Color::black, at);
    j["white_moves"] = c.moves_completed(Color::white);
    j["black_moves"] = c.moves_completed(Color::black);
    j["as_of_ms"] = at;
    return j;
}

Json verdict_json(const Session& s) {
    if (!s.last_ruling()) return nullptr;
    const ClaimRuling& r = *s.last_ruling();
    Json j = to_json(r.verdict, s.record());
    j.erase("penalty");  // the session's own, from its clock, after "admissible"
    j["admissible"] = r.admissible;
    if (r.penalty) {
        j["penalty"] = Json{{"side", std::string(name(r.penalty->side))},
                            {"added_to", std::string(name(~r.penalty->side))},
                            {"added_ms", r.penalty->added_ms},
                            {"deducted_ms", r.penalty->deducted_ms},
                            {"article", r.penalty->article}};
    } else {
        j["penalty"] = nullptr;
    }
    j["at_ms"] = r.at_ms;
    return j;
}

}  // namespace

std::string event_types_help() {
    std::string out = "Event types (\"type\"; \"at_ms\", the time in milliseconds, on every one; docs/session.md):\n";
    for (EventType t : enum_values<EventType>()) {
        if (t == EventType::quickplay_claim) continue;  // written as a claim of kind "quickplay"
        std::string line = "  " + std::string(event_type_name(t));
        line.resize(20, ' ');
        std::set<std::string> keys;
        for (const EventField& f : event_fields())
            if (f.json && !f.required.is_all() && f.types.contains(t)) keys.insert(f.json);
        std::string list;
        for (const std::string& k : keys) list += (list.empty() ? "" : ", ") + k;
        out += line + (list.empty() ? "(no other key)" : list) + "\n";
    }
    return out;
}

Event event_from_json(const std::string& text) {
    // Not JSON, or not an object: bad_json, as every JSON request (json_object.hpp).
    const Json j = parse_json_object(text, "the event");
    if (!j.contains("type")) bad("missing \"type\"", EventError::Code::missing_field, "type");
    std::string type = string_field(j, "type");
    if (type == "illegal") type = "illegal_move";
    if (type == "ruling") type = "quickplay_ruling";
    auto t = parse_event_type(type);
    if (!t) bad("unknown type \"" + type + "\"", EventError::Code::unknown_event_type, "type");
    Event e;
    e.type = *t;
    // A claim of kind "quickplay" is an event type of its own; its key "kind" says so and is read.
    const bool quickplay = e.type == EventType::claim && j.contains("kind") && j["kind"] == "quickplay";
    if (quickplay) e.type = EventType::quickplay_claim;
    const auto fields = event_fields();
    const EventField& at = fields.front();
    if (!j.contains(at.json)) bad(missing_field_message(at, type), EventError::Code::missing_field, at.json);
    read_field(at, j, e, type);
    for (const auto& [key, value] : j.items()) {
        if (key == "type" || key == at.json) continue;
        if (!json_field(key, *t))
            bad("unknown key \"" + key + "\" for a " + type + " event", EventError::Code::unknown_field, key);
    }
    for (const EventField& f : fields.subspan(1)) {
        if (!f.json || !f.types.contains(e.type)) continue;
        if (j.contains(f.json))
            read_field(f, j, e, type);
        else if (f.required.contains(e.type))
            bad(missing_field_message(f, type), EventError::Code::missing_field, f.json);
    }
    if (quickplay && j.contains("intended") && !j["intended"].is_null())
        bad("a quickplay claim has no intended move", EventError::Code::unknown_field, "intended");
    return e;
}

Json event_to_json(const Event& e) {
    Json j;
    const bool quickplay = e.type == EventType::quickplay_claim;
    j["type"] = quickplay ? "claim" : event_type_name(e.type);
    for (const EventField& f : event_fields()) {
        const std::string_view key = f.json ? f.json : "";
        if (quickplay && key == "kind" && !j.contains("kind")) j["kind"] = "quickplay";
        if (e.both && key == "side") {
            j["side"] = "both";  // both flags down: the journal's both=1
            continue;
        }
        if (!emits(f, e, true)) continue;
        const std::string value = f.access.get(e);
        switch (f.type) {
            case FieldType::integer: j[f.json] = std::stoll(value); break;
            case FieldType::flag: j[f.json] = value == "1"; break;
            case FieldType::text:
            case FieldType::name: j[f.json] = value; break;
        }
    }
    return j;
}

Json refusal_json(EventError::Code code, const std::string& message, SessionId id) {
    return Json{{"id", id}, {"status", "refused"}, {"error", error_json(code_name(code), printable(message))}};
}

Json session_row(const Session& s, SessionId id) {
    const SessionConfig& c = s.config();
    Json row{{"id", id},
             {"white", c.white},
             {"black", c.black},
             {"event", c.event},
             {"round", c.round},
             {"status", s.ended() ? "ended" : "ongoing"},
             {"result", s.result()},
             {"ply", s.record().game_ply(s.record().size() - 1)},
             {"rules", s.rules().name},
             {"events", s.events_applied()}};
    if (!c.section.empty()) row["section"] = c.section;
    if (!c.board.empty()) row["board"] = c.board;
    return row;
}

Json damaged_session_row(SessionId id, std::string_view code, const std::string& message) {
    return Json{{"id", id}, {"status", "damaged"}, {"error", error_json(code, printable(message))}};
}

Json entered_json(const Entered& e) {
    Json j{{"by", e.by}};
    if (e.unix_ms > 0) {
        j["unix_ms"] = e.unix_ms;
        const auto t = static_cast<std::time_t>(e.unix_ms / 1000);
        std::tm tm{};
        gmtime_r(&t, &tm);
        char text[40];
        const std::size_t n = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &tm);
        std::snprintf(text + n, sizeof text - n, ".%03dZ", static_cast<int>(e.unix_ms % 1000));
        j["at"] = text;
    }
    return j;
}

Json history_json(const StoredSession& s) {
    Json events = Json::array();
    for (std::size_t i = 0; i < s.events.size(); ++i) {
        Json row{{"seq", i + 1}, {"type", event_type_name(s.events[i].type)}, {"event", event_to_json(s.events[i])}};
        const Json who = entered_json(i < s.entered.size() ? s.entered[i] : Entered{});
        for (auto it = who.begin(); it != who.end(); ++it) row[it.key()] = it.value();
        events.push_back(std::move(row));
    }
    return Json{{"id", s.id}, {"created", entered_json(s.created)}, {"events", std::move(events)}};
}

Json state_json(const Session& s, SessionId id) {
    const GameRecord& rec = s.record();
    Json j;
    j["id"] = id;
    j["status"] = s.ended() ? "ended" : "ongoing";
    j["result"] = s.result();
    if (s.end()) {
        j["termination"] = Json{{"kind", end_kind_name(s.end()->kind)},
                                {"article", s.end()->article},
                                {"reason", s.end()->reason},
                                {"ply", rec.game_ply(s.end()->ply)},
                                {"at_ms", s.end()->at_ms}};
    } else {
        j["termination"] = nullptr;
    }
    j["ply"] = rec.game_ply(rec.size() - 1);
    j["side_to_move"] = std::string(name(rec.current().turn()));
    j["clocks"] = clocks_json(s);
    j["pending_offer"] = s.pending_offer() ? Json(std::string(name(s.pending_offer()->by))) : Json(nullptr);
    j["last_verdict"] = verdict_json(s);
    j["must_play"] = s.must_play() ? Json(s.must_play()->written) : Json(nullptr);
    j["awaiting_press"] = s.awaiting_press() ? Json(std::string(name(*s.awaiting_press()))) : Json(nullptr);
    Json touched = Json::array();
    for (Square t : s.touched()) touched.push_back(to_string(t));
    j["touched"] = touched;
    j["claim_right_lost"] = s.claim_right_lost();
    j["quickplay_claim"] = s.quickplay_pending() ? Json{{"side", std::string(name(*s.quickplay_pending()))},
                                                        {"postponed", s.quickplay_postponed()}}
                                                 : Json(nullptr);
    j["illegal_moves"] = Json{{"white", s.illegal_moves(Color::white)}, {"black", s.illegal_moves(Color::black)}};
    Json director = Json::array();
    if (!s.ended())
        for (const auto& t : rec.director_may_declare(rec.size() - 1)) director.push_back(to_json(t, rec));
    j["director_may_declare"] = director;
    // What may happen now, by the session's own checks: null, or why the Laws refuse it.
    Json actions = Json::object();
    for (const auto& a : s.actions())
        actions[a.name] =
            a.refusal ? error_json(code_name(a.refusal->code), printable(a.refusal->message)) : Json(nullptr);
    j["actions"] = actions;
    j["fen"] = to_fen(rec.current());
    Json moves = Json::array();
    for (const auto& m : s.moves()) moves.push_back(m.san);
    j["moves"] = moves;
    j["rules"] = s.rules().name;
    j["time_category"] = time_category_name(s.config().options.time_category);
    j["time_control"] = s.config().time_control ? Json(to_string(*s.config().time_control)) : Json(nullptr);
    j["events"] = s.events_applied();
    Json notes = Json::array();
    for (const auto& n : s.notes()) notes.push_back(Json{{"after", rec.move_label(n.ply)}, {"text", n.text}});
    j["notes"] = notes;
    return j;
}

}  // namespace arbiter::face
