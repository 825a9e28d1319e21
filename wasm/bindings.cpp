// bindings.cpp — the library and the face core as JavaScript sees them (embind): a request as
// JSON in, the answer as JSON out, the same JSON as `arbiter status|claim|dead --json` and the
// service (face::position_answer); a refusal is {"error": {code, message, field, offset}}, which
// wasm/js/index.mjs throws as an ArbiterError.
#include <emscripten/bind.h>

#include <string>

#include "arbiter/version.hpp"
#include "errors.hpp"
#include "position_requests.hpp"
#include "rules_json.hpp"

namespace {

using arbiter::face::Json;

std::string refusal(const std::string& code, const std::string& message, const std::string& field = {},
                    std::optional<std::uint64_t> offset = std::nullopt) {
    return arbiter::face::dump(Json{{"error", arbiter::face::error_json(code, message, field, offset)}});
}

std::string request(const std::string& what, const std::string& text) {
    if (what != "status" && what != "claim" && what != "dead" && what != "moves" && what != "play" && what != "perft")
        return refusal("bad_request", "no such request: '" + what + "' (status, claim, dead, moves, play or perft)");
    Json j;
    try {
        j = Json::parse(text);
    } catch (const Json::exception& e) {
        return refusal("bad_json", std::string("the request is not JSON: ") + e.what());
    }
    if (!j.is_object()) return refusal("bad_json", "the request must be an object {…}");
    try {
        return arbiter::face::dump(arbiter::face::position_answer(what, j));
    } catch (const arbiter::face::InputError& e) {
        return refusal(e.code(), e.message(), e.field(), e.offset());
    } catch (const std::exception& e) {
        return refusal("internal", e.what());
    }
}

std::string version() { return std::string(arbiter::version); }

}  // namespace

EMSCRIPTEN_BINDINGS(arbiter) {
    emscripten::function("request", &request);
    emscripten::function("version", &version);
}
