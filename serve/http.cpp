// http.cpp — the cpp-httplib adapter of `arbiter serve` (docs/api.md, README "The console").
#include "http.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <malloc.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include <httplib.h>

#include "errors.hpp"
#include "service.hpp"
#include "text.hpp"

namespace arbiter::serve {

namespace {

struct HostPort {
    std::string host;
    int port = 0;
};

HostPort parse_listen(const std::string& text) {
    const auto colon = text.rfind(':');
    HostPort hp;
    if (colon == std::string::npos || colon == 0)
        throw face::InputError("--listen: expected HOST:PORT such as 127.0.0.1:8080, found '" + face::printable(text) +
                               "'");
    hp.host = text.substr(0, colon);
    if (hp.host.size() > 2 && hp.host.front() == '[' && hp.host.back() == ']')
        hp.host = hp.host.substr(1, hp.host.size() - 2);
    const std::string port = text.substr(colon + 1);
    if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
        std::stoi(port) > 65535)
        throw face::InputError("--listen: the port must be a number from 0 to 65535, found '" + face::printable(port) +
                               "'");
    hp.port = std::stoi(port);
    return hp;
}

bool loopback(const std::string& host) { return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0; }

std::string read_token(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw face::InputError("--token-file: cannot read '" + face::printable(path) + "'");
    std::stringstream ss;
    ss << in.rdbuf();
    std::string token = ss.str();
    while (!token.empty() && (token.back() == '\n' || token.back() == '\r' || token.back() == ' ')) token.pop_back();
    if (token.size() < 16 || token.find_first_of(" \t\r\n") != std::string::npos)
        throw face::InputError("--token-file: '" + face::printable(path) +
                               "' must hold one token of at least 16 characters without spaces");
    return token;
}

[[noreturn]] void fail(const JournalError& e) {
    if (e.code == JournalError::Code::io) throw std::runtime_error(e.message);
    throw face::InputError(e.message);
}

// An error status that cpp-httplib answered itself (400 on a bad request line, 413, …) gets the
// JSON error body too.
const char* code_of(int status) {
    switch (status) {
        case 400: return "bad_request";
        case 404: return "not_found";
        case 405: return "method_not_allowed";
        case 413: return "too_large";
        case 414: return "uri_too_long";
        default: return "http_error";
    }
}

using Clock = std::chrono::steady_clock;

// Waits until `fd` is readable (POLLIN) or writable (POLLOUT), at most `ms`: > 0 ready, 0 timed
// out, < 0 error.
int wait_for(int fd, short events, long long ms) {
    pollfd p{fd, events, 0};
    for (;;) {
        const int r = ::poll(&p, 1, static_cast<int>(std::clamp<long long>(ms, 0, 1'000'000)));
        if (r < 0 && errno == EINTR) continue;
        return r;
    }
}

std::string address(const sockaddr_storage& a, int& port) {
    char text[INET6_ADDRSTRLEN] = {};
    if (a.ss_family == AF_INET6) {
        const auto& in6 = reinterpret_cast<const sockaddr_in6&>(a);
        ::inet_ntop(AF_INET6, &in6.sin6_addr, text, sizeof text);
        port = ntohs(in6.sin6_port);
    } else {
        const auto& in4 = reinterpret_cast<const sockaddr_in&>(a);
        ::inet_ntop(AF_INET, &in4.sin_addr, text, sizeof text);
        port = ntohs(in4.sin_port);
    }
    return text;
}

// A connection's socket as cpp-httplib reads and writes it, with one difference: the reads of
// a request share a deadline (Limits::request_ms from its first byte), so that a client
// dripping a byte every few seconds — each read within the read timeout — cannot hold the
// thread of its connection longer than that. Reads are buffered (the header parser asks for
// one byte at a time).
class DeadlineStream final : public httplib::Stream {
public:
    DeadlineStream(int fd, long long read_ms, long long write_ms) : fd_(fd), read_ms_(read_ms), write_ms_(write_ms) {}
    void set_deadline(Clock::time_point t) { deadline_ = t; }

