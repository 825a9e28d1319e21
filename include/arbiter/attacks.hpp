// attacks.hpp — attack sets of every piece from every square, and the line/between tables used
// for pins and checks. Sliding attacks use PEXT on CPUs with fast BMI2 (chosen at build time by
// ARBITER_USE_PEXT) and magic bitboards otherwise; both share the same tables layout.
#pragma once

#include <array>
#include <cstdint>

#include "arbiter/bitboard.hpp"

#if defined(ARBITER_USE_PEXT)
#include <immintrin.h>
#endif

namespace arbiter {

namespace detail {

struct SliderEntry {
    std::uint64_t mask;   // relevant occupancy (edges excluded)
    std::uint64_t magic;  // unused with PEXT
    std::uint64_t* table;
    unsigned shift;

    [[nodiscard]] std::uint64_t index(std::uint64_t occupied) const noexcept {
#if defined(ARBITER_USE_PEXT)
        return _pext_u64(occupied, mask);
#else
        return ((occupied & mask) * magic) >> shift;
#endif
    }
};

struct AttackTables {
    std::array<SliderEntry, 64> rook;
    std::array<SliderEntry, 64> bishop;
    std::array<std::array<std::uint64_t, 64>, 64> between;  // squares strictly between, or 0
    std::array<std::array<std::uint64_t, 64>, 64> line;     // the whole line through both, or 0
};

extern AttackTables tables;

constexpr std::uint64_t step_attacks(int sq, const int (*deltas)[2], int n) noexcept {
    std::uint64_t r = 0;
    for (int i = 0; i < n; ++i) {
        const int f = (sq & 7) + deltas[i][0];
        const int rk = (sq >> 3) + deltas[i][1];
        if (f >= 0 && f < 8 && rk >= 0 && rk < 8) r |= std::uint64_t{1} << (rk * 8 + f);
    }
    return r;
}

constexpr int knight_deltas[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
constexpr int king_deltas[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
constexpr int white_pawn_deltas[2][2] = {{-1, 1}, {1, 1}};
constexpr int black_pawn_deltas[2][2] = {{-1, -1}, {1, -1}};

constexpr auto make_step_table(const int (*deltas)[2], int n) noexcept {
    std::array<std::uint64_t, 64> t{};
    for (int s = 0; s < 64; ++s) t[s] = step_attacks(s, deltas, n);
    return t;
}

/// Squares a slider on `sq` reaches on an empty board along `deltas` (the rays to the edges).
constexpr std::uint64_t ray_attacks(int sq, const int (*deltas)[2], int n) noexcept {
    std::uint64_t r = 0;
    for (int i = 0; i < n; ++i)
        for (int f = (sq & 7) + deltas[i][0], rk = (sq >> 3) + deltas[i][1]; f >= 0 && f < 8 && rk >= 0 && rk < 8;
             f += deltas[i][0], rk += deltas[i][1])
            r |= std::uint64_t{1} << (rk * 8 + f);
    return r;
}
constexpr int bishop_deltas[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
constexpr int rook_deltas[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr auto make_ray_table(const int (*deltas)[2]) noexcept {
    std::array<std::uint64_t, 64> t{};
    for (int s = 0; s < 64; ++s) t[s] = ray_attacks(s, deltas, 4);
    return t;
}

inline constexpr std::array<std::uint64_t, 64> knight_table = make_step_table(knight_deltas, 8);
inline constexpr std::array<std::uint64_t, 64> king_table = make_step_table(king_deltas, 8);
inline constexpr std::array<std::uint64_t, 64> bishop_ray_table = make_ray_table(bishop_deltas);
inline constexpr std::array<std::uint64_t, 64> rook_ray_table = make_ray_table(rook_deltas);
inline constexpr std::array<std::array<std::uint64_t, 64>, 2> pawn_table = {make_step_table(white_pawn_deltas, 2),
                                                                            make_step_table(black_pawn_deltas, 2)};

}  // namespace detail

inline Bitboard knight_attacks(Square s) noexcept { return Bitboard(detail::knight_table[index(s)]); }
inline Bitboard king_attacks(Square s) noexcept { return Bitboard(detail::king_table[index(s)]); }
/// Squares a pawn of colour `c` on `s` attacks.
inline Bitboard pawn_attacks(Color c, Square s) noexcept { return Bitboard(detail::pawn_table[index(c)][index(s)]); }
/// Squares a bishop or rook on `s` would attack on an empty board (a small table: a quick test
/// of whether it could reach a square at all).
inline Bitboard bishop_rays(Square s) noexcept { return Bitboard(detail::bishop_ray_table[index(s)]); }
inline Bitboard rook_rays(Square s) noexcept { return Bitboard(detail::rook_ray_table[index(s)]); }
inline Bitboard rook_attacks(Square s, Bitboard occupied) noexcept {
    const auto& e = detail::tables.rook[index(s)];
    return Bitboard(e.table[e.index(occupied.bits)]);
}
inline Bitboard bishop_attacks(Square s, Bitboard occupied) noexcept {
    const auto& e = detail::tables.bishop[index(s)];
    return Bitboard(e.table[e.index(occupied.bits)]);
}
inline Bitboard queen_attacks(Square s, Bitboard occupied) noexcept {
    return rook_attacks(s, occupied) | bishop_attacks(s, occupied);
}
/// Attacks of a piece kind (not pawn) from `s` given the occupancy.
inline Bitboard attacks(PieceType t, Square s, Bitboard occupied) noexcept {
    switch (t) {
        case PieceType::knight: return knight_attacks(s);
        case PieceType::bishop: return bishop_attacks(s, occupied);
        case PieceType::rook: return rook_attacks(s, occupied);
        case PieceType::queen: return queen_attacks(s, occupied);
        case PieceType::king: return king_attacks(s);
        default: return Bitboard();
    }
}
/// Squares strictly between a and b when they share a rank, file or diagonal; else empty.
inline Bitboard between(Square a, Square b) noexcept { return Bitboard(detail::tables.between[index(a)][index(b)]); }
/// The full line (edge to edge) through a and b when aligned; else empty.
inline Bitboard line(Square a, Square b) noexcept { return Bitboard(detail::tables.line[index(a)][index(b)]); }
/// True when a, b and c lie on one line.
inline bool aligned(Square a, Square b, Square c) noexcept { return line(a, b).contains(c); }

/// "pext" or "magic": which slider lookup this build uses.
const char* slider_backend() noexcept;

}  // namespace arbiter
