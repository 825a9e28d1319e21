// move.hpp — a chess move packed into 16 bits, and a fixed-capacity list of moves.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "arbiter/types.hpp"

namespace arbiter {

/// A move in 16 bits:
///
///   bits  0- 5  origin square
///   bits  6-11  destination square; for castling, the square of the castling rook
///               (king-takes-rook, so Chess960 needs no special case)
///   bits 12-13  promotion piece: 0 knight, 1 bishop, 2 rook, 3 queen (only with kind promotion)
///   bits 14-15  kind: 0 normal, 1 promotion, 2 en passant, 3 castling
///
/// The null move (all bits zero, a1a1) is never legal and serves as a sentinel.
class Move {
public:
    enum class Kind : std::uint8_t { normal = 0, promotion = 1, en_passant = 2, castling = 3 };

    constexpr Move() noexcept = default;
    static constexpr Move null() noexcept { return Move(); }
    static constexpr Move normal(Square from, Square to) noexcept { return Move(from, to, Kind::normal, 0); }
    static constexpr Move promotion(Square from, Square to, PieceType promoted) noexcept {
        return Move(from, to, Kind::promotion, index(promoted) - index(PieceType::knight));
    }
    static constexpr Move en_passant(Square from, Square to) noexcept { return Move(from, to, Kind::en_passant, 0); }
    /// Castling, written as the king's square and the castling rook's square.
    static constexpr Move castling(Square king, Square rook) noexcept { return Move(king, rook, Kind::castling, 0); }

    [[nodiscard]] constexpr Square from() const noexcept { return square_at(data_ & 63); }
    [[nodiscard]] constexpr Square to() const noexcept { return square_at((data_ >> 6) & 63); }
    [[nodiscard]] constexpr Kind kind() const noexcept { return static_cast<Kind>(data_ >> 14); }
    [[nodiscard]] constexpr bool is_promotion() const noexcept { return kind() == Kind::promotion; }
    [[nodiscard]] constexpr bool is_en_passant() const noexcept { return kind() == Kind::en_passant; }
    [[nodiscard]] constexpr bool is_castling() const noexcept { return kind() == Kind::castling; }
    /// The promotion piece, or PieceType::none for other moves.
    [[nodiscard]] constexpr PieceType promoted() const noexcept {
        return is_promotion() ? static_cast<PieceType>(((data_ >> 12) & 3) + 1) : PieceType::none;
    }
    [[nodiscard]] constexpr bool is_null() const noexcept { return data_ == 0; }
    [[nodiscard]] constexpr std::uint16_t raw() const noexcept { return data_; }
    static constexpr Move from_raw(std::uint16_t raw) noexcept {
        Move m;
        m.data_ = raw;
        return m;
    }

    friend constexpr bool operator==(Move a, Move b) noexcept = default;

private:
    constexpr Move(Square from, Square to, Kind kind, int promo) noexcept
        : data_(static_cast<std::uint16_t>(index(from) | (index(to) << 6) | (promo << 12) |
                                           (static_cast<int>(kind) << 14))) {}
    std::uint16_t data_ = 0;
};

/// A list of at most 256 moves (the most legal moves any chess position has is 218).
class MoveList {
public:
    static constexpr std::size_t capacity = 256;

    /// Appends `m`; a move beyond the capacity is dropped rather than written out of bounds
    /// (only positions built with SetupRepairs::allow_too_many_pieces can get near it).
    MoveList() noexcept {}  // the storage is left uninitialised: only [0, size) is ever read
    MoveList(const MoveList& o) noexcept : size_(o.size_) { std::copy(o.begin(), o.end(), data()); }
    MoveList& operator=(const MoveList& o) noexcept {
        size_ = o.size_;
        std::copy(o.begin(), o.end(), data());
        return *this;
    }

    void push_back(Move m) noexcept {
        if (size_ < capacity) [[likely]]
            data()[size_++] = m;
    }
    void clear() noexcept { size_ = 0; }
    [[nodiscard]] std::size_t size() const noexcept { return size_; }
    [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
    Move operator[](std::size_t i) const noexcept { return data()[i]; }
    [[nodiscard]] const Move* begin() const noexcept { return data(); }
    [[nodiscard]] const Move* end() const noexcept { return data() + size_; }
    [[nodiscard]] bool contains(Move m) const noexcept {
        for (Move x : *this)
            if (x == m) return true;
        return false;
    }

private:
    // Raw storage (Move is trivially copyable, so its objects live in the bytes they are copied
    // into): a std::array<Move> would zero its 256 moves at every construction, and a list is
    // made at every node of every search.
    Move* data() noexcept { return reinterpret_cast<Move*>(storage_); }
    [[nodiscard]] const Move* data() const noexcept { return reinterpret_cast<const Move*>(storage_); }
    alignas(Move) std::byte storage_[capacity * sizeof(Move)];
    std::size_t size_ = 0;
};

}  // namespace arbiter
