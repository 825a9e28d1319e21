// claim_answer.cpp — the claim operation (claim_answer.hpp).
#include "requests/claim_answer.hpp"

#include "json/rules_json.hpp"
#include "text.hpp"

namespace arbiter::face {

ClaimKind claim_kind_or_throw(const std::string& kind) {
    const auto k = parse_claim_kind(kind);
    if (!k)
        throw InputError(Code::bad_value, "claim: expected threefold or fifty, found '" + printable(kind) + "'",
                         "kind");
    return *k;
}

ClaimVerdict claim_verdict(const GameRecord& record, const std::string& kind, const std::string& intended) {
    const ClaimKind k = claim_kind_or_throw(kind);
    if (intended.empty()) return evaluate_claim(record, k);
    const auto m = parse_move(record.current(), intended);
    if (!m && m.error().kind == MoveError::Kind::syntax)
        throw InputError(Code::bad_move,
                         "--intended: '" + printable(intended) + "' is not a move (byte " +
                             std::to_string(m.error().offset) + "): " + m.error().message,
                         "intended", m.error().offset);
    return evaluate_claim(record, k, std::string_view(intended));
}

Json claim_answer(const GameRecord& record, const std::string& kind, const std::string& intended) {
    return to_json(claim_verdict(record, kind, intended), record);
}

}  // namespace arbiter::face
