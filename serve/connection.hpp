// connection.hpp — a connection of `arbiter serve` as cpp-httplib reads and writes it (serve/http.cpp's
// own connection loop): the socket with a deadline on the whole of a request, plain
// (DeadlineStream) or through TLS (TlsStream, OpenSSL on a non-blocking socket), and the waits
// they share.
#pragma once

#include <poll.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <string>

#include <httplib.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

namespace arbiter::serve {

using Clock = std::chrono::steady_clock;

// The milliseconds left until `end`, at most `cap` and at least 0.
long long left(Clock::time_point end, long long cap);

// Waits until `fd` is readable (POLLIN) or writable (POLLOUT), at most `ms`: > 0 ready, 0 timed
// out, < 0 error.
int wait_for(int fd, short events, long long ms);

std::string address(const sockaddr_storage& a, int& port);

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

}  // namespace arbiter::serve
