// The arbiter's decisions as session events (issue 18.3: set_clock 6.10, add_time 12.9.2, forfeit
// 6.7 / 11.3 / 12.9 / online 11.4.2, note) and corrections (18.2: retract), under each rule set
// where they differ.
#include <gtest/gtest.h>

#include <algorithm>

#include "session_test_util.hpp"

namespace arbiter::testing {
namespace {

const std::string bare_king_for_black = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";  // Black cannot mate

bool noted(const Session& s, const std::string& part) {
    return std::any_of(s.notes().begin(), s.notes().end(),
                       [&](const Note& n) { return n.text.find(part) != std::string::npos; });
}

Event retract(std::uint32_t count, std::int64_t at, bool force = false) {
    Event e = ev(EventType::retract, at);
    e.count = count;
    e.force = force;
    e.text = "entered by mistake";
    return e;
}

Event forfeit(Color loser, ForfeitReason reason, std::int64_t at) {
    Event e = by(ev(EventType::forfeit, at), loser);
    e.reason = reason;
    return e;
}

// ---------------------------------------------------------------------------------------------
// retract

TEST(Retract, WithdrawsTheLastEventsAndCountsItself) {
    Game g;
    g.play("e4 e5 Nf3");
    g.ok(retract(1, g.next()));
    EXPECT_EQ(g.s.moves().size(), 2u);
    EXPECT_EQ(g.s.events_applied(), 4u);  // nothing is deleted: the retract is an event too
    EXPECT_TRUE(noted(g.s, "withdraws the last event (move Nf3): entered by mistake"));
    g.ok(mv("Nc3", g.next()));  // White to move again
    EXPECT_EQ(g.s.moves().back().san, "Nc3");
    g.ok(retract(2, g.next()));  // Nc3 and e5: the earlier retract is not counted
    EXPECT_EQ(g.s.moves().size(), 1u);
    EXPECT_EQ(g.s.record().current().turn(), Color::black);
    EXPECT_TRUE(noted(g.s, "withdraws the last event (move Nf3)"));  // the earlier note stays
}

TEST(Retract, TheSameStateAsIfTheEventsHadNeverBeen) {
    Game a(Game::config(RuleSetId::fide_2023, "", "300+2"));
    a.play("e4 e5 Nf3 Nc6");
    a.ok(retract(2, a.next()));
    Game b(Game::config(RuleSetId::fide_2023, "", "300+2"));
    b.play("e4 e5");
    EXPECT_EQ(a.s.record().current(), b.s.record().current());
    EXPECT_EQ(a.s.moves().size(), b.s.moves().size());
    // The clock stands as it did after e5; White's face has been running since then.
    EXPECT_EQ(a.s.clock()->running(), Color::white);
    EXPECT_EQ(a.s.clock()->moves_completed(Color::white), 1);
}

TEST(Retract, RefusedPastARulingUnlessForced) {
    Game g(Game::config(RuleSetId::fide_2023, "", "300+2"));
    g.play("Nf3 Nf6 Ng1");
    g.ok(by(claim(ClaimKind::threefold, "Ng8", g.next()), Color::black));  // incorrect: White gets a minute
    const std::int64_t white_after_penalty = *g.s.clock_ms(Color::white);
    EXPECT_EQ(g.refused_code(retract(1, g.next())), EventError::Code::ruling_given);
    g.ok(retract(1, g.next(), true));
    EXPECT_FALSE(g.s.last_ruling());
    EXPECT_FALSE(g.s.must_play());
    EXPECT_LT(*g.s.clock_ms(Color::white), white_after_penalty);  // the penalty is withdrawn with it
}

TEST(Retract, ReopensAGameEndedByMistakeAndRefusesTooMany) {
    Game g;
    g.play("e4 e5");
    g.ok(by(ev(EventType::resign, g.next()), Color::black));
    ASSERT_TRUE(g.s.ended());
    EXPECT_EQ(g.refused_code(mv("Nf3", g.next())), EventError::Code::game_over);
    g.ok(retract(1, g.next()));
    EXPECT_FALSE(g.s.ended());
    g.ok(mv("Nf3", g.next()));
    EXPECT_EQ(g.refused_code(retract(4, g.next())), EventError::Code::nothing_to_retract);
    EXPECT_EQ(g.refused_code(retract(0, g.next())), EventError::Code::bad_value);
}

TEST(Retract, ReplaysFromItsTextFormToTheSameDigest) {
    Game g(Game::config(RuleSetId::fide_2023, "", "300+2"));
    std::vector<Event> accepted;
    auto apply = [&](const Event& e) {
        g.ok(e);
        accepted.push_back(e);
    };
    for (const char* m : {"e4", "e5", "Nf3"}) apply(mv(m, g.next()));
    apply(retract(1, g.next()));
    apply(mv("Bc4", g.next()));
    Game again(Game::config(RuleSetId::fide_2023, "", "300+2"));
    for (const Event& e : accepted) again.ok(*decode_event(encode(e)));
    EXPECT_EQ(again.s.digest(), g.s.digest());
    EXPECT_EQ(again.s.summary(), g.s.summary());
}

TEST(Retract, AcrossTheSharedBlocksOfTheEventsInForce) {
    // The events in force are kept in blocks of EventLog::block_events shared between copies of
    // the session: a retract that cuts into an earlier block, on a copy, leaves the original whole.
    auto config = Game::config(RuleSetId::fide_2023, "", "300+2");
    Game g(config), kept(config);
    for (const char* m : {"e4", "e5", "Nf3", "Nc6"}) {
        g.ok(mv(m, g.next()));
        kept.ok(mv(m, kept.next()));
    }
    const std::size_t pauses = 3 * EventLog::block_events + 6;  // the clock running after them
    for (std::size_t i = 0; i < pauses; ++i) g.ok(ev(i % 2 == 0 ? EventType::pause : EventType::resume, g.next()));
    g.ok(mv("Bb5", g.next()));
    const Session before = g.s;
    // Bb5 and every pause and resume after the second block's first event.
    const auto count = static_cast<std::uint32_t>(1 + pauses - (EventLog::block_events + 1 - 4));
    g.ok(retract(count, g.next()));
    EXPECT_EQ(g.s.moves().size(), 4u);
    EXPECT_EQ(g.s.record().current(), kept.s.record().current());
    EXPECT_TRUE(g.s.clock()->paused());  // the block's first pause still in force
    EXPECT_EQ(before.moves().size(), 5u);
    EXPECT_EQ(before.events_applied(), 4 + pauses + 1);
    EXPECT_FALSE(before.clock()->paused());  // the copy kept its own events
}

// ---------------------------------------------------------------------------------------------
// set_clock, add_time

TEST(SetClock, SetsTheFacesAndTheMoveCounts) {
    Game g(Game::config(RuleSetId::fide_2023, "", "40/5400+30:1800+30"));
    g.play("e4 e5");
    Event e = ev(EventType::set_clock, g.next());
    e.white_ms = 3'000'000;
    e.black_ms = 2'000'000;
    e.white_moves = 40;
    g.ok(e);
    EXPECT_EQ(*g.s.clock_ms(Color::white), 3'000'000);
    EXPECT_EQ(*g.s.clock_ms(Color::black), 2'000'000);
    EXPECT_EQ(g.s.clock()->moves_completed(Color::white), 40);
    EXPECT_EQ(g.s.clock()->period_index(Color::white), 1u);  // the second period: 40 moves made
    EXPECT_TRUE(noted(g.s, "The arbiter sets the clocks (6.10.2)"));
}

TEST(SetClock, RaisesAFlagThatFellByAWrongSetting) {
    Game g(Game::config(RuleSetId::fide_2023, "", "60"));
    g.ok(mv("e4", 1'000));
    ASSERT_TRUE(g.s.clock()->flag_down(Color::black, 70'000));
    Event e = ev(EventType::set_clock, 70'000);
    e.black_ms = 240'000;  // it should have been 5 minutes
    g.ok(e);
    EXPECT_FALSE(g.s.clock()->flag_down(Color::black, 70'000));
    EXPECT_EQ(g.refused_code(by(ev(EventType::flag, 71'000), Color::black)), EventError::Code::flag_not_fallen);
}

TEST(SetClock, ByRuleSet) {
    Event e = ev(EventType::set_clock, 1);
    e.white_ms = 1000;
    EXPECT_EQ(Game(Game::config(RuleSetId::fide_2023)).refused_code(e), EventError::Code::no_clock);
    EXPECT_EQ(Game(Game::config(RuleSetId::iccf, "", "300")).refused_code(e), EventError::Code::no_such_rule);
    EXPECT_EQ(Game(Game::config(RuleSetId::fide_online, "", "300")).refused_code(e), EventError::Code::no_such_rule);
    Game old(Game::config(RuleSetId::fide_2009, "", "300"));
    old.ok(e);
    EXPECT_TRUE(noted(old.s, "(6.10b)"));
    Event none = ev(EventType::set_clock, 2);
    EXPECT_EQ(old.refused_code(none), EventError::Code::missing_field);
    Event bad = ev(EventType::set_clock, 2);
    bad.black_ms = -5;
    EXPECT_EQ(old.refused_code(bad), EventError::Code::bad_value);
}

TEST(AddTime, GivesTimeWithTheArticleOfTheRuleSet) {
    for (auto [id, article] : {std::pair{RuleSetId::fide_2023, "12.9.2"}, std::pair{RuleSetId::fide_2014, "12.9b"},
                               std::pair{RuleSetId::fide_2009, "13.4b"}}) {
        Game g(Game::config(id, "", "300"));
        g.play("e4");
        Event e = by(ev(EventType::add_time, g.next()), Color::white);
        e.added_ms = 120'000;
        g.ok(e);
        EXPECT_EQ(*g.s.clock_ms(Color::white), 420'000) << article;
        EXPECT_TRUE(noted(g.s, std::string("gives White 2 minutes (") + article + ")")) << article;
    }
    Event e = by(ev(EventType::add_time, 1), Color::white);
    e.added_ms = 60'000;
    EXPECT_EQ(Game(Game::config(RuleSetId::iccf, "", "300")).refused_code(e), EventError::Code::no_such_rule);
    Game g(Game::config(RuleSetId::fide_2023, "", "60"));
    g.ok(mv("e4", 1'000));
    Event late = by(ev(EventType::add_time, 90'000), Color::black);  // Black's flag has fallen
    late.added_ms = 60'000;
    EXPECT_EQ(g.refused_code(late), EventError::Code::flag_fallen);
    Event zero = by(ev(EventType::add_time, 2'000), Color::white);
    zero.added_ms = 0;
    EXPECT_EQ(g.refused_code(zero), EventError::Code::bad_value);
}

// ---------------------------------------------------------------------------------------------
// forfeit, note

TEST(Forfeit, TheOpponentWinsEvenWithABareKingOverTheBoard) {
    // 6.7.1, 11.3.2.1: "the opponent shall win" — no exception for an opponent who cannot mate.
    for (ForfeitReason r : {ForfeitReason::default_time, ForfeitReason::device, ForfeitReason::conduct}) {
        Game g(Game::config(RuleSetId::fide_2023, bare_king_for_black));
        g.ok(forfeit(Color::white, r, g.next()));
        ASSERT_TRUE(g.s.ended());
        EXPECT_EQ(g.s.result(), "0-1") << enum_name(r);
        EXPECT_EQ(g.s.end()->kind, EndKind::forfeit);
    }
    Game g(Game::config(RuleSetId::fide_2023));
    g.ok(forfeit(Color::black, ForfeitReason::device, g.next()));
    EXPECT_EQ(g.s.end()->article, "11.3.2.1");
    EXPECT_EQ(g.refused_code(mv("e4", g.next())), EventError::Code::game_over);
}

TEST(Forfeit, ArticlesAndDrawsByRuleSet) {
    Game old(Game::config(RuleSetId::fide_2005));
    old.ok(forfeit(Color::white, ForfeitReason::device, old.next()));
    EXPECT_EQ(old.s.end()->article, "12.2b");
    Game y2014(Game::config(RuleSetId::fide_2014));
    y2014.ok(forfeit(Color::white, ForfeitReason::default_time, y2014.next()));
    EXPECT_EQ(y2014.s.end()->article, "6.7a");
    // Online, a disconnection loses unless the opponent cannot mate (11.4.2).
    Game online(Game::config(RuleSetId::fide_online, bare_king_for_black));
    online.ok(forfeit(Color::white, ForfeitReason::disconnect, online.next()));
    EXPECT_EQ(online.s.result(), "1/2-1/2");
    Game online_win(Game::config(RuleSetId::fide_online, bare_king_for_black));
    online_win.ok(forfeit(Color::black, ForfeitReason::disconnect, online_win.next()));
    EXPECT_EQ(online_win.s.result(), "1-0");
    EXPECT_EQ(
        Game(Game::config(RuleSetId::fide_2023)).refused_code(forfeit(Color::white, ForfeitReason::disconnect, 1)),
        EventError::Code::no_such_rule);
    EXPECT_EQ(Game(Game::config(RuleSetId::iccf)).refused_code(forfeit(Color::white, ForfeitReason::device, 1)),
              EventError::Code::no_such_rule);
    // 12.9.6: the arbiter decides the opponent's score.
    Game conduct(Game::config(RuleSetId::fide_2023));
    Event e = forfeit(Color::white, ForfeitReason::conduct, conduct.next());
    e.draw = true;
    conduct.ok(e);
    EXPECT_EQ(conduct.s.result(), "1/2-1/2");
    Event wrong = forfeit(Color::white, ForfeitReason::device, 1);
    wrong.draw = true;
    EXPECT_EQ(Game(Game::config(RuleSetId::fide_2023)).refused_code(wrong), EventError::Code::bad_value);
    EXPECT_EQ(Game().refused_code(ev(EventType::forfeit, 1)), EventError::Code::missing_field);
}

TEST(Note, GoesOnTheScoresheetAlsoAfterTheEnd) {
    Game g;
    g.play("e4");
    Event n = ev(EventType::note, g.next());
    n.text = "Black's phone rang; warned";
    g.ok(n);
    EXPECT_TRUE(noted(g.s, "Arbiter: Black's phone rang; warned"));
    g.ok(by(ev(EventType::resign, g.next()), Color::black));
    n.at_ms = g.next();
    n.text = "scoresheets signed";
    g.ok(n);
    EXPECT_TRUE(noted(g.s, "Arbiter: scoresheets signed"));
    EXPECT_EQ(g.refused_code(ev(EventType::note, g.next())), EventError::Code::missing_field);
}

TEST(Note, EveryTouchWithIntentIsOnTheScoresheet) {
    Game g;
    g.ok(touch("g1", g.next()));
    EXPECT_TRUE(noted(g.s, "White touches the knight on g1 (4.3)."));
    Game online(Game::config(RuleSetId::fide_2014));
    online.ok(touch("b1", online.next()));
    EXPECT_TRUE(noted(online.s, "White touches the knight on b1 (4.3)."));
}

TEST(ArbiterEvents, EveryNewEventReadsBackFromTheJournalText) {
    std::vector<Event> events;
    Event s = ev(EventType::set_clock, 1);
    s.white_ms = 5;
    s.black_moves = 3;
    events.push_back(s);
    Event a = by(ev(EventType::add_time, 2), Color::black);
    a.added_ms = 60'000;
    a.text = "a disturbance";
    events.push_back(a);
    Event f = forfeit(Color::white, ForfeitReason::conduct, 3);
    f.draw = true;
    f.text = "refused to shake hands";
    events.push_back(f);
    Event n = ev(EventType::note, 4);
    n.text = "a b=c %";
    events.push_back(n);
    events.push_back(retract(3, 5, true));
    for (const Event& e : events) {
        auto back = decode_event(encode(e));
        ASSERT_TRUE(back) << encode(e);
        EXPECT_EQ(*back, e) << encode(e);
    }
    EXPECT_FALSE(decode_event("move at=1 count=2"));     // a field of another type
    EXPECT_FALSE(decode_event("retract at=1 count=0"));  // out of range
    EXPECT_FALSE(decode_event("forfeit at=1 reason=tired"));
}

}  // namespace
}  // namespace arbiter::testing
