// http_kit.cpp — what every face that answers HTTP shares (http_kit.hpp).
#include "http/http_kit.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <new>

#include "text.hpp"

namespace arbiter::face {

Response json_response(int status, const Json& j) {
    Response r;
    r.status = status;
    r.body = dump(j) + "\n";
    return r;
}

Response error_response(const HttpError& e) {
    Json j{{"error", error_json(e.code, printable(e.message), e.field, e.offset)}};
    if (e.extra.is_object())
        for (auto it = e.extra.begin(); it != e.extra.end(); ++it) j[it.key()] = it.value();
    Response r = json_response(e.status, j);
    r.headers.insert(r.headers.end(), e.headers.begin(), e.headers.end());
    // RFC 9110 15.5.6: a 405 says in a header, too, which methods the resource takes.
    if (e.status == 405 && e.extra.is_object() && e.extra.contains("allow") && e.extra["allow"].is_string())
        r.headers.emplace_back("Allow", e.extra["allow"].get<std::string>());
    return r;
}

HttpError::HttpError(const InputError& e, std::optional<int> answer_status, Json more)
    : status(answer_status.value_or(http_status_of(e))),
      code(e.code()),
      message(message_for(e, Caller::json)),
      extra(std::move(more)),
      field(e.field()),
      offset(e.offset()) {}

HttpError method_not_allowed(const Request& req, const char* methods) {
    return {Code::method_not_allowed, req.method + " " + req.path + ": use " + methods, Json{{"allow", methods}}};
}

void allow_only(const Request& req, std::string_view methods) {
    std::string allow;
    bool allowed = false;
    for (std::size_t at = 0; at < methods.size();) {
        std::size_t end = methods.find(',', at);
        if (end == std::string_view::npos) end = methods.size();
        std::string_view m = methods.substr(at, end - at);
        while (!m.empty() && m.front() == ' ') m.remove_prefix(1);
        for (std::string_view one : {m, m == "GET" ? std::string_view("HEAD") : std::string_view()}) {
            if (one.empty()) continue;
            allowed = allowed || req.method == one;
            allow += (allow.empty() ? "" : ", ") + std::string(one);
        }
        at = end + 1;
    }
    if (!allowed) throw method_not_allowed(req, allow.c_str());
}

bool RouteMatch::open() const noexcept {
    for (const Operation* o : ops)
        if (!o->open) return false;
    return !ops.empty();
}

std::size_t RouteMatch::body_limit() const noexcept {
    std::size_t most = 0;
    for (const Operation* o : ops) most = std::max(most, o->body_limit);
    return most;
}

const Operation& RouteMatch::of_method(const Request& req) const {
    std::string allow;
    for (const Operation* o : ops) allow += (allow.empty() ? "" : ", ") + std::string(o->method);
    allow_only(req, allow);
    for (const Operation* o : ops)
        if (o->method == req.method || (req.method == "HEAD" && o->method == "GET")) return *o;
    throw method_not_allowed(req, allow.c_str());  // (allow_only has thrown it)
}

RouteMatch match_route(std::string_view path) {
    const auto segments = [](std::string_view s) {
        std::vector<std::string_view> out;
        for (std::size_t at = 0;;) {
            const std::size_t end = s.find('/', at);
            out.push_back(s.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
            if (end == std::string_view::npos) return out;
            at = end + 1;
        }
    };
    const auto asked = segments(path);
    RouteMatch m;
    for (const Operation& o : operation_table()) {
        if (o.route.empty()) continue;
        const auto route = segments(o.route);
        if (route.size() != asked.size()) continue;
        std::uint64_t id = 0;
        bool same = true;
        for (std::size_t i = 0; same && i < route.size(); ++i) {
            if (route[i] != "{id}") {
                same = route[i] == asked[i];
                continue;
            }
            const std::string_view t = asked[i];
            const auto r = std::from_chars(t.data(), t.data() + t.size(), id);
            same = !t.empty() && r.ec == std::errc() && r.ptr == t.data() + t.size() && id >= 1;
        }
        if (!same) continue;
        m.ops.push_back(&o);
        m.id = id;
    }
    return m;
}

std::optional<HttpError> body_too_large(const Request& req, std::size_t limit) {
    if (req.body.size() <= limit) return std::nullopt;
    return HttpError{Code::too_large, "the body has " + std::to_string(req.body.size()) + " bytes, over the limit of " +
                                          std::to_string(limit) + " for " + req.path};
}

Response answer(const Request& req, const std::function<Response(const Request&)>& route) {
    Response r;
    try {
        r = route(req);
    } catch (const HttpError& e) {
        r = error_response(e);
    } catch (...) {
        r = error_response(HttpError(refusal_of(std::current_exception())));
    }
    r.headers.emplace_back("X-Content-Type-Options", "nosniff");
    r.headers.emplace_back("Referrer-Policy", "no-referrer");
    r.headers.emplace_back("Content-Security-Policy",
                           "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src "
                           "'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
    if (r.content_type == "application/json") r.headers.emplace_back("Cache-Control", "no-store");
    return r;
}

const Language* accepted_language(std::string_view header) {
    const Language* best = nullptr;
    double best_q = 0;
    while (!header.empty()) {
        const std::size_t comma = header.find(',');
        std::string_view item = header.substr(0, comma);
        header = comma == std::string_view::npos ? std::string_view{} : header.substr(comma + 1);
        double q = 1;
        if (const std::size_t semi = item.find(';'); semi != std::string_view::npos) {
            std::string_view params = item.substr(semi + 1);
            item = item.substr(0, semi);
            const std::size_t at = params.find("q=");
            if (at != std::string_view::npos) q = std::strtod(std::string(params.substr(at + 2)).c_str(), nullptr);
        }
        while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
        while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
        const Language* lang = item == "*" ? &english() : find_language(item);
        if (lang && q > best_q) {  // the first of equal weight wins: the header's order
            best = lang;
            best_q = q;
        }
    }
    return best;
}

std::optional<std::string> request_language(const Request& req, const Json& body) {
    if (body.is_object() && body.contains("lang")) return std::nullopt;
    if (const auto it = req.query.find("lang"); it != req.query.end()) return it->second;
    if (const Language* lang = accepted_language(req.accept_language)) return std::string(lang->code);
    return std::nullopt;
}

}  // namespace arbiter::face
