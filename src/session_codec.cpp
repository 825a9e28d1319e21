// session_codec.cpp — events and session configurations as one line of text, the form the
// journal stores: a word, then key=value pairs separated by spaces, values percent-encoded
// where they hold a space, '=', '%' or a control character. Only non-default fields are
// written, and decoding refuses unknown keys, so a journal never silently loses a field. An
// event's fields are those of the table in event_fields.hpp.
#include <algorithm>
#include <charconv>
#include <utility>
#include <vector>

#include "arbiter/event_fields.hpp"
#include "arbiter/session.hpp"

namespace arbiter {

namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

bool needs_escape(unsigned char c) { return c <= ' ' || c == '%' || c == '=' || c == 0x7f; }

std::string escape(std::string_view v) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : v) {
        if (needs_escape(c)) {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

std::optional<std::string> unescape(std::string_view v) {
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (v[i] != '%') {
            out += v[i];
            continue;
        }
        if (i + 2 >= v.size()) return std::nullopt;
        unsigned x = 0;
        const auto r = std::from_chars(v.data() + i + 1, v.data() + i + 3, x, 16);
        if (r.ec != std::errc() || r.ptr != v.data() + i + 3) return std::nullopt;
        out += static_cast<char>(x);
        i += 2;
    }
    return out;
}

std::string join(std::string_view head, const Pairs& pairs) {
    std::string out(head);
    for (const auto& [k, v] : pairs) out += " " + k + "=" + escape(v);
    return out;
}

// Splits "head k=v k=v" into the head and the decoded pairs.
Expected<std::pair<std::string, Pairs>, std::string> split(std::string_view text) {
    std::pair<std::string, Pairs> out;
    std::size_t i = 0;
    bool first = true;
    while (i < text.size()) {
        std::size_t j = text.find(' ', i);
        if (j == std::string_view::npos) j = text.size();
        const std::string_view tok = text.substr(i, j - i);
        i = j + 1;
        if (tok.empty()) return Unexpected(std::string("two spaces in a row"));
        if (first) {
            out.first = std::string(tok);
            first = false;
            continue;
        }
        const auto eq = tok.find('=');
        if (eq == std::string_view::npos || eq == 0) return Unexpected("'" + std::string(tok) + "' is not key=value");
        auto value = unescape(tok.substr(eq + 1));
        if (!value) return Unexpected("bad escape in '" + std::string(tok) + "'");
        out.second.emplace_back(std::string(tok.substr(0, eq)), std::move(*value));
    }
    if (first) return Unexpected(std::string("empty text"));
    return out;
}

std::optional<std::int64_t> to_int(std::string_view s) {
    std::int64_t v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
    return v;
}

std::optional<bool> to_bool(std::string_view s) {
    if (s == "1") return true;
    if (s == "0") return false;
    return std::nullopt;
}

using Code = EventError::Code;

Unexpected<EventError> bad(const std::string& key, const std::string& value, const std::string& why = "") {
    return Unexpected(EventError{Code::bad_value, "bad value '" + value + "' for " + key + why});
}

}  // namespace

std::string encode(const Event& e) {
    Pairs p;
    p.reserve(16);  // also keeps GCC 12's -Warray-bounds false positive on the first emplace_back away
    for (const EventField& f : event_fields())
        if (emits(f, e, false)) p.emplace_back(f.journal, f.access.get(e));
    return join(event_type_name(e.type), p);
}

Expected<Event, EventError> decode_event(std::string_view text) {
    auto parts = split(text);
    if (!parts) return Unexpected(EventError{Code::malformed, parts.error()});
    Event e;
    const auto type = parse_event_type(parts->first);
    if (!type) return Unexpected(EventError{Code::unknown_event_type, "unknown event type '" + parts->first + "'"});
    e.type = *type;
    const auto fields = event_fields();
    std::vector<bool> seen(fields.size());
    for (const auto& [k, v] : parts->second) {
        const auto f = std::find_if(fields.begin(), fields.end(),
                                    [&k = k](const EventField& x) { return x.journal && k == x.journal; });
        if (f == fields.end()) return Unexpected(EventError{Code::unknown_field, "unknown event field '" + k + "'"});
        // A field of some types only: encode writes it for those alone, so that any other type
        // carrying one would not read back as it was written.
        if (!f->journal_anywhere && !f->types.contains(e.type)) {
            std::string owners;
            for (EventType t : enum_values<EventType>())
                if (f->types.contains(t)) owners += (owners.empty() ? "" : " or ") + std::string(event_type_name(t));
            return Unexpected(EventError{Code::unknown_field, "field '" + k + "' does not belong to a " +
                                                                  event_type_name(e.type) + " event (only to " +
                                                                  owners + ")"});
        }
        if (f->type == FieldType::integer) {
            const auto x = to_int(v);
            if (!x || *x < f->min || *x > f->max) return bad(k, v);
        }
        if (!f->access.set(e, v)) return bad(k, v);
        seen[f - fields.begin()] = true;
    }
    for (std::size_t i = 0; i < fields.size(); ++i)
        if (fields[i].required.is_all() && !seen[i])
            return Unexpected(
                EventError{Code::missing_field, std::string("event without '") + fields[i].journal + "'"});
    return e;
}

