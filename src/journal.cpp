// journal.cpp — the SQLite journal of live sessions: opening and checking the file, sessions and their
// events (the users: journal_users.cpp; the hash chain: journal_chain.cpp; what they share: journal_sql.hpp).
//
// Durability: the database runs in WAL mode with synchronous=FULL, so each committed
// transaction is in the write-ahead log and fsync'ed before sqlite3_step() returns; an append
// is one transaction, and the caller applies the event only after it returned. A process killed
// at any moment leaves either the whole event or none of it. Safety: a file is checked before
// anything is written to it — the SQLite header, the application id, the format version and
// PRAGMA integrity_check — and a file that fails is refused, not repaired. (quick_check is not
// enough: it passes a page whose rows are out of primary-key order, and SQLite then fails to find
// a row just written; integrity_check costs about 40 ms on 200,000 events.)
#include "arbiter/journal.hpp"

#include "journal_sql.hpp"

#include "arbiter/text.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>

#include <charconv>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <unordered_map>

namespace arbiter {

using namespace journal_sql;

namespace {

constexpr int application_id = 0x41524254;  // "ARBT"
// 1: sessions and events. 2: who entered each record and when, deleted sessions, users, and the
// hash chain (ledger); a format-1 file is upgraded when it is first opened for writing.
constexpr int format_version = 2;

constexpr const char* schema = R"sql(
CREATE TABLE IF NOT EXISTS sessions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  config TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
  session_id INTEGER NOT NULL REFERENCES sessions(id),
  seq INTEGER NOT NULL CHECK (seq >= 1),
  at_ms INTEGER NOT NULL,
  event TEXT NOT NULL,
  digest INTEGER NOT NULL,
  PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;
)sql";

// Format 2 over format 1 (docs/session.md, "The file"): run on a new file too, after `schema`.
constexpr const char* schema_2 = R"sql(
ALTER TABLE sessions ADD COLUMN created_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN created_by TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN deleted_ms INTEGER;
ALTER TABLE sessions ADD COLUMN deleted_by TEXT;
ALTER TABLE events ADD COLUMN entered_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE events ADD COLUMN entered_by TEXT NOT NULL DEFAULT '';
CREATE TABLE users (
  name TEXT PRIMARY KEY,
  role TEXT NOT NULL,
  sections TEXT NOT NULL,
  boards TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  created_ms INTEGER NOT NULL,
  created_by TEXT NOT NULL,
  revoked_ms INTEGER,
  revoked_by TEXT
);
CREATE TABLE ledger (
  n INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  ref TEXT NOT NULL,
  hash TEXT NOT NULL
);
)sql";

std::optional<JournalError> validate(sqlite3* db, const std::string& path) {
    auto app = pragma(db, "PRAGMA application_id");
    if (!app) {
        if (app.error().code == JournalError::Code::not_a_journal || app.error().code == JournalError::Code::corrupt)
            return error(app.error().code, path + " is not a readable arbiter journal (" + app.error().message + ")");
        return app.error();
    }
    if (number(*app) != application_id)
        return error(JournalError::Code::not_a_journal, path + " is an SQLite database but not an arbiter journal");
    auto version = pragma(db, "PRAGMA user_version");
    if (!version) return version.error();
    if (number(*version) > format_version)
        return error(JournalError::Code::newer_format, path + " was written by a newer arbiter (journal format " +
                                                           *version + "; this one reads " +
                                                           std::to_string(format_version) + ")");
    {
        Stmt st(db, "PRAGMA integrity_check(1)");
        std::string first;
        if (st.step()) first = st.text(0);
        if (!st.ok()) return error(JournalError::Code::corrupt, path + " is damaged: " + sqlite3_errmsg(db));
        if (first != "ok") {
            for (char& c : first)
                if (c == '\n' || c == '\r') c = ';';
            return error(JournalError::Code::corrupt, path + " is damaged: " + first);
        }
    }
    Stmt tables(db,
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('sessions', 'events', 'users', "
                "'ledger')");
    const std::int64_t n = tables.step() ? tables.integer(0) : 0;
    if (!tables.ok() || n != (number(*version) >= 2 ? 4 : 2))
        return error(JournalError::Code::corrupt, path + " is an arbiter journal with tables missing");
    return std::nullopt;
}
}  // namespace

