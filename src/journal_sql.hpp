// journal_sql.hpp — what the files of the journal share (journal.cpp: opening, sessions and
// events; journal_users.cpp: the users of a server; journal_chain.cpp: the hash chain and its
// verification): SQLite statements and transactions, the fields a ledger record hashes, the chain
// writer, the lists kept as text. Internal to the library; SQLite and OpenSSL's libcrypto.
#pragma once

#include <openssl/evp.h>
#include <sqlite3.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/journal.hpp"
#include "arbiter/text.hpp"

namespace arbiter::journal_sql {

inline std::int64_t now_unix_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

inline std::string hex(const unsigned char* p, std::size_t n) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out(2 * n, '0');
    for (std::size_t i = 0; i < n; ++i) {
        out[2 * i] = digits[p[i] >> 4];
        out[2 * i + 1] = digits[p[i] & 15];
    }
    return out;
}

// The SHA-256 of `data` in lowercase hex (OpenSSL).
inline std::string sha256_hex(std::string_view data) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (EVP_Digest(data.data(), data.size(), md, &len, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("SHA-256 failed (OpenSSL)");
    return hex(md, len);
}

// A record's fields as hashed: each as its length, ':' and its bytes, so that no two different
// lists of fields read the same.
class Fields {
public:
    Fields& operator<<(std::string_view v) {
        text_ += std::to_string(v.size());
        text_ += ':';
        text_ += v;
        return *this;
    }
    Fields& operator<<(std::int64_t v) { return *this << std::string_view(std::to_string(v)); }
    [[nodiscard]] const std::string& text() const noexcept { return text_; }

private:
    std::string text_;
};

// The hash of chain record n: the previous record's hash, n, the kind and the record's fields.
inline std::string chain_hash(const std::string& previous, std::int64_t n, std::string_view kind,
                              const std::string& fields) {
    Fields f;
    f << previous << n << kind;
    return sha256_hex(f.text() + fields);
}

inline JournalError error(JournalError::Code code, std::string message) {
    return JournalError{code, std::move(message)};
}

// A pragma's integer answer (0 when it is not a number).
inline std::int64_t number(const std::string& text) {
    std::int64_t v = 0;
    std::from_chars(text.data(), text.data() + text.size(), v);
    return v;
}

inline JournalError sqlite_error(sqlite3* db, int rc, const std::string& what) {
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
    /// A statement of the journal's cache (Journal::Statements), reset and cleared when done with.
    explicit Stmt(std::pair<sqlite3_stmt*, int> cached) : st_(cached.first), rc_(cached.second), owned_(false) {}
    ~Stmt() {
        if (owned_) {
            sqlite3_finalize(st_);
        } else if (st_) {
            sqlite3_reset(st_);
            sqlite3_clear_bindings(st_);
        }
    }
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
    [[nodiscard]] bool null(int col) const { return sqlite3_column_type(st_, col) == SQLITE_NULL; }
    [[nodiscard]] std::string text(int col) const {
        const auto* p = sqlite3_column_text(st_, col);
        return p ? std::string(reinterpret_cast<const char*>(p),
                               static_cast<std::size_t>(sqlite3_column_bytes(st_, col)))
                 : "";
    }

private:
    sqlite3_stmt* st_ = nullptr;
    int rc_ = SQLITE_OK;
    bool owned_ = true;
};

inline std::optional<JournalError> exec(sqlite3* db, const char* sql, const std::string& what) {
    const int rc = sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) return sqlite_error(db, rc, what);
    return std::nullopt;
}

// The single integer or text a pragma returns.
inline Expected<std::string, JournalError> pragma(sqlite3* db, const std::string& sql) {
    Stmt st(db, sql.c_str());
    std::string value;
    if (st.step()) value = st.text(0);
    if (!st.ok()) return Unexpected(sqlite_error(db, st.rc(), sql));
    return value;
}

// Checks an existing database without writing to it.

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

// The fields of each kind of chained record, as hashed (chain_hash). A session created, an event,
// a session deleted, a user added, a user revoked.
inline std::string session_fields(std::int64_t id, std::string_view config, std::int64_t ms, std::string_view by) {
    Fields f;
    f << id << config << ms << by;
    return f.text();
}
inline std::string event_fields(std::int64_t id, std::int64_t seq, std::int64_t at_ms, std::string_view event,
                                std::int64_t digest, std::int64_t ms, std::string_view by) {
    Fields f;
    f << id << seq << at_ms << event << digest << ms << by;
    return f.text();
}
inline std::string deletion_fields(std::int64_t id, std::int64_t ms, std::string_view by) {
    Fields f;
    f << id << ms << by;
    return f.text();
}
inline std::string user_fields(std::string_view name, std::string_view role, std::string_view sections,
                               std::string_view boards, std::string_view token_hash, std::int64_t ms,
                               std::string_view by) {
    Fields f;
    f << name << role << sections << boards << token_hash << ms << by;
    return f.text();
}
inline std::string revocation_fields(std::string_view name, std::int64_t ms, std::string_view by) {
    Fields f;
    f << name << ms << by;
    return f.text();
}

