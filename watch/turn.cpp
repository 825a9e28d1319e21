// turn.cpp — one turn of the hall monitor (turn.hpp).
#include "turn.hpp"

namespace arbiter::watch {

News poll_news(Sources& sources) {
    News n;
    sources.poll(n.changed, n.problems, n.gone);
    return n;
}

void read_news(Hall& hall, const News& news, bool tick,
               const std::function<void(std::vector<Alert>& alerts)>& after_step) {
    for (const SourceText& s : news.changed) {
        std::vector<Alert> alerts;
        hall.read(s.name, s.text, alerts);
        after_step(alerts);
    }
    for (const std::string& g : news.gone) {
        std::vector<Alert> alerts;
        hall.source_gone(g, is_url(g) ? face::alert_kind::not_found : face::alert_kind::deleted, alerts);
        after_step(alerts);
    }
    if (!tick) return;
    std::vector<Alert> alerts;
    hall.tick(std::chrono::steady_clock::now(), alerts);
    after_step(alerts);
}

}  // namespace arbiter::watch
