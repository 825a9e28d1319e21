// json_object.cpp — the one reader of a JSON object (json_object.hpp) and the error object of json.hpp.
#include "json/json_object.hpp"

#include <string>

#include "errors.hpp"

namespace arbiter::face {

Json error_json(std::string_view code, const std::string& message, const std::string& field,
                std::optional<std::uint64_t> offset) {
    Json j{{"code", std::string(code)}, {"message", message}};
    if (!field.empty()) j["field"] = field;
    if (offset) j["offset"] = *offset;
    return j;
}

namespace {

// nlohmann's message without its internal prefix ("[json.exception.parse_error.101] parse error
// at line 1, column 2: "): what is wrong, in the parser's words.
std::string plain(const char* what) {
    std::string m = what;
    if (m.rfind("[json.exception.", 0) == 0) {
        const std::size_t close = m.find("] ");
        if (close != std::string::npos) m.erase(0, close + 2);
    }
    if (const std::size_t colon = m.find(": "); m.rfind("parse error", 0) == 0 && colon != std::string::npos)
        m.erase(0, colon + 2);
    return m;
}

}  // namespace

Json parse_json_object(std::string_view text, std::string_view what) {
    Json j;
    try {
        j = Json::parse(text.begin(), text.end());
    } catch (const Json::parse_error& e) {
        const std::uint64_t at = e.byte ? e.byte - 1 : 0;
        throw InputError(Code::bad_json,
                         std::string(what) + " is not JSON (byte " + std::to_string(at) + "): " + plain(e.what()), "",
                         at);
    } catch (const Json::exception& e) {  // valid syntax it cannot hold: a number such as 1e999
        throw InputError(Code::bad_json, std::string(what) + " is not usable JSON: " + plain(e.what()));
    }
    if (!j.is_object()) throw InputError(Code::bad_json, std::string(what) + " must be a JSON object {…}");
    return j;
}

}  // namespace arbiter::face
