// helpmate_search.cpp — the main searches of the analyzer (guided, reward-extended with its gift
// plans, exhaustive), the forced-line check and what the plans of helpmate_bishops.cpp and
// helpmate_release.cpp share with them (king walks, the checking mate in one, the table).
//
// The guided search (search_helpmate) looks for a mate, and only for a mate: a depth-first
// search over both sides' moves (the loser cooperates) where each move is ranked by how much it
// brings the position closer to a mating pattern. The best move of a position is free; lower
// ranked moves spend a "discrepancy" budget, which grows by one per iteration (limited
// discrepancy search). Iteration 0 is a single greedy line; later ones deviate from it in more
// and more places. A transposition table cuts positions already searched with as much budget.
//
// The exhaustive search (exhaust_helpmate) visits every position reachable from the root,
// breadth first, once each (a table of Zobrist keys; the key covers placement, side to move,
// castling rights and a legal en passant square, which is all that decides the future moves).
// It prunes positions where the winner provably cannot mate (material; a blockade after an
// irreversible move). Finding a mate gives a shortest mating line; running out of positions
// proves that no mate exists.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <memory>
#include <unordered_set>

#include "arbiter/attacks.hpp"
#include "arbiter/movegen.hpp"
#include "helpmate_impl.hpp"

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

/// The guided search's transposition table: per thread, never cleared; a generation tag marks
/// live entries.
class Table {
public:
    static constexpr std::size_t size = std::size_t{1} << 16;
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

/// Attacks of the winner on a set of squares (occupancy `occ`).
Bitboard attacked_squares(const Position& pos, Color by, Bitboard squares, Bitboard occ) noexcept {
    Bitboard out;
    for (Square s : squares)
        if (pos.attacked_by(by, s, occ)) out |= s;
    return out;
}

/// Every square a side attacks (occupancy `occ`): the union of what attacked_by tests square by
/// square, computed once for many squares.
Bitboard attack_map(const Position& pos, Color by, Bitboard occ) noexcept {
    Bitboard out;
    for (Square s : pos.pieces(by)) {
        const PieceType t = type_of(pos.piece_at(s));
        out |= t == PieceType::pawn ? pawn_attacks(by, s) : attacks(t, s, occ);
    }
    return out;
}

class Guided : public DiscrepancySearch<Guided> {
public:
    Guided(const Position& root, Color winner, std::uint64_t node_limit, int variant)
        : DiscrepancySearch(winner, node_limit), variant_(variant & 3), eager_(variant >= 4) {
        plan(root);
    }
    /// What the variant changes about the plan: equal for two variants that search alike.
    [[nodiscard]] std::uint64_t plan_key() const noexcept {
        std::uint64_t h = corners_.bits ^ (clear_.bits * 0x9E3779B97F4A7C15ULL);
        h = h * 31 + static_cast<std::uint64_t>(index(anchor_) + 1);
        return h * 8 + (anchored_ ? 4u : 0u) + (blockers_needed_ ? 2u : 0u) + (eager_ ? 1u : 0u);
    }

private:
    friend class DiscrepancySearch<Guided>;
    void plan(const Position& root);
    std::size_t rank_moves(const Position& pos, const MoveList& moves, Ranked* out) const noexcept;
    int score(const Position& pos, Move m, Bitboard zone, Bitboard open, Bitboard threats) const noexcept;
    [[nodiscard]] int open_flights(const Position& pos, Square k, Bitboard occ) const noexcept;

