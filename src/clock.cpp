// clock.cpp — time-control parsing and the two-faced chess clock.
#include "arbiter/clock.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace arbiter {

namespace {

constexpr std::int64_t max_seconds = 1'000'000;  // about 11.5 days: more than any real control
constexpr int max_moves = 1000;

// Reads an unsigned decimal number at `text[pos]`; advances `pos`.
std::optional<std::int64_t> read_number(std::string_view text, std::size_t& pos) {
    std::int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(text.data() + pos, text.data() + text.size(), v);
    if (ec != std::errc() || v < 0) return std::nullopt;
    pos = static_cast<std::size_t>(ptr - text.data());
    return v;
}

Unexpected<TimeControlError> fail(std::size_t offset, std::string message) {
    return Unexpected(TimeControlError{offset, std::move(message)});
}

}  // namespace

Expected<TimeControl, TimeControlError> parse_time_control(std::string_view text) {
    if (text.empty()) return fail(0, "empty time control");
    if (text == "?") return fail(0, "'?' means an unknown time control; give one such as 5400+30");
    if (text == "-") return fail(0, "'-' means no time control; leave the time control out for a game without clocks");
    if (text[0] == '*') return fail(0, "sandglass time controls (*N) are not supported");
    TimeControl tc;
    std::size_t pos = 0;
    while (true) {
        const std::size_t start = pos;
        TimePeriod p;
        auto first = read_number(text, pos);
        if (!first) return fail(pos, "expected a number of seconds (or MOVES/SECONDS)");
        std::int64_t seconds = *first;
        if (pos < text.size() && text[pos] == '/') {
            if (*first < 1 || *first > max_moves)
                return fail(start, "the move count must be between 1 and " + std::to_string(max_moves));
            p.moves = static_cast<int>(*first);
            ++pos;
            auto s = read_number(text, pos);
            if (!s) return fail(pos, "expected the seconds of the period after '/'");
            seconds = *s;
        }
        if (seconds > max_seconds)
            return fail(start, "a period of more than " + std::to_string(max_seconds) + " seconds");
        p.base_ms = seconds * 1000;
        if (pos < text.size() && (text[pos] == '+' || text[pos] == 'd' || text[pos] == 'b')) {
            const char kind = text[pos++];
            auto b = read_number(text, pos);
            if (!b) return fail(pos, std::string("expected the seconds of the bonus after '") + kind + "'");
            if (*b > 3600) return fail(pos, "a per-move bonus of more than an hour");
            p.bonus = kind == '+' ? Bonus::increment : kind == 'd' ? Bonus::delay : Bonus::bronstein;
            p.bonus_ms = *b * 1000;
        }
        if (p.base_ms == 0 && p.bonus_ms == 0) return fail(start, "a period with no time at all");
        tc.periods.push_back(p);
        if (pos == text.size()) break;
        if (text[pos] != ':')
            return fail(pos, std::string("unexpected '") + text[pos] + "' (periods are separated by ':')");
        if (p.moves == 0) return fail(pos, "only the last period may be without a move count");
        ++pos;
    }
    return tc;
}

std::string to_string(const TimeControl& tc) {
    std::string out;
    for (const auto& p : tc.periods) {
        if (!out.empty()) out += ':';
        if (p.moves > 0) out += std::to_string(p.moves) + "/";
        out += std::to_string(p.base_ms / 1000);
        if (p.bonus != Bonus::none) {
            out += p.bonus == Bonus::increment ? '+' : p.bonus == Bonus::delay ? 'd' : 'b';
            out += std::to_string(p.bonus_ms / 1000);
        }
    }
    return out;
}

