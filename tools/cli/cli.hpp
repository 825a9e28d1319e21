// cli.hpp — shared plumbing of the arbiter command-line tool: how subcommands register, report
// bad input (exit 2, one line on stderr) and parse the common position options.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "arbiter/arbiter.hpp"

namespace arbiter::cli {

/// Thrown by a subcommand for bad usage or bad input: main prints "arbiter: <message>" on
/// stderr (control and invalid bytes escaped as \xNN; a NUL does not cut it short) and exits
/// with status 2 (or the status given); under --json it also prints
/// {"error":{"code","message","field"?,"offset"?}} on stdout (docs/json.md). The code is stable
/// (`bad_input` unless a thrower names a better one), the field names the option or input field
/// at fault, the offset the byte in it.
class InputError : public std::runtime_error {
public:
    explicit InputError(const std::string& message, int status = 2)
        : std::runtime_error(message), message_(message), status_(status) {}
    InputError(std::string code, const std::string& message, std::string field = {},
               std::optional<std::uint64_t> offset = std::nullopt, int status = 2)
        : std::runtime_error(message),
          message_(message),
          status_(status),
          code_(std::move(code)),
          field_(std::move(field)),
          offset_(offset) {}
    [[nodiscard]] const std::string& message() const noexcept { return message_; }
    [[nodiscard]] int status() const noexcept { return status_; }
    [[nodiscard]] const std::string& code() const noexcept { return code_; }
    [[nodiscard]] const std::string& field() const noexcept { return field_; }
    [[nodiscard]] std::optional<std::uint64_t> offset() const noexcept { return offset_; }
    /// Marks the error as already written to stdout as JSON (a refused session event), so that
    /// main writes only the line on stderr.
    InputError& reported_on_stdout() noexcept {
        reported_ = true;
        return *this;
    }
    [[nodiscard]] bool reported() const noexcept { return reported_; }

private:
    std::string message_;
    int status_;
    std::string code_ = "bad_input";
    std::string field_;
    std::optional<std::uint64_t> offset_;
    bool reported_ = false;
};

/// Text made safe for a one-line message: control bytes and bytes that are not UTF-8 become
/// \xNN; valid UTF-8 is kept.
std::string printable(std::string_view text);
/// Length of the UTF-8 sequence at the start of `s`, or 0 when it is not valid UTF-8.
std::size_t utf8_sequence_length(std::string_view s) noexcept;
/// True when every byte of `text` belongs to a valid UTF-8 sequence.
bool is_utf8(std::string_view text) noexcept;
/// Throws InputError "WHAT: 'text' is not valid UTF-8 text" unless `text` is UTF-8.
void require_utf8(std::string_view what, const std::string& text);

/// The error code of a move that does not read: bad_move (syntax), illegal_move, ambiguous_move.
const char* move_error_code(MoveError::Kind kind) noexcept;

/// Parses a FEN for the command line (tolerant of missing counters) or throws InputError
/// naming the field and byte.
Position fen_or_throw(const std::string& fen);

/// A validator for a whole number from lo to hi, whose errors say which ("'abc' is not a whole
/// number", "0 is out of range: 1 to 1000").
CLI::Validator whole_number(long long lo, long long hi);

void add_perft(CLI::App& app);
void add_moves(CLI::App& app);
void add_status(CLI::App& app);
void add_claim(CLI::App& app);
void add_session(CLI::App& app);
void add_audit(CLI::App& app);
void add_dead(CLI::App& app);
/// `arbiter serve` (cmd_serve.cpp, tools/serve/): the JSON API and the web console.
void add_serve(CLI::App& app);
/// `arbiter watch` (tools/watch/): the hall monitor over live PGN feeds.
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
