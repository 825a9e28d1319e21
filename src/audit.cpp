// audit.cpp — the per-game audit: replays the mainline into a GameRecord and reports findings.
#include "arbiter/audit.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include "arbiter/claims.hpp"
#include "arbiter/flag.hpp"
#include "arbiter/helpmate.hpp"
#include "arbiter/movegen.hpp"

namespace arbiter::audit {

namespace {

bool contains_ci(std::string_view hay, std::string_view needle) noexcept {
    if (needle.size() > hay.size()) return false;
    for (std::size_t i = 0; i + needle.size() <= hay.size(); ++i) {
        bool ok = true;
        for (std::size_t k = 0; k < needle.size() && ok; ++k) {
            char a = hay[i + k];
            if (a >= 'A' && a <= 'Z') a = static_cast<char>(a + 32);
            ok = a == needle[k];
        }
        if (ok) return true;
    }
    return false;
}

}  // namespace

bool is_online_game(const pgn::ParsedGame& game) noexcept {
    static constexpr std::string_view sites[] = {
        "lichess.org", "chess.com", "chess24", "playchess.com", "chesstempo", "worldchess.com", "internet chess club"};
    for (const char* tag : {"Site", "Event"}) {
        const auto v = game.tag(tag);
        if (!v) continue;
        // Lower-cased once (values of a usual length), then searched for each name.
        std::array<char, 128> low;
        if (v->size() <= low.size()) {
            for (std::size_t i = 0; i < v->size(); ++i) {
                const char a = (*v)[i];
                low[i] = a >= 'A' && a <= 'Z' ? static_cast<char>(a + 32) : a;
            }
            const std::string_view text(low.data(), v->size());
            for (auto s : sites)
                if (text.find(s) != std::string_view::npos) return true;
            continue;
        }
        for (auto s : sites)
            if (contains_ci(*v, s)) return true;
    }
    return false;
}

std::optional<TimeCategory> time_category_from_tag(std::string_view tc) noexcept {
    // First period only: "[moves/]base[+inc]".
    const auto colon = tc.find(':');
    if (colon != std::string_view::npos) tc = tc.substr(0, colon);
    const auto slash = tc.find('/');
    if (slash != std::string_view::npos) tc = tc.substr(slash + 1);
    const auto plus = tc.find('+');
    double base = 0, inc = 0;
    const auto num = [](std::string_view s, double& out) {
        if (s.empty()) return false;
        long long v = 0;
        const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
        if (r.ec != std::errc() || r.ptr != s.data() + s.size() || v < 0) return false;
        out = static_cast<double>(v);
        return true;
    };
    if (!num(tc.substr(0, plus), base)) return std::nullopt;
    if (plus != std::string_view::npos && !num(tc.substr(plus + 1), inc)) return std::nullopt;
    const double total = base + 60 * inc;
    if (total <= 600) return TimeCategory::blitz;
    if (total < 3600) return TimeCategory::rapid;
    return TimeCategory::standard;
}

RuleSetId rules_for_game(const pgn::ParsedGame& game, const AuditOptions& options) noexcept {
    if (options.rules) return *options.rules;
    if (is_online_game(game)) return RuleSetId::fide_online;
    if (const auto date = game.tag("Date"))
        if (const auto id = fide_rules_on(*date)) return *id;
    if (const auto date = game.tag("UTCDate"))
        if (const auto id = fide_rules_on(*date)) return *id;
    return RuleSetId::fide_2023;
}

namespace {

struct Chances {
    bool seen = false;
    std::uint32_t first_ply = 0;
    std::size_t first_index = 0;
    std::string first_move;  // intended kinds: the SAN of the move to write
    std::uint32_t count = 0;
    std::size_t last_index = 0;

