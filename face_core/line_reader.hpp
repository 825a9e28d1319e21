// line_reader.hpp — lines of bounded length from a byte source, for the commands that read one
// item a line (`dead --batch`, `session event -`): a longer line is skipped to its end without
// being held in memory, and reported.
#pragma once

#include <cstring>
#include <memory>
#include <string>

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
    [[nodiscard]] std::size_t max_line_bytes() const noexcept { return max_; }

private:
    static constexpr std::size_t buf_size = std::size_t{1} << 16;
    ByteSource& src_;
    std::unique_ptr<char[]> buf_;  // (read into: not zeroed first)
    std::size_t pos_ = 0, len_ = 0;
    std::size_t max_;
    std::string what_;
    bool partial_ = false;
};

}  // namespace arbiter::face
