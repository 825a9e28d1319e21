// errors.cpp — the table of error codes and the words of a refusal for each caller (errors.hpp).
#include "errors.hpp"

#include <algorithm>
#include <array>

#include "arbiter/fen.hpp"
#include "arbiter/input.hpp"
#include "arbiter/journal.hpp"
#include "arbiter/names.hpp"
#include "arbiter/pgn.hpp"
#include "arbiter/session.hpp"

namespace arbiter::face {

namespace {

constexpr bool flag_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; }

// The options whose parameter is not the flag with '-' written '_'.
constexpr std::array<std::pair<std::string_view, std::string_view>, 1> renamed{{
    {"fifty-extension", "fifty_extensions"},
}};

// The list as rows, in the order of Code.
constexpr ErrorCode table[] = {
#define ARBITER_FACE_CODE_ROW(name, status, python, meaning) {Code::name, #name, status, #python, meaning},
    ARBITER_FACE_ERROR_CODES(ARBITER_FACE_CODE_ROW)
#undef ARBITER_FACE_CODE_ROW
};
constexpr bool rows_in_order() {
    for (std::size_t i = 0; i < std::size(table); ++i)
        if (static_cast<std::size_t>(table[i].value) != i) return false;
    return true;
}
static_assert(rows_in_order());

// The journal's codes in the list, by JournalError::Code (one row each, in its order).
constexpr Code journal_codes[] = {
    Code::missing_file, Code::not_a_journal, Code::newer_format, Code::corrupt,  Code::no_such_session, Code::refused,
    Code::conflict,     Code::replay,        Code::io,           Code::bad_path, Code::journal_busy,    Code::read_only,
    Code::foreign_wal,  Code::user_exists,   Code::no_such_user, Code::bad_user};
static_assert(std::size(journal_codes) == enum_count<JournalError::Code>,
              "a journal code without its code in the list (error_codes.hpp)");

template <class E>
bool in_names(std::string_view code) {
    const auto& names = EnumNames<E>::names;
    return std::find(std::begin(names), std::end(names), code) != std::end(names);
}

}  // namespace

std::string parameter_of_flag(std::string_view flag) {
    if (flag.starts_with("--")) flag.remove_prefix(2);
    for (const auto& [f, p] : renamed)
        if (f == flag) return std::string(p);
    std::string out(flag);
    std::replace(out.begin(), out.end(), '-', '_');
    return out;
}

std::string message_for(const InputError& e, Caller caller) {
    const std::string& m = e.message();
    if (caller == Caller::cli) return m;
    std::string out;
    out.reserve(m.size());
    for (std::size_t i = 0; i < m.size();) {
        const bool starts_word = i == 0 || !(flag_char(m[i - 1]) || m[i - 1] == '_');
        if (starts_word && m.compare(i, 2, "--") == 0 && i + 2 < m.size() && m[i + 2] >= 'a' && m[i + 2] <= 'z') {
            std::size_t j = i + 2;
            while (j < m.size() && flag_char(m[j])) ++j;
            // A message opening with the flag of the field at fault names that field ("--fen: …"
            // of a session's start position is its key "start_fen").
            const bool field_named = i == 0 && !e.field().empty() && e.field().front() != '-';
            out += field_named ? e.field() : parameter_of_flag(std::string_view(m).substr(i, j - i));
            i = j;
            continue;
        }
        out += m[i++];
    }
    return out;
}

std::string_view name_of(Code code) noexcept { return table[static_cast<std::size_t>(code)].code; }

Code code_of(JournalError::Code code) noexcept { return journal_codes[static_cast<std::size_t>(code)]; }

std::span<const ErrorCode> error_codes() { return table; }

const ErrorCode& row_of(Code code) noexcept { return table[static_cast<std::size_t>(code)]; }

const ErrorCode* find_error_code(std::string_view code) {
    for (const auto& c : table)
        if (c.code == code) return &c;
    return nullptr;
}

int http_status_of(const InputError& e) noexcept {
    return e.family() == CodeFamily::face ? row_of(e.face_code()).http_status : 400;
}

std::string_view python_class_of(const InputError& e) noexcept {
    if (e.field() == "kind" && e.face_code() == Code::bad_value) return "ClaimError";
    switch (e.family()) {
        case CodeFamily::face: return row_of(e.face_code()).python_class;
        case CodeFamily::input: return "ReadError";
        case CodeFamily::fen: return "FenError";
        default: return "OptionError";
    }
}

InputError refusal_of(std::exception_ptr thrown) {
    try {
        std::rethrow_exception(thrown);
    } catch (const InputError& e) {
        return e;
    } catch (const std::bad_alloc&) {
        return InputError(Code::out_of_memory, "out of memory: the work needed more memory than there is", {},
                          std::nullopt, 1);
    } catch (const std::exception& e) {
        return InputError(Code::internal, e.what(), {}, std::nullopt, 1);
    } catch (...) {
        return InputError(Code::internal, "an exception that is not a std::exception", {}, std::nullopt, 1);
    }
}

bool is_known_error_code(std::string_view code) {
    return find_error_code(code) || in_names<arbiter::InputError::Code>(code) || in_names<pgn::Error::Code>(code) ||
           in_names<EventError::Code>(code) || in_names<FenError::Code>(code);
}

}  // namespace arbiter::face
