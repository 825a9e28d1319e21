// http.cpp — the cpp-httplib adapter of `arbiter serve` (docs/api.md, README "The console"): the
// connection loop, plain or over TLS (the streams of connection.hpp; the context of tls.hpp,
// reloaded on SIGHUP), and the options' checks.
#include "http.hpp"

#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include <httplib.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include "connection.hpp"
#include "errors.hpp"
#include "http/http_kit.hpp"
#include "json/json.hpp"
#include "service.hpp"
#include "text.hpp"
#include "tls.hpp"

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
// JSON error body of every refusal too, written by the kit (http_kit.hpp), with the code of that
// status (error_codes.hpp).
std::string error_body(int status) {
    using face::Code;
    Code code = Code::http_error;
    for (Code c : {Code::bad_request, Code::not_found, Code::method_not_allowed, Code::too_large, Code::uri_too_long})
        if (face::row_of(c).http_status == status) code = c;
    return face::error_response(face::HttpError(code, "HTTP " + std::to_string(status))).body;
}

struct Limits {
    long long read_ms = 5'000;        ///< one read (cpp-httplib's read timeout)
    long long write_ms = 5'000;       ///< one write
    long long request_ms = 20'000;    ///< the whole of a request (line, headers, body)
    long long keep_alive_ms = 5'000;  ///< an idle connection between requests
    std::size_t keep_alive_max = 1'000;
    std::size_t threads = default_threads;
};

// cpp-httplib's Server with its connection loop replaced (process_and_close_socket is its hook
// for that): the request deadline above; waiting for a connection's next request with poll(),
// not cpp-httplib's 10 ms polling loop (about 90 wake-ups a second for each idle connection);
// and keep-alive given up when three quarters of the threads hold connections, so that idle
// connections do not keep new ones waiting for a thread. With a TLS context every connection is
// HTTPS: the TLS handshake is done here too (not by httplib::SSLServer, whose connection loop has
// none of this), under the same bounds.
class Server final : public httplib::Server {
public:
    Server(Limits limits, const TlsContext* tls) : limits_(limits), tls_(tls) {}
    [[nodiscard]] std::size_t connections() const noexcept { return connections_; }
    /// The listening socket's queue of connections not yet accepted (cpp-httplib's is 5: a burst
    /// of connections beyond it waits for SYN retransmissions, 1 s, then 3 s, …).
    void set_backlog(int n) { ::listen(svr_sock_, n); }

private:
    bool process_and_close_socket(socket_t fd) override {
        ++connections_;
        bool ok = false;
        if (tls_) {
            ok = serve_tls(fd);
        } else {
            DeadlineStream stream(fd, limits_.read_ms, limits_.write_ms);
            ok = serve_requests(stream, fd);
        }
        --connections_;
        ::shutdown(fd, SHUT_RDWR);
        ::close(fd);
        return ok;
    }
    // The requests of one connection, keep-alive included.
    bool serve_requests(ConnectionStream& stream, int fd) {
        bool ok = false;
        for (std::size_t n = 1; n <= limits_.keep_alive_max; ++n) {
            if (!stream.buffered() && !next_request(fd)) break;
            stream.set_deadline(Clock::now() + std::chrono::milliseconds(limits_.request_ms));
            const bool close = n == limits_.keep_alive_max || connections_ * 4 > limits_.threads * 3;
            bool closed = false;
            ok = process_request(stream, close, closed, nullptr);
            if (!ok || closed || close) break;
        }
        return ok;
    }
    // An HTTPS connection. Its first byte tells a TLS handshake (a handshake record, 0x16) from
    // plain HTTP (a method's capital letter: answered 400 https_required) and anything else
    // (closed without a word). The handshake must be over by the request's deadline, each wait
    // within the read timeout, so that a client that connects and says nothing, or drips its
    // ClientHello, holds its thread no longer than a slow request would.
    bool serve_tls(int fd) {
        const auto deadline = Clock::now() + std::chrono::milliseconds(limits_.request_ms);
        // Non-blocking from here: OpenSSL then answers WANT_READ or WANT_WRITE where a blocking
        // socket would wait without a bound, and we wait with poll().
        const int flags = ::fcntl(fd, F_GETFL);
        if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) return false;
        if (wait_for(fd, POLLIN, left(deadline, limits_.read_ms)) <= 0) return false;
        unsigned char first = 0;
        if (::recv(fd, &first, 1, MSG_PEEK) != 1) return false;
        if (first >= 'A' && first <= 'Z') {
            refuse_plain_http(fd, deadline, limits_.read_ms, limits_.write_ms);
            return false;
        }
        if (first != 0x16) return false;

        const ContextPtr ctx = tls_->current();
        const std::unique_ptr<SSL, decltype(&SSL_free)> ssl(SSL_new(ctx.get()), SSL_free);
        ERR_clear_error();
        if (!ssl || SSL_set_fd(ssl.get(), fd) != 1) return false;
        for (;;) {
            const int r = SSL_accept(ssl.get());
            if (r == 1) break;
            const int e = SSL_get_error(ssl.get(), r);
            ERR_clear_error();  // the thread's error queue: the next connection of this thread starts clean
            if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE) return false;
            if (wait_for(fd, e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT, left(deadline, limits_.read_ms)) <= 0)
                return false;
        }
        TlsStream stream(ssl.get(), fd, limits_.read_ms, limits_.write_ms);
        const bool ok = serve_requests(stream, fd);
        if (!stream.failed()) SSL_shutdown(ssl.get());  // our close_notify, without waiting for the client's
        ERR_clear_error();
        return ok;
    }
    // Waits for the first byte of the next request: false when the keep-alive time passed, the
    // client closed, or the server is stopping.
    bool next_request(int fd) const {
        const auto end = Clock::now() + std::chrono::milliseconds(limits_.keep_alive_ms);
        while (svr_sock_ != INVALID_SOCKET) {
            const long long ms = left(end, limits_.keep_alive_ms);
            if (ms <= 0) return false;
            const int r = wait_for(fd, POLLIN, std::min<long long>(ms, 200));
            if (r < 0) return false;
            if (r > 0) return true;
        }
        return false;
    }
    Limits limits_;
    const TlsContext* tls_;  ///< null: plain HTTP
    std::atomic<std::size_t> connections_{0};
};

}  // namespace

