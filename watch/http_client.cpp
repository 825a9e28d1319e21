// http_client.cpp — the hall monitor's URLs, redirect targets and certificate checks.
#include "http_client.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <mutex>

namespace arbiter::watch {

namespace {

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

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

}  // namespace

void trust_server_certificates(ssl_ctx_st* ctx, const TlsOptions& tls, const std::string& host) {
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    if (tls.insecure) {
        SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nullptr);
        return;
    }
    if (X509_STORE* store = shared_store(tls.ca_file)) SSL_CTX_set1_cert_store(ctx, store);
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
    X509_VERIFY_PARAM* param = SSL_CTX_get0_param(ctx);
    if (X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str()) != 1) X509_VERIFY_PARAM_set1_host(param, host.c_str(), 0);
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
    const std::string name = host.find(':') != std::string::npos ? "[" + host + "]" : host;  // IPv6
    return std::string(tls ? "https://" : "http://") + name + (usual ? "" : ":" + std::to_string(port)) + path;
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

}  // namespace arbiter::watch
