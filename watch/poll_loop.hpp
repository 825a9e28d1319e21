// poll_loop.hpp — the one thread that asks every http(s) source of the hall monitor (docs/watch.md,
// "Sources"): the polled URLs, on one schedule ordered by when each is next due, and the streams
// (`--stream`), whose connections stay open, all as transfers of one libcurl multi handle. libcurl
// keeps the connections (a polled URL's is used again at its next turn), looks host names up without
// blocking, speaks TLS through OpenSSL and inflates gzip; this loop keeps the schedule, the
// deadlines and the redirects, and hands each feed what came. While polled answers are awaited the
// thread wakes once a tick (a hundredth of a second at most) and reads all that came at once:
// 1,000 URLs asked once a second cost some 100 wake-ups a second, not one for each answer. A slow
// or silent server never holds up the others: each request has its own deadlines (2 s to connect,
// 5 s of silence while it is answered; a stream's silence is `--stream-timeout`).
//
// Each polled request is a conditional GET (If-None-Match, If-Modified-Since) with
// Accept-Encoding: gzip; redirects are followed here (at most 5; a permanent one is remembered for
// the next turns), so that a bad Location is named and a permanent move is asked no more.
#pragma once

#include <chrono>
#include <memory>
#include <vector>

#include "http_client.hpp"

namespace arbiter::watch {

class UrlFeed;

class PollLoop {
public:
    struct Options {
        TlsOptions tls{};
        std::chrono::milliseconds connect_timeout{2'000};
        std::chrono::milliseconds read_timeout{5'000};  ///< silence while a polled request is answered
        /// How long answers are gathered before they are read, while polled ones are awaited; a
        /// turn is taken up to this long before it is due.
        std::chrono::milliseconds tick{10};
    };
    /// Schedules every feed at its first turn (UrlFeed::first_turn) and starts the thread; a polled
    /// answer goes to UrlFeed::answered, a stream's bytes to UrlFeed::stream_data, and each says
    /// when the feed's next turn is.
    PollLoop(const std::vector<UrlFeed*>& feeds, Options options);
    /// Stops: transfers in progress are dropped, the connections closed, the thread joined.
    ~PollLoop();
    PollLoop(const PollLoop&) = delete;
    PollLoop& operator=(const PollLoop&) = delete;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace arbiter::watch
