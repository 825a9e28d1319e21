// http_response.cpp — an HTTP/1.1 answer parsed from its bytes as they come.
#include "http_response.hpp"

#include <zlib.h>

#include <algorithm>
#include <charconv>

namespace arbiter::watch {

namespace {

constexpr std::size_t max_head = 64 * 1024, max_line = 8 * 1024;

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

// Whether the comma-separated `list` holds `token` (any case).
bool has_token(std::string_view list, std::string_view token) {
    while (!list.empty()) {
        const std::size_t comma = list.find(',');
        if (lower(trim(list.substr(0, comma))) == token) return true;
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
    }
    return false;
}

bool inflate_with(std::string_view in, std::string& out, int window_bits) {
    z_stream z{};
    if (inflateInit2(&z, window_bits) != Z_OK) return false;
    std::string result;
    char buf[16384];
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z.avail_in = static_cast<uInt>(in.size());
    int rc = Z_OK;
    while (true) {
        z.next_out = reinterpret_cast<Bytef*>(buf);
        z.avail_out = sizeof buf;
        rc = inflate(&z, Z_NO_FLUSH);
        result.append(buf, sizeof buf - z.avail_out);
        if (rc == Z_STREAM_END) {
            if (z.avail_in == 0) break;
            if (inflateReset(&z) != Z_OK) break;  // another gzip member follows
            continue;
        }
        if (rc != Z_OK || (z.avail_in == 0 && z.avail_out != 0)) break;  // corrupt, or cut short
    }
    inflateEnd(&z);
    if (rc != Z_STREAM_END) return false;
    out = std::move(result);
    return true;
}

}  // namespace

bool inflate_body(std::string_view in, std::string& out) {
    // gzip or zlib by their headers (15 + 32); a bare deflate stream as some servers send it.
    return inflate_with(in, out, 15 + 32) || inflate_with(in, out, -15);
}

void HttpResponse::reset() {
    state_ = State::head;
    started_ = false, keep_alive_ = true, inflate_ = false;
    status_ = 0;
    left_ = 0;
    head_.clear(), line_.clear(), body_.clear(), problem_.clear();
    headers_.clear();
}

void HttpResponse::fail(std::string problem) {
    state_ = State::failed;
    problem_ = std::move(problem);
    keep_alive_ = false;
}

std::string HttpResponse::header(std::string_view name) const {
    const std::string want = lower(name);
    for (const auto& [n, v] : headers_)
        if (n == want) return v;
    return {};
}

bool HttpResponse::take_line(std::string_view data, std::size_t& used, std::string& line) {
    const std::size_t nl = data.find('\n', used);
    const std::size_t end = nl == std::string_view::npos ? data.size() : nl;
    line_.append(data.substr(used, end - used));
    used = nl == std::string_view::npos ? data.size() : nl + 1;
    if (line_.size() > max_line) {
        fail("a line of the answer's framing is too long");
        return false;
    }
    if (nl == std::string_view::npos) return false;
    if (!line_.empty() && line_.back() == '\r') line_.pop_back();
    line = std::move(line_);
    line_.clear();
    return true;
}

bool HttpResponse::take_body(std::string_view data, std::size_t& used) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(left_, data.size() - used));
    body_.append(data.substr(used, n));
    used += n;
    left_ -= n;
    return left_ == 0;
}

