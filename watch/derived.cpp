// derived.cpp — what the hall monitor derives from a game as a whole each time it changes: feed
// errors, clock tags at zero, a result that contradicts the position; each withdrawn when it no
// longer holds.
#include <set>

#include "arbiter/flag.hpp"
#include "hall_board.hpp"

namespace arbiter::watch {

namespace {

// Which of the audit's findings the hall reports as result_mismatch; the others it reports live,
// as game_over and claimable alerts. Every finding type is decided here: a new one fails to
// compile (the static_assert, and -Wswitch) until it is, instead of being dropped unseen.
static_assert(enum_count<audit::FindingType> == 5,
              "a new audit finding type: decide in is_result_finding whether the hall reports it");
constexpr bool is_result_finding(audit::FindingType t) {
    switch (t) {
        case audit::FindingType::result_contradicts_position:
        case audit::FindingType::timeout_unwinnable:
        case audit::FindingType::result_inconsistent: return true;
        case audit::FindingType::missed_automatic_draw:
        case audit::FindingType::claimable: return false;
    }
    return false;
}

}  // namespace

void Hall::update_derived(Board& b, const pgn::ParsedGame& g, bool in_progress, std::vector<Alert>& out) {
    auto emit = [&](Alert a) { return this->emit(b, std::move(a), out); };
    auto withdraw_if = [&](const std::function<bool(const Alert&)>& pred) { this->withdraw_if(b, pred, out); };
    GameRecord& rec = b.rec;
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
                  .kind = face::alert_kind::clock_tag,
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
        // Exact, as the live check of the board itself: a dead position is found wherever it is.
        audit::AuditOptions options = options_.audit;
        options.exact = true;
        const audit::GameAudit found = audit::audit_game(g, options, scratch);
        for (const auto& f : found.findings) {
            if (!is_result_finding(f.type)) continue;
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

}  // namespace arbiter::watch
