// blockade.cpp — the static blockade proof.
//
// 1. Frozen units, a greatest fixpoint. Start by assuming every unit is frozen: it never moves
//    and is never taken. Given the frozen set F, over-approximate where every other (mobile)
//    unit can ever stand, treating frozen units as walls and ignoring mobile ones. Then drop
//    from F each unit that could move or be taken under those over-approximations, and repeat
//    until F is stable. By induction over any move sequence, a stable F really is frozen: the
//    first move that moved or took a unit of F would have been found possible.
// 2. Mobile pawns are refined the same way: a pawn whose capture squares no enemy unit can ever
//    stand on stays on its file, and two such pawns on one file can never pass each other.
// 3. A mate needs the loser's king on a square k it can reach, checked by a winner's unit, with
//    each square next to k taken by a loser's unit or attacked by the winner. A small constraint
//    search puts each mobile unit on at most one square of its reach; if no placement fits any
//    k, no mate is possible. Everything is over-approximated in the winner's favour (sliders see
//    through mobile units; escapes by capturing or blocking the checker are ignored), so a
//    failure to fit is a proof.
// 4. Refinements (docs/unwinnability.md): a stalemate trap stays frozen although the enemy king
//    may come next to it, when taking it always stalemates its side; castling rights whose path
//    a frozen unit blocks free no king; and when the loser moves only its king, the last-move
//    rule makes the square its king came from need a cover by a winner's unit other than the
//    king.
#include <algorithm>
#include <array>

#include "arbiter/attacks.hpp"
#include "arbiter/movegen.hpp"
#include "impl.hpp"

namespace arbiter::detail {
namespace {

// Units of a position: a board holds at most 64 (a composed position may have more than a game's
// 32: surplus pieces).
constexpr int max_units = 64;

struct Unit {
    Square sq;
    Color color;
    PieceType type;
};

Bitboard last_rank(Color c) noexcept { return Bitboard::rank(c == Color::white ? 7 : 0); }

// Set-wise moves: every square one step from any square of a set, per direction.
constexpr std::uint64_t not_a = ~0x0101010101010101ULL, not_h = ~0x8080808080808080ULL;
constexpr int dir_shift[8] = {8, -8, 1, -1, 9, 7, -7, -9};  // N S E W NE NW SE SW
constexpr std::uint64_t dir_mask[8] = {~0ULL, ~0ULL, not_a, not_h, not_a, not_h, not_a, not_h};

constexpr std::uint64_t shift_by(std::uint64_t b, int sh) noexcept { return sh > 0 ? b << sh : b >> -sh; }

constexpr std::uint64_t step(std::uint64_t b, int d) noexcept { return shift_by(b, dir_shift[d]) & dir_mask[d]; }

constexpr std::uint64_t knight_set(std::uint64_t b) noexcept {
    constexpr std::uint64_t not_ab = ~0x0303030303030303ULL, not_gh = ~0xC0C0C0C0C0C0C0C0ULL;
    return ((b << 17) & not_a) | ((b << 15) & not_h) | ((b << 10) & not_ab) | ((b << 6) & not_gh) |
           ((b >> 17) & not_h) | ((b >> 15) & not_a) | ((b >> 10) & not_gh) | ((b >> 6) & not_ab);
}

/// Squares a slider on any square of `gen` reaches in direction d through `empty` squares (the
/// squares gone through, all of them empty). An occluded fill in three doubling steps: `fill`
/// gains the empty squares one, two, then four steps on from what it holds, `pass` the squares
/// from which a run of one, two, four empty squares goes on (the mask keeps runs on the board).
constexpr std::uint64_t slide(std::uint64_t gen, std::uint64_t empty, int d) noexcept {
    const int sh = dir_shift[d];
    std::uint64_t pass = empty & dir_mask[d];
    std::uint64_t fill = gen;
    fill |= pass & shift_by(fill, sh);
    pass &= shift_by(pass, sh);
    fill |= pass & shift_by(fill, 2 * sh);
    pass &= shift_by(pass, 2 * sh);
    fill |= pass & shift_by(fill, 4 * sh);
    return step(fill, d) & empty;
}

/// Every square a piece of type t could stand on, starting from `from`, never entering `walls`.
Bitboard flood(PieceType t, Bitboard from, Bitboard walls) noexcept {
    const std::uint64_t empty = ~walls.bits;
    std::uint64_t r = from.bits;
    for (;;) {
        std::uint64_t next = r;
        switch (t) {
            case PieceType::knight: next |= knight_set(r) & empty; break;
            case PieceType::king:
                for (int d = 0; d < 8; ++d) next |= step(r, d) & empty;
                break;
            default:
                for (int d = t == PieceType::bishop ? 4 : 0; d < (t == PieceType::rook ? 4 : 8); ++d)
                    next |= slide(r, empty, d);
                break;
        }
        if (next == r) return Bitboard(r);
        r = next;
    }
}

}  // namespace

// Squares attacked by pawns of colour c standing on the squares of `at` (impl.hpp).
Bitboard pawn_attacks_of_set(Color c, Bitboard at) noexcept {
    return c == Color::white ? Bitboard(step(at.bits, 4) | step(at.bits, 5))
                             : Bitboard(step(at.bits, 6) | step(at.bits, 7));
}

// Every square a piece of type t attacks from some square of `at` (impl.hpp).
Bitboard attacks_of_set(PieceType t, Bitboard at, Bitboard walls) noexcept {
    const std::uint64_t empty = ~walls.bits;
    std::uint64_t a = 0;
    switch (t) {
        case PieceType::knight: return Bitboard(knight_set(at.bits));
        case PieceType::king:
            for (int d = 0; d < 8; ++d) a |= step(at.bits, d);
            return Bitboard(a);
        default:
            for (int d = t == PieceType::bishop ? 4 : 0; d < (t == PieceType::rook ? 4 : 8); ++d) {
                const std::uint64_t path = slide(at.bits, empty, d);
                a |= path | step(path | at.bits, d);
            }
            return Bitboard(a);
    }
}

namespace {
int step_up(Color c) noexcept { return c == Color::white ? 8 : -8; }

/// Squares a pawn of colour c on s could reach by any mix of pushes and captures.
Bitboard forward_cone(Color c, Square s) noexcept {
    Bitboard cone;
    const int f = file_of(s), r = rank_of(s);
    for (int rr = 0; rr < 8; ++rr) {
        const int d = c == Color::white ? rr - r : r - rr;
        if (d <= 0) continue;
        for (int ff = std::max(0, f - d); ff <= std::min(7, f + d); ++ff) cone |= make_square(ff, rr);
    }
    return cone;
}

/// What a promoted piece of unknown kind attacks: the union of queen and knight moves.
Bitboard any_piece_attacks(Square s, Bitboard occ) noexcept { return queen_attacks(s, occ) | knight_attacks(s); }

/// Every square a promoted piece could reach from `from` without crossing `walls` (queen and
/// knight moves together: more than any one piece can do).
Bitboard promoted_reach(Bitboard from, Bitboard walls) noexcept {
    Bitboard r = from;
    for (;;) {
        const Bitboard next = flood(PieceType::queen, r, walls) | (Bitboard(knight_set(r.bits)) & ~walls) | r;
        if (next == r) return r;
        r = next;
    }
}

/// What promoted pieces standing on `at` attack.
Bitboard promoted_attacks_of_set(Bitboard at, Bitboard walls) noexcept {
    return attacks_of_set(PieceType::queen, at, walls) | attacks_of_set(PieceType::knight, at, walls);
}

class Blockade {
public:
    Blockade(const Position& pos, Color winner) : pos_(pos), winner_(winner) {
        unit_of_.fill(-1);
        for (Square s : pos.occupied()) {
            const Piece p = pos.piece_at(s);
            unit_of_[index(s)] = static_cast<std::int8_t>(n_);
            units_[n_++] = Unit{s, color_of(p), type_of(p)};
        }
    }

