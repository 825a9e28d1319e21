// position.hpp — a legal chess position as a value type: bitboards and a mailbox, side to move,
// castling rights (by rook square, so Chess960 works), en passant square, counters and an
// incrementally updated Zobrist key. Positions are changed by copy-make: `after(m)` returns the
// child, `play_unchecked(m)` changes this one.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "arbiter/attacks.hpp"
#include "arbiter/bitboard.hpp"
#include "arbiter/expected.hpp"
#include "arbiter/move.hpp"
#include "arbiter/setup.hpp"
#include "arbiter/types.hpp"

namespace arbiter {

namespace detail {
struct ZobristKeys {
    std::uint64_t piece_square[16][64];
    std::uint64_t castling[64];
    std::uint64_t ep_file[8];
    std::uint64_t side;  // xor-ed in when Black is to move
};
extern const ZobristKeys zobrist;
}  // namespace detail

/// Which Setup problems Position::from_setup may repair instead of refusing.
struct SetupRepairs {
    bool drop_invalid_ep_square = false;  ///< clear an impossible en passant square
    bool drop_invalid_castling = false;   ///< drop castling rights without king and rook
    bool allow_impossible_check = false;  ///< accept checks no legal move could give
    bool allow_too_many_pieces = false;   ///< accept surplus pieces (composed problems)
};

class Position {
public:
    /// The standard initial position.
    Position();

    /// The only way to build a Position from outside data: validates everything and returns
    /// either the position or every problem found. Errors: PositionError.
    static Expected<Position, PositionError> from_setup(const Setup& setup, SetupRepairs repairs = {});

    /// Back to an unvalidated Setup (round trip: from_setup(to_setup()) == *this).
    [[nodiscard]] Setup to_setup() const;

    // --- Board queries -------------------------------------------------------------------
    [[nodiscard]] Bitboard occupied() const noexcept { return by_color_[0] | by_color_[1]; }
    [[nodiscard]] Bitboard pieces(Color c) const noexcept { return by_color_[index(c)]; }
    [[nodiscard]] Bitboard pieces(PieceType t) const noexcept { return by_type_[index(t)]; }
    [[nodiscard]] Bitboard pieces(Color c, PieceType t) const noexcept {
        return by_color_[index(c)] & by_type_[index(t)];
    }
    [[nodiscard]] Piece piece_at(Square s) const noexcept { return board_[index(s)]; }
    [[nodiscard]] Square king_square(Color c) const noexcept { return pieces(c, PieceType::king).first(); }
    [[nodiscard]] Color turn() const noexcept { return turn_; }
    /// Squares of the rooks that keep a castling right.
    [[nodiscard]] Bitboard castling_rooks() const noexcept { return castling_rooks_; }
    [[nodiscard]] Bitboard castling_rooks(Color c) const noexcept {
        return castling_rooks_ & Bitboard::rank(c == Color::white ? 0 : 7);
    }
    /// The en passant square as FEN writes it: set after every double step, whether or not a
    /// capture is possible.
    [[nodiscard]] Square ep_square() const noexcept { return ep_square_; }
    /// The en passant square only when a legal en passant capture exists (FIDE 9.2.3.1); this
    /// is the one that position identity and the Zobrist key use.
    [[nodiscard]] Square legal_ep_square() const noexcept { return ep_legal_ ? ep_square_ : Square::none; }
    [[nodiscard]] std::uint32_t halfmove_clock() const noexcept { return halfmove_clock_; }
    [[nodiscard]] std::uint32_t fullmove_number() const noexcept { return fullmove_number_; }
    [[nodiscard]] bool is_chess960() const noexcept { return chess960_; }
    /// Zobrist key of (placement, side to move, castling rights, legal en passant square).
    [[nodiscard]] std::uint64_t key() const noexcept { return key_; }
    /// The key computed from scratch (for tests of the incremental update).
    [[nodiscard]] std::uint64_t compute_key() const noexcept;

    // --- Attacks -------------------------------------------------------------------------
    /// Pieces of both colours attacking `s`, given the occupancy `occ`.
    [[nodiscard]] Bitboard attackers_to(Square s, Bitboard occ) const noexcept;
    /// True when a piece of colour `by` attacks `s` with occupancy `occ`.
    [[nodiscard]] bool attacked_by(Color by, Square s, Bitboard occ) const noexcept;
    /// Enemy pieces giving check to the side to move.
    [[nodiscard]] Bitboard checkers() const noexcept {
        return attackers_to(king_square(turn_), occupied()) & pieces(~turn_);
    }
    [[nodiscard]] bool in_check() const noexcept { return checkers().any(); }

    // --- Moves ---------------------------------------------------------------------------
    /// True when `m` is a legal move here.
    [[nodiscard]] bool is_legal(Move m) const noexcept;
    [[nodiscard]] bool is_capture(Move m) const noexcept {
        return m.is_en_passant() || (!m.is_castling() && board_[index(m.to())] != Piece::none);
    }
    /// True when `m` resets the no-progress counter (a pawn move or a capture).
    [[nodiscard]] bool is_zeroing(Move m) const noexcept {
        return is_capture(m) || type_of(board_[index(m.from())]) == PieceType::pawn;
    }
    /// True when the legal move `m` checks the opponent.
    [[nodiscard]] bool gives_check(Move m) const noexcept;
    /// The child position after the legal move `m`.
    [[nodiscard]] Position after(Move m) const noexcept {
        Position p = *this;
        p.play_unchecked(m);
        return p;
    }
    /// Plays `m`, which must be legal (unchecked precondition).
    inline void play_unchecked(Move m) noexcept;

