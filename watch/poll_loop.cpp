// poll_loop.cpp — every http(s) source of the hall monitor asked from one thread, as transfers of
// one libcurl multi handle: the schedule of turns, each request and its answer's head, the
// deadlines, and what an answer leads to (a redirect, the feed's next turn).
#include "poll_loop.hpp"

#include <curl/curl.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <pthread.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <ctime>
#include <mutex>
#include <optional>
#include <queue>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>

#include "url_feed.hpp"

namespace arbiter::watch {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int max_redirects = 5;
// Silences are looked at this often.
constexpr std::chrono::milliseconds sweep_every{50};

bool is_redirect(int status) noexcept {
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

void curl_once() {
    static std::once_flag once;
    std::call_once(once, [] {
        if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
            throw std::runtime_error("arbiter watch: libcurl could not be started");
    });
}

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

bool named(std::string_view name, std::string_view lower) {
    return name.size() == lower.size() && std::equal(name.begin(), name.end(), lower.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) == b;
           });
}

// One source: its transfer (an easy handle kept from turn to turn), and the answer coming.
struct Job {
    UrlFeed* feed = nullptr;
    const TlsOptions* tls = nullptr;
    bool stream = false;
    CURL* easy = nullptr;
    curl_slist* headers = nullptr;
    Url url;  // as last redirected permanently
    Url at;   // where this request goes
    int hops = 0;
    std::string etag, last_modified;  // of the last body (polled)
    bool busy = false;                // a transfer in the multi handle
    Clock::time_point turn{};         // when this request was due
    // The answer to this request.
    int status = 0;
    bool connected = false;  // a stream's 200 came
    std::string location, new_etag, new_last_modified, body;
    Clock::time_point last_data{};
    char error[CURL_ERROR_SIZE]{};

    [[nodiscard]] std::string where() const { return at.host + ":" + std::to_string(at.port); }
};

size_t on_header(char* data, size_t size, size_t count, void* user) {
    Job& j = *static_cast<Job*>(user);
    const std::string_view line(data, size * count);
    j.last_data = Clock::now();
    if (line.rfind("HTTP/", 0) == 0) {  // a status line (a 1xx one, then the answer's)
        const auto space = line.find(' ');
        int status = 0;
        if (space != std::string_view::npos)
            std::from_chars(line.data() + space + 1, line.data() + line.size(), status);
        j.status = status;
        j.location.clear(), j.new_etag.clear(), j.new_last_modified.clear();
    } else if (trimmed(line).empty()) {  // the end of a head
        if (j.stream && j.status == 200 && !j.connected) {
            j.connected = true;
            j.feed->stream_connected();
        }
    } else if (const auto colon = line.find(':'); colon != std::string_view::npos) {
        const std::string_view name = line.substr(0, colon), value = trimmed(line.substr(colon + 1));
        if (named(name, "location"))
            j.location = value;
        else if (named(name, "etag"))
            j.new_etag = value;
        else if (named(name, "last-modified"))
            j.new_last_modified = value;
    }
    return size * count;
}

size_t on_body(char* data, size_t size, size_t count, void* user) {
    Job& j = *static_cast<Job*>(user);
    j.last_data = Clock::now();
    if (j.status != 200) return size * count;  // a redirect's or a refusal's body: not wanted
    if (j.stream)
        j.feed->stream_data(std::string_view(data, size * count));
    else
        j.body.append(data, size * count);
    return size * count;
}

// Each TLS connection's context: the certificate checked against the process's one store, its name
// against the host, by OpenSSL during the handshake.
CURLcode on_tls_context(CURL*, void* ctx, void* user) {
    const Job& j = *static_cast<const Job*>(user);
    trust_server_certificates(static_cast<SSL_CTX*>(ctx), *j.tls, j.at.host);
    return CURLE_OK;
}

