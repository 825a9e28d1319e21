// position_requests.hpp — the answer to a status, claim or dead request given as JSON (the keys of
// docs/api.md: fen, moves, pgn, game, ply, the rule options; kind and intended; side, limit,
// quick), for every face that takes its requests as JSON: the service's POST /api/v1/status,
// /claim and /dead, and the JavaScript API. The answer is the JSON of `arbiter status|claim|dead
// --json`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "arbiter/arbiter.hpp"
#include "game_input.hpp"
#include "rules_json.hpp"

namespace arbiter::face {

/// The deepest perft any face counts (the CLI, Python, JavaScript): no position has more than
/// 218 legal moves and 218^8 < 2^64 < 218^9, so a count to depth 8 always fits its 64 bits.
inline constexpr int max_perft_depth = 8;

/// A dead request's own options (`arbiter dead --side --limit --quick`, the keys side, limit and
/// quick; timing: the analysis times too, as `dead --json` gives them with --timing).
struct DeadRequest {
    std::string side = "both";
    std::uint64_t limit = HelpmateOptions{}.node_limit;
    bool quick = false;
    bool timing = false;
};

/// The answer to a dead request on the position `in` names (a FEN read as `dead --fen` reads it,
/// composed positions welcome; or moves or a PGN game): the JSON of `arbiter dead --json`. Errors:
/// FieldError "side" or "limit" (below 1), InputError bad_position.
Json dead_answer(const GameInput& in, const DeadRequest& request);

/// `what`: "status", "claim" or "dead"; and for the JavaScript API's Position: "moves" (fen: the
/// legal moves in SAN and UCI and whether it is check), "play" (fen, move: the FEN after it, its
/// SAN and UCI) and "perft" (fen, depth 0 to max_perft_depth: the leaf count). A missing fen is the start
/// position. Errors: InputError with the code bad_field (FieldError: a key unknown, of the wrong
/// type or out of range), bad_position (no position, or one that does not read), bad_move (an
/// intended move that is not a move), illegal_move or ambiguous_move (a move to play).
Json position_answer(std::string_view what, const Json& request);

}  // namespace arbiter::face
