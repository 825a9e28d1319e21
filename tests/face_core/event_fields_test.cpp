// The table of event fields (include/arbiter/event_fields.hpp) drives both codecs: the journal's
// text (src/session_codec.cpp) and JSON (face_core/session/session_json.cpp). Each field of each
// event type that carries it is set to a value other than its default and read back through both.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "arbiter/arbiter.hpp"
#include "session/session_json.hpp"

namespace arbiter {
namespace {

// A value other than the field's default, as the journal writes it.
std::string other_value(const EventField& f) {
    const std::string key = f.journal ? f.journal : "";
    switch (f.type) {
        case FieldType::integer: return f.min > 0 ? std::to_string(f.min + 6) : "7";
        case FieldType::flag: return key == "press" ? "0" : "1";
        case FieldType::text: return "Nf3 and a note";
        case FieldType::name:
            if (key == "side") return "black";
            if (key == "square") return "g1";
            if (key == "claim") return "fifty";
            if (key == "declared") return "seventy_five_moves";
            if (key == "decision") return "postpone";
            if (key == "reason") return "conduct";
    }
    return {};
}

// An event of type t with every field the table requires for it.
Event minimal(EventType t) {
    Event e;
    e.type = t;
    e.at_ms = 1500;
    for (const EventField& f : event_fields())
        if (f.required.contains(t) && !f.required.is_all()) EXPECT_TRUE(f.access.set(e, other_value(f))) << f.journal;
    return e;
}

face::Json round_trip_json(const Event& e) {
    return face::event_to_json(face::event_from_json(face::event_to_json(e).dump()));
}

TEST(EventFields, EveryFieldOfEveryTypeReadsBackThroughBothCodecs) {
    int checked = 0;
    for (EventType t : enum_values<EventType>()) {
        for (const EventField& f : event_fields()) {
            if (!f.types.contains(t)) continue;
            Event e = minimal(t);
            ASSERT_TRUE(f.access.set(e, other_value(f))) << (f.json ? f.json : f.journal);
            EXPECT_TRUE(f.access.is_set(e) || f.emit != FieldEmit::when_set) << f.journal;
            const auto journal = decode_event(encode(e));
            ASSERT_TRUE(journal) << encode(e) << ": " << journal.error().message;
            EXPECT_EQ(*journal, e) << encode(e);
            const Event from_json = face::event_from_json(face::event_to_json(e).dump());
            EXPECT_EQ(from_json, e) << face::event_to_json(e).dump();
            EXPECT_EQ(round_trip_json(e), face::event_to_json(e));
            ++checked;
        }
    }
    EXPECT_GT(checked, 40);
}

TEST(EventFields, AFieldOfAnotherTypeIsRefusedByBothCodecs) {
    for (EventType t : enum_values<EventType>()) {
        for (const EventField& f : event_fields()) {
            if (f.types.contains(t) || f.journal_anywhere || !f.journal) continue;
            const std::string text = encode(minimal(t)) + " " + f.journal + "=" + other_value(f);
            const auto d = decode_event(text);
            ASSERT_FALSE(d) << text;
            EXPECT_EQ(d.error().code, EventError::Code::unknown_field) << text;
        }
    }
    try {
        (void)face::event_from_json(R"({"type":"resign","at_ms":0,"count":2})");
        FAIL() << "a retract's count accepted on a resignation";
    } catch (const face::InputError& e) {
        EXPECT_EQ(e.code(), "unknown_field");
        EXPECT_EQ(e.field(), "count");
    }
}

TEST(EventFields, RequiredFieldsAreNamedWhenMissing) {
    for (EventType t : enum_values<EventType>()) {
        if (t == EventType::quickplay_claim) continue;
        for (const EventField& f : event_fields()) {
            if (!f.required.contains(t) || f.required.is_all()) continue;
            face::Json j = face::event_to_json(minimal(t));
            j.erase(f.json);
            try {
                (void)face::event_from_json(j.dump());
                FAIL() << j.dump() << " accepted without " << f.json;
            } catch (const face::InputError& e) {
                EXPECT_EQ(e.code(), "missing_field") << j.dump();
                EXPECT_EQ(e.field(), f.json);
                EXPECT_NE(std::string(e.what()).find(std::string("\"") + f.json + "\""), std::string::npos) << e.what();
            }
        }
    }
}

TEST(EventFields, AJsonKeyNamesOneFieldPerType) {
    for (EventType t : enum_values<EventType>()) {
        std::map<std::string, int> keys;
        for (const EventField& f : event_fields())
            if (f.json && f.types.contains(t)) ++keys[f.json];
        for (const auto& [key, n] : keys) EXPECT_EQ(n, 1) << key << " on " << event_type_name(t);
    }
}

// JSON that parses but that nlohmann cannot hold (a number out of a double's range) is refused
// as bad_json, like JSON that does not parse, never an exception of the JSON library (the
// session fuzzer's CI find: it ended the CLI with an internal error). (Was `malformed`, the
// journal codec's code, before the one JSON reader of issue 45.)
TEST(EventFields, NumbersJsonCannotHoldAreBadJson) {
    for (const char* text :
         {R"({"type":"move","move":"e4","at_ms":1e999})", R"({"type":"move","move":"e4","at_ms":-1e400})",
          R"({"type":"offer","at_ms":0,"side":"white","x":1e999})"}) {
        try {
            (void)face::event_from_json(text);
            FAIL() << text << " accepted";
        } catch (const face::InputError& e) {
            EXPECT_EQ(e.code(), "bad_json") << text;
            EXPECT_NE(std::string(e.what()).find("number overflow"), std::string::npos) << e.what();
        }
    }
}

}  // namespace
}  // namespace arbiter