bool HttpResponse::parse_head() {
    std::string_view rest(head_);
    auto next_line = [&] {
        const std::size_t nl = rest.find('\n');
        std::string_view line = rest.substr(0, nl);
        rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        return line;
    };
    const std::string_view first = next_line();
    // "HTTP/1.1 200 OK"
    if (first.size() < 12 || first.substr(0, 7) != "HTTP/1." || first[8] != ' ') {
        fail("not an HTTP/1 answer");
        return false;
    }
    const bool http10 = first[7] == '0';
    const std::string_view code = first.substr(9, 3);
    const auto [end, ec] = std::from_chars(code.data(), code.data() + code.size(), status_);
    if (ec != std::errc() || end != code.data() + 3 || status_ < 100 || (first.size() > 12 && first[12] != ' ')) {
        fail("a bad status line");
        return false;
    }
    headers_.clear();
    while (!rest.empty()) {
        const std::string_view line = next_line();
        if (line.empty()) continue;
        if ((line[0] == ' ' || line[0] == '\t') && !headers_.empty()) {  // folded onto the last
            headers_.back().second += " " + std::string(trim(line));
            continue;
        }
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos || colon == 0) {
            fail("a bad header line");
            return false;
        }
        headers_.emplace_back(lower(line.substr(0, colon)), std::string(trim(line.substr(colon + 1))));
    }
    head_.clear();
    if (status_ < 200) {
        if (status_ == 101) {
            fail("the server switched protocols");
            return false;
        }
        headers_.clear();  // 100 Continue and the like: the answer is still to come
        return true;
    }
    const std::string connection = header("Connection");
    keep_alive_ = http10 ? has_token(connection, "keep-alive") : !has_token(connection, "close");
    const std::string encoding = lower(header("Content-Encoding"));
    inflate_ = has_token(encoding, "gzip") || has_token(encoding, "x-gzip") || has_token(encoding, "deflate");
    if (!inflate_ && !encoding.empty() && encoding != "identity") {
        fail("the body is in an encoding not asked for (" + encoding + ")");
        return false;
    }
    if (status_ == 204 || status_ == 304) {
        finish();
        return true;
    }
    const std::string transfer = header("Transfer-Encoding");
    if (!transfer.empty()) {
        if (lower(trim(transfer.substr(transfer.rfind(',') == std::string::npos ? 0 : transfer.rfind(',') + 1))) ==
            "chunked") {
            state_ = State::chunk_size;
        } else {
            state_ = State::to_close;
            keep_alive_ = false;
        }
        return true;
    }
    const std::string length = header("Content-Length");
    if (length.empty()) {
        state_ = State::to_close;
        keep_alive_ = false;
        return true;
    }
    const auto [lend, lec] = std::from_chars(length.data(), length.data() + length.size(), left_);
    if (lec != std::errc() || lend != length.data() + length.size()) {
        fail("a bad Content-Length");
        return false;
    }
    if (left_ == 0)
        finish();
    else
        state_ = State::length;
    return true;
}

void HttpResponse::finish() {
    if (inflate_ && !body_.empty()) {
        std::string out;
        if (!inflate_body(body_, out)) {
            fail("the compressed body is corrupt");
            return;
        }
        body_ = std::move(out);
    }
    state_ = State::done;
}

std::size_t HttpResponse::feed(std::string_view data) {
    std::size_t used = 0;
    if (!data.empty() && state_ != State::done && state_ != State::failed) started_ = true;
    std::string line;
    while (used < data.size() && state_ != State::done && state_ != State::failed) {
        switch (state_) {
            case State::head: {
                // The head ends at an empty line ("\r\n\r\n", or "\n\n" from a lax server).
                const std::size_t before = head_.size();
                head_.append(data.substr(used));
                const std::size_t from = before >= 3 ? before - 3 : 0;
                std::size_t end = head_.find("\r\n\r\n", from), skip = 4;
                if (const std::size_t lf = head_.find("\n\n", from); lf < end) end = lf, skip = 2;
                if (end == std::string::npos) {
                    used = data.size();
                    if (head_.size() > max_head) fail("the answer's head is too long");
                    break;
                }
                used += end + skip - before;
                head_.resize(end + skip);
                parse_head();
                break;
            }
            case State::length:
                if (take_body(data, used)) finish();
                break;
            case State::to_close:
                body_.append(data.substr(used));
                used = data.size();
                break;
            case State::chunk_size: {
                if (!take_line(data, used, line)) break;
                const std::string_view size = trim(std::string_view(line).substr(0, line.find(';')));
                const auto [end, ec] = std::from_chars(size.data(), size.data() + size.size(), left_, 16);
                if (size.empty() || ec != std::errc() || end != size.data() + size.size()) {
                    fail("a bad chunk size");
                    break;
                }
                state_ = left_ == 0 ? State::trailer : State::chunk_data;
                break;
            }
            case State::chunk_data:
                if (take_body(data, used)) state_ = State::chunk_end;
                break;
            case State::chunk_end:
                if (!take_line(data, used, line)) break;
                if (!line.empty())
                    fail("a chunk longer than its size");
                else
                    state_ = State::chunk_size;
                break;
            case State::trailer:
                if (!take_line(data, used, line)) break;
                if (line.empty()) finish();
                break;
            case State::done:
            case State::failed: break;
        }
    }
    return used;
}

void HttpResponse::end() {
    if (state_ == State::to_close)
        finish();
    else if (state_ != State::done && state_ != State::failed)
        fail(started_ ? "the connection was cut during the answer" : "the connection was closed");
    keep_alive_ = false;
}

}  // namespace arbiter::watch
