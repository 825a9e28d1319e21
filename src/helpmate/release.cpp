// release.cpp — the release plan: the winner's king is shut in by a piece of its own
// that cannot move, and the loser's king comes to take that piece and open the door.
//
// A typical case: the winner's king on a8 behind its pawn b7, the squares a7 and c7 attacked by
// the loser's pawns, and its own bishop on c8 hemmed in by its pawns b7 and d7. Nothing the
// winner does can ever let its king out; only the loser's king can, by walking up to c8 and
// taking the bishop at a moment when the winner's king does not defend it. The searches of
// guided.cpp and rewarded.cpp never send the loser's king to take the winner's material (a capture by
// the loser ranks last), so they cannot find such mates however long they run.
//
// The plan has two phases. The first is a breadth-first search for the capture: the winner's
// king moves freely and its other pieces only wait (two reversible moves of theirs per position,
// or an irreversible one where there is no reversible one); the loser moves only its king,
// towards the nearest door piece (a king walk around the pawns and the squares the winner's
// pawns attack), with at most two steps per line that keep the distance (to get the tempo
// right), or, once next to the piece, any other piece move that waits; a line ends when the
// loser's king takes the piece. The second phase runs, from each position so reached in turn,
// the reward-extended and the guided search with a share of the budget. The plan only chooses
// which lines are tried: a mate it finds is a legal line like any other, and it never claims
// that no mate exists.
#include <algorithm>
#include <array>
#include <unordered_set>
#include <vector>

#include "arbiter/attacks.hpp"
#include "arbiter/movegen.hpp"
#include "impl.hpp"

