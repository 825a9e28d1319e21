// Exhaustive checks of the two material rules that are not folklore (docs/unwinnability.md,
// "Material"). A mate is a local configuration: the loser's king on k, the checker, the winner's
// king, and what stands next to k. Pieces further away can only add escapes for the loser (the
// winner has no slider that could pin, and no line a far piece could open), so enumerating
// every local configuration, with the loser to move, and finding no checkmate proves the rule.
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "arbiter/arbiter.hpp"

using namespace arbiter;

namespace {

int distance(Square a, Square b) {
    return std::max(std::abs(file_of(a) - file_of(b)), std::abs(rank_of(a) - rank_of(b)));
}

/// A legal-enough position with Black to move, or nothing (e.g. White's king in check).
std::optional<Position> black_to_move(const Setup& s) {
    Setup t = s;
    t.turn = Color::black;
    SetupRepairs repairs;
    repairs.allow_too_many_pieces = true;
    repairs.allow_impossible_check = true;
    auto pos = Position::from_setup(t, repairs);
    if (!pos) return std::nullopt;
    return *pos;
}

/// Squares for the winner's king: every square within two of k (the only ones from which it
/// covers a square next to k), and one square further away standing for all the others.
std::vector<Square> winner_king_squares(Square k) {
    std::vector<Square> out;
    std::optional<Square> far;
    for (int i = 0; i < 64; ++i) {
        const Square s = square_at(i);
        const int d = distance(s, k);
        if (d == 2) out.push_back(s);
        if (d >= 3 && !far) far = s;
    }
    if (far) out.push_back(*far);
    return out;
}

// White: king and one knight. Black: king and queens on any squares next to its king.
TEST(MaterialRules, LoneKnightNeverMatesAKingWithOnlyQueens) {
    std::uint64_t positions = 0;
    for (int ki = 0; ki < 64; ++ki) {
        const Square k = square_at(ki);
        for (Square n : knight_attacks(k)) {
            for (Square w : winner_king_squares(k)) {
                if (w == n) continue;
                const std::vector<Square> around = [&] {
                    std::vector<Square> v;
                    for (Square s : king_attacks(k)) v.push_back(s);
                    return v;
                }();
                for (unsigned mask = 0; mask < (1u << around.size()); ++mask) {
                    arbiter::Setup s;
                    s.board[index(k)] = make_piece(Color::black, PieceType::king);
                    s.board[index(n)] = make_piece(Color::white, PieceType::knight);
                    s.board[index(w)] = make_piece(Color::white, PieceType::king);
                    for (std::size_t j = 0; j < around.size(); ++j)
                        if ((mask >> j) & 1) s.board[index(around[j])] = make_piece(Color::black, PieceType::queen);
                    const auto pos = black_to_move(s);
                    if (!pos) continue;
                    ++positions;
                    ASSERT_FALSE(is_checkmate(*pos)) << to_fen(*pos);
                }
            }
        }
    }
    EXPECT_GT(positions, 100000u);
}

// White: king and a bishop checking along a diagonal (a longer diagonal only adds squares to
// interpose on, so distances 1 and 2 cover every case). Black: on each square orthogonally next
// to its king nothing, a rook or a queen; on the other diagonal neighbours, bishops of the
// king's colour, which close those squares and can neither take the checker nor interpose.
TEST(MaterialRules, OneColouredBishopsNeverMateWithoutKnightOrOtherColouredBlocker) {
    std::uint64_t positions = 0;
    const int rays[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    const PieceType ortho_choice[3] = {PieceType::none, PieceType::rook, PieceType::queen};
    for (int ki = 0; ki < 64; ++ki) {
        const Square k = square_at(ki);
        const int kf = file_of(k), kr = rank_of(k);
        std::vector<Square> ortho;
        for (auto [df, dr] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}})
            if (kf + df >= 0 && kf + df < 8 && kr + dr >= 0 && kr + dr < 8)
                ortho.push_back(make_square(kf + df, kr + dr));
        for (const auto& ray : rays) {
            for (int d = 1; d <= 2; ++d) {
                const int bf = kf + d * ray[0], br = kr + d * ray[1];
                if (bf < 0 || bf > 7 || br < 0 || br > 7) continue;
                const Square b = make_square(bf, br);
                const Square first = make_square(kf + ray[0], kr + ray[1]);
                for (Square w : winner_king_squares(k)) {
                    if (w == b) continue;  // the winner's king is never between (it stands two or more away)
                    int combos = 1;
                    for (std::size_t j = 0; j < ortho.size(); ++j) combos *= 3;
                    for (int c = 0; c < combos; ++c) {
                        arbiter::Setup s;
                        s.board[index(k)] = make_piece(Color::black, PieceType::king);
                        s.board[index(b)] = make_piece(Color::white, PieceType::bishop);
                        s.board[index(w)] = make_piece(Color::white, PieceType::king);
                        for (Square diag : king_attacks(k)) {
                            if (file_of(diag) == kf || rank_of(diag) == kr || diag == first || diag == w) continue;
                            s.board[index(diag)] = make_piece(Color::black, PieceType::bishop);
                        }
                        int code = c;
                        for (Square o : ortho) {
                            const PieceType t = ortho_choice[code % 3];
                            code /= 3;
                            if (t != PieceType::none && o != w) s.board[index(o)] = make_piece(Color::black, t);
                        }
                        const auto pos = black_to_move(s);
                        if (!pos) continue;
                        ++positions;
                        ASSERT_FALSE(is_checkmate(*pos)) << to_fen(*pos);
                    }
                }
            }
        }
    }
    EXPECT_GT(positions, 50000u);
}

}  // namespace
