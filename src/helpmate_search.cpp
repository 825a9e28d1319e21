// helpmate_search.cpp — the cooperative mate search and the forced-line check.
//
// The search is a depth-first iterative deepening in which moves have a cost: a move that makes
// progress towards a mating pattern is free, an ordinary move costs one unit (none right after a
// progress move), and a move that works against the mate (the loser taking the winner's
// material) costs three. Each iteration raises the budget by one. A transposition table keyed by
// the position (Zobrist key, which includes castling rights and a legal en passant square)
// remembers the largest budget a position was searched with, so transpositions and cycles are
// cut. An iteration that never ran out of budget and found no mate visited every position
// reachable from the root (pruning only positions that are proven unwinnable): that is a proof.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <memory>

#include "arbiter/attacks.hpp"
#include "arbiter/movegen.hpp"
#include "helpmate_impl.hpp"

namespace arbiter::detail {
namespace {

int chebyshev(Square a, Square b) noexcept {
    return std::max(std::abs(file_of(a) - file_of(b)), std::abs(rank_of(a) - rank_of(b)));
}

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

/// The transposition table: per thread, never cleared; a generation tag marks live entries.
class Table {
public:
    static constexpr std::size_t size = std::size_t{1} << 18;
    struct Entry {
        std::uint64_t key;
        std::int16_t budget;
        std::uint16_t generation;
    };
    void new_generation() noexcept {
        if (++generation_ == 0) {
            for (std::size_t i = 0; i < size; ++i) entries_[i].generation = 0;
            generation_ = 1;
        }
    }
    /// True when `key` was already searched with at least `budget`; otherwise records it.
    bool seen(std::uint64_t key, int budget) noexcept {
        Entry& e = entries_[key & (size - 1)];
        if (e.generation == generation_ && e.key == key && e.budget >= budget) return true;
        e = Entry{key, static_cast<std::int16_t>(budget), generation_};
        return false;
    }

private:
    std::unique_ptr<Entry[]> entries_ = std::make_unique<Entry[]>(size);  // zeroed: generation 0 is never live
    std::uint16_t generation_ = 0;
};

Table& table() {
    thread_local Table t;
    return t;
}

constexpr int cost_progress = 0;
constexpr int cost_normal = 1;
constexpr int cost_bad = 3;
constexpr int max_ply = 400;

class Searcher {
public:
    Searcher(const Position& root, Color winner, std::uint64_t node_limit)
        : winner_(winner), loser_(~winner), limit_(node_limit) {
        plan(root);
    }

    SearchOutcome run(const Position& root);

private:
    struct Scored {
        Move move;
        int cost;
        int order;  // lower first
    };
    void plan(const Position& root);
    bool dfs(const Position& pos, int budget, bool after_progress);
    void classify(const Position& pos, const MoveList& moves, std::array<Scored, MoveList::capacity>& out) const;

