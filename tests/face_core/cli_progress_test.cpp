// cli_progress_test.cpp — the audit's progress line (issue 17.15): the ETA is over all the inputs,
// computed from the bytes done over every file, and no ETA before the first audited game.
#include <gtest/gtest.h>

#include "audit/audit_output.hpp"

namespace {

using arbiter::face::progress_line;

constexpr std::uint64_t MB = 1'000'000;

TEST(AuditProgress, EtaCountsEveryInput) {
    // Four inputs of 66 MB: the first read in 10 s leaves three, 30 s at that rate (not "ETA 0 s").
    EXPECT_EQ(progress_line(66 * MB, 4 * 66 * MB, 1000, 10.0), "66.0 of 264.0 MB, 1000 games, 100 games/s, ETA 30 s");
    EXPECT_EQ(progress_line(132 * MB, 4 * 66 * MB, 2000, 20.0), "132.0 of 264.0 MB, 2000 games, 100 games/s, ETA 20 s");
    EXPECT_EQ(progress_line(264 * MB, 264 * MB, 4000, 40.0), "264.0 of 264.0 MB, 4000 games, 100 games/s, ETA 0 s");
}

TEST(AuditProgress, NoEtaBeforeTheFirstGame) {
    EXPECT_EQ(progress_line(MB, 10 * MB, 0, 0.5), "1.0 of 10.0 MB, 0 games, 0 games/s");
    EXPECT_EQ(progress_line(0, 10 * MB, 0, 0.0), "0.0 of 10.0 MB, 0 games, 0 games/s");
}

TEST(AuditProgress, UnknownTotalHasNoEta) {
    // Standard input or a pipe among the inputs: the total is unknown.
    EXPECT_EQ(progress_line(5 * MB, 0, 50, 1.0), "5.0 MB, 50 games, 50 games/s");
}

}  // namespace
