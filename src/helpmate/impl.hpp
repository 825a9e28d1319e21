// impl.hpp — the stages of HelpmateAnalyzer (src/helpmate.cpp), private to the library: the
// material rules (material.cpp), the blockade proof (blockade.cpp), what the searches share
// (toolkit.cpp), the guided, reward-extended and exhaustive searches (guided.cpp, rewarded.cpp,
// exhaustive.cpp), the plans (bishops.cpp, release.cpp) and the orientation every question is
// searched in (orientation.cpp). See docs/unwinnability.md.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <optional>
#include <type_traits>
#include <vector>

#include "../movegen_impl.hpp"
#include "arbiter/attacks.hpp"
#include "arbiter/helpmate.hpp"
#include "arbiter/move.hpp"
#include "arbiter/movegen.hpp"
#include "arbiter/position.hpp"
#include "arbiter/unwinnability.hpp"

namespace arbiter::detail {

/// A way to look at the board (orientation.cpp): `colours` reverses the ranks and exchanges
/// White and Black, `files` exchanges files a and h. Each is its own inverse, and the laws of
/// chess are the same under both (the file mirror only without castling rights).
struct Orientation {
    bool colours = false;
    bool files = false;
    [[nodiscard]] bool identity() const noexcept { return !colours && !files; }
};
/// A square, a move and a position seen in `o` (the position through Position::from_setup;
/// nullopt only if that refuses it).
Square oriented(Square s, Orientation o) noexcept;
Move oriented(Move m, Orientation o) noexcept;
std::optional<Position> oriented(const Position& p, Orientation o);
/// The orientation every question is searched in (docs/unwinnability.md, "Orientation"): the
/// side asked becomes Black; without castling rights, of the two file orientations the one
/// whose placement (twelve bitboards, White's pawns first) compares lower.
Orientation canonical_orientation(const Position& p, Color side) noexcept;

/// Sound material rules: the reason `winner` can never mate with the material on the board (the
/// material can only shrink or, through promotion, change, and these rules exclude both), or
/// nullptr when material alone does not decide.
const char* material_cannot_mate(const Position& pos, Color winner) noexcept;

/// The blockade proof (docs/unwinnability.md, "Blockade proof"): true when it shows that
/// `winner` can never mate. `work` bounds the pattern search; running out counts as "no proof".
bool blockade_proof(const Position& pos, Color winner, std::uint32_t work = 20000) noexcept;

/// The units that provably never move and are never taken, whatever is played (the automatic
/// check's gate for closed positions; docs/unwinnability.md): a greatest fixpoint like the
/// blockade proof's first step, with the other units' reach over-approximated per colour and
/// kind rather than per unit; empty unless it holds a white pawn and the black pawn right in
/// front of it (so that what it answers stays true for the rest of a game). A few nanoseconds
/// without such a pair on the board, about a microsecond with.
Bitboard locked_units(const Position& pos) noexcept;

/// The walls of the separation plan: the pawns blocked head-on and the units locked for ever
/// (locked_units), and with `shut_in` the pieces that cannot move while those stand; empty where
/// no pawns stand head-on.
Bitboard separation_walls(const Position& pos, bool shut_in = true) noexcept;

/// The separation plan (docs/unwinnability.md, "Separated games"): per colour, the squares
/// where units stand that can never meet the loser's king's game while the walls
/// (separation_walls) stand: each other unit stands and attacks within a region, and units whose
/// regions or attacks touch are in one game; the squares returned are the regions of the units
/// outside the game of `winner`'s opponent's king. Empty for both colours where no pawns stand
/// head-on, castling rights remain or every unit is in that game. A heuristic for the searches
/// (their mating lines are real whatever it says). With `proof`, empty as well unless both kings
/// are in the game and no unit outside it is a pawn, could take a unit of the walls or could be
/// taken by a pawn of the walls: then, as long as the walls stand, no unit outside the game can
/// take, block, pin, check or be taken by a unit in it, and the moves in the game do not depend
/// on the units outside (ExhaustiveSearch relies on this for its proof, and checks that no move
/// it meets touches the walls).
std::array<Bitboard, 2> separated_area(const Position& pos, Color winner, bool proof = false) noexcept;

/// The separation plan worked out once: `area` as separated_area(pos, winner), the `walls`
/// (separation_walls), and whether the area serves a proof (`proves`: what
/// separated_area(pos, winner, true) would return it for).
/// `projects`: the area serves the projected game (ProjectedGame): no unit outside the game
/// could take a unit of the walls, be taken by a pawn of the walls or guard a wall that a unit
/// in the game could take (a king of the winner and pawns may stand outside), and the root has
/// no legal en passant capture.
struct Separation {
    std::array<Bitboard, 2> area{};
    Bitboard walls;
    bool proves = false;
    bool projects = false;
};
/// Without `shut_in` the pieces shut in by the walls are not walls but units like the others
/// (a unit of the game may take one: the projected game asks for this).
Separation separate(const Position& pos, Color winner, bool shut_in = true) noexcept;

/// What the fast check (fast.cpp) proved: `proof` is MateProof::none when it proved nothing.
struct FastProof {
    MateProof proof = MateProof::none;
    const char* reason = "not proved by the fast check";
    std::uint64_t nodes = 0;      ///< positions searched by the forced lines and the small search
    bool lines_tried = false;     ///< the forced lines were looked for (and did not prove it)
    bool blockade_tried = false;  ///< the blockade proof was tried (and failed)
};

/// The sound fast check (FastUnwinnability): a proof that `winner` can never mate, from the
/// static stages behind cheap gates, or none. About a microsecond on real positions. Without
/// `searches`, the small exhaustive searches of closed positions are left out (the analyzer runs
/// its own exhaustive search later).
FastProof fast_unwinnable(const Position& pos, Color winner, bool searches = true);

/// Cheap test: is the blockade proof worth trying here (head-on blocked pawns)?
bool blockade_candidate(const Position& pos) noexcept;

/// The loser's pawns the winner's king should take first: when the winner has no queen or rook
/// and every one of its pawns has a loser's pawn ahead on its file, those pawns, less the ones
/// another loser's pawn defends. Empty otherwise. (The plan of guided variants 2, 3, 6 and 7.)
Bitboard pawns_to_clear(const Position& pos, Color winner);

/// Every square side `by` attacks with occupancy `occ` (the union of what attacked_by tests
/// square by square, computed once for many squares).
inline Bitboard attack_map(const Position& pos, Color by, Bitboard occ) noexcept {
    Bitboard out;
    for (Square s : pos.pieces(by)) {
        const PieceType t = type_of(pos.piece_at(s));
        out |= t == PieceType::pawn ? pawn_attacks(by, s) : attacks(t, s, occ);
    }
    return out;
}

/// What side `by`'s sliders that see `from` (with occupancy `occ`) attack with occupancy
/// `occ_after`: with `from` left empty there, the lines a move opens through it.
inline Bitboard lines_through(const Position& pos, Color by, Square from, Bitboard occ, Bitboard occ_after) noexcept {
    Bitboard out;
    const Bitboard queens = pos.pieces(by, PieceType::queen);
    for (Square s : bishop_attacks(from, occ) & (pos.pieces(by, PieceType::bishop) | queens))
        out |= bishop_attacks(s, occ_after);
    for (Square s : rook_attacks(from, occ) & (pos.pieces(by, PieceType::rook) | queens))
        out |= rook_attacks(s, occ_after);
    return out;
}

/// Tables of king steps on an empty board (small enough to stay in the cache).
struct KingSteps {
    std::array<std::array<std::uint8_t, 64>, 64> distance{};  // from a to b
    std::array<std::uint64_t, 64> two{};                      // the squares within two steps
    constexpr KingSteps() noexcept {
        for (int a = 0; a < 64; ++a) {
            for (int b = 0; b < 64; ++b) {
                const int df = (a & 7) - (b & 7), dr = (a >> 3) - (b >> 3);
                const int d = std::max(df < 0 ? -df : df, dr < 0 ? -dr : dr);
                distance[a][b] = static_cast<std::uint8_t>(d);
                if (d >= 1 && d <= 2) two[a] |= std::uint64_t{1} << b;
            }
        }
    }
};
inline constexpr KingSteps king_steps{};

/// The squares within two king steps of `s` (`s` left out).
inline Bitboard two_steps(Square s) noexcept { return Bitboard(king_steps.two[index(s)]); }

/// King steps from a to b on an empty board.
inline int chebyshev(Square a, Square b) noexcept { return king_steps.distance[index(a)][index(b)]; }

/// Every square a piece of type t attacks from some square of `at`, with `walls` as the only
/// occupied squares (set-wise, all squares at once; a king's steps too).
Bitboard attacks_of_set(PieceType t, Bitboard at, Bitboard walls) noexcept;

/// Squares attacked by pawns of colour c standing on the squares of `at` (set-wise).
Bitboard pawn_attacks_of_set(Color c, Bitboard at) noexcept;

/// King-walk distances to `targets` by steps that avoid `walls` (255 where no walk leads).
std::array<std::uint8_t, 64> walk_to(Bitboard targets, Bitboard walls) noexcept;

/// The squares a king of colour `king` cannot use for long: the pawns, and the squares the other
/// side's pawns attack (the pawn structure changes slowly, so this is the king's map).
Bitboard king_walls(const Position& pos, Color king) noexcept;

/// King-walk distances of `king`'s king to a set of squares, round its king_walls; squares cut
/// off get 16 plus the plain distance.
std::array<std::uint8_t, 64> king_walk(const Position& pos, Color king, Bitboard targets) noexcept;

/// A mate in one by `winner` (to move in `pos`, whose legal moves are `moves`), tried among the
/// moves that give check only, which is cheap: the move, or Move::null(). `nodes` counts the
/// positions tried.
Move checking_mate_in_one(const Position& pos, const MoveList& moves, Color winner, std::uint64_t& nodes) noexcept;

/// Sorts the few ranked moves of a position, keeping the generation order among equals (as
/// std::stable_sort would, without its temporary buffer: the searches sort at every node).
template <typename T, typename Less>
void stable_insertion_sort(T* a, std::size_t n, Less less) noexcept {
    for (std::size_t i = 1; i < n; ++i) {
        const T x = a[i];
        std::size_t j = i;
        for (; j > 0 && less(x, a[j - 1]); --j) a[j] = a[j - 1];
        a[j] = x;
    }
}

/// Bishop moves from a to b on an empty board: 0, 1 on a common diagonal, 2 on the same colour,
/// 8 (never) on the other colour.
inline int bishop_distance(Square a, Square b) noexcept {
    if (a == b) return 0;
    const int df = file_of(a) - file_of(b), dr = rank_of(a) - rank_of(b);
    if (df == dr || df == -dr) return 1;
    return (df + dr) % 2 == 0 ? 2 : 8;
}

/// Knight moves from a to b on an empty board.
int knight_moves(Square a, Square b) noexcept;
/// The same from every square to `b` (indexed by the other square).
const std::uint8_t* knight_moves_to(Square b) noexcept;

/// The analysis's tables kept per thread (the transposition table, the ranked-move stack and
/// cache below, the recycled exhaustive-search states, the answers by position of helpmate.cpp)
/// are set up on the first search of a thread, never on a thread that does not search, and freed
/// when the thread exits. Each is counted here when it is set up, at its size then
/// (analysis_thread_memory()).
void count_thread_table(std::size_t bytes) noexcept;
/// What count_thread_table counted on this thread.
std::size_t thread_table_bytes() noexcept;

/// An array of n zero-filled T (a type whose all-zero bytes are its initial state) from calloc:
/// a large one comes as fresh pages the system zeroes only when first touched, so that a
/// thread's first search does not pay for clearing tables it will touch only a little of.
struct FreeDeleter {
    void operator()(void* p) const noexcept { std::free(p); }
};
template <class T>
std::unique_ptr<T[], FreeDeleter> zeroed_array(std::size_t n) {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
    void* p = std::calloc(n, sizeof(T));
    if (!p) throw std::bad_alloc();
    return std::unique_ptr<T[], FreeDeleter>(static_cast<T*>(p));
}

/// The depth-first searches' transposition table (per thread, shared by the searches, which run
/// one at a time), never cleared: a generation tag marks live entries, and a new generation
/// forgets every entry. Defined here so that its probes inline.
class SearchTable {
public:
    static constexpr std::size_t size = std::size_t{1} << 16;
    /// The memory of the entries (1 MiB).
    static constexpr std::size_t bytes() noexcept { return size * sizeof(Entry); }
    void new_generation() noexcept {
        if (++generation_ == 0) {
            for (std::size_t i = 0; i < size; ++i) entries_[i].generation = 0;
            generation_ = 1;
        }
    }
    /// Confines the searches that follow to the first entries of the table, about four for each
    /// position the search may visit (4,096 at least): the many small searches (a flag fall, a
    /// live ply) touch a small part of it, which stays in the processor's cache from one search
    /// to the next, instead of a cold line of the whole table at every position.
    void focus(std::uint64_t node_limit) noexcept {
        const std::uint64_t want = 4 * std::min<std::uint64_t>(node_limit, size);
        mask_ = std::clamp<std::uint64_t>(std::bit_ceil(want), min_focus, size) - 1;
    }
    /// Starts loading the entry for `key` into the cache (seen() follows soon).
    void prefetch(std::uint64_t key) const noexcept { __builtin_prefetch(&entries_[key & mask_]); }
    /// True when `key` was already searched with at least `budget`; otherwise records it.
    bool seen(std::uint64_t key, int budget) noexcept {
        Entry& e = entries_[key & mask_];
        if (e.generation == generation_ && e.key == key && e.budget >= budget) return true;
        e = Entry{key, static_cast<std::int16_t>(budget), generation_};
        return false;
    }

private:
    struct Entry {
        std::uint64_t key;
        std::int16_t budget;
        std::uint16_t generation;
    };
    static constexpr std::size_t min_focus = std::size_t{1} << 12;
    std::unique_ptr<Entry[], FreeDeleter> entries_ = zeroed_array<Entry>(size);  // generation 0 is never live
    std::uint64_t mask_ = size - 1;
    std::uint16_t generation_ = 0;
};
SearchTable& search_table() noexcept;

/// A move and its rank in a search (lower is better).
struct RankedMove {
    Move move;
    int score;
};
/// The ranked moves of the nodes of the depth-first searches, per thread: [0, top) is in use.
/// The searches share it (one may run inside another: each leaves it as it found it); it is
/// grown but never shrunk nor cleared, since setting entries up would cost more than the
/// ranking itself.
struct RankedStack {
    std::vector<RankedMove> moves;
    std::size_t top = 0;
};
RankedStack& ranked_stack() noexcept;

/// Where the depth-first searches find the ranking of a position they expanded before in the
/// same search (each iteration re-expands what the last one did), per thread: each entry
/// points into the search's stack of ranked moves (the RankedStack of the discrepancy searches,
/// the reward-extended search's own), which keeps those rankings until the search ends.
/// Entries of other searches (another `stamp`) are stale.
struct RankedCache {
    struct Entry {
        std::uint64_t key = 0;
        std::uint32_t stamp = 0;
        std::uint32_t offset = 0;   // in RankedStack::moves
        std::uint16_t moves = 0;    // how many
        std::uint16_t ordered = 0;  // how many of the first are in their final order
    };
    static constexpr std::size_t size = std::size_t{1} << 14;
    /// Moves a discrepancy search may keep on the stack for the cache.
    static constexpr std::size_t kept = std::size_t{1} << 16;
    std::unique_ptr<Entry[], FreeDeleter> entries = zeroed_array<Entry>(size);  // stamp 0 is never live
    std::uint32_t stamp = 0;
    /// A new stamp for a new search.
    std::uint32_t new_search() noexcept {
        if (++stamp == 0) {
            std::fill(entries.get(), entries.get() + size, Entry{});
            stamp = 1;
        }
        return stamp;
    }
    [[nodiscard]] Entry& slot(std::uint64_t key) noexcept { return entries[key & (size - 1)]; }
    /// The entry of `key` in the search stamped `search`, or nullptr.
    [[nodiscard]] Entry* find(std::uint64_t key, std::uint32_t search) noexcept {
        Entry& e = slot(key);
        return e.stamp == search && e.key == key ? &e : nullptr;
    }
    /// Records the ranking of `key` (`moves` of them at `offset`, the first `ordered` in order).
    Entry& keep(std::uint64_t key, std::uint32_t search, std::size_t offset, std::size_t moves,
                std::size_t ordered) noexcept {
        return slot(key) = Entry{key, search, static_cast<std::uint32_t>(offset), static_cast<std::uint16_t>(moves),
                                 static_cast<std::uint16_t>(ordered)};
    }
};
RankedCache& ranked_cache() noexcept;

/// How a node of the depth-first searches goes on: its legal moves (`open`), or the end of the
/// line here, a mate by `winner` or not.
enum class NodeStart : std::uint8_t { open, mate, dead };
inline NodeStart start_node(const Position& pos, Color winner, MoveList& moves) noexcept {
    legal_moves(pos, moves);
    if (moves.empty()) return pos.turn() != winner && pos.in_check() ? NodeStart::mate : NodeStart::dead;
    return material_cannot_mate(pos, winner) ? NodeStart::dead : NodeStart::open;
}

/// Outcome of a search for a mate by one side.
struct SearchOutcome {
    enum class Kind : std::uint8_t {
        mate,       ///< `line` ends in mate by the winner
        exhausted,  ///< every reachable position was visited (or pruned by a proof): no mate
        limit,      ///< the node limit was reached first
    };
    Kind kind = Kind::limit;
    std::vector<Move> line;
    std::uint64_t nodes = 0;
};

/// The skeleton of the limited discrepancy searches (the guided search, the bishop corner
/// search): iterations with a growing discrepancy budget and ply cap; at each node, a mate in
/// one is tried among the winner's checks, the moves are ranked by `Derived::rank_moves(pos,
/// moves, out)` (which fills `out` and returns the count; lower scores first), the best is free
/// and the others cost 1, 2 or 3 the further down the ranking they are. A transposition table
/// cuts positions already searched with as much budget. Finds mates only.
template <typename Derived>
class DiscrepancySearch {
public:
    SearchOutcome run(const Position& root) {
        // The stack of ranked moves is left as it was found, whatever happens.
        struct Restore {
            RankedStack& stack;
            std::size_t top;
            ~Restore() { stack.top = top; }
        } restore{ranked_, ranked_.top};
        stamp_ = cache_.new_search();
        table_.focus(limit_);
        first_kept_ = ranked_.top;
        line_.reserve(96);  // (the first iteration's ply cap, and then some: one allocation a search)
        SearchOutcome out;
        for (int budget = 0; budget < 64; ++budget) {
            table_.new_generation();
            line_.clear();
            ply_ = 0;
            max_ply_ = 80 + 8 * budget;
            budget_ = budget;
            if (dfs(root, budget) == Reached::mate) {
                out.kind = SearchOutcome::Kind::mate;
                out.line = std::move(line_);
                break;
            }
            if (aborted_) break;
        }
        out.nodes = nodes_;
        return out;
    }

protected:
    using Ranked = RankedMove;
    DiscrepancySearch(Color winner, std::uint64_t node_limit) noexcept
        : winner_(winner), loser_(~winner), limit_(node_limit), ranked_(ranked_stack()), cache_(ranked_cache()) {}

