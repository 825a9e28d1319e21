// orientation.cpp — the orientation every question is searched in (docs/unwinnability.md,
// "Orientation"): the side asked becomes Black, and a board without castling rights faces the
// way whose placement reads first. A position, its colour mirror and its file mirror then meet
// the searches as one and the same position, so they get the same answer from the same work.
#include <array>
#include <cstring>
#include <optional>

#include "impl.hpp"

namespace arbiter::detail {
namespace {

/// Files a and h exchanged within every rank.
constexpr std::uint64_t mirror_files(std::uint64_t x) noexcept {
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    return ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
}

/// Ranks 1 and 8 exchanged.
constexpr std::uint64_t mirror_ranks(std::uint64_t x) noexcept { return __builtin_bswap64(x); }

/// The placement as twelve bitboards (White's pawn to king, then Black's), seen in `o`.
std::array<std::uint64_t, 12> placement(const Position& p, Orientation o) noexcept {
    std::array<std::uint64_t, 12> out{};
    for (Color c : {Color::white, Color::black})
        for (int t = 0; t < 6; ++t) {
            std::uint64_t b = p.pieces(c, static_cast<PieceType>(t)).bits;
            if (o.colours) b = mirror_ranks(b);
            if (o.files) b = mirror_files(b);
            const Color seen = o.colours ? ~c : c;
            out[static_cast<std::size_t>(index(seen) * 6 + t)] = b;
        }
    return out;
}

/// Every bitboard seen in `o`.
constexpr std::uint64_t seen_in(std::uint64_t b, Orientation o) noexcept {
    if (o.colours) b = mirror_ranks(b);
    if (o.files) b = mirror_files(b);
    return b;
}

}  // namespace
}  // namespace arbiter::detail

namespace arbiter {

/// The library's access to a Position's members (a friend of Position): here, the position seen
/// in another orientation, built directly (the mirror of a valid position is valid, so it need
/// not be validated again).
struct PositionAccess {
    static Position oriented(const Position& p, detail::Orientation o) noexcept {
        Position q = p;  // the counters and flags as they are
        for (std::size_t t = 0; t < q.by_type_.size(); ++t)
            q.by_type_[t] = Bitboard(detail::seen_in(p.by_type_[t].bits, o));
        for (Color c : {Color::white, Color::black})
            q.by_color_[index(o.colours ? ~c : c)] = Bitboard(detail::seen_in(p.by_color_[index(c)].bits, o));
        // The board a rank (eight bytes, file a first) at a time: the ranks in reverse order
        // with the colours, the bytes of each rank reversed with the files, and the colour bit
        // (8) of every occupied square flipped with the colours.
        static_assert(sizeof(Piece) == 1 && index(Piece::none) == 6 &&
                      index(make_piece(Color::black, PieceType::pawn)) == 8);
        for (int r = 0; r < 8; ++r) {
            std::uint64_t row;
            std::memcpy(&row, p.board_.data() + 8 * r, 8);
            if (o.files) row = __builtin_bswap64(row);
            if (o.colours) {
                constexpr std::uint64_t none = 0x0606060606060606ULL, low = 0x7F7F7F7F7F7F7F7FULL;
                const std::uint64_t y = row ^ none;                             // zero bytes: empty squares
                const std::uint64_t occupied = (y | ((y & low) + low)) & ~low;  // 0x80 per occupied byte
                row ^= occupied >> 4;                                           // 0x08: the colour bit
            }
            std::memcpy(q.board_.data() + 8 * (o.colours ? 7 - r : r), &row, 8);
        }
        q.castling_rooks_ = Bitboard(detail::seen_in(p.castling_rooks_.bits, o));
        q.ep_square_ = p.ep_square_ == Square::none ? Square::none : detail::oriented(p.ep_square_, o);
        q.turn_ = o.colours ? ~p.turn_ : p.turn_;
        q.key_ = q.compute_key();
        return q;
    }
};

}  // namespace arbiter

namespace arbiter::detail {

Square oriented(Square s, Orientation o) noexcept {
    int i = index(s);
    if (o.colours) i ^= 56;
    if (o.files) i ^= 7;
    return square_at(i);
}

Move oriented(Move m, Orientation o) noexcept {
    if (m == Move::null()) return m;
    const Square from = oriented(m.from(), o), to = oriented(m.to(), o);
    if (m.is_castling()) return Move::castling(from, to);
    if (m.is_en_passant()) return Move::en_passant(from, to);
    if (m.is_promotion()) return Move::promotion(from, to, m.promoted());
    return Move::normal(from, to);
}

std::optional<Position> oriented(const Position& p, Orientation o) {
    if (o.identity()) return p;
    return arbiter::PositionAccess::oriented(p, o);
}

Orientation canonical_orientation(const Position& p, Color side) noexcept {
    Orientation o;
    o.colours = side != Color::black;
    // Castling rights tie a king and its rooks to their files: such a board keeps its files.
    if (p.castling_rooks().any()) return o;
    Orientation flipped = o;
    flipped.files = true;
    const auto a = placement(p, o), b = placement(p, flipped);
    if (b < a) return flipped;
    if (a == b && p.legal_ep_square() != Square::none &&
        index(oriented(p.legal_ep_square(), flipped)) < index(oriented(p.legal_ep_square(), o)))
        return flipped;
    return o;
}

}  // namespace arbiter::detail
