// session_codec.cpp — events and session configurations as one line of text, the form the
// journal stores: a word, then key=value pairs separated by spaces, values percent-encoded
// where they hold a space, '=', '%' or a control character. Only non-default fields are
// written, and decoding refuses unknown keys, so a journal never silently loses a field.
#include <charconv>
#include <utility>
#include <vector>

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

std::optional<Color> to_color(std::string_view s) { return parse_enum<Color>(s); }

using Code = EventError::Code;

Unexpected<EventError> bad(const std::string& key, const std::string& value, const std::string& why = "") {
    return Unexpected(EventError{Code::bad_value, "bad value '" + value + "' for " + key + why});
}

}  // namespace

std::string encode(const Event& e) {
    Pairs p;
    p.reserve(16);  // also keeps GCC 12's -Warray-bounds false positive on the first emplace_back away
    p.emplace_back("at", std::to_string(e.at_ms));
    if (e.side) p.emplace_back("side", std::string(name(*e.side)));
    if (!e.move.empty()) p.emplace_back("move", e.move);
    if (!e.press) p.emplace_back("press", "0");
    if (e.offer) p.emplace_back("offer", "1");
    if (is_ok(e.square)) p.emplace_back("square", to_string(e.square));
    if (e.type == EventType::claim) p.emplace_back("claim", claim_kind_name(e.claim));
    if (e.both) p.emplace_back("both", "1");
    if (e.consent) p.emplace_back("consent", "1");
    if (e.type == EventType::declare) p.emplace_back("declared", termination_name(e.declared));
    if (e.type == EventType::quickplay_ruling) p.emplace_back("decision", quickplay_decision_name(e.decision));
    if (e.added_ms) p.emplace_back("added", std::to_string(*e.added_ms));
    if (e.white_ms) p.emplace_back("white_ms", std::to_string(*e.white_ms));
    if (e.black_ms) p.emplace_back("black_ms", std::to_string(*e.black_ms));
    if (e.white_moves) p.emplace_back("white_moves", std::to_string(*e.white_moves));
    if (e.black_moves) p.emplace_back("black_moves", std::to_string(*e.black_moves));
    if (e.type == EventType::forfeit) p.emplace_back("reason", enum_name(e.reason));
    if (e.draw) p.emplace_back("draw", "1");
    if (e.count) p.emplace_back("count", std::to_string(e.count));
    if (e.force) p.emplace_back("force", "1");
    if (!e.text.empty()) p.emplace_back("text", e.text);
    return join(event_type_name(e.type), p);
}

