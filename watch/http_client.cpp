// http_client.cpp — http(s) requests of the hall monitor on cpp-httplib and OpenSSL.
#include "http_client.hpp"

#include <httplib.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <algorithm>
#include <charconv>
#include <mutex>

namespace arbiter::watch {

namespace {

constexpr int max_redirects = 5;

// Why the last handshake on this thread refused the server's certificate ("" when it did not):
// a request runs on one thread from its start to its answer.
thread_local std::string verify_error;

int note_verify_error(int ok, X509_STORE_CTX* store) {
    if (!ok) verify_error = X509_verify_cert_error_string(X509_STORE_CTX_get_error(store));
    return ok;
}

// The CAs every https feed trusts: the system's and the --ca-file's, loaded once.
X509_STORE* shared_store(const std::string& ca_file) {
    static std::once_flag once;
    static X509_STORE* store = nullptr;
    std::call_once(once, [&] {
        store = X509_STORE_new();
        if (!store) return;
        X509_STORE_set_default_paths(store);
        if (!ca_file.empty()) X509_STORE_load_locations(store, ca_file.c_str(), nullptr);
    });
    return store;
}

bool is_redirect(int status) noexcept {
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

}  // namespace

ssl_ctx_st* new_client_tls_context(const TlsOptions& tls) {
    SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
    if (!ctx) return nullptr;
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_options(ctx, SSL_OP_NO_COMPRESSION);
    // One read takes all the socket holds (a record's header and body together), not a read for
    // each.
    SSL_CTX_set_read_ahead(ctx, 1);
    SSL_CTX_set_mode(ctx, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    if (tls.insecure) {
        SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nullptr);
    } else {
        if (X509_STORE* store = shared_store(tls.ca_file)) SSL_CTX_set1_cert_store(ctx, store);
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
    }
    return ctx;
}

std::string check_ca_file(const std::string& path) {
    X509_STORE* store = X509_STORE_new();
    if (!store) return "out of memory";
    ERR_clear_error();
    const bool ok = X509_STORE_load_locations(store, path.c_str(), nullptr) == 1;
    X509_STORE_free(store);
    if (ok) return {};
    char buf[256] = "no certificate could be read";
    if (const unsigned long e = ERR_get_error()) ERR_error_string_n(e, buf, sizeof buf);
    ERR_clear_error();
    return buf;
}

std::string Url::text() const {
    const bool usual = port == (tls ? 443 : 80);
    return std::string(tls ? "https://" : "http://") + host + (usual ? "" : ":" + std::to_string(port)) + path;
}

std::optional<Url> parse_url(std::string_view spec, std::string& error) {
    Url u;
    const std::string head = lower(spec.substr(0, 8));
    if (head.rfind("https://", 0) == 0) {
        u.tls = true, u.port = 443;
        spec.remove_prefix(8);
    } else if (head.rfind("http://", 0) == 0) {
        spec.remove_prefix(7);
    } else {
        error = "not an http:// or https:// URL";
        return std::nullopt;
    }
    const std::size_t slash = spec.find_first_of("/?#");
    std::string_view authority = spec.substr(0, slash);
    u.path = slash == std::string_view::npos ? "/" : std::string(spec.substr(slash));
    if (const auto hash = u.path.find('#'); hash != std::string::npos) u.path.resize(hash);
    if (u.path.empty() || u.path[0] != '/') u.path.insert(0, "/");
    if (authority.find('@') != std::string_view::npos) {
        error = "user names in URLs are not supported";
        return std::nullopt;
    }
    if (!authority.empty() && authority[0] == '[') {  // [IPv6]:port
        const auto close = authority.find(']');
        if (close == std::string_view::npos) {
            error = "unclosed [ in the host";
            return std::nullopt;
        }
        u.host = std::string(authority.substr(1, close - 1));
        authority.remove_prefix(close + 1);
        if (!authority.empty() && authority[0] != ':') {
            error = "bad host";
            return std::nullopt;
        }
    } else {
        const auto colon = authority.rfind(':');
        u.host = std::string(authority.substr(0, colon));
        authority = colon == std::string_view::npos ? std::string_view() : authority.substr(colon);
    }
    if (!authority.empty()) {  // ":port"
        const std::string_view digits = authority.substr(1);
        int port = 0;
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
        if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || port < 1 || port > 65535) {
            error = "bad port '" + std::string(digits) + "'";
            return std::nullopt;
        }
        u.port = port;
    }
    if (u.host.empty()) {
        error = "no host";
        return std::nullopt;
    }
    return u;
}

std::optional<Url> resolve_location(const Url& base, std::string_view location, std::string& error) {
    if (location.rfind("//", 0) == 0)
        return parse_url(std::string(base.tls ? "https:" : "http:") + std::string(location), error);
    if (location.find("://") != std::string_view::npos) return parse_url(location, error);
    Url u = base;
    if (!location.empty() && location[0] == '/') {
        u.path = std::string(location);
    } else {  // relative to the base's directory
        const auto q = u.path.find('?');
        const std::string dir = u.path.substr(0, u.path.rfind('/', q) + 1);
        u.path = dir + std::string(location);
    }
    return u;
}

HttpFeed::HttpFeed(Url url, TlsOptions tls, std::chrono::milliseconds connect_timeout,
                   std::chrono::milliseconds read_timeout)
    : url_(std::move(url)), tls_(std::move(tls)), connect_timeout_(connect_timeout), read_timeout_(read_timeout) {}

HttpFeed::~HttpFeed() = default;

httplib::ClientImpl& HttpFeed::client_for(const Url& url) {
    std::lock_guard lock(mutex_);
    if (client_ && client_url_.tls == url.tls && client_url_.host == url.host && client_url_.port == url.port)
        return *client_;
    std::unique_ptr<httplib::ClientImpl> c;
    if (url.tls) {
        auto s = std::make_unique<httplib::SSLClient>(url.host, url.port);
        // Certificates are checked by OpenSSL during the handshake, against one store for the
        // whole process (the system's CAs and --ca-file, read once: not once for each of 1,000
        // feeds), with the host name (or IP address) set on the context.
        s->enable_server_certificate_verification(false);
        if (SSL_CTX* ctx = s->ssl_context(); ctx && !tls_.insecure) {
            if (X509_STORE* store = shared_store(tls_.ca_file)) SSL_CTX_set1_cert_store(ctx, store);
            SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, note_verify_error);
            X509_VERIFY_PARAM* param = SSL_CTX_get0_param(ctx);
            if (X509_VERIFY_PARAM_set1_ip_asc(param, url.host.c_str()) != 1)
                X509_VERIFY_PARAM_set1_host(param, url.host.c_str(), 0);
        }
        c = std::move(s);
    } else {
        c = std::make_unique<httplib::ClientImpl>(url.host, url.port);
    }
    c->set_connection_timeout(connect_timeout_);
    c->set_read_timeout(read_timeout_);
    c->set_write_timeout(connect_timeout_);
    c->set_keep_alive(true);
    c->set_follow_location(false);
    c->set_decompress(true);
    client_ = std::move(c);
    client_url_ = url;
    return *client_;
}

