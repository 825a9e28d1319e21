// journal_chain.cpp — the journal: the head of the hash chain and its verification (journal.hpp).
#include <map>
#include <set>

#include "journal_sql.hpp"

namespace arbiter {

using namespace journal_sql;

std::int64_t Journal::data_version() const {
    auto v = pragma(db_, "PRAGMA data_version");
    return v ? number(*v) : -1;
}

Expected<std::string, JournalError> Journal::head() const {
    if (format_ < 2) return std::string();
    Stmt st(db_, "SELECT hash FROM ledger ORDER BY n DESC LIMIT 1");
    std::string h;
    if (st.step()) h = st.text(0);
    if (st.rc() != SQLITE_DONE && st.rc() != SQLITE_ROW)
        return Unexpected(sqlite_error(db_, st.rc(), "cannot read the journal's chain"));
    return h;
}

Expected<ChainReport, JournalError> Journal::verify(std::string_view head_asked) const {
    ChainReport report;
    if (format_ < 2) {
        report.problem = path_ +
                         " is a journal of format 1, written before records were chained: open it once for writing "
                         "(arbiter serve, or any session command that writes) to chain what it holds";
        report.broken_at = 1;
        return report;
    }
    if (auto err = exec(db_, "BEGIN", "cannot read " + path_)) return Unexpected(*err);
    struct End {
        sqlite3* db;
        ~End() { sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr); }
    } end{db_};
    // Every row as it would be hashed, by kind and reference.
    std::map<std::pair<std::string, std::string>, std::string> rows;
    auto read = [&](const char* sql, auto&& each) -> std::optional<JournalError> {
        Stmt st(db_, sql);
        while (st.step()) each(st);
        if (st.rc() != SQLITE_DONE) return sqlite_error(db_, st.rc(), "cannot read " + path_);
        return std::nullopt;
    };
    if (auto err = read(
            "SELECT id, config, created_ms, created_by, deleted_ms, deleted_by FROM sessions", [&](const Stmt& st) {
                const auto id = st.integer(0);
                rows[{"session", session_ref(id)}] = session_fields(id, st.text(1), st.integer(2), st.text(3));
                if (!st.null(4)) rows[{"delete", session_ref(id)}] = deletion_fields(id, st.integer(4), st.text(5));
            }))
        return Unexpected(*err);
    if (auto err = read(
            "SELECT session_id, seq, at_ms, event, digest, entered_ms, entered_by FROM events", [&](const Stmt& st) {
                rows[{"event", event_ref(st.integer(0), st.integer(1))}] = event_fields(
                    st.integer(0), st.integer(1), st.integer(2), st.text(3), st.integer(4), st.integer(5), st.text(6));
            }))
        return Unexpected(*err);
    if (auto err = read("SELECT name, role, sections, boards, token_hash, created_ms, created_by, revoked_ms, "
                        "revoked_by FROM users",
                        [&](const Stmt& st) {
                            rows[{"user", st.text(0)}] = user_fields(st.text(0), st.text(1), st.text(2), st.text(3),
                                                                     st.text(4), st.integer(5), st.text(6));
                            if (!st.null(7))
                                rows[{"revoke", st.text(0)}] = revocation_fields(st.text(0), st.integer(7), st.text(8));
                        }))
        return Unexpected(*err);

    auto describe = [](const std::string& kind, const std::string& ref) {
        if (kind == "event") {
            const auto slash = ref.find('/');
            return "session " + ref.substr(0, slash) + ", event " + ref.substr(slash + 1);
        }
        if (kind == "session") return "session " + ref + " (its creation)";
        if (kind == "delete") return "session " + ref + " (its deletion)";
        if (kind == "user") return "user '" + ref + "'";
        return "user '" + ref + "' (its revocation)";
    };
    auto broken = [&](std::uint64_t at, std::string problem) {
        if (report.whole()) {
            report.broken_at = at;
            report.problem = std::move(problem);
        }
    };
    std::string previous;
    std::set<std::pair<std::string, std::string>> chained;
    Stmt st(db_, "SELECT n, kind, ref, hash FROM ledger ORDER BY n");
    while (st.step()) {
        const auto n = st.integer(0);
        const std::string kind = st.text(1), ref = st.text(2), stored = st.text(3);
        ++report.records;
        if (n != static_cast<std::int64_t>(report.records))
            broken(report.records, "record " + std::to_string(report.records) + " of the chain was removed");
        const auto key = std::make_pair(kind, ref);
        const auto row = rows.find(key);
        if (!chained.insert(key).second)
            broken(report.records,
                   describe(kind, ref) + " is in the chain twice (record " + std::to_string(n) + " was inserted)");
        if (row == rows.end()) {
            broken(report.records, describe(kind, ref) + " was removed (chain record " + std::to_string(n) + ")");
        } else {
            const std::string expected = chain_hash(previous, n, kind, row->second);
            if (expected != stored)
                broken(report.records,
                       describe(kind, ref) + " was changed: it does not match chain record " + std::to_string(n));
        }
        if (!head_asked.empty() && stored == head_asked) report.head_found = true;
        previous = stored;
    }
    if (st.rc() != SQLITE_DONE) return Unexpected(sqlite_error(db_, st.rc(), "cannot read the journal's chain"));
    report.head = previous;
    for (const auto& [key, fields] : rows)
        if (!chained.count(key))
            broken(report.records + 1,
                   describe(key.first, key.second) + (key.first == "delete" || key.first == "revoke"
                                                          ? " was changed outside arbiter (not in the chain)"
                                                          : " was inserted outside arbiter (not in the chain)"));
    return report;
}

}  // namespace arbiter
