// option_table.hpp — the options of requests declared once: the rule options and the options of
// single operations (dead's side and limit, perft's depth, the notation of a list of moves…), with
// their limits. The rule options: for each, its one name (the JSON key, Python's
// keyword argument, JavaScript's option), the command-line flag, its kind, default and help, where
// RuleInput keeps it and what it sets in the library's RuleOptions. The CLI registers its flags
// from this table (cli/game_options.cpp), JSON requests read their keys from it
// (request_fields.cpp), Python reads its keyword arguments from it (python/), and the stubs
// (_arbiter.pyi, index.d.ts) and the docs are tested against it (tests/face_core/option_table_test.cpp).
// Adding a rule option: the library's member, one row here, a test, the docs.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "requests/game_input.hpp"

namespace arbiter::face {

/// How an option is given: one name among a list (`choice`: a string), a yes or no that the
/// command line writes as true or false (`boolean`), a repeatable text (`list`: an array of
/// strings, a repeated flag), or a flag that is off by default (`flag`).
enum class OptionKind { choice, boolean, list, flag };

/// Which options an option belongs with: the rule set and time category (a command may give them
/// its own defaults: `auto` for the audit, the time control's category for a session), or the
/// options of RULES.md §1.
enum class OptionGroup { rule_set, rule };

struct RuleOptionSpec {
    std::string_view name;  ///< JSON key, Python keyword, JavaScript option: snake_case
    std::string_view flag;  ///< the command line's flag
    OptionKind kind;
    OptionGroup group;
    /// One line, starting with a capital; for a choice, followed by its names (`choices`), or
    /// only those when empty.
    std::string_view help;
    std::string_view default_text;  ///< the default as the docs write it ("fide-2023", "true", "none")
    /// Where RuleInput keeps it: `text` for a choice (and the command line's text of a boolean),
    /// `typed` for a boolean given typed, `texts` for a list, `on` for a flag.
    std::string RuleInput::*text = nullptr;
    std::optional<bool> RuleInput::*typed = nullptr;
    std::vector<std::string> RuleInput::*texts = nullptr;
    bool RuleInput::*on = nullptr;
    /// The names a choice takes, the default marked ("standard (default), rapid or blitz"); null
    /// when the help names them itself.
    std::string (*choices)() = nullptr;
    /// The values it takes, separated by spaces (the shell's completion); null for free text.
    std::string (*words)() = nullptr;
    /// Sets the library's options from RuleInput's value, or InputError naming the option; null
    /// for the rule set (RuleInput::rule_set_or_throw).
    void (*apply)(const RuleInput& in, RuleOptions& out) = nullptr;
    /// InputError (bad_usage) when the value given has no effect under a rule set; null when it
    /// always has.
    void (*check_applies)(const RuleInput& in, const RuleSet& rules) = nullptr;
};

/// Every rule option, in the order the help and the docs list them.
std::span<const RuleOptionSpec> rule_option_table();
/// The help of an option as the command line shows it (a choice's names after its help).
std::string option_help(const RuleOptionSpec& spec);
/// The option of this name, or null.
const RuleOptionSpec* find_rule_option(std::string_view name);
/// The option of this command-line flag ("--online-claims"), or null.
const RuleOptionSpec* find_rule_flag(std::string_view flag);
/// The help text of --rules: "Rule set: fide-2023 (default), …".
std::string rules_option_help();

/// The deepest perft any face counts (the CLI, Python, JavaScript): no position has more than
/// 218 legal moves and 218^8 < 2^64 < 218^9, so a count to depth 8 always fits its 64 bits.
inline constexpr int max_perft_depth = 8;
/// The largest node limit of a dead request, for every face (the CLI's --limit, the JSON key
/// limit, Python's argument): 2^40 positions, hours of search, far past any real question.
inline constexpr std::uint64_t max_dead_limit = std::uint64_t{1} << 40;

/// How an operation's own option is given: one name among a list, a whole number in a range, or a
/// flag that is off by default.
enum class RequestOptionKind { choice, number, flag };

/// An option of one operation (not a rule option): its one name (the JSON key of the operation's
/// request, Python's keyword argument, JavaScript's option), the command line's flag, where it is
/// read, its kind, its values and default. The registry of operations (position_requests.cpp)
/// reads its keys from this table, the command line registers its flags from it, and Python and
/// JavaScript check their notation through it; the stubs are tested against it
/// (tests/face_core/option_table_test.cpp, tests/python/test_pythonic.py).
struct RequestOptionSpec {
    std::string_view name;
    /// The command line's flag ("--side"), "" when the command line has none.
    std::string_view flag;
    RequestOptionKind kind;
    /// Where it is read, separated by spaces: operations of the registry ("dead", "perft"), or
    /// ("legal_moves history") the methods that list moves in Python (Position.legal_moves,
    /// Game.history) and JavaScript (legalMoves, history).
    std::string_view operations;
    /// One line, starting with a capital, as the command line's help shows it.
    std::string_view help;
    std::string_view default_text;                ///< as the docs write it ("both", "1", "false")
    std::span<const std::string_view> choices{};  ///< a choice's names
    long long min = 0, max = 0;                   ///< a number's range
};

/// Every operation's own option, in the order the docs list them.
std::span<const RequestOptionSpec> request_option_table();
/// The option of this name (std::logic_error when there is none: a name written in code).
const RequestOptionSpec& request_option(std::string_view name);
/// The keys that `operation` reads from the table.
std::set<std::string> request_option_keys(std::string_view operation);
/// `value` when it is one of the option's choices, else InputError bad_value naming the option
/// ("--side: expected white, black or both, found 'x'"; its flag, or its name when it has none).
std::string_view checked_choice(const RequestOptionSpec& spec, std::string_view value);
/// `value` when it is in the option's range, else InputError bad_value ("--limit: 0 is out of
/// range: 1 to 1099511627776").
long long checked_number(const RequestOptionSpec& spec, long long value);

}  // namespace arbiter::face