// What went wrong with a transfer that failed, for a line on stderr.
std::string failure_words(const Job& j, CURLcode rc) {
    const std::string detail = j.error[0] ? std::string(j.error) : std::string(curl_easy_strerror(rc));
    switch (rc) {
        case CURLE_COULDNT_RESOLVE_HOST: return "cannot connect to " + j.where() + " (" + detail + ")";
        case CURLE_COULDNT_CONNECT: {
            long os_error = 0;
            curl_easy_getinfo(j.easy, CURLINFO_OS_ERRNO, &os_error);
            return "cannot connect to " + j.where() + " (" +
                   (os_error ? std::string(std::strerror(static_cast<int>(os_error))) : detail) + ")";
        }
        case CURLE_OPERATION_TIMEDOUT: {
            curl_off_t connected = 0;
            curl_easy_getinfo(j.easy, CURLINFO_CONNECT_TIME_T, &connected);
            return connected == 0 ? "no connection to " + j.where() + " in time"
                                  : "no answer in time, or the connection was cut";
        }
        case CURLE_PEER_FAILED_VERIFICATION:
        case CURLE_SSL_CONNECT_ERROR: {
            long verified = X509_V_OK;
            curl_easy_getinfo(j.easy, CURLINFO_SSL_VERIFYRESULT, &verified);
            if (verified != X509_V_OK)
                return std::string("the server's certificate is not trusted (") +
                       X509_verify_cert_error_string(verified) + "; see --ca-file)";
            if (rc == CURLE_PEER_FAILED_VERIFICATION)
                return "the server's certificate is not trusted (" + detail + "; see --ca-file)";
            return "the TLS handshake failed (" + detail + ")";
        }
        case CURLE_BAD_CONTENT_ENCODING: return "the compressed body is corrupt";
        case CURLE_WEIRD_SERVER_REPLY:
        case CURLE_UNSUPPORTED_PROTOCOL: return "a bad answer (" + detail + ")";
        case CURLE_GOT_NOTHING:
        case CURLE_RECV_ERROR:
        case CURLE_SEND_ERROR:
        case CURLE_PARTIAL_FILE: return "no answer in time, or the connection was cut";
        default: return "request failed (" + detail + ")";
    }
}

}  // namespace

struct PollLoop::Impl {
    Options options;
    CURLM* multi = nullptr;
    std::vector<std::unique_ptr<Job>> jobs;
    using Turn = std::pair<Clock::time_point, Job*>;
    std::priority_queue<Turn, std::vector<Turn>, std::greater<>> due;
    std::size_t polled_busy = 0, streams_busy = 0;
    bool added = false;  // a transfer added since the last pump: it starts at the next
    // libcurl's sockets, watched by this loop (on_socket), and the stop's wake-up.
    int epoll = -1, wake = -1;
    // When libcurl wants to be called for its own deadlines (on_timer); none when it does not.
    std::optional<Clock::time_point> curl_due;
    std::atomic<bool> stopping{false};
    std::thread thread;
    Clock::time_point next_sweep{};

    explicit Impl(Options o) : options(std::move(o)) {}

    static int on_socket(CURL*, curl_socket_t socket, int what, void* user, void*);
    static int on_timer(CURLM*, long timeout_ms, void* user);
    void run();
    void pump(curl_socket_t socket = CURL_SOCKET_TIMEOUT, int events = 0);
    void take_answers();
    void sweep(Clock::time_point now);
    void take_turn(Job& j);
    void start(Job& j);
    void done(Job& j, CURLcode rc);
    void finish(Job& j, FetchResult r);
    void fail(Job& j, std::string problem) {
        FetchResult r;
        r.problem = std::move(problem);
        finish(j, std::move(r));
    }
    void count(const Job& j, int by) { (j.stream ? streams_busy : polled_busy) += static_cast<std::size_t>(by); }
};

// libcurl says what it waits for on a socket: this loop's epoll set follows.
int PollLoop::Impl::on_socket(CURL*, curl_socket_t socket, int what, void* user, void* watched) {
    auto& m = *static_cast<Impl*>(user);
    if (what == CURL_POLL_REMOVE) {
        epoll_ctl(m.epoll, EPOLL_CTL_DEL, socket, nullptr);  // (gone already when it was closed)
        return 0;
    }
    epoll_event ev{};
    ev.events = ((what & CURL_POLL_IN) ? EPOLLIN : 0u) | ((what & CURL_POLL_OUT) ? EPOLLOUT : 0u);
    ev.data.fd = socket;
    // A socket libcurl has told of before is in the set (marked through curl_multi_assign);
    // a new one, or one whose number came back after a close, is added.
    if (!watched || (epoll_ctl(m.epoll, EPOLL_CTL_MOD, socket, &ev) != 0 && errno == ENOENT)) {
        if (epoll_ctl(m.epoll, EPOLL_CTL_ADD, socket, &ev) != 0 && errno == EEXIST)
            epoll_ctl(m.epoll, EPOLL_CTL_MOD, socket, &ev);
        curl_multi_assign(m.multi, socket, &m);
    }
    return 0;
}

