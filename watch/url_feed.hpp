// url_feed.hpp — one http(s) source of the hall monitor: a polled URL (asked every interval by
// the PollLoop's thread, an unchanged body costing a 304) or a stream (`--stream URL`: one
// long-lived connection, on a thread of its own, on which the server sends PGN games one after
// another, each complete game again whenever it changes). After a failure the next attempt waits
// twice as long as the last, up to 30 s.
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "http_client.hpp"
#include "pgn_framer.hpp"
#include "sources.hpp"

namespace arbiter::watch {

class UrlFeed {
public:
    enum class Mode { polled, stream };
    /// A stream starts its thread; a polled URL waits for a PollLoop to ask it. With
    /// `once`, the URL is asked once (a stream read until it has been silent for a second or
    /// ends).
    UrlFeed(std::string spec, Url url, Mode mode, const SourceOptions& options, Bell& bell);
    ~UrlFeed();
    UrlFeed(const UrlFeed&) = delete;
    UrlFeed& operator=(const UrlFeed&) = delete;

    /// What came since the last call: new text (a polled URL's whole body when it changed, a
    /// stream's complete games), problems and recoveries, a source gone (404 or 410 after a body).
    void take(std::vector<SourceText>& changed, std::vector<SourceProblem>& problems, std::vector<std::string>& gone);
    /// Waits until the URL has been asked once (or `until`); true when it has.
    bool wait_answered(std::chrono::steady_clock::time_point until);
    [[nodiscard]] const std::string& spec() const noexcept { return spec_; }
    [[nodiscard]] Mode mode() const noexcept { return mode_; }

    /// A polled URL: takes the outcome of one request (from the PollLoop's thread); returns the
    /// wait before its next turn, or nullopt when there is none (`once`).
    std::optional<std::chrono::milliseconds> answered(FetchResult r);
    /// When a polled URL's first turn comes: spread over one interval, so that many URLs are not
    /// all asked at once (at once with `once`).
    [[nodiscard]] std::chrono::steady_clock::time_point first_turn() const;
    /// The URL as given.
    [[nodiscard]] const Url& url() const noexcept { return url_; }

private:
    void stream_loop();
    // Under mutex_: records the outcome of one attempt; returns the wait before the next.
    std::chrono::milliseconds settle(const std::string& problem);
    bool sleep(std::chrono::milliseconds wait);  // false when stopping

    std::string spec_;
    Mode mode_;
    SourceOptions options_;
    Bell& bell_;
    Url url_;
    std::unique_ptr<HttpFeed> http_;  // a stream's
    std::mutex mutex_;
    std::condition_variable cv_;
    bool stopping_ = false, finished_ = false;
    // Guarded by mutex_.
    std::string text_;
    bool fresh_ = false;
    std::uint64_t attempts_ = 0;
    std::string problem_;  // the current one, "" after a good answer
    bool problem_new_ = false, recovered_ = false, gone_ = false, had_body_ = false;
    std::chrono::milliseconds backoff_{0};
    std::thread thread_;  // a stream's
};

}  // namespace arbiter::watch
