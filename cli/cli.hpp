// cli.hpp — shared plumbing of the arbiter command-line tool: how subcommands register, and the
// validators of their options. Bad input is a face::InputError (face_core/errors.hpp): main
// reports it (exit 2, one line on stderr).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "arbiter/arbiter.hpp"
#include "errors.hpp"
#include "text.hpp"

namespace arbiter::cli {

// The face core (face_core/: InputError, the JSON of the answers, the input of games, the
// audit driver) is the CLI's vocabulary.
using namespace arbiter::face;
// Names the library has too (arbiter::InputError is the reading layer's error): the core's.
using face::InputError;

/// A validator for a whole number from lo to hi, whose errors say which ("'abc' is not a whole
/// number", "0 is out of range: 1 to 1000").
CLI::Validator whole_number(long long lo, long long hi);

void add_perft(CLI::App& app);
void add_moves(CLI::App& app);
/// `arbiter play [POSITION] MOVE` (cmd_perft.cpp): the play operation.
void add_play(CLI::App& app);
void add_status(CLI::App& app);
void add_claim(CLI::App& app);
void add_session(CLI::App& app);
/// `arbiter users add|list|revoke` (cmd_users.cpp): the named users of a server.
void add_users(CLI::App& app);
void add_audit(CLI::App& app);
void add_dead(CLI::App& app);
/// `arbiter serve` (cmd_serve.cpp, serve/): the JSON API and the web console.
void add_serve(CLI::App& app);
/// `arbiter watch` (watch/): the hall monitor over live PGN feeds.
void add_watch(CLI::App& app);
/// `arbiter help [CMD...]` and `arbiter completion bash` (cmd_help.cpp).
void add_help(CLI::App& app);
/// After every command is added: examples and exit codes as each --help's footer, --version on
/// every subcommand.
void finish_commands(CLI::App& app, const std::string& version);
/// "'statsu' is not a command of arbiter; did you mean 'status'? (commands: …)".
std::string unknown_subcommand(CLI::App& app, std::string_view word);
/// The message for a missing or unknown subcommand on this command line, if there is one.
std::optional<std::string> check_subcommand_words(CLI::App& app, int argc, char** argv);

}  // namespace arbiter::cli
