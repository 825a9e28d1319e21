// claim_answer.hpp — the claim operation every face answers (`arbiter claim`, POST /api/v1/claim,
// request("claim") in Python and JavaScript, a live game's claim): the kind read, the written move
// read, the ruling (the library's evaluate_claim) and its JSON (docs/json.md "claim").
#pragma once

#include <string>

#include "arbiter/arbiter.hpp"
#include "json/json.hpp"

namespace arbiter::face {

/// The kind of claim `kind` names (threefold or fifty), or InputError bad_value ("kind").
/// The ruling on a claim of `kind` (threefold or fifty) on the current position of `record`, with
/// the written move `intended` (SAN or UCI; empty: none), as every face decides it. Errors:
/// InputError bad_value ("kind") for another kind, bad_move ("intended") for text that is no move.
ClaimKind claim_kind_or_throw(const std::string& kind);
ClaimVerdict claim_verdict(const GameRecord& record, const std::string& kind, const std::string& intended);
/// The same as JSON: `arbiter claim --json`.
Json claim_answer(const GameRecord& record, const std::string& kind, const std::string& intended);

}  // namespace arbiter::face