    Color winner_, loser_;
    std::uint64_t limit_;
    std::uint64_t nodes_ = 0;
    bool interrupted_ = false;
    bool aborted_ = false;
    int ply_ = 0;
    std::vector<Move> line_;
    Square corner_ = Square::a1;   // where the loser's king is led
    bool blockers_needed_ = false;  // the winner lacks the material to mate without the loser's help
};

void Searcher::plan(const Position& root) {
    const Bitboard ours = root.pieces(winner_);
    const Bitboard heavy = root.pieces(PieceType::queen) | root.pieces(PieceType::rook);
    blockers_needed_ = !(ours & heavy) && !(root.pieces(winner_, PieceType::pawn));
    // Single-coloured bishops mate in a corner of their colour.
    const Bitboard bishops = root.pieces(winner_, PieceType::bishop);
    Bitboard corners = Bitboard(Square::a1) | Square::h1 | Square::a8 | Square::h8;
    const Bitboard others = ours & ~bishops & ~root.pieces(PieceType::king) & ~root.pieces(PieceType::pawn);
    if (bishops && !others) {
        if ((bishops & Bitboard::light_squares()) == bishops) corners &= Bitboard::light_squares();
        else if ((bishops & Bitboard::dark_squares()) == bishops) corners &= Bitboard::dark_squares();
    }
    const Square lk = root.king_square(loser_);
    int best = 99;
    for (Square c : corners) {
        const int d = chebyshev(c, lk);
        if (d < best) best = d, corner_ = c;
    }
}

void Searcher::classify(const Position& pos, const MoveList& moves,
                        std::array<Scored, MoveList::capacity>& out) const {
    const bool winner_moves = pos.turn() == winner_;
    const Square lk = pos.king_square(loser_);
    const Bitboard occ = pos.occupied();
    std::size_t i = 0;
    for (Move m : moves) {
        const Square from = m.from(), to = m.to();
        const PieceType pt = type_of(pos.piece_at(from));
        const bool capture = pos.is_capture(m);
        int cost = cost_normal;
        int order = 50;
        if (winner_moves) {
            if (m.is_promotion()) {
                const PieceType p = m.promoted();
                cost = (p == PieceType::queen || p == PieceType::knight) ? cost_progress : cost_normal;
                order = p == PieceType::queen ? 0 : 20;
            } else if (capture) {
                cost = cost_progress;
                order = 10;
            } else if (pt == PieceType::pawn) {
                cost = cost_progress;
                order = 30;
            } else if (pt == PieceType::king) {
                const int d0 = chebyshev(from, lk), d1 = chebyshev(to, lk);
                if (d1 < d0 && d1 >= 2) cost = cost_progress, order = 25;
            } else if (pt == PieceType::knight) {
                if (knight_distance.d[index(to)][index(lk)] < knight_distance.d[index(from)][index(lk)])
                    cost = cost_progress, order = 15;
            } else if (chebyshev(to, lk) < chebyshev(from, lk)) {
                cost = cost_progress;
                order = 15;
            }
            // Direct checks first: mates are checks.
            if (!m.is_castling() && pt != PieceType::king) {
                const PieceType now = m.is_promotion() ? m.promoted() : pt;
                const Bitboard o = (occ ^ Bitboard(from)) | to;
                const Bitboard a = now == PieceType::pawn ? pawn_attacks(winner_, to) : attacks(now, to, o);
                if (a.contains(lk)) order -= 10;
            }
        } else {
            if (capture && !m.is_en_passant() && type_of(pos.piece_at(to)) != PieceType::pawn) {
                cost = cost_bad;
                order = 90;
            } else if (capture) {
                cost = cost_bad;
                order = 80;
            } else if (m.is_promotion()) {
                const PieceType p = m.promoted();
                if (blockers_needed_ && p != PieceType::queen) cost = cost_progress, order = 10;
                else order = 40;
            } else if (pt == PieceType::king) {
                if (chebyshev(to, corner_) < chebyshev(from, corner_)) cost = cost_progress, order = 5;
            } else if (pt == PieceType::pawn) {
                if (blockers_needed_) cost = cost_progress, order = 20;
            } else if (blockers_needed_) {
                if (chebyshev(to, lk) < chebyshev(from, lk)) cost = cost_progress, order = 15;
            }
        }
        out[i++] = Scored{m, cost, order};
    }
}

bool Searcher::dfs(const Position& pos, int budget, bool after_progress) {
    if (++nodes_ >= limit_) {
        aborted_ = interrupted_ = true;
        return false;
    }
    MoveList moves;
    legal_moves(pos, moves);
    if (moves.empty()) return pos.turn() == loser_ && pos.in_check();
    if (material_cannot_mate(pos, winner_)) return false;
    const bool winner_moves = pos.turn() == winner_;
    if (budget <= 0 || ply_ >= max_ply) {
        interrupted_ = true;
        // One more ply for free at the horizon: a mating move.
        if (winner_moves && ply_ < max_ply) {
            for (Move m : moves) {
                const Position child = pos.after(m);
                if (child.in_check() && !has_legal_move(child)) {
                    line_.push_back(m);
                    return true;
                }
            }
        }
        return false;
    }
    if (table().seen(pos.key(), budget)) return false;

    std::array<Scored, MoveList::capacity> scored;
    classify(pos, moves, scored);
    const auto end = scored.begin() + static_cast<std::ptrdiff_t>(moves.size());
    std::stable_sort(scored.begin(), end, [](const Scored& a, const Scored& b) {
        return a.cost != b.cost ? a.cost < b.cost : a.order < b.order;
    });
    for (auto it = scored.begin(); it != end; ++it) {
        int cost = it->cost;
        if (cost == cost_normal && after_progress) cost = cost_progress;
        const Position child = pos.after(it->move);
        line_.push_back(it->move);
        ++ply_;
        const bool found = dfs(child, budget - cost, it->cost == cost_progress);
        --ply_;
        if (found) return true;
        line_.pop_back();
        if (aborted_) return false;
    }
    return false;
}

SearchOutcome Searcher::run(const Position& root) {
    SearchOutcome out;
    for (int budget = 1; budget < 10000; ++budget) {
        table().new_generation();
        interrupted_ = false;
        line_.clear();
        ply_ = 0;
        if (dfs(root, budget, false)) {
            out.kind = SearchOutcome::Kind::mate;
            out.line = line_;
            break;
        }
        if (aborted_) {
            out.kind = SearchOutcome::Kind::limit;
            break;
        }
        if (!interrupted_) {
            out.kind = SearchOutcome::Kind::exhausted;
            break;
        }
    }
    out.nodes = nodes_;
    return out;
}

}  // namespace

bool all_lines_end(const Position& pos, Color winner, int depth, std::uint64_t& nodes,
                   std::uint64_t node_cap) noexcept {
    if (++nodes > node_cap) return false;
    MoveList moves;
    legal_moves(pos, moves);
    if (moves.empty()) return !(pos.turn() != winner && pos.in_check());
    if (material_cannot_mate(pos, winner)) return true;
    if (depth == 0) return false;
    for (Move m : moves)
        if (!all_lines_end(pos.after(m), winner, depth - 1, nodes, node_cap)) return false;
    return true;
}

SearchOutcome search_helpmate(const Position& pos, Color winner, std::uint64_t node_limit) {
    Searcher s(pos, winner, node_limit);
    return s.run(pos);
}

}  // namespace arbiter::detail
