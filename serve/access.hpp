// access.hpp — who may do what on `arbiter serve` (docs/api.md, Security): the bearer token of a
// request read as one of the journal's users (or the --token-file's single chief), its role
// checked against what the route needs (viewer reads, arbiter enters events on its sections and
// boards, chief does everything), and wrong tokens limited per client address. The service and
// the hall monitor's routes both ask it (through face::Guard, so the hall needs no serve header).
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "arbiter/journal.hpp"
#include "http/http_kit.hpp"
#include "http/routes.hpp"

namespace arbiter::serve {

/// What a route needs of the one asking.
enum class Need {
    read,   ///< states, lists, streams, PGN, the hall, the position routes: any user
    event,  ///< an event on a session: an arbiter whose sections and boards hold it, or a chief
    chief,  ///< sessions created or deleted, a retraction with force: a chief
};

/// The one asking, once authenticated.
struct Principal {
    std::string name;  ///< recorded as who entered an event ("anonymous" when the server is open)
    Role role = Role::chief;
    std::vector<std::string> sections, boards;
};

struct AccessOptions {
    const Journal* journal = nullptr;  ///< its users are read through a connection of the access check's own
    std::string token;                 ///< --token-file's token: one user named "token-file", a chief
    int max_failures = 20;
    std::chrono::seconds window{60};
};

class Access {
public:
    /// Opens the journal's users read-only. Throws std::runtime_error when it cannot.
    explicit Access(AccessOptions options);

    /// True when requests must carry a token: a --token-file, or users in the journal (once a
    /// journal has had a user, it always needs tokens).
    [[nodiscard]] bool required();
    /// Who asks. With access open (no token file, no users): an anonymous chief. Throws
    /// face::HttpError 401 `unauthorized` (no token, or one that is no user's: each wrong one
    /// counted against the address) or 429 `too_many_attempts` (with Retry-After).
    Principal who(const face::Request& req);
    /// Throws face::HttpError 403 `forbidden`, naming the role needed, unless `p` may do `need`
    /// (on a session of `config`, for an event).
    static void require(const Principal& p, Need need, const SessionConfig* config = nullptr);
    /// The guard the hall monitor's routes ask (face::Guard): reads need any user, writes an
    /// arbiter.
    face::Guard guard();

private:
    void refresh_users();  // under mutex_
    [[noreturn]] void failed(const face::Request& req, const std::string& why);
    AccessOptions options_;
    std::mutex mutex_;
    Journal journal_;
    std::int64_t version_ = -1;
    bool has_users_ = false;
    static constexpr std::chrono::milliseconds check_every{100};
    std::chrono::steady_clock::time_point next_check_{};
    // The times of the wrong tokens of each address within the window, oldest first.
    std::map<std::string, std::deque<std::chrono::steady_clock::time_point>> failures_;
};

}  // namespace arbiter::serve