namespace {

// Why `path` cannot be a journal file, when the reason is in the path itself (a directory that
// does not exist, a symlink loop, a directory given for the file); nullopt when it can be
// opened (or created) as a file.
std::optional<JournalError> path_problem(const std::string& path, Journal::Mode mode) {
    namespace fs = std::filesystem;
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return error(JournalError::Code::bad_path, path + " is a directory, not a journal file");
        if (!S_ISREG(st.st_mode)) return error(JournalError::Code::not_a_journal, path + " is not a regular file");
        return std::nullopt;
    }
    const int err = errno;
    if (err == ELOOP)
        return error(JournalError::Code::bad_path, path + ": too many levels of symbolic links (a symlink loop?)");
    if (err == ENOTDIR)
        return error(JournalError::Code::bad_path, path + ": a component of the path is not a directory");
    if (err == EACCES)
        return error(JournalError::Code::bad_path,
                     path + ": permission denied (a directory on the way may not be searched)");
    if (err == ENAMETOOLONG) return error(JournalError::Code::bad_path, path + ": the file name is too long");
    if (err != ENOENT) return error(JournalError::Code::io, "cannot read " + path + ": " + std::strerror(err));
    // The file does not exist: is there a directory to hold it?
    std::error_code ec;
    fs::path dir = fs::path(path).parent_path();
    if (dir.empty()) dir = ".";
    if (fs::is_symlink(fs::symlink_status(path, ec)))
        return error(JournalError::Code::bad_path, path + " is a symbolic link to a file that does not exist");
    if (!fs::is_directory(fs::status(dir, ec)))
        return error(JournalError::Code::bad_path,
                     "directory " + dir.string() + " does not exist (for journal " + path + ")");
    if (mode != Journal::Mode::create_if_missing)
        return error(JournalError::Code::missing_file, "no journal at " + path);
    return std::nullopt;
}

// The size of `path`-wal, 0 when there is none.
std::uintmax_t wal_size(const std::string& path) {
    std::error_code ec;
    const auto n = std::filesystem::file_size(path + "-wal", ec);
    return ec ? 0 : n;
}

// "file:/abs/path?immutable=1": the database file alone, read without locks or its -wal.
std::string immutable_uri(const std::string& path) {
    std::error_code ec;
    std::string uri = "file:";
    for (unsigned char c : std::filesystem::absolute(path, ec).string()) {
        if (std::isalnum(c) || c == '/' || c == '.' || c == '-' || c == '_') {
            uri += static_cast<char>(c);
        } else {
            static constexpr char hex[] = "0123456789ABCDEF";
            uri += '%';
            uri += hex[c >> 4];
            uri += hex[c & 15];
        }
    }
    return uri + "?immutable=1";
}

// Every session's configuration and events as stored, for comparing two views of one file.
Expected<std::vector<std::vector<std::string>>, JournalError> contents(sqlite3* db) {
    std::vector<std::vector<std::string>> out;
    Stmt sessions(db, "SELECT id, config FROM sessions ORDER BY id");
    while (sessions.step()) out.push_back({std::to_string(sessions.integer(0)) + ":" + sessions.text(1)});
    if (sessions.rc() != SQLITE_DONE) return Unexpected(sqlite_error(db, sessions.rc(), "cannot list the sessions"));
    for (auto& rows : out) {
        Stmt ev(db, "SELECT seq, event, digest FROM events WHERE session_id = ? ORDER BY seq");
        ev.bind(1, number(rows.front().substr(0, rows.front().find(':'))));
        while (ev.step())
            rows.push_back(std::to_string(ev.integer(0)) + ":" + ev.text(1) + ":" + std::to_string(ev.integer(2)));
        if (ev.rc() != SQLITE_DONE) return Unexpected(sqlite_error(db, ev.rc(), "cannot read the events"));
    }
    return out;
}

