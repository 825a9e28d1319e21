// board_svg.hpp — a chess board as SVG, drawn by our own code (no image files, no third-party
// board component): the pieces as the Unicode chess glyphs, optional highlighted squares and
// arrows, from White's side or flipped. Served as /board.svg for the console, and drawn in the
// browser by the JavaScript API (boardSvg) for the claim checker.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arbiter/position.hpp"

namespace arbiter::face {

struct BoardStyle {
    bool flip = false;                        ///< Black at the bottom
    std::vector<int> highlights;              ///< squares 0 (a1) … 63 (h8)
    std::vector<std::pair<int, int>> arrows;  ///< from, to
};

/// The style a request asks for: `highlight` a comma-separated list of squares ("e2,e4"),
/// `arrow` one of pairs of squares ("g1f3,g8f6"), each empty for none (the console's
/// /board.svg query, the JavaScript boardSvg options). Throws InputError bad_square, its field
/// "highlight" or "arrow", for anything else or for more than 128 marks.
BoardStyle board_style(bool flip, std::string_view highlight, std::string_view arrow);

/// A 360 × 360 SVG image of the position, with coordinates.
std::string board_svg(const Position& pos, const BoardStyle& style);

}  // namespace arbiter::face
