// errors.hpp — the refusal every face gives for bad usage or bad input (InputError): a message,
// a stable code, the field at fault and the byte in it, and the one table of those codes
// (docs/json.md, "object error"). The CLI prints it on stderr (and as JSON under --json), the
// service answers it as JSON, the Python module raises it, the JavaScript API throws it as
// ArbiterError; each shows its words through message_for, which names the parameter in the
// caller's own terms.
#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "arbiter/fen.hpp"
#include "arbiter/journal.hpp"
#include "arbiter/names.hpp"
#include "arbiter/pgn.hpp"
#include "arbiter/session.hpp"
#include "error_codes.hpp"

namespace arbiter::face {

/// A code of the list (error_codes.hpp): `Code::bad_fen`. A code not in the list does not compile.
enum class Code : std::uint8_t {
#define ARBITER_FACE_CODE_ENUM(name, status, python, meaning) name,
    ARBITER_FACE_ERROR_CODES(ARBITER_FACE_CODE_ENUM)
#undef ARBITER_FACE_CODE_ENUM
};
/// The stable name of a code: "bad_fen".
std::string_view name_of(Code code) noexcept;
/// The code of a journal error: JournalError::Code::busy is journal_busy (in every face).
Code code_of(JournalError::Code code) noexcept;

/// The families of codes an InputError may carry: the list's, or a code of one of the library's
/// readers, named by its own table (the input's `corrupt_zstd`, a FEN's, a PGN's, a session
/// event's `out_of_turn`).
enum class CodeFamily : std::uint8_t { face, input, fen, pgn, event };

/// Thrown for bad usage or bad input. The CLI's main prints "arbiter: <message>" on
/// stderr (control and invalid bytes escaped as \xNN; a NUL does not cut it short) and exits
/// with status 2 (or the status given); under --json it also prints
/// {"error":{"code","message","field"?,"offset"?}} on stdout (docs/json.md). The code is one of
/// the list's (`bad_input` unless a thrower names a better one) or a library reader's, the field
/// names the option or input field at fault, the offset the byte in it.
class InputError : public std::runtime_error {
public:
    explicit InputError(const std::string& message, int status = 2)
        : std::runtime_error(message), message_(message), status_(status) {}
    InputError(Code code, const std::string& message, std::string field = {},
               std::optional<std::uint64_t> offset = std::nullopt, int status = 2)
        : std::runtime_error(message),
          message_(message),
          status_(status),
          code_(code),
          field_(std::move(field)),
          offset_(offset) {}
    /// A code of a library reader (arbiter::InputError::Code, FenError::Code, pgn::Error::Code,
    /// EventError::Code): its own name; a journal's code becomes the list's (code_of).
    template <class E>
    requires std::is_enum_v<E> InputError(E code, const std::string& message, std::string field = {},
                                          std::optional<std::uint64_t> offset = std::nullopt, int status = 2)
        : InputError(Code::bad_input, message, std::move(field), offset, status) {
        if constexpr (std::is_same_v<E, JournalError::Code>) {
            code_ = code_of(code);
        } else {
            family_ = family_of(code);
            library_name_ = enum_name(code);
        }
    }
    /// The same code as `like`, with another message, field and offset.
    InputError(const InputError& like, const std::string& message, std::string field,
               std::optional<std::uint64_t> offset)
        : InputError(like.code_, message, std::move(field), offset, like.status_) {
        family_ = like.family_;
        library_name_ = like.library_name_;
    }
    [[nodiscard]] const std::string& message() const noexcept { return message_; }
    [[nodiscard]] int status() const noexcept { return status_; }
    /// The code's stable name ("bad_fen", "corrupt_zstd").
    [[nodiscard]] std::string_view code() const noexcept {
        return family_ == CodeFamily::face ? name_of(code_) : std::string_view(library_name_);
    }
    /// The list's code (bad_input for a library reader's code: see family()).
    [[nodiscard]] Code face_code() const noexcept { return code_; }
    [[nodiscard]] CodeFamily family() const noexcept { return family_; }
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
    static constexpr CodeFamily family_of(arbiter::InputError::Code) noexcept { return CodeFamily::input; }
    static constexpr CodeFamily family_of(FenError::Code) noexcept { return CodeFamily::fen; }
    static constexpr CodeFamily family_of(pgn::Error::Code) noexcept { return CodeFamily::pgn; }
    static constexpr CodeFamily family_of(EventError::Code) noexcept { return CodeFamily::event; }

    std::string message_;
    int status_;
    Code code_ = Code::bad_input;
    CodeFamily family_ = CodeFamily::face;
    const char* library_name_ = "";
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

/// One row of the list: its name, the HTTP status the service answers it with, the Python
/// exception class and what it means (docs/json.md lists the same).
struct ErrorCode {
    Code value;
    std::string_view code;
    int http_status;
    std::string_view python_class;
    std::string_view meaning;
};

/// Every code of the list, in its order.
std::span<const ErrorCode> error_codes();
/// The row of a code.
const ErrorCode& row_of(Code code) noexcept;
/// The row of the code named `code`, or null for a library reader's code or an unknown one.
const ErrorCode* find_error_code(std::string_view code);
/// The HTTP status of an error: its row's; 400 for a library reader's code (the session routes
/// answer an event the Laws refuse with 409, whatever its code: docs/api.md).
int http_status_of(const InputError& e) noexcept;
/// The Python exception class that raises `e`: its row's; ReadError for the input's codes,
/// FenError for a FEN's; ClaimError for a bad claim kind (field "kind"); OptionError otherwise.
std::string_view python_class_of(const InputError& e) noexcept;
/// True for every code a face may give: the list's and those of the library's readers.
bool is_known_error_code(std::string_view code);

/// The refusal of an exception a request threw, as every face gives it (the CLI's main, the HTTP
/// kit's answer(), the JavaScript bindings): an InputError as it is, std::bad_alloc as
/// out_of_memory, any other exception as internal with its what(); both of those with status 1.
/// (Python raises InputError as the package's exceptions and lets pybind11 turn the others into
/// MemoryError and RuntimeError, as Python code expects.)
InputError refusal_of(std::exception_ptr thrown);

}  // namespace arbiter::face
