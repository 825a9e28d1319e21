// option_table.hpp — the rule options declared once: for each, its one name (the JSON key, Python's
// keyword argument, JavaScript's option), the command-line flag, its kind, default and help, where
// RuleInput keeps it and what it sets in the library's RuleOptions. The CLI registers its flags
// from this table (cli/game_options.cpp), JSON requests read their keys from it
// (request_fields.cpp), Python reads its keyword arguments from it (python/), and the stubs
// (_arbiter.pyi, index.d.ts) and the docs are tested against it (tests/face_core/option_table_test.cpp).
// Adding a rule option: the library's member, one row here, a test, the docs.
#pragma once

#include <optional>
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

}  // namespace arbiter::face
