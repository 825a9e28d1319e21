// bitboard.hpp — a set of squares packed into 64 bits, with constexpr set operations and
// iteration; the workhorse of move generation.
#pragma once

#include <bit>
#include <cstdint>

#include "arbiter/types.hpp"

namespace arbiter {

struct Bitboard {
    std::uint64_t bits = 0;

    constexpr Bitboard() noexcept = default;
    constexpr explicit Bitboard(std::uint64_t b) noexcept : bits(b) {}
    constexpr Bitboard(Square s) noexcept : bits(std::uint64_t{1} << index(s)) {}

    static constexpr Bitboard all() noexcept { return Bitboard(~std::uint64_t{0}); }
    static constexpr Bitboard file(File f) noexcept { return Bitboard(0x0101010101010101ULL << f); }
    static constexpr Bitboard rank(Rank r) noexcept { return Bitboard(0xFFULL << (8 * r)); }
    static constexpr Bitboard light_squares() noexcept { return Bitboard(0x55AA55AA55AA55AAULL); }
    static constexpr Bitboard dark_squares() noexcept { return Bitboard(0xAA55AA55AA55AA55ULL); }

    [[nodiscard]] constexpr bool empty() const noexcept { return bits == 0; }
    [[nodiscard]] constexpr bool any() const noexcept { return bits != 0; }
    [[nodiscard]] constexpr bool more_than_one() const noexcept { return (bits & (bits - 1)) != 0; }
    [[nodiscard]] constexpr int count() const noexcept { return std::popcount(bits); }
    [[nodiscard]] constexpr bool contains(Square s) const noexcept { return (bits >> index(s)) & 1; }
    /// Lowest square; precondition: not empty.
    [[nodiscard]] constexpr Square first() const noexcept { return square_at(std::countr_zero(bits)); }
    /// Highest square; precondition: not empty.
    [[nodiscard]] constexpr Square last() const noexcept { return square_at(63 - std::countl_zero(bits)); }
    /// Removes and returns the lowest square; precondition: not empty.
    constexpr Square pop() noexcept {
        const Square s = first();
        bits &= bits - 1;
        return s;
    }

    constexpr explicit operator bool() const noexcept { return bits != 0; }
    friend constexpr bool operator==(Bitboard a, Bitboard b) noexcept = default;
    friend constexpr Bitboard operator&(Bitboard a, Bitboard b) noexcept { return Bitboard(a.bits & b.bits); }
    friend constexpr Bitboard operator|(Bitboard a, Bitboard b) noexcept { return Bitboard(a.bits | b.bits); }
    friend constexpr Bitboard operator^(Bitboard a, Bitboard b) noexcept { return Bitboard(a.bits ^ b.bits); }
    constexpr Bitboard operator~() const noexcept { return Bitboard(~bits); }
    constexpr Bitboard& operator&=(Bitboard o) noexcept {
        bits &= o.bits;
        return *this;
    }
    constexpr Bitboard& operator|=(Bitboard o) noexcept {
        bits |= o.bits;
        return *this;
    }
    constexpr Bitboard& operator^=(Bitboard o) noexcept {
        bits ^= o.bits;
        return *this;
    }
    /// Shifts by a signed number of bits (positive = towards h8). No wrap-around masking.
    [[nodiscard]] constexpr Bitboard shifted(int d) const noexcept { return Bitboard(d >= 0 ? bits << d : bits >> -d); }

    struct iterator {
        std::uint64_t b;
        constexpr Square operator*() const noexcept { return square_at(std::countr_zero(b)); }
        constexpr iterator& operator++() noexcept {
            b &= b - 1;
            return *this;
        }
        constexpr bool operator!=(const iterator& o) const noexcept { return b != o.b; }
    };
    [[nodiscard]] constexpr iterator begin() const noexcept { return {bits}; }
    [[nodiscard]] constexpr iterator end() const noexcept { return {0}; }
};

constexpr Bitboard operator|(Square a, Square b) noexcept { return Bitboard(a) | Bitboard(b); }

}  // namespace arbiter