// True when `path`-wal has frames and no process has the journal open (no -shm file): a log left
// behind, which check_wal must accept before SQLite may use it. Asked before opening (opening
// creates the -shm file).
bool stray_wal(const std::string& path) {
    std::error_code ec;
    return wal_size(path) > 0 && !std::filesystem::exists(path + "-shm", ec);
}

// A write-ahead log left beside a journal with no process using it (no -shm file) must belong to
// it: a journal only ever grows, so the journal seen with the log must hold every session and
// event of the journal seen without it (opened immutable, ignoring the log), unchanged. A log
// copied from another database rewrites existing rows or breaks the file; it is refused before
// anything is merged.
std::optional<JournalError> check_wal(sqlite3* db, const std::string& path) {
    const std::string foreign = path + "-wal does not belong to " + path +
                                " (a write-ahead log copied from another database?); move it away to open the journal";
    auto with_log = contents(db);
    if (!with_log) return error(JournalError::Code::foreign_wal, foreign + " [" + with_log.error().message + "]");
    sqlite3* bare = nullptr;
    const int rc = sqlite3_open_v2(immutable_uri(path).c_str(), &bare, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
    struct Close {
        sqlite3* db;
        ~Close() { sqlite3_close_v2(db); }
    } close{bare};
    if (rc != SQLITE_OK) return std::nullopt;  // the file alone cannot be read: nothing to compare
    auto without = contents(bare);
    if (!without) return std::nullopt;
    if (without->size() > with_log->size()) return error(JournalError::Code::foreign_wal, foreign);
    for (std::size_t i = 0; i < without->size(); ++i) {
        const auto& a = (*without)[i];
        const auto& b = (*with_log)[i];
        if (a.size() > b.size() || !std::equal(a.begin(), a.end(), b.begin()))
            return error(JournalError::Code::foreign_wal, foreign);
    }
    return std::nullopt;
}

}  // namespace