namespace arbiter::detail {
namespace {

/// The squares reachable from `from` by king steps that avoid `walls`.
Bitboard flood(Square from, Bitboard walls) noexcept {
    const std::array<std::uint8_t, 64> d = walk_to(Bitboard(from), walls);
    Bitboard region;
    for (int i = 0; i < 64; ++i)
        if (d[static_cast<std::size_t>(i)] != 255) region |= square_at(i);
    return region;
}

/// A region this small holds the winner's king in a corner or behind its pawns, where no mating
/// manoeuvre of its own needs it; the plan is tried only then.
constexpr int shut_in_squares = 6;

/// Waiting moves of the winner's pieces tried per position in the first phase.
constexpr int max_waits = 2;

/// Steps of the loser's king that keep its distance to the door, per line: one or two set the
/// tempo right (a king next to the door may also wait with another piece).
constexpr int max_detours = 2;

/// Positions the first phase keeps at most (the memory of a Position each, 160 bytes): it
/// mostly needs a few thousand; past that it only expands those it has.
constexpr std::size_t max_stored = std::size_t{1} << 17;

}  // namespace

Bitboard jailers(const Position& pos, Color winner) noexcept {
    const Bitboard heavy = pos.pieces(PieceType::queen) | pos.pieces(PieceType::rook);
    if (pos.pieces(winner) & heavy) return {};
    const Bitboard pieces = pos.pieces(winner) & ~pos.pieces(PieceType::pawn) & ~pos.pieces(PieceType::king);
    if (!pieces) return {};
    const Bitboard walls = king_walls(pos, winner);
    const Square k = pos.king_square(winner);
    const Bitboard inside = flood(k, walls | pieces);
    if (inside.count() > shut_in_squares) return {};
    // The loser's king must be able to walk up to the piece (next to it, outside the region).
    const Bitboard loser_reach = flood(pos.king_square(~winner), king_walls(pos, ~winner));
    Bitboard out;
    for (Square p : pieces) {
        if (!(king_attacks(p) & inside)) continue;                                                 // not at the door
        if (attacks(type_of(pos.piece_at(p)), p, pos.occupied()) & ~pos.pieces(winner)) continue;  // it can move
        if (!(king_attacks(p) & loser_reach & ~inside)) continue;
        if (flood(k, walls | (pieces ^ Bitboard(p))).count() <= inside.count() + 1) continue;  // opens nothing
        out |= p;
    }
    return out;
}

SearchOutcome search_release(const Position& root, Color winner, std::uint64_t node_limit) {
    SearchOutcome out;
    const Bitboard doors = jailers(root, winner);
    if (!doors) return out;
    const Color loser = ~winner;
    const std::array<std::uint8_t, 64> dist = walk_to(doors, king_walls(root, loser) & ~doors);
    struct Node {
        Position pos;
        std::uint32_t parent;
        Move move;
        int detours;  // the loser's king steps so far that kept its distance to the door
    };
    // A position is seen once per number of detours: more of them may be needed to get the
    // tempo right, fewer leave more to spend.
    auto state = [](const Position& p, int detours) {
        return p.key() ^ (static_cast<std::uint64_t>(detours) * 0x9E3779B97F4A7C15ULL);
    };
    std::vector<Node> nodes;
    std::unordered_set<std::uint64_t> seen;
    nodes.push_back(Node{root, 0, Move::null(), 0});
    seen.insert(state(root, 0));
    // Each position reached by taking a door piece gets half the budget, at least a few
    // thousand positions, for the ordinary searches (the first phase mostly costs less).
    const std::uint64_t per_try = std::max<std::uint64_t>(node_limit / 2, 2000);
    auto line_to = [&](std::uint32_t i) {
        std::vector<Move> line;
        for (; i != 0; i = nodes[i].parent) line.push_back(nodes[i].move);
        std::reverse(line.begin(), line.end());
        return line;
    };
    MoveList moves;
    for (std::uint32_t cursor = 0; cursor < nodes.size(); ++cursor) {
        if (out.nodes >= node_limit) return out;
        const Position pos = nodes[cursor].pos;
        const int detours = nodes[cursor].detours;
        legal_moves(pos, moves);
        out.nodes += 1 + moves.size();
        const bool loser_moves = pos.turn() == loser;
        const Square lk = pos.king_square(loser);
        // The winner's pieces other than the king only wait here (the mate comes later, from
        // the ordinary searches): two reversible moves of them per position are enough, and
        // an irreversible one only where there is none.
        const Square wk = pos.king_square(winner);
        bool reversible_wait = false;
        if (!loser_moves)
            for (Move m : moves)
                if (m.from() != wk && !pos.is_zeroing(m) && !m.is_castling()) reversible_wait = true;
        int waits = 0;
        for (Move m : moves) {
            bool release = false;
            int detoured = detours;
            if (!loser_moves && m.from() != wk) {
                const bool reversible = !pos.is_zeroing(m) && !m.is_castling();
                if (reversible_wait && (!reversible || ++waits > max_waits)) continue;
            }
            if (loser_moves) {
                const bool king = m.from() == lk && !m.is_castling();
                if (king && doors.contains(m.to()) && pos.is_capture(m)) {
                    release = true;
                } else if (king) {
                    const int d0 = dist[index(lk)], d1 = dist[index(m.to())];
                    if (pos.is_capture(m) || d1 > d0) continue;
                    if (d1 == d0 && d0 > 1 && ++detoured > max_detours) continue;
                } else if (dist[index(lk)] > 1 || pos.is_zeroing(m) || m.is_castling()) {
                    continue;  // the loser's other units only wait, next to the door
                }
            }
            const Position child = pos.after(m);
            if (!seen.insert(state(child, detoured)).second) continue;
            if (!release) {
                if (nodes.size() < max_stored) nodes.push_back(Node{child, cursor, m, detoured});
                continue;
            }
            // The door is open: the ordinary searches take over.
            const std::uint64_t left = node_limit > out.nodes ? node_limit - out.nodes : 0;
            const std::uint64_t budget = std::min(per_try, left);
            for (int engine = 0; engine < 2 && out.nodes < node_limit; ++engine) {
                SearchOutcome found = engine == 0 ? search_rewarded(child, winner, budget / 2)
                                                  : search_helpmate(child, winner, budget / 2, 0);
                out.nodes += found.nodes;
                if (found.kind == SearchOutcome::Kind::mate) {
                    out.line = line_to(cursor);
                    out.line.push_back(m);
                    out.line.insert(out.line.end(), found.line.begin(), found.line.end());
                    out.kind = SearchOutcome::Kind::mate;
                    return out;
                }
            }
        }
    }
    return out;
}

}  // namespace arbiter::detail
