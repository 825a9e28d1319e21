// position_requests.cpp — status, claim and dead requests given as JSON (position_requests.hpp).
#include "position_requests.hpp"

#include <set>
#include <string>

#include "arbiter/arbiter.hpp"
#include "dead_json.hpp"
#include "errors.hpp"
#include "game_input.hpp"
#include "live_game.hpp"
#include "request_fields.hpp"
#include "text.hpp"

namespace arbiter::face {

namespace {

// The legal moves of a position and whether it is check: {"fen","side_to_move","check","moves":[{"san","uci"}]}.
Json moves_answer(const Position& pos) {
    Json moves = Json::array();
    for (Move m : legal_moves(pos)) moves.push_back(Json{{"san", to_san(pos, m)}, {"uci", to_uci(pos, m)}});
    return Json{{"fen", to_fen(pos)},
                {"side_to_move", std::string(name(pos.turn()))},
                {"check", pos.in_check()},
                {"moves", moves}};
}

// A move played: {"fen" (after it),"san","uci"}.
Json play_answer(const Position& pos, const std::string& text) {
    const auto m = parse_move(pos, text);
    if (!m)
        throw InputError(move_error_code(m.error().kind), "move: '" + text + "': " + m.error().message, "move",
                         m.error().offset);
    return Json{{"fen", to_fen(pos.after(*m))}, {"san", to_san(pos, *m)}, {"uci", to_uci(pos, *m)}};
}

}  // namespace

Json dead_answer(const GameInput& in, const DeadRequest& request) {
    if (request.side != "white" && request.side != "black" && request.side != "both")
        throw InputError("bad_value", "--side: expected white, black or both, found '" + printable(request.side) + "'",
                         "side");
    if (request.limit < 1 || static_cast<std::uint64_t>(request.limit) > max_dead_limit)
        throw InputError(
            "bad_value",
            "--limit: " + std::to_string(request.limit) + " is out of range: 1 to " + std::to_string(max_dead_limit),
            "limit");
    HelpmateOptions options;
    options.node_limit = static_cast<std::uint64_t>(request.limit);
    if (request.quick) options.mode = HelpmateOptions::Mode::quick;
    if (!in.given()) throw InputError("bad_usage", "no position given: use --fen, --moves or --pgn");
    const bool game = !in.moves.empty() || !in.pgn.empty();
    const Position pos = game ? position_of(in) : composed_fen_or_throw(in.fen);
    const HelpmateAnalyzer analyzer(options);
    return dead_json(pos, analyse_dead(analyzer, pos, sides_of(request.side)), request.timing);
}

Json position_answer(std::string_view what, const Json& request) {
    if (what == "moves" || what == "play" || what == "perft") {
        const Fields f(request, what == "moves"  ? std::set<std::string>{"fen"}
                                : what == "play" ? std::set<std::string>{"fen", "move"}
                                                 : std::set<std::string>{"fen", "depth"});
        std::string fen, move;
        f.text("fen", fen);
        const Position pos = fen.empty() ? Position() : fen_or_throw(fen);
        if (what == "moves") return moves_answer(pos);
        if (what == "play") {
            if (!f.has("move")) throw FieldError("\"move\" is missing: the move to play, SAN or UCI", "move");
            f.text("move", move);
            return play_answer(pos, move);
        }
        int depth = 1;
        f.number("depth", depth, 0, max_perft_depth);
        return Json{{"fen", to_fen(pos)}, {"depth", depth}, {"nodes", perft(pos, depth)}};
    }
    std::set<std::string> keys{"fen", "moves", "pgn", "game", "ply"};
    if (what == "claim") keys.insert({"kind", "intended"});
    if (what == "dead")
        keys.insert({"side", "limit", "quick"});
    else
        keys = with_rule_keys(keys);
    const Fields f(request, keys);
    GameInput in = read_position(f);
    if (what == "dead") {
        DeadRequest dead;
        f.text("side", dead.side);
        f.number("limit", dead.limit, 1, static_cast<long long>(max_dead_limit));
        f.flag("quick", dead.quick);
        return dead_answer(in, dead);
    }
    read_rules(f, in);
    const auto record = in.build();
    if (what == "status") return to_json(draw_status(*record), *record);
    std::string kind, intended;
    f.text("kind", kind);
    f.text("intended", intended);
    return claim_answer(*record, kind, intended);
}

}  // namespace arbiter::face