    bool is_readable() const override { return wait_for(fd_, POLLIN, read_wait()) > 0; }
    bool is_writable() const override {
        if (wait_for(fd_, POLLOUT, write_ms_) <= 0) return false;
        // Still connected: not readable, or readable with data (a closed peer reads as 0 bytes).
        if (wait_for(fd_, POLLIN, 0) == 0) return true;
        char c;
        return ::recv(fd_, &c, 1, MSG_PEEK | MSG_DONTWAIT) > 0;
    }
    ssize_t read(char* ptr, std::size_t size) override {
        if (off_ == len_) {
            if (!is_readable()) return -1;  // the read timeout, or the request's deadline, passed
            ssize_t n;
            do n = ::recv(fd_, buf_.data(), buf_.size(), 0);
            while (n < 0 && errno == EINTR);
            if (n <= 0) return n;
            off_ = 0;
            len_ = static_cast<std::size_t>(n);
        }
        const std::size_t take = std::min(size, len_ - off_);
        std::memcpy(ptr, buf_.data() + off_, take);
        off_ += take;
        return static_cast<ssize_t>(take);
    }
    ssize_t write(const char* ptr, std::size_t size) override {
        if (!is_writable()) return -1;
        ssize_t n;
        do n = ::send(fd_, ptr, size, MSG_NOSIGNAL);
        while (n < 0 && errno == EINTR);
        return n;
    }
    void get_remote_ip_and_port(std::string& ip, int& port) const override {
        sockaddr_storage a{};
        socklen_t len = sizeof a;
        if (::getpeername(fd_, reinterpret_cast<sockaddr*>(&a), &len) == 0) ip = address(a, port);
    }
    void get_local_ip_and_port(std::string& ip, int& port) const override {
        sockaddr_storage a{};
        socklen_t len = sizeof a;
        if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) == 0) ip = address(a, port);
    }
    socket_t socket() const override { return fd_; }
    [[nodiscard]] bool buffered() const noexcept { return off_ < len_; }

private:
    long long read_wait() const {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - Clock::now()).count();
        return std::min(read_ms_, std::max<long long>(left, 0));
    }
    int fd_;
    long long read_ms_, write_ms_;
    Clock::time_point deadline_ = Clock::time_point::max();
    std::array<char, 4096> buf_{};
    std::size_t off_ = 0, len_ = 0;
};

struct Limits {
    long long read_ms = 5'000;        ///< one read (cpp-httplib's read timeout)
    long long write_ms = 5'000;       ///< one write
    long long request_ms = 20'000;    ///< the whole of a request (line, headers, body)
    long long keep_alive_ms = 5'000;  ///< an idle connection between requests
    std::size_t keep_alive_max = 1'000;
    std::size_t threads = 1024;
};

// cpp-httplib's Server with its connection loop replaced (process_and_close_socket is its hook
// for that): the request deadline above; waiting for a connection's next request with poll(),
// not cpp-httplib's 10 ms polling loop (about 90 wake-ups a second for each idle connection);
// and keep-alive given up when three quarters of the threads hold connections, so that idle
// connections do not keep new ones waiting for a thread.
class Server final : public httplib::Server {
public:
    explicit Server(Limits limits) : limits_(limits) {}
    [[nodiscard]] std::size_t connections() const noexcept { return connections_; }
    /// The listening socket's queue of connections not yet accepted (cpp-httplib's is 5: a burst
    /// of connections beyond it waits for SYN retransmissions, 1 s, then 3 s, …).
    void set_backlog(int n) { ::listen(svr_sock_, n); }

private:
    bool process_and_close_socket(socket_t fd) override {
        ++connections_;
        DeadlineStream stream(fd, limits_.read_ms, limits_.write_ms);
        bool ok = false;
        for (std::size_t n = 1; n <= limits_.keep_alive_max; ++n) {
            if (!stream.buffered() && !next_request(fd)) break;
            stream.set_deadline(Clock::now() + std::chrono::milliseconds(limits_.request_ms));
            const bool close = n == limits_.keep_alive_max || connections_ * 4 > limits_.threads * 3;
            bool closed = false;
            ok = process_request(stream, close, closed, nullptr);
            if (!ok || closed || close) break;
        }
        --connections_;
        ::shutdown(fd, SHUT_RDWR);
        ::close(fd);
        return ok;
    }
    // Waits for the first byte of the next request: false when the keep-alive time passed, the
    // client closed, or the server is stopping.
    bool next_request(int fd) const {
        const auto end = Clock::now() + std::chrono::milliseconds(limits_.keep_alive_ms);
        while (svr_sock_ != INVALID_SOCKET) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now()).count();
            if (left <= 0) return false;
            const int r = wait_for(fd, POLLIN, std::min<long long>(left, 200));
            if (r < 0) return false;
            if (r > 0) return true;
        }
        return false;
    }
    Limits limits_;
    std::atomic<std::size_t> connections_{0};
};

}  // namespace