Expected<Journal, JournalError> Journal::open(const std::string& path, Mode mode, int busy_timeout_ms) {
    namespace fs = std::filesystem;
    if (auto problem = path_problem(path, mode)) return Unexpected(*problem);
    std::error_code ec;
    bool fresh = false;
    if (!fs::exists(fs::status(path, ec))) {
        fresh = true;
    } else {
        const auto size = fs::file_size(path, ec);
        if (ec) return Unexpected(error(JournalError::Code::io, "cannot read " + path + ": " + ec.message()));
        if (size == 0) {
            if (mode != Mode::create_if_missing)
                return Unexpected(error(JournalError::Code::not_a_journal, path + " is empty, not a journal"));
            fresh = true;
        } else {
            char header[16] = {};
            std::ifstream in(path, std::ios::binary);
            in.read(header, sizeof header);
            if (!in) {
                if (in.gcount() < static_cast<std::streamsize>(sizeof header) && in.eof())
                    return Unexpected(error(JournalError::Code::not_a_journal,
                                            path + " is not an arbiter journal (not an SQLite database)"));
                return Unexpected(error(JournalError::Code::io, "cannot read " + path));
            }
            if (std::memcmp(header, "SQLite format 3", 16) != 0)
                return Unexpected(error(JournalError::Code::not_a_journal,
                                        path + " is not an arbiter journal (not an SQLite database)"));
        }
    }

    const bool read_only = mode == Mode::read_only;
    const bool check_log = !fresh && stray_wal(path);
    auto connect = [&](const std::string& name, int flags) -> Expected<Journal, JournalError> {
        sqlite3* db = nullptr;
        const int rc = sqlite3_open_v2(name.c_str(), &db, flags, nullptr);
        Journal j(db, path);  // closes the handle on every return path
        if (rc != SQLITE_OK) return Unexpected(sqlite_error(db, rc, "cannot open " + path));
        sqlite3_extended_result_codes(db, 1);
        sqlite3_busy_timeout(db, busy_timeout_ms);
        // Nothing of a write-ahead log is merged into the file before the file and the log
        // passed the checks below (closing the last connection would otherwise checkpoint it).
        sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
        if (!fresh) {
            if (auto err = validate(db, path)) return Unexpected(*err);
            if (check_log)
                if (auto err = check_wal(db, path)) return Unexpected(*err);
        }
        return j;
    };
    auto opened =
        connect(path, read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (fresh ? SQLITE_OPEN_CREATE : 0));
    // A WAL-mode file that may only be read, in a directory where its -shm cannot be created:
    // with no -wal beside it, the file alone is the whole journal.
    if (!opened && read_only && opened.error().code == JournalError::Code::read_only && wal_size(path) == 0)
        opened = connect(immutable_uri(path), SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
    // A refused stray log stays as it was found: without the -shm file this open created.
    if (!opened && check_log) std::filesystem::remove(path + "-shm", ec);
    if (!opened && !read_only && opened.error().code == JournalError::Code::read_only)
        return Unexpected(error(JournalError::Code::read_only,
                                path + " may only be read here (no write permission on the file or its directory): " +
                                    opened.error().message));
    if (!opened) return Unexpected(opened.error());
    Journal journal = std::move(*opened);
    sqlite3* db = journal.db_;
    auto version = pragma(db, "PRAGMA user_version");
    if (!version) return Unexpected(version.error());
    journal.format_ = static_cast<int>(number(*version));
    if (read_only) return journal;
    // A format-1 journal is upgraded first, in the journal mode the file has: an upgrade that
    // fails (tables that are not what format 1 wrote) is rolled back and the file refused as it
    // was found, before anything else (the switch to WAL) has written to it.
    if (!fresh && journal.format_ < format_version) {
        Transaction tx(db);
        if (tx.begin_error()) return Unexpected(*tx.begin_error());
        auto now = pragma(db, "PRAGMA user_version");  // another process may have got there first
        if (!now) return Unexpected(now.error());
        if (number(*now) < 2) {
            // The new columns and tables, and its rows chained as they stand.
            auto refused = [&](const JournalError& e) {
                if (e.code == JournalError::Code::busy || e.code == JournalError::Code::read_only) return e;
                return error(JournalError::Code::corrupt, path + " is a journal of format 1 that cannot be upgraded (" +
                                                              e.message + "); it was left as it was");
            };
            if (auto err = exec(db, schema_2, "cannot upgrade the journal")) return Unexpected(refused(*err));
            if (auto err = chain_existing(db)) return Unexpected(refused(*err));
            const std::string v = "PRAGMA user_version = " + std::to_string(format_version);
            if (auto err = exec(db, v.c_str(), "cannot upgrade the journal")) return Unexpected(refused(*err));
        }
        if (auto err = tx.commit()) return Unexpected(*err);
        journal.format_ = format_version;
    }
    sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 0, nullptr);
    auto mode_now = pragma(db, "PRAGMA journal_mode = WAL");
    if (!mode_now) return Unexpected(mode_now.error());
    if (*mode_now != "wal")
        return Unexpected(error(JournalError::Code::io, path + ": cannot switch to WAL mode (" + *mode_now + ")"));
    if (auto err = exec(db, "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON", path)) return Unexpected(*err);

    if (fresh) {
        Transaction tx(db);
        if (tx.begin_error()) return Unexpected(*tx.begin_error());
        auto app = pragma(db, "PRAGMA application_id");
        if (!app) return Unexpected(app.error());
        if (number(*app) == 0) {
            // Still empty (no concurrent creator got there first): lay out the schema.
            auto tables = pragma(db, "SELECT count(*) FROM sqlite_master");
            if (!tables) return Unexpected(tables.error());
            if (number(*tables) != 0)
                return Unexpected(error(JournalError::Code::not_a_journal,
                                        path + " is an SQLite database but not an arbiter journal"));
            if (auto err = exec(db, schema, "cannot create the journal tables")) return Unexpected(*err);
            if (auto err = exec(db, schema_2, "cannot create the journal tables")) return Unexpected(*err);
            const std::string ids = "PRAGMA application_id = " + std::to_string(application_id) +
                                    "; PRAGMA user_version = " + std::to_string(format_version);
            if (auto err = exec(db, ids.c_str(), "cannot mark the journal")) return Unexpected(*err);
        } else if (number(*app) != application_id) {
            return Unexpected(
                error(JournalError::Code::not_a_journal, path + " is an SQLite database but not an arbiter journal"));
        }
        if (auto err = tx.commit()) return Unexpected(*err);
        journal.format_ = format_version;
    }
    return journal;
}

