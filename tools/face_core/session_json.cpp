// session_json.cpp — JSON events in, JSON session state out.
#include "session_json.hpp"

#include <set>

#include "text.hpp"

namespace arbiter::face {

namespace {

// A refused event text, with the code of the event decoder (docs/session.md), the key at fault
// and, for JSON that does not parse, the byte.
[[noreturn]] void bad(const std::string& message, const char* code = "bad_value", const std::string& field = {},
                      std::optional<std::uint64_t> offset = std::nullopt) {
    throw InputError(code, "event: " + message, field, offset);
}

std::string string_field(const Json& j, const char* key) {
    const Json& v = j.at(key);
    if (!v.is_string()) bad(std::string("\"") + key + "\" must be a string", "bad_value", key);
    return v.get<std::string>();
}

bool bool_field(const Json& j, const char* key) {
    const Json& v = j.at(key);
    if (!v.is_boolean()) bad(std::string("\"") + key + "\" must be true or false", "bad_value", key);
    return v.get<bool>();
}

std::int64_t int_field(const Json& j, const char* key) {
    const Json& v = j.at(key);
    if (!v.is_number_integer()) bad(std::string("\"") + key + "\" must be an integer", "bad_value", key);
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
        bad(std::string("\"") + key + "\" is too large", "bad_value", key);
    return v.get<std::int64_t>();
}

// The keys each event type accepts, beyond "type" and "at_ms".
const std::set<std::string>& keys_of(EventType t) {
    static const std::set<std::string> none, side{"side"}, move{"side", "move", "press", "offer", "consent"},
        touch{"side", "square"}, offer{"side", "consent"}, claim{"side", "kind", "intended"}, flag{"side"},
        illegal{"side", "square"}, declare{"kind"}, ruling{"decision", "added_ms"},
        set_clock{"white_ms", "black_ms", "white_moves", "black_moves"}, add_time{"side", "added_ms", "text"},
        forfeit{"side", "reason", "draw", "text"}, note{"text"}, retract{"count", "force", "text"};
    switch (t) {
        case EventType::move: return move;
        case EventType::touch:
        case EventType::adjust: return touch;
        case EventType::offer:
        case EventType::accept: return offer;
        case EventType::claim:
        case EventType::quickplay_claim: return claim;
        case EventType::flag: return flag;
        case EventType::illegal_move: return illegal;
        case EventType::declare: return declare;
        case EventType::quickplay_ruling: return ruling;
        case EventType::start:
        case EventType::press:
        case EventType::decline:
        case EventType::resign:
        case EventType::illegal_position: return side;
        case EventType::pause:
        case EventType::resume: return none;
        case EventType::set_clock: return set_clock;
        case EventType::add_time: return add_time;
        case EventType::forfeit: return forfeit;
        case EventType::note: return note;
        case EventType::retract: return retract;
    }
    return none;
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
        std::string keys;
        for (const std::string& k : keys_of(t)) keys += (keys.empty() ? "" : ", ") + k;
        out += line + (keys.empty() ? "(no other key)" : keys) + "\n";
    }
    return out;
}

Event event_from_json(const std::string& text) {
    Json j;
    try {
        j = Json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        bad(std::string("not valid JSON (") + e.what() + ")", "malformed", {}, e.byte ? e.byte - 1 : 0);
    }
    if (!j.is_object())
        bad("expected a JSON object such as {\"type\":\"move\",\"move\":\"e4\",\"at_ms\":0}", "malformed");
    if (!j.contains("type")) bad("missing \"type\"", "missing_field", "type");
    std::string type = string_field(j, "type");
    if (type == "illegal") type = "illegal_move";
    if (type == "ruling") type = "quickplay_ruling";
    auto t = parse_event_type(type);
    if (!t) bad("unknown type \"" + type + "\"", "unknown_event_type", "type");
    Event e;
    e.type = *t;
    if (e.type == EventType::claim && j.contains("kind") && j["kind"] == "quickplay")
        e.type = EventType::quickplay_claim;
    if (!j.contains("at_ms"))
        bad("missing \"at_ms\" (the time of the event in milliseconds)", "missing_field", "at_ms");
    e.at_ms = int_field(j, "at_ms");
    const auto& allowed = keys_of(e.type);
    for (const auto& [key, value] : j.items()) {
        if (key == "type" || key == "at_ms") continue;
        if (!allowed.count(key)) bad("unknown key \"" + key + "\" for a " + type + " event", "unknown_field", key);
    }
    if (j.contains("side")) {
        const std::string side = string_field(j, "side");
        if (side == "white")
            e.side = Color::white;
        else if (side == "black")
            e.side = Color::black;
        else if (side == "both" && e.type == EventType::flag)
            e.both = true;
        else
            bad("\"side\" must be \"white\" or \"black\"" +
                    std::string(e.type == EventType::flag ? " or \"both\"" : "") + ", not \"" + side + "\"",
                "bad_value", "side");
    }
    if (e.type == EventType::move) {
        if (!j.contains("move")) bad("a move event needs \"move\", e.g. \"Nf3\"", "missing_field", "move");
        e.move = string_field(j, "move");
    }
    if (j.contains("press")) e.press = bool_field(j, "press");
    if (j.contains("offer")) e.offer = bool_field(j, "offer");
    if (j.contains("consent")) e.consent = bool_field(j, "consent");
    if (e.type == EventType::touch || e.type == EventType::adjust || j.contains("square")) {
        if (!j.contains("square")) bad("a " + type + " event needs \"square\", e.g. \"g1\"", "missing_field", "square");
        const std::string sq = string_field(j, "square");
        auto s = parse_square(sq);
        if (!s) bad("\"square\" must be a square such as \"g1\", not \"" + sq + "\"", "bad_value", "square");
        e.square = *s;
    }
    if (e.type == EventType::claim) {
        if (!j.contains("kind"))
            bad("a claim needs \"kind\": \"threefold\", \"fifty\" or \"quickplay\"", "missing_field", "kind");
        const std::string kind = string_field(j, "kind");
        auto k = parse_claim_kind(kind);
        if (!k)
            bad("\"kind\" must be \"threefold\", \"fifty\" or \"quickplay\", not \"" + kind + "\"", "bad_value",
                "kind");
        e.claim = *k;
        if (j.contains("intended") && !j["intended"].is_null()) e.move = string_field(j, "intended");
    } else if (e.type == EventType::quickplay_claim && j.contains("intended") && !j["intended"].is_null()) {
        bad("a quickplay claim has no intended move", "unknown_field", "intended");
    }
    if (e.type == EventType::declare) {
        if (!j.contains("kind"))
            bad("declare needs \"kind\": \"fivefold_repetition\" or \"seventy_five_moves\"", "missing_field", "kind");
        const std::string kind = string_field(j, "kind");
        if (kind == "fivefold_repetition")
            e.declared = TerminationKind::fivefold_repetition;
        else if (kind == "seventy_five_moves")
            e.declared = TerminationKind::seventy_five_moves;
        else
            bad("\"kind\" must be \"fivefold_repetition\" or \"seventy_five_moves\", not \"" + kind + "\"", "bad_value",
                "kind");
    }
    if (e.type == EventType::quickplay_ruling) {
        if (!j.contains("decision"))
            bad("a ruling needs \"decision\": \"draw\", \"postpone\" or \"reject\"", "missing_field", "decision");
        const std::string d = string_field(j, "decision");
        auto dec = parse_quickplay_decision(d);
        if (!dec)
            bad("\"decision\" must be \"draw\", \"postpone\" or \"reject\", not \"" + d + "\"", "bad_value",
                "decision");
        e.decision = *dec;
        if (j.contains("added_ms")) e.added_ms = int_field(j, "added_ms");
    }
    if (e.type == EventType::add_time) {
        if (!j.contains("added_ms")) bad("add_time needs \"added_ms\", e.g. 120000", "missing_field", "added_ms");
        e.added_ms = int_field(j, "added_ms");
    }
    if (j.contains("white_ms")) e.white_ms = int_field(j, "white_ms");
    if (j.contains("black_ms")) e.black_ms = int_field(j, "black_ms");
    for (const char* key : {"white_moves", "black_moves"}) {
        if (!j.contains(key)) continue;
        const std::int64_t n = int_field(j, key);
        if (n < 0 || n > 1'000'000) bad(std::string("\"") + key + "\" must be from 0 to 1000000", "bad_value", key);
        (std::string_view(key) == "white_moves" ? e.white_moves : e.black_moves) = static_cast<int>(n);
    }
    if (e.type == EventType::forfeit) {
        if (!j.contains("reason"))
            bad("forfeit needs \"reason\": " + enum_name_list<ForfeitReason>(), "missing_field", "reason");
        const std::string r = string_field(j, "reason");
        const auto reason = parse_enum<ForfeitReason>(r);
        if (!reason)
            bad("\"reason\" must be " + enum_name_list<ForfeitReason>() + ", not \"" + r + "\"", "bad_value", "reason");
        e.reason = *reason;
        if (j.contains("draw")) e.draw = bool_field(j, "draw");
    }
    if (e.type == EventType::retract) {
        if (!j.contains("count")) bad("retract needs \"count\": how many events to withdraw", "missing_field", "count");
        const std::int64_t n = int_field(j, "count");
        if (n < 1 || n > 1'000'000) bad("\"count\" must be from 1 to 1000000", "bad_value", "count");
        e.count = static_cast<std::uint32_t>(n);
        if (j.contains("force")) e.force = bool_field(j, "force");
    }
    if (j.contains("text")) e.text = string_field(j, "text");
    if (e.type == EventType::note && e.text.empty()) bad("a note needs \"text\"", "missing_field", "text");
    return e;
}

Json event_to_json(const Event& e) {
    Json j;
    const bool quickplay = e.type == EventType::quickplay_claim;
    j["type"] = quickplay ? "claim" : event_type_name(e.type);
    j["at_ms"] = e.at_ms;
    if (e.both)
        j["side"] = "both";
    else if (e.side)
        j["side"] = name(*e.side);
    if (e.type == EventType::move) {
        j["move"] = e.move;
        if (!e.press) j["press"] = false;
        if (e.offer) j["offer"] = true;
    }
    if (e.consent) j["consent"] = true;
    if (is_ok(e.square)) j["square"] = to_string(e.square);
    if (e.type == EventType::claim) {
        j["kind"] = claim_kind_name(e.claim);
        if (!e.move.empty()) j["intended"] = e.move;
    }
    if (quickplay) j["kind"] = "quickplay";
    if (e.type == EventType::declare) j["kind"] = termination_name(e.declared);
    if (e.type == EventType::quickplay_ruling) {
        j["decision"] = quickplay_decision_name(e.decision);
        if (e.added_ms) j["added_ms"] = *e.added_ms;
    }
    if (e.type == EventType::add_time && e.added_ms) j["added_ms"] = *e.added_ms;
    if (e.white_ms) j["white_ms"] = *e.white_ms;
    if (e.black_ms) j["black_ms"] = *e.black_ms;
    if (e.white_moves) j["white_moves"] = *e.white_moves;
    if (e.black_moves) j["black_moves"] = *e.black_moves;
    if (e.type == EventType::forfeit) {
        j["reason"] = enum_name(e.reason);
        if (e.draw) j["draw"] = true;
    }
    if (e.type == EventType::retract) {
        j["count"] = e.count;
        if (e.force) j["force"] = true;
    }
    if (!e.text.empty()) j["text"] = e.text;
    return j;
}

Json refusal_json(EventError::Code code, const std::string& message, SessionId id) {
    return Json{{"id", id}, {"status", "refused"}, {"error", error_json(code_name(code), printable(message))}};
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
