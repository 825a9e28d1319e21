// rewarded.cpp — the reward-extended search (search_rewarded) with its gift plans: progress
// moves do not use up depth, in iterations of small node caps and growing horizons.
#include <algorithm>
#include <array>
#include <vector>

#include "arbiter/attacks.hpp"
#include "arbiter/movegen.hpp"
#include "impl.hpp"

namespace arbiter::detail {
namespace {

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
    std::vector<Ranked> ranked_;  // the ranked moves of the nodes on the line, and of those cached
    std::size_t top_ = 0;         // ... [0, top_) in use
    /// How many ranked moves the cache may keep (about 3 MB).
    static constexpr std::size_t kept_moves = std::size_t{1} << 18;
    RankedCache& cache_ = ranked_cache();
    SearchTable& table_ = search_table();
    std::uint32_t stamp_ = 0;
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
        if (pt == PieceType::knight) return knight_moves(m.to(), t) < knight_moves(m.from(), t);
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
    if ((nodes_ & 0xfff) == 0 && SearchInterrupt::requested()) limit_ = nodes_;  // stop as at the limit
    if (nodes_ >= limit_ || ++iteration_nodes_ >= iteration_cap_) {
        stop_ = true;
        return false;
    }
    const std::uint64_t key = pos.key();
    table_.prefetch(key);
    // A position expanded before in this search (every iteration re-expands the tree of the
    // last) had moves and material to mate; its ranking is where it was left (see RankedCache).
    const RankedCache::Entry* const entry = cache_.find(key, stamp_);
    bool keep = false;  // the ranking stays in ranked_ for the cache
    std::size_t base = entry ? entry->offset : top_, n = entry ? entry->moves : 0;
    if (!entry) {
        MoveList moves;
        if (const NodeStart start = start_node(pos, winner_, moves); start != NodeStart::open)
            return start == NodeStart::mate;
        if (depth <= 0 || ply_ >= 400 || table_.seen(key, depth)) return false;
        // The ranked moves of the nodes on the line share one stack, where those the cache
        // points to stay.
        if (ranked_.size() < base + moves.size()) ranked_.resize(2 * (base + moves.size()));
        top_ = base + moves.size();
        Ranked* const ranked = ranked_.data() + base;
        for (Move m : moves) ranked[n++] = rank(pos, m);
        stable_insertion_sort(ranked, n, [](const Ranked& a, const Ranked& b) {
            return a.kind != b.kind ? a.kind < b.kind : a.order < b.order;
        });
        keep = base + n <= kept_moves;
        if (keep) cache_.keep(key, stamp_, base, n, n);
    } else if (depth <= 0 || ply_ >= 400 || table_.seen(key, depth)) {
        return false;
    }
    bool found = false;
    for (std::size_t i = 0; i < n; ++i) {
        const Ranked r = ranked_[base + i];
        int cost = r.kind == progress ? 0 : r.kind == normal ? (after_progress ? 0 : 1) : 3;
        if (ply_ > 300 && r.kind == progress) cost = 1;  // no free depth for ever
        const Position child = pos.after(r.move);
        line_.push_back(r.move);
        ++ply_;
        found = dfs(child, depth - cost, r.kind == progress);
        --ply_;
        if (found) break;
        line_.pop_back();
        if (stop_) break;
    }
    if (!entry && !keep) top_ = base;
    return found;
}

SearchOutcome Rewarded::run(const Position& root) {
    stamp_ = cache_.new_search();
    table_.focus(limit_);
    SearchOutcome out;
    for (int depth = 1; nodes_ < limit_ && depth < 1000; ++depth) {
        table_.new_generation();
        line_.clear();
        ply_ = 0;
        stop_ = false;
        iteration_nodes_ = 0;
        iteration_cap_ = 60000;
        if (dfs(root, depth, false)) {
            out.kind = SearchOutcome::Kind::mate;
            out.line = std::move(line_);
            break;
        }
    }
    out.nodes = nodes_;
    return out;
}

}  // namespace

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

SearchOutcome search_rewarded(const Position& pos, Color winner, std::uint64_t node_limit, bool gifts, int gift_file) {
    Rewarded s(pos, winner, node_limit, gifts, gift_file);
    return s.run(pos);
}

}  // namespace arbiter::detail