Expected<Journal, JournalError> Journal::reader() const {
    sqlite3* db = nullptr;
    const int rc = sqlite3_open_v2(path_.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    Journal j(db, path_);
    if (rc != SQLITE_OK) return Unexpected(sqlite_error(db, rc, "cannot open " + path_));
    sqlite3_extended_result_codes(db, 1);
    sqlite3_busy_timeout(db, 10'000);
    j.format_ = format_;
    return j;
}

// The statements every append runs, prepared once a connection (SQLITE_PREPARE_PERSISTENT) rather
// than once a transaction: a group commit of a few events paid more for preparing than for its rows.
struct Journal::Statements {
    std::unordered_map<const char*, std::pair<sqlite3_stmt*, int>> by_sql;  // keyed by the literal's address
    ~Statements() {
        for (auto& [sql, st] : by_sql) sqlite3_finalize(st.first);
    }
};

std::pair<sqlite3_stmt*, int> Journal::statement(const char* sql) const {
    auto& cache = statements_;
    if (!cache) cache = std::make_unique<Statements>();
    auto [it, fresh] = cache->by_sql.try_emplace(sql);
    if (fresh) {
        sqlite3_stmt* st = nullptr;
        const int rc = sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, nullptr);
        it->second = {st, rc};
        if (rc != SQLITE_OK) {  // not kept: the next call tries again
            sqlite3_finalize(st);
            cache->by_sql.erase(it);
            return {nullptr, rc};
        }
    }
    return it->second;
}

Journal::Journal(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}

Journal::Journal(Journal&& other) noexcept
    : db_(other.db_), statements_(std::move(other.statements_)), path_(std::move(other.path_)), format_(other.format_) {
    other.db_ = nullptr;
}

Journal& Journal::operator=(Journal&& other) noexcept {
    if (this != &other) {
        statements_.reset();
        if (db_) sqlite3_close_v2(db_);
        db_ = other.db_;
        statements_ = std::move(other.statements_);
        path_ = std::move(other.path_);
        format_ = other.format_;
        other.db_ = nullptr;
    }
    return *this;
}

Journal::~Journal() {
    statements_.reset();  // finalized before the connection closes
    if (db_) sqlite3_close_v2(db_);
}

Expected<SessionId, JournalError> Journal::create(const SessionConfig& config) { return create(config, {}); }

Expected<SessionId, JournalError> Journal::create(const SessionConfig& config, std::string_view by) {
    Transaction tx(db_);
    if (tx.begin_error()) return Unexpected(*tx.begin_error());
    const std::string text = encode(config);
    const std::int64_t ms = now_unix_ms();
    Stmt st(db_, "INSERT INTO sessions (config, created_ms, created_by) VALUES (?, ?, ?)");
    st.bind(1, text).bind(2, ms).bind(3, std::string(by));
    st.step();
    if (st.rc() != SQLITE_DONE) return Unexpected(sqlite_error(db_, st.rc(), "cannot store the session"));
    const auto id = static_cast<SessionId>(sqlite3_last_insert_rowid(db_));
    Stmt last(statement(last_record_sql)), add(statement(add_record_sql));
    Chain chain(db_, last, add);
    if (auto err = chain.add("session", session_ref(id), session_fields(id, text, ms, by))) return Unexpected(*err);
    if (auto err = tx.commit()) return Unexpected(*err);
    return id;
}

std::optional<JournalError> Journal::append(SessionId id, std::uint64_t seq, const Event& e, std::uint64_t digest) {
    return append_all({Append{id, seq, &e, digest}}).front();
}

std::vector<std::optional<JournalError>> Journal::append_all(const std::vector<Append>& batch) {
    std::vector<std::optional<JournalError>> out(batch.size());
    if (batch.empty()) return out;
    auto fail_all = [&](const JournalError& err) {
        for (auto& o : out) o = err;
        return out;
    };
    Transaction tx(db_);
    if (tx.begin_error()) return fail_all(*tx.begin_error());
    // Prepared once for the whole batch.
    Stmt exists(statement("SELECT 1 FROM sessions WHERE id = ? AND deleted_ms IS NULL"));
    Stmt last(statement("SELECT COALESCE(MAX(seq), 0) FROM events WHERE session_id = ?"));
    Stmt ins(
        statement("INSERT INTO events (session_id, seq, at_ms, event, digest, entered_ms, entered_by) VALUES "
                  "(?, ?, ?, ?, ?, ?, ?)"));
    Stmt last_record(statement(last_record_sql)), add_record(statement(add_record_sql));
    for (const Stmt* st : {&exists, &last, &ins, &last_record, &add_record})
        if (!st->ok()) return fail_all(sqlite_error(db_, st->rc(), "cannot prepare the append"));
    Chain chain(db_, last_record, add_record);
    const std::int64_t ms = now_unix_ms();
    for (std::size_t i = 0; i < batch.size(); ++i) {
        const Append& a = batch[i];
        const std::string who = "session " + std::to_string(a.id);
        exists.reset();
        exists.bind(1, a.id);
        const bool found = exists.step();
        if (!exists.ok()) return fail_all(sqlite_error(db_, exists.rc(), "cannot read " + who));
        if (!found) {
            out[i] = error(JournalError::Code::no_such_session, "no " + who + " in " + path_);
            continue;
        }
        last.reset();
        last.bind(1, a.id);
        const std::int64_t n = last.step() ? last.integer(0) : -1;
        if (!last.ok()) return fail_all(sqlite_error(db_, last.rc(), "cannot read " + who));
        if (n + 1 != static_cast<std::int64_t>(a.seq)) {
            out[i] = error(JournalError::Code::conflict, who + " has " + std::to_string(n) + " events, not " +
                                                             std::to_string(a.seq - 1) +
                                                             ": another writer changed it; reload and retry");
            continue;
        }
        const std::string text = encode(*a.event);
        const auto seq = static_cast<std::int64_t>(a.seq);
        const auto digest = static_cast<std::int64_t>(a.digest);
        ins.reset();
        ins.bind(1, a.id).bind(2, seq).bind(3, a.event->at_ms).bind(4, text).bind(5, digest).bind(6, ms).bind(7, a.by);
        ins.step();
        if (ins.rc() != SQLITE_DONE) return fail_all(sqlite_error(db_, ins.rc(), "cannot append the event"));
        if (auto err = chain.add("event", event_ref(a.id, seq),
                                 event_fields(a.id, seq, a.event->at_ms, text, digest, ms, a.by)))
            return fail_all(*err);
    }
    if (auto err = tx.commit()) return fail_all(*err);
    return out;
}

namespace {

// "by NAME at 2026-12-07 10:31:02 UTC" (or less, for a record of a format-1 journal).
std::string who_when(const Entered& e) {
    std::string out;
    if (!e.by.empty()) out += " by " + e.by;
    if (e.unix_ms > 0) {
        const std::time_t t = static_cast<std::time_t>(e.unix_ms / 1000);
        std::tm tm{};
        gmtime_r(&t, &tm);
        char text[32];
        std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &tm);
        out += std::string(" at ") + text;
    }
    return out;
}

}  // namespace

