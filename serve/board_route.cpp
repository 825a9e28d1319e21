// board_route.cpp — GET /board.svg (board_route.hpp).
#include "board_route.hpp"

#include "api_request.hpp"
#include "board_svg.hpp"
#include "dead_json.hpp"
#include "errors.hpp"
#include "game_input.hpp"

namespace arbiter::serve {

Response board(const Request& req) {
    const std::string fen = query_value(req, "fen");
    Position pos;
    if (!fen.empty()) pos = face::composed_fen_or_throw(fen);  // bad_fen, field fen, its byte
    face::BoardStyle style;
    style.flip = query_value(req, "flip") == "1";
    for (const auto& key : {"highlight", "arrow"}) {
        const std::string v = query_value(req, key);
        if (v.empty()) continue;
        for (const auto& item : split(v, ',')) {
            const bool arrow = std::string_view(key) == "arrow";
            auto sq = [&](std::size_t at) {
                if (item.size() < at + 2 || item[at] < 'a' || item[at] > 'h' || item[at + 1] < '1' ||
                    item[at + 1] > '8')
                    throw ApiError{400, "bad_square",
                                   std::string(key) + ": '" + item + "' is not " +
                                       (arrow ? "a pair of squares such as g1f3" : "a square such as e4")};
                return static_cast<int>((item[at + 1] - '1') * 8 + (item[at] - 'a'));
            };
            if (arrow) {
                if (item.size() != 4) sq(4);
                style.arrows.emplace_back(sq(0), sq(2));
            } else {
                if (item.size() != 2) sq(2);
                style.highlights.push_back(sq(0));
            }
            if (style.arrows.size() + style.highlights.size() > 128)
                throw ApiError{400, "bad_square", "at most 128 highlights and arrows"};
        }
    }
    Response r;
    r.content_type = "image/svg+xml";
    r.body = face::board_svg(pos, style);
    r.headers.emplace_back("Cache-Control", "public, max-age=3600");
    return r;
}

}  // namespace arbiter::serve