    Color winner_, loser_;
    std::uint64_t limit_;
    std::uint64_t nodes_ = 0;
    bool aborted_ = false;
    int ply_ = 0;
    int max_ply_ = 0;
    int budget_ = 0;  // of the iteration
    std::vector<Move> line_;

private:
    /// What a move led to: a mate, nothing (searched), or a dead end at once (no move, or
    /// material that cannot mate), which the ranking below does not count: the next move takes
    /// its place at the same cost. (Moves that close a cycle are not skipped so: the greedy
    /// lines would wander.)
    enum class Reached : std::uint8_t { nothing, mate, dead_end };

    Reached dfs(const Position& pos, int budget) {
        if (++nodes_ >= limit_ || ((nodes_ & 0xfff) == 0 && SearchInterrupt::requested())) {
            limit_ = nodes_;  // an interrupt ends the whole search as its limit does
            aborted_ = true;
            return Reached::nothing;
        }
        const std::uint64_t key = pos.key();
        table_.prefetch(key);
        // A position expanded before in this search had moves, material to mate and no mate in
        // one; its ranking is where it was left.
        // (Nothing is cached before the second iteration: the first one's line seldom repeats a
        // position, and the lookup would cost a cache miss at every node.)
        RankedCache::Entry* entry = budget_ > 0 ? cache_.find(key, stamp_) : nullptr;
        const bool cached = entry != nullptr;
        std::size_t base, n;
        if (cached) {
            if (ply_ >= max_ply_ || table_.seen(key, budget)) return Reached::nothing;
            base = entry->offset;
            n = entry->moves;
        } else {
            MoveList moves;
            if (const NodeStart start = start_node(pos, winner_, moves); start != NodeStart::open)
                return start == NodeStart::mate ? Reached::mate : Reached::dead_end;
            // (A position searched before with as much budget had no mate in one either; at the
            // horizon a mate in one is still looked for.)
            if (ply_ < max_ply_ && table_.seen(key, budget)) return Reached::nothing;
            if (pos.turn() == winner_) {
                if (const Move m = checking_mate_in_one(pos, moves, winner_, nodes_); m != Move::null()) {
                    line_.push_back(m);
                    return Reached::mate;
                }
            }
            if (ply_ >= max_ply_) return Reached::nothing;
            // The ranked moves of every node on the line share one stack (see ranked_stack),
            // and stay there while the search may keep them.
            base = ranked_.top;
            if (ranked_.moves.size() < base + moves.size()) ranked_.moves.resize(2 * (base + moves.size()));
            ranked_.top = base + moves.size();
            n = static_cast<Derived*>(this)->rank_moves(pos, moves, ranked_.moves.data() + base);
            if (base + n - first_kept_ <= RankedCache::kept) entry = &cache_.keep(key, stamp_, base, n, 0);
        }
        const bool keep = !cached && entry != nullptr;  // the ranking stays on the stack for the cache
        // Only as many moves as the budget can afford are put in order (more when some are
        // dead ends).
        std::size_t ordered = cached ? entry->ordered : 0;
        auto order = [&](std::size_t affordable) {
            Ranked* const ranked = ranked_.moves.data() + base;
            if (affordable < n)
                select_first(ranked, n, ordered, affordable);
            else
                stable_insertion_sort(ranked + ordered, n - ordered,
                                      [](const Ranked& a, const Ranked& b) { return a.score < b.score; });
            ordered = std::min(affordable, n);
            if (entry) entry->ordered = static_cast<std::uint16_t>(ordered);
        };
        Reached found = Reached::nothing;
        for (std::size_t i = 0, rank = 0; i < n; ++i) {
            const int cost = rank == 0 ? 0 : rank < 3 ? 1 : rank < 8 ? 2 : 3;
            if (cost > budget) break;
            if (i >= ordered) order(budget == 0 ? i + 1 : budget == 1 ? i + 3 - rank : budget == 2 ? i + 8 - rank : n);
            const Move m = ranked_.moves[base + i].move;  // (the stack may have grown meanwhile)
            const Position child = pos.after(m);
            line_.push_back(m);
            ++ply_;
            const Reached r = dfs(child, budget - cost);
            --ply_;
            if (r == Reached::mate) {
                found = r;
                break;
            }
            line_.pop_back();
            if (aborted_) break;
            rank += r != Reached::dead_end;
        }
        if (!cached && !keep) ranked_.top = base;
        return found;
    }
    /// Puts the first `k` of the order by score (generation order among equals) in place, in
    /// that order, for about k*n comparisons instead of the n*n/4 of stable_insertion_sort: each
    /// is the first of the least score (a pass for the least score, which compiles without
    /// branches, then a scan for its first holder).
    /// (The first `from` are in place already, the others in their original relative order.)
    static void select_first(Ranked* a, std::size_t n, std::size_t from, std::size_t k) noexcept {
        for (std::size_t i = from; i < k && i + 1 < n; ++i) {
            int least = a[i].score;
            for (std::size_t j = i + 1; j < n; ++j) least = std::min(least, a[j].score);
            std::size_t best = i;
            while (a[best].score != least) ++best;
            const Ranked x = a[best];
            for (std::size_t j = best; j > i; --j) a[j] = a[j - 1];
            a[i] = x;
        }
    }
    RankedStack& ranked_;
    RankedCache& cache_;
    SearchTable& table_ = search_table();
    std::uint32_t stamp_ = 0;
    std::size_t first_kept_ = 0;  // where this search's part of the stack begins
};

/// Forced-line check: true when every line from `pos` reaches, within `depth` plies, a position
/// where `winner` provably cannot mate (game over or material) without passing a mate by
/// `winner`. Gives up (false) at the first line still open at the horizon, or when `nodes`
/// passes `node_cap`.
bool all_lines_end(const Position& pos, Color winner, int depth, std::uint64_t& nodes, std::uint64_t node_cap) noexcept;

/// The guided search for a mate by `winner` (limited discrepancy search over moves ranked by how
/// they approach a mating pattern). Finds mates only: never answers `exhausted`. Visits at most
/// `node_limit` positions. `variant` 0, 1, ... varies the plan: whether blocked pawns count as
/// mating material, and which mating corner is tried when the winner lacks material; 2 and 3
/// (and 6 and 7) send the winner's king first to take the pawns_to_clear, 6 and 7 eagerly (each
/// step towards them outweighs the king's pressure on the loser's king). Adding 8 (variant 9)
/// follows the lever plan where it applies: a piece given on a square diagonally in front of a
/// blocked pawn of the winner, taken by a loser's pawn that the blocked pawn takes in turn.
SearchOutcome search_helpmate(const Position& pos, Color winner, std::uint64_t node_limit, int variant = 0);

/// A key of the plan that search_helpmate follows in `variant`: two variants with equal keys
/// search alike (the plan varies only in what applies to the position).
std::uint64_t guided_plan(const Position& pos, Color winner, int variant);

/// The reward-extended search for a mate by `winner` (progress moves do not use up depth;
/// iterations of small node caps and growing horizons). Finds mates only.
/// With `gifts` it follows the gift plan instead (see gift_plan). With a `gift_file` (0-7) it
/// follows the targeted gift plan: the gift is the winner's pawn of that file (see gift_files).
SearchOutcome search_rewarded(const Position& pos, Color winner, std::uint64_t node_limit, bool gifts = false,
                              int gift_file = -1);

/// The files of the targeted gift plan, a bit per file (a = bit 0): those where a winner's pawn
/// stands in front of a loser's pawn. Zero unless gift_plan holds.
std::uint8_t gift_files(const Position& pos, Color winner) noexcept;

/// True when the gift plan may be the way to a mate: `winner` has no queen or rook, has pawns
/// and every one of them has a loser's pawn ahead on its file, and some of its pawns stand in
/// front of the loser's pawns. The loser's king then takes those pawns, the loser's pawns run,
/// promote and give themselves up to the winner's pawns, which get a file to promote on.
bool gift_plan(const Position& pos, Color winner) noexcept;

/// True when the corner plan of bishops of one colour applies (helpmate/bishops.cpp): the
/// winner's only mobile material is bishops of one colour (no queen or rook, its pawns blocked
/// head-on, its knights shut in by its own units) and the loser has a unit that could block a
/// square of the other colour next to the corner.
bool bishop_corner_plan(const Position& pos, Color winner) noexcept;

/// The search of that plan: the loser's king walks to a corner of the bishops' colour (variant
/// 0: the better placed one, 1: the other) while the bishops keep off its way, the loser's
/// pieces come to the corner's two neighbours of the other colour, and a bishop checks along
/// the long diagonal. Finds mates only.
SearchOutcome search_bishop_corner(const Position& pos, Color winner, std::uint64_t node_limit, int variant = 0);
/// The release plan (helpmate/release.cpp): the winner's pieces that shut its own king in. Its
/// king's region (king steps around the pawns, the squares the loser's pawns attack and its own
/// pieces) has at most a few squares, and each piece returned stands next to it, has no move,
/// lets the king out if taken, and the loser's king can walk up to it. Empty when the winner
/// has a queen or rook or its king is not shut in.
Bitboard jailers(const Position& pos, Color winner) noexcept;

/// The release plan: the loser's king walks up to one of the `jailers` and takes it (breadth
/// first over the winner's moves and the loser's king steps that do not lead away), then the
/// reward-extended and guided searches look for the mate from there. Finds mates only.
SearchOutcome search_release(const Position& pos, Color winner, std::uint64_t node_limit);

/// The projected game (docs/unwinnability.md, "The projected game"): a proof over regions that
/// `winner` can never mate, for positions split by walls (separate()). The units outside the
/// loser's king's game are taken off the board (the winner's king, where it is outside, stays
/// where it is: nothing in the game can ever reach it or its region), and each side that had
/// units outside may *pass* instead of moving, whenever it is not in check: the moves those units
/// could make. Every real line that keeps the walls standing maps to a line of this smaller game
/// (its moves outside the game to passes), so when an exhaustive search of the projected game
/// (progress first, each position once: a table of keys) meets no mate of the loser and no move
/// that moves or takes a unit of the walls, no real line can mate. Meeting either, it stops
/// without a proof (`failed`): the projected game allows more than the real one, so its mates
/// prove nothing; but where its line *lifts* (each pass replaced by a legal move of a unit
/// outside the game, each move of the game legal on the real board, the last position a real
/// mate), the lifted line is a mating line (`mate`, take_line()). Resumable with further
/// budgets; work is counted as in ExhaustiveSearch.
class ProjectedGame {
public:
    enum class Result : std::uint8_t { proved, mate, failed, limit };
    ProjectedGame(const Position& root, Color winner, const Separation& separation);
    ~ProjectedGame();
    ProjectedGame(const ProjectedGame&) = delete;
    ProjectedGame& operator=(const ProjectedGame&) = delete;
    /// Goes on with `node_limit` more work; `nodes` gets the work of this call.
    Result run(std::uint64_t node_limit, std::uint64_t& nodes);
    /// Positions of the projected game visited so far, and the units taken off the board.
    [[nodiscard]] std::uint64_t positions() const noexcept;
    [[nodiscard]] int units_outside() const noexcept;
    /// After `mate`: the lifted mating line (moved out).
    std::vector<Move> take_line() noexcept;

