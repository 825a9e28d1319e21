// errors.hpp — the refusal every face gives for bad usage or bad input (InputError): a message,
// a stable code, the field at fault and the byte in it, and the one table of those codes
// (docs/json.md, "object error"). The CLI prints it on stderr (and as JSON under --json), the
// service answers it as JSON, the Python module raises it, the JavaScript API throws it as
// ArbiterError; each shows its words through message_for, which names the parameter in the
// caller's own terms.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace arbiter::face {

/// Thrown for bad usage or bad input. The CLI's main prints "arbiter: <message>" on
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

/// The face that shows an InputError: each names the parameter at fault in its own terms (the CLI
/// its flag, JSON its key, Python its argument, JavaScript its option).
enum class Caller { cli, json, python, javascript };

/// The message of `e` as `caller` shows it. Every face formats its refusals with this (never
/// e.message() directly), so that the wording of a parameter is decided here, once. The face
/// core writes its messages in the command line's words ("--rules: unknown rule set 'x' …");
/// for every other caller each option named in them ("--rules", "--fifty-extension") becomes the
/// key, argument or option of the same meaning ("rules", "fifty_extensions"), and so does the
/// field when it is written as a flag.
std::string message_for(const InputError& e, Caller caller);

/// The name of the parameter a command-line option stands for, as JSON, Python and JavaScript
/// name it: "--time-category" → "time_category", "--fifty-extension" → "fifty_extensions".
std::string parameter_of_flag(std::string_view flag);

/// One stable error code: its name, the HTTP status the service answers it with, and what it
/// means (docs/json.md lists the same).
struct ErrorCode {
    std::string_view code;
    int http_status;
    std::string_view meaning;
};

/// Every code a face gives of its own (bad usage, bad values, positions and moves, requests,
/// limits), in one table; the codes of the library's readers (FEN, input, PGN, journal, session
/// events) come from their name tables and are answered with 400 (the session routes answer an
/// event the Laws refuse with 409, whatever its code: docs/api.md).
std::span<const ErrorCode> error_codes();
/// The entry of `code` in error_codes(), or null for a library code or an unknown one.
const ErrorCode* find_error_code(std::string_view code);
/// The HTTP status for `code`: its table entry's, else 400.
int http_status_of(std::string_view code);
/// True for every code a face may give: the table's and those of the library's readers.
bool is_known_error_code(std::string_view code);

}  // namespace arbiter::face