    /// True when no mate by the winner is possible.
    bool prove(std::uint32_t work);

private:
    [[nodiscard]] bool frozen(int i) const noexcept { return (frozen_mask_ >> i) & 1; }
    [[nodiscard]] int unit_at(Square s) const noexcept { return unit_of_[index(s)]; }
    /// Where a piece promoted by a pawn of colour c may go: from any promotion square (more
    /// than one pawn can reach, which is harmless), computed once per round.
    Bitboard promotion_reach(Color c) {
        Bitboard& r = promotion_reach_[index(c)];
        if (!r) r = promoted_reach(last_rank(c) & ~frozen_, frozen_);
        return r;
    }
    void fix_frozen();
    void compute_reach();
    void compute_pawn_reach();
    void file_bound_segment(int i);
    [[nodiscard]] bool stays(int i) const noexcept;
    [[nodiscard]] int king_unit(Color c) const noexcept { return unit_at(pos_.king_square(c)); }
    [[nodiscard]] Bitboard king_region(Color c) const noexcept {
        const int k = king_unit(c);
        return frozen(k) ? Bitboard(units_[k].sq) : reach_[k];
    }
    [[nodiscard]] bool only_king_moves(Color c) const noexcept;
    [[nodiscard]] bool may_castle(Color c) const noexcept;
    [[nodiscard]] bool slider_beyond(Square k, Square o, Color by) const noexcept;
    [[nodiscard]] bool stalemate_trap(int i) const noexcept;
    [[nodiscard]] bool king_may_uncover(Square k, Square from) const noexcept;
    [[nodiscard]] bool mate_in_one() const;
    bool fits(int depth);
    [[nodiscard]] Bitboard attacks_from(int u, Square s) const noexcept;
    [[nodiscard]] Bitboard stands_attacking(int u, Square target) const noexcept;

    const Position& pos_;
    Color winner_;
    std::array<Unit, max_units> units_{};
    std::array<std::int8_t, 64> unit_of_{};
    int n_ = 0;
    std::array<Bitboard, 2> promotion_reach_{};

    // --- the fixpoint ---
    std::uint64_t frozen_mask_ = 0;  // bit i: unit i is frozen
    Bitboard frozen_;                // squares of frozen units
    std::array<Bitboard, 2> frozen_by_{};
    std::array<Bitboard, 2> guard_{};                // squares always attacked by frozen units of a colour
    std::array<Bitboard, max_units> reach_{};        // mobile unit: squares it may stand on
    std::array<Bitboard, max_units> promo_reach_{};  // mobile pawn: squares it may stand on promoted
    std::array<bool, max_units> free_pawn_{};        // mobile pawn that may leave its file
    std::array<bool, max_units> soft_pawn_{};        // mobile pawn that may be taken
    std::array<bool, max_units> segment_done_{};
    std::array<Bitboard, 2> presence_{};    // squares a non-king unit of a colour may stand on
    std::array<Bitboard, 2> piece_hits_{};  // squares a mobile piece (not king, not pawn) may attack
    std::array<Bitboard, 2> hits_{};        // squares a mobile non-king unit of a colour may attack
    std::array<Bitboard, 2> king_hits_{};   // squares next to where a mobile king may stand

