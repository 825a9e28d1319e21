// poll_loop.cpp — polled URLs asked from one thread over non-blocking sockets.
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

#include "http_response.hpp"
#include "url_feed.hpp"

namespace arbiter::watch {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int max_redirects = 5;
// Deadlines and host-name lookups are looked at this often.
constexpr std::chrono::milliseconds sweep_every{50};
// What epoll says of a socket: its job's index and the connection's generation; and of the
// wake-up that stops the loop.
constexpr std::uint64_t wake_up = ~std::uint64_t{0};

bool is_redirect(int status) noexcept {
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

bool same_origin(const Url& a, const Url& b) noexcept { return a.tls == b.tls && a.host == b.host && a.port == b.port; }

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

std::uint64_t tag(const Job& j) noexcept { return (std::uint64_t{j.index} << 32) | j.generation; }

}  // namespace

struct PollLoop::Impl {
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

void PollLoop::Impl::resolve(Job& j) {
    forget_addresses(j);
    j.deadline = Clock::now() + options.read_timeout;  // for a host name's lookup
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
    addrinfo* found = nullptr;
    if (getaddrinfo(j.at.host.c_str(), std::to_string(j.at.port).c_str(), &hints, &found) == 0) {
        j.addresses = found;
        j.own_addresses = true;
        j.next_address = found;
        connect_next(j);
        return;
    }
    // A name: looked up on the resolver's threads; the sweep sees when the answer came.
    j.lookup = std::make_unique<Lookup>(j.at.host, j.at.port);
    if (!j.lookup->start()) {
        fail(j, "cannot connect to " + where(j) + " (the host name could not be looked up)");
        return;
    }
    j.phase = Job::Phase::resolving;
}

void PollLoop::Impl::forget_addresses(Job& j) {
    if (j.own_addresses && j.addresses) freeaddrinfo(j.addresses);
    j.addresses = nullptr;
    j.next_address = nullptr;
    j.own_addresses = false;
    j.lookup.reset();
}

// Connects to the next address of the host (each tried in turn while they refuse).
void PollLoop::Impl::connect_next(Job& j) {
    close(j);
    while (j.next_address) {
        const addrinfo* a = j.next_address;
        j.next_address = a->ai_next;
        const int fd = socket(a->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0) continue;
        const int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (connect(fd, a->ai_addr, a->ai_addrlen) != 0 && errno != EINPROGRESS) {
            ::close(fd);
            continue;
        }
        j.fd = fd;
        j.interest = EPOLLOUT;
        epoll_event ev{};
        ev.events = EPOLLOUT;
        ev.data.u64 = tag(j);
        epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &ev);
        j.phase = Job::Phase::connecting;
        j.deadline = Clock::now() + options.connect_timeout;
        return;
    }
    fail(j, "cannot connect to " + where(j));
}

void PollLoop::Impl::want(Job& j, std::uint32_t events) {
    if (j.interest == events || j.fd < 0) return;
    j.interest = events;
    epoll_event ev{};
    ev.events = events;
    ev.data.u64 = tag(j);
    epoll_ctl(epoll, EPOLL_CTL_MOD, j.fd, &ev);
}

void PollLoop::Impl::close(Job& j) {
    if (j.ssl) SSL_free(j.ssl);  // closing the socket takes it out of the epoll set
    j.ssl = nullptr;
    if (j.fd >= 0) {
        ::close(j.fd);
        ++j.generation;
    }
    j.fd = -1;
    j.interest = 0;
}

void PollLoop::Impl::on_events(Job& j, std::uint32_t events) {
    switch (j.phase) {
        case Job::Phase::connecting: {
            if (!(events & (EPOLLOUT | EPOLLERR | EPOLLHUP))) return;
            int error = 0;
            socklen_t size = sizeof error;
            if (getsockopt(j.fd, SOL_SOCKET, SO_ERROR, &error, &size) != 0) error = errno;
            if (error != 0) {
                connect_next(j);
                return;
            }
            j.deadline = Clock::now() + options.read_timeout;
            if (!j.at.tls) {
                j.phase = Job::Phase::sending;
                want(j, EPOLLIN);
                send(j);
                return;
            }
            if (!tls) tls = new_client_tls_context(options.tls);
            j.ssl = tls ? SSL_new(tls) : nullptr;
            if (!j.ssl) {
                fail(j, "the TLS handshake failed (no TLS context)");
                return;
            }
            SSL_set_fd(j.ssl, j.fd);
            SSL_set_connect_state(j.ssl);
            X509_VERIFY_PARAM* param = SSL_get0_param(j.ssl);
            // An IP address is checked against the certificate's addresses, a name against its
            // names (and sent as SNI).
            if (X509_VERIFY_PARAM_set1_ip_asc(param, j.at.host.c_str()) != 1) {
                SSL_set_tlsext_host_name(j.ssl, j.at.host.c_str());
                X509_VERIFY_PARAM_set1_host(param, j.at.host.c_str(), 0);
            }
            j.phase = Job::Phase::handshaking;
            handshake(j);
            return;
        }
        case Job::Phase::handshaking: handshake(j); return;
        case Job::Phase::sending: send(j); return;
        case Job::Phase::receiving: receive(j); return;
        case Job::Phase::idle: readable_while_idle(j); return;
        case Job::Phase::resolving: return;
    }
}

void PollLoop::Impl::handshake(Job& j) {
    ERR_clear_error();
    const int rc = SSL_do_handshake(j.ssl);
    if (rc == 1) {
        j.phase = Job::Phase::sending;
        want(j, EPOLLIN);
        send(j);
        return;
    }
    switch (SSL_get_error(j.ssl, rc)) {
        case SSL_ERROR_WANT_READ: want(j, EPOLLIN); return;
        case SSL_ERROR_WANT_WRITE: want(j, EPOLLOUT); return;
        default: break;
    }
    const long verified = SSL_get_verify_result(j.ssl);
    ERR_clear_error();
    if (verified != X509_V_OK)
        fail(j, std::string("the server's certificate is not trusted (") + X509_verify_cert_error_string(verified) +
                    "; see --ca-file)");
    else
        fail(j, "the TLS handshake failed");
}

void PollLoop::Impl::send(Job& j) {
    while (j.sent < j.out.size()) {
        const char* data = j.out.data() + j.sent;
        const std::size_t size = j.out.size() - j.sent;
        if (j.ssl) {
            ERR_clear_error();
            const int rc = SSL_write(j.ssl, data, static_cast<int>(size));
            if (rc > 0) {
                j.sent += static_cast<std::size_t>(rc);
                continue;
            }
            const int e = SSL_get_error(j.ssl, rc);
            if (e == SSL_ERROR_WANT_WRITE) return want(j, EPOLLOUT);
            if (e == SSL_ERROR_WANT_READ) return want(j, EPOLLIN);
            ERR_clear_error();
        } else {
            const ssize_t rc = ::send(j.fd, data, size, MSG_NOSIGNAL);
            if (rc > 0) {
                j.sent += static_cast<std::size_t>(rc);
                continue;
            }
            if (rc < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return want(j, EPOLLOUT);
        }
        cut_short(j, "no answer in time, or the connection was cut");
        return;
    }
    j.phase = Job::Phase::receiving;
    j.response.reset();
    j.deadline = Clock::now() + options.read_timeout;
    want(j, EPOLLIN);
}

// Reads what came of the answer; a small answer (a 304) is whole after one read.
void PollLoop::Impl::receive(Job& j) {
    char buf[16384];
    while (true) {
        std::size_t got = 0;
        bool ended = false;
        if (j.ssl) {
            ERR_clear_error();
            const int rc = SSL_read(j.ssl, buf, sizeof buf);
            if (rc > 0) {
                got = static_cast<std::size_t>(rc);
            } else {
                const int e = SSL_get_error(j.ssl, rc);
                if (e == SSL_ERROR_WANT_READ) return want(j, EPOLLIN);
                if (e == SSL_ERROR_WANT_WRITE) return want(j, EPOLLOUT);
                ERR_clear_error();
                ended = true;  // closed (cleanly or not), or broken
            }
        } else {
            const ssize_t rc = ::recv(j.fd, buf, sizeof buf, 0);
            if (rc > 0) {
                got = static_cast<std::size_t>(rc);
            } else if (rc < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
                return want(j, EPOLLIN);
            } else {
                ended = true;
            }
        }
        if (ended) {
            j.response.end();
            if (j.response.complete()) return answered(j);
            cut_short(j, "no answer in time, or the connection was cut");
            return;
        }
        j.deadline = Clock::now() + options.read_timeout;
        const std::size_t used = j.response.feed(std::string_view(buf, got));
        if (j.response.complete() || !j.response.problem().empty()) {
            if (used < got) {  // bytes beyond the answer: the connection is not in step
                close(j);
            }
            return answered(j);
        }
    }
}

// A kept connection that turns readable between requests: the server closed it (or sent what
// nobody asked for), or, over TLS, a message of the protocol came (a session ticket), which the
// read takes.
void PollLoop::Impl::readable_while_idle(Job& j) {
    char buf[4096];
    if (j.ssl) {
        ERR_clear_error();
        const int rc = SSL_read(j.ssl, buf, sizeof buf);
        if (rc <= 0 && SSL_get_error(j.ssl, rc) == SSL_ERROR_WANT_READ) return;
        ERR_clear_error();
    } else if (::recv(j.fd, buf, sizeof buf, 0) < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        return;
    }
    close(j);
}

// The request cannot go on: sent once more on a new connection when the kept one was closed
// before any byte of the answer came (the server closed it while it was idle), else failed.
void PollLoop::Impl::cut_short(Job& j, const std::string& problem) {
    close(j);
    if (j.reused && !j.retried && !j.response.started()) {
        j.retried = true;
        start(j);
        return;
    }
    fail(j, problem);
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
