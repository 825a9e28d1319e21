// http.cpp — the cpp-httplib adapter of `arbiter serve` (docs/api.md, README "The console"): the
// connection loop, plain or over TLS (OpenSSL, the certificate reloaded on SIGHUP), and the options'
// checks.
#include "http.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <malloc.h>
#include <netinet/in.h>
#include <poll.h>
#include <strings.h>
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
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include <httplib.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

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

// The milliseconds left until `end`, at most `cap` and at least 0.
long long left(Clock::time_point end, long long cap) {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now()).count();
    return std::clamp<long long>(ms, 0, cap);
}

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
// one byte at a time). The socket itself is read by fill(): plain (DeadlineStream) or through
// TLS (TlsStream).
class ConnectionStream : public httplib::Stream {
public:
    void set_deadline(Clock::time_point t) { deadline_ = t; }
    /// Bytes of the next request already read from the socket: no need to wait for it to be readable.
    [[nodiscard]] bool buffered() const { return off_ < len_ || pending(); }

    ssize_t read(char* ptr, std::size_t size) final {
        if (off_ == len_) {
            const ssize_t n = fill(buf_.data(), buf_.size());
            if (n <= 0) return n;
            off_ = 0;
            len_ = static_cast<std::size_t>(n);
        }
        const std::size_t take = std::min(size, len_ - off_);
        std::memcpy(ptr, buf_.data() + off_, take);
        off_ += take;
        return static_cast<ssize_t>(take);
    }
    void get_remote_ip_and_port(std::string& ip, int& port) const final {
        sockaddr_storage a{};
        socklen_t len = sizeof a;
        if (::getpeername(fd_, reinterpret_cast<sockaddr*>(&a), &len) == 0) ip = address(a, port);
    }
    void get_local_ip_and_port(std::string& ip, int& port) const final {
        sockaddr_storage a{};
        socklen_t len = sizeof a;
        if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) == 0) ip = address(a, port);
    }
    socket_t socket() const final { return fd_; }

protected:
    ConnectionStream(int fd, long long read_ms, long long write_ms) : fd_(fd), read_ms_(read_ms), write_ms_(write_ms) {}
    /// One read from the connection into `buf`: the bytes read, 0 when the client closed, -1 when
    /// the read timeout or the request's deadline passed, or the connection failed.
    virtual ssize_t fill(char* buf, std::size_t size) = 0;
    /// Bytes read from the socket but not yet handed out by fill() (TLS: OpenSSL's buffer).
    [[nodiscard]] virtual bool pending() const { return false; }
    /// How long a read may wait: the read timeout, cut short by the request's deadline.
    [[nodiscard]] long long read_wait() const { return left(deadline_, read_ms_); }

    int fd_;
    long long read_ms_, write_ms_;

private:
    Clock::time_point deadline_ = Clock::time_point::max();
    std::array<char, 4096> buf_{};
    std::size_t off_ = 0, len_ = 0;
};

// Plain HTTP: the socket as cpp-httplib's own stream uses it (blocking, each wait a poll()).
class DeadlineStream final : public ConnectionStream {
public:
    DeadlineStream(int fd, long long read_ms, long long write_ms) : ConnectionStream(fd, read_ms, write_ms) {}

    bool is_readable() const override { return wait_for(fd_, POLLIN, read_wait()) > 0; }
    bool is_writable() const override {
        if (wait_for(fd_, POLLOUT, write_ms_) <= 0) return false;
        // Still connected: not readable, or readable with data (a closed peer reads as 0 bytes).
        if (wait_for(fd_, POLLIN, 0) == 0) return true;
        char c;
        return ::recv(fd_, &c, 1, MSG_PEEK | MSG_DONTWAIT) > 0;
    }
    ssize_t write(const char* ptr, std::size_t size) override {
        if (!is_writable()) return -1;
        ssize_t n;
        do n = ::send(fd_, ptr, size, MSG_NOSIGNAL);
        while (n < 0 && errno == EINTR);
        return n;
    }

private:
    ssize_t fill(char* buf, std::size_t size) override {
        if (!is_readable()) return -1;  // the read timeout, or the request's deadline, passed
        ssize_t n;
        do n = ::recv(fd_, buf, size, 0);
        while (n < 0 && errno == EINTR);
        return n;
    }
};

