// Crash test: a child process appends random events to a journal and reports each append that
// returned; the parent kills it with SIGKILL at a random moment, many times over. After each
// kill the journal must open cleanly, hold every acknowledged event, and replay every session
// to the state recorded with its events. Bounded to about 20 seconds.
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "arbiter/journal.hpp"
#include "session_test_util.hpp"

namespace arbiter::testing {
namespace {

namespace fs = std::filesystem;
using Clock_ = std::chrono::steady_clock;

void say(int fd, SessionId id, std::size_t seq) {
    char line[64];
    const int n = std::snprintf(line, sizeof line, "%lld %zu\n", static_cast<long long>(id), seq);
    if (::write(fd, line, static_cast<std::size_t>(n)) != n) ::_exit(4);
}

// The child: creates sessions and appends events until killed; acknowledges each on `fd`.
[[noreturn]] void writer(const std::string& path, std::uint64_t seed, int fd) {
    auto journal = Journal::open(path, Journal::Mode::open_existing);
    if (!journal) ::_exit(3);
    std::mt19937_64 rng(seed);
    while (true) {
        auto js = JournaledSession::create(*journal, random_config(rng));
        if (!js) ::_exit(5);
        say(fd, js->id(), 0);
        std::int64_t t = 0;
        for (int k = 0; k < 150 && !js->session().ended(); ++k) {
            const Event e = random_event(js->session(), rng, t);
            const auto err = js->apply(e);
            if (!err)
                say(fd, js->id(), js->session().events_applied());
            else if (err->code != JournalError::Code::refused)
                ::_exit(6);
            else
                t = js->session().last_event_ms();
        }
    }
}

// Reads acknowledgements ("id seq" lines) from `fd` into `acked` until `deadline` (or EOF).
bool read_acks(int fd, std::string& buffer, std::map<SessionId, std::size_t>& acked, Clock_::time_point deadline) {
    while (true) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock_::now()).count();
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(std::max<long long>(0, left))) <= 0) return true;
        char chunk[4096];
        const ssize_t n = ::read(fd, chunk, sizeof chunk);
        if (n <= 0) return false;
        buffer.append(chunk, static_cast<std::size_t>(n));
        std::size_t nl;
        while ((nl = buffer.find('\n')) != std::string::npos) {
            long long id = 0;
            std::size_t seq = 0;
            if (std::sscanf(buffer.c_str(), "%lld %zu", &id, &seq) == 2) acked[id] = std::max(acked[id], seq);
            buffer.erase(0, nl + 1);
        }
    }
}

void verify(const std::string& path, const std::map<SessionId, std::size_t>& acked,
            const std::set<SessionId>& to_replay) {
    auto journal = Journal::open(path, Journal::Mode::open_existing);
    ASSERT_TRUE(journal) << journal.error().message;
    for (const auto& [id, seq] : acked) {
        auto stored = journal->load(id);
        ASSERT_TRUE(stored) << "session " << id << ": " << stored.error().message;
        ASSERT_GE(stored->events.size(), seq) << "session " << id << " lost acknowledged events";
    }
    for (SessionId id : to_replay) {
        auto stored = journal->load(id);
        ASSERT_TRUE(stored) << stored.error().message;
        auto s = replay(*stored);
        ASSERT_TRUE(s) << s.error().message;
    }
}

TEST(SessionCrash, KilledWritersLoseNoAcknowledgedEvent) {
    const fs::path path = fs::temp_directory_path() / ("arbiter-crash-" + std::to_string(::getpid()) + ".db");
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(path.string() + suffix);
    ASSERT_TRUE(Journal::open(path.string(), Journal::Mode::create_if_missing));

    std::mt19937_64 rng(20240607);
    std::map<SessionId, std::size_t> acked;
    const auto stop = Clock_::now() + std::chrono::seconds(20);
    int kills = 0;
    for (int iter = 0; iter < 40 && Clock_::now() < stop; ++iter) {
        int fds[2];
        ASSERT_EQ(::pipe(fds), 0);
        const pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            ::close(fds[0]);
            writer(path.string(), 1000 + static_cast<std::uint64_t>(iter), fds[1]);
        }
        ::close(fds[1]);
        std::string buffer;
        std::map<SessionId, std::size_t> now;
        const auto run_for = std::chrono::milliseconds(20 + static_cast<int>(rng() % 300));
        const bool alive = read_acks(fds[0], buffer, now, Clock_::now() + run_for);
        ::kill(pid, SIGKILL);
        int status = 0;
        ::waitpid(pid, &status, 0);
        read_acks(fds[0], buffer, now, Clock_::now() + std::chrono::seconds(5));  // what it said before dying
        ::close(fds[0]);
        ASSERT_TRUE(alive || (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL))
            << "the writer stopped by itself, status " << status;
        kills += WIFSIGNALED(status) ? 1 : 0;
        std::set<SessionId> touched;
        for (const auto& [id, seq] : now) {
            acked[id] = std::max(acked[id], seq);
            touched.insert(id);
        }
        // The session the writer was in when killed may have unacknowledged events: replay it too.
        if (!touched.empty()) touched.insert(*touched.rbegin() + 1);
        std::set<SessionId> existing;
        {
            auto j = Journal::open(path.string(), Journal::Mode::open_existing);
            ASSERT_TRUE(j) << j.error().message;
            const auto ids = j->sessions();
            ASSERT_TRUE(ids);
            for (SessionId id : *ids)
                if (touched.count(id)) existing.insert(id);
        }
        verify(path.string(), acked, existing);
        if (HasFatalFailure()) return;
    }
    EXPECT_GE(kills, 10);
    std::size_t events = 0;
    for (const auto& [id, seq] : acked) events += seq;
    EXPECT_GT(events, 100u);
    // Finally every session in the file replays.
    std::set<SessionId> all;
    {
        auto j = Journal::open(path.string(), Journal::Mode::open_existing);
        ASSERT_TRUE(j);
        const auto ids = j->sessions();
        ASSERT_TRUE(ids);
        for (SessionId id : *ids) all.insert(id);
    }
    verify(path.string(), acked, all);
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(path.string() + suffix);
}

}  // namespace
}  // namespace arbiter::testing
