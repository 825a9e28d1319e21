// json_object.hpp — the one reader of a JSON object every face uses for its requests (the
// service's bodies, a session event, the hall's acknowledgement, the JavaScript API's requests):
// the text parsed, or InputError bad_json naming the byte and what is wrong in plain words.
#pragma once

#include <string_view>

#include "json/json.hpp"

namespace arbiter::face {

/// `text` as a JSON object. Errors: InputError bad_json (offset: the byte where the text stops
/// being JSON) for text that is not JSON, JSON that cannot be held (a number such as 1e999, a
/// lone surrogate) or JSON that is not an object; `what` names the text in the message ("the
/// body", "the event", "the request").
Json parse_json_object(std::string_view text, std::string_view what);

}  // namespace arbiter::face
