// flag.hpp — the ruling on a flag fall as a rule about a position: does the opponent of the
// player whose flag fell win, or is the game drawn because that opponent cannot mate (FIDE
// 6.9 / A.5.3: by any series of legal moves; US Chess 13C/14E: a lone king, or king and minor
// pieces without a forced win)? The live session (session.hpp) and the audit of recorded games
// (audit.hpp) both rule with it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "arbiter/position.hpp"
#include "arbiter/rules.hpp"
#include "arbiter/unwinnability.hpp"

namespace arbiter {

/// A flag-fall ruling: the article cited and one sentence for the players.
struct FlagRuling {
    bool opponent_wins;
    std::string article;
    std::string reason;
};

/// The ruling when `flagger`'s flag falls in `pos` under `rules` (the article of a FIDE rule set
/// depends on the time category: 6.9 in standard play, A.5.3 in rapid and blitz from 2023).
FlagRuling rule_flag_fall(const RuleSet& rules, TimeCategory category, const Unwinnability& analyzer,
                          const Position& pos, Color flagger);

/// US Chess 14E's "forced win": can `attacker` force checkmate within `moves` of its moves,
/// whoever is to move in `pos`? A bounded AND/OR search (a node budget keeps it small);
/// nullopt when the budget ran out.
std::optional<bool> forced_mate_within(const Position& pos, Color attacker, int moves,
                                       std::uint64_t node_budget = 400'000);

}  // namespace arbiter