    // --- the pattern search ---
    struct Slot {
        int unit;
        bool winner;
        int twin;  // an earlier identical slot, or -1
    };
    std::array<Slot, max_units> slots_{};
    int slot_count_ = 0;
    std::uint64_t placed_ = 0;  // bit j: slot j stands somewhere
    Square k_ = Square::none;
    Bitboard occ_x_;              // frozen squares but the loser's king: sliders see through the king
    Bitboard open_;               // squares next to k that must be closed
    Bitboard covered_;            // squares attacked by placed winner's units
    Bitboard covered_nk_;         // ... by the winner's units other than its king (frozen ones included)
    Square must_ = Square::none;  // a square that a unit other than the winner's king must attack
    Bitboard taken_;              // squares of placed loser's units
    Bitboard occupied_;           // squares no further unit may take
    bool check_ = false;
    std::uint32_t work_left_ = 0;
    bool out_of_work_ = false;
};

Bitboard Blockade::stands_attacking(int u, Square target) const noexcept {
    const Unit& x = units_[u];
    switch (x.type) {
        case PieceType::pawn:
            return (pawn_attacks(~x.color, target) & reach_[u]) | (any_piece_attacks(target, occ_x_) & promo_reach_[u]);
        case PieceType::king: return king_attacks(target) & reach_[u];
        default: return attacks(x.type, target, occ_x_) & reach_[u];
    }
}

Bitboard Blockade::attacks_from(int u, Square s) const noexcept {
    const Unit& x = units_[u];
    switch (x.type) {
        case PieceType::pawn: {
            Bitboard a;
            if (reach_[u].contains(s)) a |= pawn_attacks(x.color, s);
            if (promo_reach_[u].contains(s)) a |= any_piece_attacks(s, occ_x_);
            return a;
        }
        case PieceType::king: return king_attacks(s);
        default: return attacks(x.type, s, occ_x_);
    }
}

// The squares a file-bound pawn may stand on: forward along its file until a frozen unit, a
// solid enemy file-bound pawn (it can only come nearer and is never taken), or a solid own
// file-bound pawn's farthest square (if that pawn may promote, it leaves the file open and we
// may follow it all the way).
void Blockade::file_bound_segment(int i) {
    if (segment_done_[i]) return;
    segment_done_[i] = true;
    const Unit& p = units_[i];
    const int up = step_up(p.color);
    Bitboard seg = p.sq;
    Square s = p.sq;
    bool promotes = false;
    while (!last_rank(p.color).contains(s)) {
        const Square next = s + up;
        if (frozen_.contains(next)) break;
        const int j = unit_at(next);
        if (j >= 0 && units_[j].type == PieceType::pawn && !frozen(j) && !free_pawn_[j] && !soft_pawn_[j]) {
            if (units_[j].color != p.color) break;
            file_bound_segment(j);
            if (promo_reach_[j]) {
                seg |= reach_[j];
                promotes = true;
            } else {
                const Square far = p.color == Color::white ? reach_[j].last() : reach_[j].first();
                seg |= reach_[j] & ~Bitboard(far);
            }
            break;
        }
        seg |= next;
        s = next;
        if (last_rank(p.color).contains(s)) promotes = true;
    }
    reach_[i] = seg & ~last_rank(p.color);
    promo_reach_[i] = promotes ? promotion_reach(p.color) : Bitboard();
}

void Blockade::compute_pawn_reach() {
    // Every mobile pawn starts file-bound and solid; one that could ever capture becomes free,
    // one that could ever be taken becomes soft (it no longer bounds the pawns behind it).
    // Both flags only widen reaches, so the loop ends.
    free_pawn_.fill(false);
    soft_pawn_.fill(false);
    for (;;) {
        segment_done_.fill(false);
        for (int i = 0; i < n_; ++i) {
            const Unit& p = units_[i];
            if (frozen(i) || p.type != PieceType::pawn || !free_pawn_[i]) continue;
            const Bitboard cone = forward_cone(p.color, p.sq) & ~frozen_;
            const Bitboard promo = cone & last_rank(p.color);
            reach_[i] = (cone & ~last_rank(p.color)) | p.sq;
            promo_reach_[i] = promo ? promotion_reach(p.color) : Bitboard();
            segment_done_[i] = true;
        }
        for (int i = 0; i < n_; ++i)
            if (!frozen(i) && units_[i].type == PieceType::pawn) file_bound_segment(i);

        presence_ = {};
        std::array<Bitboard, 2> threat = {piece_hits_[0] | king_hits_[0], piece_hits_[1] | king_hits_[1]};
        for (int i = 0; i < n_; ++i) {
            const Unit& u = units_[i];
            if (u.type == PieceType::king) continue;
            if (frozen(i)) {
                presence_[index(u.color)] |= u.sq;
                continue;
            }
            presence_[index(u.color)] |= reach_[i] | promo_reach_[i];
            if (u.type != PieceType::pawn) continue;
            threat[index(u.color)] |= promoted_attacks_of_set(promo_reach_[i], frozen_);
            if (free_pawn_[i]) threat[index(u.color)] |= pawn_attacks_of_set(u.color, reach_[i]);
        }
        bool changed = false;
        for (int i = 0; i < n_; ++i) {
            const Unit& p = units_[i];
            if (frozen(i) || p.type != PieceType::pawn) continue;
            if (!free_pawn_[i]) {
                const Bitboard caps = pawn_attacks_of_set(p.color, reach_[i]);
                // A double step passes a square an enemy pawn may take en passant; the passed
                // square is in the reach, so that enemy pawn sees us in its capture squares.
                if (caps & presence_[index(~p.color)]) {
                    free_pawn_[i] = true;
                    changed = true;
                }
            }
            if (!soft_pawn_[i] && (reach_[i] & threat[index(~p.color)])) {
                soft_pawn_[i] = true;
                changed = true;
            }
        }
        if (!changed) break;
    }
}

void Blockade::compute_reach() {
    promotion_reach_ = {};
    frozen_ = Bitboard();
    frozen_by_ = {};
    guard_ = {};
    for (int i = 0; i < n_; ++i) {
        if (!frozen(i)) continue;
        const Unit& u = units_[i];
        frozen_ |= u.sq;
        frozen_by_[index(u.color)] |= u.sq;
        // Attacks no mobile unit can ever block: pawn, knight and king attacks, and a slider's
        // attacks on the squares next to it.
        Bitboard a;
        switch (u.type) {
            case PieceType::pawn: a = pawn_attacks(u.color, u.sq); break;
            case PieceType::knight: a = knight_attacks(u.sq); break;
            case PieceType::king: a = king_attacks(u.sq); break;
            default: a = attacks(u.type, u.sq, Bitboard()) & king_attacks(u.sq); break;
        }
        guard_[index(u.color)] |= a;
    }
    // Mobile pieces: flood fill through everything but frozen units (and, for a king, squares
    // always attacked by the other side).
    piece_hits_ = {};
    king_hits_ = {};
    for (int i = 0; i < n_; ++i) {
        const Unit& u = units_[i];
        if (frozen(i) || u.type == PieceType::pawn) continue;
        Bitboard walls = frozen_;
        if (u.type == PieceType::king) walls |= guard_[index(~u.color)];
        Bitboard r = u.sq;
        // Castling puts king and rook on squares their own moves might not reach.
        const Square ksq = pos_.king_square(u.color);
        for (Square rook : pos_.castling_rooks(u.color)) {
            if (u.type == PieceType::king) r |= Position::castle_king_to(u.color, ksq, rook);
            if (u.type == PieceType::rook && u.sq == rook) r |= Position::castle_rook_to(u.color, ksq, rook);
        }
        r = (r & ~frozen_) | u.sq;
        reach_[i] = flood(u.type, r, walls);
        promo_reach_[i] = Bitboard();
        (u.type == PieceType::king ? king_hits_ : piece_hits_)[index(u.color)] |=
            attacks_of_set(u.type, reach_[i], frozen_);
    }
    compute_pawn_reach();

    // Everything a mobile non-king unit may ever attack.
    hits_ = piece_hits_;
    for (int i = 0; i < n_; ++i) {
        const Unit& u = units_[i];
        if (frozen(i) || u.type != PieceType::pawn) continue;
        hits_[index(u.color)] |=
            pawn_attacks_of_set(u.color, reach_[i]) | promoted_attacks_of_set(promo_reach_[i], frozen_);
    }
}

// Does frozen unit i stay put and untaken, given the current reaches?
bool Blockade::stays(int i) const noexcept {
    const Unit& u = units_[i];
    const Color c = u.color;
    const Bitboard own = frozen_by_[index(c)];
    switch (u.type) {
        case PieceType::pawn:
            if (!frozen_.contains(u.sq + step_up(c))) return false;
            if (pawn_attacks(c, u.sq) & presence_[index(~c)]) return false;
            break;
        case PieceType::king:
            if (may_castle(c)) return false;
            if (king_attacks(u.sq) & ~own & ~guard_[index(~c)]) return false;
            return true;  // a king is never taken
        default:
            if (attacks(u.type, u.sq, frozen_) & ~own) return false;
            break;
    }
    if (hits_[index(~c)].contains(u.sq)) return false;
    if (king_hits_[index(~c)].contains(u.sq) && !guard_[index(c)].contains(u.sq) && !stalemate_trap(i)) return false;
    return true;
}

// Could colour c still castle? Not with a rook whose castling needs a square that a frozen unit
// (other than that king and rook) holds: it holds it for ever.
bool Blockade::may_castle(Color c) const noexcept {
    const Square ksq = pos_.king_square(c);
    for (Square rook : pos_.castling_rooks(c)) {
        const Square kto = Position::castle_king_to(c, ksq, rook), rto = Position::castle_rook_to(c, ksq, rook);
        const Bitboard path = (between(ksq, kto) | kto | between(rook, rto) | rto) & ~Bitboard(ksq) & ~Bitboard(rook);
        if (!(path & frozen_)) return true;
    }
    return false;
}

// Are all units of colour c but its king frozen (so that c only ever moves its king)?
bool Blockade::only_king_moves(Color c) const noexcept {
    for (int j = 0; j < n_; ++j)
        if (units_[j].color == c && units_[j].type != PieceType::king && !frozen(j)) return false;
    return true;
}

// Could a slider of colour `by` stand beyond o on the line from k through o, with nothing frozen
// in between (so that a king leaving o may uncover a check on k)? Frozen sliders and wherever
// mobile sliders or promoted pieces may stand count; mobile units never block.
bool Blockade::slider_beyond(Square k, Square o, Color by) const noexcept {
    const Bitboard ray = line(k, o);
    if (!ray) return false;
    const bool straight = file_of(k) == file_of(o) || rank_of(k) == rank_of(o);
    const PieceType kind = straight ? PieceType::rook : PieceType::bishop;
    const Bitboard beyond = ray & attacks(kind, o, frozen_) & ~between(k, o) & ~Bitboard(k);
    if (!beyond) return false;
    const Bitboard sliders = pos_.pieces(by, kind) | pos_.pieces(by, PieceType::queen);
    if (beyond & frozen_by_[index(by)] & sliders) return true;
    for (int j = 0; j < n_; ++j) {
        const Unit& v = units_[j];
        if (frozen(j) || v.color != by) continue;
        if (v.type == PieceType::pawn ? (promo_reach_[j] & beyond).any()
                                      : (sliders.contains(v.sq) && (reach_[j] & beyond).any()))
            return true;
    }
    return false;
}

// The stalemate trap: frozen unit i, which no enemy unit but the king may ever attack, is taken
// by the enemy king only into a stalemate. Its side c moves nothing but its king (everything
// else is frozen and stays without a move after the capture: a pawn's square in front stays
// occupied, a piece's only targets are its own frozen units or the capturing king, which it
// cannot take); c's king, wherever it may stand not next to the capture square, then has no
// square to go to (each neighbour is its own frozen unit, always attacked by a frozen enemy unit,
// or next to the capturing king); and the capture cannot uncover a check (a king never gives
// one). The game is then over, so the capture can never be part of a line to a mate.
bool Blockade::stalemate_trap(int i) const noexcept {
    const Unit& u = units_[i];
    const Color c = u.color;
    if (may_castle(c) || !only_king_moves(c)) return false;
    const int taker = king_unit(~c);
    if (frozen(taker)) return false;
    const Bitboard x = Bitboard(u.sq);
    const Bitboard near_x = king_attacks(u.sq);
    const Bitboard origins = near_x & reach_[taker] & ~frozen_;
    const Bitboard stuck = (frozen_by_[index(c)] & ~x) | guard_[index(~c)] | near_x;
    for (Square k : king_region(c) & ~near_x & ~x) {
        if (king_attacks(k) & ~stuck) return false;
        for (Square o : origins & ~king_attacks(k))
            if (line(k, o) && !(between(k, o) & (frozen_ | x)) && slider_beyond(k, o, ~c)) return false;
    }
    return true;
}

void Blockade::fix_frozen() {
    frozen_mask_ = n_ == max_units ? ~std::uint64_t{0} : (std::uint64_t{1} << n_) - 1;
    // A legal en passant capture right now: the pawns involved are mobile.
    const Square ep = pos_.legal_ep_square();
    if (ep != Square::none) {
        const Color us = pos_.turn();
        const Bitboard movers = (pawn_attacks(~us, ep) & pos_.pieces(us, PieceType::pawn)) | Bitboard(ep - step_up(us));
        for (int i = 0; i < n_; ++i)
            if (movers.contains(units_[i].sq)) frozen_mask_ &= ~(std::uint64_t{1} << i);
    }
    for (;;) {
        compute_reach();
        std::uint64_t drop = 0;
        for (int i = 0; i < n_; ++i)
            if (frozen(i) && !stays(i)) drop |= std::uint64_t{1} << i;
        if (!drop) break;
        frozen_mask_ &= ~drop;
    }
}

// Depth-first placement of mobile units so that k is in check and every open square next to k
// is closed. True when a placement fits, or when the work bound runs out (no proof then).
bool Blockade::fits(int depth) {
    const Bitboard unclosed = open_ & ~covered_ & ~taken_;
    const bool need_must = must_ != Square::none && !covered_nk_.contains(must_);
    if (check_ && !unclosed && !need_must) return true;
    if (depth >= max_units) return false;
    const bool want_check = !check_;
    const bool must_only = !want_check && !unclosed;  // only need_must is left
    const Square target = want_check ? k_ : must_only ? must_ : unclosed.first();
    for (int j = 0; j < slot_count_; ++j) {
        if ((placed_ >> j) & 1) continue;
        const Slot& sl = slots_[j];
        if (sl.twin >= 0 && !((placed_ >> sl.twin) & 1)) continue;
        const int u = sl.unit;
        if (!sl.winner) {
            if (want_check || must_only || occupied_.contains(target)) continue;
            if (!(reach_[u] | promo_reach_[u]).contains(target)) continue;
            if (work_left_-- == 0) return out_of_work_ = true;
            placed_ |= std::uint64_t{1} << j;
            occupied_ |= target;
            taken_ |= target;
            const bool ok = fits(depth + 1);
            taken_ ^= target;
            occupied_ ^= target;
            placed_ &= ~(std::uint64_t{1} << j);
            if (ok) return true;
            continue;
        }
        const bool is_king = units_[u].type == PieceType::king;
        if ((want_check || must_only) && is_king) continue;
        Bitboard stands = stands_attacking(u, target) & ~occupied_;
        if (is_king) stands &= ~king_attacks(k_);
        // Under the last-move rule the winner's king did not move (see prove): it stood where
        // it stands when the loser's king was on must_, so it is not next to must_.
        if (is_king && must_ != Square::none) stands &= ~king_attacks(must_);
        for (Square s : stands) {
            if (work_left_-- == 0) return out_of_work_ = true;
            const Bitboard saved_cov = covered_, saved_nk = covered_nk_;
            const bool saved_check = check_;
            const Bitboard a = attacks_from(u, s);
            covered_ |= a;
            if (!is_king) covered_nk_ |= a;
            if (!is_king && a.contains(k_)) check_ = true;
            placed_ |= std::uint64_t{1} << j;
            occupied_ |= s;
            const bool ok = fits(depth + 1);
            occupied_ ^= s;
            placed_ &= ~(std::uint64_t{1} << j);
            covered_ = saved_cov;
            covered_nk_ = saved_nk;
            check_ = saved_check;
            if (ok) return true;
        }
    }
    return false;
}

// Could the winner's king, moving next to `from` (where the loser's king stood a move ago),
// uncover a check on k? Its square before the move is next to neither king square, and a slider
// of the winner may stand beyond it on a line to k with nothing frozen in between. Castling
// moves a rook too: with castling rights, assume it could.
bool Blockade::king_may_uncover(Square k, Square from) const noexcept {
    const Color w = winner_;
    if (may_castle(w)) return true;
    const int wk = king_unit(w);
    if (frozen(wk)) return false;
    const Bitboard away = ~king_attacks(k) & ~Bitboard(k);
    for (Square d : king_attacks(from) & away & reach_[wk])
        for (Square o : king_attacks(d) & reach_[wk] & ~frozen_ & away & ~king_attacks(from) & ~Bitboard(from))
            if (line(k, o) && !(between(k, o) & (frozen_ | Bitboard(d))) && slider_beyond(k, o, w)) return true;
    return false;
}

// A mate by the winner's very next move (the last-move rule needs a move of the loser before
// the mate, which a line of one move from the root does not have).
bool Blockade::mate_in_one() const {
    if (pos_.turn() != winner_) return false;
    for (Move m : legal_moves(pos_)) {
        const Position next = pos_.after(m);
        if (next.in_check() && !has_legal_move(next)) return true;
    }
    return false;
}

bool Blockade::prove(std::uint32_t work) {
    fix_frozen();
    const Color w = winner_, l = ~winner_;
    const Square lk = pos_.king_square(l);
    const int lk_unit = unit_at(lk);
    occ_x_ = frozen_ & ~Bitboard(lk);

    // What frozen units of the winner attack, and what frozen units of the loser occupy.
    Bitboard w_frozen_att, w_frozen_att_nk;
    for (int i = 0; i < n_; ++i) {
        if (!frozen(i) || units_[i].color != w) continue;
        const Unit& u = units_[i];
        const Bitboard a = u.type == PieceType::pawn ? pawn_attacks(w, u.sq) : attacks(u.type, u.sq, occ_x_);
        w_frozen_att |= a;
        if (u.type != PieceType::king) w_frozen_att_nk |= a;
    }
    const Bitboard l_frozen_occ = frozen_by_[index(l)] & ~Bitboard(lk);

    // Where the loser's king may stand and be checked. A square always attacked by a frozen
    // unit (an unblockable check) can hold the king only now, and it is not mate now.
    const Bitboard l_region = king_region(l);
    Bitboard region = l_region;
    region &= ~guard_[index(w)];
    region &= w_frozen_att | hits_[index(w)];
    if (!region) return true;

    // The units that may take part in a pattern: every mobile unit but the loser's king.
    slot_count_ = 0;
    for (int i = 0; i < n_; ++i) {
        if (frozen(i) || i == lk_unit) continue;
        const Unit& u = units_[i];
        Slot sl{i, u.color == w, -1};
        for (int j = slot_count_ - 1; j >= 0; --j) {
            const Unit& v = units_[slots_[j].unit];
            if (v.color == u.color && v.type == u.type && reach_[slots_[j].unit] == reach_[i] &&
                promo_reach_[slots_[j].unit] == promo_reach_[i]) {
                sl.twin = j;
                break;
            }
        }
        slots_[slot_count_++] = sl;
    }
    const Bitboard closable = hits_[index(w)] | king_hits_[index(w)] | presence_[index(l)];

    // The last-move rule: when the loser moves nothing but its king, the move before the mate
    // was the loser's king stepping onto k from a square `from` of its region next to k. That
    // square must be attacked in the mate, and not by the winner's king, which stood where it
    // stands then and so was not next to `from` (unless the mating move is the winner's king
    // uncovering a check, which king_may_uncover rules out).
    const bool last_move = only_king_moves(l) && !may_castle(l);
    bool used_last_move = false;

    work_left_ = work;
    out_of_work_ = false;
    auto fits_at = [&](Square k, Square must) {
        k_ = k;
        must_ = must;
        open_ = king_attacks(k) & ~l_frozen_occ & ~w_frozen_att;
        check_ = w_frozen_att.contains(k);
        covered_ = taken_ = Bitboard();
        covered_nk_ = w_frozen_att_nk;
        occupied_ = frozen_ | k;
        placed_ = 0;
        return fits(0);
    };
    for (Square k : region) {
        if ((king_attacks(k) & ~l_frozen_occ & ~w_frozen_att) & ~closable) continue;  // a flight nobody can close
        if (!last_move) {
            if (fits_at(k, Square::none)) return false;  // a pattern fits (or the work ran out): no proof
            continue;
        }
        used_last_move = true;
        for (Square from : l_region& king_attacks(k)) {
            const Square must = king_may_uncover(k, from) ? Square::none : from;
            if (fits_at(k, must)) return false;
        }
    }
    // A mate by the very next move has no move of the loser before it: look for one.
    return !(used_last_move && mate_in_one());
}

}  // namespace

namespace {
/// What the units of colour c among `held` attack for ever (nothing can come between a locked
/// slider and the next square): the enemy king never goes there, and a unit there is defended
/// against a king for ever.
Bitboard held_attacks(const Position& pos, Color c, Bitboard held) noexcept {
    const Bitboard diagonal = pos.pieces(PieceType::bishop) | pos.pieces(PieceType::queen);
    const Bitboard straight = pos.pieces(PieceType::rook) | pos.pieces(PieceType::queen);
    return pawn_attacks_of_set(c, held & pos.pieces(PieceType::pawn)) |
           Bitboard(knight_set((held & pos.pieces(PieceType::knight)).bits)) |
           attacks_of_set(PieceType::bishop, held & diagonal, Bitboard::all()) |
           attacks_of_set(PieceType::rook, held & straight, Bitboard::all()) |
           attacks_of_set(PieceType::king, held & pos.pieces(PieceType::king), Bitboard::all());
}
}  // namespace

Bitboard locked_units(const Position& pos) noexcept {
    // Pawns blocked head-on by enemy pawns (here, the white ones): without them nothing is
    // locked in a game (a test of a few nanoseconds for the automatic check); with them, the
    // answer is what the fixpoint finds when it keeps one such pair.
    const Bitboard rammed =
        pos.pieces(Color::white, PieceType::pawn) & pos.pieces(Color::black, PieceType::pawn).shifted(-8);
    if (!rammed) return {};
    const Bitboard occ = pos.occupied(), pawns = pos.pieces(PieceType::pawn);
    const Bitboard knights = pos.pieces(PieceType::knight), kings = pos.pieces(PieceType::king);
    // Candidates: every unit but the rooks that may still castle and the kings that may, less
    // those that can move right now (a pawn with an empty square ahead or a capture, a piece with
    // a square not its own, the pawns of a legal en passant capture). A king
    // is locked when every square next to it is a locked unit of its own or attacked for ever.
    Bitboard locked = occ & ~pos.castling_rooks();
    if (const Square ep = pos.legal_ep_square(); ep != Square::none) {
        const Color us = pos.turn();
        locked &= ~((pawn_attacks(~us, ep) & pos.pieces(us, PieceType::pawn)) | Bitboard(ep - step_up(us)));
    }
    for (Color c : {Color::white, Color::black}) {
        const Bitboard ours = pos.pieces(c), mine = pawns & ours;
        if (pos.castling_rooks(c)) locked &= ~(kings & ours);
        locked &= ~(mine & (~occ).shifted(-step_up(c)));
        locked &= ~(mine & pawn_attacks_of_set(~c, pos.pieces(~c)));
        for (Square s : locked& ours & ~pawns & ~kings)
            if (attacks(type_of(pos.piece_at(s)), s, occ) & ~ours) locked ^= Bitboard(s);
    }
    // What the locked units of each side attack for ever: kings never go there, and a unit there
    // is defended against a king for ever (a slider only from the next square: nothing can come
    // in between).
    std::array<Bitboard, 2> held{}, guarded{};
    const auto hold = [&] {
        for (Color c : {Color::white, Color::black}) {
            const int i = index(c);
            held[i] = locked & pos.pieces(c);
            guarded[i] = held_attacks(pos, c, held[i]);
        }
    };
    // The answer needs a locked pair, and the set only shrinks: stop as soon as none is left.
    const auto pair_left = [&] { return bool(locked & rammed & locked.shifted(-8)); };
    for (;;) {
        // First what needs no reach: a pawn whose square ahead is not locked, a piece with a
        // square that is not a locked unit of its own, a king with a square that is neither
        // that nor attacked for ever.
        for (Bitboard drop;; locked &= ~drop) {
            drop = {};
            hold();
            for (Color c : {Color::white, Color::black}) {
                const Bitboard mine = held[index(c)];
                drop |= mine & pawns & (~locked).shifted(-step_up(c));
                for (Square s : mine & ~pawns) {
                    const PieceType t = type_of(pos.piece_at(s));
                    const Bitboard to = attacks(t, s, locked) & ~mine;
                    if (t == PieceType::king ? bool(to & ~guarded[index(~c)]) : bool(to)) drop |= Bitboard(s);
                }
            }
            if (!drop) break;
        }
        if (!pair_left()) return {};
        const Bitboard open = ~locked;
        std::array<Bitboard, 2> reach{};
        // Where the other units could ever stand, per colour and kind, through any square not
        // locked: a least fixpoint over both colours, since a pawn steps aside only to take.
        struct Kinds {
            Bitboard pawn, knight, bishop, rook, queen, king, promoted;
        };
        std::array<Kinds, 2> at{};
        for (Color c : {Color::white, Color::black}) {
            const Bitboard free = pos.pieces(c) & ~locked;
            at[index(c)] = {free & pawns,
                            free & knights,
                            free & pos.pieces(PieceType::bishop),
                            free & pos.pieces(PieceType::rook),
                            free & pos.pieces(PieceType::queen),
                            free & kings,
                            {}};
            reach[index(c)] = free;
        }
        // The units the reach found so far may take, or that may move to take: a reach short of
        // the fixpoint finds fewer (the drop is monotone in it), so what it drops is dropped.
        const auto drops = [&] {
            Bitboard drop;
            for (Color c : {Color::white, Color::black}) {
                const Kinds& e = at[index(~c)];
                const Bitboard mine = held[index(c)];
                // Taken: by a unit of the other side, or by its king where no locked unit defends.
                const Bitboard taken =
                    pawn_attacks_of_set(~c, e.pawn) | attacks_of_set(PieceType::knight, e.knight, locked) |
                    attacks_of_set(PieceType::bishop, e.bishop, locked) |
                    attacks_of_set(PieceType::rook, e.rook, locked) |
                    attacks_of_set(PieceType::queen, e.queen, locked) | promoted_attacks_of_set(e.promoted, locked) |
                    (attacks_of_set(PieceType::king, e.king, locked) & ~guarded[index(c)]);
                drop |= mine & ~kings & taken;
                // Moved: a pawn that may find something to take.
                drop |= mine & pawns & pawn_attacks_of_set(~c, reach[index(~c)] | held[index(~c)]);
            }
            return drop;
        };
        // Most positions lock nothing: once what the first rounds reach already frees a unit of
        // every head-on pair, the answer is empty without the rest of the fixpoint.
        const auto no_pair_after = [&](Bitboard drop) {
            const Bitboard kept = locked & ~drop;
            return !(kept & rammed & kept.shifted(-8));
        };
        for (bool grew = true; grew;) {
            grew = false;
            for (Color c : {Color::white, Color::black}) {
                Kinds& k = at[index(c)];
                const Bitboard prey = reach[index(~c)] | held[index(~c)];
                for (Bitboard next = k.pawn;; k.pawn = next) {
                    next = k.pawn | (k.pawn.shifted(step_up(c)) & open) | (pawn_attacks_of_set(c, k.pawn) & prey);
                    if (next == k.pawn) break;
                }
                k.knight = flood(PieceType::knight, k.knight, locked);
                k.bishop = flood(PieceType::bishop, k.bishop, locked);
                k.rook = flood(PieceType::rook, k.rook, locked);
                k.queen = flood(PieceType::queen, k.queen, locked);
                k.promoted = promoted_reach(k.promoted | (k.pawn & last_rank(c)), locked);
                k.king = flood(PieceType::king, k.king, locked | guarded[index(~c)]);
                const Bitboard all = k.pawn | k.knight | k.bishop | k.rook | k.queen | k.promoted | k.king;
                if (all != reach[index(c)]) {
                    reach[index(c)] = all;
                    grew = true;
                    if (no_pair_after(drops())) return {};
                }
            }
        }
        const Bitboard drop = drops();
        if (!(drop & locked)) return locked;
        locked &= ~drop;
    }
}

Bitboard separation_walls(const Position& pos, bool shut_in) noexcept {
    const Bitboard wp = pos.pieces(Color::white, PieceType::pawn), bp = pos.pieces(Color::black, PieceType::pawn);
    const Bitboard rammed = wp & bp.shifted(-8);
    if (!rammed) return {};
    Bitboard walls = rammed | rammed.shifted(8) | locked_units(pos);
    if (!shut_in) return walls;
    // Pieces that cannot move while the walls stand are walls too: every square they reach
    // holds a wall of their own or another such piece (a bishop between its pawns and another
    // bishop so shut in). A greatest fixpoint: all pieces to start with, less each that has a
    // square to go to, until none has.
    Bitboard frozen = (pos.occupied() & ~pos.pieces(PieceType::pawn) & ~pos.pieces(PieceType::king)) & ~walls;
    for (bool shrank = true; shrank;) {
        shrank = false;
        const Bitboard held = walls | frozen;
        for (Square s : frozen) {
            const Bitboard own = held & pos.pieces(color_of(pos.piece_at(s)));
            if (attacks(type_of(pos.piece_at(s)), s, held) & ~own) {
                frozen ^= Bitboard(s);
                shrank = true;
            }
        }
    }
    return walls | frozen;
}

Separation separate(const Position& pos, Color winner, bool shut_in) noexcept {
    if (pos.castling_rooks()) return {};
    // The walls: the pawns blocked head-on (which most often stay so), the units locked for
    // ever and (with `shut_in`) the pieces they shut in.
    const Bitboard walls = separation_walls(pos, shut_in);
    if (!walls) return {};
    const std::array<Bitboard, 2> guarded{held_attacks(pos, Color::white, walls & pos.pieces(Color::white)),
                                          held_attacks(pos, Color::black, walls & pos.pieces(Color::black))};
    // Each unit that is not a wall: where it could ever stand (through any square that is not a
    // wall; a pawn may take on every square diagonally ahead, then promote) and what it could
    // attack from there.
    // (A king's attacks on squares the other side's walls guard never take anything
    // there: they count against the other king only.)
    struct Mobile {
        Square sq;
        Color color;
        PieceType type;
        bool king;
        Bitboard stand, hit, king_hit;
        int group;
        [[nodiscard]] Bitboard hits(const Mobile& other) const noexcept { return other.king ? king_hit : hit; }
    };
    std::array<Mobile, max_units> units{};
    int n = 0;
    const Square loser_king = pos.king_square(~winner);
    const Bitboard mobile = (pos.occupied() & ~walls) | loser_king;
    for (Square s : mobile) {
        const Color c = color_of(pos.piece_at(s));
        const PieceType t = type_of(pos.piece_at(s));
        Bitboard stand, hit, king_hit;
        if (t == PieceType::pawn) {
            Bitboard r = s;
            for (Bitboard next;; r = next) {
                next = r | ((r & ~last_rank(c)).shifted(step_up(c)) & ~walls) |
                       (pawn_attacks_of_set(c, r & ~last_rank(c)) & ~walls);
                if (next == r) break;
            }
            const Bitboard promoted = promoted_reach(r & last_rank(c), walls);
            stand = r | promoted;
            hit = pawn_attacks_of_set(c, r & ~last_rank(c)) | promoted_attacks_of_set(promoted, walls);
        } else {
            stand = flood(t, Bitboard(s), t == PieceType::king ? walls | guarded[index(~c)] : walls);
            hit = attacks_of_set(t, stand, walls);
        }
        king_hit = hit;
        if (t == PieceType::king) hit &= ~guarded[index(~c)];
        units[static_cast<std::size_t>(n)] = {s, c, t, t == PieceType::king, stand, hit, king_hit, n};
        ++n;
    }
    // Groups of units that may meet (one stands where the other stands or attacks), joined until
    // nothing changes; the loser's king's group is the game that matters.
    for (bool joined = true; joined;) {
        joined = false;
        for (int i = 0; i < n; ++i)
            for (int j = i + 1; j < n; ++j) {
                Mobile &a = units[static_cast<std::size_t>(i)], &b = units[static_cast<std::size_t>(j)];
                if (a.group == b.group) continue;
                if (!(a.stand & (b.stand | b.hits(a))) && !(a.hits(b) & b.stand)) continue;
                const int from = std::max(a.group, b.group), to = std::min(a.group, b.group);
                for (int k = 0; k < n; ++k)
                    if (units[static_cast<std::size_t>(k)].group == from) units[static_cast<std::size_t>(k)].group = to;
                joined = true;
            }
    }
    int game = -1;
    for (int i = 0; i < n; ++i)
        if (units[static_cast<std::size_t>(i)].sq == loser_king) game = units[static_cast<std::size_t>(i)].group;
    // What the units in the game of each colour could take: a king only where the other side's
    // walls do not guard.
    Separation out{{}, walls, true, true};
    std::array<Bitboard, 2> game_hits{};
    for (int i = 0; i < n; ++i) {
        const Mobile& u = units[static_cast<std::size_t>(i)];
        if (u.group == game) game_hits[index(u.color)] |= u.hit;
    }
    const Bitboard wall_pawns = walls & pos.pieces(PieceType::pawn);
    for (int i = 0; i < n; ++i) {
        const Mobile& u = units[static_cast<std::size_t>(i)];
        if (u.group == game) continue;
        out.area[index(u.color)] |= u.stand;
        // A proof needs both kings in the game (a king outside it could be in check there, and
        // the game's moves would then depend on the units outside), no pawn outside it (its
        // moves change what it attacks), and no unit outside it that could ever take a wall, be
        // taken by a pawn of the walls or guard a wall that a unit in the game could take: then
        // the walls stand as long as the game's own moves leave them (which the search checks),
        // and nothing outside the game can reach it or change what is legal in it.
        // The projected game (ProjectedGame) takes the units outside off the board instead of
        // leaving them out of a key, so it asks only the last three: a king outside (the
        // winner's: the loser's king is in the game) and pawns outside are tempo for it too.
        const bool touches_walls = (u.hit & walls & pos.pieces(~u.color)) ||
                                   (u.hit & walls & pos.pieces(u.color) & game_hits[index(~u.color)]) ||
                                   (pawn_attacks_of_set(~u.color, wall_pawns & pos.pieces(~u.color)) & u.stand);
        if (u.king || u.type == PieceType::pawn || touches_walls) out.proves = false;
        if (touches_walls) out.projects = false;
    }
    out.proves = out.proves && (out.area[0] | out.area[1]);
    out.projects = out.projects && (out.area[0] | out.area[1]) && pos.legal_ep_square() == Square::none;
    return out;
}

std::array<Bitboard, 2> separated_area(const Position& pos, Color winner, bool proof) noexcept {
    const Separation s = separate(pos, winner);
    if (proof && !s.proves) return {};
    return s.area;
}

bool blockade_candidate(const Position& pos) noexcept {
    // Head-on pawn pairs: a white pawn with a black pawn right in front of it.
    const Bitboard wp = pos.pieces(Color::white, PieceType::pawn);
    const Bitboard bp = pos.pieces(Color::black, PieceType::pawn);
    return (wp.shifted(8) & bp).any();
}

bool blockade_proof(const Position& pos, Color winner, std::uint32_t work) noexcept {
    // The proof speaks of mates to come; one on the board now is not ruled out by it.
    if (pos.turn() != winner && pos.in_check() && !has_legal_move(pos)) return false;
    Blockade b(pos, winner);
    return b.prove(work);
}

}  // namespace arbiter::detail
