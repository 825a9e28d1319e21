// toolkit.cpp — what the searches of the analyzer share (guided.cpp, rewarded.cpp,
// exhaustive.cpp and the plans of bishops.cpp and release.cpp): king walks, knight distances,
// the checking mate in one, the pawns to clear, the forced-line check and the transposition
// table of the depth-first searches.
#include <algorithm>
#include <array>
#include <memory>

#include "arbiter/attacks.hpp"
#include "arbiter/movegen.hpp"
#include "impl.hpp"

namespace arbiter::detail {
namespace {

struct KnightDistance {
    std::array<std::array<std::uint8_t, 64>, 64> d{};
    KnightDistance() {
        for (int from = 0; from < 64; ++from) {
            auto& row = d[from];
            row.fill(255);
            row[from] = 0;
            Bitboard frontier = Bitboard(square_at(from)), seen = frontier;
            for (std::uint8_t dist = 1; frontier; ++dist) {
                Bitboard next;
                for (Square s : frontier) next |= knight_attacks(s);
                next &= ~seen;
                for (Square s : next) row[index(s)] = dist;
                seen |= next;
                frontier = next;
            }
        }
    }
};
const KnightDistance knight_distance;

}  // namespace

std::array<std::uint8_t, 64> walk_to(Bitboard targets, Bitboard walls) noexcept {
    std::array<std::uint8_t, 64> d;
    d.fill(255);
    for (Square t : targets) d[index(t)] = 0;
    Bitboard seen = targets, frontier = targets;
    for (std::uint8_t dist = 1; frontier; ++dist) {
        // One king step from every square of the frontier at once.
        const Bitboard next = attacks_of_set(PieceType::king, frontier, Bitboard()) & ~walls & ~seen;
        for (Square s : next) d[index(s)] = dist;
        seen |= next;
        frontier = next;
    }
    return d;
}

Bitboard king_walls(const Position& pos, Color king) noexcept {
    Bitboard walls = pos.pieces(PieceType::pawn);
    for (Square p : pos.pieces(~king, PieceType::pawn)) walls |= pawn_attacks(~king, p);
    return walls;
}

std::array<std::uint8_t, 64> king_walk(const Position& pos, Color king, Bitboard targets) noexcept {
    std::array<std::uint8_t, 64> d = walk_to(targets, king_walls(pos, king) & ~targets);
    for (int i = 0; i < 64; ++i)
        if (d[i] == 255) {
            int best = 8;
            for (Square t : targets) best = std::min(best, chebyshev(square_at(i), t));
            d[i] = static_cast<std::uint8_t>(16 + best);
        }
    return d;
}

namespace {
/// True when some move of `winner` may give check from where it lands (`checks`: the squares
/// from which each kind of piece checks, as in checking_mate_in_one) or promotes: a superset of
/// the moves the mate in one tries, worked out per piece from the bitboards. Where none can (more
/// often in endings than in middlegames, where most positions have a check), the loop over the
/// moves is skipped.
bool may_check(const Position& pos, Color winner, const std::array<Bitboard, 6>& checks) noexcept {
    const Bitboard occ = pos.occupied(), own = pos.pieces(winner);
    const Bitboard pawns = pos.pieces(winner, PieceType::pawn);
    const bool white = winner == Color::white;
    // Pawns: one on the last rank but one promotes; the others check from where they step or take.
    if (pawns & Bitboard::rank(white ? Rank(6) : Rank(1))) return true;
    if (checks[0]) {
        const Bitboard single = pawns.shifted(white ? 8 : -8) & ~occ;
        const Bitboard twice = (single & Bitboard::rank(white ? Rank(2) : Rank(5))).shifted(white ? 8 : -8) & ~occ;
        if ((single | twice | pawn_attacks_of_set(winner, pawns)) & checks[0]) return true;
    }
    if (attacks_of_set(PieceType::knight, pos.pieces(winner, PieceType::knight), Bitboard()) & checks[1] & ~own)
        return true;
    if (checks[2] & ~own)
        for (Square s : pos.pieces(winner, PieceType::bishop))
            if (bishop_attacks(s, occ) & checks[2] & ~own) return true;
    if (checks[3] & ~own)
        for (Square s : pos.pieces(winner, PieceType::rook))
            if (rook_attacks(s, occ) & checks[3] & ~own) return true;
    if (checks[4] & ~own)
        for (Square s : pos.pieces(winner, PieceType::queen))
            if (queen_attacks(s, occ) & checks[4] & ~own) return true;
    return false;
}
}  // namespace

Move checking_mate_in_one(const Position& pos, const MoveList& moves, Color winner, std::uint64_t& nodes) noexcept {
    const Square lk = pos.king_square(~winner);
    const Bitboard occ = pos.occupied();
    // The squares from which each kind of piece checks the king, worked out once. They are
    // exact for a move by the winner: a piece that leaves a square between the king and its
    // target along its own line would already be giving check, which it cannot with the winner
    // to move. Promotions are tested one by one (the new piece's line may run through the pawn's
    // square).
    const Bitboard diagonal = bishop_attacks(lk, occ), straight = rook_attacks(lk, occ);
    const std::array<Bitboard, 6> checks{pawn_attacks(~winner, lk), knight_attacks(lk), diagonal, straight,
                                         diagonal | straight,       Bitboard()};
    // The loser's king's flight squares and what the winner covers with that king off the board
    // (worked out at the first check).
    bool mapped = false;
    Bitboard flights, covered;
    const Bitboard any_check = checks[0] | checks[1] | checks[4];
    if (!may_check(pos, winner, checks)) return Move::null();
    for (Move m : moves) {
        const Square from = m.from(), to = m.to();
        if (!any_check.contains(to) && !m.is_promotion()) continue;  // (the test of most moves)
        if (m.is_castling()) continue;
        // The piece that stands on `to` after the move.
        const PieceType now = m.is_promotion() ? m.promoted() : type_of(pos.piece_at(from));
        if (m.is_promotion()) {
            const Bitboard occ2 = (occ ^ Bitboard(from)) | to;
            if (!attacks(now, to, occ2).contains(lk)) continue;
        } else if (!checks[static_cast<std::size_t>(index(now))].contains(to)) {
            continue;
        }
        // A king with a flight square that no unit of the winner may cover after the move is
        // not mated (en passant, which takes a second unit off the board, is simply tried).
        if (!m.is_en_passant()) {
            if (!mapped) {
                flights = king_attacks(lk) & ~pos.pieces(~winner);
                covered = attacks_near(pos, winner, occ ^ Bitboard(lk), flights);
                mapped = true;
            }
            const Bitboard occ2 = ((occ ^ Bitboard(from)) | to) ^ Bitboard(lk);
            const Bitboard after = covered |
                                   (now == PieceType::pawn ? pawn_attacks(winner, to) : attacks(now, to, occ2)) |
                                   lines_through(pos, winner, from, occ, occ2);  // the lines the move opens
            if (flights & ~after) continue;
        }
        ++nodes;
        if (!has_legal_move(pos.after(m))) return m;
    }
    return Move::null();
}

// The loser's pawns the winner's king should take first (impl.hpp).
Bitboard pawns_to_clear(const Position& pos, Color winner) {
    if (pos.pieces(winner) & (pos.pieces(PieceType::queen) | pos.pieces(PieceType::rook))) return {};
    const Bitboard theirs = pos.pieces(~winner, PieceType::pawn);
    Bitboard targets;
    for (Square p : pos.pieces(winner, PieceType::pawn)) {
        Bitboard ahead;
        for (Square t : Bitboard::file(file_of(p)))
            if (winner == Color::white ? rank_of(t) > rank_of(p) : rank_of(t) < rank_of(p)) ahead |= t;
        if (!(ahead & theirs)) return {};  // this pawn may promote: nothing to clear
        targets |= ahead & theirs;
    }
    Bitboard defended;
    for (Square t : targets)
        if (pawn_attacks(winner, t) & theirs) defended |= t;
    return targets & ~defended;
}

bool all_lines_end(const Position& pos, Color winner, int depth, std::uint64_t& nodes,
                   std::uint64_t node_cap) noexcept {
    if (++nodes > node_cap) return false;
    // The first line tried usually goes on past the depth, which ends the search: the first move
    // alone is generated until then, and the list (the same order) only when it is needed.
    const std::optional<Move> first = first_legal_move(pos);
    if (!first) return !(pos.turn() != winner && pos.in_check());
    if (material_cannot_mate(pos, winner)) return true;
    if (depth == 0) return false;
    if (!all_lines_end(pos.after(*first), winner, depth - 1, nodes, node_cap)) return false;
    MoveList moves;
    legal_moves(pos, moves);
    for (std::size_t i = 1; i < moves.size(); ++i)
        if (!all_lines_end(pos.after(moves[i]), winner, depth - 1, nodes, node_cap)) return false;
    return true;
}

int knight_moves(Square a, Square b) noexcept { return knight_distance.d[index(a)][index(b)]; }

const std::uint8_t* knight_moves_to(Square b) noexcept { return knight_distance.d[index(b)].data(); }

namespace {
thread_local std::size_t thread_tables = 0;  // bytes, as counted by count_thread_table

/// A table of this thread, on the heap (not in every thread's static TLS block), counted.
template <class T>
std::unique_ptr<T> thread_table(std::size_t extra = 0) {
    count_thread_table(sizeof(T) + extra);
    return std::make_unique<T>();
}
}  // namespace

void count_thread_table(std::size_t bytes) noexcept { thread_tables += bytes; }

std::size_t thread_table_bytes() noexcept { return thread_tables; }

RankedStack& ranked_stack() noexcept {
    thread_local const std::unique_ptr<RankedStack> stack = thread_table<RankedStack>();
    return *stack;
}

RankedCache& ranked_cache() noexcept {
    thread_local const std::unique_ptr<RankedCache> cache =
        thread_table<RankedCache>(RankedCache::size * sizeof(RankedCache::Entry));
    return *cache;
}

SearchTable& search_table() noexcept {
    thread_local const std::unique_ptr<SearchTable> t = thread_table<SearchTable>(SearchTable::bytes());
    return *t;
}

}  // namespace arbiter::detail