    void add(std::uint32_t ply, std::size_t index, std::string move = {}) {
        if (!seen) {
            seen = true;
            first_ply = ply;
            first_index = index;
            first_move = std::move(move);
        }
        ++count;
        last_index = index;
    }
};

}  // namespace

namespace {

GameAudit audit_with(const pgn::ParsedGame& game, const AuditOptions& options, GameRecord& rec);

}  // namespace

namespace {

/// Dead by the automatic check of the live faces: both sides cannot checkmate.
bool dead_by_live_check(const Position& pos) {
    const Unwinnability& live = default_unwinnability();
    return live.ability(pos, Color::white) == MateAbility::cannot_checkmate &&
           live.ability(pos, Color::black) == MateAbility::cannot_checkmate;
}

/// The first index ≤ `last` of the record whose position the live check finds dead, given that
/// position `last` is dead. Deadness persists along a game (what cannot be reached from a
/// position cannot be reached from its successors), so a binary search finds it.
std::size_t first_dead(const GameRecord& rec, std::size_t last) {
    std::size_t lo = 0, hi = last;
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (dead_by_live_check(rec.position(mid)))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/// The replay's analyzer, but dead at one position: the audit's way of ending the game where the
/// live check would have ended it.
/// One per thread, so that the record the caller keeps never points at a destroyed analyzer.
class DeadAt final : public Unwinnability {
public:
    void set(const Position& dead, const Unwinnability& rest) noexcept {
        dead_ = dead;
        rest_ = &rest;
    }
    [[nodiscard]] MateVerdict can_checkmate(const Position& pos, Color side) const override {
        return rest_->can_checkmate(pos, side);
    }
    [[nodiscard]] MateAbility ability(const Position& pos, Color side) const override {
        return pos.same_position(dead_) ? MateAbility::cannot_checkmate : rest_->ability(pos, side);
    }

private:
    Position dead_;
    const Unwinnability* rest_ = &default_unwinnability();
};

}  // namespace

FinalCheck check_final_position(const Position& pos, bool exact) {
    FinalCheck c;
    c.analysed = exact || HelpmateAnalyzer::may_be_closed(pos);
    c.dead = c.analysed && dead_by_live_check(pos);
    return c;
}

GameAudit audit_game(const pgn::ParsedGame& game, const AuditOptions& options, GameRecord& rec) {
    if (options.analyzer) return audit_with(game, options, rec);
    // The replay's automatic check proves only what it can in nanoseconds (material, short
    // forced lines). Deadness persists, so the end of the game tells whether a dead position
    // arose: the final position (or the one where the game ended) is checked, and when it is
    // dead, the game is played again ending where the live check would have ended it.
    AuditOptions fast = options;
    fast.analyzer = &unwinnability_without_locked_check();
    GameAudit out = audit_with(game, fast, rec);
    if (!game.has_start) return out;
    const std::optional<Termination> end = rec.termination();
    // A game that ended in checkmate passed through no dead position (the mate was reachable).
    if (end && end->kind == TerminationKind::checkmate) return out;
    std::size_t first = 0;
    if (end && (end->kind == TerminationKind::stalemate || end->kind == TerminationKind::dead_position)) {
        // The replay's check proved the game over there, but the position before may already
        // have been dead unseen: every move stalemates or leaves no mating material (a forced
        // stalemate with queens, rooks and knights is no closed position for the fast gate). So
        // that position goes to the full analysis; deadness persists, so when it is alive no
        // earlier one was dead. (A stalemate ply itself comes before a dead position, PREC-2.)
        if (end->index == 0 || !dead_by_live_check(rec.position(end->index - 1))) return out;
        first = first_dead(rec, end->index - 1);
    } else {
        const std::size_t last = end ? end->index : rec.size() - 1;
        if (!check_final_position(rec.position(last), options.exact).dead) return out;
        first = first_dead(rec, last);
    }
    thread_local DeadAt analyzer;
    analyzer.set(rec.position(first), *fast.analyzer);
    fast.analyzer = &analyzer;
    return audit_with(game, fast, rec);
}

namespace {

GameAudit audit_with(const pgn::ParsedGame& game, const AuditOptions& options, GameRecord& rec) {
    GameAudit out;
    const RuleSet& rules = rule_set(rules_for_game(game, options));
    out.rules = &rules;
    RuleOptions ro = options.rule_options;
    if (options.time_category_from_tag)
        if (const auto tc = game.tag("TimeControl"))
            if (const auto cat = time_category_from_tag(*tc)) ro.time_category = *cat;
    out.time_category = ro.time_category;
    if (!game.has_start) return out;

    rec.reset(game.start, rules, ro, options.analyzer);
    const Articles& art = rules.articles;
    // Claim chances per side (index by Color) and kind.
    Chances three_now[2], three_int[2], fifty_now[2], fifty_int[2];
    const int tb = rules.fifty_rule_max_tablebase_pieces;

    // Called for each position before the next move is played (so it is neither mate nor
    // stalemate), and for the final position once the game is known not to have ended there.
    auto scan_chances = [&] {
        if (rec.termination_so_far()) return;
        const std::size_t i = rec.size() - 1;
        const Position& pos = rec.current();
        const int s = index(pos.turn());
        const std::uint32_t ply = rec.game_ply(i);
        const ClaimsNow now = claims_now(rec, i);
        if (now.threefold)
            three_now[s].add(ply, i);
        else if (rec.twice_seen_in_reach() && quiet_move_to_twice_seen(rec)) {
            const auto opts = threefold_options(rec);
            if (!opts.intended.empty()) three_int[s].add(ply, i, to_san(pos, opts.intended.front()));
        }
        const std::uint32_t np = rec.no_progress(i);
        const std::uint32_t limit = rec.fifty_limit_plies(pos);
        if (now.fifty) {
            fifty_now[s].add(ply, i);
        } else if (np + 1 == limit && !(tb > 0 && pos.occupied().count() <= tb)) {
            const auto opts = fifty_options(rec);
            if (!opts.intended.empty()) fifty_int[s].add(ply, i, to_san(pos, opts.intended.front()));
        }
    };

    // The reader resolved every ply to a legal move, and may have kept the positions too.
    const bool kept = game.after.size() == game.plies.size();
    for (std::size_t k = 0; k < game.plies.size(); ++k) {
        scan_chances();
        if (kept)
            rec.play_legal(game.plies[k].move, game.after[k]);
        else
            rec.play_legal(game.plies[k].move);
    }
    if (!rec.ended()) scan_chances();
    const std::size_t last = rec.size() - 1;
    out.plies = static_cast<std::uint32_t>(last);
    const std::string& result = game.result;
    const bool decisive = result == "1-0" || result == "0-1";
    const bool known_result = decisive || result == "1/2-1/2";

    if (const auto& t = rec.termination()) {
        const std::string kind = termination_name(t->kind);
        if (t->index < last) {
            out.findings.push_back(
                {FindingType::missed_automatic_draw, kind, rec.game_ply(t->index), std::nullopt, t->article,
                 "the game should have ended " +
                     (t->index == 0 ? std::string("at the start") : "after " + rec.move_label(t->index)) + " (" + kind +
                     ", " + t->result + ") but went on for " + std::to_string(last - t->index) +
                     (last - t->index == 1 ? " more ply" : " more plies")});
        }
        // Which of the two results (the Result tag, the termination marker) the ending contradicts.
        const std::string_view tag_result = game.tag("Result").value_or("");
        const bool tag_known = tag_result == "1-0" || tag_result == "0-1" || tag_result == "1/2-1/2";
        const bool marker_wrong = known_result && result != t->result;
        const bool tag_wrong = tag_known && tag_result != t->result;
        if (marker_wrong || tag_wrong) {
            const std::string which =
                marker_wrong && tag_wrong
                    ? (tag_result == result
                           ? "the Result tag and the termination marker say " + result
                           : "the Result tag says " + std::string(tag_result) + " and the termination marker " + result)
                : marker_wrong ? "the termination marker says " + result
                               : "the Result tag says " + std::string(tag_result);
            out.findings.push_back(
                {FindingType::result_contradicts_position, kind, rec.game_ply(t->index), std::nullopt, t->article,
                 which + " but the game ended " +
                     (t->index == 0 ? std::string("at the start") : "after " + rec.move_label(t->index)) + " by " +
                     kind + ", which makes it " + t->result});
        }
    } else if (decisive) {
        // Lost on time: the Termination tag says so, or the loser's last clock reads zero.
        const Color loser = result == "1-0" ? Color::black : Color::white;
        bool on_time = false;
        if (const auto term = game.tag("Termination"))
            on_time = contains_ci(*term, "time") && !contains_ci(*term, "normal");
        if (!on_time) {
            for (std::size_t k = game.plies.size(); k-- > 0;) {
                const Position& before = rec.position(k);  // the mover of ply k moved from here
                if (before.turn() != loser || game.plies[k].clk_ms < 0) continue;
                on_time = game.plies[k].clk_ms == 0;
                break;
            }
        }
        if (on_time) {
            // The same ruling a live session gives (6.9; US Chess 13C/14E with its forced-win test).
            const FlagRuling r = rule_flag_fall(rules, out.time_category, rec.analyzer(), rec.current(), loser);
            if (!r.opponent_wins)
                out.findings.push_back({FindingType::timeout_unwinnable, kind::flag, rec.game_ply(last), loser,
                                        rules.flag_test == FlagTest::helpmate ? "6.9" : r.article, r.reason});
        }
    }

    // The Result tag and the termination marker should be the same (PGN standard 8.1.1.7).
    if (const auto tag_result = game.tag("Result"); tag_result && !result.empty() && *tag_result != result)
        out.findings.push_back(
            {FindingType::result_inconsistent, kind::tag_vs_marker, rec.game_ply(last), std::nullopt, "PGN 8.1.1.7",
             "the Result tag says " + std::string(*tag_result) + " but the termination marker " + result});

    // Claimable draws: the first chance per side and kind, and how many went unused.
    const bool ended_drawn = result == "1/2-1/2" && !rec.ended();
    auto report = [&](Chances(&c)[2], const char* kind_name, const char* article, bool intended) {
        for (Color side : {Color::white, Color::black}) {
            const Chances& ch = c[index(side)];
            if (!ch.seen) continue;
            // A drawn game whose last position offered the chance probably ended by that claim.
            const bool used = ended_drawn && ch.last_index == last;
            std::string detail = std::to_string(ch.count) + (ch.count == 1 ? " chance" : " chances") + ", " +
                                 std::to_string(ch.count - (used ? 1 : 0)) + " unused; first ";
            detail += ch.first_index == 0 ? std::string("at the start") : "after " + rec.move_label(ch.first_index);
            if (intended) detail += ", writing " + rec.move_number_prefix(ch.first_index) + ch.first_move;
            Finding f{FindingType::claimable, kind_name, ch.first_ply, side, article, detail};
            f.chances = ch.count;
            f.unused = ch.count - (used ? 1 : 0);
            f.first_ply = ch.first_ply;
            if (intended) f.first_move = ch.first_move;
            out.findings.push_back(std::move(f));
        }
    };
    report(three_now, kind::threefold, art.threefold_now, false);
    report(three_int, kind::threefold_intended, art.threefold_intended, true);
    report(fifty_now, kind::fifty, art.fifty_now, false);
    report(fifty_int, kind::fifty_intended, art.fifty_intended, true);
    return out;
}

}  // namespace

}  // namespace arbiter::audit
