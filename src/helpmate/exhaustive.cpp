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
    struct Queue {
        std::vector<std::pair<Position, std::uint32_t>> entries;
        std::size_t cursor = 0;  // entries[cursor] is the next to expand
        [[nodiscard]] bool empty() const noexcept { return cursor == entries.size(); }
    };
    // queues[k]: positions reached by k irreversible moves, first reached first; every queue
    // above `top` is empty.
    std::vector<Queue> queues;
    std::size_t top = 0;
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
        for (Queue& q : queues) {
            kept += q.entries.capacity();
            if (kept > (1 << 15)) std::vector<std::pair<Position, std::uint32_t>>().swap(q.entries);
            q.entries.clear();
            q.cursor = 0;
        }
        top = 0;
        exhausted = false;
        incomplete = false;
    }

    void push(std::size_t k, const Position& p, std::uint32_t id) {
        if (k >= queues.size()) queues.resize(k + 1);
        queues[k].entries.emplace_back(p, id);
        top = std::max(top, k);
    }

    /// The next position to expand (copied out: pushing may move the queue's storage), or
    /// false when every queue is empty.
    bool pop(std::pair<Position, std::uint32_t>& next, std::size_t& k) {
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
