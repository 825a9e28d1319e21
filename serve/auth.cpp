// auth.cpp — the bearer token of the API (auth.hpp).
#include "auth.hpp"

#include "api_request.hpp"

namespace arbiter::serve {

namespace {

// Compares without leaving the length of the common prefix in the time taken.
bool constant_time_equal(const std::string& a, const std::string& b) {
    unsigned char diff = a.size() == b.size() ? 0 : 1;
    for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i % (b.size() + 1)]);
    return diff == 0;
}

}  // namespace

std::optional<face::Response> check_token(const face::Request& req, const std::string& token) {
    if (token.empty()) return std::nullopt;
    const std::string prefix = "Bearer ";
    const std::string& h = req.authorization;
    if (h.rfind(prefix, 0) == 0 && constant_time_equal(h.substr(prefix.size()), token)) return std::nullopt;
    ApiError e{401, "unauthorized", "this server needs Authorization: Bearer TOKEN (the --token-file's)"};
    Response r = error_response(e);
    r.headers.emplace_back("WWW-Authenticate", "Bearer");
    return r;
}

}  // namespace arbiter::serve
