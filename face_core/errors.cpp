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

// A plain array: its length is its rows (a std::array of a stated size kept empty rows when a code left).
constexpr ErrorCode table[] = {
    {"bad_usage", 400, "options or fields that do not go together, or a required one missing"},
    {"bad_input", 400, "input that cannot be used, with no more precise code"},
    {"bad_value", 400, "a value outside its set or range (a rule-set option, a depth, a limit, a side, a claim kind)"},
    {"bad_field", 400, "a JSON key that is unknown or of the wrong type"},
    {"bad_json", 400, "a request body or event that is not a JSON object"},
    {"bad_fen", 400, "a FEN that does not read (offset: the byte in it)"},
    {"bad_move", 400, "text that is no move (offset: the byte in the moves text)"},
    {"illegal_move", 400, "a move that is not legal in its position"},
    {"ambiguous_move", 400, "a SAN move that more than one piece could make"},
    {"game_over", 400, "a move played after the game ended"},
    {"no_move", 400, "a move taken back at the start of the game"},
    {"bad_pgn", 400, "a PGN game that does not read up to the requested ply"},
    {"no_such_game", 400, "a game number past the last game of the PGN"},
    {"unknown_rule_set", 400, "a rule-set id that is not one of the ids"},
    {"not_utf8", 400, "text that is not valid UTF-8"},
    {"line_too_long", 400, "a line longer than the reader takes"},
    {"bad_square", 400, "a square that is not a1 to h8"},
    {"bad_state", 400, "a state that the request cannot apply to"},
    {"bad_request", 400, "a request the HTTP server could not read (request line, headers)"},
    {"no_such_session", 404, "no session with that id"},
    {"deleted", 400, "a JavaScript Game used after delete()"},
    {"wasm_unavailable", 500,
     "(JavaScript) the WebAssembly file could not be fetched or did not start (the message says where it was looked "
     "for)"},
    {"not_found", 404, "no such session, board or route"},
    {"method_not_allowed", 405, "a method the route does not take"},
    {"too_large", 413, "a body over the route's limit"},
    {"unauthorized", 401, "a missing or wrong bearer token"},
    {"forbidden", 403, "a request beyond the user's role, sections or boards (the message names the role it needs)"},
    {"too_many_attempts", 429, "too many wrong tokens from the address in a minute (Retry-After says when to retry)"},
    {"https_required", 400, "plain HTTP sent to a server that speaks HTTPS only"},
    {"broken_journal", 500, "the journal's hash chain does not match its rows (a record changed outside arbiter)"},
    {"too_many_streams", 503, "every stream the server holds is taken"},
    {"out_of_memory", 500, "the work needed more memory than there is"},
    {"internal", 500, "a fault of arbiter itself"},
};

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

std::span<const ErrorCode> error_codes() { return table; }

const ErrorCode* find_error_code(std::string_view code) {
    for (const auto& c : table)
        if (c.code == code) return &c;
    return nullptr;
}

int http_status_of(std::string_view code) {
    const ErrorCode* c = find_error_code(code);
    return c ? c->http_status : 400;
}

bool is_known_error_code(std::string_view code) {
    return find_error_code(code) || in_names<arbiter::InputError::Code>(code) || in_names<pgn::Error::Code>(code) ||
           in_names<JournalError::Code>(code) || in_names<EventError::Code>(code) || in_names<FenError::Code>(code);
}

}  // namespace arbiter::face
