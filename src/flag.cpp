// flag.cpp — the flag-fall ruling (6.9, A.5.3; US Chess 13C/14E) and the forced-mate test of
// US Chess 14E.
#include "arbiter/flag.hpp"

#include "arbiter/movegen.hpp"

namespace arbiter {

std::optional<bool> forced_mate_within(const Position& pos, Color attacker, int moves, std::uint64_t node_budget) {
    struct Search {
        Color attacker;
        std::uint64_t nodes = 0, budget;
        bool out = false;

        // `p` with `left` attacker moves to mate in.
        bool wins(const Position& p, int left) {
            if (out || ++nodes > budget) {
                out = true;
                return false;
            }
            const MoveList legal = legal_moves(p);
            if (p.turn() != attacker) {
                if (legal.empty()) return p.in_check();
                for (Move m : legal)
                    if (!wins(p.after(m), left)) return false;
                return true;
            }
            if (left <= 0) return false;
            for (Move m : legal)
                if (is_checkmate(p.after(m))) return true;
            if (left == 1) return false;
            for (Move m : legal)
                if (wins(p.after(m), left - 1)) return true;
            return false;
        }
    } s{attacker, 0, node_budget};
    const bool found = s.wins(pos, moves);
    if (s.out) return std::nullopt;
    return found;
}

FlagRuling rule_flag_fall(const RuleSet& rules, TimeCategory category, const Unwinnability& analyzer,
                          const Position& pos, Color flagger) {
    const Color opp = ~flagger;
    const std::string article =
        category == TimeCategory::standard ? rules.articles.flag : rules.articles.flag_rapid_blitz;
    const std::string fell = side_title(flagger) + "'s flag fell";
    if (rules.flag_test == FlagTest::uscf_forced_win) {
        // US Chess 13C / 14E.
        const Bitboard others = pos.pieces(opp) & ~pos.pieces(opp, PieceType::king);
        const int knights = pos.pieces(opp, PieceType::knight).count();
        const int bishops = pos.pieces(opp, PieceType::bishop).count();
        if (others.empty())
            return {false, "14E1", fell + ", but " + side_title(opp) + " has only a lone king, so the game is drawn."};
        const bool one_minor = others.count() == 1 && knights + bishops == 1;
        const bool two_knights = others.count() == 2 && knights == 2 && pos.pieces(flagger, PieceType::pawn).empty();
        if (one_minor || two_knights) {
            constexpr int depth = 2;
            const auto mate = forced_mate_within(pos, opp, depth);
            const std::string what =
                one_minor ? (knights ? "king and knight" : "king and bishop") : "king and two knights";
            const std::string rule = one_minor ? "14E2" : "14E3";
            if (mate && *mate)
                return {true, "13C, " + rule,
                        fell + "; " + side_title(opp) + " has only " + what + " but a forced checkmate, so " +
                            side_title(opp) + " wins."};
            return {false, rule,
                    fell + ", but " + side_title(opp) + " has only " + what +
                        " and no forced win (no forced mate within " + std::to_string(depth) + " moves" +
                        (mate ? "" : " could be shown") + "), so the game is drawn."};
        }
        return {true, "13C", fell + "; " + side_title(opp) + " has mating material and wins on time."};
    }
    const MateVerdict v = analyzer.can_checkmate(pos, opp);
    if (v.answer == MateAbility::cannot_checkmate)
        return {false, article,
                fell + ", but " + side_title(opp) + " cannot checkmate by any series of legal moves (" + v.reason +
                    "), so the game is drawn."};
    std::string reason =
        fell + "; " + side_title(opp) + " can checkmate by some series of legal moves and wins on time.";
    if (v.answer == MateAbility::unknown)
        reason = fell + "; it could not be shown that " + side_title(opp) + " cannot checkmate (" + v.reason +
                 "), so " + side_title(opp) + " wins on time.";
    return {true, article, reason};
}

}  // namespace arbiter
