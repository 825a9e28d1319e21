// journal.hpp — durable storage for live sessions: one SQLite file (WAL, synchronous=FULL)
// holds many sessions, each a configuration plus its events in order. An event is appended —
// committed and synced — before it takes effect, so after a crash the file holds every event
// whose append returned, and replaying them rebuilds each session exactly (each event also
// stores a digest of the state it produced, and replay checks it). A file that is not a
// journal, or a damaged one, is refused with a clear error and never written to. This is a
// separate library target (arbiter::journal) so the core library does not depend on SQLite;
// the command-line tool and the server both use it.
//
// Who and when: every stored record (a session created or deleted, an event, a user added or
// revoked) carries the name of who entered it and the wall-clock time, and is chained to the
// record before it by a SHA-256 hash (the table `ledger`), so that a row edited, removed or
// inserted outside arbiter (with sqlite3, say) is found by verify(); a history rewritten whole,
// chain included, is found against a head hash published earlier (docs/api.md, Security). The
// users of a server (named, with a role, their tokens stored only as hashes) live here too.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arbiter/expected.hpp"
#include "arbiter/names.hpp"
#include "arbiter/session.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace arbiter {

struct JournalError {
    enum class Code {
        missing_file,   ///< no such file (and creating was not asked for)
        not_a_journal,  ///< the file is not an SQLite database, or one that is not an arbiter journal
        newer_format,   ///< written by a newer version of arbiter
        corrupt,        ///< the database is damaged, or its contents are inconsistent
        no_such_session,
        refused,      ///< the session refused the event (nothing was written)
        conflict,     ///< another writer appended to the session meanwhile; reload and retry
        replay,       ///< a stored event no longer replays to the state it produced
        io,           ///< the file could not be read or written (permissions, disk full, …)
        bad_path,     ///< the path cannot hold a journal: its directory does not exist, a symlink loop, a directory
        busy,         ///< "journal busy, retry": another process held the lock past the busy timeout
        read_only,    ///< a write to a journal opened read-only, or to a file the user may only read
        foreign_wal,  ///< a `-wal` file beside the journal belongs to another database (not merged)
        user_exists,  ///< a user of that name is in the journal already (revoked ones included)
        no_such_user,
        bad_user,  ///< a user name, role, section or board that cannot be stored (empty, too long, control bytes)
    };
    Code code;
    std::string message;
    /// With `refused`: the session's own code (EventError::Code), e.g. out_of_turn.
    std::optional<EventError::Code> refusal = std::nullopt;
};

/// Stable name of a code, e.g. "not_a_journal".
template <>
struct EnumNames<JournalError::Code> {
    static constexpr auto names = std::to_array<const char*>(
        {"missing_file", "not_a_journal", "newer_format", "corrupt", "no_such_session", "refused", "conflict", "replay",
         "io", "bad_path", "busy", "read_only", "foreign_wal", "user_exists", "no_such_user", "bad_user"});
};
static_assert(enum_count<JournalError::Code> == std::size_t(JournalError::Code::bad_user) + 1);
constexpr const char* code_name(JournalError::Code c) noexcept { return enum_name(c); }

using SessionId = std::int64_t;

/// Who entered a record and when (wall clock, milliseconds since 1970 UTC). `by` is a user's name,
/// the OS user of a command, or empty in a journal written before authorship was recorded.
struct Entered {
    std::string by;
    std::int64_t unix_ms = 0;
    friend bool operator==(const Entered&, const Entered&) = default;
};

/// A session as stored: its configuration and events, with the digest of the state after each.
struct StoredSession {
    SessionId id = 0;
    SessionConfig config;
    std::vector<Event> events;
    std::vector<std::uint64_t> digests;
    Entered created;               ///< who created the session
    std::vector<Entered> entered;  ///< who entered each event (one per event)
};

/// What a user of a server may do (docs/api.md, Security): a viewer reads (states, streams,
/// boards, the hall page); an arbiter also enters events on the sessions of its sections and
/// boards (all when none are listed); a chief does everything (sessions created and deleted,
/// retractions with force, the hall's alerts).
enum class Role : std::uint8_t { viewer, arbiter, chief };
template <>
struct EnumNames<Role> {
    static constexpr auto names = std::to_array<const char*>({"viewer", "arbiter", "chief"});
};
static_assert(enum_count<Role> == std::size_t(Role::chief) + 1);

