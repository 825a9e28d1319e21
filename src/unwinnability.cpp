// unwinnability.cpp — the sound material-only rules for "cannot checkmate".
#include "arbiter/unwinnability.hpp"

namespace arbiter {

const char* mate_ability_name(MateAbility a) noexcept {
    switch (a) {
        case MateAbility::can_checkmate: return "can_checkmate";
        case MateAbility::cannot_checkmate: return "cannot_checkmate";
        case MateAbility::unknown: return "unknown";
    }
    return "unknown";
}

MateVerdict MaterialUnwinnability::can_checkmate(const Position& pos, Color side) const {
    MateVerdict v;
    const Bitboard kings = pos.pieces(PieceType::king);
    const Bitboard mine = pos.pieces(side) & ~kings;
    const Bitboard theirs = pos.pieces(~side) & ~kings;
    const Bitboard bishops = pos.pieces(PieceType::bishop);
    if (!mine) {
        v.answer = MateAbility::cannot_checkmate;
        v.reason = "insufficient material: only a king";
        return v;
    }
    const Bitboard minors = pos.pieces(PieceType::knight) | bishops;
    if (!theirs && !mine.more_than_one() && (mine & minors)) {
        v.answer = MateAbility::cannot_checkmate;
        v.reason = "insufficient material: a single minor piece against a bare king";
        return v;
    }
    // Only bishops besides the kings, all on squares of one colour: no square next to either
    // king's square of the other colour can ever be attacked, so no mate is possible.
    const Bitboard all = mine | theirs;
    if ((all & ~bishops).empty() &&
        ((all & Bitboard::light_squares()) == all || (all & Bitboard::dark_squares()) == all)) {
        v.answer = MateAbility::cannot_checkmate;
        v.reason = "insufficient material: only bishops, all on squares of one colour";
        return v;
    }
    v.answer = MateAbility::unknown;
    v.reason = "material alone does not decide";
    return v;
}

const Unwinnability& default_unwinnability() noexcept {
    static const MaterialUnwinnability analyzer;
    return analyzer;
}

}  // namespace arbiter
