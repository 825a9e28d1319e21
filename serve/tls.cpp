// tls.cpp — HTTPS for `arbiter serve` (tls.hpp).
#include "tls.hpp"

#include <strings.h>
#include <sys/socket.h>

#include <array>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "errors.hpp"
#include "text.hpp"

namespace arbiter::serve {

namespace {

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

// HOST:PORT for the https:// address the 400 above names: the request's Host (with this
// socket's port when it has none), or this socket's own address when the Host is missing or
// holds anything but the characters of a host name or an address.
std::string origin(int fd, const std::string& head) {
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
    const bool plain = !host.empty() && host.size() <= 255 &&
                       host.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]") ==
                           std::string::npos;
    const std::size_t colon = host.rfind(':'), bracket = host.rfind(']');
    const bool bare_v6 = bracket == std::string::npos && colon != host.find(':');
    if (!plain || bare_v6)
        return (ip.find(':') != std::string::npos ? "[" + ip + "]" : ip) + ":" + std::to_string(port);
    const bool has_port = colon != std::string::npos && (bracket == std::string::npos || colon > bracket);
    return has_port ? host : host + ":" + std::to_string(port);
}

}  // namespace

TlsContext::TlsContext(std::string cert, std::string key)
    : cert_(std::move(cert)), key_(std::move(key)), ctx_(make_context(cert_, key_)) {}

void TlsContext::reload() {
    ContextPtr fresh = make_context(cert_, key_);
    std::lock_guard l(m_);
    ctx_.swap(fresh);  // the old one is released by `fresh`, outside the lock
}

// Plain HTTP on the HTTPS port: one 400 that says where to go, then the end of the
// connection. The request's head is read first (by the deadline), so that closing with it
// unread does not reset the connection before the client has read the answer.
void refuse_plain_http(int fd, Clock::time_point deadline, long long read_ms, long long write_ms) {
    std::string head;
    std::array<char, 4096> buf{};
    while (head.size() < 16 * 1024 && head.find("\r\n\r\n") == std::string::npos) {
        if (wait_for(fd, POLLIN, left(deadline, read_ms)) <= 0) return;
        const ssize_t n = ::recv(fd, buf.data(), buf.size(), 0);
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
        if (n <= 0) return;
        head.append(buf.data(), static_cast<std::size_t>(n));
    }
    const std::string body =
        R"({"error":{"code":"https_required","message":"this server speaks HTTPS only: use https://)" +
        origin(fd, head) + "\"}}\n";
    const std::string answer =
        "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
        "\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n" + body;
    for (std::size_t off = 0; off < answer.size();) {
        const ssize_t n = ::send(fd, answer.data() + off, answer.size() - off, MSG_NOSIGNAL);
        if (n > 0) {
            off += static_cast<std::size_t>(n);
        } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
            if (wait_for(fd, POLLOUT, left(deadline, write_ms)) <= 0) return;
        } else {
            return;
        }
    }
    // What else the client sends (a body) is read and dropped until it closes, for a second
    // at most: the answer is not lost to a reset.
    ::shutdown(fd, SHUT_WR);
    const auto end = std::min(deadline, Clock::now() + std::chrono::seconds(1));
    while (wait_for(fd, POLLIN, left(end, read_ms)) > 0) {
        const ssize_t n = ::recv(fd, buf.data(), buf.size(), 0);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) break;
    }
}

}  // namespace arbiter::serve
