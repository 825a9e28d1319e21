// url_feed.cpp — a polled or streamed http(s) source, with back-off.
#include "url_feed.hpp"

#include <algorithm>
#include <functional>
#include <utility>

namespace arbiter::watch {

namespace {

constexpr std::chrono::milliseconds max_backoff{30'000};
constexpr std::chrono::milliseconds once_quiet{1'000};  // --once: a stream silent this long is read

}  // namespace

UrlFeed::UrlFeed(std::string spec, Url url, Mode mode, const SourceOptions& options, Bell& bell)
    : spec_(std::move(spec)), mode_(mode), options_(options), bell_(bell), url_(std::move(url)) {
    backoff_ = options_.interval;
}

std::chrono::milliseconds UrlFeed::settle(const std::string& problem) {
    ++attempts_;
    if (problem.empty()) {
        if (!problem_.empty()) recovered_ = true;
        problem_.clear();
        backoff_ = options_.interval;
        return options_.interval;
    }
    if (problem != problem_) problem_new_ = true;
    problem_ = problem;
    // Back off: twice the last wait, at most 30 s.
    backoff_ = std::min(std::max(backoff_, options_.interval) * 2, max_backoff);
    return backoff_;
}

std::chrono::steady_clock::time_point UrlFeed::first_turn() const {
    const auto now = std::chrono::steady_clock::now();
    if (options_.once || mode_ == Mode::stream) return now;
    const auto offset = std::hash<std::string>{}(spec_) % static_cast<std::size_t>(options_.interval.count());
    return now + std::chrono::milliseconds(offset);
}

std::chrono::milliseconds UrlFeed::stream_silence() const noexcept {
    return options_.once ? std::min(options_.stream_timeout, once_quiet) : options_.stream_timeout;
}

std::optional<std::chrono::milliseconds> UrlFeed::after_attempt(std::unique_lock<std::mutex>& lock,
                                                                std::chrono::milliseconds wait) {
    if (fresh_ || problem_new_ || recovered_ || gone_) bell_.ring();
    if (options_.once) finished_ = true;
    lock.unlock();
    cv_.notify_all();
    if (options_.once) return std::nullopt;
    return wait;
}

std::optional<std::chrono::milliseconds> UrlFeed::answered(FetchResult r) {
    std::unique_lock lock(mutex_);
    if (r.kind == FetchResult::Kind::body) {
        if (r.body != text_ || !had_body_) {
            text_ = std::move(r.body);
            fresh_ = true;
        }
        had_body_ = true;
    } else if (r.kind == FetchResult::Kind::failed && had_body_ && (r.status == 404 || r.status == 410)) {
        gone_ = true;  // once: the boards it gave are gone until it answers again
        had_body_ = false;
    }
    const auto wait = settle(r.kind == FetchResult::Kind::failed ? r.problem : std::string());
    return after_attempt(lock, wait);
}

void UrlFeed::stream_connected() {
    std::lock_guard lock(mutex_);
    if (!problem_.empty()) recovered_ = true;
    problem_.clear();
    backoff_ = options_.interval;
}

void UrlFeed::stream_data(std::string_view data) {
    std::string games;
    framer_.append(data, games);
    if (games.empty()) return;
    {
        std::lock_guard lock(mutex_);
        text_ += games;
        fresh_ = true;
    }
    bell_.ring();
}

std::optional<std::chrono::milliseconds> UrlFeed::stream_ended(const FetchResult& r, bool connected) {
    framer_.clear();  // a game cut in the middle is never read half
    std::unique_lock lock(mutex_);
    std::string problem = r.kind == FetchResult::Kind::failed ? r.problem : "the server ended the stream";
    // --once: a stream that went quiet after it was connected has been read.
    if (options_.once && connected && (r.kind != FetchResult::Kind::failed || r.status == 200)) problem.clear();
    auto wait = settle(problem);
    if (connected) wait = options_.interval;  // it was up: the first retry comes soon
    return after_attempt(lock, wait);
}

void UrlFeed::take(std::vector<SourceText>& changed, std::vector<SourceProblem>& problems,
                   std::vector<std::string>& gone) {
    std::lock_guard lock(mutex_);
    if (problem_new_) {
        std::string text = spec_ + ": " + problem_;
        if (!options_.once) text += " (trying again with back-off)";
        problems.push_back({spec_, text, true});
    }
    if (recovered_) problems.push_back({spec_, spec_ + ": answering again", false});
    problem_new_ = recovered_ = false;
    if (gone_) gone.push_back(spec_);
    gone_ = false;
    if (!fresh_) return;
    fresh_ = false;
    if (mode_ == Mode::stream) {
        changed.push_back({spec_, std::move(text_)});
        text_.clear();
    } else {
        changed.push_back({spec_, text_});
    }
}

bool UrlFeed::wait_answered(std::chrono::steady_clock::time_point until) {
    std::unique_lock lock(mutex_);
    return cv_.wait_until(lock, until, [&] { return attempts_ > 0 || finished_; });
}

}  // namespace arbiter::watch
