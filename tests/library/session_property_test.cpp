// Property tests: random event streams, mostly legal, over every rule set and time control.
//  - a refused event changes nothing, in the session or in the journal;
//  - a session applied directly and the same session through the journal agree on every event;
//  - replaying the journal gives exactly the live state (summary, scoresheet and PGN).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>

#include "arbiter/journal.hpp"
#include "session_test_util.hpp"

namespace arbiter::testing {
namespace {

namespace fs = std::filesystem;

TEST(SessionProperty, RandomStreamsReplayToTheLiveState) {
    const fs::path path = fs::temp_directory_path() / ("arbiter-property-" + std::to_string(::getpid()) + ".db");
    fs::remove(path);
    std::map<SessionId, std::string> live_summary, live_pgn, live_sheet;
    std::map<EventType, int> accepted_by_type;
    int accepted = 0, refused = 0;
    {
        auto journal = Journal::open(path.string(), Journal::Mode::create_if_missing);
        ASSERT_TRUE(journal);
        for (std::uint64_t seed = 1; seed <= 28; ++seed) {
            std::mt19937_64 rng(seed);
            const SessionConfig cfg = random_config(rng);
            auto js = JournaledSession::create(*journal, cfg);
            ASSERT_TRUE(js) << js.error().message;
            auto direct = Session::create(cfg);
            ASSERT_TRUE(direct);
            std::int64_t t = 0;
            for (int k = 0; k < 160 && !js->session().ended(); ++k) {
                const Event e = random_event(js->session(), rng, t);
                const std::string before = js->session().summary();
                const std::size_t stored_before = js->session().events_applied();
                const auto err = js->apply(e);
                const auto direct_err = direct->apply(e);
                ASSERT_EQ(err.has_value(), direct_err.has_value()) << "seed " << seed << ": " << encode(e);
                if (err) {
                    ASSERT_EQ(err->code, JournalError::Code::refused) << err->message;
                    EXPECT_EQ(js->session().summary(), before)
                        << "seed " << seed << ": refused " << encode(e) << " changed the session";
                    EXPECT_EQ(js->session().events_applied(), stored_before);
                    t = js->session().last_event_ms();
                    ++refused;
                } else {
                    ++accepted;
                    ++accepted_by_type[e.type];
                }
                ASSERT_EQ(js->session().summary(), direct->summary()) << "seed " << seed << " after " << encode(e);
            }
            live_summary[js->id()] = js->session().summary();
            live_pgn[js->id()] = export_pgn(js->session());
            live_sheet[js->id()] = scoresheet_text(js->session());
        }
    }
    // Reopen the file and replay every session.
    auto journal = Journal::open(path.string(), Journal::Mode::open_existing);
    ASSERT_TRUE(journal) << journal.error().message;
    auto ids = journal->sessions();
    ASSERT_TRUE(ids);
    ASSERT_EQ(ids->size(), live_summary.size());
    for (SessionId id : *ids) {
        auto stored = journal->load(id);
        ASSERT_TRUE(stored) << stored.error().message;
        auto s = replay(*stored);
        ASSERT_TRUE(s) << s.error().message;
        EXPECT_EQ(s->summary(), live_summary[id]) << "session " << id;
        EXPECT_EQ(export_pgn(*s), live_pgn[id]);
        EXPECT_EQ(scoresheet_text(*s), live_sheet[id]);
    }
    fs::remove(path);
    fs::remove(path.string() + "-wal");
    fs::remove(path.string() + "-shm");
    // The streams exercise the procedure, not only moves.
    EXPECT_GT(accepted, 1000);
    EXPECT_GT(refused, 50);
    for (EventType t :
         {EventType::move, EventType::press, EventType::touch, EventType::adjust, EventType::offer, EventType::claim,
          EventType::flag, EventType::pause, EventType::resume, EventType::illegal_move})
        EXPECT_GT(accepted_by_type[t], 0) << event_type_name(t);
}

TEST(SessionProperty, EveryAcceptedStreamIsDeterministic) {
    // The same events from the same configuration always give the same state, whatever the
    // analyzer instance (sessions hold no hidden state such as wall-clock time).
    for (std::uint64_t seed = 100; seed < 400; ++seed) {
        std::mt19937_64 rng(seed);
        const SessionConfig cfg = random_config(rng);
        auto a = Session::create(cfg);
        auto b = Session::create(cfg);
        ASSERT_TRUE(a && b);
        std::int64_t t = 0;
        for (int k = 0; k < 120; ++k) {
            const Event e = random_event(*a, rng, t);
            const bool ok_a = !a->apply(e);
            const bool ok_b = !b->apply(e);
            ASSERT_EQ(ok_a, ok_b);
            if (!ok_a) t = a->last_event_ms();
        }
        EXPECT_EQ(a->digest(), b->digest());
    }
}

}  // namespace
}  // namespace arbiter::testing
