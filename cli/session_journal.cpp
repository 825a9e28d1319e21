// session_journal.cpp — the journal as the `arbiter session` commands open it (session_journal.hpp).
#include "session_journal.hpp"

#include <pwd.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>

#include "game_options.hpp"

namespace arbiter::cli {

void fail(const JournalError& e) {
    if (e.code == JournalError::Code::io) throw std::runtime_error(e.message);
    throw InputError(e.code, e.message, "journal");
}

namespace {

// How long a command waits for another process's lock on the journal (--busy-timeout).
int busy_timeout_ms = Journal::default_busy_timeout_ms;
// Who enters what a command writes (--by).
std::string by_name;

}  // namespace

void add_busy_timeout(CLI::App& cmd) {
    cmd.add_option("--busy-timeout", busy_timeout_ms,
                   "Milliseconds to wait for another process's lock before \"journal busy, retry\" (exit 2; default " +
                       std::to_string(Journal::default_busy_timeout_ms) + ")")
        ->check(whole_number(0, 3'600'000));
}

void add_by(CLI::App& cmd) {
    cmd.add_option("--by", by_name,
                   "Who enters this, as the journal records it (default: your user name on this machine)");
}

std::string author() {
    if (!by_name.empty()) return by_name;
    if (const passwd* pw = ::getpwuid(::geteuid()); pw && pw->pw_name && *pw->pw_name) return pw->pw_name;
    if (const char* user = std::getenv("USER"); user && *user) return user;
    return "uid " + std::to_string(::geteuid());
}

Journal open_journal(const std::string& path, Journal::Mode mode) {
    if (path.empty()) throw InputError(Code::bad_usage, "--journal FILE is required", "journal");
    auto j = Journal::open(path, mode, busy_timeout_ms);
    if (!j) fail(j.error());
    return std::move(*j);
}

SessionId parse_id(const std::string& text) {
    SessionId id = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), id);
    if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size() || id < 1)
        throw InputError(Code::bad_value, "session id must be a positive number, not '" + text + "'", "id");
    return id;
}

JournaledSession open_session(Journal& journal, SessionId id) {
    auto s = JournaledSession::open(journal, id);
    if (!s) fail(s.error());
    return std::move(*s);
}

}  // namespace arbiter::cli
