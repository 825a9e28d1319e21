// errors.hpp — the refusal every face gives for bad usage or bad input (InputError): a message,
// a stable code, the field at fault and the byte in it (docs/json.md, "Errors"). The CLI prints it
// on stderr (and as JSON under --json), the service answers it as JSON, the Python module raises
// it as arbiter.InputError.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

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
/// e.message() directly), so that the wording of a parameter is decided here, once.
inline std::string message_for(const InputError& e, Caller caller) {
    (void)caller;
    return e.message();
}

}  // namespace arbiter::face
