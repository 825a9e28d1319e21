// position_requests.cpp — status, claim and dead requests given as JSON (position_requests.hpp).
#include "position_requests.hpp"

#include <set>
#include <string>

#include "arbiter/arbiter.hpp"
#include "dead_json.hpp"
#include "errors.hpp"
#include "game_input.hpp"
#include "request_fields.hpp"

namespace arbiter::face {

namespace {

// Runs `read` (which reads the position) and gives its errors the code bad_position.
template <class F>
auto reading_position(F read) -> decltype(read()) {
    try {
        return read();
    } catch (const FieldError&) {
        throw;
    } catch (const InputError& e) {
        throw InputError("bad_position", e.message());
    }
}

Json dead_answer(const Fields& f, const GameInput& in) {
    std::string side = "both";
    f.text("side", side);
    if (side != "white" && side != "black" && side != "both")
        throw FieldError("\"side\" must be white, black or both", "side");
    HelpmateOptions options;
    f.number("limit", options.node_limit, 1, static_cast<long long>(HelpmateOptions{}.node_limit));
    bool quick = false;
    f.flag("quick", quick);
    if (quick) options.mode = HelpmateOptions::Mode::quick;
    if (!in.given()) throw InputError("bad_position", "no position given: give \"fen\", \"moves\" or \"pgn\"");
    const bool game = !in.moves.empty() || !in.pgn.empty();
    const Position pos = reading_position([&] { return game ? position_of(in) : composed_fen_or_throw(in.fen); });
    const HelpmateAnalyzer analyzer(options);
    return dead_json(pos, analyse_dead(analyzer, pos, sides_of(side)), false);
}

}  // namespace

Json position_answer(std::string_view what, const Json& request) {
    std::set<std::string> keys{"fen", "moves", "pgn", "game", "ply"};
    if (what == "claim") keys.insert({"kind", "intended"});
    if (what == "dead")
        keys.insert({"side", "limit", "quick"});
    else
        keys = with_rule_keys(keys);
    const Fields f(request, keys);
    GameInput in = read_position(f);
    if (what == "dead") return dead_answer(f, in);
    read_rules(f, in);
    const auto record = reading_position([&] { return in.build(); });
    if (what == "status") return to_json(draw_status(*record), *record);
    std::string kind, intended;
    f.text("kind", kind);
    f.text("intended", intended);
    const auto k = parse_claim_kind(kind);
    if (!k) throw FieldError("\"kind\" must be threefold or fifty, not '" + kind + "'", "kind");
    if (intended.empty()) return to_json(evaluate_claim(*record, *k), *record);
    const auto m = parse_move(record->current(), intended);
    if (!m && m.error().kind == MoveError::Kind::syntax)
        throw InputError("bad_move",
                         "intended: '" + intended + "' is not a move (byte " + std::to_string(m.error().offset) +
                             "): " + m.error().message,
                         "intended", m.error().offset);
    return to_json(evaluate_claim(*record, *k, std::string_view(intended)), *record);
}

}  // namespace arbiter::face
