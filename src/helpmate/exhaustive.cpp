// exhaustive.cpp — the exhaustive search (exhaust_helpmate, ExhaustiveSearch) visits every
// position reachable from the root once each (a table of Zobrist keys; the key covers placement,
// side to move, castling rights and a legal en passant square, which is all that decides the
// future moves), progress first: a position reached by more irreversible moves (captures, pawn
// moves, castling) is expanded before one reached by fewer, and among equals the first reached
// first. It prunes positions where the winner provably cannot mate (material; a blockade after
// an irreversible move). Finding a mate gives a mating line; running out of positions proves
// that no mate exists.
#include <algorithm>
#include <array>
#include <memory>
#include <new>
#include <unordered_set>
#include <utility>
#include <vector>

#include "arbiter/attacks.hpp"
#include "arbiter/movegen.hpp"
#include "impl.hpp"

namespace arbiter::detail {
namespace {

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

/// The positions waiting to be expanded, by progress: queues[k] holds those reached by k
/// irreversible moves (captures, pawn moves), first reached first; the highest non-empty queue
/// is served first (every queue above `top` is empty). The exhaustive search's and the projected
/// game's.
struct ProgressQueues {
    struct Queue {
        std::vector<std::pair<Position, std::uint32_t>> entries;
        std::size_t cursor = 0;  // entries[cursor] is the next to expand
        [[nodiscard]] bool empty() const noexcept { return cursor == entries.size(); }
    };
    std::vector<Queue> queues;
    std::size_t top = 0;

    void push(std::size_t k, const Position& p, std::uint32_t id) {
        if (k >= queues.size()) queues.resize(k + 1);
        queues[k].entries.emplace_back(p, id);
        top = std::max(top, k);
    }
    /// The next position to expand (copied out: pushing may move the queue's storage) and its
    /// queue, or false when every queue is empty.
    bool pop(std::pair<Position, std::uint32_t>& next, std::size_t& k) {
        if (queues.empty()) return false;
        while (queues[top].empty()) {
            queues[top].entries.clear();  // keeps the capacity for the next fill
            queues[top].cursor = 0;
            if (top == 0) return false;
            --top;
        }
        k = top;
        Queue& q = queues[top];
        next = q.entries[q.cursor++];
        // A queue that keeps filling while it is served (the reversible moves stay in it) drops
        // its served half now and then, so that its memory holds what waits, not all it held.
        if (q.cursor >= 4096 && 2 * q.cursor >= q.entries.size()) {
            q.entries.erase(q.entries.begin(), q.entries.begin() + static_cast<std::ptrdiff_t>(q.cursor));
            q.cursor = 0;
        }
        return true;
    }
};

}  // namespace

/// The state of the search between calls of ExhaustiveSearch::run: the table of visited
/// positions with their parents, and the positions still to expand, queued by the number of
/// irreversible moves that reached them.
struct ExhaustiveSearch::State {
    Color winner;
    // Per colour, the squares of the units left out of the key (see ExhaustiveSearch).
    std::array<Bitboard, 2> ignored{};
    bool reduced = false;
    bool proving = false;           // a reduced search that may prove (see ExhaustiveSearch)
    bool incomplete = false;        // ... but met a position that could not stand for all it counts for
    std::array<bool, 2> outside{};  // each side had units outside the game at the root
    Bitboard walls;                 // when proving: the walls that must stand
    Visited visited;
    // Blockade proofs that failed, by pawn structure and material: another position with the
    // same signature most likely fails too, so it is not tried again (skipping a proof only
    // costs pruning, never soundness).
    std::unordered_set<std::uint64_t> failed_proofs;
    ProgressQueues waiting;
    bool exhausted = false;

    /// Empty again, keeping the memory of the first queues up to 2^15 entries in all (what a
    /// modest search needs; the rest is given back), as Visited::clear does.
    void reset() {
        visited.clear();
        if (failed_proofs.bucket_count() > (1 << 12))
            std::unordered_set<std::uint64_t>().swap(failed_proofs);
        else
            failed_proofs.clear();
        std::size_t kept = 0;
        for (ProgressQueues::Queue& q : waiting.queues) {
            kept += q.entries.capacity();
            if (kept > (1 << 15)) std::vector<std::pair<Position, std::uint32_t>>().swap(q.entries);
            q.entries.clear();
            q.cursor = 0;
        }
        waiting.top = 0;
        exhausted = false;
        incomplete = false;
    }

