// The journal: many sessions in one SQLite file, appends that are checked and durable, replay
// that rebuilds each session exactly, and files that are refused — never written — when they
// are not journals or are damaged.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "arbiter/journal.hpp"
#include "journal_test_util.hpp"
#include "session_test_util.hpp"

namespace arbiter::testing {
namespace {

namespace fs = std::filesystem;

std::string bytes_of(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

void write_bytes(const std::string& path, const std::string& data) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << data;
}

// A journal with two sessions holding a few events each; returns the live summaries.
std::vector<std::string> fill(const std::string& path) {
    Journal j = open_or_die(path);
    std::vector<std::string> out;
    for (const char* moves : {"e4 e5 Nf3", "d4 d5"}) {
        auto s = JournaledSession::create(j, Game::config(RuleSetId::fide_2023, "", "300+2"));
        EXPECT_TRUE(s);
        std::istringstream in(moves);
        std::string m;
        std::int64_t t = 0;
        while (in >> m) EXPECT_FALSE(s->apply(mv(m, t += 1000)));
        out.push_back(s->session().summary());
    }
    return out;
}

TEST(Journal, ManySessionsInOneFileReplayExactly) {
    TempDir dir;
    const std::string path = dir.file("games.arbiter");
    const auto live = fill(path);
    Journal j = open_or_die(path, Journal::Mode::open_existing);
    auto ids = j.sessions();
    ASSERT_TRUE(ids);
    ASSERT_EQ(*ids, (std::vector<SessionId>{1, 2}));
    for (SessionId id : *ids) {
        auto stored = j.load(id);
        ASSERT_TRUE(stored);
        auto s = replay(*stored);
        ASSERT_TRUE(s) << s.error().message;
        EXPECT_EQ(s->summary(), live[static_cast<std::size_t>(id - 1)]);
    }
    EXPECT_EQ(j.load(7).error().code, JournalError::Code::no_such_session);
}

TEST(Journal, TheDatabaseIsInWalModeWithFullSync) {
    TempDir dir;
    const std::string path = dir.file("j.db");
    fill(path);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, nullptr);
    ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
    EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)), "wal");
    sqlite3_finalize(st);
    sqlite3_close(db);
}

TEST(Journal, ARefusedEventIsNotWritten) {
    TempDir dir;
    const std::string path = dir.file("j.db");
    Journal j = open_or_die(path);
    auto s = JournaledSession::create(j, Game::config(RuleSetId::fide_2023));
    ASSERT_TRUE(s);
    ASSERT_FALSE(s->apply(mv("e4", 1000)));
    const std::string before = s->session().summary();
    const auto err = s->apply(mv("e4", 2000));
    ASSERT_TRUE(err);
    EXPECT_EQ(err->code, JournalError::Code::refused);
    EXPECT_EQ(s->session().summary(), before);
    EXPECT_EQ(j.load(s->id())->events.size(), 1u);
}

TEST(Journal, AConcurrentWriterIsDetected) {
    TempDir dir;
    const std::string path = dir.file("j.db");
    Journal a = open_or_die(path);
    Journal b = open_or_die(path, Journal::Mode::open_existing);
    auto s1 = JournaledSession::create(a, Game::config(RuleSetId::fide_2023));
    ASSERT_TRUE(s1);
    auto s2 = JournaledSession::open(b, s1->id());
    ASSERT_TRUE(s2);
    ASSERT_FALSE(s1->apply(mv("e4", 1000)));
    const auto err = s2->apply(mv("d4", 1000));
    ASSERT_TRUE(err);
    EXPECT_EQ(err->code, JournalError::Code::conflict);
    EXPECT_TRUE(s2->session().moves().empty());
    EXPECT_EQ(a.load(s1->id())->events.size(), 1u);
}

TEST(Journal, MissingAndEmptyFiles) {
    TempDir dir;
    const std::string missing = dir.file("missing.db");
    EXPECT_EQ(Journal::open(missing, Journal::Mode::open_existing).error().code, JournalError::Code::missing_file);
    EXPECT_FALSE(fs::exists(missing));
    const std::string empty = dir.file("empty.db");
    write_bytes(empty, "");
    EXPECT_EQ(Journal::open(empty, Journal::Mode::open_existing).error().code, JournalError::Code::not_a_journal);
    EXPECT_EQ(fs::file_size(empty), 0u);
    EXPECT_TRUE(Journal::open(empty, Journal::Mode::create_if_missing));
    EXPECT_TRUE(Journal::open(empty, Journal::Mode::open_existing));
}

