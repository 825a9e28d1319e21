// request_fields.hpp — the keys of a JSON request read into typed fields, for the faces that take
// their options as JSON (the service's bodies, docs/api.md; the JavaScript API's options): unknown
// keys and wrong types are a FieldError naming the key, and the rule options and the position
// of a request are read as the CLI's options are (game_input.hpp).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "errors.hpp"
#include "json/json.hpp"
#include "requests/game_input.hpp"

namespace arbiter::face {

/// A key of a request that is unknown, of the wrong type or out of range (code "bad_field").
class FieldError : public InputError {
public:
    FieldError(const std::string& message, std::string field)
        : InputError(Code::bad_field, message, std::move(field)) {}
};

class Fields {
public:
    /// Throws FieldError for a key not in `allowed`.
    explicit Fields(const Json& j, const std::set<std::string>& allowed);
    /// Present and not null (a null key is an absent one).
    [[nodiscard]] bool has(const char* key) const { return j_.contains(key) && !j_.at(key).is_null(); }
    void text(const char* key, std::string& out) const;
    void flag(const char* key, bool& out) const;
    template <class Int>
    void number(const char* key, Int& out, long long lo, long long hi) const {
        if (has(key)) out = static_cast<Int>(whole_number(key, lo, hi));
    }
    void texts(const char* key, std::vector<std::string>& out) const;

private:
    const Json& j_;
    long long whole_number(const char* key, long long lo, long long hi) const;
    [[noreturn]] static void bad(const char* key, const std::string& what);
};

/// The keys of a request that takes the rule options, besides `keys`.
std::set<std::string> with_rule_keys(std::set<std::string> keys);
/// The rule options of a request (the CLI's rule options).
void read_rules(const Fields& f, RuleInput& in);
/// The keys read_position reads (fen, moves, pgn, game, ply), with `more`.
std::set<std::string> position_keys(std::set<std::string> more = {});
/// The position of a status, claim or dead request (the POSITION options of the CLI): fen, moves,
/// pgn, game, ply.
GameInput read_position(const Fields& f);

}  // namespace arbiter::face
