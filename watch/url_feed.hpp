// url_feed.hpp — one http(s) source of the hall monitor: a polled URL (asked every interval, an
// unchanged body costing a 304) or a stream (`--stream URL`: one long-lived connection on which
// the server sends PGN games one after another, each complete game again whenever it changes).
// Both are asked by the PollLoop's one thread, which hands each feed what came; the feed keeps it
// for the reading loop (take()) and says when to ask again. After a failure the next attempt waits
// twice as long as the last, up to 30 s.
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http_client.hpp"
#include "pgn_framer.hpp"
#include "sources.hpp"

namespace arbiter::watch {

class UrlFeed {
public:
    enum class Mode { polled, stream };
    /// The feed waits for a PollLoop to ask it. With `once`, the URL is asked once (a stream read
    /// until it has been silent for a second or ends).
    UrlFeed(std::string spec, Url url, Mode mode, const SourceOptions& options, Bell& bell);
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
    /// A stream, from the PollLoop's thread: its answer is a 200 (connected)…
    void stream_connected();
    /// … these bytes of its body came …
    void stream_data(std::string_view data);
    /// … and it ended (`r`: the server ended it, a failure, or it went silent); returns the wait
    /// before it is connected again, or nullopt when it is not (`once`).
    std::optional<std::chrono::milliseconds> stream_ended(const FetchResult& r, bool connected);
    /// How long a stream may be silent before it is taken for cut.
    [[nodiscard]] std::chrono::milliseconds stream_silence() const noexcept;

    /// When the first turn comes: a polled URL's spread over one interval, so that many URLs are
    /// not all asked at once (at once with `once`, and for a stream).
    [[nodiscard]] std::chrono::steady_clock::time_point first_turn() const;
    /// The URL as given.
    [[nodiscard]] const Url& url() const noexcept { return url_; }

private:
    // Under mutex_: records the outcome of one attempt; returns the wait before the next.
    std::chrono::milliseconds settle(const std::string& problem);
    // The outcome of an attempt recorded: the bell rung when there is news, waiters told; the
    // wait before the next attempt, or nullopt with `once`.
    std::optional<std::chrono::milliseconds> after_attempt(std::unique_lock<std::mutex>& lock,
                                                           std::chrono::milliseconds wait);

    std::string spec_;
    Mode mode_;
    SourceOptions options_;
    Bell& bell_;
    Url url_;
    PgnFramer framer_;  // a stream's: used by the PollLoop's thread only
    std::mutex mutex_;
    std::condition_variable cv_;
    bool finished_ = false;  // `once`: asked, and not to be asked again
    // Guarded by mutex_.
    std::string text_;
    bool fresh_ = false;
    std::uint64_t attempts_ = 0;
    std::string problem_;  // the current one, "" after a good answer
    bool problem_new_ = false, recovered_ = false, gone_ = false, had_body_ = false;
    std::chrono::milliseconds backoff_{0};
};

}  // namespace arbiter::watch
