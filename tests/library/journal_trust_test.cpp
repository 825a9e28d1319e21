// The journal's trust (issue 64): who entered each record and when, named users with roles and
// tokens kept only as hashes, deleted sessions, and the hash chain that finds a row edited,
// removed or inserted with sqlite3 — tried as an attacker with file access would.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "arbiter/journal.hpp"
#include "journal_test_util.hpp"
#include "session_test_util.hpp"

namespace arbiter::testing {
namespace {

// Two sessions (moves by alice and bob), a user, a deleted third session.
void fill(const std::string& path) {
    Journal j = open_or_die(path);
    for (const char* by : {"alice", "bob"}) {
        auto s = JournaledSession::create(j, Game::config(RuleSetId::fide_2023, "", "300+2"), nullptr, by);
        ASSERT_TRUE(s);
        std::int64_t t = 0;
        for (const char* m : {"e4", "e5", "Nf3"}) ASSERT_FALSE(s->apply(mv(m, t += 1000), by));
    }
    ASSERT_TRUE(j.add_user(User{.name = "deputy", .role = Role::arbiter, .sections = {"Open A"}}, "chief"));
    auto third = JournaledSession::create(j, Game::config(RuleSetId::fide_2023), nullptr, "alice");
    ASSERT_TRUE(third);
    ASSERT_FALSE(j.remove(third->id(), "chief"));
}

ChainReport verify(const std::string& path, std::string_view head = {}) {
    Journal j = open_or_die(path, Journal::Mode::read_only);
    auto r = j.verify(head);
    EXPECT_TRUE(r) << (r ? "" : r.error().message);
    return *r;
}

TEST(JournalTrust, EveryRecordSaysWhoEnteredItAndWhen) {
    TempDir dir;
    const std::string path = dir.file("j.arbiter");
    const auto before =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    fill(path);
    Journal j = open_or_die(path, Journal::Mode::read_only);
    auto s = j.load(2);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->created.by, "bob");
    EXPECT_GE(s->created.unix_ms, before);
    ASSERT_EQ(s->entered.size(), 3u);
    for (const auto& e : s->entered) {
        EXPECT_EQ(e.by, "bob");
        EXPECT_GE(e.unix_ms, s->created.unix_ms);
    }
}

TEST(JournalTrust, ADeletedSessionIsNeitherListedNorLoadedNorWritten) {
    TempDir dir;
    const std::string path = dir.file("j.arbiter");
    fill(path);
    Journal j = open_or_die(path, Journal::Mode::open_existing);
    EXPECT_EQ(*j.sessions(), (std::vector<SessionId>{1, 2}));
    const auto gone = j.load(3);
    ASSERT_FALSE(gone);
    EXPECT_EQ(gone.error().code, JournalError::Code::no_such_session);
    EXPECT_NE(gone.error().message.find("deleted by chief"), std::string::npos) << gone.error().message;
    Event e = mv("e4", 1000);
    EXPECT_EQ(j.append(3, 1, e, 0)->code, JournalError::Code::no_such_session);
    EXPECT_EQ(j.remove(3, "chief")->code, JournalError::Code::no_such_session);
    EXPECT_EQ(j.remove(99, "chief")->code, JournalError::Code::no_such_session);
}

TEST(JournalTrust, UsersHaveRolesAndTokensStoredOnlyAsHashes) {
    TempDir dir;
    const std::string path = dir.file("j.arbiter");
    Journal j = open_or_die(path);
    EXPECT_TRUE(j.users()->empty());
    auto chief = j.add_user(User{.name = "Marta", .role = Role::chief}, "setup");
    auto viewer = j.add_user(User{.name = "screen", .role = Role::viewer}, "Marta");
    auto deputy = j.add_user(User{.name = "دستیار", .role = Role::arbiter, .boards = {"1-10", "12"}}, "Marta");
    ASSERT_TRUE(chief && viewer && deputy);
    // 256 random bits each, in hex, all different.
    for (const auto* t : {&*chief, &*viewer, &*deputy}) {
        EXPECT_EQ(t->size(), 64u);
        EXPECT_EQ(t->find_first_not_of("0123456789abcdef"), std::string::npos);
    }
    EXPECT_EQ((std::set<std::string>{*chief, *viewer, *deputy}).size(), 3u);
    EXPECT_EQ(j.user_by_token(*deputy)->value().name, "دستیار");
    EXPECT_EQ(j.user_by_token(*deputy)->value().boards, (std::vector<std::string>{"1-10", "12"}));
    EXPECT_EQ(j.user_by_token(*viewer)->value().role, Role::viewer);
    EXPECT_FALSE(j.user_by_token("0123")->has_value());
    EXPECT_FALSE(j.user_by_token(std::string(*chief).replace(0, 1, "x"))->has_value());
    // Names are never reused; bad names and scopes are refused.
    EXPECT_EQ(j.add_user(User{.name = "Marta", .role = Role::viewer}, "x").error().code,
              JournalError::Code::user_exists);
    for (const char* bad : {"", " lead", "a,b", "tab\there"})
        EXPECT_EQ(j.add_user(User{.name = bad}, "x").error().code, JournalError::Code::bad_user) << bad;
    EXPECT_EQ(j.add_user(User{.name = "v2", .role = Role::viewer, .sections = {"A"}}, "x").error().code,
              JournalError::Code::bad_user);
    // The file holds no token, only hashes.
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    sqlite3_close(db);
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), {});
    std::ifstream wal(path + "-wal", std::ios::binary);
    const std::string log((std::istreambuf_iterator<char>(wal)), {});
    for (const auto* t : {&*chief, &*viewer, &*deputy}) {
        EXPECT_EQ(bytes.find(*t), std::string::npos);
        EXPECT_EQ(log.find(*t), std::string::npos);
    }
    // Revoked: refused at once, on another connection too; listed with who revoked it.
    Journal other = open_or_die(path, Journal::Mode::read_only);
    const auto version = other.data_version();
    EXPECT_FALSE(j.revoke_user("screen", "Marta"));
    EXPECT_NE(other.data_version(), version);
    EXPECT_FALSE(other.user_by_token(*viewer)->has_value());
    EXPECT_FALSE(j.revoke_user("screen", "Marta"));  // again: nothing to do
    EXPECT_EQ(j.revoke_user("nobody", "Marta")->code, JournalError::Code::no_such_user);
    const auto users = other.users();
    ASSERT_EQ(users->size(), 3u);
    EXPECT_EQ((*users)[1].name, "screen");
    ASSERT_TRUE((*users)[1].revoked);
    EXPECT_EQ((*users)[1].revoked->by, "Marta");
}