    int variant_;
    bool eager_;                    // the winner's king heads for the pawns to clear before anything else
    Bitboard corners_;              // where the loser's king is led
    bool anchored_ = false;         // the winner has no queen, rook or free pawn: mate in a corner
    bool blockers_needed_ = false;  // ... and its pieces cannot mate without the loser's help
    Square anchor_ = Square::none;  // when anchored: the corner of the mate
    std::array<std::uint8_t, 64> loser_king_walk_{};   // king-walk distance to the mating corner(s)
    std::array<std::uint8_t, 64> winner_king_walk_{};  // when anchored: to the corner
    Bitboard clear_;                                   // the loser's pawns to take first
    std::array<std::uint8_t, 64> clear_walk_{};        // king-walk distance to them
};

void Guided::plan(const Position& root) {
    const Bitboard ours = root.pieces(winner_) & ~root.pieces(PieceType::king);
    const Bitboard heavy = root.pieces(PieceType::queen) | root.pieces(PieceType::rook);
    // Odd variants count a pawn with an enemy pawn right in front of it as no mating material
    // (it may stay blocked for ever); even ones count it (its blocker may be taken).
    const Bitboard our_pawns = root.pieces(winner_, PieceType::pawn);
    const Bitboard free_pawns =
        variant_ % 2 ? our_pawns & ~root.pieces(loser_, PieceType::pawn).shifted(winner_ == Color::white ? -8 : 8)
                     : our_pawns;
    const Bitboard minors = ours & (root.pieces(PieceType::knight) | root.pieces(PieceType::bishop));
    const Bitboard bishops = root.pieces(winner_, PieceType::bishop);
    const bool one_colour =
        (bishops & Bitboard::light_squares()) == bishops || (bishops & Bitboard::dark_squares()) == bishops;
    anchored_ = !(ours & heavy) && !free_pawns;
    blockers_needed_ = anchored_ && (!minors.more_than_one() || (minors == bishops && one_colour));
    // Single-coloured bishops mate only in a corner of their colour.
    corners_ = Bitboard(Square::a1) | Square::h1 | Square::a8 | Square::h8;
    if (bishops && !(minors & ~bishops) && !(ours & heavy)) {
        if ((bishops & Bitboard::light_squares()) == bishops)
            corners_ &= Bitboard::light_squares();
        else if ((bishops & Bitboard::dark_squares()) == bishops)
            corners_ &= Bitboard::dark_squares();
    }
    const Square lk = root.king_square(loser_);
    // Without enough material of its own, the winner mates in one chosen corner, and every
    // unit heads there; otherwise the winner's units head for the loser's king wherever it is.
    // Corners are ranked by how far the loser's king and its would-be blockers are (a pawn only
    // gets near a corner on its promotion side), avoiding the winner's own king; variants 0-1
    // take the first, 2-3 the second, and so on.
    if (anchored_) {
        std::array<std::pair<int, Square>, 4> ranked{};
        int n = 0;
        for (Square c : corners_) {
            int cost = 2 * chebyshev(c, lk) + (chebyshev(c, root.king_square(winner_)) <= 1 ? 8 : 0);
            for (Square u : root.pieces(loser_) & ~root.pieces(PieceType::king)) {
                const bool pawn = type_of(root.piece_at(u)) == PieceType::pawn;
                const bool reachable = !pawn || relative_rank(loser_, rank_of(c)) == 7;
                cost += reachable ? std::min(chebyshev(u, c), 4) : 4;
            }
            ranked[n++] = {cost, c};
        }
        for (int i = 1; i < n; ++i)  // (insertion sort: std::sort trips a GCC 12 bounds warning here)
            for (int j = i; j > 0 && ranked[j] < ranked[j - 1]; --j) std::swap(ranked[j], ranked[j - 1]);
        anchor_ = ranked[static_cast<std::size_t>(variant_ / 2 % n)].second;
        corners_ = Bitboard(anchor_);
        winner_king_walk_ = king_walk(root, winner_, Bitboard(anchor_));
    }
    loser_king_walk_ = king_walk(root, loser_, corners_);
    // Variants 2 and 3 send the winner's king first after the pawns that block its own.
    clear_ = variant_ >= 2 ? pawns_to_clear(root, winner_) : Bitboard();
    if (clear_) clear_walk_ = king_walk(root, winner_, clear_);
}

// Squares next to k that the loser's king could flee to: not its own units, not attacked.
int Guided::open_flights(const Position& pos, Square k, Bitboard occ) const noexcept {
    const Bitboard around = king_attacks(k) & ~pos.pieces(loser_);
    return around.count() - attacked_squares(pos, winner_, around, occ ^ Bitboard(k)).count();
}

// How much a move helps towards a mate (lower is better). `zone` is the loser's king and the
// squares around it; `open` those around it that are neither the loser's own nor attacked;
// `threats` the squares the winner attacks with the loser's king off the board.
int Guided::score(const Position& pos, Move m, Bitboard zone, Bitboard open, Bitboard threats) const noexcept {
    const Square from = m.from(), to = m.to();
    const PieceType pt = type_of(pos.piece_at(from));
    // Where the mate is to happen: around the loser's king, or in the chosen corner.
    const Square lk = anchored_ ? anchor_ : pos.king_square(loser_);
    if (anchored_) zone = king_attacks(lk) | lk;
    const Bitboard occ = pos.occupied();
    const bool capture = pos.is_capture(m);
    int s = 0;
    if (pos.turn() == winner_) {
        if (m.is_castling()) return 6;
        const PieceType now = m.is_promotion() ? m.promoted() : pt;
        const Bitboard occ2 = (occ ^ Bitboard(from)) | to;
        auto hits = [&](PieceType t, Square sq, Bitboard o) {
            return t == PieceType::pawn ? pawn_attacks(winner_, sq) : attacks(t, sq, o);
        };
        const Bitboard before = hits(pt, from, occ), after = hits(now, to, occ2);
        // Pressure on the king's square and its flight squares.
        s -= 3 * ((after & open).count() - (before & open).count());
        s -= 2 * ((after & zone).count() - (before & zone).count());
        // A piece left where the loser can take it is likely lost. (No bonus for a check as
        // such: while the king has flight squares it simply steps away.)
        const bool hanging = now != PieceType::pawn && now != PieceType::king && pos.attacked_by(loser_, to, occ2);
        if (hanging) s += 5;
        if (pt == PieceType::king && clear_) {
            // First take the pawns that keep the winner's pawns from promoting; in the eager
            // variants, while some are left, each step towards them outweighs the king's
            // pressure on the loser's king.
            const int weight = eager_ && (clear_ & pos.pieces(loser_, PieceType::pawn)) ? 6 : 3;
            s += weight * (clear_walk_[index(to)] - clear_walk_[index(from)]);
        } else if (pt == PieceType::king) {
            const int d0 = anchored_ ? winner_king_walk_[index(from)] : chebyshev(from, lk);
            const int d1 = anchored_ ? winner_king_walk_[index(to)] : chebyshev(to, lk);
            s += 3 * (std::max(2, d1) - std::max(2, d0));
        } else if (pt == PieceType::knight && !m.is_promotion()) {
            s += knight_distance.d[index(to)][index(lk)] - knight_distance.d[index(from)][index(lk)];
        } else if (pt != PieceType::pawn) {
            s += chebyshev(to, lk) - chebyshev(from, lk);
        }
        if (m.is_promotion()) {
            s -= now == PieceType::queen ? 12 : now == PieceType::knight ? 6 : 2;
        } else if (pt == PieceType::pawn) {
            s -= 1 + relative_rank(winner_, rank_of(to)) / 2;
        }
        if (capture) s -= 2;
        return s;
    }
    // The loser.
    if (capture) {
        const Square victim = m.is_en_passant() ? to - (loser_ == Color::white ? 8 : -8) : to;
        return 30 + (type_of(pos.piece_at(victim)) == PieceType::pawn ? 0 : 10);
    }
    if (pt == PieceType::king) {
        const Square kto = m.is_castling() ? Position::castle_king_to(loser_, from, to) : to;
        Bitboard occ2 = (occ ^ Bitboard(from)) | kto;
        if (m.is_castling()) occ2 = (occ2 ^ Bitboard(to)) | Position::castle_rook_to(loser_, from, to);
        s += 3 * (loser_king_walk_[index(kto)] - loser_king_walk_[index(from)]);
        // (A plain king move leaves the occupancy the winner attacks through as in `threats`.)
        const int flights = m.is_castling() ? open_flights(pos, kto, occ2)
                                            : (king_attacks(kto) & ~pos.pieces(loser_) & ~threats).count();
        s += 2 * (flights - open.count());
        return s;
    }
    if (m.is_promotion()) {
        const PieceType p = m.promoted();
        return blockers_needed_ ? (p == PieceType::queen ? 4 : -8) : (p == PieceType::queen ? 2 : 4);
    }
    // A unit next to its own king closes a flight square; one leaving it reopens it. With
    // blockers needed, units head for the squares around the chosen corner.
    const int near_before = zone.contains(from) ? 1 : 0, near_after = zone.contains(to) ? 1 : 0;
    s -= (blockers_needed_ ? 5 : 3) * (near_after - near_before);
    if (anchored_ && !near_after) {
        s += pt == PieceType::knight
                 ? knight_distance.d[index(to)][index(lk)] - knight_distance.d[index(from)][index(lk)]
                 : chebyshev(to, lk) - chebyshev(from, lk);
    }
    if (pt == PieceType::pawn && blockers_needed_ && !near_before) s -= 2;
    return s;
}

// The ranking at a node: the loser's king's zone, its open flight squares and the squares the
// winner attacks are worked out once for all the moves.
std::size_t Guided::rank_moves(const Position& pos, const MoveList& moves, Ranked* out) const noexcept {
    const Square lk = pos.king_square(loser_);
    const Bitboard zone = king_attacks(lk) | lk;
    const Bitboard around = king_attacks(lk) & ~pos.pieces(loser_);
    const Bitboard threats = attack_map(pos, winner_, pos.occupied() ^ Bitboard(lk));
    const Bitboard open = around & ~threats;
    std::size_t n = 0;
    for (Move m : moves) out[n++] = Ranked{m, score(pos, m, zone, open, threats)};
    return n;
}

/// The units of `among` that stand ahead of a pawn of `side` on its file (in its way).
Bitboard pawns_ahead(const Position& pos, Color side, Bitboard among) noexcept {
    Bitboard out;
    for (Square p : pos.pieces(side, PieceType::pawn))
        for (Square t : Bitboard::file(file_of(p)) & among)
            if (side == Color::white ? rank_of(t) > rank_of(p) : rank_of(t) < rank_of(p)) out |= t;
    return out;
}

/// The reward-extended search: a depth-first search with a horizon, where a move that makes
/// progress (a pawn push or capture by the winner, a king or knight stepping towards its target
/// in a fixed mating corner, a blocker for the loser when the winner needs one) does not use up
/// depth, and an ordinary move right after a progress move is free too. Each iteration has a
/// small node cap and a deeper horizon than the last: a series of deep, differently cut dives
/// that suits long manoeuvres the ranking of the guided search does not see.
class Rewarded {
public:
    Rewarded(const Position& root, Color winner, std::uint64_t node_limit, bool gifts, int gift_file)
        : winner_(winner),
          loser_(~winner),
          limit_(node_limit),
          gifts_(gifts || gift_file >= 0),
          gift_file_(gift_file),
          root_(root) {
        plan(root);
    }
    SearchOutcome run(const Position& root);

private:
    enum Kind : std::uint8_t { progress, normal, bad };
    struct Ranked {
        Move move;
        Kind kind;
        int order;
    };
    void plan(const Position& root);
    bool dfs(const Position& pos, int depth, bool after_progress);
    [[nodiscard]] Ranked rank(const Position& pos, Move m) const noexcept;
    [[nodiscard]] Square target(PieceType moved, bool winner_moves) const noexcept;
    /// After the pawn move m, the loser's king can no longer walk up to the pawn. (Out of line:
    /// rank() runs at every node, this only for a step of the gift.)
    [[nodiscard]] [[gnu::noinline]] bool out_of_reach(const Position& pos, Move m) const {
        return king_walk(pos.after(m), loser_, Bitboard(m.to()))[index(pos.king_square(loser_))] >= 16;
    }
    /// The winner's pawns standing in front of a loser's pawn on its file, now.
    [[nodiscard]] Bitboard gift_pawns(const Position& pos) const noexcept {
        return pawns_ahead(pos, loser_, pos.pieces(winner_, PieceType::pawn));
    }