Expected<StoredSession, JournalError> Journal::load(SessionId id) const {
    // One read transaction, so the configuration and events are a consistent snapshot.
    if (auto err = exec(db_, "BEGIN", "cannot read " + path_)) return Unexpected(*err);
    struct End {
        sqlite3* db;
        ~End() { sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr); }
    } end{db_};
    const bool v2 = format_ >= 2;

    StoredSession out;
    out.id = id;
    {
        Stmt st(db_, v2 ? "SELECT config, created_ms, created_by, deleted_ms, deleted_by FROM sessions WHERE id = ?"
                        : "SELECT config, 0, '', NULL, NULL FROM sessions WHERE id = ?");
        st.bind(1, id);
        const bool found = st.step();
        if (!st.ok()) return Unexpected(sqlite_error(db_, st.rc(), "cannot read session " + std::to_string(id)));
        if (!found)
            return Unexpected(
                error(JournalError::Code::no_such_session, "no session " + std::to_string(id) + " in " + path_));
        if (!st.null(3))
            return Unexpected(error(JournalError::Code::no_such_session,
                                    "session " + std::to_string(id) + " was deleted" +
                                        who_when({st.text(4), st.integer(3)}) + " (" + path_ + ")"));
        auto cfg = decode_config(st.text(0));
        if (!cfg)
            return Unexpected(error(JournalError::Code::corrupt,
                                    "session " + std::to_string(id) + ": bad configuration: " + cfg.error().message));
        out.config = std::move(*cfg);
        out.created = {st.text(2), st.integer(1)};
    }
    Stmt st(db_, v2 ? "SELECT seq, event, digest, entered_ms, entered_by FROM events WHERE session_id = ? ORDER BY seq"
                    : "SELECT seq, event, digest, 0, '' FROM events WHERE session_id = ? ORDER BY seq");
    st.bind(1, id);
    while (st.step()) {
        const std::int64_t seq = st.integer(0);
        if (seq != static_cast<std::int64_t>(out.events.size()) + 1)
            return Unexpected(error(
                JournalError::Code::corrupt,
                "session " + std::to_string(id) + ": event " + std::to_string(out.events.size() + 1) + " is missing"));
        auto e = decode_event(st.text(1));
        if (!e)
            return Unexpected(error(JournalError::Code::corrupt, "session " + std::to_string(id) + ", event " +
                                                                     std::to_string(seq) + ": " + e.error().message));
        out.events.push_back(std::move(*e));
        out.digests.push_back(static_cast<std::uint64_t>(st.integer(2)));
        out.entered.push_back({st.text(4), st.integer(3)});
    }
    if (st.rc() != SQLITE_DONE)
        return Unexpected(sqlite_error(db_, st.rc(), "cannot read session " + std::to_string(id)));
    return out;
}

