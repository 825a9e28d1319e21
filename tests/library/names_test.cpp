// The name tables (names.hpp): every value of every tabled enum has a distinct name that reads
// back to it, unknown names are refused, and the tables agree with the data built from them
// (rule-set names, the procedure rows, the endings shared by the rules and procedure layers).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "arbiter/audit.hpp"
#include "arbiter/claims.hpp"
#include "arbiter/procedure.hpp"
#include "arbiter/session.hpp"

namespace arbiter {
namespace {

template <class E>
void expect_round_trip(std::size_t count) {
    EXPECT_EQ(enum_count<E>, count);
    std::set<std::string> seen;
    for (E v : enum_values<E>()) {
        const std::string name = enum_name(v);
        EXPECT_NE(name, "?");
        EXPECT_TRUE(seen.insert(name).second) << "duplicate name " << name;
        EXPECT_EQ(parse_enum<E>(name), v) << name;
    }
    EXPECT_EQ(parse_enum<E>(""), std::nullopt);
    EXPECT_EQ(parse_enum<E>("no-such-name"), std::nullopt);
    EXPECT_STREQ(enum_name(static_cast<E>(count)), "?");
}

TEST(Names, EveryTableRoundTrips) {
    expect_round_trip<RuleSetId>(8);
    expect_round_trip<TimeCategory>(3);
    expect_round_trip<DrawEffect>(4);
    expect_round_trip<TerminationKind>(7);
    expect_round_trip<ClaimKind>(2);
    expect_round_trip<EventType>(23);
    expect_round_trip<ForfeitReason>(4);
    expect_round_trip<QuickplayDecision>(3);
    expect_round_trip<EndKind>(15);
    expect_round_trip<audit::FindingType>(5);
}

TEST(Names, TheLastEventTypeParses) {
    // The old parse loop stopped at a fixed value; the table has no such bound.
    EXPECT_EQ(parse_event_type("resume"), EventType::resume);
    EXPECT_EQ(parse_event_type("retract"), EventType::retract);
    EXPECT_EQ(parse_event_type("quickplay_ruling"), EventType::quickplay_ruling);
    EXPECT_STREQ(event_type_name(EventType::illegal_position), "illegal_position");
}

TEST(Names, RuleSetsAndProcedureRowsFollowTheTable) {
    for (RuleSetId id : enum_values<RuleSetId>()) {
        EXPECT_EQ(rule_set(id).id, id);
        EXPECT_STREQ(rule_set(id).name, enum_name(id));
        EXPECT_EQ(procedure_rules(id).id, id);
        EXPECT_EQ(parse_rule_set(rule_set(id).name), id);
    }
    EXPECT_EQ(all_rule_sets().size(), rule_set_count);
}

TEST(Names, EndingsOfTheRulesLayerKeepTheirNamesInTheSession) {
    for (TerminationKind k : enum_values<TerminationKind>())
        EXPECT_STREQ(end_kind_name(end_kind_of(k)), termination_name(k));
}

TEST(Names, HelpListsComeFromTheTable) {
    EXPECT_EQ(enum_name_list<TimeCategory>(), "standard, rapid or blitz");
    EXPECT_EQ(enum_name_list<TimeCategory>(" or ", TimeCategory::standard), "standard (default), rapid or blitz");
    EXPECT_EQ(enum_name_list<RuleSetId>(", ", RuleSetId::fide_2023),
              "fide-2023 (default), fide-2018, fide-2014, fide-2009, fide-2005, fide-online, uscf, iccf");
}

}  // namespace
}  // namespace arbiter