    Color winner_, loser_;
    std::uint64_t limit_;
    std::uint64_t nodes_ = 0, iteration_nodes_ = 0, iteration_cap_ = 60000;
    bool stop_ = false;
    int ply_ = 0;
    std::vector<Move> line_;
    Square corner_ = Square::h8;  // where the loser's king is mated
    bool blockers_needed_ = false;
    // The gift plan: the loser's king takes the winner's pawns that block its own pawns, which
    // then promote and give themselves up to the winner's pawns, opening them a file.
    bool gifts_ = false;
    Bitboard gift_pawns_;  // the winner's pawns in front of the loser's pawns, on their files
    // The targeted gift plan: the gift is the pawn of this file (-1: the nearest of any file).
    int gift_file_ = -1;
    // The loser's king walks to a gift by the shortest way round the pawns and the squares the
    // winner's pawns attack (king_walk over the root's structure), not by the straight line
    // that a wall of pawns may block: a map per gift square, made when first needed.
    Position root_;
    mutable std::array<std::array<std::uint8_t, 64>, 64> gift_walk_;  // (only where made)
    mutable Bitboard gift_walk_made_;
    [[nodiscard]] int gift_distance(Square from, Bitboard gifts) const;
};

void Rewarded::plan(const Position& root) {
    const Bitboard ours = root.pieces(winner_) & ~root.pieces(PieceType::king);
    const Bitboard bishops = root.pieces(winner_, PieceType::bishop);
    const Bitboard heavy = root.pieces(PieceType::queen) | root.pieces(PieceType::rook);
    blockers_needed_ = !(ours & heavy) && !(ours & root.pieces(PieceType::pawn));
    // The corner on the loser's side of the board, of the colour the winner's bishops need
    // (or, without them, the colour the loser's bishops could block on).
    const bool dark = (bishops & Bitboard::dark_squares()) ||
                      (!bishops && (root.pieces(loser_, PieceType::bishop) & Bitboard::light_squares()));
    Square c = dark ? Square::h8 : Square::a8;
    if (winner_ == Color::black) c = square_at(index(c) ^ 63);  // h8 <-> a1, a8 <-> h1
    corner_ = c;
    if (gifts_) gift_pawns_ = pawns_ahead(root, loser_, root.pieces(winner_, PieceType::pawn));
}

int Rewarded::gift_distance(Square from, Bitboard gifts) const {
    int best = 255;
    for (Square g : gifts) {
        auto& walk = gift_walk_[static_cast<std::size_t>(index(g))];
        if (!gift_walk_made_.contains(g)) {
            walk = king_walk(root_, loser_, Bitboard(g));
            gift_walk_made_ |= g;
        }
        best = std::min<int>(best, walk[static_cast<std::size_t>(index(from))]);
    }
    return best;
}

// The square a moving unit heads for: the loser's king to the corner, its pieces next to it;
// the winner's king two squares from it, its pieces to the corner itself.
Square Rewarded::target(PieceType moved, bool winner_moves) const noexcept {
    const int toward = file_of(corner_) == 7 ? -1 : 1;
    const int down = rank_of(corner_) == 7 ? -1 : 1;
    if (winner_moves)
        return moved == PieceType::king ? make_square(file_of(corner_), rank_of(corner_) + 2 * down) : corner_;
    return moved == PieceType::king ? corner_ : make_square(file_of(corner_) + toward, rank_of(corner_));
}

Rewarded::Ranked Rewarded::rank(const Position& pos, Move m) const noexcept {
    const bool winner_moves = pos.turn() == winner_;
    const PieceType pt = type_of(pos.piece_at(m.from()));
    const bool capture = pos.is_capture(m);
    const Square t = target(pt, winner_moves);
    const bool closer = [&] {
        if (m.is_castling()) return false;
        if (pt == PieceType::king) return chebyshev(m.to(), t) < chebyshev(m.from(), t);
        if (pt == PieceType::knight)
            return knight_distance.d[index(m.to())][index(t)] < knight_distance.d[index(m.from())][index(t)];
        return false;
    }();
    if (winner_moves) {
        if (m.is_promotion()) {
            const PieceType p = m.promoted();
            return {m, p == PieceType::queen || p == PieceType::knight ? progress : normal,
                    p == PieceType::queen ? 0 : 5};
        }
        if (capture) return {m, progress, 1};
        if (pt == PieceType::pawn && gift_file_ == file_of(m.from()) && gift_pawns(pos).contains(m.from())) {
            // The targeted gift plan: the gift walks to meet the loser's king. A step after
            // which the king could no longer walk up to the pawn (its neighbours blocked by
            // pawns or attacked by the winner's pawns, the pawn itself included) would spoil
            // the gift: it is kept for the moment the king stands next to the square, where
            // the pawn is taken at once (often a pawn given with check), and is no progress
            // before then.
            const Square lk = pos.king_square(loser_);
            if (chebyshev(m.to(), lk) > 1 && out_of_reach(pos, m)) return {m, normal, 10};
            if (chebyshev(m.to(), lk) <= chebyshev(m.from(), lk)) return {m, progress, 0};
        }
        if (pt == PieceType::pawn) return {m, progress, 2};
        if (closer) return {m, progress, 3};
        if (gifts_ && pt != PieceType::king && !m.is_castling()) {
            // The loser's king can only take a gift no winner's piece defends. A piece that stops
            // defending one is progress; so is, while one is defended, a piece stepping further
            // from it: pieces shut in around a gift (bishops caged behind pawns, say) make room
            // for its defenders to leave, and no longer defend it through each other.
            const Bitboard left = gift_pawns(pos) & (gift_file_ < 0 ? gift_pawns_ : Bitboard::file(gift_file_));
            const Bitboard occ2 = (pos.occupied() ^ Bitboard(m.from())) | m.to();
            if ((attacks(pt, m.from(), pos.occupied()) & left) && !(attacks(pt, m.to(), occ2) & left))
                return {m, progress, 4};
            int before = 8, after = 8;
            for (Square g : left)
                if (pos.attacked_by(winner_, g, pos.occupied())) {
                    before = std::min(before, chebyshev(m.from(), g));
                    after = std::min(after, chebyshev(m.to(), g));
                }
            if (before < 8 && after > before) return {m, progress, 5};
        }
        return {m, normal, 10};
    }
    if (gifts_) {
        // The loser's king walks to the nearest blocking pawn and takes it; its pawns run and
        // promote; its pieces step where a winner's pawn can take them.
        const Bitboard left = gift_file_ < 0 ? gift_pawns_ & pos.pieces(winner_, PieceType::pawn)
                                             : gift_pawns(pos) & Bitboard::file(gift_file_);
        if (pt == PieceType::king && left) {
            if (capture && left.contains(m.to())) return {m, progress, 0};
            // A piece that guards the gift is in the way as much as a wall: the king takes it.
            if (capture) {
                const PieceType victim = type_of(pos.piece_at(m.to()));
                if (victim != PieceType::pawn && (attacks(victim, m.to(), pos.occupied()) & left))
                    return {m, progress, 0};
            }
            const int before = gift_distance(m.from(), left), after = gift_distance(m.to(), left);
            if (!capture && after < before) {
                // Of the steps that bring it nearer, those that keep it as near to its own
                // pawns behind the gift come first: the gift comes up the file to meet it.
                Bitboard files;
                for (Square g : left) files |= Bitboard::file(file_of(g));
                int b = 8, a = 8;
                for (Square q : pos.pieces(loser_, PieceType::pawn) & files) {
                    b = std::min(b, chebyshev(m.from(), q));
                    a = std::min(a, chebyshev(m.to(), q));
                }
                return {m, progress, a < b ? 0 : 1};
            }
            if (!capture) return {m, after < before ? progress : normal, after < before ? 1 : 10};
        }
        if (pt == PieceType::pawn && !capture) {
            // Targeted, a pawn with a winner's pawn still in its way keeps its moves: they are
            // the loser's spare tempi, and the winner's are counted (often its king is locked).
            if (gift_file_ >= 0 && (gift_pawns(pos) & Bitboard::file(file_of(m.from())))) return {m, normal, 10};
            return {m, progress, m.is_promotion() && m.promoted() != PieceType::queen ? 3 : 1};
        }
        if (pt != PieceType::king && pt != PieceType::pawn && !capture) {
            Bitboard pawn_hits;
            for (Square p : pos.pieces(winner_, PieceType::pawn)) pawn_hits |= pawn_attacks(winner_, p);
            if (pawn_hits.contains(m.to())) return {m, progress, 2};
        }
    }
    if (capture) return {m, bad, 20};
    if (blockers_needed_ && pt == PieceType::pawn) {
        const PieceType p = m.promoted();
        if (p == PieceType::queen || p == PieceType::rook) return {m, bad, 19};
        return {m, progress, 2};
    }
    if (closer) return {m, progress, pt == PieceType::king ? 1 : 3};
    return {m, normal, 10};
}

bool Rewarded::dfs(const Position& pos, int depth, bool after_progress) {
    ++nodes_;
    if (nodes_ >= limit_ || ++iteration_nodes_ >= iteration_cap_) {
        stop_ = true;
        return false;
    }
    MoveList moves;
    legal_moves(pos, moves);
    if (moves.empty()) return pos.turn() == loser_ && pos.in_check();
    if (material_cannot_mate(pos, winner_)) return false;
    if (depth <= 0 || ply_ >= 400) return false;
    if (table().seen(pos.key(), depth)) return false;
    std::array<Ranked, MoveList::capacity> ranked;
    std::size_t n = 0;
    for (Move m : moves) ranked[n++] = rank(pos, m);
    stable_insertion_sort(ranked.data(), n, [](const Ranked& a, const Ranked& b) {
        return a.kind != b.kind ? a.kind < b.kind : a.order < b.order;
    });
    for (std::size_t i = 0; i < n; ++i) {
        const Ranked& r = ranked[i];
        int cost = r.kind == progress ? 0 : r.kind == normal ? (after_progress ? 0 : 1) : 3;
        if (ply_ > 300 && r.kind == progress) cost = 1;  // no free depth for ever
        const Position child = pos.after(r.move);
        line_.push_back(r.move);
        ++ply_;
        const bool found = dfs(child, depth - cost, r.kind == progress);
        --ply_;
        if (found) return true;
        line_.pop_back();
        if (stop_) return false;
    }
    return false;
}

SearchOutcome Rewarded::run(const Position& root) {
    SearchOutcome out;
    for (int depth = 1; nodes_ < limit_ && depth < 1000; ++depth) {
        table().new_generation();
        line_.clear();
        ply_ = 0;
        stop_ = false;
        iteration_nodes_ = 0;
        iteration_cap_ = 60000;
        if (dfs(root, depth, false)) {
            out.kind = SearchOutcome::Kind::mate;
            out.line = line_;
            break;
        }
    }
    out.nodes = nodes_;
    return out;
}

/// The exhaustive search's table of visited positions: open addressing over indices into the
/// node list, grown as needed.
class Visited {
public:
    struct Node {
        std::uint64_t key;
        std::uint32_t parent;
        Move move;
    };
    Visited() { index_.assign(1 << 12, empty); }
    /// Empties the table, keeping its memory (a search state is reused by the next search).
    /// A table that grew large for a big search is given back rather than kept and refilled.
    void clear() {
        if (nodes_.capacity() > keep_nodes) std::vector<Node>().swap(nodes_);
        nodes_.clear();
        if (index_.empty() || index_.size() > 2 * keep_nodes) {
            std::vector<std::uint32_t>(1 << 12, empty).swap(index_);
        } else {
            std::fill(index_.begin(), index_.end(), empty);
        }
    }
    /// Adds the position; false when it was already there.
    bool insert(std::uint64_t key, std::uint32_t parent, Move move) {
        if ((nodes_.size() + 1) * 2 > index_.size()) grow();
        std::size_t i = slot(key);
        if (index_[i] != empty) return false;
        index_[i] = static_cast<std::uint32_t>(nodes_.size());
        nodes_.push_back(Node{key, parent, move});
        return true;
    }
    [[nodiscard]] const Node& node(std::uint32_t i) const { return nodes_[i]; }
    [[nodiscard]] std::uint32_t size() const { return static_cast<std::uint32_t>(nodes_.size()); }

private:
    static constexpr std::uint32_t empty = 0xFFFFFFFFu;
    static constexpr std::size_t keep_nodes = 1 << 17;
    [[nodiscard]] std::size_t slot(std::uint64_t key) const {
        const std::size_t mask = index_.size() - 1;
        std::size_t i = (key * 0x9E3779B97F4A7C15ULL >> 20) & mask;
        while (index_[i] != empty && nodes_[index_[i]].key != key) i = (i + 1) & mask;
        return i;
    }
    void grow() {
        std::vector<std::uint32_t> old(index_.size() * 2, empty);
        index_.swap(old);
        for (std::uint32_t n = 0; n < nodes_.size(); ++n) index_[slot(nodes_[n].key)] = n;
    }
    std::vector<Node> nodes_;
    std::vector<std::uint32_t> index_;
};

/// Blockades with many free pieces are rare and the proof then costs more than it saves.
bool few_pieces(const Position& pos) noexcept {
    return (pos.occupied() & ~pos.pieces(PieceType::pawn) & ~pos.pieces(PieceType::king)).count() <= 6;
}

bool irreversible(const Position& pos, Move m) noexcept { return m.is_castling() || pos.is_zeroing(m); }

}  // namespace

