// tls.hpp — HTTPS for `arbiter serve` (docs/api.md, Security, TLS): the server's OpenSSL context
// made from the certificate and key files and swapped on SIGHUP, and the answer to plain HTTP sent
// to the HTTPS port.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include <openssl/ssl.h>

#include "connection.hpp"

namespace arbiter::serve {

using ContextPtr = std::shared_ptr<SSL_CTX>;

// The server's TLS context; reload() makes a new one from the same files and swaps it in
// (SIGHUP). A connection takes the context current when it starts, and its SSL holds a reference
// to it: connections made before a reload go on with the old certificate, new ones get the new.
class TlsContext {
public:
    /// Throws face::InputError naming the file (unreadable, not PEM, a key of another certificate).
    TlsContext(std::string cert, std::string key);
    [[nodiscard]] ContextPtr current() const {
        std::lock_guard l(m_);
        return ctx_;
    }
    /// Throws face::InputError (the old context kept) when the files do not make a context.
    void reload();

private:
    std::string cert_, key_;
    mutable std::mutex m_;
    ContextPtr ctx_;
};

/// Plain HTTP on the HTTPS port: reads the request's head (by `deadline`), answers one 400
/// https_required naming the https:// address, and drains the rest for a second at most.
void refuse_plain_http(int fd, Clock::time_point deadline, long long read_ms, long long write_ms);

}  // namespace arbiter::serve
