// movegen.hpp — fully legal move generation (pins and checks are handled while generating, so
// no move is made and tested), legal-move counting, and perft.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "arbiter/move.hpp"
#include "arbiter/position.hpp"

namespace arbiter {

/// Appends every legal move of `pos` to `out` (which is cleared first).
void legal_moves(const Position& pos, MoveList& out) noexcept;
/// Every legal move of `pos`.
[[nodiscard]] MoveList legal_moves(const Position& pos) noexcept;
/// Appends the legal castling moves of `pos` to `out` (cleared first): the cheap way to resolve
/// "O-O" without listing every move.
void legal_castlings(const Position& pos, MoveList& out) noexcept;
/// The number of legal moves, counted without listing them.
[[nodiscard]] std::uint64_t count_legal_moves(const Position& pos) noexcept;
/// True when the side to move has at least one legal move.
[[nodiscard]] bool has_legal_move(const Position& pos) noexcept;
/// The first move legal_moves would list (the generator stops there), or none: for searches that
/// often look no further than their first move.
[[nodiscard]] std::optional<Move> first_legal_move(const Position& pos) noexcept;
/// Checkmate: in check with no legal move.
[[nodiscard]] inline bool is_checkmate(const Position& pos) noexcept { return pos.in_check() && !has_legal_move(pos); }
/// Stalemate: not in check with no legal move (FIDE 5.2.1).
[[nodiscard]] inline bool is_stalemate(const Position& pos) noexcept { return !pos.in_check() && !has_legal_move(pos); }

/// The number of leaf nodes of the legal move tree of the given depth.
[[nodiscard]] std::uint64_t perft(const Position& pos, int depth) noexcept;
/// perft split by root move (Stockfish's "divide"), in generation order.
[[nodiscard]] std::vector<std::pair<Move, std::uint64_t>> perft_divide(const Position& pos, int depth);

}  // namespace arbiter