TimeCategory derive_time_category(const TimeControl& tc) noexcept {
    if (tc.periods.empty()) return TimeCategory::standard;
    std::int64_t total = 0;
    for (const auto& p : tc.periods) total += p.base_ms;
    total += 60 * tc.periods.front().bonus_ms;
    if (total <= 10 * 60'000) return TimeCategory::blitz;
    if (total < 60 * 60'000) return TimeCategory::rapid;
    return TimeCategory::standard;
}

Clock::Clock(TimeControl tc) : tc_(std::move(tc)) {
    if (tc_.periods.empty()) tc_.periods.push_back({0, 0, Bonus::none, 0});
    base_ = {tc_.periods[0].base_ms, tc_.periods[0].base_ms};
}

const TimePeriod& Clock::period(Color side) const noexcept { return tc_.periods[period_[index(side)]]; }

std::int64_t Clock::charged(std::int64_t turn_elapsed) const noexcept {
    if (!running_) return 0;
    const TimePeriod& p = period(*running_);
    return p.bonus == Bonus::delay ? std::max<std::int64_t>(0, turn_elapsed - p.bonus_ms) : turn_elapsed;
}

void Clock::settle(std::int64_t at) {
    if (!running_ || paused_) {
        settled_at_ = std::max(settled_at_, at);
        return;
    }
    const int r = index(*running_);
    const std::int64_t before = turn_elapsed_;
    turn_elapsed_ += std::max<std::int64_t>(0, at - settled_at_);
    settled_at_ = std::max(settled_at_, at);
    if (!fell_at_[r] && base_[r] - charged(turn_elapsed_) <= 0) {
        // The elapsed time at which the face reached zero.
        const TimePeriod& p = period(*running_);
        const std::int64_t zero_at = base_[r] + (p.bonus == Bonus::delay ? p.bonus_ms : 0);
        fell_at_[r] = settled_at_ - (turn_elapsed_ - std::max(zero_at, before));
    }
}

void Clock::start(Color side, std::int64_t at) {
    if (started_) return;
    started_ = true;
    running_ = side;
    turn_elapsed_ = 0;
    settled_at_ = at;
}

void Clock::press(Color mover, std::int64_t at) {
    if (!running_ || *running_ != mover) return;
    settle(at);
    const int m = index(mover);
    const TimePeriod& p = period(mover);
    const bool fallen = fell_at_[m].has_value();
    if (fallen) {
        base_[m] = 0;
    } else {
        base_[m] -= charged(turn_elapsed_);
        if (p.bonus == Bonus::increment) base_[m] += p.bonus_ms;
        if (p.bonus == Bonus::bronstein) base_[m] += std::min(turn_elapsed_, p.bonus_ms);
    }
    ++moves_[m];
    ++period_moves_[m];
    if (p.moves > 0 && period_moves_[m] >= p.moves) {
        period_[m] = std::min(period_[m] + 1, tc_.periods.size() - 1);
        period_moves_[m] = 0;
        base_[m] += tc_.periods[period_[m]].base_ms;
        fell_at_[m].reset();
    }
    running_ = ~mover;
    turn_elapsed_ = 0;
    settled_at_ = at;
    paused_ = false;
}

void Clock::pause(std::int64_t at) {
    settle(at);
    if (running_) paused_ = true;
}

void Clock::resume(std::int64_t at) {
    settle(at);
    paused_ = false;
    settled_at_ = at;
}

void Clock::stop(std::int64_t at) {
    settle(at);
    if (running_) {
        const int r = index(*running_);
        base_[r] = fell_at_[r] ? 0 : base_[r] - charged(turn_elapsed_);
    }
    running_.reset();
    turn_elapsed_ = 0;
    paused_ = false;
}

void Clock::add(Color side, std::int64_t ms, std::int64_t at) {
    settle(at);
    if (!fell_at_[index(side)]) base_[index(side)] += ms;
}

void Clock::set(Color side, std::int64_t ms, std::int64_t at) {
    settle(at);
    if (fell_at_[index(side)]) return;
    base_[index(side)] = ms + (running_ == side ? charged(turn_elapsed_) : 0);
}

void Clock::correct(Color side, std::int64_t ms, std::optional<int> moves, std::int64_t at) {
    settle(at);
    const int s = index(side);
    fell_at_[s].reset();
    if (moves) {
        moves_[s] = *moves;
        // The period those moves fall in, as press() would have reached it (the last repeats).
        std::size_t p = 0;
        int left = *moves;
        while (tc_.periods[p].moves > 0 && left >= tc_.periods[p].moves) {
            left -= tc_.periods[p].moves;
            if (p + 1 < tc_.periods.size()) ++p;
        }
        period_[s] = p;
        period_moves_[s] = left;
    }
    base_[s] = ms + (running_ == side ? charged(turn_elapsed_) : 0);
}

std::int64_t Clock::remaining(Color side, std::int64_t at) const noexcept {
    const int s = index(side);
    if (flag_fell_at(side, at)) return 0;
    if (running_ != side) return std::max<std::int64_t>(0, base_[s]);
    const std::int64_t elapsed = turn_elapsed_ + (paused_ ? 0 : std::max<std::int64_t>(0, at - settled_at_));
    return std::max<std::int64_t>(0, base_[s] - charged(elapsed));
}

std::optional<std::int64_t> Clock::flag_fell_at(Color side, std::int64_t at) const noexcept {
    const int s = index(side);
    if (fell_at_[s]) return fell_at_[s];
    if (running_ != side || paused_) return std::nullopt;
    const std::int64_t elapsed = turn_elapsed_ + std::max<std::int64_t>(0, at - settled_at_);
    if (base_[s] - charged(elapsed) > 0) return std::nullopt;
    const TimePeriod& p = period(side);
    const std::int64_t zero_at = base_[s] + (p.bonus == Bonus::delay ? p.bonus_ms : 0);
    return settled_at_ + (std::max(zero_at, turn_elapsed_) - turn_elapsed_);
}

std::string format_clock(std::int64_t ms) {
    ms = std::max<std::int64_t>(0, ms);
    char buf[48];
    const std::int64_t s = ms / 1000;
    if (ms < 10'000) {
        std::snprintf(buf, sizeof buf, "0:%02lld.%lld", static_cast<long long>(s),
                      static_cast<long long>((ms % 1000) / 100));
    } else if (s >= 3600) {
        std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", static_cast<long long>(s / 3600),
                      static_cast<long long>(s / 60 % 60), static_cast<long long>(s % 60));
    } else {
        std::snprintf(buf, sizeof buf, "%lld:%02lld", static_cast<long long>(s / 60), static_cast<long long>(s % 60));
    }
    return buf;
}

std::string format_pgn_clock(std::int64_t ms) {
    ms = std::max<std::int64_t>(0, ms);
    const std::int64_t s = ms / 1000;
    char buf[48];
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", static_cast<long long>(s / 3600),
                  static_cast<long long>(s / 60 % 60), static_cast<long long>(s % 60));
    return buf;
}

}  // namespace arbiter