TEST(JournalTrust, AWholeChainVerifies) {
    TempDir dir;
    const std::string path = dir.file("j.arbiter");
    fill(path);
    const ChainReport r = verify(path);
    EXPECT_TRUE(r.whole()) << r.problem;
    // 3 sessions, 6 events, a user, a deletion.
    EXPECT_EQ(r.records, 11u);
    EXPECT_EQ(r.head.size(), 64u);
    Journal j = open_or_die(path, Journal::Mode::read_only);
    EXPECT_EQ(*j.head(), r.head);
    EXPECT_TRUE(verify(path, r.head).head_found);
    EXPECT_FALSE(verify(path, std::string(64, 'a')).head_found);
}

// Each edit an attacker could make with sqlite3, and what verify() says of it.
struct Tamper {
    const char* name;
    const char* statement;
    const char* named;  // in the problem
};

TEST(JournalTrust, RowsChangedRemovedOrInsertedOutsideArbiterAreFound) {
    const Tamper cases[] = {
        {"event edited", "UPDATE events SET event = replace(event, 'e5', 'e6') WHERE session_id = 1 AND seq = 2",
         "session 1, event 2 was changed"},
        {"author edited", "UPDATE events SET entered_by = 'carol' WHERE session_id = 2 AND seq = 3",
         "session 2, event 3 was changed"},
        {"time edited", "UPDATE events SET entered_ms = entered_ms + 1 WHERE session_id = 2 AND seq = 1",
         "session 2, event 1 was changed"},
        {"event removed", "DELETE FROM events WHERE session_id = 2 AND seq = 3", "session 2, event 3 was removed"},
        {"event inserted",
         "INSERT INTO events SELECT session_id, 4, at_ms + 1, event, digest, entered_ms, entered_by FROM events "
         "WHERE session_id = 1 AND seq = 3",
         "session 1, event 4 was inserted"},
        {"session config edited", "UPDATE sessions SET config = replace(config, '300', '600') WHERE id = 1",
         "session 1 (its creation) was changed"},
        {"deletion undone", "UPDATE sessions SET deleted_ms = NULL, deleted_by = NULL WHERE id = 3",
         "session 3 (its deletion) was removed"},
        {"session deleted by hand", "UPDATE sessions SET deleted_ms = 1, deleted_by = 'x' WHERE id = 2",
         "session 2 (its deletion) was changed outside arbiter"},
        {"role raised", "UPDATE users SET role = 'chief' WHERE name = 'deputy'", "user 'deputy' was changed"},
        {"user inserted",
         "INSERT INTO users (name, role, sections, boards, token_hash, created_ms, created_by) VALUES ('mallory', "
         "'chief', '', '', 'ab', 1, 'x')",
         "user 'mallory' was inserted"},
        {"chain record removed", "DELETE FROM ledger WHERE n = 4", "record 4 of the chain was removed"},
        {"chain hash edited", "UPDATE ledger SET hash = 'ab' || substr(hash, 3) WHERE n = 5", "was changed"},
    };
    for (const Tamper& c : cases) {
        TempDir dir;
        const std::string path = dir.file("j.arbiter");
        fill(path);
        sql(path, c.statement);
        const ChainReport r = verify(path);
        EXPECT_FALSE(r.whole()) << c.name;
        EXPECT_NE(r.problem.find(c.named), std::string::npos) << c.name << ": " << r.problem;
    }
}

