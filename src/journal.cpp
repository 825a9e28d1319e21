// journal.cpp — the SQLite journal of live sessions.
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

#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>

#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace arbiter {

namespace {

constexpr int application_id = 0x41524254;  // "ARBT"
constexpr int format_version = 1;

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

JournalError error(JournalError::Code code, std::string message) { return JournalError{code, std::move(message)}; }

// A pragma's integer answer (0 when it is not a number).
std::int64_t number(const std::string& text) {
    std::int64_t v = 0;
    std::from_chars(text.data(), text.data() + text.size(), v);
    return v;
}

JournalError sqlite_error(sqlite3* db, int rc, const std::string& what) {
    const std::string msg = what + ": " + (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    switch (rc & 0xff) {
        case SQLITE_CORRUPT: return error(JournalError::Code::corrupt, msg);
        case SQLITE_NOTADB: return error(JournalError::Code::not_a_journal, msg);
        case SQLITE_BUSY:
        case SQLITE_LOCKED:
            return error(JournalError::Code::busy,
                         "journal busy, retry: " + msg + " (another process held the lock past the busy timeout)");
        case SQLITE_READONLY: return error(JournalError::Code::read_only, msg);
        default: return error(JournalError::Code::io, msg);
    }
}

// A prepared statement that finalizes itself.
class Stmt {
public:
    Stmt(sqlite3* db, const char* sql) { rc_ = sqlite3_prepare_v2(db, sql, -1, &st_, nullptr); }
    ~Stmt() { sqlite3_finalize(st_); }
    Stmt(const Stmt&) = delete;
    Stmt& operator=(const Stmt&) = delete;

    [[nodiscard]] bool ok() const noexcept { return rc_ == SQLITE_OK || rc_ == SQLITE_ROW || rc_ == SQLITE_DONE; }
    [[nodiscard]] int rc() const noexcept { return rc_; }
    Stmt& bind(int i, std::int64_t v) {
        if (ok()) rc_ = sqlite3_bind_int64(st_, i, v);
        return *this;
    }
    Stmt& bind(int i, const std::string& v) {
        if (ok()) rc_ = sqlite3_bind_text(st_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
        return *this;
    }
    /// True while there is a row; check ok() afterwards.
    bool step() {
        if (!ok()) return false;
        rc_ = sqlite3_step(st_);
        return rc_ == SQLITE_ROW;
    }
    /// Ready to run again (bindings are replaced by the next bind calls).
    void reset() {
        sqlite3_reset(st_);
        if (ok()) rc_ = SQLITE_OK;
    }
    [[nodiscard]] std::int64_t integer(int col) const { return sqlite3_column_int64(st_, col); }
    [[nodiscard]] std::string text(int col) const {
        const auto* p = sqlite3_column_text(st_, col);
        return p ? std::string(reinterpret_cast<const char*>(p),
                               static_cast<std::size_t>(sqlite3_column_bytes(st_, col)))
                 : "";
    }

private:
    sqlite3_stmt* st_ = nullptr;
    int rc_ = SQLITE_OK;
};

std::optional<JournalError> exec(sqlite3* db, const char* sql, const std::string& what) {
    const int rc = sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) return sqlite_error(db, rc, what);
    return std::nullopt;
}

// The single integer or text a pragma returns.
Expected<std::string, JournalError> pragma(sqlite3* db, const std::string& sql) {
    Stmt st(db, sql.c_str());
    std::string value;
    if (st.step()) value = st.text(0);
    if (!st.ok()) return Unexpected(sqlite_error(db, st.rc(), sql));
    return value;
}

// Checks an existing database without writing to it.
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
    Stmt tables(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('sessions', 'events')");
    const std::int64_t n = tables.step() ? tables.integer(0) : 0;
    if (!tables.ok() || n != 2)
        return error(JournalError::Code::corrupt, path + " is an arbiter journal with tables missing");
    return std::nullopt;
}

// BEGIN IMMEDIATE … COMMIT, rolled back unless committed.
class Transaction {
public:
    explicit Transaction(sqlite3* db) : db_(db) {
        const int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
        if (rc != SQLITE_OK) error_ = sqlite_error(db, rc, "cannot start a transaction");
    }
    ~Transaction() {
        if (!done_ && !error_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    }
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    [[nodiscard]] const std::optional<JournalError>& begin_error() const noexcept { return error_; }
    std::optional<JournalError> commit() {
        const int rc = sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr);
        if (rc != SQLITE_OK) return sqlite_error(db_, rc, "cannot commit");
        done_ = true;
        return std::nullopt;
    }

private:
    sqlite3* db_;
    bool done_ = false;
    std::optional<JournalError> error_;
};

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
    if (read_only) return journal;
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
            const std::string ids = "PRAGMA application_id = " + std::to_string(application_id) +
                                    "; PRAGMA user_version = " + std::to_string(format_version);
            if (auto err = exec(db, ids.c_str(), "cannot mark the journal")) return Unexpected(*err);
        } else if (number(*app) != application_id) {
            return Unexpected(
                error(JournalError::Code::not_a_journal, path + " is an SQLite database but not an arbiter journal"));
        }
        if (auto err = tx.commit()) return Unexpected(*err);
    }
    return journal;
}

