// position_routes.cpp — POST /api/v1/status, /claim and /dead: a position or a game in, the
// JSON of `arbiter status|claim|dead --json` out (docs/api.md).
#include <set>

#include "api_request.hpp"
#include "arbiter/arbiter.hpp"
#include "dead_json.hpp"
#include "errors.hpp"
#include "game_input.hpp"
#include "service.hpp"

namespace arbiter::serve {

Response Service::position_route(const std::string& what, const Request& req) {
    const Json j = parse_object(req.body);
    std::set<std::string> keys{"fen", "moves", "pgn", "game", "ply"};
    if (what == "claim") keys.insert({"kind", "intended"});
    if (what == "dead")
        keys.insert({"side", "limit", "quick"});
    else
        keys = with_rule_keys(keys);
    const Fields f(j, keys);
    face::GameInput in = read_position(f);
    if (what != "dead") read_rules(f, in);
    try {
        if (what == "dead") {
            std::string side = "both";
            f.text("side", side);
            if (side != "white" && side != "black" && side != "both")
                throw ApiError{400, "bad_field", "\"side\" must be white, black or both"};
            HelpmateOptions options;
            f.number("limit", options.node_limit, 1, static_cast<long long>(HelpmateOptions{}.node_limit));
            bool quick = false;
            f.flag("quick", quick);
            if (quick) options.mode = HelpmateOptions::Mode::quick;
            if (!in.given())
                throw ApiError{400, "bad_position", "no position given: give \"fen\", \"moves\" or \"pgn\""};
            const bool game = !in.moves.empty() || !in.pgn.empty();
            const Position pos = game ? face::position_of(in) : face::composed_fen_or_throw(in.fen);
            const HelpmateAnalyzer analyzer(options);
            return json_response(200,
                                 face::dead_json(pos, face::analyse_dead(analyzer, pos, face::sides_of(side)), false));
        }
        const auto record = in.build();
        if (what == "status") return json_response(200, face::to_json(draw_status(*record), *record));
        std::string kind, intended;
        f.text("kind", kind);
        f.text("intended", intended);
        const auto k = parse_claim_kind(kind);
        if (!k) throw ApiError{400, "bad_field", "\"kind\" must be threefold or fifty, not '" + kind + "'"};
        if (intended.empty()) return json_response(200, face::to_json(evaluate_claim(*record, *k), *record));
        const auto m = parse_move(record->current(), intended);
        if (!m && m.error().kind == MoveError::Kind::syntax)
            throw ApiError{400, "bad_move",
                           "intended: '" + intended + "' is not a move (byte " + std::to_string(m.error().offset) +
                               "): " + m.error().message};
        return json_response(200, face::to_json(evaluate_claim(*record, *k, std::string_view(intended)), *record));
    } catch (const FieldError&) {
        throw;  // 400 bad_field, as for the keys read before the position
    } catch (const face::InputError& e) {
        throw ApiError{400, "bad_position", e.message()};
    }
}

}  // namespace arbiter::serve
