// poll_connection.cpp — one polled URL's connection moved through its phases on epoll's events:
// the host-name lookup, connecting (each address in turn), the TLS handshake, sending the
// request and reading the answer, and a kept connection closed by the server while idle.
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

}  // namespace arbiter::watch
