// position_requests.hpp — the answer to a status, claim or dead request given as JSON (the keys of
// docs/api.md: fen, moves, pgn, game, ply, the rule options; kind and intended; side, limit,
// quick), for every face that takes its requests as JSON: the service's POST /api/v1/status,
// /claim and /dead, and the JavaScript API. The answer is the JSON of `arbiter status|claim|dead
// --json`.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/arbiter.hpp"
#include "json/json.hpp"
#include "requests/dead_json.hpp"
#include "requests/game_input.hpp"
#include "requests/option_table.hpp"
#include "requests/request_fields.hpp"

namespace arbiter::face {

/// A dead request's own options (`arbiter dead --side --limit --quick --fast`, the keys side,
/// limit, quick and fast; timing: the analysis times too, as `dead --json` gives them with
/// --timing).
struct DeadRequest {
    std::string side = "both";
    std::int64_t limit = static_cast<std::int64_t>(HelpmateOptions{}.node_limit);  ///< checked: 1 to max_dead_limit
    bool quick = false;
    /// The sound fast check alone: cannot_checkmate only with a proof, unknown otherwise.
    bool fast = false;
    bool timing = false;

    /// The analyzer's options, or InputError: bad_value ("side", "limit" below 1 or over
    /// max_dead_limit), bad_usage ("fast" with "quick").
    [[nodiscard]] HelpmateOptions options() const;
};

/// A dead request's options read from JSON (the keys side, limit, quick and fast only), as the
/// registry reads them: FieldError for another key or a wrong type, bad_value out of range.
DeadRequest dead_request(const Json& request);

/// A dead request answered: the position asked about and each side's answer.
struct DeadResult {
    Position position;
    std::vector<DeadAnswer> answers;
};

/// The analysis of a dead request (dead_answer's, before its JSON; the CLI's words are written
/// from it).
DeadResult dead_result(const GameInput& in, const DeadRequest& request);

/// The answer to a dead request on the position `in` names (a FEN read as `dead --fen` reads it,
/// composed positions welcome; or moves or a PGN game): the JSON of `arbiter dead --json`. Errors:
/// InputError bad_value ("side", "limit" below 1 or over max_dead_limit), bad_usage (no position),
/// or the position's own (bad_fen, illegal_move, …). The JSON of dead_result.
Json dead_answer(const GameInput& in, const DeadRequest& request);

/// The legal moves of a position (`arbiter moves --json`, the "moves" operation): {"fen",
/// "side_to_move","check","checkmate","stalemate","insufficient_material" (each side, as
/// python-chess and chess.js count it),"count","moves":[{"san","uci"} and, with `verbose`,
/// chess.js's piece, captured, promotion, flags and the FEN after it]}.
Json moves_answer(const Position& pos, bool verbose = false);
/// The leaf nodes of the legal move tree to `depth` (`arbiter perft --json`, the "perft"
/// operation): {"fen","depth","nodes","divide": null, or with `divide` [{"uci","san","nodes"}]}.
Json perft_answer(const Position& pos, int depth, bool divide = false);
/// An operation on a position or a game, declared once (position_requests.cpp's registry): its
/// name (the service's POST /api/v1/NAME, request(NAME, …) in Python and JavaScript, the CLI's
/// command), what it answers, the keys its request takes and how it is answered.
struct PositionOperation {
    std::string_view name;
    std::string_view summary;
    std::set<std::string> keys;
    Json (*answer)(const Fields& request);
};
/// Every operation, in the order the docs list them.
const std::vector<PositionOperation>& position_operation_table();
/// Their names.
const std::vector<std::string_view>& position_operations();

/// The language and figurines a request asks for (its keys lang and figurines; English without
/// figurines when absent). Errors: InputError bad_value (a language with no catalog), bad_field.
TextStyle text_style(const Json& request);

/// `what`: one of position_operations(): "status", "claim" or "dead"; "moves" (fen,
/// verbose: the legal moves in SAN and UCI — with verbose, chess.js's piece, captured, promotion,
/// flags and the FEN after each —, whether it is check, and each side's insufficient_material as
/// python-chess and chess.js count it), "play" (fen, move: the FEN after it, its
/// SAN and UCI) and "perft" (fen, depth 0 to max_perft_depth, divide: perft_answer). A missing fen is the
/// start position; an empty one is bad_fen. Another `what` is InputError not_found, in every face. Errors: InputError
/// with the codes of errors.hpp's table, the same the CLI gives for the same input: bad_field (FieldError: a key
/// unknown or of the wrong type), bad_value (out of range), bad_usage, bad_fen, bad_move, illegal_move, ambiguous_move,
/// unknown_rule_set, bad_pgn, …. The texts of an operation that reads `lang` (claim) in that
/// language (localize).
Json position_answer(std::string_view what, const Json& request);

}  // namespace arbiter::face