// HTTPS: the same over an OpenSSL connection whose handshake is done, on a non-blocking socket.
// Every SSL_read or SSL_write that cannot go on (WANT_READ, WANT_WRITE: TLS may need to read to
// write and the other way round) waits with poll(), bounded as the plain stream's waits are, so
// that the request's deadline and the read and write timeouts hold over TLS too.
class TlsStream final : public ConnectionStream {
public:
    TlsStream(SSL* ssl, int fd, long long read_ms, long long write_ms)
        : ConnectionStream(fd, read_ms, write_ms), ssl_(ssl) {}
    /// The connection failed or timed out in the middle of a record: no close_notify then.
    [[nodiscard]] bool failed() const noexcept { return failed_; }

    bool is_readable() const override { return SSL_pending(ssl_) > 0 || wait_for(fd_, POLLIN, read_wait()) > 0; }
    bool is_writable() const override {
        if (wait_for(fd_, POLLOUT, write_ms_) <= 0) return false;
        if (wait_for(fd_, POLLIN, 0) == 0) return true;
        // The client sent something: data (still connected), or its close_notify or the end of
        // the connection, which SSL_peek reads as such (an SSE listener that went away).
        char c;
        ERR_clear_error();
        const int r = SSL_peek(ssl_, &c, 1);
        if (r > 0) return true;
        const int e = SSL_get_error(ssl_, r);
        ERR_clear_error();
        return e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE;
    }
    ssize_t write(const char* ptr, std::size_t size) override {
        // All of it or nothing (SSL_MODE_ENABLE_PARTIAL_WRITE is off); a write that has to wait
        // is repeated with the same arguments, as OpenSSL asks.
        if (size == 0) return 0;
        const int n = static_cast<int>(std::min<std::size_t>(size, 1 << 30));
        const auto end = Clock::now() + std::chrono::milliseconds(write_ms_);
        for (;;) {
            ERR_clear_error();
            const int r = SSL_write(ssl_, ptr, n);
            if (r > 0) return r;
            if (!wait(SSL_get_error(ssl_, r), end)) return -1;
        }
    }

private:
    ssize_t fill(char* buf, std::size_t size) override {
        const auto end = Clock::now() + std::chrono::milliseconds(read_wait());
        for (;;) {
            ERR_clear_error();
            const int r = SSL_read(ssl_, buf, static_cast<int>(size));
            if (r > 0) return r;
            const int e = SSL_get_error(ssl_, r);
            if (e == SSL_ERROR_ZERO_RETURN) return 0;  // the client's close_notify
            if (!wait(e, end)) return -1;
        }
    }
    // SSL_pending counts the bytes of a record already decrypted; SSL_has_pending also those read
    // from the socket but not yet decrypted, which the socket's poll() no longer sees either.
    bool pending() const override { return SSL_has_pending(ssl_) == 1; }
    // After an SSL call that could not go on: waits, until `end` at most, for the socket to be
    // ready for what OpenSSL needs; false (and the connection marked failed) when it failed or
    // the time passed.
    bool wait(int error, Clock::time_point end) const {
        ERR_clear_error();
        if ((error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE) &&
            wait_for(fd_, error == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT, left(end, 1'000'000)) > 0)
            return true;
        failed_ = true;
        return false;
    }

    SSL* ssl_;
    mutable bool failed_ = false;
};

// ---- TLS: the server's context, made from the certificate and key files ----

// OpenSSL's reason for the last failure on this thread ("no start line", "key values
// mismatch"); the thread's error queue is emptied.
std::string openssl_reason() {
    const unsigned long e = ERR_peek_last_error();
    ERR_clear_error();
    if (e == 0) return "no reason given";
    const char* reason = ERR_reason_error_string(e);
    if (reason) return reason;
    std::array<char, 256> text{};
    ERR_error_string_n(e, text.data(), text.size());
    return text.data();
}

// An encrypted key is refused rather than its passphrase asked for on the terminal.
int no_passphrase(char*, int, int, void*) { return -1; }

std::string read_pem(const char* option, const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in || std::filesystem::is_directory(path))
        throw face::InputError(std::string(option) + ": cannot read '" + face::printable(path) + "'");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

using ContextPtr = std::shared_ptr<SSL_CTX>;