int run(const ServeOptions& o) {
    const HostPort hp = parse_listen(o.listen);
    std::string token;
    if (!o.token_file.empty()) token = read_token(o.token_file);
    if (!loopback(hp.host) && token.empty())
        throw face::InputError("--listen " + face::printable(o.listen) +
                               " is not a loopback address: give --token-file FILE so that every request needs "
                               "Authorization: Bearer TOKEN");
    if (o.threads < 4 || o.threads > 10'000) throw face::InputError("--threads: from 4 to 10000");
    if (o.request_timeout_s < 1 || o.request_timeout_s > 3600)
        throw face::InputError("--request-timeout: from 1 to 3600 seconds");

    auto journal = Journal::open(o.journal, Journal::Mode::create_if_missing);
    if (!journal) fail(journal.error());
    // One server a journal: its sessions live in this process's memory. The lock is held until
    // the process ends (the descriptor is never closed, so SQLite's own locks are not disturbed).
    const int lock_fd = ::open(o.journal.c_str(), O_RDONLY | O_CLOEXEC);
    if (lock_fd < 0 || ::flock(lock_fd, LOCK_EX | LOCK_NB) != 0)
        throw face::InputError("journal '" + face::printable(o.journal) +
                               "' is already served by another arbiter serve (stop it, or use another journal)");

    // SIGINT and SIGTERM end the server cleanly; a closed connection is an error return, not SIGPIPE.
    std::signal(SIGPIPE, SIG_IGN);
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);

    ServiceOptions so;
    so.token = token;
    so.max_streams = o.threads > 64 ? o.threads - 32 : o.threads / 2;
    Service service(std::move(*journal), so);
    std::unique_ptr<face::Routes> hall;  // the hall monitor's routes, with --watch
    if (o.routes) hall = o.routes(token);

    // A few malloc arenas, not one for each of the threads that ever allocated (glibc makes up
    // to 8 a core): the memory of a burst of connections is then reused, not kept per arena.
    mallopt(M_ARENA_MAX, 2);
    Limits limits;
    limits.threads = o.threads;
    limits.request_ms = static_cast<long long>(o.request_timeout_s) * 1000;
    Server server(limits);
    const std::size_t threads = o.threads;
    server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
    server.set_payload_max_length(max_pgn_body);
    server.set_tcp_nodelay(true);  // headers and body are two writes: without it, Nagle + delayed ACK add 40 ms
    auto handler = [&service, &hall](const httplib::Request& in, httplib::Response& out) {
        Request req;
        req.method = in.method;
        req.path = in.path;
        for (const auto& [k, v] : in.params) req.query.emplace(k, v);
        req.authorization = in.get_header_value("Authorization");
        req.body = in.body;
        Response r = hall && hall->handles(req.path) ? hall->handle(req) : service.handle(req);
        out.status = r.status;
        for (const auto& [k, v] : r.headers) out.set_header(k, v);
        if (r.stream) {
            auto gen = std::move(r.stream);
            out.set_chunked_content_provider(r.content_type, [gen](std::size_t, httplib::DataSink& sink) {
                std::string chunk;
                if (!gen(chunk)) {
                    sink.done();
                    return true;
                }
                return sink.write(chunk.data(), chunk.size());
            });
        } else {
            out.set_content(r.body, r.content_type);
        }
    };
    server.Get(".*", handler);
    server.Post(".*", handler);
    server.Put(".*", handler);
    server.Patch(".*", handler);
    server.Delete(".*", handler);
    server.Options(".*", handler);
    server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
        if (!res.body.empty()) return;
        res.set_content(std::string(R"({"error":{"code":")") + code_of(res.status) + R"(","message":"HTTP )" +
                            std::to_string(res.status) + R"("}})" + "\n",
                        "application/json");
    });
    server.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
        res.status = 500;
        res.set_content(R"({"error":{"code":"internal","message":"internal error"}})"
                        "\n",
                        "application/json");
    });

    int port = hp.port;
    if (port == 0) {
        port = server.bind_to_any_port(hp.host);
        if (port < 0) throw face::InputError("--listen " + face::printable(o.listen) + ": cannot bind");
    } else if (!server.bind_to_port(hp.host, port)) {
        throw face::InputError("--listen " + face::printable(o.listen) +
                               ": cannot bind (in use, or not an address of this machine)");
    }
    server.set_backlog(1024);
    const bool v6 = hp.host.find(':') != std::string::npos;
    std::cout << "listening on http://" << (v6 ? "[" + hp.host + "]" : hp.host) << ":" << port << std::endl;

    std::thread waiter([&] {
        int sig = 0;
        sigwait(&signals, &sig);
        if (hall) hall->stop();
        service.stop();
        server.stop();
    });
    server.listen_after_bind();
    if (hall) hall->stop();
    service.stop();
    if (waiter.joinable()) {
        // listen_after_bind ended without a signal (it failed): wake the waiter.
        pthread_kill(waiter.native_handle(), SIGTERM);
        waiter.join();
    }
    return 0;
}

}  // namespace arbiter::serve
