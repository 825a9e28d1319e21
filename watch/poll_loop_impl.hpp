// poll_loop_impl.hpp — private to watch/poll_loop.cpp and watch/poll_connection.cpp: the state
// of the loop that asks the polled URLs (PollLoop::Impl) and of each URL's request and connection
// (Job). poll_loop.cpp keeps the schedule (the thread, the turns, deadlines, answers and
// redirects); poll_connection.cpp moves one connection through its phases (lookup, connect, TLS
// handshake, send, receive) on epoll's events.
#pragma once

#include <netdb.h>
#include <openssl/ssl.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <queue>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "http_response.hpp"
#include "poll_loop.hpp"
#include "url_feed.hpp"

namespace arbiter::watch::poll {

using Clock = std::chrono::steady_clock;

constexpr int max_redirects = 5;
// Deadlines and host-name lookups are looked at this often.
constexpr std::chrono::milliseconds sweep_every{50};
// What epoll says of a socket: its job's index and the connection's generation; and of the
// wake-up that stops the loop.
constexpr std::uint64_t wake_up = ~std::uint64_t{0};

inline bool is_redirect(int status) noexcept {
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

inline bool same_origin(const Url& a, const Url& b) noexcept {
    return a.tls == b.tls && a.host == b.host && a.port == b.port;
}

// A host name asked of the resolver without waiting for it (getaddrinfo_a): its strings and
// request live here until the answer came or the question was withdrawn.
struct Lookup {
    std::string host, service;
    addrinfo hints{};
    gaicb request{};

    Lookup(std::string h, int port) : host(std::move(h)), service(std::to_string(port)) {
        hints.ai_family = AF_UNSPEC;
        hints.ai_socktype = SOCK_STREAM;
        hints.ai_flags = AI_NUMERICSERV;
        request.ar_name = host.c_str();
        request.ar_service = service.c_str();
        request.ar_request = &hints;
    }
    Lookup(const Lookup&) = delete;
    Lookup& operator=(const Lookup&) = delete;
    bool start() {
        gaicb* list[1] = {&request};
        return getaddrinfo_a(GAI_NOWAIT, list, 1, nullptr) == 0;
    }
    ~Lookup() {
        if (gai_cancel(&request) == EAI_NOTCANCELED) {
            const gaicb* list[1] = {&request};
            while (gai_error(&request) == EAI_INPROGRESS) gai_suspend(list, 1, nullptr);
        }
        if (request.ar_result) freeaddrinfo(request.ar_result);
    }
};

// One polled URL: its request in progress, and its connection.
struct Job {
    enum class Phase { idle, resolving, connecting, handshaking, sending, receiving };

    UrlFeed* feed = nullptr;
    std::uint32_t index = 0;       // in the loop's jobs
    std::uint32_t generation = 0;  // of the connection: an event of a closed one is passed over
    Url url;                       // as last redirected permanently
    Url at;                        // where this request goes
    int hops = 0;
    std::string etag, last_modified;
    bool busy = false;  // a request in progress

    Phase phase = Phase::idle;
    Url origin;  // where the connection goes
    int fd = -1;
    SSL* ssl = nullptr;
    std::uint32_t interest = 0;  // the events asked of epoll
    bool reused = false;         // the connection carried an answer before this request
    bool retried = false;        // this request was sent again on a new connection
    std::unique_ptr<Lookup> lookup;
    addrinfo* addresses = nullptr;  // from the lookup (freed with it) or a numeric host (own)
    const addrinfo* next_address = nullptr;
    bool own_addresses = false;
    std::string out;
    std::size_t sent = 0;
    HttpResponse response;
    Clock::time_point deadline{};
    Clock::time_point turn{};  // when this request was due
};

inline std::uint64_t tag(const Job& j) noexcept { return (std::uint64_t{j.index} << 32) | j.generation; }

}  // namespace arbiter::watch::poll

namespace arbiter::watch {

struct PollLoop::Impl {
    using Clock = poll::Clock;
    using Job = poll::Job;
    Options options;
    std::vector<std::unique_ptr<Job>> jobs;
    using Turn = std::pair<Clock::time_point, Job*>;
    std::priority_queue<Turn, std::vector<Turn>, std::greater<>> due;
    std::size_t busy = 0;  // jobs with a request in progress
    int epoll = -1, wake = -1;
    SSL_CTX* tls = nullptr;
    std::atomic<bool> stopping{false};
    std::thread thread;
    Clock::time_point next_sweep{};

    explicit Impl(Options o) : options(std::move(o)) {}

    void run();
    void sweep(Clock::time_point now);
    void start(Job& j);
    void resolve(Job& j);
    void connect_next(Job& j);
    void handshake(Job& j);
    void send(Job& j);
    void receive(Job& j);
    void readable_while_idle(Job& j);
    void on_events(Job& j, std::uint32_t events);
    void answered(Job& j);
    void finish(Job& j, FetchResult r);
    void fail(Job& j, std::string problem, int status = 0);
    void cut_short(Job& j, const std::string& problem);
    void want(Job& j, std::uint32_t events);
    void close(Job& j);
    void forget_addresses(Job& j);
    std::string where(const Job& j) const { return j.at.host + ":" + std::to_string(j.at.port); }
};

}  // namespace arbiter::watch