std::string encode(const SessionConfig& c) {
    Pairs p;
    const RuleOptions& o = c.options;
    p.emplace_back("rules", rule_set(c.rules).name);
    p.emplace_back("category", time_category_name(o.time_category));
    if (c.time_category_given) p.emplace_back("category_given", "1");
    if (c.time_control) p.emplace_back("tc", to_string(*c.time_control));
    if (!c.start_fen.empty()) p.emplace_back("fen", c.start_fen);
    if (c.quickplay_finish) p.emplace_back("quickplay", "1");
    if (!o.initial_position_counts) p.emplace_back("initial_counts", "0");
    if (o.counters_from_setup != RuleOptions::CountersFromSetup::trust_fen)
        p.emplace_back("counters", enum_name(o.counters_from_setup));
    if (o.no_offers_before_move) p.emplace_back("no_offers_before", std::to_string(o.no_offers_before_move));
    if (o.intended_mate_incorrect) p.emplace_back("intended_mate_correct", "0");  // the journal's own key
    if (!o.online_threefold_automatic) p.emplace_back("online_threefold_auto", "0");
    if (!o.online_fifty_automatic) p.emplace_back("online_fifty_auto", "0");
    if (o.blitz_fully_supervised) p.emplace_back("blitz_supervised", "1");
    for (const auto& x : o.fifty_extensions) p.emplace_back("fifty_ext", x.signature + "=" + std::to_string(x.moves));
    for (const auto& [key, value] : {std::pair{"white", &c.white},
                                     {"black", &c.black},
                                     {"event", &c.event},
                                     {"site", &c.site},
                                     {"date", &c.date},
                                     {"round", &c.round}})
        p.emplace_back(key, *value);
    // Written only when given, so that a configuration without them encodes as before.
    if (!c.section.empty()) p.emplace_back("section", c.section);
    if (!c.board.empty()) p.emplace_back("board", c.board);
    return join("session", p);
}

Expected<SessionConfig, EventError> decode_config(std::string_view text) {
    auto parts = split(text);
    if (!parts) return Unexpected(EventError{Code::malformed, parts.error()});
    if (parts->first != "session")
        return Unexpected(EventError{Code::malformed, "not a session configuration ('" + parts->first + "')"});
    SessionConfig c;
    RuleOptions& o = c.options;
    for (const auto& [k, v] : parts->second) {
        if (k == "rules") {
            auto r = parse_rule_set(v);
            if (!r) return bad(k, v);
            c.rules = *r;
        } else if (k == "category") {
            auto t = parse_time_category(v);
            if (!t) return bad(k, v);
            o.time_category = *t;
        } else if (k == "tc") {
            auto tc = parse_time_control(v);
            if (!tc) return bad(k, v, ": " + tc.error().message);
            c.time_control = *tc;
        } else if (k == "fen") {
            c.start_fen = v;
        } else if (k == "counters") {
            const auto counters = parse_enum<RuleOptions::CountersFromSetup>(v);
            if (!counters) return bad(k, v);
            o.counters_from_setup = *counters;
        } else if (k == "no_offers_before") {
            auto n = to_int(v);
            if (!n || *n < 0 || *n > max_no_offers_before_move) return bad(k, v);
            o.no_offers_before_move = static_cast<int>(*n);
        } else if (k == "fifty_ext") {
            auto x = parse_fifty_extension(v);
            if (!x) return bad(k, v);
            o.fifty_extensions.push_back(*x);
        } else if (k == "intended_mate_correct") {  // the journal keeps the option's old meaning
            auto b = to_bool(v);
            if (!b) return bad(k, v);
            o.intended_mate_incorrect = !*b;
        } else if (k == "category_given" || k == "quickplay" || k == "initial_counts" || k == "online_threefold_auto" ||
                   k == "online_fifty_auto" || k == "blitz_supervised") {
            auto b = to_bool(v);
            if (!b) return bad(k, v);
            bool& target = k == "category_given"          ? c.time_category_given
                           : k == "quickplay"             ? c.quickplay_finish
                           : k == "initial_counts"        ? o.initial_position_counts
                           : k == "online_threefold_auto" ? o.online_threefold_automatic
                           : k == "online_fifty_auto"     ? o.online_fifty_automatic
                                                          : o.blitz_fully_supervised;
            target = *b;
        } else if (k == "white") {
            c.white = v;
        } else if (k == "black") {
            c.black = v;
        } else if (k == "event") {
            c.event = v;
        } else if (k == "site") {
            c.site = v;
        } else if (k == "date") {
            c.date = v;
        } else if (k == "round") {
            c.round = v;
        } else if (k == "section") {
            c.section = v;
        } else if (k == "board") {
            c.board = v;
        } else {
            return Unexpected(EventError{Code::unknown_field, "unknown configuration field '" + k + "'"});
        }
    }
    return c;
}

bool operator==(const SessionConfig& a, const SessionConfig& b) { return encode(a) == encode(b); }

}  // namespace arbiter