Expected<Event, EventError> decode_event(std::string_view text) {
    auto parts = split(text);
    if (!parts) return Unexpected(EventError{Code::malformed, parts.error()});
    Event e;
    const auto type = parse_event_type(parts->first);
    if (!type) return Unexpected(EventError{Code::unknown_event_type, "unknown event type '" + parts->first + "'"});
    e.type = *type;
    bool have_at = false;
    // The fields that belong to one type only (encode writes them for that type alone, so that
    // any other type carrying one would not read back as it was written).
    auto foreign = [&](std::string_view key, EventType owner) -> std::optional<EventError> {
        if (e.type == owner) return std::nullopt;
        return EventError{Code::unknown_field, "field '" + std::string(key) + "' does not belong to a " +
                                                   event_type_name(e.type) + " event (only to " +
                                                   event_type_name(owner) + ")"};
    };
    for (const auto& [k, v] : parts->second) {
        if (k == "claim" || k == "declared" || k == "decision" || k == "reason" || k == "draw" || k == "count" ||
            k == "force" || k.starts_with("white_") || k.starts_with("black_")) {
            const EventType owner = k == "claim"                   ? EventType::claim
                                    : k == "declared"              ? EventType::declare
                                    : k == "decision"              ? EventType::quickplay_ruling
                                    : k == "reason" || k == "draw" ? EventType::forfeit
                                    : k == "count" || k == "force" ? EventType::retract
                                                                   : EventType::set_clock;
            if (auto err = foreign(k, owner)) return Unexpected(*err);
        }
        if (k == "at") {
            auto x = to_int(v);
            if (!x) return bad(k, v);
            e.at_ms = *x;
            have_at = true;
        } else if (k == "side") {
            auto c = to_color(v);
            if (!c) return bad(k, v);
            e.side = *c;
        } else if (k == "move") {
            e.move = v;
        } else if (k == "press" || k == "offer" || k == "both" || k == "consent") {
            auto b = to_bool(v);
            if (!b) return bad(k, v);
            (k == "press" ? e.press : k == "offer" ? e.offer : k == "both" ? e.both : e.consent) = *b;
        } else if (k == "square") {
            auto s = parse_square(v);
            if (!s) return bad(k, v);
            e.square = *s;
        } else if (k == "claim") {
            auto c = parse_claim_kind(v);
            if (!c) return bad(k, v);
            e.claim = *c;
        } else if (k == "declared") {
            auto t = parse_enum<TerminationKind>(v);
            if (!t) return bad(k, v);
            e.declared = *t;
        } else if (k == "decision") {
            auto d = parse_quickplay_decision(v);
            if (!d) return bad(k, v);
            e.decision = *d;
        } else if (k == "added") {
            auto x = to_int(v);
            if (!x) return bad(k, v);
            e.added_ms = *x;
        } else if (k == "white_ms" || k == "black_ms") {
            auto x = to_int(v);
            if (!x) return bad(k, v);
            (k == "white_ms" ? e.white_ms : e.black_ms) = *x;
        } else if (k == "white_moves" || k == "black_moves") {
            auto x = to_int(v);
            if (!x || *x < 0 || *x > 1'000'000) return bad(k, v);
            (k == "white_moves" ? e.white_moves : e.black_moves) = static_cast<int>(*x);
        } else if (k == "reason") {
            auto r = parse_enum<ForfeitReason>(v);
            if (!r) return bad(k, v);
            e.reason = *r;
        } else if (k == "count") {
            auto x = to_int(v);
            if (!x || *x < 1 || *x > 1'000'000) return bad(k, v);
            e.count = static_cast<std::uint32_t>(*x);
        } else if (k == "draw" || k == "force") {
            auto b = to_bool(v);
            if (!b) return bad(k, v);
            (k == "draw" ? e.draw : e.force) = *b;
        } else if (k == "text") {
            e.text = v;
        } else {
            return Unexpected(EventError{Code::unknown_field, "unknown event field '" + k + "'"});
        }
    }
    if (!have_at) return Unexpected(EventError{Code::missing_field, "event without a time (at)"});
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
    if (!o.intended_mate_claim_correct) p.emplace_back("intended_mate_correct", "0");
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
            if (!n || *n < 0 || *n > 10000) return bad(k, v);
            o.no_offers_before_move = static_cast<int>(*n);
        } else if (k == "fifty_ext") {
            auto x = parse_fifty_extension(v);
            if (!x) return bad(k, v);
            o.fifty_extensions.push_back(*x);
        } else if (k == "category_given" || k == "quickplay" || k == "initial_counts" || k == "intended_mate_correct" ||
                   k == "online_threefold_auto" || k == "online_fifty_auto" || k == "blitz_supervised") {
            auto b = to_bool(v);
            if (!b) return bad(k, v);
            bool& target = k == "category_given"          ? c.time_category_given
                           : k == "quickplay"             ? c.quickplay_finish
                           : k == "initial_counts"        ? o.initial_position_counts
                           : k == "intended_mate_correct" ? o.intended_mate_claim_correct
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
        } else {
            return Unexpected(EventError{Code::unknown_field, "unknown configuration field '" + k + "'"});
        }
    }
    return c;
}

bool operator==(const SessionConfig& a, const SessionConfig& b) { return encode(a) == encode(b); }

}  // namespace arbiter
