// message_json.hpp — messages in JSON (docs/json.md, "object message"): beside each text a person reads
// ("reason"), its message as data ("reason_message": {"id", "args"}), so that a client can render
// it itself; and an answer's texts rendered again in another language from those messages.
#pragma once

#include "arbiter/message.hpp"
#include "json/json.hpp"

namespace arbiter::face {

/// {"id": "claim.threefold.now", "args": {"side": {"id": "side.white", "args": {}}, "count": 3,
/// "move": {"move": "Nf3"}, "rules": "FIDE 2023", "places": {"list": [{…}, …]}}}: a number is a
/// number, verbatim text a string, a move {"move": text}, an article {"article": "9.4"}, a
/// message an object, a list
/// {"list": [messages]}.
Json message_json(const Message& m);
/// The message of message_json's JSON; InputError bad_field for another shape.
Message message_from_json(const Json& j);
/// Every text of `answer` that has a message beside it (key K with K_message) rendered again in
/// the style's language, at any depth. English without figurines leaves the answer as it is.
void localize(Json& answer, const TextStyle& style);

}  // namespace arbiter::face
