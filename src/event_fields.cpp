// event_fields.cpp — the table of event fields (event_fields.hpp): one row a field, with the
// accessors the codecs use to read and write it.
#include "arbiter/event_fields.hpp"

#include <charconv>
#include <optional>
#include <type_traits>
#include <utility>

namespace arbiter {

namespace {

using T = EventType;

std::optional<std::int64_t> to_int(std::string_view s) {
    std::int64_t v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
    return v;
}

// Accessors made from the member they reach.
template <auto M, bool Default>
FieldAccess flag() {
    return {[](const Event& e) { return std::string(e.*M ? "1" : "0"); },
            [](const Event& e) { return e.*M != Default; },
            [](Event& e, std::string_view v) {
                if (v != "1" && v != "0") return false;
                e.*M = v == "1";
                return true;
            }};
}

template <auto M>
FieldAccess text() {
    return {[](const Event& e) { return e.*M; }, [](const Event& e) { return !(e.*M).empty(); },
            [](Event& e, std::string_view v) {
                e.*M = std::string(v);
                return true;
            }};
}

// A plain integer (zero is the default) or an optional one (times, move counts).
template <auto M>
FieldAccess integer() {
    using V = std::remove_cvref_t<decltype(std::declval<Event&>().*M)>;
    if constexpr (std::is_integral_v<V>) {
        return {[](const Event& e) { return std::to_string(e.*M); }, [](const Event& e) { return e.*M != 0; },
                [](Event& e, std::string_view v) {
                    const auto x = to_int(v);
                    if (x) e.*M = static_cast<V>(*x);
                    return x.has_value();
                }};
    } else {
        return {[](const Event& e) { return e.*M ? std::to_string(*(e.*M)) : std::string("0"); },
                [](const Event& e) { return (e.*M).has_value(); },
                [](Event& e, std::string_view v) {
                    const auto x = to_int(v);
                    if (x) e.*M = static_cast<typename V::value_type>(*x);
                    return x.has_value();
                }};
    }
}

// The name of an enum member: written for its types always (FieldEmit::always), so never "set".
template <auto M>
FieldAccess name_of() {
    return {[](const Event& e) { return std::string(enum_name(e.*M)); }, [](const Event&) { return false; },
            [](Event& e, std::string_view v) {
                const auto x = parse_enum<std::remove_cvref_t<decltype(e.*M)>>(v);
                if (x) e.*M = *x;
                return x.has_value();
            }};
}

FieldAccess side() {
    return {[](const Event& e) { return e.side ? std::string(name(*e.side)) : std::string(); },
            [](const Event& e) { return e.side.has_value(); },
            [](Event& e, std::string_view v) {
                const auto c = parse_enum<Color>(v);
                if (c) e.side = *c;
                return c.has_value();
            }};
}

FieldAccess square() {
    return {[](const Event& e) { return to_string(e.square); }, [](const Event& e) { return is_ok(e.square); },
            [](Event& e, std::string_view v) {
                const auto s = parse_square(v);
                if (s) e.square = *s;
                return s.has_value();
            }};
}

// The two automatic draws a director may declare (US Chess 14K); no other termination.
FieldAccess declared() {
    FieldAccess a = name_of<&Event::declared>();
    a.set = [](Event& e, std::string_view v) {
        for (TerminationKind k : {TerminationKind::fivefold_repetition, TerminationKind::seventy_five_moves})
            if (v == termination_name(k)) {
                e.declared = k;
                return true;
            }
        return false;
    };
    return a;
}

const std::string forfeit_reasons = enum_name_list<ForfeitReason>();
constexpr EventTypes acting{
    T::start,    T::move,   T::press,           T::touch,  T::adjust, T::offer,        T::accept,
    T::decline,  T::claim,  T::quickplay_claim, T::resign, T::flag,   T::illegal_move, T::illegal_position,
    T::add_time, T::forfeit};

// In the order the journal writes them. JSON writes them in this order too, after "type".
const EventField fields[] = {
    {.journal = "at",
     .json = "at_ms",
     .type = FieldType::integer,
     .types = EventTypes::all(),
     .required = EventTypes::all(),
     .journal_anywhere = true,
     .emit = FieldEmit::always,
     .hint = " (the time of the event in milliseconds)",
     .access = integer<&Event::at_ms>()},
    {.journal = "side",
     .json = "side",
     .type = FieldType::name,
     .types = acting,
     .journal_anywhere = true,
     .choices = "\"white\" or \"black\"",
     .access = side()},
    {.journal = "move",
     .json = "move",
     .type = FieldType::text,
     .types = {T::move},
     .required = {T::move},
     .journal_anywhere = true,
     .emit = FieldEmit::always_json,
     .hint = ", e.g. \"Nf3\"",
     .access = text<&Event::move>()},
    {.journal = "press",
     .json = "press",
     .types = {T::move},
     .journal_anywhere = true,
     .access = flag<&Event::press, true>()},
    {.journal = "offer",
     .json = "offer",
     .types = {T::move},
     .journal_anywhere = true,
     .access = flag<&Event::offer, false>()},
    {.journal = "square",
     .json = "square",
     .type = FieldType::name,
     .types = {T::touch, T::adjust, T::illegal_move},
     .required = {T::touch, T::adjust},
     .journal_anywhere = true,
     .hint = ", e.g. \"g1\"",
     .choices = "a square such as \"g1\"",
     .access = square()},
    {.journal = "claim",
     .json = "kind",
     .type = FieldType::name,
     .types = {T::claim},
     .required = {T::claim},
     .emit = FieldEmit::always,
     .who = "a claim",
     .choices = "\"threefold\", \"fifty\" or \"quickplay\"",
     .access = name_of<&Event::claim>()},
    // A claim's written move: the journal keeps it as "move" (the row above, on any type).
    {.json = "intended",
     .type = FieldType::text,
     .types = {T::claim},
     .nullable = true,
     .access = text<&Event::move>()},
    // Both flags down: JSON writes it as "side": "both".
    {.journal = "both", .types = {T::flag}, .journal_anywhere = true, .access = flag<&Event::both, false>()},
    {.journal = "consent",
     .json = "consent",
     .types = {T::move, T::offer, T::accept},
     .journal_anywhere = true,
     .access = flag<&Event::consent, false>()},
    {.journal = "declared",
     .json = "kind",
     .type = FieldType::name,
     .types = {T::declare},
     .required = {T::declare},
     .emit = FieldEmit::always,
     .who = "declare",
     .choices = "\"fivefold_repetition\" or \"seventy_five_moves\"",
     .access = declared()},
    {.journal = "decision",
     .json = "decision",
     .type = FieldType::name,
     .types = {T::quickplay_ruling},
     .required = {T::quickplay_ruling},
     .emit = FieldEmit::always,
     .who = "a ruling",
     .choices = "\"draw\", \"postpone\" or \"reject\"",
     .access = name_of<&Event::decision>()},
    {.journal = "added",
     .json = "added_ms",
     .type = FieldType::integer,
     .types = {T::quickplay_ruling, T::add_time},
     .required = {T::add_time},
     .journal_anywhere = true,
     .who = "add_time",
     .hint = ", e.g. 120000",
     .access = integer<&Event::added_ms>()},
    {.journal = "white_ms",
     .json = "white_ms",
     .type = FieldType::integer,
     .types = {T::set_clock},
     .access = integer<&Event::white_ms>()},
    {.journal = "black_ms",
     .json = "black_ms",
     .type = FieldType::integer,
     .types = {T::set_clock},
     .access = integer<&Event::black_ms>()},
    {.journal = "white_moves",
     .json = "white_moves",
     .type = FieldType::integer,
     .types = {T::set_clock},
     .min = 0,
     .max = 1'000'000,
     .access = integer<&Event::white_moves>()},
    {.journal = "black_moves",
     .json = "black_moves",
     .type = FieldType::integer,
     .types = {T::set_clock},
     .min = 0,
     .max = 1'000'000,
     .access = integer<&Event::black_moves>()},
    {.journal = "reason",
     .json = "reason",
     .type = FieldType::name,
     .types = {T::forfeit},
     .required = {T::forfeit},
     .emit = FieldEmit::always,
     .who = "forfeit",
     .choices = forfeit_reasons.c_str(),
     .access = name_of<&Event::reason>()},
    {.journal = "draw", .json = "draw", .types = {T::forfeit}, .access = flag<&Event::draw, false>()},
    {.journal = "count",
     .json = "count",
     .type = FieldType::integer,
     .types = {T::retract},
     .required = {T::retract},
     .emit = FieldEmit::always_json,
     .min = 1,
     .max = 1'000'000,
     .who = "retract",
     .hint = ": how many events to withdraw",
     .access = integer<&Event::count>()},
    {.journal = "force", .json = "force", .types = {T::retract}, .access = flag<&Event::force, false>()},
    {.journal = "text",
     .json = "text",
     .type = FieldType::text,
     .types = {T::add_time, T::forfeit, T::note, T::retract},
     .required = {T::note},
     .journal_anywhere = true,
     .min = 1,
     .who = "a note",
     .access = text<&Event::text>()},
};

}  // namespace

std::span<const EventField> event_fields() noexcept { return fields; }

bool emits(const EventField& f, const Event& e, bool json) {
    const bool carried = f.types.contains(e.type);
    if (json) return f.json && carried && (f.emit != FieldEmit::when_set || f.access.is_set(e));
    if (!f.journal || !(carried || f.journal_anywhere)) return false;
    return f.access.is_set(e) || (f.emit == FieldEmit::always && carried);
}

std::string missing_field_message(const EventField& f, std::string_view type_name) {
    const std::string key = std::string("\"") + f.json + "\"";
    if (f.required.is_all()) return "missing " + key + (f.hint ? f.hint : "");
    std::string out = f.who ? std::string(f.who) : "a " + std::string(type_name) + " event";
    out += " needs " + key;
    if (f.hint)
        out += f.hint;
    else if (f.choices)
        out += std::string(": ") + f.choices;
    return out;
}

}  // namespace arbiter
