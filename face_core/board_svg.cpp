// board_svg.cpp — the SVG board of /board.svg, the console and the claim checker.
#include "board_svg.hpp"

#include "errors.hpp"

#include <cmath>
#include <string_view>

namespace arbiter::face {

namespace {

constexpr int cell = 45;  // 8 × 45 = 360

// The solid glyphs (U+265A…U+265F) for both sides, filled white or black, so that both sets
// have the same shape.
constexpr std::string_view glyph[] = {"&#x265F;", "&#x265E;", "&#x265D;", "&#x265C;", "&#x265B;", "&#x265A;"};

struct Xy {
    double x, y;
};

Xy centre(int sq, bool flip) {
    const int file = sq % 8, rank = sq / 8;
    const int col = flip ? 7 - file : file, row = flip ? rank : 7 - rank;
    return {col * cell + cell / 2.0, row * cell + cell / 2.0};
}

std::string num(double v) {
    std::string s = std::to_string(std::lround(v * 10) / 10.0);
    s.erase(s.find_last_not_of('0') + 1);
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
}

}  // namespace

std::string board_svg(const Position& pos, const BoardStyle& style) {
    std::string out;
    out.reserve(16'000);
    out += R"(<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 360 360" width="360" height="360" role="img")";
    out += R"( aria-label="chess board"><defs><marker id="h" viewBox="0 0 10 10" refX="5" refY="5" )";
    out += R"(markerWidth="3" markerHeight="3" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#15781b"/></marker>)";
    out += "</defs>";
    for (int sq = 0; sq < 64; ++sq) {
        const Xy c = centre(sq, style.flip);
        const bool light = (sq % 8 + sq / 8) % 2 == 1;
        out +=
            "<rect x=\"" + num(c.x - cell / 2.0) + "\" y=\"" + num(c.y - cell / 2.0) + "\" width=\"45\" height=\"45\"";
        out += light ? " fill=\"#f0d9b5\"/>" : " fill=\"#b58863\"/>";
    }
    for (int sq : style.highlights) {
        const Xy c = centre(sq, style.flip);
        out += "<rect x=\"" + num(c.x - cell / 2.0) + "\" y=\"" + num(c.y - cell / 2.0) +
               R"(" width="45" height="45" fill="#9bc700" fill-opacity="0.55"/>)";
    }
    // Coordinates: files along the bottom, ranks along the left.
    for (int i = 0; i < 8; ++i) {
        const int file = style.flip ? 7 - i : i, rank = style.flip ? i + 1 : 8 - i;
        out += "<text x=\"" + std::to_string(i * cell + 38) +
               R"(" y="356" font-size="9" font-family="sans-serif" fill="#333">)";
        out += static_cast<char>('a' + file);
        out += "</text><text x=\"2\" y=\"" + std::to_string(i * cell + 10) +
               R"(" font-size="9" font-family="sans-serif" fill="#333">)" + std::to_string(rank) + "</text>";
    }
    for (int sq = 0; sq < 64; ++sq) {
        const Piece p = pos.piece_at(static_cast<Square>(sq));
        if (p == Piece::none) continue;
        const Xy c = centre(sq, style.flip);
        const bool white = color_of(p) == Color::white;
        out += "<text x=\"" + num(c.x) + "\" y=\"" + num(c.y + 13) +
               R"(" text-anchor="middle" font-size="38" font-family="DejaVu Sans, Noto Sans Symbols2, sans-serif")";
        out += white ? R"( fill="#fff" stroke="#000" stroke-width="1.2")"
                     : R"( fill="#000" stroke="#000" stroke-width="0.6")";
        out += "><title>";
        out += white ? "white " : "black ";
        out += piece_name(type_of(p));
        out += "</title>";
        out += glyph[index(type_of(p))];
        out += "</text>";
    }
    for (const auto& [from, to] : style.arrows) {
        const Xy a = centre(from, style.flip), b = centre(to, style.flip);
        const double dx = b.x - a.x, dy = b.y - a.y, len = std::hypot(dx, dy);
        if (len == 0) continue;
        const double shorten = 12 / len;  // end before the centre so that the head stays on the square
        out +=
            "<line x1=\"" + num(a.x) + "\" y1=\"" + num(a.y) + "\" x2=\"" + num(b.x - dx * shorten) + "\" y2=\"" +
            num(b.y - dy * shorten) +
            R"svg(" stroke="#15781b" stroke-width="7" stroke-opacity="0.8" stroke-linecap="round" marker-end="url(#h)"/>)svg";
    }
    out += "</svg>\n";
    return out;
}

BoardStyle board_style(bool flip, std::string_view highlight, std::string_view arrow) {
    BoardStyle style;
    style.flip = flip;
    for (const bool is_arrow : {false, true}) {
        const std::string_view list = is_arrow ? arrow : highlight;
        const char* key = is_arrow ? "arrow" : "highlight";
        for (std::size_t at = 0; !list.empty() && at <= list.size();) {
            std::size_t end = list.find(',', at);
            if (end == std::string_view::npos) end = list.size();
            const std::string_view item = list.substr(at, end - at);
            at = end + 1;
            const auto square = [&](std::size_t i) {
                if (item.size() != (is_arrow ? 4u : 2u) || item[i] < 'a' || item[i] > 'h' || item[i + 1] < '1' ||
                    item[i + 1] > '8')
                    throw InputError(Code::bad_square,
                                     std::string(key) + ": '" + std::string(item.substr(0, 16)) + "' is not " +
                                         (is_arrow ? "a pair of squares such as g1f3" : "a square such as e4"),
                                     key);
                return (item[i + 1] - '1') * 8 + (item[i] - 'a');
            };
            if (is_arrow)
                style.arrows.emplace_back(square(0), square(2));
            else
                style.highlights.push_back(square(0));
            if (style.arrows.size() + style.highlights.size() > 128)
                throw InputError(Code::bad_square, "at most 128 highlights and arrows", key);
        }
    }
    return style;
}

}  // namespace arbiter::face
