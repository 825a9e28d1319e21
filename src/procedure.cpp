// procedure.cpp — the table of procedure articles per rule set (RULES.md R-OFFER, R-TOUCH,
// R-CLAIM, R-FLAG, R-BOTHFLAGS, R-RESIGN, R-ILLEGAL, R-QPF; docs/session.md lists the [U] ones).
#include "arbiter/procedure.hpp"

namespace arbiter {

namespace {

// clang-format off
const std::array<ProcedureRules, 8> table = {{
    // fide-2023
    {"4.3", "4.2.1", "9.1.2.1", "9.1.2.1, 11.5", "9.1.1", "5.2.3", "9.4", "9.5.1", "9.5.3", "9.5.3", "5.1.2",
     "6.9", "A.5.3", "III.3.1", false, "7.5.5", 2, {120, 60, 60}, "A.5.4", "III.5", true, false, 120},
    // fide-2018
    {"4.3", "4.2.1", "9.1.2.1", "9.1.2.1, 11.5", "9.1.1", "5.2.3", "9.4", "9.5.1", "9.5.3", "9.5.3", "5.1.2",
     "6.9", "6.9", "III.3.1", false, "7.5.5", 2, {120, 120, 60}, nullptr, "III.5", true, false, 120},
    // fide-2014
    {"4.3", "4.2", "9.1b", "9.1b, 11.5", "9.1a", "5.2c", "9.4", "9.5a", "9.5c", "9.5c", "5.1b",
     "6.9", "6.9", "III.3.1", false, "7.5b", 2, {120, 120, 60}, nullptr, "G.5", true, false, 120},
    // fide-2009
    {"4.3", "4.2", "9.1b", "9.1b, 12.6", "9.1a", "5.2c", "9.4", "9.5a", "9.5b", "9.5b", "5.1b",
     "6.10", "6.10", "6.11", false, "7.4b", 3, {120, 120, 120}, nullptr, "10.2", false, true, 120},
    // fide-2005
    {"4.3", "4.2", "9.1b", "9.1b, 12.6", nullptr, "5.2c", nullptr, "9.5a", "9.5b", "9.5b", "5.1b",
     "6.10", "6.10", "6.11", false, "7.4b", 3, {120, 120, 120}, nullptr, "10.2", false, true, 120},
    // fide-online: a platform has no touch-move, no illegal moves and a server clock.
    {nullptr, nullptr, "9.1.2.1", "9.1.2.1", "9.1.1", "5.2.3", nullptr, "9.5.1", "9.5.3", "9.5.3", "5.1.2",
     "6.9", "6.9", nullptr, false, nullptr, 0, {0, 0, 0}, nullptr, nullptr, true, false, 0},
    // uscf
    {"10B", "10C", "14B", "14B3", nullptr, "14B", nullptr, "14C2", "14C6", "14F2", "4B",
     "13C, 14E", "13C, 14E", "14G", true, "11A", 0, {120, 120, 120}, nullptr, "Variation 14H", true, false, 0},
    // iccf: correspondence chess has no touch-move, clocks per move or over-the-board claims.
    {nullptr, nullptr, "9.1", "9.1", nullptr, "5.2.3", nullptr, "9.5", "9.5", "9.5", "5.1.2",
     "6.9", "6.9", nullptr, false, nullptr, 0, {0, 0, 0}, nullptr, nullptr, false, false, 0},
}};
// clang-format on

}  // namespace

const ProcedureRules& procedure_rules(RuleSetId id) noexcept { return table[static_cast<std::size_t>(id)]; }

}  // namespace arbiter
