// journal.hpp — durable storage for live sessions: one SQLite file (WAL, synchronous=FULL)
// holds many sessions, each a configuration plus its events in order. An event is appended —
// committed and synced — before it takes effect, so after a crash the file holds every event
// whose append returned, and replaying them rebuilds each session exactly (each event also
// stores a digest of the state it produced, and replay checks it). A file that is not a
// journal, or a damaged one, is refused with a clear error and never written to. This is a
// separate library target (arbiter::journal) so the core library does not depend on SQLite;
// the command-line tool and the server both use it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arbiter/expected.hpp"
#include "arbiter/names.hpp"
#include "arbiter/session.hpp"

struct sqlite3;

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
         "io", "bad_path", "busy", "read_only", "foreign_wal"});
};
static_assert(enum_count<JournalError::Code> == std::size_t(JournalError::Code::foreign_wal) + 1);
constexpr const char* code_name(JournalError::Code c) noexcept { return enum_name(c); }

using SessionId = std::int64_t;

/// A session as stored: its configuration and events, with the digest of the state after each.
struct StoredSession {
    SessionId id = 0;
    SessionConfig config;
    std::vector<Event> events;
    std::vector<std::uint64_t> digests;
};

class Journal {
public:
    enum class Mode {
        open_existing,      ///< the file must exist and be a journal
        create_if_missing,  ///< a missing or empty (0-byte) file becomes a new journal
        read_only           ///< like open_existing, but nothing is ever written (SQLite read-only open)
    };

    /// Opens (or creates) a journal. Errors: missing_file, bad_path (no such directory, a
    /// symlink loop, a directory), not_a_journal, newer_format, corrupt, foreign_wal (a
    /// `-wal` file left beside the journal that does not extend it), busy, io. Nothing is
    /// written to a file that is refused, and a refused `-wal` is not merged. Writers wait up to
    /// `busy_timeout_ms` for another process's lock before the busy error.
    static Expected<Journal, JournalError> open(const std::string& path, Mode mode, int busy_timeout_ms = 10'000);

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
    };
    /// Group commit: appends several events — of several sessions, or several in order of one —
    /// in ONE synced transaction, so that one fsync makes them all durable. Each is checked as
    /// append() checks it; one that fails (conflict, no_such_session) is left out with its error
    /// and the others go in. When the transaction itself fails (io, busy), nothing is written and
    /// every append gets that error. The answer has one entry per append, in order; nullopt means
    /// journaled (committed and synced when this returns).
    std::vector<std::optional<JournalError>> append_all(const std::vector<Append>& batch);
    /// Reads a session. Errors: no_such_session, corrupt (an undecodable row, a gap in the
    /// event numbers).
    Expected<StoredSession, JournalError> load(SessionId id) const;
    /// The ids of every session, in order.
    Expected<std::vector<SessionId>, JournalError> sessions() const;

    [[nodiscard]] const std::string& path() const noexcept { return path_; }

private:
    Journal(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
    sqlite3* db_ = nullptr;
    std::string path_;
};

/// Rebuilds a session from its stored events. Errors: replay, naming the event that was
/// refused or that produced a different state than when it was recorded.
Expected<Session, JournalError> replay(const StoredSession& stored, const Unwinnability* analyzer = nullptr);

/// A session whose every event is journaled before it takes effect.
class JournaledSession {
public:
    /// A new session stored in `journal` (which must outlive this object).
    static Expected<JournaledSession, JournalError> create(Journal& journal, SessionConfig config,
                                                           const Unwinnability* analyzer = nullptr);
    /// A stored session, replayed.
    static Expected<JournaledSession, JournalError> open(Journal& journal, SessionId id,
                                                         const Unwinnability* analyzer = nullptr);

    /// Checks the event against a copy of the session, appends it to the journal, then makes it
    /// take effect. Errors: refused (the session's reason), or a journal error; in both cases
    /// neither the session nor the journal changed.
    std::optional<JournalError> apply(const Event& e);

    /// apply() in two steps, for a caller that journals several sessions' events in one
    /// transaction (Journal::append_all): stage() checks the event against a copy of the session
    /// and gives the state it produces, the journal untouched (error: refused); the caller appends
    /// `append()` of it, and only once that append is committed calls commit() to make the
    /// event take effect. A staged event not journaled is simply dropped.
    struct Staged {
        Session next;
        Event event;
        [[nodiscard]] Journal::Append append(SessionId id) const {
            return {id, next.events_applied(), &event, next.digest()};
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
