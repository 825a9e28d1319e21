// json.hpp — JSON in the face core: the one value type every answer is built as (nlohmann's
// ordered_json: keys stay in the order written, docs/json.md), the one writer of a line, and the
// error object of every refusal. The reader is json_object.hpp; the rules layer's answers are
// written in rules_json.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace arbiter::face {

using Json = nlohmann::ordered_json;

/// The error object of every refusal (docs/json.md): {"code","message","field"?,"offset"?}, the
/// field and offset only when known.
Json error_json(std::string_view code, const std::string& message, const std::string& field = {},
                std::optional<std::uint64_t> offset = std::nullopt);
/// One line of JSON that never throws: bytes that are not UTF-8 (from an old journal, say)
/// become U+FFFD.
inline std::string dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

}  // namespace arbiter::face
