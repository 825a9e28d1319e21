// procedure.hpp — the claim procedure of a live game as data, per rule set: the articles a
// session cites for offers, agreement, touch-move, claims and their penalties, resignation,
// both flags, illegal moves and quickplay finishes, and the numbers that differ
// between versions (how many illegal moves lose, the illegal-move penalty). It complements
// RuleSet (rules.hpp), which holds the draw rules proper; like RuleSet it is read, never
// branched on by rule-set id. A null article means the rule set has no such rule (the session
// refuses the event). Articles marked [U] in docs/session.md were not confirmed from the text.
#pragma once

#include <array>

#include "arbiter/rules.hpp"

namespace arbiter {

/// One row per rule set, in the order of RuleSetId (procedure.cpp checks it at compile time).
struct ProcedureRules {
    RuleSetId id;
    const char* touch_move;        ///< 4.3: a piece touched with intent must be moved / captured
    const char* adjust;            ///< 4.2.1: "I adjust"
    const char* offer;             ///< 9.1.2.1: when and how to offer a draw
    const char* offer_irregular;   ///< an offer at another time: still valid, but noted
    const char* offer_ban;         ///< 9.1.1: the event's regulations forbid early offers
    const char* agreement;         ///< 5.2.3
    const char* claim_right_lost;  ///< 9.4: touching a piece loses the claim on this move (null: touching does not)
    const char* claim_pause;       ///< 9.5.1: the clock is paused during a claim
    const char* incorrect_claim;   ///< 9.5.3: the penalty, then the intended move must be played
    const char* incorrect_fifty_claim;  ///< the same for a 50-move claim where it differs (US Chess 14F2)
    const char* resignation;            ///< 5.1.2
    // The article of a single flag fall is a rule about the position: RuleSet::articles.flag.
    const char* both_flags;  ///< Guidelines III.3.1 (US Chess 14G)
    /// US Chess 14G/16T: both flags down in sudden death is a draw whichever fell first;
    /// FIDE: the flag the clock shows fell first decides, and III.3.1 applies only when the
    /// order cannot be established.
    bool both_flags_draw_in_sudden_death;
    const char* illegal_move;     ///< 7.5.5 (null: the rule set has no completed illegal moves, e.g. online)
    int illegal_moves_that_lose;  ///< the n-th completed illegal move loses (0 = none does)
    std::array<int, enum_count<TimeCategory>> illegal_move_penalty_s;  ///< seconds to the opponent, by time category
    const char* illegal_position;       ///< A.5.4: both kings in check or a pawn on the last rank (rapid/blitz)
    const char* quickplay;              ///< Guidelines III.5 / Article 10.2: claim with less than 2 minutes
    bool quickplay_needs_announcement;  ///< III.2.1: only if announced before the event
    bool quickplay_claim_is_offer;      ///< FIDE 2009 9.1(b)(3): a 10.2 claim is also a draw offer
    /// Seconds awarded to the opponent when the arbiter rejects or postpones a quickplay claim
    /// (III.5.2, III.5.3; US Chess 14H2d instead lets the director deduct up to a minute).
    int quickplay_penalty_s;
    /// The arbiter's decisions (docs/session.md; null: the rule set has none, e.g. no clock to set).
    const char* set_clock;  ///< 6.10.2: clocks set after a malfunction or a wrong setting
    const char* add_time;   ///< 12.9.2: time given to a player
    /// `forfeit`, by ForfeitReason: default time (6.7.1), device (11.3.2.1), conduct (12.9.6),
    /// online disconnection (11.4.2); null where the rule set has no such forfeit.
    std::array<const char*, 4> forfeit;
    /// Where the Laws give a draw instead when the opponent cannot checkmate by any series of
    /// legal moves (the online disconnection forfeit); elsewhere the opponent wins.
    std::array<bool, 4> forfeit_cannot_mate_draw;
};

/// The procedure of a rule set.
const ProcedureRules& procedure_rules(RuleSetId id) noexcept;

}  // namespace arbiter
