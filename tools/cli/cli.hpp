// cli.hpp — shared plumbing of the arbiter command-line tool: how subcommands register, report
// bad input (exit 2, one line on stderr) and parse the common position options.
#pragma once

#include <CLI/CLI.hpp>

#include <stdexcept>
#include <string>

#include "arbiter/arbiter.hpp"

namespace arbiter::cli {

/// Thrown by a subcommand for bad usage or bad input: main prints "arbiter: <message>" on
/// stderr and exits with status 2.
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Parses a FEN for the command line (tolerant of missing counters) or throws InputError
/// naming the field and byte.
Position fen_or_throw(const std::string& fen);

void add_perft(CLI::App& app);
void add_moves(CLI::App& app);
void add_status(CLI::App& app);
void add_claim(CLI::App& app);
void add_session(CLI::App& app);
void add_audit(CLI::App& app);
void add_dead(CLI::App& app);

}  // namespace arbiter::cli
