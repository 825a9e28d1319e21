// event_fields.hpp — the fields of a session event, declared once. Each row says which event
// types carry a field, which need it, its key in the journal and in JSON, how it is written and
// what values it takes. The journal codec (session_codec.cpp) and the JSON codec of the faces
// (face_core/session/session_json.cpp) both read this table, so a new field or event type is a row
// here, the session's handler, tests and docs — never a change to either codec.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

#include "arbiter/session.hpp"

namespace arbiter {

/// A set of event types, one bit each.
class EventTypes {
public:
    constexpr EventTypes() = default;
    constexpr EventTypes(std::initializer_list<EventType> types) {
        for (EventType t : types) bits_ |= bit(t);
    }
    static constexpr EventTypes all() {
        EventTypes s;
        s.bits_ = (std::uint32_t{1} << enum_count<EventType>)-1;
        return s;
    }
    [[nodiscard]] constexpr bool contains(EventType t) const { return (bits_ & bit(t)) != 0; }
    [[nodiscard]] constexpr bool empty() const { return bits_ == 0; }
    [[nodiscard]] constexpr bool is_all() const { return bits_ == all().bits_; }

private:
    static constexpr std::uint32_t bit(EventType t) { return std::uint32_t{1} << static_cast<unsigned>(t); }
    std::uint32_t bits_ = 0;
};
static_assert(enum_count<EventType> <= 32);

/// How a field's value is written: a number, true/false ("1"/"0" in the journal), free text, or a
/// name from a fixed set (a side, a square, an enum's name).
enum class FieldType : std::uint8_t { integer, flag, text, name };

/// When a field is written for an event of a type that carries it.
enum class FieldEmit : std::uint8_t {
    when_set,     ///< only when it differs from the default
    always_json,  ///< always in JSON, in the journal only when set
    always,       ///< always, in both
};

/// How a codec reaches a field of an Event.
struct FieldAccess {
    /// The value as the journal writes it ("1", "e4", "threefold", "120000").
    std::string (*get)(const Event&) = nullptr;
    /// Whether it differs from the default (FieldEmit::when_set).
    bool (*is_set)(const Event&) = nullptr;
    /// Reads the journal's text; false for a value outside the field's set (ranges are checked by
    /// the codecs with min and max).
    bool (*set)(Event&, std::string_view) = nullptr;
};

struct EventField {
    /// Key in the journal line; nullptr when the journal keeps the value under another row's key
    /// (a claim's written move is the journal's "move").
    const char* journal = nullptr;
    /// Key in JSON; nullptr when JSON writes the value through another key (a flag of both sides
    /// is "side": "both").
    const char* json = nullptr;
    FieldType type = FieldType::flag;
    EventTypes types;     ///< the event types that carry it (JSON accepts it on these alone)
    EventTypes required;  ///< those that must give it
    /// The journal reads and writes it on an event of any type: the fields of the first journal
    /// format, kept so that every journal ever written still reads.
    bool journal_anywhere = false;
    FieldEmit emit = FieldEmit::when_set;
    /// Integers: the values allowed. A required text: its shortest length (1: not empty).
    std::int64_t min = INT64_MIN, max = INT64_MAX;
    bool nullable = false;  ///< JSON null reads as the key absent
    /// For the messages. `who` needs the key: "a claim" (nullptr: "a <type> event"); `hint` follows
    /// it (", e.g. \"Nf3\""); `choices` are the values a name may take ("\"draw\", \"postpone\"
    /// or \"reject\"").
    const char* who = nullptr;
    const char* hint = nullptr;
    const char* choices = nullptr;
    FieldAccess access;
};

/// Every field, in the order the journal writes them.
std::span<const EventField> event_fields() noexcept;

/// Whether an event of this type writes the field (FieldEmit, for the journal or for JSON).
bool emits(const EventField& f, const Event& e, bool json);

/// The message for a required field that is missing: "a move event needs \"move\", e.g. \"Nf3\"".
std::string missing_field_message(const EventField& f, std::string_view type_name);

}  // namespace arbiter
