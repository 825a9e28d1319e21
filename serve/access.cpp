// access.cpp — who may do what on `arbiter serve` (access.hpp).
#include "access.hpp"

#include <openssl/crypto.h>

#include <algorithm>
#include <iostream>

#include "text.hpp"

namespace arbiter::serve {

namespace {

using face::HttpError;

HttpError unauthorized(const std::string& message) {
    HttpError e{face::Code::unauthorized, message};
    e.headers.emplace_back("WWW-Authenticate", "Bearer");
    return e;
}

// The token of "Authorization: Bearer TOKEN"; empty when there is none.
std::string bearer(const face::Request& req) {
    const std::string prefix = "Bearer ";
    if (req.authorization.rfind(prefix, 0) != 0) return {};
    std::string t = req.authorization.substr(prefix.size());
    while (!t.empty() && t.back() == ' ') t.pop_back();
    return t;
}

bool same(const std::string& a, const std::string& b) {
    return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

// Whether `list` names `value`: "7" is in "1-10" when both are whole numbers.
bool listed(const std::vector<std::string>& list, const std::string& value) {
    for (const auto& item : list) {
        if (item == value) return true;
        const auto dash = item.find('-');
        if (dash == std::string::npos || value.empty() || value.find_first_not_of("0123456789") != std::string::npos ||
            value.size() > 9)
            continue;
        const std::string lo = item.substr(0, dash), hi = item.substr(dash + 1);
        auto number = [](const std::string& t) -> long {
            return t.empty() || t.size() > 9 || t.find_first_not_of("0123456789") != std::string::npos ? -1
                                                                                                       : std::stol(t);
        };
        const long v = std::stol(value), a = number(lo), b = number(hi);
        if (a >= 0 && b >= 0 && a <= v && v <= b) return true;
    }
    return false;
}

Journal open_users(const Journal* journal) {
    auto j = journal->reader();
    if (!j) throw std::runtime_error("cannot read the users of " + journal->path() + ": " + j.error().message);
    return std::move(*j);
}

}  // namespace

Access::Access(AccessOptions options) : options_(std::move(options)), journal_(open_users(options_.journal)) {}

// Users are never removed (a revoked one stays): once the journal has one, it always has, and
// every token is looked up afresh (a revocation counts at once). Until then the journal is asked
// at most every check_every whether another process (arbiter users add) added the first: not on
// every request of an open server, whose events change the file all the time.
void Access::refresh_users() {
    if (has_users_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now < next_check_) return;
    next_check_ = now + check_every;
    const std::int64_t v = journal_.data_version();
    if (v == version_ && v != -1) return;
    auto users = journal_.users();
    if (!users) throw HttpError{face::Code::journal_busy, "cannot read the users: " + users.error().message};
    has_users_ = !users->empty();
    version_ = v;
}

bool Access::required() {
    if (!options_.token.empty()) return true;
    std::lock_guard l(mutex_);
    refresh_users();
    return has_users_;
}

void Access::failed(const face::Request& req, const std::string& why) {
    const auto now = std::chrono::steady_clock::now();
    std::size_t count = 0;
    {
        std::lock_guard l(mutex_);
        // Bounded: addresses whose failures all aged out are dropped when the map grows.
        if (failures_.size() > 10'000)
            std::erase_if(failures_, [&](const auto& kv) { return kv.second.back() + options_.window < now; });
        auto& times = failures_[req.remote];
        times.push_back(now);
        while (times.size() > static_cast<std::size_t>(options_.max_failures) + 1) times.pop_front();
        count = times.size();
    }
    if (count <= static_cast<std::size_t>(options_.max_failures))
        std::cerr << "arbiter serve: authentication failed from " << face::printable(req.remote) << " (" << why << "; "
                  << count << " in the last minute)" << std::endl;
    throw unauthorized("this server needs Authorization: Bearer TOKEN (" + why + ")");
}

Principal Access::who(const face::Request& req) {
    const std::string token = bearer(req);
    {
        std::lock_guard l(mutex_);
        refresh_users();
        if (options_.token.empty() && !has_users_) return Principal{"anonymous", Role::chief, {}, {}};
        // Guessing stopped: past max_failures wrong tokens within the window, every request of the
        // address that carries a token waits until the oldest of them leaves the window.
        const auto it = failures_.find(req.remote);
        if (!token.empty() && it != failures_.end()) {
            const auto now = std::chrono::steady_clock::now();
            auto& times = it->second;
            while (!times.empty() && times.front() + options_.window <= now) times.pop_front();
            if (times.size() >= static_cast<std::size_t>(options_.max_failures)) {
                const auto wait =
                    std::chrono::duration_cast<std::chrono::seconds>(times.front() + options_.window - now).count() + 1;
                if (times.size() == static_cast<std::size_t>(options_.max_failures)) {
                    std::cerr << "arbiter serve: " << options_.max_failures << " wrong tokens from "
                              << face::printable(req.remote) << " within a minute: refused for " << wait << " s"
                              << std::endl;
                    times.push_back(now);  // logged once a lockout
                }
                HttpError e{face::Code::too_many_attempts,
                            "too many wrong tokens from this address; retry in " + std::to_string(wait) + " s"};
                e.headers.emplace_back("Retry-After", std::to_string(wait));
                throw e;
            }
        }
        if (token.empty())
            throw unauthorized(
                "this server needs Authorization: Bearer TOKEN (a user's token, from arbiter users "
                "add, or the --token-file's)");
        if (!options_.token.empty() && same(token, options_.token)) return Principal{"token-file", Role::chief, {}, {}};
        auto user = journal_.user_by_token(token);
        if (!user) throw HttpError{face::Code::journal_busy, "cannot read the users: " + user.error().message};
        if (*user) return Principal{(*user)->name, (*user)->role, (*user)->sections, (*user)->boards};
    }
    failed(req, "the token is no user's of this journal, or was revoked");
}

void Access::require(const Principal& p, Need need, const SessionConfig* config) {
    if (p.role == Role::chief) return;
    if (need == Need::read) return;
    if (need == Need::chief)
        throw HttpError{face::Code::forbidden,
                        "this needs the chief role; " + p.name + " is " + (p.role == Role::arbiter ? "an " : "a ") +
                            enum_name(p.role),
                        face::Json{{"needs", "chief"}}};
    if (p.role != Role::arbiter)
        throw HttpError{face::Code::forbidden, "entering events needs the arbiter role; " + p.name + " is a viewer",
                        face::Json{{"needs", "arbiter"}}};
    if (config && !p.sections.empty() && !listed(p.sections, config->section))
        throw HttpError{face::Code::forbidden,
                        p.name + " acts on sections " + face::Json(p.sections).dump() + ", not on this session's (" +
                            (config->section.empty() ? "none" : "'" + config->section + "'") + ")",
                        face::Json{{"needs", "arbiter"}}};
    if (config && !p.boards.empty() && !listed(p.boards, config->board))
        throw HttpError{face::Code::forbidden,
                        p.name + " acts on boards " + face::Json(p.boards).dump() + ", not on this session's (" +
                            (config->board.empty() ? "none" : "'" + config->board + "'") + ")",
                        face::Json{{"needs", "arbiter"}}};
}

face::Guard Access::guard() {
    return [this](const face::Request& req, bool write) -> std::optional<face::Response> {
        try {
            const Principal p = who(req);
            require(p, write ? Need::event : Need::read);
            return std::nullopt;
        } catch (const HttpError& e) {
            return face::error_response(e);
        }
    };
}

}  // namespace arbiter::serve
