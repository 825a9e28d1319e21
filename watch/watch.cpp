// watch.cpp — the hall monitor's boards: incremental analysis of live games, alerts, corrections.
#include "watch.hpp"

#include "hall_board.hpp"

#include <algorithm>
#include <charconv>
#include <set>
#include <unordered_set>

#include "arbiter/fen.hpp"
#include "arbiter/flag.hpp"
#include "arbiter/input.hpp"

namespace arbiter::watch {

namespace {

bool is_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string plies_words(std::size_t n) { return std::to_string(n) + (n == 1 ? " ply" : " plies"); }

}  // namespace

std::string Alert::key() const { return board + '\x1f' + type + '\x1f' + kind + '\x1f' + std::to_string(ply); }

std::string board_id(const pgn::ParsedGame& g) {
    const std::string round = tag_or(g, "Round", "?");
    if (const auto b = g.tag("Board"); b && !b->empty()) return round + "." + std::string(*b);
    return round + " " + tag_or(g, "White", "?") + " - " + tag_or(g, "Black", "?");
}

std::string where_words(const GameRecord& rec, const std::vector<std::size_t>& indices) {
    std::string out;
    bool after = false;
    for (const std::size_t k : indices) {
        if (!out.empty()) out += ", ";
        if (k == 0) {
            out += "at the start";
            continue;
        }
        if (!after) out += "after ";
        after = true;
        out += rec.move_label(k);
    }
    return out;
}

std::string_view complete_part(std::string_view text) noexcept {
    if (text.empty() || is_space(text.back()) || text.back() == '}' || text.back() == ']' || text.back() == ')')
        return text;
    std::size_t cut = text.size();
    while (cut > 0 && !is_space(text[cut - 1])) --cut;
    const std::string_view last = text.substr(cut);
    if (last == "1-0" || last == "0-1" || last == "1/2-1/2" || last == "*") return text;
    return text.substr(0, cut);
}

Hall::Hall(WatchOptions options) : options_(std::move(options)) {}
Hall::~Hall() = default;

std::size_t Hall::board_count() const noexcept { return boards_.size(); }

Hall::Board& Hall::board_for(const pgn::ParsedGame& g, std::string_view source) {
    const std::string id = board_id(g);
    auto& slot = boards_[id];
    if (!slot) {
        slot = std::make_unique<Board>();
        Board& b = *slot;
        b.id = id;
        b.white = tag_or(g, "White", "?");
        b.black = tag_or(g, "Black", "?");
        b.round = tag_or(g, "Round", "?");
        b.rules = &rule_set(audit::rules_for_game(g, options_.audit));
        b.rule_options = options_.audit.rule_options;
        if (options_.audit.time_category_from_tag)
            if (const auto tc = g.tag("TimeControl"))
                if (const auto cat = audit::time_category_from_tag(*tc)) b.rule_options.time_category = *cat;
        order_.push_back(&b);
    }
    slot->source = std::string(source);
    return *slot;
}

void Hall::read(std::string_view source, std::string_view text, std::vector<Alert>& out) {
    changed_.clear();
    // Only the boards this read reaches are looked at (not every board of the hall, once for each
    // of 1,000 URLs).
    const std::uint64_t serial = ++reads_;
    std::vector<Board*> touched;
    const std::string_view part = complete_part(text);
    // The text cut at game boundaries (docs/pgn.md): a piece read last time, byte for byte, holds
    // nothing new and is not parsed again (a feed rewritten every second mostly repeats itself).
    std::unordered_set<std::size_t>& before = pieces_[std::string(source)];
    std::unordered_set<std::size_t> now;
    pgn::BoundaryFinder finder;
    std::size_t from = 0;
    std::uint32_t lines_before = 0;
    pgn::ParsedGame g;
    while (from < part.size() || from == 0) {
        const std::size_t cut = finder.find(part, from + 1);
        const bool last = cut == std::string_view::npos;
        const std::string_view piece = part.substr(from, last ? std::string_view::npos : cut - from);
        const std::size_t digest = std::hash<std::string_view>{}(piece);
        now.insert(digest);
        if (!before.count(digest)) {
            pgn::GameReaderOptions ro;
            ro.reader.input_continues = !last;
            auto input = memory_input(piece, {InputOptions::Compression::plain}, std::string(source));
            pgn::GameReader reader(*input, ro);
            line_base_ = lines_before;
            while (reader.next(g)) {
                const bool in_progress = g.result.empty();
                bool move_error = false;
                for (const auto& e : g.errors) move_error = move_error || is_move_error(e.code);
                // A game whose tags are still being written: its key is not known yet.
                if (in_progress && g.plies.empty() && !move_error) continue;
                Board& b = board_for(g, source);
                if (b.read_serial != serial) {
                    b.read_serial = serial;
                    b.changed = false;
                    touched.push_back(&b);
                }
                const std::string result_before = b.result;
                update(b, g, in_progress, out);
                if (b.moved || b.result != result_before)
                    withdraw_if(
                        b, [](const Alert& a) { return a.type == type::feed_stale; }, out);
                settle_ended(b, out);
            }
        }
        if (last) break;
        lines_before += static_cast<std::uint32_t>(std::count(piece.begin(), piece.end(), '\n'));
        from = cut;
    }
    before = std::move(now);
    for (Board* b : touched)
        if (b->changed) changed_.push_back(b->id);
}

bool Hall::emit(Board& b, Alert a, std::vector<Alert>& out) {
    a.board = b.id, a.white = b.white, a.black = b.black, a.round = b.round, a.source = b.source;
    const std::string key = a.key();
    if (b.alerts.count(key) || b.closed.count(key)) return false;
    a.seq = ++seq_;
    b.changed = true;
    out.push_back(a);
    b.alerts.emplace(key, std::move(a));
    return true;
}

void Hall::withdraw_if(Board& b, const std::function<bool(const Alert&)>& pred, std::vector<Alert>& out, bool close) {
    std::vector<Alert> gone;  // in the order they were given
    for (auto it = b.alerts.begin(); it != b.alerts.end();) {
        if (!pred(it->second)) {
            ++it;
            continue;
        }
        if (close) b.closed.emplace(it->first, it->second.ply);
        gone.push_back(std::move(it->second));
        it = b.alerts.erase(it);
    }
    std::sort(gone.begin(), gone.end(), [](const Alert& x, const Alert& y) { return x.seq < y.seq; });
    for (Alert& w : gone) {
        (close ? w.closed : w.withdrawn) = true;
        w.updated = false;
        if (close) w.detail += " (closed: the game has ended)";
        w.seq = ++seq_;
        b.changed = true;
        out.push_back(std::move(w));
    }
}

void Hall::settle_ended(Board& b, std::vector<Alert>& out) {
    if (!b.started || b.in_progress()) return;
    withdraw_if(
        b, [](const Alert& a) { return a.type == type::feed_stale || a.type == type::feed_gone; }, out);
    withdraw_if(
        b, [](const Alert& a) { return a.type == type::claimable || a.type == type::approaching_seventy_five; }, out,
        true);
}

void Hall::update(Board& b, const pgn::ParsedGame& g, bool in_progress, std::vector<Alert>& out) {
    auto emit = [&](Alert a) { return this->emit(b, std::move(a), out); };
    auto withdraw_if = [&](const std::function<bool(const Alert&)>& pred) { this->withdraw_if(b, pred, out); };
    b.last_change = std::chrono::steady_clock::now();
    // Read again: a source gone is back.
    withdraw_if([](const Alert& a) { return a.type == type::feed_gone; });
    b.moved = false;
    GameRecord& rec = b.rec;

    // The analysis of the position just reached (index i = the last of the record).
    auto analyse = [&](std::size_t i) {
        const auto& t = rec.termination();
        if (t && t->index < i) return;  // moves after the end of the game are void
        const std::uint32_t ply = rec.game_ply(i);
        const std::string move = i == 0 ? std::string() : rec.move_label(i);
        const std::string after = i == 0 ? std::string("at the start") : "after " + move;
        if (t) {
            const std::string kind = termination_name(t->kind);
            std::string detail = std::string(termination_words(t->kind)) + " " + after + ": the game is over (" +
                                 t->result + "), stop the clocks";
            std::vector<std::uint32_t> plies;
            if (t->kind == TerminationKind::fivefold_repetition || t->kind == TerminationKind::threefold_repetition) {
                const auto at = rec.occurrence_indices(i);
                detail += "; the position stood " + where_words(rec, at);
                for (const std::size_t k : at) plies.push_back(rec.game_ply(k));
            } else if (t->kind == TerminationKind::seventy_five_moves || t->kind == TerminationKind::fifty_moves) {
                const std::size_t from = i - std::min<std::size_t>(i, rec.no_progress(i));
                detail +=
                    "; no capture or pawn move since " + (from == 0 ? std::string("the start") : rec.move_label(from));
                plies = {rec.game_ply(from), ply};
            }
            b.over_detail = detail;
            b.void_plies = 0;  // said after the plies are read (they may go on in the same read)
            emit({.type = type::game_over,
                  .kind = kind,
                  .ply = ply,
                  .move = move,
                  .article = t->article,
                  .detail = detail,
                  .plies = plies});
            return;
        }
        const Position& pos = rec.position(i);
        const std::uint32_t np = rec.no_progress(i);
        const RuleSet& rules = rec.rules();
        if (rules.seventy_five != DrawEffect::none && options_.approach_plies < 150) {
            const std::uint32_t at = 150 - options_.approach_plies;
            if (np >= at && (i == 0 || rec.no_progress(i - 1) < at)) {
                const std::size_t from = i - std::min<std::size_t>(i, np);
                emit({.type = type::approaching_seventy_five,
                      .kind = termination_name(TerminationKind::seventy_five_moves),
                      .ply = ply,
                      .move = move,
                      .article = rules.articles.seventy_five,
                      .detail = std::to_string(np) + " plies without capture or pawn move " + after + " (since " +
                                (from == 0 ? std::string("the start") : rec.move_label(from)) +
                                "): the game ends at 150 unless a capture or pawn move comes",
                      .count = np,
                      .plies = {rec.game_ply(from), ply}});
            }
        }
        const audit::ClaimsNow now = audit::claims_now(rec, i);
        if (now.threefold && threefold_effect(rules, rec.options()) == DrawEffect::claim) {
            const auto at = rec.occurrence_indices(i);
            std::vector<std::uint32_t> plies;
            for (const std::size_t k : at) plies.push_back(rec.game_ply(k));
            emit({.type = type::claimable,
                  .kind = face::finding_kind::threefold,
                  .ply = ply,
                  .move = move,
                  .side = pos.turn(),
                  .article = rules.articles.threefold_now,
                  .detail = side_title(pos.turn()) + " may claim a draw by threefold repetition " + after +
                            " (the position stood " + where_words(rec, at) + ")",
                  .plies = plies});
        }
        if (now.fifty && fifty_effect(rules, rec.options()) == DrawEffect::claim &&
            (i == 0 || !audit::claims_now(rec, i - 1).fifty)) {
            const std::size_t from = i - std::min<std::size_t>(i, np);
            emit({.type = type::claimable,
                  .kind = face::finding_kind::fifty,
                  .ply = ply,
                  .move = move,
                  .side = pos.turn(),
                  .article = rules.articles.fifty_now,
                  .detail = std::to_string(np) + " plies without capture or pawn move " + after + " (since " +
                            (from == 0 ? std::string("the start") : rec.move_label(from)) +
                            "): either player having the move may claim a draw from here on",
                  .plies = {rec.game_ply(from), ply}});
        }
        // [%clk] after ply i-1: the clock of the side that made it.
        if (i >= 1 && i - 1 < b.clk.size() && b.clk[i - 1] == 0) {
            const Color flagger = rec.position(i - 1).turn();
            const FlagRuling r = rule_flag_fall(rules, b.rule_options.time_category, rec.analyzer(), pos, flagger);
            emit({.type = r.opponent_wins ? type::flag : type::flag_unwinnable,
                  .kind = face::alert_kind::clk,
                  .ply = ply,
                  .move = move,
                  .side = flagger,
                  .article = r.article,
                  .detail = side_title(flagger) + "'s clock reads 0:00:00 " + after + ": " + r.reason});
        }
    };

    // The start position: a new one (or another one) restarts the board.
    if (!g.has_start) {
        // bad_fen and the like: reported below as feed errors; the board keeps what it had.
    } else if (!b.started || !(g.start == b.start)) {
        if (b.started) {
            withdraw_if([](const Alert&) { return true; });
            b.closed.clear();
            b.moved = true;
            emit({.type = type::correction,
                  .kind = face::alert_kind::start_position,
                  .ply = rec.game_ply(0),
                  .detail = "the game's start position (FEN tag) changed: the analysis restarts from it"});
        }
        b.started = true;
        b.start = g.start;
        rec.reset(g.start, *b.rules, b.rule_options, options_.audit.analyzer);
        b.clk.clear();
        b.changed = b.moved = true;
        analyse(0);
    }

    if (b.started && g.has_start) {
        // The first ply where the feed and what was seen differ.
        const std::size_t seen = rec.plies_played();
        const std::size_t n = g.plies.size();
        std::size_t c = 0;
        while (c < seen && c < n && rec.move(c + 1) == g.plies[c].move) ++c;
        if (c < seen && c < n) {
            // Moves already seen were changed: withdraw what came after, restart from there.
            const std::string was = rec.move_label(c + 1);
            const std::uint32_t ply = rec.game_ply(c + 1);
            while (rec.plies_played() > c) rec.pop();
            b.clk.resize(c);
            const std::string now = rec.move_number_prefix(c) + to_san(rec.current(), g.plies[c].move);
            std::size_t withdrawn = 0;
            for (const auto& [key, a] : b.alerts) withdrawn += a.ply >= ply;
            withdraw_if([&](const Alert& a) { return a.ply >= ply; });
            std::erase_if(b.closed, [&](const auto& kv) { return kv.second >= ply; });
            b.moved = true;
            // Of the plies seen from there, those the feed has again (changed) and those it no
            // longer has.
            const std::size_t replaced = std::min(seen, n) - c, dropped = seen - std::min(seen, n);
            emit({.type = type::correction,
                  .kind = face::alert_kind::moves_changed,
                  .ply = ply,
                  .move = now,
                  .detail = was + " became " + now + ": the analysis restarts there (" + std::to_string(withdrawn) +
                            (withdrawn == 1 ? " alert" : " alerts") + " withdrawn, " + plies_words(replaced) +
                            " replaced" + (dropped ? ", " + std::to_string(dropped) + " dropped" : std::string()) +
                            ")"});
        }
        // Fewer moves than seen and none changed: a move taken back or a feed starting again; the
        // board holds until a different move comes.
        for (std::size_t k = rec.plies_played(); k < n; ++k) {
            rec.play_legal(g.plies[k].move);
            b.clk.push_back(g.plies[k].clk_ms);
            b.changed = b.moved = true;
            analyse(k + 1);
        }
        // Moves after the end of a game over by itself are void: its alert says how many.
        const auto& t = rec.termination();
        if (!t) b.void_plies = 0;
        if (t && rec.plies_played() - t->index != b.void_plies) {
            b.void_plies = rec.plies_played() - t->index;
            Alert a{.board = b.id,
                    .type = type::game_over,
                    .kind = termination_name(t->kind),
                    .ply = rec.game_ply(t->index)};
            const auto it = b.alerts.find(a.key());
            if (it != b.alerts.end() && !b.over_detail.empty()) {
                it->second.detail =
                    b.over_detail + "; the feed goes on for " + plies_words(b.void_plies) + ", void (9.6)";
                // Given in this very read: the line printed says it already.
                auto given =
                    std::find_if(out.rbegin(), out.rend(), [&](const Alert& x) { return x.seq == it->second.seq; });
                if (given != out.rend()) {
                    given->detail = it->second.detail;
                } else {
                    Alert u = it->second;
                    u.updated = true;
                    out.push_back(std::move(u));
                    b.changed = true;
                }
            }
        }
        // A [%clk] read later for a ply already seen (the comment was cut before).
        for (std::size_t k = 0; k < std::min(n, b.clk.size()); ++k) {
            if (b.clk[k] == g.plies[k].clk_ms || g.plies[k].clk_ms < 0) continue;
            b.clk[k] = g.plies[k].clk_ms;
            if (b.clk[k] == 0) {
                // Analyse again the position after ply k (only the flag can be new there).
                const std::size_t keep = rec.plies_played();
                if (keep == k + 1) analyse(k + 1);
            }
        }
    }

    update_derived(b, g, in_progress, out);
}

}  // namespace arbiter::watch
