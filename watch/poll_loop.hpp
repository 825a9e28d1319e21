// poll_loop.hpp — the one thread that asks the hall monitor's polled URLs (docs/watch.md,
// "Sources"): one schedule ordered by when each URL is next due, and every URL's connection
// (kept open from request to request, TLS through OpenSSL) non-blocking in one epoll set. The
// loop wakes once a tick (a hundredth of a second at most) while answers are awaited, reads all
// that came, and sends the requests due by the next tick: 1,000 URLs asked once a second cost
// some 100 wake-ups and two system calls a request (the request's write, the answer's read),
// where a blocking client costs a thread hand-over and half a dozen calls a request. A slow or
// silent server never holds up the others: each request has its own deadlines (2 s to connect,
// 5 s of silence while it is answered).
//
// Each request is a conditional GET (If-None-Match, If-Modified-Since) with Accept-Encoding: gzip;
// redirects are followed (at most 5; a permanent one is remembered for the next turns); host names
// are looked up without blocking the loop (getaddrinfo_a); a kept connection that the server
// closed while it was idle is noticed (it turns readable) and made again at the next turn, and a
// request on a kept connection that is closed before any byte of an answer is sent again once on
// a new one.
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
        std::chrono::milliseconds read_timeout{5'000};  ///< silence while a request is answered
        /// How long answers are gathered before they are read, while some are awaited; a turn is
        /// taken up to this long before it is due.
        std::chrono::milliseconds tick{10};
    };
    /// Schedules every feed at its first turn (UrlFeed::first_turn) and starts the thread; each
    /// answer goes to UrlFeed::answered, which says when the feed's next turn is.
    PollLoop(const std::vector<UrlFeed*>& feeds, Options options);
    /// Stops: requests in progress are dropped, the connections closed, the thread joined.
    ~PollLoop();
    PollLoop(const PollLoop&) = delete;
    PollLoop& operator=(const PollLoop&) = delete;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace arbiter::watch
