// hall_views.cpp — what the Hall shows and keeps of its boards: the alerts in force and their
// evidence, the boards for the hall page, the records of the state file and their restoring.
#include <algorithm>
#include <charconv>

#include "arbiter/fen.hpp"
#include "hall_board.hpp"

namespace arbiter::watch {

face::Json alert_json(const Alert& a) {
    auto text = [](const std::string& s) { return s.empty() ? face::Json(nullptr) : face::Json(s); };
    return face::Json{{"board", a.board},
                      {"white", a.white},
                      {"black", a.black},
                      {"round", a.round},
                      {"type", a.type},
                      {"kind", a.kind},
                      {"ply", a.ply},
                      {"move", text(a.move)},
                      {"side", a.side ? face::Json(enum_name(*a.side)) : face::Json(nullptr)},
                      {"article", text(a.article)},
                      {"detail", a.detail},
                      {"count", a.count ? face::Json(*a.count) : face::Json(nullptr)},
                      {"source", text(a.source)},
                      {"withdrawn", a.withdrawn},
                      {"closed", a.closed},
                      {"updated", a.updated},
                      {"plies", a.plies}};
}

std::vector<Alert> Hall::alerts() const {
    std::vector<Alert> all;
    for (const Board* b : order_)
        for (const auto& [key, a] : b->alerts) all.push_back(a);
    std::sort(all.begin(), all.end(), [](const Alert& x, const Alert& y) { return x.seq < y.seq; });
    return all;
}

std::vector<Evidence> Hall::evidence(const Alert& a) const {
    std::vector<Evidence> out;
    const auto it = boards_.find(a.board);
    if (it == boards_.end() || !it->second->started) return out;
    const GameRecord& rec = it->second->rec;
    if (a.ply < rec.game_ply(0) || a.ply - rec.game_ply(0) >= rec.size()) return out;
    const std::size_t i = a.ply - rec.game_ply(0);
    auto add = [&](std::size_t k) {
        out.push_back({rec.game_ply(k), to_fen(rec.position(k)), k == 0 ? std::string() : rec.move_label(k)});
    };
    if (face::is_repetition_kind(a.kind)) {
        for (const std::size_t k : rec.occurrence_indices(i)) add(k);
    } else if (face::is_no_progress_kind(a.kind) && rec.no_progress(i) <= i) {
        add(i - rec.no_progress(i));
        add(i);
    } else {
        add(i);
    }
    return out;
}

std::vector<BoardView> Hall::boards() const {
    std::vector<BoardView> out;
    for (const Board* b : order_) {
        BoardView v{.id = b->id,
                    .white = b->white,
                    .black = b->black,
                    .round = b->round,
                    .source = b->source,
                    .result = b->result.empty() ? "*" : b->result};
        if (b->started) {
            v.fen = to_fen(b->rec.current());
            v.plies = static_cast<std::uint32_t>(b->rec.plies_played());
            if (v.plies > 0) v.last_move = b->rec.move_label(v.plies);
            for (std::size_t k = 0; k < b->clk.size(); ++k) {
                if (b->clk[k] < 0) continue;
                (b->rec.position(k).turn() == Color::white ? v.white_clock_ms : v.black_clock_ms) = b->clk[k];
            }
            if (const auto& t = b->rec.termination()) v.ended = termination_name(t->kind);
        }
        out.push_back(std::move(v));
    }
    return out;
}

std::optional<BoardRecord> Hall::board_record(const std::string& id) const {
    const auto it = boards_.find(id);
    if (it == boards_.end()) return std::nullopt;
    const Board& b = *it->second;
    BoardRecord r{.id = b.id, .white = b.white, .black = b.black, .round = b.round, .source = b.source};
    r.result = b.result;
    if (b.rules) r.rules = b.rules->name;
    r.time_category = time_category_name(b.rule_options.time_category);
    if (b.started) {
        r.start_fen = to_fen(b.start, {.shredder = b.start.is_chess960()});
        for (std::size_t i = 1; i <= b.rec.plies_played(); ++i) {
            if (i > 1) r.moves += ' ';
            r.moves += to_uci(b.rec.position(i - 1), b.rec.move(i));
        }
        for (std::size_t k = 0; k < b.clk.size(); ++k) r.clocks += (k ? " " : "") + std::to_string(b.clk[k]);
    }
    return r;
}

bool Hall::restore(const BoardRecord& r, const std::vector<Alert>& alerts) {
    auto& slot = boards_[r.id];
    if (!slot) {
        slot = std::make_unique<Board>();
        order_.push_back(slot.get());
    }
    Board& b = *slot;
    b.id = r.id, b.white = r.white, b.black = r.black, b.round = r.round, b.source = r.source;
    b.result = r.result;
    b.last_change = std::chrono::steady_clock::now();
    for (const Alert& a : alerts) {
        Alert copy = a;
        copy.seq = ++seq_;
        copy.withdrawn = false;
        b.alerts.emplace(copy.key(), std::move(copy));
    }
    if (r.start_fen.empty()) return true;
    const pgn::ParsedGame none;
    b.rules = &rule_set(parse_rule_set(r.rules).value_or(audit::rules_for_game(none, options_.audit)));
    b.rule_options = options_.audit.rule_options;
    if (const auto cat = parse_time_category(r.time_category)) b.rule_options.time_category = *cat;
    // The record's FEN is a Shredder-FEN only for Chess960 (board_record): a standard game read
    // as Chess960 would take its castling moves (UCI e1g1) for king moves, and not replay.
    auto start = position_from_fen(r.start_fen);
    if (!start) start = position_from_fen(r.start_fen, {.chess960 = true});
    if (!start) return false;
    b.started = true;
    b.start = *start;
    b.rec.reset(b.start, *b.rules, b.rule_options, options_.audit.analyzer);
    std::vector<std::string_view> moves, clocks;
    auto split = [](std::string_view s, std::vector<std::string_view>& into) {
        while (!s.empty()) {
            const auto sp = s.find(' ');
            into.push_back(s.substr(0, sp));
            if (sp == std::string_view::npos) break;
            s.remove_prefix(sp + 1);
        }
    };
    split(r.moves, moves);
    split(r.clocks, clocks);
    for (std::size_t k = 0; k < moves.size(); ++k) {
        if (b.rec.play(moves[k])) return false;
        std::int64_t ms = -1;
        if (k < clocks.size()) std::from_chars(clocks[k].data(), clocks[k].data() + clocks[k].size(), ms);
        b.clk.push_back(ms);
    }
    // A game over by itself: its alert's detail without the void plies, to be brought up to date.
    if (const auto& t = b.rec.termination()) {
        b.void_plies = b.rec.plies_played() - t->index;
        const Alert key{
            .board = b.id, .type = type::game_over, .kind = termination_name(t->kind), .ply = b.rec.game_ply(t->index)};
        if (const auto it = b.alerts.find(key.key()); it != b.alerts.end())
            b.over_detail = it->second.detail.substr(0, it->second.detail.find("; the feed goes on for "));
    }
    return true;
}

}  // namespace arbiter::watch