// A server context from the PEM files: the certificate (the chain after it, as
// SSL_CTX_use_certificate_chain_file reads it) and its private key. Each failure names the file:
// unreadable, not PEM, refused by OpenSSL (a key too small), or a key of another certificate.
ContextPtr make_context(const std::string& cert_path, const std::string& key_path) {
    const std::string cert_pem = read_pem("--tls-cert", cert_path);
    const std::string key_pem = read_pem("--tls-key", key_path);
    const std::string cert_file = "--tls-cert: '" + face::printable(cert_path) + "'";
    const std::string key_file = "--tls-key: '" + face::printable(key_path) + "'";
    ERR_clear_error();
    ContextPtr ctx(SSL_CTX_new(TLS_server_method()), SSL_CTX_free);
    if (!ctx) throw std::runtime_error("TLS: cannot make a context (" + openssl_reason() + ")");
    // TLS 1.2 at least, with OpenSSL's default ciphers (forward secret, AEAD first) in the
    // server's order; no compression (CRIME) and no renegotiation (nothing here needs it, and a
    // client could make the server work for nothing).
    SSL_CTX_set_min_proto_version(ctx.get(), TLS1_2_VERSION);
    SSL_CTX_set_options(ctx.get(), SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
    // An idle connection (an SSE listener between events, keep-alive) gives back its two record
    // buffers (about 34 KB): hundreds of consoles stay connected.
    SSL_CTX_set_mode(ctx.get(), SSL_MODE_RELEASE_BUFFERS);
    // Sessions kept for resumption (a console that reconnects): a hall's worth, not OpenSSL's
    // 20,480 (a few MB that would only grow under a flood of handshakes).
    SSL_CTX_sess_set_cache_size(ctx.get(), 2048);

    const auto bio = [](const std::string& pem) {
        return std::unique_ptr<BIO, decltype(&BIO_free)>(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())),
                                                         BIO_free);
    };
    const auto certs = bio(cert_pem);
    const std::unique_ptr<X509, decltype(&X509_free)> leaf(
        PEM_read_bio_X509_AUX(certs.get(), nullptr, no_passphrase, nullptr), X509_free);
    if (!leaf) throw face::InputError(cert_file + " holds no PEM certificate (" + openssl_reason() + ")");
    if (SSL_CTX_use_certificate(ctx.get(), leaf.get()) != 1)
        throw face::InputError(cert_file + ": OpenSSL refuses the certificate (" + openssl_reason() + ")");
    while (X509* ca = PEM_read_bio_X509(certs.get(), nullptr, no_passphrase, nullptr)) {
        if (SSL_CTX_add0_chain_cert(ctx.get(), ca) != 1) {
            X509_free(ca);
            throw face::InputError(cert_file + ": OpenSSL refuses a certificate of the chain (" + openssl_reason() +
                                   ")");
        }
    }
    const unsigned long end = ERR_peek_last_error();  // the end of the file, or a chain certificate that does not read
    if (end != 0 && !(ERR_GET_LIB(end) == ERR_LIB_PEM && ERR_GET_REASON(end) == PEM_R_NO_START_LINE))
        throw face::InputError(cert_file + ": a certificate of the chain does not read (" + openssl_reason() + ")");
    ERR_clear_error();

    const auto keys = bio(key_pem);
    const std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(
        PEM_read_bio_PrivateKey(keys.get(), nullptr, no_passphrase, nullptr), EVP_PKEY_free);
    if (!key) {
        // OpenSSL 3's decoders say "unsupported" of anything that is not a key: no help.
        const std::string reason = openssl_reason();
        if (key_pem.find("ENCRYPTED") != std::string::npos)
            throw face::InputError(key_file +
                                   " is encrypted: give it without a passphrase (openssl pkey -in KEY -out "
                                   "PLAIN)");
        throw face::InputError(key_file + " holds no PEM private key" +
                               (reason == "unsupported" ? "" : " (" + reason + ")"));
    }
    if (SSL_CTX_use_PrivateKey(ctx.get(), key.get()) != 1 || SSL_CTX_check_private_key(ctx.get()) != 1) {
        ERR_clear_error();
        throw face::InputError(key_file + " is not the private key of the certificate in '" +
                               face::printable(cert_path) + "'");
    }
    return ctx;
}