    void push(std::size_t k, const Position& p, std::uint32_t id) { waiting.push(k, p, id); }
    bool pop(std::pair<Position, std::uint32_t>& next, std::size_t& k) { return waiting.pop(next, k); }

    /// The moves from the root to visited position `i`.
    [[nodiscard]] std::vector<Move> line_to(std::uint32_t i) const {
        std::vector<Move> line;
        for (; i != 0; i = visited.node(i).parent) line.push_back(visited.node(i).move);
        std::reverse(line.begin(), line.end());
        return line;
    }

    /// The position's key, less the units on the ignored squares.
    [[nodiscard]] std::uint64_t key_of(const Position& p) const noexcept {
        std::uint64_t k = p.key();
        if (!reduced) return k;
        for (Color c : {Color::white, Color::black})
            for (Square s : p.pieces(c) & ignored[index(c)]) k ^= zobrist.piece_square[index(p.piece_at(s))][index(s)];
        return k;
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
/// at many plies, and fresh tables would cost a page fault per 4 KiB each time. At most two,
/// each emptied when it is put here (State::reset keeps at most 2^17 visited positions' room and
/// 2^15 queued positions'), so that what a thread keeps between searches is bounded whatever
/// the last search visited.
std::vector<std::unique_ptr<ExhaustiveSearch::State>>& spare_states() {
    thread_local std::vector<std::unique_ptr<ExhaustiveSearch::State>> spare;
    return spare;
}
}  // namespace

ExhaustiveSearch::ExhaustiveSearch(const Position& root, Color winner, std::array<Bitboard, 2> ignored,
                                   Bitboard proof_walls) {
    auto& spare = spare_states();
    if (spare.empty()) {
        count_thread_table(sizeof(State));
        state_ = std::make_unique<State>();
    } else {
        state_ = std::move(spare.back());
        spare.pop_back();
    }
    state_->winner = winner;
    state_->ignored = ignored;
    state_->reduced = bool(ignored[0] | ignored[1]);
    state_->proving = state_->reduced && proof_walls.any();
    state_->walls = proof_walls;
    for (Color c : {Color::white, Color::black}) state_->outside[index(c)] = bool(root.pieces(c) & ignored[index(c)]);
    state_->visited.insert(state_->key_of(root), 0, Move::null());
    state_->push(0, root, 0);
}

ExhaustiveSearch::~ExhaustiveSearch() {
    auto& spare = spare_states();
    if (!state_ || spare.size() >= 2) return;
    try {
        state_->reset();
        spare.push_back(std::move(state_));
    } catch (const std::bad_alloc&) {
        // Not kept: the state is freed with the search.
    }
}

SearchOutcome ExhaustiveSearch::run(std::uint64_t node_limit) {
    State& st = *state_;
    SearchOutcome out;
    MoveList moves;
    std::pair<Position, std::uint32_t> entry;
    std::size_t k = 0;
    std::uint32_t k_polls = 0;  // positions popped, to look for an interrupt now and then
    while (!st.exhausted) {
        // Work is counted in positions generated (every child, duplicates included), like the
        // other searches count positions entered, so that a node limit bounds time alike.
        if (out.nodes >= node_limit || ((++k_polls & 0x3ff) == 0 && SearchInterrupt::requested())) {
            out.kind = SearchOutcome::Kind::limit;
            return out;
        }
        if (!st.pop(entry, k)) {
            st.exhausted = true;
            break;
        }
        const auto& [pos, id] = entry;
        legal_moves(pos, moves);
        out.nodes += 1 + moves.size();
        // A position that stands for all that differ from it outside the game only: where the
        // side to move has units outside the game and is not in check, one of them may have a
        // move in another such position, even if none has here.
        // And the walls must stand: a move that moves or takes a unit of theirs ends the proof.
        if (st.proving && !st.incomplete) {
            if (st.outside[index(pos.turn())] && !pos.in_check()) {
                const Bitboard out_there = st.ignored[index(pos.turn())];
                st.incomplete =
                    std::none_of(moves.begin(), moves.end(), [&](Move m) { return out_there.contains(m.from()); });
            }
            st.incomplete = st.incomplete || std::any_of(moves.begin(), moves.end(), [&](Move m) {
                                return st.walls.contains(m.from()) || st.walls.contains(m.to());
                            });
        }
        if (moves.empty()) {
            if (pos.turn() == st.winner || !pos.in_check()) continue;  // stalemate, or the winner mated
            out.kind = SearchOutcome::Kind::mate;
            out.line = st.line_to(id);
            return out;
        }
        for (Move m : moves) {
            Position child = pos.after(m);
            if (!st.visited.insert(st.key_of(child), id, m)) continue;
            // A check by the winner is tested for mate at once, before it waits in a queue.
            if (pos.turn() == st.winner && child.in_check()) {
                ++out.nodes;
                if (!has_legal_move(child)) {
                    out.kind = SearchOutcome::Kind::mate;
                    out.line = st.line_to(st.visited.size() - 1);
                    return out;
                }
            }
            const bool progress = irreversible(pos, m);
            if (!st.proving) {
                if (material_cannot_mate(child, st.winner)) continue;
                if (progress && st.proven(child, out.nodes)) continue;
            }
            st.push(progress ? k + 1 : k, child, st.visited.size() - 1);
        }
    }
    // Without the ignored units the search has visited one position of each kind only: a proof
    // only where each of those stood for all of its kind.
    out.kind =
        st.reduced && (!st.proving || st.incomplete) ? SearchOutcome::Kind::limit : SearchOutcome::Kind::exhausted;
    return out;
}

bool ExhaustiveSearch::finished() const noexcept { return state_->exhausted; }

SearchOutcome exhaust_helpmate(const Position& root, Color winner, std::uint64_t node_limit) {
    return ExhaustiveSearch(root, winner).run(node_limit);
}

}  // namespace arbiter::detail

namespace arbiter::detail {

/// The projected game's state between runs: the positions still to expand (progress first), the
/// keys of every position met (open addressing; key 0 stands for itself as 1) with the move that
/// reached each (Move::null() for a pass) and where from, the walls and who may pass.
struct ProjectedGame::State {
    Color winner;
    Position root;
    std::array<Bitboard, 2> area{};
    Bitboard walls;
    Bitboard still;  // the winner's king where it stands outside the game
    std::array<bool, 2> passes{};
    int outside = 0;
    bool failed = false;
    bool done = false;
    ProgressQueues waiting;  // progress first, as in ExhaustiveSearch
    std::vector<std::uint64_t> table = std::vector<std::uint64_t>(1 << 12, 0);
    struct Step {
        std::uint32_t parent;
        Move move;
    };
    std::vector<Step> steps;
    std::vector<Move> line;

