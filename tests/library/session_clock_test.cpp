// The clock: time-control parsing (PGN TimeControl plus delay extensions), the Laws' time
// categories (A.1, B.1), Fischer increment, Bronstein and simple delay, several periods,
// pausing, and flag falls.
#include <gtest/gtest.h>

#include "arbiter/clock.hpp"

namespace arbiter {
namespace {

TimeControl tc(const std::string& text) {
    auto t = parse_time_control(text);
    EXPECT_TRUE(t) << text << ": " << (t ? "" : t.error().message);
    return t ? *t : TimeControl{};
}

TEST(TimeControl, ParsesThePgnForms) {
    const auto a = tc("300");
    ASSERT_EQ(a.periods.size(), 1u);
    EXPECT_EQ(a.periods[0].base_ms, 300'000);
    EXPECT_EQ(a.periods[0].moves, 0);
    EXPECT_EQ(a.periods[0].bonus, Bonus::none);

    const auto b = tc("40/5400+30:1800+30");
    ASSERT_EQ(b.periods.size(), 2u);
    EXPECT_EQ(b.periods[0].moves, 40);
    EXPECT_EQ(b.periods[0].base_ms, 5'400'000);
    EXPECT_EQ(b.periods[0].bonus, Bonus::increment);
    EXPECT_EQ(b.periods[0].bonus_ms, 30'000);
    EXPECT_EQ(b.periods[1].moves, 0);
    EXPECT_EQ(b.periods[1].base_ms, 1'800'000);

    EXPECT_EQ(tc("7200d5").periods[0].bonus, Bonus::delay);
    EXPECT_EQ(tc("900b10").periods[0].bonus, Bonus::bronstein);
    EXPECT_EQ(tc("900b10").periods[0].bonus_ms, 10'000);
}

TEST(TimeControl, RoundTrips) {
    for (const char* t : {"300", "5400+30", "40/5400+30:1800+30", "7200d5", "900b10", "40/7200:20/3600:1800", "0+1"})
        EXPECT_EQ(to_string(tc(t)), t);
}

TEST(TimeControl, RefusesWhatItCannotRun) {
    for (const char* bad : {"", "?", "-", "*60", "40/", "abc", "300+", "300x5", "40/5400:1800:20", "0", "1001/60",
                            "300:", "99999999", "300+9999"}) {
        auto t = parse_time_control(bad);
        EXPECT_FALSE(t) << bad;
        if (!t) EXPECT_FALSE(t.error().message.empty());
    }
    EXPECT_NE(parse_time_control("40/5400:1800:20").error().message.find("only the last period"), std::string::npos);
}

TEST(TimeControl, DerivesTheCategoryOfTheLaws) {
    // B.1: 10 minutes or less is blitz; A.1: more than 10 and less than 60 is rapid; time plus
    // 60 times the increment.
    EXPECT_EQ(derive_time_category(tc("300")), TimeCategory::blitz);
    EXPECT_EQ(derive_time_category(tc("180+2")), TimeCategory::blitz);
    EXPECT_EQ(derive_time_category(tc("600")), TimeCategory::blitz);
    EXPECT_EQ(derive_time_category(tc("601")), TimeCategory::rapid);
    EXPECT_EQ(derive_time_category(tc("600+1")), TimeCategory::rapid);
    EXPECT_EQ(derive_time_category(tc("900+10")), TimeCategory::rapid);
    EXPECT_EQ(derive_time_category(tc("3599")), TimeCategory::rapid);
    EXPECT_EQ(derive_time_category(tc("3600")), TimeCategory::standard);
    EXPECT_EQ(derive_time_category(tc("5400+30")), TimeCategory::standard);
    EXPECT_EQ(derive_time_category(tc("40/5400+30:1800+30")), TimeCategory::standard);
}

TEST(Clock, FischerIncrementAfterEachMove) {
    Clock c(tc("60+5"));
    c.start(Color::white, 0);
    EXPECT_EQ(c.remaining(Color::white, 10'000), 50'000);
    c.press(Color::white, 10'000);
    EXPECT_EQ(c.remaining(Color::white, 10'000), 55'000);
    EXPECT_EQ(c.running(), Color::black);
    EXPECT_EQ(c.remaining(Color::black, 12'000), 58'000);
    EXPECT_EQ(c.moves_completed(Color::white), 1);
}

TEST(Clock, BronsteinGivesBackUpToTheDelay) {
    Clock c(tc("60b5"));
    c.start(Color::white, 0);
    c.press(Color::white, 3'000);
    EXPECT_EQ(c.remaining(Color::white, 3'000), 60'000);
    c.press(Color::black, 13'000);
    EXPECT_EQ(c.remaining(Color::black, 13'000), 55'000);
}

TEST(Clock, SimpleDelayWaitsBeforeCountingDown) {
    Clock c(tc("60d5"));
    c.start(Color::white, 0);
    EXPECT_EQ(c.remaining(Color::white, 3'000), 60'000);
    EXPECT_EQ(c.remaining(Color::white, 10'000), 55'000);
    EXPECT_FALSE(c.flag_down(Color::white, 64'999));
    ASSERT_TRUE(c.flag_fell_at(Color::white, 70'000));
    EXPECT_EQ(*c.flag_fell_at(Color::white, 70'000), 65'000);
    c.press(Color::white, 4'000 + 0);  // a press earlier than the queries above is still valid input
    EXPECT_EQ(c.remaining(Color::white, 4'000), 60'000);
}

TEST(Clock, PeriodsAddTheirTimeWhenTheMovesAreMade) {
    Clock c(tc("2/60:30"));
    c.start(Color::white, 0);
    c.press(Color::white, 10'000);
    c.press(Color::black, 10'000);
    EXPECT_FALSE(c.in_last_period(Color::white));
    c.press(Color::white, 20'000);
    EXPECT_EQ(c.remaining(Color::white, 20'000), 60'000 - 20'000 + 30'000);
    EXPECT_EQ(c.period_index(Color::white), 1u);
    EXPECT_TRUE(c.in_last_period(Color::white));
    EXPECT_FALSE(c.in_last_period(Color::black));
}

TEST(Clock, FortyMovesInNinetyMinutesThenThirtyWithThirtySecondsFromMoveOne) {
    Clock c(tc("40/5400+30:1800+30"));
    c.start(Color::white, 0);
    std::int64_t t = 0;
    for (int move = 1; move <= 40; ++move) {
        c.press(Color::white, t += 60'000);
        if (move < 40) EXPECT_EQ(c.period_index(Color::white), 0u);
        c.press(Color::black, t += 1'000);
    }
    EXPECT_EQ(c.remaining(Color::white, t), 5'400'000 - 40 * 60'000 + 40 * 30'000 + 1'800'000);
    EXPECT_EQ(c.remaining(Color::black, t), 5'400'000 - 40 * 1'000 + 40 * 30'000 + 1'800'000);
    EXPECT_TRUE(c.in_last_period(Color::white));
    EXPECT_EQ(c.moves_completed(Color::black), 40);
}

TEST(Clock, ALastPeriodWithAMoveCountRepeats) {
    Clock c(tc("1/60"));
    c.start(Color::white, 0);
    c.press(Color::white, 10'000);
    EXPECT_EQ(c.remaining(Color::white, 10'000), 110'000);
    c.press(Color::black, 10'000);
    c.press(Color::white, 20'000);
    EXPECT_EQ(c.remaining(Color::white, 20'000), 160'000);
}

TEST(Clock, PausedTimeIsNotCharged) {
    Clock c(tc("60"));
    c.start(Color::white, 0);
    c.pause(10'000);
    EXPECT_TRUE(c.paused());
    EXPECT_EQ(c.remaining(Color::white, 45'000), 50'000);
    EXPECT_FALSE(c.flag_down(Color::white, 1'000'000));
    c.resume(50'000);
    c.press(Color::white, 60'000);
    EXPECT_EQ(c.remaining(Color::white, 60'000), 40'000);
}

TEST(Clock, PressingAPausedClockResumesIt) {
    Clock c(tc("60"));
    c.start(Color::white, 0);
    c.pause(5'000);
    c.press(Color::white, 30'000);
    EXPECT_FALSE(c.paused());
    EXPECT_EQ(c.remaining(Color::white, 30'000), 55'000);
    EXPECT_EQ(c.remaining(Color::black, 40'000), 50'000);
}

TEST(Clock, AFallenFlagStaysDownAndGetsNoMoreTime) {
    Clock c(tc("60+5"));
    c.start(Color::white, 0);
    EXPECT_EQ(c.remaining(Color::white, 70'000), 0);
    EXPECT_EQ(*c.flag_fell_at(Color::white, 70'000), 60'000);
    c.press(Color::white, 70'000);
    EXPECT_EQ(c.remaining(Color::white, 70'000), 0);
    EXPECT_TRUE(c.flag_down(Color::white, 80'000));
    c.add(Color::white, 120'000, 80'000);
    EXPECT_EQ(c.remaining(Color::white, 80'000), 0);
    EXPECT_FALSE(c.flag_down(Color::black, 80'000));
    EXPECT_EQ(*c.flag_fell_at(Color::black, 200'000), 130'000);
}

TEST(Clock, ANewPeriodClearsTheFlag) {
    Clock c(tc("1/60:60"));
    c.start(Color::white, 0);
    c.press(Color::white, 70'000);  // fell at 60 s, then completed the period's one move
    EXPECT_FALSE(c.flag_down(Color::white, 70'000));
    EXPECT_EQ(c.remaining(Color::white, 70'000), 60'000);
}

TEST(Clock, AddAndSet) {
    Clock c(tc("300"));
    c.start(Color::white, 0);
    c.add(Color::black, 120'000, 1'000);
    EXPECT_EQ(c.remaining(Color::black, 1'000), 420'000);
    c.set(Color::white, 60'000, 10'000);
    EXPECT_EQ(c.remaining(Color::white, 10'000), 60'000);
    EXPECT_EQ(c.remaining(Color::white, 20'000), 50'000);
    c.stop(25'000);
    EXPECT_FALSE(c.running());
    EXPECT_EQ(c.remaining(Color::white, 99'000), 45'000);
}

TEST(Clock, Formats) {
    EXPECT_EQ(format_clock(0), "0:00.0");
    EXPECT_EQ(format_clock(9'999), "0:09.9");
    EXPECT_EQ(format_clock(65'000), "1:05");
    EXPECT_EQ(format_clock(3'723'000), "1:02:03");
    EXPECT_EQ(format_pgn_clock(65'400), "0:01:05");
    EXPECT_EQ(format_pgn_clock(5'430'000), "1:30:30");
}

}  // namespace
}  // namespace arbiter