int run(const ServeOptions& o) {
    const HostPort hp = parse_listen(o.listen);
    std::string token;
    if (!o.token_file.empty()) token = read_token(o.token_file);
    if (o.tls_cert.empty() != o.tls_key.empty())
        throw face::InputError(
            o.tls_key.empty() ? "--tls-key is missing: --tls-cert needs the certificate's private key too "
                                "(--tls-key FILE, PEM)"
                              : "--tls-cert is missing: --tls-key needs its certificate too (--tls-cert FILE, PEM)");
    // Tokens and events in clear on the hall's Wi-Fi are for anyone on it to read: an address
    // other than loopback is served over TLS unless told otherwise.
    if (!loopback(hp.host) && o.tls_cert.empty() && !o.insecure_http)
        throw face::InputError("--listen " + face::printable(o.listen) +
                               " is not a loopback address: serve it over TLS (--tls-cert FILE --tls-key FILE), or "
                               "give --insecure-http to serve plain HTTP on that network");
    if (o.threads < min_threads || o.threads > max_threads)
        throw face::InputError("--threads: from " + std::to_string(min_threads) + " to " + std::to_string(max_threads));
    if (o.request_timeout_s < 1 || o.request_timeout_s > max_request_timeout_s)
        throw face::InputError("--request-timeout: from 1 to " + std::to_string(max_request_timeout_s) + " seconds");

    std::unique_ptr<TlsContext> tls;
    if (!o.tls_cert.empty()) tls = std::make_unique<TlsContext>(o.tls_cert, o.tls_key);

    auto journal = Journal::open(o.journal, Journal::Mode::create_if_missing);
    if (!journal) fail(journal.error());
    // One server a journal: its sessions live in this process's memory. The lock is held until
    // the process ends (the descriptor is never closed, so SQLite's own locks are not disturbed).
    const int lock_fd = ::open(o.journal.c_str(), O_RDONLY | O_CLOEXEC);
    if (lock_fd < 0 || ::flock(lock_fd, LOCK_EX | LOCK_NB) != 0)
        throw face::InputError("journal '" + face::printable(o.journal) +
                               "' is already served by another arbiter serve (stop it, or use another journal)");

    // SIGINT and SIGTERM end the server cleanly, SIGHUP reloads the certificate (and does nothing
    // without TLS); a closed connection is an error return, not SIGPIPE.
    std::signal(SIGPIPE, SIG_IGN);
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);

    ServiceOptions so;
    so.token = token;
    so.max_streams = o.threads > 64 ? o.threads - 32 : o.threads / 2;
    so.accept_broken_journal = o.accept_broken_journal;
    Service service(std::move(*journal), so);  // checks the journal's hash chain
    // Beyond loopback every request names its user: users in the journal, or the --token-file.
    if (!loopback(hp.host) && !service.access_required())
        throw face::InputError("--listen " + face::printable(o.listen) +
                               " is not a loopback address: add users to the journal (arbiter users add) or give "
                               "--token-file FILE, so that every request needs Authorization: Bearer TOKEN");
    std::unique_ptr<face::Routes> hall;  // the hall monitor's routes, with --watch, behind the same users
    if (o.routes) hall = o.routes(service.guard());

    // A few malloc arenas, not one for each of the threads that ever allocated (glibc makes up
    // to 8 a core): the memory of a burst of connections is then reused, not kept per arena.
    mallopt(M_ARENA_MAX, 2);
    Limits limits;
    limits.threads = o.threads;
    limits.request_ms = static_cast<long long>(o.request_timeout_s) * 1000;
    Server server(limits, tls.get());
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
        req.accept_language = in.get_header_value("Accept-Language");
        req.remote = in.remote_addr;
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
        res.set_content(error_body(res.status), "application/json");
    });
    server.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
        res.status = 500;
        res.set_content(face::error_response(face::HttpError(face::Code::internal, "internal error")).body,
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
    std::cout << "listening on " << (tls ? "https://" : "http://") << (v6 ? "[" + hp.host + "]" : hp.host) << ":"
              << port << std::endl;

    std::thread waiter([&] {
        for (;;) {
            int sig = 0;
            sigwait(&signals, &sig);
            if (sig != SIGHUP) break;
            if (!tls) continue;
            // New connections get the new certificate; open ones keep theirs. A certificate
            // that does not load leaves the server as it was, with the reason on stderr.
            try {
                tls->reload();
                std::cerr << "arbiter serve: reloaded the TLS certificate from " << face::printable(o.tls_cert)
                          << std::endl;
            } catch (const std::exception& e) {
                std::cerr << "arbiter serve: SIGHUP: " << e.what() << "; still serving the certificate loaded before"
                          << std::endl;
            }
        }
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
