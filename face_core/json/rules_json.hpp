// rules_json.hpp — JSON forms (PRODUCT.md keys) of the rules layer's results: draw status,
// claim verdicts, terminations (the JSON type itself, dump and error_json: json.hpp).
#pragma once

#include "arbiter/arbiter.hpp"
#include "json/json.hpp"

namespace arbiter::face {

Json to_json(const Termination& t, const GameRecord& record);
Json to_json(const DrawStatus& s, const GameRecord& record);
Json to_json(const ClaimVerdict& v, const GameRecord& record);
/// The penalty of an incorrect claim as the rule set fixes it (FIDE 9.5.3 and its versions, US
/// Chess 14C6/14F2): {"side" (the claimant),"added_to","added_ms" (under the record's time
/// category),"deducted_ms","article"}; null for a correct claim. `deducted_ms` is null where the
/// time taken from the claimant depends on the claimant's clock (FIDE 2005 9.5b), which a claim
/// alone does not show; a session's ruling gives the amount.
Json incorrect_claim_penalty(const ClaimVerdict& v, const GameRecord& record);
const char* yes_no_unknown(MateAbility a) noexcept;
/// The rule sets a face offers, from the library's name table (never copied into a page):
/// {"rule_sets":["fide-2023",…],"default":"fide-2023"}. The service's GET /api/v1/rule_sets and
/// the JavaScript package's `ruleSets`.
Json rule_sets_json();

}  // namespace arbiter::face