struct User {
    std::string name;
    Role role = Role::viewer;
    std::vector<std::string> sections;  ///< an arbiter's sections (a session's Section tag); empty: every one
    std::vector<std::string> boards;    ///< an arbiter's boards (a session's Board tag); empty: every one
    Entered added;
    std::optional<Entered> revoked;
};

/// The hash chain's verdict (Journal::verify).
struct ChainReport {
    std::uint64_t records = 0;  ///< records in the chain
    std::string head;           ///< hex SHA-256 of the last record; empty for an empty journal
    /// The first record found changed, removed or inserted (1-based; 0 when the chain is whole),
    /// and what is wrong with it.
    std::uint64_t broken_at = 0;
    std::string problem;
    /// With a head asked for (verify(head)): whether that hash is one of the chain's.
    bool head_found = false;
    [[nodiscard]] bool whole() const noexcept { return broken_at == 0 && problem.empty(); }
};

class Journal {
public:
    enum class Mode {
        open_existing,      ///< the file must exist and be a journal
        create_if_missing,  ///< a missing or empty (0-byte) file becomes a new journal
        read_only           ///< like open_existing, but nothing is ever written (SQLite read-only open)
    };
    /// How long open() waits for another process's lock by default (the CLI's --busy-timeout).
    static constexpr int default_busy_timeout_ms = 10'000;

    /// Opens (or creates) a journal. Errors: missing_file, bad_path (no such directory, a
    /// symlink loop, a directory), not_a_journal, newer_format, corrupt, foreign_wal (a
    /// `-wal` file left beside the journal that does not extend it), busy, io. Nothing is
    /// written to a file that is refused, and a refused `-wal` is not merged. Writers wait up to
    /// `busy_timeout_ms` for another process's lock before the busy error.
    static Expected<Journal, JournalError> open(const std::string& path, Mode mode,
                                                int busy_timeout_ms = default_busy_timeout_ms);

    Journal(Journal&& other) noexcept;
    Journal& operator=(Journal&& other) noexcept;
    Journal(const Journal&) = delete;
    Journal& operator=(const Journal&) = delete;
    ~Journal();

    /// Stores a new session and returns its id (1, 2, …; never reused).
    Expected<SessionId, JournalError> create(const SessionConfig& config);
    /// Appends event number `seq` (1 for the first) of a session, with the digest of the state
    /// it produced, in one synced transaction. Errors: conflict when the session does not have
    /// exactly seq − 1 events; no_such_session; io.
    std::optional<JournalError> append(SessionId id, std::uint64_t seq, const Event& e, std::uint64_t digest);

    /// One event to append (see append_all).
    struct Append {
        SessionId id = 0;
        std::uint64_t seq = 0;
        const Event* event = nullptr;
        std::uint64_t digest = 0;
        std::string by{};  ///< who entered it (a user's name; may be empty); entered now
    };
    /// Group commit: appends several events — of several sessions, or several in order of one —
    /// in ONE synced transaction, so that one fsync makes them all durable. Each is checked as
    /// append() checks it; one that fails (conflict, no_such_session) is left out with its error
    /// and the others go in. When the transaction itself fails (io, busy), nothing is written and
    /// every append gets that error. The answer has one entry per append, in order; nullopt means
    /// journaled (committed and synced when this returns).
    std::vector<std::optional<JournalError>> append_all(const std::vector<Append>& batch);
    /// Reads a session. Errors: no_such_session (a deleted one too: its message says who deleted
    /// it and when), corrupt (an undecodable row, a gap in the event numbers).
    Expected<StoredSession, JournalError> load(SessionId id) const;
    /// The ids of every session not deleted, in order.
    Expected<std::vector<SessionId>, JournalError> sessions() const;
    /// Stores a new session entered by `by`.
    Expected<SessionId, JournalError> create(const SessionConfig& config, std::string_view by);
    /// Deletes a session: it is no longer listed nor loaded, but its rows stay (the chain keeps
    /// them, and verify() checks them). Errors: no_such_session.
    std::optional<JournalError> remove(SessionId id, std::string_view by);