    /// Adds the key; false when it was there.
    bool insert(std::uint64_t key) {
        if (key == 0) key = 1;
        if (2 * (steps.size() + 1) > table.size()) {
            std::vector<std::uint64_t> old(table.size() * 2, 0);
            old.swap(table);
            const std::size_t mask = table.size() - 1;
            for (std::uint64_t k : old)
                if (k != 0) {
                    std::size_t i = (k * 0x9E3779B97F4A7C15ULL >> 20) & mask;
                    while (table[i] != 0) i = (i + 1) & mask;
                    table[i] = k;
                }
        }
        const std::size_t mask = table.size() - 1;
        for (std::size_t i = (key * 0x9E3779B97F4A7C15ULL >> 20) & mask;; i = (i + 1) & mask) {
            if (table[i] == key) return false;
            if (table[i] == 0) {
                table[i] = key;
                return true;
            }
        }
    }
    /// Queues the position (in queue k) unless it was met before; its id, or -1 when it was.
    std::int64_t push(const Position& p, std::uint32_t parent, Move m, std::size_t k) {
        if (!insert(p.key())) return -1;
        steps.push_back(Step{parent, m});
        const auto id = static_cast<std::uint32_t>(steps.size() - 1);
        waiting.push(k, p, id);
        return id;
    }
    bool pop(std::pair<Position, std::uint32_t>& next, std::size_t& k) { return waiting.pop(next, k); }

