// helpmate_check.hpp — test helpers: read a position, and check a can_checkmate certificate by
// replaying it (every move legal and SAN-convertible, the last position a mate by that side), and
// mirror a FEN (written apart from the library's own orientation code, so that the two check
// each other).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "arbiter/arbiter.hpp"

namespace arbiter::testing {

/// A position from a FEN that may omit counters and may be composed (surplus pieces).
inline Position composed(const std::string& fen) {
    auto pos = composed_position_from_fen(fen);
    EXPECT_TRUE(pos.has_value()) << fen << ": " << (pos ? "" : pos.error().describe());
    return pos ? *pos : Position();
}

/// Empty when the verdict's line is a valid certificate that `side` can mate; else what is wrong.
inline std::string certificate_problem(const Position& start, Color side, const MateVerdict& v) {
    if (v.answer != MateAbility::can_checkmate) return "not can_checkmate";
    Position pos = start;
    for (std::size_t i = 0; i < v.line.size(); ++i) {
        const Move m = v.line[i];
        if (!legal_moves(pos).contains(m)) return "move " + std::to_string(i + 1) + " is illegal";
        const std::string san = to_san(pos, m);
        auto back = parse_san(pos, san);
        if (!back || *back != m)
            return "move " + std::to_string(i + 1) + " does not round-trip through SAN (" + san + ")";
        pos.play_unchecked(m);
    }
    if (!is_checkmate(pos)) return "the line does not end in checkmate";
    if (pos.turn() != ~side) return "the line ends in a mate of the wrong side";
    return {};
}

/// A rank of a FEN placement from its squares, a to h ('.' for an empty square).
inline std::string packed_rank(const std::string& squares) {
    std::string packed;
    int empty = 0;
    for (char c : squares) {
        if (c == '.') {
            ++empty;
            continue;
        }
        if (empty) packed += static_cast<char>('0' + empty);
        empty = 0;
        packed += c;
    }
    if (empty) packed += static_cast<char>('0' + empty);
    return packed;
}

namespace fen_detail {
inline std::vector<std::string> fields(const std::string& fen) {
    std::istringstream in(fen);
    std::vector<std::string> f;
    for (std::string x; in >> x;) f.push_back(x);
    return f;
}
inline std::string join(const std::vector<std::string>& f) {
    std::string out;
    for (const auto& x : f) out += (out.empty() ? "" : " ") + x;
    return out;
}
}  // namespace fen_detail

/// The colour mirror of a FEN: the ranks in reverse order, White and Black exchanged (pieces,
/// side to move, castling rights), the en passant square on the mirrored rank.
inline std::string colour_mirror_fen(const std::string& fen) {
    auto f = fen_detail::fields(fen);
    std::vector<std::string> ranks;
    std::string rank;
    for (char c : f.at(0)) {
        if (c == '/') {
            ranks.push_back(rank);
            rank.clear();
            continue;
        }
        rank += std::isalpha(static_cast<unsigned char>(c))
                    ? static_cast<char>(std::isupper(static_cast<unsigned char>(c)) ? std::tolower(c) : std::toupper(c))
                    : c;
    }
    ranks.push_back(rank);
    std::reverse(ranks.begin(), ranks.end());
    std::string board;
    for (const auto& r : ranks) board += (board.empty() ? "" : "/") + r;
    f[0] = board;
    if (f.size() > 1) f[1] = f[1] == "w" ? "b" : "w";
    if (f.size() > 2 && f[2] != "-") {
        std::string upper, lower;
        for (char c : f[2])
            (std::isupper(static_cast<unsigned char>(c)) ? lower : upper) +=
                static_cast<char>(std::isupper(static_cast<unsigned char>(c)) ? std::tolower(c) : std::toupper(c));
        f[2] = upper + lower;
    }
    if (f.size() > 3 && f[3] != "-") f[3][1] = static_cast<char>('1' + ('8' - f[3][1]));
    return fen_detail::join(f);
}

/// The file mirror of a FEN (files a and h exchanged), or nullopt when it has castling rights,
/// which the mirror would not keep.
inline std::optional<std::string> file_mirror_fen(const std::string& fen) {
    auto f = fen_detail::fields(fen);
    if (f.size() > 2 && f[2] != "-") return std::nullopt;
    std::string board, rank;
    auto flush = [&] {
        std::string expanded;
        for (char c : rank)
            expanded += std::isdigit(static_cast<unsigned char>(c))
                            ? std::string(static_cast<std::size_t>(c - '0'), '.')
                            : std::string(1, c);
        std::reverse(expanded.begin(), expanded.end());
        board += (board.empty() ? "" : "/") + packed_rank(expanded);
        rank.clear();
    };
    for (char c : f.at(0)) {
        if (c == '/') {
            flush();
            continue;
        }
        rank += c;
    }
    flush();
    f[0] = board;
    if (f.size() > 3 && f[3] != "-") f[3][0] = static_cast<char>('a' + ('h' - f[3][0]));
    return fen_detail::join(f);
}

/// The mirrors of a question (a FEN and the side asked): the colour mirror, with the other side
/// asked, and without castling rights also the file mirror and both mirrors together.
inline std::vector<std::pair<std::string, Color>> mirrored_questions(const std::string& fen, Color side) {
    std::vector<std::pair<std::string, Color>> out{{colour_mirror_fen(fen), ~side}};
    if (auto f = file_mirror_fen(fen)) {
        out.emplace_back(*f, side);
        out.emplace_back(colour_mirror_fen(*f), ~side);
    }
    return out;
}

/// The placement field of a FEN from 64 squares (index rank * 8 + file, a1 first; '.' empty).
inline std::string placement_of(const std::string& board) {
    std::string fen;
    for (int r = 7; r >= 0; --r) fen += packed_rank(board.substr(static_cast<std::size_t>(r * 8), 8)) + (r ? "/" : "");
    return fen;
}

/// Puts each of `units` (FEN letters) on a random empty square of `board` (as for placement_of),
/// pawns off the first and last ranks.
template <typename Rng>
void place_randomly(std::string& board, const std::string& units, Rng& rng) {
    for (char c : units) {
        const bool pawn = c == 'P' || c == 'p';
        std::size_t sq;
        do sq = rng() % 64;
        while (board[sq] != '.' || (pawn && (sq < 8 || sq >= 56)));
        board[sq] = c;
    }
}

}  // namespace arbiter::testing
