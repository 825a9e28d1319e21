// sources.hpp — where the hall monitor reads its PGN: files (rewritten in place, replaced by
// rename, appended), directories of .pgn files, http:// and https:// URLs polled with back-off,
// and streams (`--stream URL`) that keep their connection open, the URLs and streams all asked by
// one thread (PollLoop, on libcurl). A source that is down or slow never holds up the others.
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "http_client.hpp"

namespace arbiter::watch {

/// One source's text as it is now (a file, a polled URL), or the games a stream sent since the
/// last poll, when it changed.
struct SourceText {
    std::string name;  ///< the file's path or the URL
    std::string text;
};

/// A line for standard error about a source: a new problem (`failed`: the source could not be
/// read), or the end of one.
struct SourceProblem {
    std::string source;
    std::string text;
    bool failed = true;
};

struct SourceOptions {
    std::chrono::milliseconds interval{500};  ///< how often files and polled URLs are read
    TlsOptions tls{};
    /// A stream silent this long is taken for cut, and connected again.
    std::chrono::milliseconds stream_timeout{60'000};
    bool once = false;  ///< every source read once (a stream until it is silent for 1 s)
};

/// Rung by a feed's thread when it has news, so that the reading loop need not wait for its next
/// turn: an alert from a stream or a polled URL comes as soon as the feed changes.
class Bell {
public:
    void ring() {
        {
            std::lock_guard lock(m_);
            rung_ = true;
        }
        cv_.notify_all();
    }
    /// Waits until rung (since the last wait) or `until`.
    void wait(std::chrono::steady_clock::time_point until) {
        std::unique_lock lock(m_);
        cv_.wait_until(lock, until, [&] { return rung_; });
        rung_ = false;
    }

private:
    std::mutex m_;
    std::condition_variable cv_;
    bool rung_ = false;
};

class Sources {
public:
    /// `specs`: files, directories and URLs to poll; `streams`: stream URLs. Throws
    /// std::invalid_argument naming a URL that does not parse. The same URL given twice is
    /// asked once.
    Sources(std::vector<std::string> specs, std::vector<std::string> streams, SourceOptions options);
    ~Sources();
    Sources(const Sources&) = delete;
    Sources& operator=(const Sources&) = delete;

    /// Every source whose text changed since the last poll (a file by its size, time and inode,
    /// then its bytes; a URL by its body), the problems that began or ended (each said once while
    /// it lasts), and the sources gone since the last poll (a file deleted, a URL answering 404
    /// or 410 after it gave a body). With --once, waits until every URL has been asked.
    void poll(std::vector<SourceText>& changed, std::vector<SourceProblem>& problems, std::vector<std::string>& gone);
    /// Waits until `until`, or less when a URL or stream has news, or wake() was called.
    void wait(std::chrono::steady_clock::time_point until);
    /// Ends a wait() (from any thread).
    void wake();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// True for "http://…" and "https://…" (any case).
bool is_url(const std::string& spec) noexcept;

}  // namespace arbiter::watch
