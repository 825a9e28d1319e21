// url_feed.cpp — a polled or streamed http(s) source, with back-off.
#include "url_feed.hpp"

#include <algorithm>
#include <functional>

namespace arbiter::watch {

namespace {

constexpr std::chrono::milliseconds max_backoff{30'000};
constexpr std::chrono::milliseconds once_quiet{1'000};  // --once: a stream silent this long is read

}  // namespace

UrlFeed::UrlFeed(std::string spec, Url url, Mode mode, const SourceOptions& options, Bell& bell)
    : spec_(std::move(spec)), mode_(mode), options_(options), bell_(bell), url_(std::move(url)) {
    backoff_ = options_.interval;
    if (mode_ == Mode::polled) return;
    http_ = std::make_unique<HttpFeed>(
        url_, options.tls, std::chrono::milliseconds(2'000),
        options.once ? std::min(options.stream_timeout, once_quiet) : options.stream_timeout);
    thread_ = std::thread([this] { stream_loop(); });
}

UrlFeed::~UrlFeed() {
    if (mode_ == Mode::polled) return;  // no thread of its own: its loop is gone before it
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    cv_.notify_all();
    // A request in progress ends when its socket is shut; one just starting may miss the first
    // stop(), hence the repetition until the thread is done.
    std::unique_lock lock(mutex_);
    while (!finished_) {
        lock.unlock();
        http_->stop();
        lock.lock();
        cv_.wait_for(lock, std::chrono::milliseconds(20), [&] { return finished_; });
    }
    lock.unlock();
    thread_.join();
}

bool UrlFeed::sleep(std::chrono::milliseconds wait) {
    std::unique_lock lock(mutex_);
    return !cv_.wait_for(lock, wait, [&] { return stopping_; });
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
    if (options_.once) return now;
    const auto offset = std::hash<std::string>{}(spec_) % static_cast<std::size_t>(options_.interval.count());
    return now + std::chrono::milliseconds(offset);
}

std::optional<std::chrono::milliseconds> UrlFeed::answered(FetchResult r) {
    std::chrono::milliseconds wait;
    {
        std::lock_guard lock(mutex_);
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
        wait = settle(r.kind == FetchResult::Kind::failed ? r.problem : std::string());
        if (fresh_ || problem_new_ || recovered_ || gone_) bell_.ring();
    }
    cv_.notify_all();
    if (options_.once) return std::nullopt;
    return wait;
}

void UrlFeed::stream_loop() {
    PgnFramer framer;
    while (true) {
        bool connected = false;
        framer.clear();
        FetchResult r = http_->stream(
            [&] {
                connected = true;
                std::lock_guard lock(mutex_);
                if (!problem_.empty()) recovered_ = true;
                problem_.clear();
                backoff_ = options_.interval;
            },
            [&](std::string_view data) {
                std::string games;
                framer.append(data, games);
                std::lock_guard lock(mutex_);
                if (!games.empty()) {
                    text_ += games;
                    fresh_ = true;
                    cv_.notify_all();
                    bell_.ring();
                }
                return !stopping_;
            });
        std::chrono::milliseconds wait;
        {
            std::lock_guard lock(mutex_);
            if (stopping_) break;
            std::string problem = r.kind == FetchResult::Kind::failed ? r.problem : "the server ended the stream";
            // --once: a stream that went quiet after it was connected has been read.
            if (options_.once && connected && (r.kind != FetchResult::Kind::failed || r.status == 200)) problem.clear();
            wait = settle(problem);
            if (connected) wait = options_.interval;  // it was up: the first retry comes soon
        }
        cv_.notify_all();
        if (options_.once || !sleep(wait)) break;
    }
    std::lock_guard lock(mutex_);
    finished_ = true;
    cv_.notify_all();
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