std::array<std::uint8_t, 64> walk_to(Bitboard targets, Bitboard walls) noexcept {
    std::array<std::uint8_t, 64> d;
    d.fill(255);
    for (Square t : targets) d[index(t)] = 0;
    Bitboard seen = targets, frontier = targets;
    for (std::uint8_t dist = 1; frontier; ++dist) {
        Bitboard next;
        for (Square s : frontier) next |= king_attacks(s);
        next &= ~walls & ~seen;
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

Move checking_mate_in_one(const Position& pos, const MoveList& moves, Color winner, std::uint64_t& nodes) noexcept {
    const Square lk = pos.king_square(~winner);
    const Bitboard occ = pos.occupied();
    for (Move m : moves) {
        const Square from = m.from(), to = m.to();
        if (m.is_castling()) continue;
        const PieceType now = m.is_promotion() ? m.promoted() : type_of(pos.piece_at(from));
        if (now == PieceType::king) continue;
        const Bitboard occ2 = (occ ^ Bitboard(from)) | to;
        const Bitboard a = now == PieceType::pawn ? pawn_attacks(winner, to) : attacks(now, to, occ2);
        if (!a.contains(lk)) continue;
        ++nodes;
        if (!has_legal_move(pos.after(m))) return m;
    }
    return Move::null();
}

// The loser's pawns the winner's king should take first (helpmate_impl.hpp).
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
    MoveList moves;
    legal_moves(pos, moves);
    if (moves.empty()) return !(pos.turn() != winner && pos.in_check());
    if (material_cannot_mate(pos, winner)) return true;
    if (depth == 0) return false;
    for (Move m : moves)
        if (!all_lines_end(pos.after(m), winner, depth - 1, nodes, node_cap)) return false;
    return true;
}

int knight_moves(Square a, Square b) noexcept { return knight_distance.d[index(a)][index(b)]; }

void search_table_new_generation() noexcept { table().new_generation(); }

bool search_table_seen(std::uint64_t key, int budget) noexcept { return table().seen(key, budget); }

SearchOutcome search_helpmate(const Position& pos, Color winner, std::uint64_t node_limit, int variant) {
    Guided s(pos, winner, node_limit, variant);
    return s.run(pos);
}

bool gift_plan(const Position& pos, Color winner) noexcept {
    if (pos.pieces(winner) & (pos.pieces(PieceType::queen) | pos.pieces(PieceType::rook))) return false;
    const Bitboard ours = pos.pieces(winner, PieceType::pawn), theirs = pos.pieces(~winner, PieceType::pawn);
    if (!ours) return false;
    const Bitboard blockers = pawns_ahead(pos, winner, theirs);
    for (Square p : ours)
        if (!(blockers & Bitboard::file(file_of(p)))) return false;  // a pawn with a free file
    return !pawns_ahead(pos, ~winner, ours).empty();
}

std::uint8_t gift_files(const Position& pos, Color winner) noexcept {
    if (!gift_plan(pos, winner)) return 0;
    // Only pawns the loser's king can walk up to (king_walk: past the pawns and the squares the
    // winner's pawns attack, as they stand).
    const Square lk = pos.king_square(~winner);
    std::uint8_t files = 0;
    for (Square p : pawns_ahead(pos, ~winner, pos.pieces(winner, PieceType::pawn)))
        if (king_walk(pos, ~winner, Bitboard(p))[index(lk)] < 16) files |= static_cast<std::uint8_t>(1u << file_of(p));
    return files;
}

std::uint64_t guided_plan(const Position& pos, Color winner, int variant) {
    return Guided(pos, winner, 0, variant).plan_key();
}

SearchOutcome search_rewarded(const Position& pos, Color winner, std::uint64_t node_limit, bool gifts, int gift_file) {
    Rewarded s(pos, winner, node_limit, gifts, gift_file);
    return s.run(pos);
}

/// The state of the breadth-first search between calls of ExhaustiveSearch::run: the table of
/// visited positions with their parents, the level being expanded (and how far), the next one.
struct ExhaustiveSearch::State {
    Color winner;
    Visited visited;
    // Blockade proofs that failed, by pawn structure and material: another position with the
    // same signature most likely fails too, so it is not tried again (skipping a proof only
    // costs pruning, never soundness).
    std::unordered_set<std::uint64_t> failed_proofs;
    std::vector<std::pair<Position, std::uint32_t>> frontier, next;
    std::size_t cursor = 0;  // frontier[cursor] is the next position to expand
    bool exhausted = false;

    /// Empty again, keeping the memory of modest tables (large ones are given back).
    void reset() {
        visited.clear();
        failed_proofs.clear();
        for (auto* v : {&frontier, &next}) {
            if (v->capacity() > (1 << 15)) std::vector<std::pair<Position, std::uint32_t>>().swap(*v);
            v->clear();
        }
        cursor = 0;
        exhausted = false;
    }

    /// The moves from the root to visited position `i`.
    [[nodiscard]] std::vector<Move> line_to(std::uint32_t i) const {
        std::vector<Move> line;
        for (; i != 0; i = visited.node(i).parent) line.push_back(visited.node(i).move);
        std::reverse(line.begin(), line.end());
        return line;
    }

    static std::uint64_t signature(const Position& p) noexcept {
        std::uint64_t h = p.pieces(Color::white, PieceType::pawn).bits * 0x9E3779B97F4A7C15ULL ^
                          p.pieces(Color::black, PieceType::pawn).bits * 0xC2B2AE3D27D4EB4FULL;
        for (PieceType t : {PieceType::knight, PieceType::bishop, PieceType::rook, PieceType::queen})
            for (Color c : {Color::white, Color::black})
                h = (h ^ static_cast<std::uint64_t>(p.pieces(c, t).count())) * 0x100000001B3ULL;
        return h;
    }
    bool proven(const Position& p, std::uint64_t& work) {
        if (!few_pieces(p) || !blockade_candidate(p)) return false;
        const std::uint64_t sig = signature(p);
        if (failed_proofs.contains(sig)) return false;
        // A proof costs about as much as generating 16 positions when it fails (the pattern
        // search runs for every square of the king); one that succeeds mostly stops early, at
        // an empty region or a first square, and saves the child's expansion: charge it 4.
        work += 16;
        if (blockade_proof(p, winner)) {
            work -= 12;
            return true;
        }
        failed_proofs.insert(sig);
        return false;
    }
};

namespace {
/// States of finished searches, kept per thread for the next one: the audit analyses positions
/// at many plies, and fresh tables would cost a page fault per 4 KiB each time.
std::vector<std::unique_ptr<ExhaustiveSearch::State>>& spare_states() {
    thread_local std::vector<std::unique_ptr<ExhaustiveSearch::State>> spare;
    return spare;
}
}  // namespace

ExhaustiveSearch::ExhaustiveSearch(const Position& root, Color winner) {
    auto& spare = spare_states();
    if (spare.empty()) {
        state_ = std::make_unique<State>();
    } else {
        state_ = std::move(spare.back());
        spare.pop_back();
        state_->reset();
    }
    state_->winner = winner;
    state_->visited.insert(root.key(), 0, Move::null());
    state_->frontier.emplace_back(root, 0);
}

ExhaustiveSearch::~ExhaustiveSearch() {
    auto& spare = spare_states();
    if (state_ && spare.size() < 2) spare.push_back(std::move(state_));
}

SearchOutcome ExhaustiveSearch::run(std::uint64_t node_limit) {
    State& st = *state_;
    SearchOutcome out;
    MoveList moves;
    while (!st.exhausted) {
        if (st.cursor == st.frontier.size()) {  // the level is done: on to the next
            st.frontier.swap(st.next);
            st.next.clear();
            st.cursor = 0;
            if (st.frontier.empty()) {
                st.exhausted = true;
                break;
            }
            continue;
        }
        // Work is counted in positions generated (every child), like the other searches count
        // positions entered, so that a node limit bounds time alike.
        if (out.nodes >= node_limit) {
            out.kind = SearchOutcome::Kind::limit;
            return out;
        }
        const auto& [pos, id] = st.frontier[st.cursor++];
        legal_moves(pos, moves);
        out.nodes += 1 + moves.size();
        if (moves.empty()) {
            if (pos.turn() == st.winner || !pos.in_check()) continue;  // stalemate, or the winner mated
            out.kind = SearchOutcome::Kind::mate;
            out.line = st.line_to(id);
            return out;
        }
        for (Move m : moves) {
            Position child = pos.after(m);
            if (!st.visited.insert(child.key(), id, m)) continue;
            // A check by the winner is tested for mate at once, a level before its expansion
            // would find it: still a shortest mate, since every shorter line was expanded.
            if (pos.turn() == st.winner && child.in_check()) {
                ++out.nodes;
                if (!has_legal_move(child)) {
                    out.kind = SearchOutcome::Kind::mate;
                    out.line = st.line_to(st.visited.size() - 1);
                    return out;
                }
            }
            if (material_cannot_mate(child, st.winner)) continue;
            if (irreversible(pos, m) && st.proven(child, out.nodes)) continue;
            st.next.emplace_back(child, st.visited.size() - 1);
        }
    }
    out.kind = SearchOutcome::Kind::exhausted;
    return out;
}

SearchOutcome exhaust_helpmate(const Position& root, Color winner, std::uint64_t node_limit) {
    return ExhaustiveSearch(root, winner).run(node_limit);
}

}  // namespace arbiter::detail
