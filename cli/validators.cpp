// validators.cpp — the validators of the command line's options: whole numbers in a range.
#include <charconv>

#include "cli.hpp"

namespace arbiter::cli {

CLI::Validator whole_number(long long lo, long long hi) {
    const std::string range = std::to_string(lo) + " to " + std::to_string(hi);
    return CLI::Validator(
        [lo, hi, range](std::string& text) -> std::string {
            long long v = 0;
            const char* end = text.data() + text.size();
            const auto r = std::from_chars(text.data(), end, v);
            if (text.empty() || r.ptr != end || r.ec == std::errc::invalid_argument)
                return "'" + printable(text) + "' is not a whole number (expected " + range + ")";
            if (r.ec == std::errc::result_out_of_range || v < lo || v > hi)
                return printable(text) + " is out of range: " + range;
            return "";
        },
        range);
}

}  // namespace arbiter::cli