    /// The real line behind a mate of the projected game (the moves that reach position `id`):
    /// each pass becomes a move of a unit outside the game of the side to move (a quiet one
    /// that gives no check first: outside units can always shuffle in most games), each move of
    /// the game is played as it is. True, with `line` set, when every move is legal on the real
    /// board and the line ends in a mate of the loser there.
    bool lift(std::uint32_t id) {
        std::vector<Move> projected;
        for (std::uint32_t i = id; i != 0; i = steps[i].parent) projected.push_back(steps[i].move);
        std::reverse(projected.begin(), projected.end());
        Position real = root;
        line.clear();
        MoveList moves;
        for (Move m : projected) {
            legal_moves(real, moves);
            if (m == Move::null()) {
                const Bitboard out = area[index(real.turn())] | still;
                Move best = Move::null();
                int best_rank = 4;
                for (Move c : moves) {
                    if (!out.contains(c.from())) continue;
                    const Position after = real.after(c);
                    const int rank = (after.in_check() ? 2 : 0) + (real.is_zeroing(c) ? 1 : 0);
                    if (rank < best_rank) best = c, best_rank = rank;
                }
                if (best == Move::null()) return false;
                m = best;
            } else if (!moves.contains(m)) {
                return false;
            }
            line.push_back(m);
            real = real.after(m);
        }
        return real.turn() != winner && real.in_check() && !has_legal_move(real);
    }
};

ProjectedGame::ProjectedGame(const Position& root, Color winner, const Separation& separation)
    : state_(std::make_unique<State>()) {
    State& st = *state_;
    st.winner = winner;
    st.root = root;
    st.area = separation.area;
    st.walls = separation.walls;
    if (!separation.projects) {
        st.failed = true;
        return;
    }
    // The units outside the game leave the board but for the winner's king; a side that had
    // any (or whose king stands outside) may pass from now on.
    Setup setup = root.to_setup();
    for (Color c : {Color::white, Color::black}) {
        const Bitboard out = root.pieces(c) & separation.area[index(c)];
        if (!out) continue;
        st.passes[index(c)] = true;
        for (Square s : out) {
            if (type_of(root.piece_at(s)) == PieceType::king) {
                st.still = Bitboard(s);
                continue;
            }
            setup.board[index(s)] = Piece::none;
            ++st.outside;
        }
    }
    SetupRepairs repairs;
    repairs.allow_impossible_check = true;
    repairs.allow_too_many_pieces = true;
    repairs.drop_invalid_ep_square = true;
    const auto projected = Position::from_setup(setup, repairs);
    if (!projected) {
        st.failed = true;
        return;
    }
    st.push(*projected, 0, Move::null(), 0);
}

ProjectedGame::~ProjectedGame() = default;

std::uint64_t ProjectedGame::positions() const noexcept { return state_->steps.size(); }
int ProjectedGame::units_outside() const noexcept { return state_->outside; }
std::vector<Move> ProjectedGame::take_line() noexcept { return std::move(state_->line); }

ProjectedGame::Result ProjectedGame::run(std::uint64_t node_limit, std::uint64_t& nodes) {
    State& st = *state_;
    nodes = 0;
    if (st.failed) return Result::failed;
    if (st.done) return Result::proved;
    MoveList moves;
    std::uint32_t polls = 0;
    // A mate of the projected game: a real one where the line lifts, else no proof either way.
    auto mated = [&](std::uint32_t id) {
        st.failed = true;
        return st.lift(id) ? Result::mate : Result::failed;
    };
    std::pair<Position, std::uint32_t> entry;
    std::size_t k = 0;
    for (;;) {
        if (nodes >= node_limit || ((++polls & 0x3ff) == 0 && SearchInterrupt::requested())) return Result::limit;
        if (!st.pop(entry, k)) break;
        const auto& [pos, id] = entry;
        legal_moves(pos, moves);
        const bool check = pos.in_check();
        const bool pass = st.passes[index(pos.turn())] && !check;
        nodes += 1 + (pass ? 1 : 0);
        // A move that moves or takes a unit of the walls: the regions no longer hold.
        for (Move m : moves)
            if (st.walls.contains(m.from()) || st.walls.contains(m.to())) {
                st.failed = true;
                return Result::failed;
            }
        if (moves.empty() && check && pos.turn() != st.winner) return mated(id);
        // The winner's king outside the game stays where it is: its moves are passes.
        for (Move m : moves) {
            if (st.still.contains(m.from())) continue;
            ++nodes;
            const Position child = pos.after(m);
            const std::int64_t child_id = st.push(child, id, m, pos.is_zeroing(m) ? k + 1 : k);
            // A check by the winner is tested for mate at once.
            if (child_id >= 0 && pos.turn() == st.winner && child.in_check() && !has_legal_move(child))
                return mated(static_cast<std::uint32_t>(child_id));
        }
        if (pass) {
            Setup s = pos.to_setup();
            s.turn = ~s.turn;
            s.ep_square = Square::none;
            SetupRepairs repairs;
            repairs.allow_impossible_check = true;
            repairs.allow_too_many_pieces = true;
            const auto passed = Position::from_setup(s, repairs);
            if (!passed) {
                st.failed = true;
                return Result::failed;
            }
            st.push(*passed, id, Move::null(), k);
        }
    }
    st.done = true;
    return Result::proved;
}

}  // namespace arbiter::detail
