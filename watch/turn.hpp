// turn.hpp — one turn of the hall monitor, the same for `arbiter watch` (monitor.cpp) and the
// service's hall page (`arbiter serve --watch`, hall_service.cpp): the sources asked what changed,
// then the hall reads each changed text, each source gone, and the clock's tick, one step at a
// time; after each step the caller keeps its alerts (the state file, the terminal, the page).
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "sources.hpp"
#include "watch.hpp"

namespace arbiter::watch {

/// What the sources said in one poll.
struct News {
    std::vector<SourceText> changed;
    std::vector<SourceProblem> problems;
    std::vector<std::string> gone;
};

/// Polls `sources` (Sources::poll).
News poll_news(Sources& sources);

/// The hall's steps for `news`: each changed source read, each source gone (a URL: not_found, a
/// file: deleted), then, with `tick`, the clock's tick (liveness: a feed gone quiet, at the time
/// it is taken); `after_step` gets the alerts of each step, in that order.
void read_news(Hall& hall, const News& news, bool tick,
               const std::function<void(std::vector<Alert>& alerts)>& after_step);

}  // namespace arbiter::watch