Journal::Journal(Journal&& other) noexcept : db_(other.db_), path_(std::move(other.path_)) { other.db_ = nullptr; }

Journal& Journal::operator=(Journal&& other) noexcept {
    if (this != &other) {
        if (db_) sqlite3_close_v2(db_);
        db_ = other.db_;
        path_ = std::move(other.path_);
        other.db_ = nullptr;
    }
    return *this;
}

Journal::~Journal() {
    if (db_) sqlite3_close_v2(db_);
}

Expected<SessionId, JournalError> Journal::create(const SessionConfig& config) {
    Stmt st(db_, "INSERT INTO sessions (config) VALUES (?)");
    st.bind(1, encode(config));
    st.step();
    if (st.rc() != SQLITE_DONE) return Unexpected(sqlite_error(db_, st.rc(), "cannot store the session"));
    return static_cast<SessionId>(sqlite3_last_insert_rowid(db_));
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
    Stmt exists(db_, "SELECT 1 FROM sessions WHERE id = ?");
    Stmt last(db_, "SELECT COALESCE(MAX(seq), 0) FROM events WHERE session_id = ?");
    Stmt ins(db_, "INSERT INTO events (session_id, seq, at_ms, event, digest) VALUES (?, ?, ?, ?, ?)");
    for (const Stmt* st : {&exists, &last, &ins})
        if (!st->ok()) return fail_all(sqlite_error(db_, st->rc(), "cannot prepare the append"));
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
        ins.reset();
        ins.bind(1, a.id)
            .bind(2, static_cast<std::int64_t>(a.seq))
            .bind(3, a.event->at_ms)
            .bind(4, encode(*a.event))
            .bind(5, static_cast<std::int64_t>(a.digest));
        ins.step();
        if (ins.rc() != SQLITE_DONE) return fail_all(sqlite_error(db_, ins.rc(), "cannot append the event"));
    }
    if (auto err = tx.commit()) return fail_all(*err);
    return out;
}

Expected<StoredSession, JournalError> Journal::load(SessionId id) const {
    // One read transaction, so the configuration and events are a consistent snapshot.
    if (auto err = exec(db_, "BEGIN", "cannot read " + path_)) return Unexpected(*err);
    struct End {
        sqlite3* db;
        ~End() { sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr); }
    } end{db_};

    StoredSession out;
    out.id = id;
    {
        Stmt st(db_, "SELECT config FROM sessions WHERE id = ?");
        st.bind(1, id);
        const bool found = st.step();
        if (!st.ok()) return Unexpected(sqlite_error(db_, st.rc(), "cannot read session " + std::to_string(id)));
        if (!found)
            return Unexpected(
                error(JournalError::Code::no_such_session, "no session " + std::to_string(id) + " in " + path_));
        auto cfg = decode_config(st.text(0));
        if (!cfg)
            return Unexpected(error(JournalError::Code::corrupt,
                                    "session " + std::to_string(id) + ": bad configuration: " + cfg.error().message));
        out.config = std::move(*cfg);
    }
    Stmt st(db_, "SELECT seq, event, digest FROM events WHERE session_id = ? ORDER BY seq");
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
    }
    if (st.rc() != SQLITE_DONE)
        return Unexpected(sqlite_error(db_, st.rc(), "cannot read session " + std::to_string(id)));
    return out;
}

Expected<std::vector<SessionId>, JournalError> Journal::sessions() const {
    std::vector<SessionId> out;
    Stmt st(db_, "SELECT id FROM sessions ORDER BY id");
    while (st.step()) out.push_back(st.integer(0));
    if (st.rc() != SQLITE_DONE) return Unexpected(sqlite_error(db_, st.rc(), "cannot list the sessions"));
    return out;
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
                                                                  const Unwinnability* analyzer) {
    auto s = Session::create(config, analyzer);
    if (!s) return Unexpected(JournalError{JournalError::Code::refused, s.error().message, s.error().code});
    auto id = journal.create(config);
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

std::optional<JournalError> JournaledSession::apply(const Event& e) {
    auto staged = stage(e);
    if (!staged) return staged.error();
    if (auto err = journal_->append_all({staged->append(id_)}).front()) return err;
    commit(std::move(*staged));
    return std::nullopt;
}

}  // namespace arbiter
