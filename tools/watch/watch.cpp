// watch.cpp — the hall monitor's boards: incremental analysis of live games, alerts, corrections.
#include "watch.hpp"

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

// "12." or "12..." for a move made from the position at game ply `ply`.
std::string number_prefix(std::uint32_t ply) { return std::to_string(ply / 2 + 1) + (ply % 2 == 0 ? "." : "..."); }

std::string tag_or(const pgn::ParsedGame& g, std::string_view name, std::string_view fallback) {
    const auto v = g.tag(name);
    return std::string(v && !v->empty() ? *v : fallback);
}

// Syntax problems of a game caught half-written: the writer is still at it.
bool syntax_of_a_cut_game(pgn::Error::Code c) noexcept {
    using C = pgn::Error::Code;
    return c == C::truncated_game || c == C::unterminated_string || c == C::unterminated_comment ||
           c == C::unterminated_variation || c == C::bad_tag || c == C::unexpected_char;
}

bool is_move_error(pgn::Error::Code c) noexcept {
    using C = pgn::Error::Code;
    return c == C::bad_move_syntax || c == C::illegal_move || c == C::ambiguous_move || c == C::null_move ||
           c == C::token_too_long;
}

std::string plies_words(std::size_t n) { return std::to_string(n) + (n == 1 ? " ply" : " plies"); }

}  // namespace

std::string Alert::key() const { return board + '\x1f' + type + '\x1f' + kind + '\x1f' + std::to_string(ply); }

cli::Json alert_json(const Alert& a) {
    auto text = [](const std::string& s) { return s.empty() ? cli::Json(nullptr) : cli::Json(s); };
    return cli::Json{{"board", a.board},
                     {"white", a.white},
                     {"black", a.black},
                     {"round", a.round},
                     {"type", a.type},
                     {"kind", a.kind},
                     {"ply", a.ply},
                     {"move", text(a.move)},
                     {"side", a.side ? cli::Json(enum_name(*a.side)) : cli::Json(nullptr)},
                     {"article", text(a.article)},
                     {"detail", a.detail},
                     {"count", a.count ? cli::Json(*a.count) : cli::Json(nullptr)},
                     {"source", text(a.source)},
                     {"withdrawn", a.withdrawn}};
}

std::string board_id(const pgn::ParsedGame& g) {
    const std::string round = tag_or(g, "Round", "?");
    if (const auto b = g.tag("Board"); b && !b->empty()) return round + "." + std::string(*b);
    return round + " " + tag_or(g, "White", "?") + " - " + tag_or(g, "Black", "?");
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

struct Hall::Board {
    std::string id, white, black, round, source;
    const RuleSet* rules = nullptr;
    RuleOptions rule_options;
    bool started = false;
    Position start;
    GameRecord rec;
    std::vector<std::int64_t> clk;  // [%clk] of each ply, -1 when none
    std::int64_t white_clock_tag = -1, black_clock_tag = -1;
    std::string result;  // the termination marker last read
    std::string derived_signature;
    std::map<std::string, Alert> alerts;  // in force, by key
    bool changed = false;
};

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
    for (Board* b : order_) b->changed = false;
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
                update(b, g, in_progress, out);
            }
        }
        if (last) break;
        lines_before += static_cast<std::uint32_t>(std::count(piece.begin(), piece.end(), '\n'));
        from = cut;
    }
    before = std::move(now);
    for (Board* b : order_)
        if (b->changed) changed_.push_back(b->id);
}