    struct State;

private:
    std::unique_ptr<State> state_;
};

/// The exhaustive search: a mating line, or `exhausted` once every reachable position has been
/// visited (pruning positions proven unwinnable), or `limit`. Progress first: positions reached
/// by more irreversible moves are expanded before those reached by fewer, first reached first
/// among equals (breadth first within). Work is counted in positions generated.
SearchOutcome exhaust_helpmate(const Position& pos, Color winner, std::uint64_t node_limit);

/// The same search, resumable: each run() goes on from where the last one stopped, with a new
/// budget (the outcome's `nodes` counts the work of that call only). After a mate the search
/// must not be run again; after `exhausted` it answers `exhausted` at once.
///
/// With `ignored` squares (per colour; see separated_area) the units standing on them are left
/// out of the key, so that positions that differ only in those units count as one: their moves
/// still serve as tempo moves, but the search stays in the part of the game that matters. Its
/// mating lines are real lines. Running out proves nothing (it answers `limit`, and finished()
/// turns true) unless `proof_walls` are given, the area being separated_area(root, winner, true)
/// and the walls separation_walls(root): then the search prunes nothing (the proofs it prunes
/// with speak of one position, not of all that count as one), and it answers `exhausted` unless
/// some position it expanded had a legal move that moves or takes a unit of the walls, or had
/// units outside the game for the side to move (not in check) but no legal move of theirs,
/// where another position counted as one could have had one.
class ExhaustiveSearch {
public:
    ExhaustiveSearch(const Position& root, Color winner, std::array<Bitboard, 2> ignored = {},
                     Bitboard proof_walls = {});
    ~ExhaustiveSearch();
    ExhaustiveSearch(const ExhaustiveSearch&) = delete;
    ExhaustiveSearch& operator=(const ExhaustiveSearch&) = delete;
    SearchOutcome run(std::uint64_t node_limit);
    /// True when every position (of each kind, with ignored squares) has been visited.
    [[nodiscard]] bool finished() const noexcept;

    struct State;

private:
    std::unique_ptr<State> state_;
};

}  // namespace arbiter::detail