TEST(JournalTrust, AHistoryRewrittenWholeIsFoundAgainstAPublishedHead) {
    TempDir dir;
    const std::string path = dir.file("j.arbiter");
    fill(path);
    const std::string published = verify(path).head;
    // An attacker removes the last event of session 2 and its chain record, and the deletion
    // after it: the chain that is left is whole, but the published head is not in it.
    sql(path,
        "DELETE FROM ledger WHERE n >= (SELECT n FROM ledger WHERE kind = 'event' AND ref = '2/3');"
        "DELETE FROM events WHERE session_id = 2 AND seq = 3; DELETE FROM sessions WHERE id = 3;"
        "DELETE FROM users");
    const ChainReport r = verify(path, published);
    EXPECT_TRUE(r.whole()) << r.problem;
    EXPECT_FALSE(r.head_found);
}

TEST(JournalTrust, AFormatOneJournalIsChainedWhenFirstOpenedForWriting) {
    TempDir dir;
    const std::string path = dir.file("old.arbiter");
    // A journal as format 1 wrote it: its two tables, the old columns only.
    sql(path,
        "CREATE TABLE sessions (id INTEGER PRIMARY KEY AUTOINCREMENT, config TEXT NOT NULL);"
        "CREATE TABLE events (session_id INTEGER NOT NULL REFERENCES sessions(id), seq INTEGER NOT NULL CHECK (seq "
        ">= 1), at_ms INTEGER NOT NULL, event TEXT NOT NULL, digest INTEGER NOT NULL, PRIMARY KEY (session_id, "
        "seq)) WITHOUT ROWID; PRAGMA application_id = 1095909972; PRAGMA user_version = 1; PRAGMA journal_mode = "
        "WAL;");
    {
        // Its rows written through today's code on a copy, then moved into the old layout.
        const std::string donor = dir.file("donor.arbiter");
        Journal d = open_or_die(donor);
        auto s = JournaledSession::create(d, Game::config(RuleSetId::fide_2023));
        ASSERT_TRUE(s);
        ASSERT_FALSE(s->apply(mv("e4", 1000)));
        ASSERT_FALSE(s->apply(mv("e5", 2000)));
        sql(path, "ATTACH '" + donor +
                      "' AS d; INSERT INTO sessions SELECT id, config FROM d.sessions;"
                      "INSERT INTO events SELECT session_id, seq, at_ms, event, digest FROM d.events;");
    }
    {
        Journal ro = open_or_die(path, Journal::Mode::read_only);
        auto s = ro.load(1);
        ASSERT_TRUE(s) << s.error().message;
        EXPECT_EQ(s->events.size(), 2u);
        EXPECT_EQ(s->entered[0].by, "");
        EXPECT_FALSE(ro.verify()->whole());  // not chained yet: said so
        EXPECT_TRUE(ro.users()->empty());
    }
    {
        Journal rw = open_or_die(path, Journal::Mode::open_existing);
        auto s = JournaledSession::open(rw, 1);
        ASSERT_TRUE(s);
        ASSERT_FALSE(s->apply(mv("Nf3", 3000), "late"));
    }
    const ChainReport r = verify(path);
    EXPECT_TRUE(r.whole()) << r.problem;
    EXPECT_EQ(r.records, 4u);
    Journal j = open_or_die(path, Journal::Mode::read_only);
    EXPECT_EQ(j.load(1)->entered.back().by, "late");
}

TEST(JournalTrust, AFormatOneJournalThatCannotBeUpgradedIsRefusedUnchanged) {
    TempDir dir;
    const std::string path = dir.file("odd.arbiter");
    // Format 1's marks, but an events table without the columns format 1 wrote (not WAL either).
    sql(path,
        "CREATE TABLE sessions (id INTEGER PRIMARY KEY AUTOINCREMENT, config TEXT NOT NULL);"
        "CREATE TABLE events (session_id INTEGER, seq INTEGER, at_ms INTEGER, PRIMARY KEY (session_id, seq)) "
        "WITHOUT ROWID; INSERT INTO sessions (config) VALUES ('session'); INSERT INTO events VALUES (1, 1, 5);"
        "PRAGMA application_id = 1095909972; PRAGMA user_version = 1;");
    std::ifstream in(path, std::ios::binary);
    const std::string before((std::istreambuf_iterator<char>(in)), {});
    in.close();
    auto j = Journal::open(path, Journal::Mode::open_existing);
    ASSERT_FALSE(j);
    EXPECT_EQ(j.error().code, JournalError::Code::corrupt);
    EXPECT_NE(j.error().message.find("cannot be upgraded"), std::string::npos) << j.error().message;
    std::ifstream again(path, std::ios::binary);
    const std::string after((std::istreambuf_iterator<char>(again)), {});
    EXPECT_EQ(after, before);
}

}  // namespace
}  // namespace arbiter::testing
