// line_reader.hpp — lines of bounded length from a byte source, for the commands that read one
// item a line (`dead --batch`, `session event -`): a longer line is skipped to its end without
// being held in memory, and reported.
#pragma once

#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "arbiter/input.hpp"
#include "text.hpp"

namespace arbiter::face {

class LineReader {
public:
    /// `what` names the command in a read error ("dead --batch: …").
    LineReader(ByteSource& src, std::size_t max_line_bytes, std::string what)
        : src_(src), buf_(new char[buf_size]), max_(max_line_bytes), what_(std::move(what)) {}
    enum class Got { line, too_long, end };
    /// The next line, without its "\n" (and "\r"); too_long for a line over the limit (`line`
    /// empty); end at the end of the input. A read error is InputError.
    Got next(std::string& line) {
        line.clear();
        bool too_long = false;
        for (;;) {
            if (pos_ == len_) {
                auto n = src_.read(buf_.get(), buf_size);
                if (!n) throw InputError(n.error().code, what_ + ": " + n.error().describe());
                len_ = *n;
                pos_ = 0;
                if (len_ == 0) {
                    if (line.empty() && !too_long && !partial_) return Got::end;
                    partial_ = false;
                    return too_long ? Got::too_long : Got::line;
                }
            }
            partial_ = true;
            const char* start = buf_.get() + pos_;
            const auto* nl = static_cast<const char*>(std::memchr(start, '\n', len_ - pos_));
            const std::size_t take = nl ? static_cast<std::size_t>(nl - start) : len_ - pos_;
            if (!too_long) {
                if (line.size() + take > max_) {
                    too_long = true;
                    line.clear();
                } else {
                    line.append(start, take);
                }
            }
            pos_ += take;
            if (nl) {
                ++pos_;
                partial_ = false;
                if (!line.empty() && line.back() == '\r') line.pop_back();
                return too_long ? Got::too_long : Got::line;
            }
        }
    }
    /// The same as a view, valid until the next call: of the read buffer itself when the whole
    /// line is in it (nearly always: no copy), else of a line assembled across reads.
    Got next(std::string_view& line) {
        if (!partial_ && pos_ < len_) {
            const char* start = buf_.get() + pos_;
            if (const auto* nl = static_cast<const char*>(std::memchr(start, '\n', len_ - pos_))) {
                std::size_t n = static_cast<std::size_t>(nl - start);
                pos_ += n + 1;
                if (n > max_) {
                    line = {};
                    return Got::too_long;
                }
                if (n && start[n - 1] == '\r') --n;
                line = std::string_view(start, n);
                return Got::line;
            }
        }
        const Got got = next(assembled_);
        line = assembled_;
        return got;
    }
    [[nodiscard]] std::size_t max_line_bytes() const noexcept { return max_; }

private:
    static constexpr std::size_t buf_size = std::size_t{1} << 16;
    ByteSource& src_;
    std::unique_ptr<char[]> buf_;  // (read into: not zeroed first)
    std::size_t pos_ = 0, len_ = 0;
    std::size_t max_;
    std::string what_;
    std::string assembled_;  // a line that crossed reads (next(std::string_view&))
    bool partial_ = false;
};

}  // namespace arbiter::face