// libcurl says when it wants to be called for its own deadlines (-1: never).
int PollLoop::Impl::on_timer(CURLM*, long timeout_ms, void* user) {
    auto& m = *static_cast<Impl*>(user);
    if (timeout_ms < 0)
        m.curl_due.reset();
    else
        m.curl_due = Clock::now() + std::chrono::milliseconds(timeout_ms);
    return 0;
}

PollLoop::PollLoop(const std::vector<UrlFeed*>& feeds, Options options)
    : impl_(std::make_unique<Impl>(std::move(options))) {
    curl_once();
    Impl& m = *impl_;
    m.epoll = epoll_create1(EPOLL_CLOEXEC);
    m.wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (m.epoll < 0 || m.wake < 0) throw std::runtime_error("arbiter watch: epoll: " + std::string(strerror(errno)));
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = m.wake;
    epoll_ctl(m.epoll, EPOLL_CTL_ADD, m.wake, &ev);
    m.multi = curl_multi_init();
    if (!m.multi) throw std::runtime_error("arbiter watch: libcurl: no multi handle");
    curl_multi_setopt(m.multi, CURLMOPT_SOCKETFUNCTION, Impl::on_socket);
    curl_multi_setopt(m.multi, CURLMOPT_SOCKETDATA, &m);
    curl_multi_setopt(m.multi, CURLMOPT_TIMERFUNCTION, Impl::on_timer);
    curl_multi_setopt(m.multi, CURLMOPT_TIMERDATA, &m);
    // Every source's connection stays in libcurl's cache between its turns (by default it keeps
    // four for each transfer in progress, and a polled URL has none between turns).
    curl_multi_setopt(m.multi, CURLMOPT_MAXCONNECTS, static_cast<long>(feeds.size() + 8));
    for (UrlFeed* feed : feeds) {
        auto j = std::make_unique<Job>();
        j->feed = feed;
        j->tls = &m.options.tls;
        j->stream = feed->mode() == UrlFeed::Mode::stream;
        j->url = j->at = feed->url();
        j->easy = curl_easy_init();
        if (!j->easy) throw std::runtime_error("arbiter watch: libcurl: no easy handle");
        CURL* e = j->easy;
        curl_easy_setopt(e, CURLOPT_PRIVATE, j.get());
        curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(e, CURLOPT_ERRORBUFFER, j->error);
        curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
        curl_easy_setopt(e, CURLOPT_HEADERDATA, j.get());
        curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
        curl_easy_setopt(e, CURLOPT_WRITEDATA, j.get());
        curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
        curl_easy_setopt(e, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1);
        curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
        curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "gzip");
        curl_easy_setopt(e, CURLOPT_USERAGENT, "arbiter-watch");
        curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(m.options.connect_timeout.count()));
        // Certificates: libcurl loads none of its own; each TLS context gets the process's one
        // store (on_tls_context).
        curl_easy_setopt(e, CURLOPT_CAINFO, nullptr);
        curl_easy_setopt(e, CURLOPT_CAPATH, nullptr);
        curl_easy_setopt(e, CURLOPT_CA_CACHE_TIMEOUT, 0L);
        curl_easy_setopt(e, CURLOPT_SSL_CTX_FUNCTION, on_tls_context);
        curl_easy_setopt(e, CURLOPT_SSL_CTX_DATA, j.get());
        if (m.options.tls.insecure) {
            curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
            curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
        }
        m.due.emplace(feed->first_turn(), j.get());
        m.jobs.push_back(std::move(j));
    }
    m.thread = std::thread([&m] { m.run(); });
}