// The server's TLS context; reload() makes a new one from the same files and swaps it in
// (SIGHUP). A connection takes the context current when it starts, and its SSL holds a reference
// to it: connections made before a reload go on with the old certificate, new ones get the new.
class TlsContext {
public:
    TlsContext(std::string cert, std::string key)
        : cert_(std::move(cert)), key_(std::move(key)), ctx_(make_context(cert_, key_)) {}
    [[nodiscard]] ContextPtr current() const {
        std::lock_guard l(m_);
        return ctx_;
    }
    /// Throws face::InputError (the old context kept) when the files do not make a context.
    void reload() {
        ContextPtr fresh = make_context(cert_, key_);
        std::lock_guard l(m_);
        ctx_.swap(fresh);  // the old one is released by `fresh`, outside the lock
    }

private:
    std::string cert_, key_;
    mutable std::mutex m_;
    ContextPtr ctx_;
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
            refuse_plain_http(fd, deadline);
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
    // Plain HTTP on the HTTPS port: one 400 that says where to go, then the end of the
    // connection. The request's head is read first (by the deadline), so that closing with it
    // unread does not reset the connection before the client has read the answer.
    void refuse_plain_http(int fd, Clock::time_point deadline) const {
        std::string head;
        std::array<char, 4096> buf{};
        while (head.size() < 16 * 1024 && head.find("\r\n\r\n") == std::string::npos) {
            if (wait_for(fd, POLLIN, left(deadline, limits_.read_ms)) <= 0) return;
            const ssize_t n = ::recv(fd, buf.data(), buf.size(), 0);
            if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
            if (n <= 0) return;
            head.append(buf.data(), static_cast<std::size_t>(n));
        }
        const std::string body =
            R"({"error":{"code":"https_required","message":"this server speaks HTTPS only: use https://)" +
            origin(fd, head) + "\"}}\n";
        const std::string answer = "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: " +
                                   std::to_string(body.size()) +
                                   "\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n" + body;
        for (std::size_t off = 0; off < answer.size();) {
            const ssize_t n = ::send(fd, answer.data() + off, answer.size() - off, MSG_NOSIGNAL);
            if (n > 0) {
                off += static_cast<std::size_t>(n);
            } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
                if (wait_for(fd, POLLOUT, left(deadline, limits_.write_ms)) <= 0) return;
            } else {
                return;
            }
        }
        // What else the client sends (a body) is read and dropped until it closes, for a second
        // at most: the answer is not lost to a reset.
        ::shutdown(fd, SHUT_WR);
        const auto end = std::min(deadline, Clock::now() + std::chrono::seconds(1));
        while (wait_for(fd, POLLIN, left(end, limits_.read_ms)) > 0) {
            const ssize_t n = ::recv(fd, buf.data(), buf.size(), 0);
            if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) break;
        }
    }
    // HOST:PORT for the https:// address the 400 above names: the request's Host (with this
    // socket's port when it has none), or this socket's own address when the Host is missing or
    // holds anything but the characters of a host name or an address.
    static std::string origin(int fd, const std::string& head) {
        sockaddr_storage a{};
        socklen_t len = sizeof a;
        int port = 0;
        std::string ip = "127.0.0.1";
        if (::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0) ip = address(a, port);
        std::string host;
        for (std::size_t at = head.find("\r\n"); at != std::string::npos && host.empty();) {
            const std::size_t next = head.find("\r\n", at + 2);
            const std::string line = head.substr(at + 2, next == std::string::npos ? std::string::npos : next - at - 2);
            if (::strncasecmp(line.c_str(), "host:", 5) == 0) {
                host = line.substr(5);
                host.erase(0, host.find_first_not_of(" \t"));
                host.erase(host.find_last_not_of(" \t") + 1);
            }
            at = next;
        }
        const bool plain =
            !host.empty() && host.size() <= 255 &&
            host.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]") ==
                std::string::npos;
        const std::size_t colon = host.rfind(':'), bracket = host.rfind(']');
        const bool bare_v6 = bracket == std::string::npos && colon != host.find(':');
        if (!plain || bare_v6)
            return (ip.find(':') != std::string::npos ? "[" + ip + "]" : ip) + ":" + std::to_string(port);
        const bool has_port = colon != std::string::npos && (bracket == std::string::npos || colon > bracket);
        return has_port ? host : host + ":" + std::to_string(port);
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
    if (o.threads < 4 || o.threads > 10'000) throw face::InputError("--threads: from 4 to 10000");
    if (o.request_timeout_s < 1 || o.request_timeout_s > 3600)
        throw face::InputError("--request-timeout: from 1 to 3600 seconds");

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