    /// Adds a user and returns its new token (64 hex digits: 256 random bits), which is shown
    /// this once: the journal keeps only its SHA-256. Errors: user_exists, bad_user.
    Expected<std::string, JournalError> add_user(const User& user, std::string_view by);
    /// Revokes a user's token, at once for every server of this journal. Errors: no_such_user
    /// (revoking a revoked user is not an error).
    std::optional<JournalError> revoke_user(std::string_view name, std::string_view by);
    /// Every user, revoked ones included, in the order they were added.
    Expected<std::vector<User>, JournalError> users() const;
    /// The user (not revoked) whose token this is; nullopt when none. The token is hashed and
    /// compared in a time that does not depend on where the hashes differ.
    Expected<std::optional<User>, JournalError> user_by_token(std::string_view token) const;
    /// A number that changes whenever another connection committed to the file (SQLite's
    /// data_version): a cache of users() is stale when it moved.
    [[nodiscard]] std::int64_t data_version() const;

    /// Checks the hash chain against every row (docs/api.md, Security): a record changed,
    /// removed or inserted outside arbiter is named in `problem`. With `head`, also whether that
    /// hash (published earlier: an export, a printout) is one of the chain's.
    Expected<ChainReport, JournalError> verify(std::string_view head = {}) const;
    /// The last record's hash (hex; empty for an empty journal), without checking the chain.
    Expected<std::string, JournalError> head() const;

    [[nodiscard]] const std::string& path() const noexcept { return path_; }
    /// A second connection to this journal, read-only, for another thread of the same process
    /// (the server's access check). Opened by SQLite alone: opening the file again any other way
    /// and closing it would drop this process's POSIX locks on it (close(2) releases them all),
    /// and another process could then checkpoint and remove the write-ahead log under us.
    [[nodiscard]] Expected<Journal, JournalError> reader() const;

private:
    Journal(sqlite3* db, std::string path);
    struct Statements;  ///< prepared once, reused by every append (journal.cpp)
    /// The statement of `sql` (a string literal) from the cache, prepared the first time, and
    /// SQLite's answer to preparing it.
    [[nodiscard]] std::pair<sqlite3_stmt*, int> statement(const char* sql) const;
    sqlite3* db_ = nullptr;
    mutable std::unique_ptr<Statements> statements_;
    std::string path_;
    int format_ = 0;  ///< the file's format (1: before authorship and the chain; read, never written)
};

/// Rebuilds a session from its stored events. Errors: replay, naming the event that was
/// refused or that produced a different state than when it was recorded.
Expected<Session, JournalError> replay(const StoredSession& stored, const Unwinnability* analyzer = nullptr);

/// A session whose every event is journaled before it takes effect.
class JournaledSession {
public:
    /// A new session stored in `journal` (which must outlive this object).
    static Expected<JournaledSession, JournalError> create(Journal& journal, SessionConfig config,
                                                           const Unwinnability* analyzer = nullptr,
                                                           std::string_view by = {});
    /// A stored session, replayed.
    static Expected<JournaledSession, JournalError> open(Journal& journal, SessionId id,
                                                         const Unwinnability* analyzer = nullptr);

    /// Checks the event against a copy of the session, appends it to the journal, then makes it
    /// take effect. Errors: refused (the session's reason), or a journal error; in both cases
    /// neither the session nor the journal changed.
    std::optional<JournalError> apply(const Event& e, std::string_view by = {});

    /// apply() in two steps, for a caller that journals several sessions' events in one
    /// transaction (Journal::append_all): stage() checks the event against a copy of the session
    /// and gives the state it produces, the journal untouched (error: refused); the caller appends
    /// `append()` of it, and only once that append is committed calls commit() to make the
    /// event take effect. A staged event not journaled is simply dropped.
    struct Staged {
        Session next;
        Event event;
        [[nodiscard]] Journal::Append append(SessionId id, std::string by = {}) const {
            return {id, next.events_applied(), &event, next.digest(), std::move(by)};
        }
    };
    [[nodiscard]] Expected<Staged, JournalError> stage(const Event& e) const;
    /// Makes a staged event take effect: call it only after its append was committed.
    void commit(Staged&& staged) { session_ = std::move(staged.next); }

    [[nodiscard]] SessionId id() const noexcept { return id_; }
    [[nodiscard]] const Session& session() const noexcept { return session_; }

private:
    JournaledSession(Journal& j, SessionId id, Session s) : journal_(&j), id_(id), session_(std::move(s)) {}
    Journal* journal_;
    SessionId id_;
    Session session_;
};

}  // namespace arbiter