PollLoop::~PollLoop() {
    Impl& m = *impl_;
    m.stopping = true;
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto w = write(m.wake, &one, sizeof one);
    m.thread.join();
    for (auto& j : m.jobs) {
        if (j->busy) curl_multi_remove_handle(m.multi, j->easy);
        curl_easy_cleanup(j->easy);
        curl_slist_free_all(j->headers);
    }
    curl_multi_cleanup(m.multi);
    ::close(m.epoll);
    ::close(m.wake);
}

void PollLoop::Impl::run() {
    // A write on a connection the server has reset may raise SIGPIPE, which would end the process:
    // blocked on this thread, the write fails with EPIPE instead.
    sigset_t pipe;
    sigemptyset(&pipe);
    sigaddset(&pipe, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe, nullptr);
    constexpr int max_events = 256;
    epoll_event events[max_events];
    while (!stopping) {
        int timeout = 0;
        if (polled_busy > 0) {
            // Answers are awaited: let them gather for a tick, then read all that came.
            const auto tick = std::chrono::duration_cast<std::chrono::nanoseconds>(options.tick);
            const timespec ts{static_cast<time_t>(tick.count() / 1'000'000'000),
                              static_cast<long>(tick.count() % 1'000'000'000)};
            nanosleep(&ts, nullptr);
        } else {
            // Nothing polled in progress: sleep until the next turn, a stream's bytes, libcurl's
            // own deadline (a connection being made, a name being looked up) or the stop.
            auto until = Clock::now() + std::chrono::seconds(1);
            if (!due.empty()) until = std::min(until, due.top().first - options.tick);
            if (streams_busy > 0) until = std::min(until, Clock::now() + sweep_every);
            if (curl_due) until = std::min(until, *curl_due);
            timeout = static_cast<int>(
                std::max<std::int64_t>(0, std::chrono::ceil<std::chrono::milliseconds>(until - Clock::now()).count()));
        }
        const int n = epoll_wait(epoll, events, max_events, timeout);
        if (stopping) break;
        // Only the sockets that have something: not every transfer in progress.
        for (int i = 0; i < n; ++i) {
            if (events[i].data.fd == wake) continue;
            const std::uint32_t e = events[i].events;
            pump(events[i].data.fd, ((e & EPOLLIN) ? CURL_CSELECT_IN : 0) | ((e & EPOLLOUT) ? CURL_CSELECT_OUT : 0) |
                                        ((e & (EPOLLERR | EPOLLHUP)) ? CURL_CSELECT_ERR : 0));
        }
        if (curl_due && Clock::now() >= *curl_due) {
            curl_due.reset();
            pump();
        }
        const auto now = Clock::now();
        while (!due.empty() && due.top().first <= now + options.tick) {
            Job* j = due.top().second;
            j->turn = due.top().first;
            due.pop();
            take_turn(*j);
        }
        if (added) pump();  // the new requests (and redirects) go out now, not a tick later
        if (now >= next_sweep) sweep(now);
    }
}

// Moves on the transfers of `socket` with its `events` (CURL_SOCKET_TIMEOUT: libcurl's own
// deadlines, and the transfers just added), and takes the answers that are whole.
void PollLoop::Impl::pump(curl_socket_t socket, int events) {
    if (socket == CURL_SOCKET_TIMEOUT) added = false;
    int running = 0;
    curl_multi_socket_action(multi, socket, events, &running);
    take_answers();
}

void PollLoop::Impl::take_answers() {
    int left = 0;
    while (CURLMsg* msg = curl_multi_info_read(multi, &left)) {
        if (msg->msg != CURLMSG_DONE) continue;
        CURL* easy = msg->easy_handle;
        const CURLcode rc = msg->data.result;
        Job* j = nullptr;
        curl_easy_getinfo(easy, CURLINFO_PRIVATE, &j);
        done(*j, rc);
    }
}

// Transfers silent too long: a polled answer after `read_timeout`, a stream after its
// `--stream-timeout`.
void PollLoop::Impl::sweep(Clock::time_point now) {
    next_sweep = now + sweep_every;
    for (auto& p : jobs) {
        Job& j = *p;
        if (!j.busy) continue;
        const auto silence = j.stream ? j.feed->stream_silence() : options.read_timeout;
        if (now - j.last_data < silence) continue;
        curl_multi_remove_handle(multi, j.easy);
        j.busy = false;
        count(j, -1);
        FetchResult r;
        if (j.stream && j.status == 200) {
            r.status = 200;
            r.problem = "the stream was cut or went silent";
        } else {
            r.problem = "no answer in time, or the connection was cut";
        }
        finish(j, std::move(r));
    }
}

// A turn: the feed's request from where it lives now.
void PollLoop::Impl::take_turn(Job& j) {
    j.at = j.url;
    j.hops = 0;
    start(j);
}

// The request of this turn (or of a redirect); libcurl sends it on the connection kept from the
// last one when it goes to the same place.
void PollLoop::Impl::start(Job& j) {
    j.status = 0;
    j.connected = false;
    j.location.clear(), j.new_etag.clear(), j.new_last_modified.clear(), j.body.clear();
    j.error[0] = '\0';
    j.last_data = Clock::now();
    curl_slist_free_all(j.headers);
    j.headers = nullptr;
    if (!j.stream) {
        if (!j.etag.empty()) j.headers = curl_slist_append(j.headers, ("If-None-Match: " + j.etag).c_str());
        if (!j.last_modified.empty())
            j.headers = curl_slist_append(j.headers, ("If-Modified-Since: " + j.last_modified).c_str());
    }
    curl_easy_setopt(j.easy, CURLOPT_HTTPHEADER, j.headers);
    curl_easy_setopt(j.easy, CURLOPT_URL, j.at.text().c_str());
    if (curl_multi_add_handle(multi, j.easy) != CURLM_OK) {
        fail(j, "request failed (libcurl refused it)");
        return;
    }
    j.busy = true;
    added = true;
    count(j, +1);
}

void PollLoop::Impl::done(Job& j, CURLcode rc) {
    curl_multi_remove_handle(multi, j.easy);
    j.busy = false;
    count(j, -1);
    FetchResult r;
    if (rc != CURLE_OK) {
        if (j.stream && j.status == 200) {
            r.status = 200;
            r.problem = "the stream was cut or went silent";
        } else {
            r.problem = failure_words(j, rc);
        }
        finish(j, std::move(r));
        return;
    }
    const int status = j.status;
    r.status = status;
    if (is_redirect(status)) {
        if (j.hops >= max_redirects) {
            r.problem = "more than " + std::to_string(max_redirects) + " redirects";
            finish(j, std::move(r));
            return;
        }
        std::string error;
        const auto next = resolve_location(j.at, j.location, error);
        if (!next) {
            r.problem = "HTTP " + std::to_string(status) + " to a bad Location (" + error + ")";
            finish(j, std::move(r));
            return;
        }
        if (status == 301 || status == 308) j.url = *next;
        j.at = *next;
        ++j.hops;
        start(j);
        return;
    }
    if (status == 200 && j.stream) {
        r.kind = FetchResult::Kind::body;  // the server ended the stream
    } else if (status == 304 && !j.stream) {
        r.kind = FetchResult::Kind::not_modified;
    } else if (status == 200) {
        j.etag = std::move(j.new_etag);
        j.last_modified = std::move(j.new_last_modified);
        r.kind = FetchResult::Kind::body;
        r.body = std::move(j.body);
    } else {
        r.problem = "HTTP status " + std::to_string(status);
        j.etag.clear(), j.last_modified.clear();  // when it answers again, its body is wanted whole
    }
    finish(j, std::move(r));
}

// The next turn: a polled URL an interval after this one was due, so that it is asked once an
// interval (the time its answer took is not added to it); after a failure, and for a stream, the
// wait from now.
void PollLoop::Impl::finish(Job& j, FetchResult r) {
    const bool failed = r.kind == FetchResult::Kind::failed;
    const std::optional<std::chrono::milliseconds> wait =
        j.stream ? j.feed->stream_ended(r, j.connected) : j.feed->answered(std::move(r));
    if (!wait) return;
    const auto now = Clock::now();
    due.emplace(failed || j.stream ? now + *wait : std::max(j.turn + *wait, now), &j);
}

}  // namespace arbiter::watch
