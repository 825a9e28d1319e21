// http_response.hpp — an HTTP/1.1 answer read from the bytes as they come, for the hall monitor's
// polled URLs (poll_loop.hpp): the status line and the headers, then the body framed by
// Content-Length, by chunks, or by the end of the connection (or none: a 304, a 204, the answer to
// a HEAD), inflated when it is gzip (or deflate). It keeps no socket: the caller hands it what it
// read, so that it can be tested byte by byte without a network.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace arbiter::watch {

class HttpResponse {
public:
    /// Ready for a new answer (to a GET).
    void reset();
    /// Takes bytes that came; returns how many belong to this answer (fewer when it is complete).
    /// After a problem, takes nothing more.
    std::size_t feed(std::string_view data);
    /// The connection ended: an answer whose body runs to the end is complete; any other that is
    /// not complete is cut.
    void end();

    [[nodiscard]] bool complete() const noexcept { return state_ == State::done; }
    /// What is wrong with the answer ("" when nothing is): bad framing, a cut, a corrupt body.
    [[nodiscard]] const std::string& problem() const noexcept { return problem_; }
    /// Whether any byte of the answer came.
    [[nodiscard]] bool started() const noexcept { return started_; }

    [[nodiscard]] int status() const noexcept { return status_; }
    /// A header's value (the first of that name, any case), "" when it is not there.
    [[nodiscard]] std::string header(std::string_view name) const;
    /// The body, dechunked and inflated.
    [[nodiscard]] std::string& body() noexcept { return body_; }
    /// Whether the connection can carry the next request (HTTP/1.1 without Connection: close, or
    /// keep-alive asked for by HTTP/1.0; a body read to the end of the connection leaves none).
    [[nodiscard]] bool keep_alive() const noexcept { return keep_alive_; }

private:
    enum class State { head, length, chunk_size, chunk_data, chunk_end, trailer, to_close, done, failed };
    void fail(std::string problem);
    bool parse_head();  // false when the head is bad (fail() called)
    void finish();      // the body is whole: inflate it, done
    bool take_line(std::string_view data, std::size_t& used, std::string& line);
    bool take_body(std::string_view data, std::size_t& used);  // true when left_ bytes were taken

    State state_ = State::head;
    bool started_ = false, keep_alive_ = true, inflate_ = false;
    int status_ = 0;
    std::string head_, line_, body_, problem_;
    std::vector<std::pair<std::string, std::string>> headers_;  // names in lower case
    std::uint64_t left_ = 0;                                    // of the body, or of this chunk
};

/// Inflates a gzip or zlib (deflate) body into `out`; false when it is corrupt.
bool inflate_body(std::string_view in, std::string& out);

}  // namespace arbiter::watch
