// session_journal.hpp — what the `arbiter session` commands share: opening the journal (with
// --busy-timeout), reading a session id, and the exit code of a journal's error.
#pragma once

#include <string>

#include "arbiter/journal.hpp"
#include "cli.hpp"

namespace arbiter::cli {

/// Refusals, bad paths, damaged journals (a row that does not replay included) and a journal
/// that stays busy or changed under us (retry) are exit 2; only a failure of the file system
/// (io) is exit 1.
[[noreturn]] void fail(const JournalError& e);
/// --busy-timeout: how long a command waits for another process's lock on the journal.
void add_busy_timeout(CLI::App& cmd);
/// --by NAME: who enters what a command writes (recorded in the journal; default: the OS user).
void add_by(CLI::App& cmd);
/// The --by name, else the OS user's name (else "uid N").
std::string author();
Journal open_journal(const std::string& path, Journal::Mode mode);
SessionId parse_id(const std::string& text);
JournaledSession open_session(Journal& journal, SessionId id);

/// `session import`: a session from a PGN game (cmd_session_import.cpp).
void add_import(CLI::App& session);
/// `session verify` and `session delete` (cmd_users.cpp).
void add_verify(CLI::App& session);
void add_delete(CLI::App& session);

}  // namespace arbiter::cli
