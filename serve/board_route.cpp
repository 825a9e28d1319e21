// board_route.cpp — GET /board.svg (board_route.hpp).
#include "board_route.hpp"

#include "api_request.hpp"
#include "board_svg.hpp"
#include "errors.hpp"
#include "requests/dead_json.hpp"
#include "requests/game_input.hpp"

namespace arbiter::serve {

Response board(const Request& req) {
    const std::string fen = query_value(req, "fen");
    Position pos;
    if (!fen.empty()) pos = face::composed_fen_or_throw(fen);  // bad_fen, field fen, its byte
    const face::BoardStyle style =
        face::board_style(query_value(req, "flip") == "1", query_value(req, "highlight"), query_value(req, "arrow"));
    Response r;
    r.content_type = "image/svg+xml";
    r.body = face::board_svg(pos, style);
    r.headers.emplace_back("Cache-Control", "public, max-age=3600");
    return r;
}

}  // namespace arbiter::serve