Expected<std::vector<SessionId>, JournalError> Journal::sessions() const {
    std::vector<SessionId> out;
    Stmt st(db_, format_ >= 2 ? "SELECT id FROM sessions WHERE deleted_ms IS NULL ORDER BY id"
                              : "SELECT id FROM sessions ORDER BY id");
    while (st.step()) out.push_back(st.integer(0));
    if (st.rc() != SQLITE_DONE) return Unexpected(sqlite_error(db_, st.rc(), "cannot list the sessions"));
    return out;
}

std::optional<JournalError> Journal::remove(SessionId id, std::string_view by) {
    Transaction tx(db_);
    if (tx.begin_error()) return *tx.begin_error();
    Stmt st(db_, "SELECT deleted_ms FROM sessions WHERE id = ?");
    st.bind(1, id);
    const bool found = st.step();
    if (!st.ok()) return sqlite_error(db_, st.rc(), "cannot read session " + std::to_string(id));
    if (!found || !st.null(0))
        return error(JournalError::Code::no_such_session,
                     "no session " + std::to_string(id) + " in " + path_ + (found ? " (deleted already)" : ""));
    const std::int64_t ms = now_unix_ms();
    Stmt up(db_, "UPDATE sessions SET deleted_ms = ?, deleted_by = ? WHERE id = ?");
    up.bind(1, ms).bind(2, std::string(by)).bind(3, id);
    up.step();
    if (up.rc() != SQLITE_DONE) return sqlite_error(db_, up.rc(), "cannot delete session " + std::to_string(id));
    Stmt last(statement(last_record_sql)), add(statement(add_record_sql));
    Chain chain(db_, last, add);
    if (auto err = chain.add("delete", session_ref(id), deletion_fields(id, ms, by))) return err;
    return tx.commit();
}