void Hall::update(Board& b, const pgn::ParsedGame& g, bool in_progress, std::vector<Alert>& out) {
    auto emit = [&](Alert a) {
        a.board = b.id, a.white = b.white, a.black = b.black, a.round = b.round, a.source = b.source;
        const std::string key = a.key();
        if (b.alerts.count(key)) return;
        a.seq = ++seq_;
        b.changed = true;
        out.push_back(a);
        b.alerts.emplace(key, std::move(a));
    };
    auto withdraw_if = [&](auto&& pred) {
        std::vector<Alert> gone;  // in the order they were given
        for (auto it = b.alerts.begin(); it != b.alerts.end();) {
            if (!pred(it->second)) {
                ++it;
                continue;
            }
            gone.push_back(std::move(it->second));
            it = b.alerts.erase(it);
        }
        std::sort(gone.begin(), gone.end(), [](const Alert& x, const Alert& y) { return x.seq < y.seq; });
        for (Alert& w : gone) {
            w.withdrawn = true;
            w.seq = ++seq_;
            b.changed = true;
            out.push_back(std::move(w));
        }
    };
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
            if (t->kind == TerminationKind::fivefold_repetition || t->kind == TerminationKind::threefold_repetition) {
                detail += "; the position stood at plies";
                for (const std::size_t k : rec.occurrence_indices(i)) detail += " " + std::to_string(rec.game_ply(k));
            } else if (t->kind == TerminationKind::seventy_five_moves || t->kind == TerminationKind::fifty_moves) {
                detail += "; no capture or pawn move since ply " + std::to_string(ply - rec.no_progress(i));
            }
            if (g.plies.size() > i)
                detail += "; the feed goes on for " + plies_words(g.plies.size() - i) + ", void (9.6)";
            emit({.type = type::game_over,
                  .kind = kind,
                  .ply = ply,
                  .move = move,
                  .article = t->article,
                  .detail = detail});
            return;
        }
        const Position& pos = rec.position(i);
        const std::uint32_t np = rec.no_progress(i);
        const RuleSet& rules = rec.rules();
        if (rules.seventy_five != DrawEffect::none && options_.approach_plies < 150) {
            const std::uint32_t at = 150 - options_.approach_plies;
            if (np >= at && (i == 0 || rec.no_progress(i - 1) < at))
                emit({.type = type::approaching_seventy_five,
                      .kind = termination_name(TerminationKind::seventy_five_moves),
                      .ply = ply,
                      .move = move,
                      .article = rules.articles.seventy_five,
                      .detail = std::to_string(np) + " plies without capture or pawn move " + after + " (since ply " +
                                std::to_string(ply - np) +
                                "): the game ends at 150 unless a capture or pawn move comes",
                      .count = np});
        }
        const audit::ClaimsNow now = audit::claims_now(rec, i);
        if (now.threefold && threefold_effect(rules, rec.options()) == DrawEffect::claim) {
            std::string detail = side_title(pos.turn()) + " may claim a draw by threefold repetition " + after +
                                 " (the position stood at plies";
            for (const std::size_t k : rec.occurrence_indices(i)) detail += " " + std::to_string(rec.game_ply(k));
            emit({.type = type::claimable,
                  .kind = audit::kind::threefold,
                  .ply = ply,
                  .move = move,
                  .side = pos.turn(),
                  .article = rules.articles.threefold_now,
                  .detail = detail + ")"});
        }
        if (now.fifty && fifty_effect(rules, rec.options()) == DrawEffect::claim &&
            (i == 0 || !audit::claims_now(rec, i - 1).fifty))
            emit({.type = type::claimable,
                  .kind = audit::kind::fifty,
                  .ply = ply,
                  .move = move,
                  .side = pos.turn(),
                  .article = rules.articles.fifty_now,
                  .detail = std::to_string(np) + " plies without capture or pawn move " + after +
                            ": either player having the move may claim a draw from here on"});
        // [%clk] after ply i-1: the clock of the side that made it.
        if (i >= 1 && i - 1 < b.clk.size() && b.clk[i - 1] == 0) {
            const Color flagger = rec.position(i - 1).turn();
            const FlagRuling r = rule_flag_fall(rules, b.rule_options.time_category, rec.analyzer(), pos, flagger);
            emit({.type = r.opponent_wins ? type::flag : type::flag_unwinnable,
                  .kind = "clk",
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
            emit({.type = type::correction,
                  .kind = "start_position",
                  .ply = rec.game_ply(0),
                  .detail = "the game's start position (FEN tag) changed: the analysis restarts from it"});
        }
        b.started = true;
        b.start = g.start;
        rec.reset(g.start, *b.rules, b.rule_options, options_.audit.analyzer);
        b.clk.clear();
        b.changed = true;
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
            emit({.type = type::correction,
                  .kind = "moves_changed",
                  .ply = ply,
                  .move = now,
                  .detail = was + " became " + now + ": the analysis restarts there (" + std::to_string(withdrawn) +
                            (withdrawn == 1 ? " alert" : " alerts") + " withdrawn, " + plies_words(seen - c) +
                            " replaced)"});
        }
        // Fewer moves than seen and none changed: a move taken back or a feed starting again; the
        // board holds until a different move comes.
        for (std::size_t k = rec.plies_played(); k < n; ++k) {
            rec.play_legal(g.plies[k].move);
            b.clk.push_back(g.plies[k].clk_ms);
            b.changed = true;
            analyse(k + 1);
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

    // Derived from the whole game as read now: feed errors, clock tags, the result. Recomputed
    // only when the game changed; withdrawn when they no longer hold (not on a half-written read).
    std::string sig = g.result + '\x1f' + tag_or(g, "Result", "") + '\x1f' + tag_or(g, "Termination", "") + '\x1f' +
                      tag_or(g, "WhiteClock", "") + '\x1f' + tag_or(g, "BlackClock", "") + '\x1f' +
                      std::to_string(g.plies.size()) + '\x1f' + std::to_string(rec.plies_played());
    for (const auto& e : g.errors) sig += '\x1f' + std::to_string(e.pos.offset) + code_name(e.code);
    if (sig == b.derived_signature && !b.changed) return;
    b.derived_signature = sig;
    b.result = g.result;
    std::set<std::string> derived;
    auto emit_derived = [&](Alert a) {
        a.board = b.id;
        derived.insert(a.key());
        emit(std::move(a));
    };
    for (const auto& e : g.errors) {
        if (in_progress && syntax_of_a_cut_game(e.code)) continue;
        if (e.code == pgn::Error::Code::not_utf8) continue;
        Alert a{.type = type::feed_error, .kind = code_name(e.code)};
        if (is_move_error(e.code) && g.has_start) {
            const std::uint32_t from = rec.game_ply(0) + static_cast<std::uint32_t>(g.plies.size());
            a.ply = from + 1;
            a.move = number_prefix(from) + e.token;
        } else {
            a.ply = g.has_start ? rec.game_ply(0) + static_cast<std::uint32_t>(g.plies.size()) : 0;
        }
        a.detail = e.message + " (line " + std::to_string(e.pos.line + line_base_) + ", column " +
                   std::to_string(e.pos.column) + "): the board operator must look";
        emit_derived(std::move(a));
    }
    const std::size_t last = rec.plies_played();
    const auto& t = rec.termination();
    if (b.started && g.has_start && last == g.plies.size() && !(t && t->index < last)) {
        // A clock tag at zero: that side's flag has fallen in the position as it stands.
        for (const Color side : {Color::white, Color::black}) {
            const auto v = g.tag(side == Color::white ? "WhiteClock" : "BlackClock");
            if (!v || pgn::parse_clock(*v) != 0) continue;
            const FlagRuling r =
                rule_flag_fall(rec.rules(), b.rule_options.time_category, rec.analyzer(), rec.current(), side);
            const std::string move = last == 0 ? std::string() : rec.move_label(last);
            emit({.type = r.opponent_wins ? type::flag : type::flag_unwinnable,
                  .kind = "clock_tag",
                  .ply = rec.game_ply(last),
                  .move = move,
                  .side = side,
                  .article = r.article,
                  .detail = side_title(side) + "'s clock tag reads 0:00:00 " +
                            (last == 0 ? std::string("at the start") : "after " + move) + ": " + r.reason});
        }
    }
    // The result: what the audit finds wrong with a decided result, once the feed gives one.
    const std::string tag_result = tag_or(g, "Result", "*");
    const bool decided = (!g.result.empty() && g.result != "*") || tag_result != "*";
    const bool results_checked = decided && g.has_start && g.complete;
    if (results_checked) {
        GameRecord scratch;
        const audit::GameAudit found = audit::audit_game(g, options_.audit, scratch);
        for (const auto& f : found.findings) {
            if (f.type != audit::FindingType::result_contradicts_position &&
                f.type != audit::FindingType::timeout_unwinnable && f.type != audit::FindingType::result_inconsistent)
                continue;
            const std::size_t idx = f.ply - rec.game_ply(0);
            emit_derived({.type = type::result_mismatch,
                          .kind = f.kind,
                          .ply = f.ply,
                          .move = idx == 0 || idx > last ? std::string() : rec.move_label(idx),
                          .side = f.side,
                          .article = f.article,
                          .detail = f.detail});
        }
    }
    // A feed error goes when the feed has a legal move at its ply (mended); a result mismatch
    // when the feed gives the whole game with a result that no longer contradicts it. A feed
    // that shows fewer moves than seen (starting again, a move taken back) holds both.
    const bool whole = g.has_start && g.plies.size() >= last;
    const std::uint32_t covered = g.has_start ? rec.game_ply(0) + static_cast<std::uint32_t>(g.plies.size()) : 0;
    withdraw_if([&](const Alert& a) {
        if (derived.count(a.key())) return false;
        if (a.type == type::feed_error) return g.has_start && covered >= a.ply;
        if (a.type == type::result_mismatch) return whole && results_checked;
        return false;
    });
}

std::vector<Alert> Hall::alerts() const {
    std::vector<Alert> all;
    for (const Board* b : order_)
        for (const auto& [key, a] : b->alerts) all.push_back(a);
    std::sort(all.begin(), all.end(), [](const Alert& x, const Alert& y) { return x.seq < y.seq; });
    return all;
}

std::vector<std::pair<std::uint32_t, std::string>> Hall::evidence(const Alert& a) const {
    std::vector<std::pair<std::uint32_t, std::string>> out;
    const auto it = boards_.find(a.board);
    if (it == boards_.end() || !it->second->started) return out;
    const GameRecord& rec = it->second->rec;
    if (a.ply < rec.game_ply(0) || a.ply - rec.game_ply(0) >= rec.size()) return out;
    const std::size_t i = a.ply - rec.game_ply(0);
    auto add = [&](std::size_t k) { out.emplace_back(rec.game_ply(k), to_fen(rec.position(k))); };
    const bool repetition =
        a.kind == audit::kind::threefold || a.kind == "fivefold_repetition" || a.kind == "threefold_repetition";
    const bool count = a.kind == audit::kind::fifty || a.kind == "seventy_five_moves" || a.kind == "fifty_moves";
    if (repetition) {
        for (const std::size_t k : rec.occurrence_indices(i)) add(k);
    } else if (count && rec.no_progress(i) <= i) {
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
    auto start = position_from_fen(r.start_fen, {.chess960 = true});
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
    return true;
}

}  // namespace arbiter::watch
