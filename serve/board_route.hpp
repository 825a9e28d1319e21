// board_route.hpp — GET /board.svg: a position drawn by board_svg, with highlights and arrows
// from the query (docs/api.md).
#pragma once

#include "http/routes.hpp"

namespace arbiter::serve {

face::Response board(const face::Request& req);

}  // namespace arbiter::serve