    /// Where the king and rook stand after castling with the rook on `rook` (FIDE Guidelines II).
    static constexpr Square castle_king_to(Color c, Square king, Square rook) noexcept {
        return relative_square(c, index(rook) > index(king) ? Square::g1 : Square::c1);
    }
    static constexpr Square castle_rook_to(Color c, Square king, Square rook) noexcept {
        return relative_square(c, index(rook) > index(king) ? Square::f1 : Square::d1);
    }

    /// FIDE identity (9.2.3): same placement by kind and colour, side to move, castling rights
    /// and legal en passant square. Counters are ignored.
    [[nodiscard]] bool same_position(const Position& o) const noexcept {
        return board_ == o.board_ && turn_ == o.turn_ && castling_rooks_ == o.castling_rooks_ &&
               legal_ep_square() == o.legal_ep_square();
    }
    /// Same pieces of the same kind and colour on the same squares.
    [[nodiscard]] bool same_placement(const Position& o) const noexcept { return board_ == o.board_; }
    /// Full equality, counters and raw en passant square included.
    friend bool operator==(const Position& a, const Position& b) noexcept {
        return a.same_position(b) && a.ep_square_ == b.ep_square_ && a.halfmove_clock_ == b.halfmove_clock_ &&
               a.fullmove_number_ == b.fullmove_number_;
    }

private:
    struct EmptyTag {};
    explicit Position(EmptyTag) noexcept { board_.fill(Piece::none); }
    void put(Piece p, Square s) noexcept {
        board_[index(s)] = p;
        by_type_[index(type_of(p))] |= s;
        by_color_[index(color_of(p))] |= s;
        key_ ^= detail::zobrist.piece_square[index(p)][index(s)];
    }
    void remove(Square s) noexcept {
        const Piece p = board_[index(s)];
        board_[index(s)] = Piece::none;
        by_type_[index(type_of(p))] ^= s;
        by_color_[index(color_of(p))] ^= s;
        key_ ^= detail::zobrist.piece_square[index(p)][index(s)];
    }
    void drop_castling(Bitboard rooks) noexcept {
        for (Square s : rooks& castling_rooks_) key_ ^= detail::zobrist.castling[index(s)];
        castling_rooks_ &= ~rooks;
    }
    /// After a double step to `to` over `skipped` by the side that just moved: does the side
    /// now to move have a legal en passant capture?
    [[nodiscard]] bool has_legal_ep(Square skipped) const noexcept;

    std::array<Bitboard, 6> by_type_{};
    std::array<Bitboard, 2> by_color_{};
    std::array<Piece, 64> board_{};
    std::uint64_t key_ = 0;
    Bitboard castling_rooks_;
    std::uint32_t halfmove_clock_ = 0;
    std::uint32_t fullmove_number_ = 1;
    Square ep_square_ = Square::none;
    Color turn_ = Color::white;
    bool ep_legal_ = false;
    bool chess960_ = false;

    friend struct PositionAccess;
};

inline void Position::play_unchecked(Move m) noexcept {
    const Color us = turn_;
    const Square from = m.from();
    const Square to = m.to();
    const Piece moving = board_[index(from)];

    if (ep_legal_) key_ ^= detail::zobrist.ep_file[file_of(ep_square_)];
    ep_square_ = Square::none;
    ep_legal_ = false;
    ++halfmove_clock_;

    if (m.is_castling()) {
        const Piece rook = board_[index(to)];
        remove(from);
        remove(to);
        put(moving, castle_king_to(us, from, to));
        put(rook, castle_rook_to(us, from, to));
        drop_castling(Bitboard::rank(us == Color::white ? 0 : 7));
    } else {
        const int up = us == Color::white ? 8 : -8;
        if (m.is_en_passant()) {
            remove(to - up);
            halfmove_clock_ = 0;
        } else if (board_[index(to)] != Piece::none) {
            remove(to);
            halfmove_clock_ = 0;
        }
        remove(from);
        const PieceType pt = type_of(moving);
        put(m.is_promotion() ? make_piece(us, m.promoted()) : moving, to);
        if (pt == PieceType::pawn) {
            halfmove_clock_ = 0;
            if ((index(to) ^ index(from)) == 16) {
                ep_square_ = from + up;
                turn_ = ~us;  // has_legal_ep looks from the side to move next
                ep_legal_ = has_legal_ep(ep_square_);
                turn_ = us;
                if (ep_legal_) key_ ^= detail::zobrist.ep_file[file_of(ep_square_)];
            }
        } else if (pt == PieceType::king) {
            drop_castling(Bitboard::rank(us == Color::white ? 0 : 7));
        }
        if (castling_rooks_ & (from | to)) drop_castling(from | to);
    }
    if (us == Color::black) ++fullmove_number_;
    turn_ = ~us;
    key_ ^= detail::zobrist.side;
}

}  // namespace arbiter
