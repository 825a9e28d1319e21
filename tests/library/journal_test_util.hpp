// Helpers shared by the journal tests: a temporary directory, a journal opened or the test
// failed, and SQL run on the file behind the journal's back (as an attacker or a damaged disk would).
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>

#include "arbiter/journal.hpp"

namespace arbiter::testing {

struct TempDir {
    std::filesystem::path path;
    explicit TempDir(const std::string& prefix = "arbiter-journal-") {
        path = std::filesystem::temp_directory_path() /
               (prefix + std::to_string(::getpid()) + "-" + std::to_string(reinterpret_cast<std::uintptr_t>(this)));
        std::filesystem::create_directories(path);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string file(const std::string& name) const { return (path / name).string(); }
};

inline Journal open_or_die(const std::string& path, Journal::Mode mode = Journal::Mode::create_if_missing) {
    auto j = Journal::open(path, mode);
    EXPECT_TRUE(j) << (j ? "" : j.error().message);
    return std::move(*j);
}

inline void sql(const std::string& path, const std::string& statement) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* err = nullptr;
    EXPECT_EQ(sqlite3_exec(db, statement.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
    sqlite3_free(err);
    sqlite3_close(db);
}

}  // namespace arbiter::testing