void HttpFeed::stop() {
    std::lock_guard lock(mutex_);
    stopped_ = true;
    if (client_) client_->stop();
}

namespace {

std::string failure_words(httplib::Error e, const std::string& what) {
    switch (e) {
        case httplib::Error::Connection: return "cannot connect to " + what;
        case httplib::Error::ConnectionTimeout: return "no connection to " + what + " in time";
        case httplib::Error::Read: return "no answer in time, or the connection was cut";
        case httplib::Error::SSLConnection:
            return verify_error.empty()
                       ? "the TLS handshake failed"
                       : "the server's certificate is not trusted (" + verify_error + "; see --ca-file)";
        case httplib::Error::SSLLoadingCerts: return "the CA certificates could not be loaded";
        case httplib::Error::SSLServerVerification: return "the server's certificate is not trusted (see --ca-file)";
        case httplib::Error::Compression: return "the compressed body is corrupt";
        default: return "request failed (" + httplib::to_string(e) + ")";
    }
}

}  // namespace

FetchResult HttpFeed::follow(const Exchange& exchange) {
    FetchResult r;
    Url at = url_;
    for (int hop = 0; hop <= max_redirects; ++hop) {
        {
            std::lock_guard lock(mutex_);
            if (stopped_) {
                r.problem = "stopped";
                return r;
            }
        }
        std::string location;
        verify_error.clear();
        r = exchange(client_for(at), at, location);
        if (!is_redirect(r.status)) return r;
        std::string error;
        const auto next = resolve_location(at, location, error);
        if (!next) {
            r.kind = FetchResult::Kind::failed;
            r.problem = "HTTP " + std::to_string(r.status) + " to a bad Location (" + error + ")";
            return r;
        }
        if (r.status == 301 || r.status == 308) url_ = *next;
        at = *next;
    }
    r.kind = FetchResult::Kind::failed;
    r.problem = "more than " + std::to_string(max_redirects) + " redirects";
    return r;
}

FetchResult HttpFeed::stream(const std::function<void()>& on_connected,
                             const std::function<bool(std::string_view)>& on_data) {
    return follow([&](httplib::ClientImpl& c, const Url& at, std::string& location) {
        FetchResult r;
        auto res = c.Get(
            at.path, httplib::Headers{{"Accept-Encoding", "gzip"}},
            [&](const httplib::Response& head) {
                r.status = head.status;
                if (is_redirect(head.status)) location = head.get_header_value("Location");
                if (head.status == 200) on_connected();
                return head.status == 200;  // anything else: no body wanted
            },
            [&](const char* data, std::size_t size) { return on_data(std::string_view(data, size)); });
        if (r.status == 0)
            r.problem = failure_words(res.error(), at.host + ":" + std::to_string(at.port));
        else if (r.status != 200)
            r.problem = "HTTP status " + std::to_string(r.status);
        else if (!res && res.error() != httplib::Error::Canceled)
            r.problem = res.error() == httplib::Error::Read ? "the stream was cut or went silent"
                                                            : failure_words(res.error(), at.host);
        else
            r.kind = FetchResult::Kind::body;  // the server ended the stream
        return r;
    });
}

}  // namespace arbiter::watch
