// unwinnability.cpp — the sound material-only rules for "cannot checkmate", the fast check
// (its proofs in helpmate/fast.cpp) and the default analyzer (HelpmateAnalyzer).
#include "arbiter/unwinnability.hpp"

#include "arbiter/helpmate.hpp"
#include "helpmate/impl.hpp"

namespace arbiter {

namespace {
// Why `side` cannot checkmate by material alone, or nullptr when material does not decide.
const char* material_reason(const Position& pos, Color side) noexcept {
    const Bitboard kings = pos.pieces(PieceType::king);
    const Bitboard mine = pos.pieces(side) & ~kings;
    const Bitboard theirs = pos.pieces(~side) & ~kings;
    const Bitboard bishops = pos.pieces(PieceType::bishop);
    if (!mine) return "insufficient material: only a king";
    const Bitboard minors = pos.pieces(PieceType::knight) | bishops;
    if (!theirs && !mine.more_than_one() && (mine & minors))
        return "insufficient material: a single minor piece against a bare king";
    // Only bishops besides the kings, all on squares of one colour: no square next to either
    // king's square of the other colour can ever be attacked, so no mate is possible.
    const Bitboard all = mine | theirs;
    if ((all & ~bishops).empty() &&
        ((all & Bitboard::light_squares()) == all || (all & Bitboard::dark_squares()) == all))
        return "insufficient material: only bishops, all on squares of one colour";
    return nullptr;
}
}  // namespace

MateVerdict MaterialUnwinnability::can_checkmate(const Position& pos, Color side) const {
    MateVerdict v;
    const char* why = material_reason(pos, side);
    v.answer = why ? MateAbility::cannot_checkmate : MateAbility::unknown;
    v.proof = why ? MateProof::material : MateProof::none;
    v.reason = why ? why : "material alone does not decide";
    return v;
}

MateAbility MaterialUnwinnability::ability(const Position& pos, Color side) const {
    return material_reason(pos, side) ? MateAbility::cannot_checkmate : MateAbility::unknown;
}

MateVerdict FastUnwinnability::can_checkmate(const Position& pos, Color side) const {
    const detail::FastProof p = detail::fast_unwinnable(pos, side);
    MateVerdict v;
    v.answer = p.proof == MateProof::none ? MateAbility::unknown : MateAbility::cannot_checkmate;
    v.proof = p.proof;
    v.reason = p.reason;
    v.nodes = p.nodes;
    return v;
}

MateAbility FastUnwinnability::ability(const Position& pos, Color side) const {
    return detail::fast_unwinnable(pos, side).proof == MateProof::none ? MateAbility::unknown
                                                                       : MateAbility::cannot_checkmate;
}

const Unwinnability& default_unwinnability() noexcept {
    static const HelpmateAnalyzer analyzer;
    return analyzer;
}

}  // namespace arbiter
