// poll_loop.cpp — polled URLs asked from one thread over non-blocking sockets: the thread, the
// schedule of turns, deadlines, and what an answer leads to (a redirect, the feed's next turn).
// Each connection's phases are in poll_connection.cpp.
#include "poll_loop.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <pthread.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <optional>
#include <queue>
#include <string>
#include <thread>
#include <utility>

#include "poll_loop_impl.hpp"

namespace arbiter::watch {

using namespace poll;

PollLoop::PollLoop(const std::vector<UrlFeed*>& feeds, Options options)
    : impl_(std::make_unique<Impl>(std::move(options))) {
    Impl& m = *impl_;
    m.epoll = epoll_create1(EPOLL_CLOEXEC);
    m.wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (m.epoll < 0 || m.wake < 0) throw std::runtime_error("arbiter watch: epoll: " + std::string(strerror(errno)));
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = wake_up;
    epoll_ctl(m.epoll, EPOLL_CTL_ADD, m.wake, &ev);
    bool any_tls = false;
    for (UrlFeed* feed : feeds) {
        auto j = std::make_unique<Job>();
        j->feed = feed;
        j->index = static_cast<std::uint32_t>(m.jobs.size());
        j->url = j->at = feed->url();
        any_tls = any_tls || j->url.tls;
        m.due.emplace(feed->first_turn(), j.get());
        m.jobs.push_back(std::move(j));
    }
    // A redirect may lead an http URL to https: the context is made when any URL or redirect
    // needs it (here, or in connect_next).
    if (any_tls) m.tls = new_client_tls_context(m.options.tls);
    m.thread = std::thread([&m] { m.run(); });
}

PollLoop::~PollLoop() {
    Impl& m = *impl_;
    m.stopping = true;
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto w = write(m.wake, &one, sizeof one);
    m.thread.join();
    for (auto& j : m.jobs) {
        m.close(*j);
        m.forget_addresses(*j);
    }
    if (m.tls) SSL_CTX_free(m.tls);
    ::close(m.epoll);
    ::close(m.wake);
}

void PollLoop::Impl::run() {
    // A write on a connection the server has reset raises SIGPIPE (OpenSSL writes with write(),
    // not send(MSG_NOSIGNAL)), which would end the process: blocked on this thread, the write
    // fails with EPIPE instead, and the request is sent again on a new connection.
    sigset_t pipe;
    sigemptyset(&pipe);
    sigaddset(&pipe, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe, nullptr);
    constexpr int max_events = 256;
    epoll_event events[max_events];
    while (!stopping) {
        int timeout = 0;
        if (busy > 0) {
            // Answers are awaited: let them gather for a tick, then read all that came.
            const auto tick = std::chrono::duration_cast<std::chrono::nanoseconds>(options.tick);
            const timespec ts{static_cast<time_t>(tick.count() / 1'000'000'000),
                              static_cast<long>(tick.count() % 1'000'000'000)};
            nanosleep(&ts, nullptr);
        } else if (!due.empty()) {
            const auto until = due.top().first - options.tick - Clock::now();
            timeout = static_cast<int>(
                std::max<std::int64_t>(0, std::chrono::ceil<std::chrono::milliseconds>(until).count()));
        } else {
            timeout = -1;
        }
        const int n = epoll_wait(epoll, events, max_events, timeout);
        if (stopping) break;
        for (int i = 0; i < n; ++i) {
            const std::uint64_t tag = events[i].data.u64;
            if (tag == wake_up) continue;  // stopping
            Job& j = *jobs[tag >> 32];
            // An event of a connection closed earlier in this batch is not the new one's.
            if (static_cast<std::uint32_t>(tag) == j.generation && j.fd >= 0) on_events(j, events[i].events);
        }
        const auto now = Clock::now();
        while (!due.empty() && due.top().first <= now + options.tick) {
            Job* j = due.top().second;
            j->turn = due.top().first;
            due.pop();
            j->busy = true;
            ++busy;
            j->at = j->url;
            j->hops = 0;
            j->retried = false;
            start(*j);
        }
        if (now >= next_sweep) sweep(now);
    }
}

// Deadlines passed, and host names whose lookup has come.
void PollLoop::Impl::sweep(Clock::time_point now) {
    next_sweep = now + sweep_every;
    for (auto& p : jobs) {
        Job& j = *p;
        if (!j.busy) continue;
        if (j.phase == Job::Phase::resolving) {
            const int rc = gai_error(&j.lookup->request);
            if (rc == EAI_INPROGRESS) {
                if (now >= j.deadline)
                    fail(j, "no connection to " + where(j) + " in time (the lookup of its name took too long)");
                continue;
            }
            if (rc != 0) {
                fail(j, "cannot connect to " + where(j) + " (" + gai_strerror(rc) + ")");
                continue;
            }
            j.addresses = j.lookup->request.ar_result;
            j.next_address = j.addresses;
            connect_next(j);
        } else if (now >= j.deadline) {
            if (j.phase == Job::Phase::connecting)
                fail(j, "no connection to " + where(j) + " in time");
            else
                fail(j, "no answer in time, or the connection was cut");
        }
    }
}

// The request of this turn (or of a redirect): on the connection kept from the last one when it
// goes to the same place, else on a new one.
void PollLoop::Impl::start(Job& j) {
    j.out.clear();
    j.out += "GET " + j.at.path + " HTTP/1.1\r\nHost: ";
    j.out += j.at.host.find(':') != std::string::npos ? "[" + j.at.host + "]" : j.at.host;
    if (j.at.port != (j.at.tls ? 443 : 80)) j.out += ":" + std::to_string(j.at.port);
    j.out += "\r\nAccept: */*\r\nAccept-Encoding: gzip\r\nUser-Agent: arbiter-watch\r\n";
    if (!j.etag.empty()) j.out += "If-None-Match: " + j.etag + "\r\n";
    if (!j.last_modified.empty()) j.out += "If-Modified-Since: " + j.last_modified + "\r\n";
    j.out += "\r\n";
    j.sent = 0;
    j.response.reset();
    if (j.fd >= 0 && same_origin(j.origin, j.at)) {
        j.reused = true;
        j.deadline = Clock::now() + options.read_timeout;
        j.phase = Job::Phase::sending;
        send(j);
        return;
    }
    close(j);
    j.reused = false;
    j.origin = j.at;
    resolve(j);
}

void PollLoop::Impl::answered(Job& j) {
    HttpResponse& r = j.response;
    if (!r.complete()) {
        const std::string problem = r.problem();
        close(j);
        fail(j, problem == "the compressed body is corrupt" ? problem : "a bad answer (" + problem + ")", r.status());
        return;
    }
    if (!r.keep_alive()) close(j);
    if (j.fd >= 0) {
        j.phase = Job::Phase::idle;
        j.reused = true;
    }
    const int status = r.status();
    if (is_redirect(status)) {
        if (j.hops >= max_redirects) {
            fail(j, "more than " + std::to_string(max_redirects) + " redirects", status);
            return;
        }
        std::string error;
        const auto next = resolve_location(j.at, r.header("Location"), error);
        if (!next) {
            fail(j, "HTTP " + std::to_string(status) + " to a bad Location (" + error + ")", status);
            return;
        }
        if (status == 301 || status == 308) j.url = *next;
        j.at = *next;
        ++j.hops;
        j.retried = false;
        start(j);
        return;
    }
    FetchResult result;
    result.status = status;
    if (status == 304) {
        result.kind = FetchResult::Kind::not_modified;
    } else if (status == 200) {
        j.etag = r.header("ETag");
        j.last_modified = r.header("Last-Modified");
        result.kind = FetchResult::Kind::body;
        result.body = std::move(r.body());
    } else {
        result.problem = "HTTP status " + std::to_string(status);
        j.etag.clear(), j.last_modified.clear();  // when it answers again, its body is wanted whole
    }
    finish(j, std::move(result));
}

void PollLoop::Impl::fail(Job& j, std::string problem, int status) {
    close(j);
    j.phase = Job::Phase::idle;
    forget_addresses(j);
    FetchResult r;
    r.status = status;
    r.problem = std::move(problem);
    finish(j, std::move(r));
}

// The next turn: an interval after this one was due, so that a URL is asked once an interval
// (the time its answer took is not added to it); after a failure, the back-off from now.
void PollLoop::Impl::finish(Job& j, FetchResult r) {
    if (j.fd < 0) j.phase = Job::Phase::idle;
    j.busy = false;
    --busy;
    const bool failed = r.kind == FetchResult::Kind::failed;
    if (const std::optional<std::chrono::milliseconds> wait = j.feed->answered(std::move(r))) {
        const auto now = Clock::now();
        due.emplace(failed ? now + *wait : std::max(j.turn + *wait, now), &j);
    }
}

}  // namespace arbiter::watch