Expected<Session, JournalError> replay(const StoredSession& stored, const Unwinnability* analyzer) {
    const std::string who = "session " + std::to_string(stored.id);
    auto s = Session::create(stored.config, analyzer);
    if (!s)
        return Unexpected(error(JournalError::Code::corrupt, who + ": the stored configuration is refused (" +
                                                                 s.error().message +
                                                                 "); the journal may have been edited"));
    for (std::size_t i = 0; i < stored.events.size(); ++i) {
        const Event& e = stored.events[i];
        const std::string which = who + ", event " + std::to_string(i + 1) + " (" + event_type_name(e.type) + ")";
        if (auto err = s->apply(e))
            return Unexpected(error(JournalError::Code::replay, which + " (row seq=" + std::to_string(i + 1) +
                                                                    ") is refused on replay: " + err->message +
                                                                    "; the row may have been edited"));
        if (i < stored.digests.size() && s->digest() != stored.digests[i])
            return Unexpected(error(JournalError::Code::replay,
                                    which + " (row seq=" + std::to_string(i + 1) +
                                        ") does not replay to the state recorded with it: the row may have been "
                                        "edited, or the journal was written by a different version of the rules"));
    }
    return std::move(*s);
}

Expected<JournaledSession, JournalError> JournaledSession::create(Journal& journal, SessionConfig config,
                                                                  const Unwinnability* analyzer, std::string_view by) {
    auto s = Session::create(config, analyzer);
    if (!s) return Unexpected(JournalError{JournalError::Code::refused, s.error().message, s.error().code});
    auto id = journal.create(config, by);
    if (!id) return Unexpected(id.error());
    return JournaledSession(journal, *id, std::move(*s));
}

Expected<JournaledSession, JournalError> JournaledSession::open(Journal& journal, SessionId id,
                                                                const Unwinnability* analyzer) {
    auto stored = journal.load(id);
    if (!stored) return Unexpected(stored.error());
    auto s = replay(*stored, analyzer);
    if (!s) return Unexpected(s.error());
    return JournaledSession(journal, id, std::move(*s));
}

Expected<JournaledSession::Staged, JournalError> JournaledSession::stage(const Event& e) const {
    Staged staged{session_, e};
    if (auto err = staged.next.apply(e))
        return Unexpected(JournalError{JournalError::Code::refused, err->message, err->code});
    return staged;
}

std::optional<JournalError> JournaledSession::apply(const Event& e, std::string_view by) {
    auto staged = stage(e);
    if (!staged) return staged.error();
    if (auto err = journal_->append_all({staged->append(id_, std::string(by))}).front()) return err;
    commit(std::move(*staged));
    return std::nullopt;
}

}  // namespace arbiter
