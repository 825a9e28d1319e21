// auth.hpp — the bearer token that guards the API (`arbiter serve --token-file`): every route but
// health, the board SVG and the console's files needs it (docs/api.md).
#pragma once

#include <optional>
#include <string>

#include "routes.hpp"

namespace arbiter::serve {

/// nullopt when the request may go on (no token set, or the right one given); else the 401 answer.
std::optional<face::Response> check_token(const face::Request& req, const std::string& token);

}  // namespace arbiter::serve
