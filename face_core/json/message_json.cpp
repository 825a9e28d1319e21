// message_json.cpp — messages as JSON and answers rendered in another language.
#include "json/message_json.hpp"

#include "errors.hpp"

namespace arbiter::face {

Json message_json(const Message& m) {
    Json args = Json::object();
    for (const auto& a : m.args) {
        switch (a.kind) {
            case MessageArg::Kind::number: args[a.name] = a.number; break;
            case MessageArg::Kind::move: args[a.name] = Json{{"move", a.text}}; break;
            case MessageArg::Kind::text: args[a.name] = a.text; break;
            case MessageArg::Kind::article: args[a.name] = Json{{"article", a.text}}; break;
            case MessageArg::Kind::message:
                args[a.name] = a.parts.empty() ? Json(nullptr) : message_json(a.parts.front());
                break;
            case MessageArg::Kind::list: {
                Json list = Json::array();
                for (const auto& p : a.parts) list.push_back(message_json(p));
                args[a.name] = Json{{"list", std::move(list)}};
                break;
            }
        }
    }
    return Json{{"id", m.id}, {"args", std::move(args)}};
}

Message message_from_json(const Json& j) {
    if (!j.is_object() || !j.contains("id") || !j["id"].is_string())
        throw InputError(Code::bad_field, "a message must be an object with a string \"id\"", "id");
    Message m(j["id"].get<std::string>());
    if (!j.contains("args")) return m;
    const Json& args = j["args"];
    if (!args.is_object()) throw InputError(Code::bad_field, "a message's \"args\" must be an object", "args");
    for (const auto& [name, v] : args.items()) {
        if (v.is_number_integer()) {
            m.number(name, v.get<std::int64_t>());
        } else if (v.is_string()) {
            m.text(name, v.get<std::string>());
        } else if (v.is_object() && v.contains("move") && v["move"].is_string()) {
            m.move(name, v["move"].get<std::string>());
        } else if (v.is_object() && v.contains("article") && v["article"].is_string()) {
            m.article(name, v["article"].get<std::string>());
        } else if (v.is_object() && v.contains("list") && v["list"].is_array()) {
            std::vector<Message> parts;
            for (const auto& p : v["list"]) parts.push_back(message_from_json(p));
            m.list(name, std::move(parts));
        } else if (v.is_object()) {
            m.message(name, message_from_json(v));
        } else {
            throw InputError(Code::bad_field,
                             "a message argument must be a number, a string, a move, a message or a list", name);
        }
    }
    return m;
}

namespace {

void localize_value(Json& j, const TextStyle& style) {
    if (j.is_array()) {
        for (auto& v : j) localize_value(v, style);
        return;
    }
    if (!j.is_object()) return;
    constexpr std::string_view suffix = "_message";
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string& key = it.key();
        if (key.size() > suffix.size() && key.ends_with(suffix) && it.value().is_object()) {
            const std::string text_key = key.substr(0, key.size() - suffix.size());
            if (j.contains(text_key) && j[text_key].is_string())
                j[text_key] = render(message_from_json(it.value()), style);
            continue;
        }
        localize_value(it.value(), style);
    }
}

}  // namespace

void localize(Json& answer, const TextStyle& style) {
    if (&style.lang() == &english() && !style.figurines) return;
    localize_value(answer, style);
}

}  // namespace arbiter::face