// The chain's references: which row a record stands for.
inline std::string session_ref(std::int64_t id) { return std::to_string(id); }
inline std::string event_ref(std::int64_t id, std::int64_t seq) {
    return std::to_string(id) + "/" + std::to_string(seq);
}

// Appends records to the chain, inside the caller's write transaction.
constexpr const char* last_record_sql = "SELECT n, hash FROM ledger ORDER BY n DESC LIMIT 1";
constexpr const char* add_record_sql = "INSERT INTO ledger (n, kind, ref, hash) VALUES (?, ?, ?, ?)";

class Chain {
public:
    /// `last` and `ins` are last_record_sql and add_record_sql, prepared.
    Chain(sqlite3* db, Stmt& last, Stmt& ins) : db_(db), last_(last), ins_(ins) {}
    std::optional<JournalError> add(std::string_view kind, const std::string& ref, const std::string& fields) {
        if (!loaded_) {
            last_.reset();
            if (last_.step()) {
                n_ = last_.integer(0);
                hash_ = last_.text(1);
            }
            if (last_.rc() != SQLITE_DONE && last_.rc() != SQLITE_ROW)
                return sqlite_error(db_, last_.rc(), "cannot read the journal's chain");
            last_.reset();
            loaded_ = true;
        }
        const std::int64_t n = n_ + 1;
        std::string h = chain_hash(hash_, n, kind, fields);
        ins_.reset();
        ins_.bind(1, n).bind(2, std::string(kind)).bind(3, ref).bind(4, h);
        ins_.step();
        if (ins_.rc() != SQLITE_DONE) return sqlite_error(db_, ins_.rc(), "cannot extend the journal's chain");
        n_ = n;
        hash_ = std::move(h);
        return std::nullopt;
    }

private:
    sqlite3* db_;
    Stmt& last_;
    Stmt& ins_;
    bool loaded_ = false;
    std::int64_t n_ = 0;
    std::string hash_;
};

// A format-1 journal's rows chained as they stand (the upgrade to format 2): every session with
// its events, in order of the sessions' ids.
inline std::optional<JournalError> chain_existing(sqlite3* db) {
    Stmt last(db, last_record_sql), ins(db, add_record_sql);
    Chain chain(db, last, ins);
    Stmt sessions(db, "SELECT id, config, created_ms, created_by FROM sessions ORDER BY id");
    std::vector<std::pair<std::int64_t, std::string>> rows;
    while (sessions.step())
        rows.emplace_back(sessions.integer(0),
                          session_fields(sessions.integer(0), sessions.text(1), sessions.integer(2), sessions.text(3)));
    if (sessions.rc() != SQLITE_DONE) return sqlite_error(db, sessions.rc(), "cannot read the sessions");
    for (const auto& [id, fields] : rows) {
        if (auto err = chain.add("session", session_ref(id), fields)) return err;
        Stmt ev(db,
                "SELECT seq, at_ms, event, digest, entered_ms, entered_by FROM events WHERE session_id = ? "
                "ORDER BY seq");
        ev.bind(1, id);
        while (ev.step())
            if (auto err = chain.add("event", event_ref(id, ev.integer(0)),
                                     event_fields(id, ev.integer(0), ev.integer(1), ev.text(2), ev.integer(3),
                                                  ev.integer(4), ev.text(5))))
                return err;
        if (ev.rc() != SQLITE_DONE) return sqlite_error(db, ev.rc(), "cannot read the events");
    }
    return std::nullopt;
}

// A name, section or board a user record may hold: 1 to 64 bytes of UTF-8 without control
// characters, blanks at either end or commas (lists are written with commas).
inline bool storable(std::string_view v) {
    if (v.empty() || v.size() > 64 || v.front() == ' ' || v.back() == ' ') return false;
    for (unsigned char c : v)
        if (c < 0x20 || c == 0x7f || c == ',') return false;
    return is_utf8(v);
}

inline std::string join(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& i : items) out += (out.empty() ? "" : ",") + i;
    return out;
}

inline std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (!text.empty() && i <= text.size()) {
        const std::size_t j = std::min(text.find(',', i), text.size());
        out.push_back(text.substr(i, j - i));
        i = j + 1;
    }
    return out;
}

}  // namespace arbiter::journal_sql