// A file that is refused is left byte for byte as it was, and no WAL files appear beside it.
void expect_refused_untouched(const std::string& path, JournalError::Code code, const std::string& says) {
    const std::string before = bytes_of(path);
    for (auto mode : {Journal::Mode::open_existing, Journal::Mode::create_if_missing}) {
        auto j = Journal::open(path, mode);
        ASSERT_FALSE(j) << path;
        EXPECT_EQ(j.error().code, code) << j.error().message;
        EXPECT_NE(j.error().message.find(says), std::string::npos) << j.error().message;
        EXPECT_EQ(j.error().message.find('\n'), std::string::npos);
    }
    EXPECT_EQ(bytes_of(path), before);
    EXPECT_FALSE(fs::exists(path + "-wal") && fs::file_size(path + "-wal") > 0);
}

TEST(Journal, ATextFileIsRefused) {
    TempDir dir;
    const std::string path = dir.file("notes.txt");
    write_bytes(path, "1. e4 e5 2. Nf3 Nc6\n");
    expect_refused_untouched(path, JournalError::Code::not_a_journal, "not an SQLite database");
    const std::string tiny = dir.file("tiny");
    write_bytes(tiny, "x");
    expect_refused_untouched(tiny, JournalError::Code::not_a_journal, "not an arbiter journal");
}

TEST(Journal, AnotherSqliteDatabaseIsRefused) {
    TempDir dir;
    const std::string path = dir.file("other.db");
    sql(path, "CREATE TABLE accounts(id INTEGER, balance INTEGER); INSERT INTO accounts VALUES (1, 100)");
    expect_refused_untouched(path, JournalError::Code::not_a_journal, "not an arbiter journal");
    const std::string blank = dir.file("blank.db");
    sql(blank, "PRAGMA user_version = 3");  // a valid database with no tables
    expect_refused_untouched(blank, JournalError::Code::not_a_journal, "not an arbiter journal");
}

TEST(Journal, ANewerFormatIsRefused) {
    TempDir dir;
    const std::string path = dir.file("j.db");
    fill(path);
    sql(path, "PRAGMA user_version = 99");
    expect_refused_untouched(path, JournalError::Code::newer_format, "newer arbiter");
}

TEST(Journal, ADamagedJournalIsRefused) {
    TempDir dir;
    const std::string path = dir.file("j.db");
    fill(path);
    std::string data = bytes_of(path);
    ASSERT_GE(data.size(), 4096u * 2);
    // Scribble over the second page (a table's b-tree page).
    for (std::size_t i = 4096 + 8; i < 4096 + 400; ++i) data[i] = static_cast<char>(i * 7);
    write_bytes(path, data);
    expect_refused_untouched(path, JournalError::Code::corrupt, "damaged");
}

TEST(Journal, ATruncatedJournalIsRefused) {
    TempDir dir;
    const std::string path = dir.file("j.db");
    fill(path);
    std::string data = bytes_of(path);
    write_bytes(path, data.substr(0, data.size() / 2 + 100));
    const std::string before = bytes_of(path);
    auto j = Journal::open(path, Journal::Mode::open_existing);
    ASSERT_FALSE(j);
    EXPECT_EQ(j.error().code, JournalError::Code::corrupt) << j.error().message;
    EXPECT_EQ(bytes_of(path), before);
}

TEST(Journal, ATamperedEventFailsTheReplayCheck) {
    TempDir dir;
    const std::string path = dir.file("j.db");
    fill(path);
    // Move the second event later in time: the clocks it produces differ from the recorded digest.
    sql(path, "UPDATE events SET event = replace(event, 'at=2000', 'at=2500') WHERE session_id = 1 AND seq = 2");
    Journal j = open_or_die(path, Journal::Mode::open_existing);
    auto s = JournaledSession::open(j, 1);
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().code, JournalError::Code::replay);
    EXPECT_NE(s.error().message.find("event 2"), std::string::npos) << s.error().message;
    // A gap in the numbering is damage.
    sql(path, "DELETE FROM events WHERE session_id = 2 AND seq = 1");
    EXPECT_EQ(j.load(2).error().code, JournalError::Code::corrupt);
    // An undecodable row too.
    sql(path, "UPDATE events SET event = 'move at=1 bogus=1' WHERE session_id = 1 AND seq = 1");
    EXPECT_EQ(j.load(1).error().code, JournalError::Code::corrupt);
}

}  // namespace
}  // namespace arbiter::testing
