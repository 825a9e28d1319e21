// http_client.hpp — what the hall monitor's http:// and https:// feeds share (docs/watch.md,
// "Sources"): URLs and redirect targets, certificates checked against the system's store plus an
// optional --ca-file (or not at all with --insecure), and the streaming GET of the feeds that keep
// their connection open (`--stream`), on cpp-httplib with OpenSSL, redirects followed by hand (at
// most 5, a permanent one remembered for the next connection), gzip and timeouts. The polled URLs
// are asked by poll_loop.hpp.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace httplib {
class ClientImpl;
}
struct ssl_ctx_st;

namespace arbiter::watch {

/// Certificates: the system's store, plus `ca_file` when given; `insecure` checks none.
struct TlsOptions {
    std::string ca_file{};
    bool insecure = false;
};

struct Url {
    bool tls = false;  ///< https
    std::string host{}, path{};
    int port = 80;
    /// "https://host:port/path" (the port only when it is not the scheme's).
    [[nodiscard]] std::string text() const;
};

/// A TLS client context that checks the server's certificate as `tls` says, against one store
/// for the whole process (the system's CAs and --ca-file, read once: not once for each of 1,000
/// feeds); the host name or address to check is set on each connection. nullptr when OpenSSL
/// fails; the caller frees it (SSL_CTX_free).
ssl_ctx_st* new_client_tls_context(const TlsOptions& tls);

/// "" when `path` holds CA certificates (PEM) that OpenSSL can load, else what is wrong.
std::string check_ca_file(const std::string& path);

/// Parses "http://host[:port][/path]" or "https://…"; nullopt with `error` set otherwise.
std::optional<Url> parse_url(std::string_view spec, std::string& error);

/// Where `location` (a Location header) points from `base`: an absolute URL or a path.
std::optional<Url> resolve_location(const Url& base, std::string_view location, std::string& error);

struct FetchResult {
    enum class Kind { body, not_modified, failed };
    Kind kind = Kind::failed;
    int status = 0;         ///< the last HTTP status, 0 when none came
    std::string body{};     ///< Kind::body: the PGN
    std::string problem{};  ///< Kind::failed: what went wrong, for a line on stderr
};

/// One stream URL. Not thread-safe, except stop(), which another thread may call to end a request
/// in progress.
class HttpFeed {
public:
    HttpFeed(Url url, TlsOptions tls, std::chrono::milliseconds connect_timeout,
             std::chrono::milliseconds read_timeout);
    ~HttpFeed();
    HttpFeed(const HttpFeed&) = delete;
    HttpFeed& operator=(const HttpFeed&) = delete;

    /// A GET whose body is passed to `on_data` piece by piece as it comes, until the server ends
    /// it, the connection fails or is silent longer than the read timeout, or `on_data` returns
    /// false. `on_connected` is called once the 200 has come.
    FetchResult stream(const std::function<void()>& on_connected, const std::function<bool(std::string_view)>& on_data);
    /// Ends a request in progress (from any thread); later requests are refused.
    void stop();
    /// The URL as last redirected permanently.
    [[nodiscard]] const Url& url() const noexcept { return url_; }

private:
    // One request and its answer; `location` gets the Location of a redirect.
    using Exchange = std::function<FetchResult(httplib::ClientImpl&, const Url&, std::string& location)>;
    // Runs `exchange` from the URL, following redirects.
    FetchResult follow(const Exchange& exchange);
    httplib::ClientImpl& client_for(const Url& url);

    Url url_;
    TlsOptions tls_;
    std::chrono::milliseconds connect_timeout_, read_timeout_;
    std::mutex mutex_;  // guards client_ (its replacement) and stopped_ against stop()
    std::unique_ptr<httplib::ClientImpl> client_;
    Url client_url_;
    bool stopped_ = false;
};

}  // namespace arbiter::watch
