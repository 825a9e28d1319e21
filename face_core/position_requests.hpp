// position_requests.hpp — the answer to a status, claim or dead request given as JSON (the keys of
// docs/api.md: fen, moves, pgn, game, ply, the rule options; kind and intended; side, limit,
// quick), for every face that takes its requests as JSON: the service's POST /api/v1/status,
// /claim and /dead, and the JavaScript API. The answer is the JSON of `arbiter status|claim|dead
// --json`.
#pragma once

#include <string_view>

#include "rules_json.hpp"

namespace arbiter::face {

/// `what`: "status", "claim" or "dead"; and for the JavaScript API's Position: "moves" (fen: the
/// legal moves in SAN and UCI and whether it is check), "play" (fen, move: the FEN after it, its
/// SAN and UCI) and "perft" (fen, depth 0 to 8: the leaf count). A missing fen is the start
/// position. Errors: InputError with the code bad_field (FieldError: a key unknown, of the wrong
/// type or out of range), bad_position (no position, or one that does not read), bad_move (an
/// intended move that is not a move), illegal_move or ambiguous_move (a move to play).
Json position_answer(std::string_view what, const Json& request);

}  // namespace arbiter::face
