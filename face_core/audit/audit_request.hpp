// audit_request.hpp — the options of an audit as every face names them (the CLI's --rules,
// --time-category, --exact, --only, --select; the same keys in Python and JavaScript), read into
// the library's AuditOptions and the face core's AuditFilter, or refused with the option at fault.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "arbiter/audit.hpp"
#include "audit/audit_output.hpp"
#include "requests/game_input.hpp"

namespace arbiter::face {

/// The most worker threads an audit takes, in every face (the CLI's --threads, Python's threads).
inline constexpr unsigned max_audit_threads = 256;

/// What every face says when its inputs hold no game at all (the CLI exits 2; Python raises
/// ReadError bad_input; the Dask job stops): one text, here.
inline constexpr std::string_view no_games_message = "no games found in the input: nothing to audit";

struct AuditRequest {
    std::string rules = "auto";  ///< "auto" (from each game's tags) or a rule-set id
    std::string time_category;   ///< empty: from each game's tags
    bool exact = false;
    std::vector<std::string> only;    ///< comma-separated lists of finding types or kinds
    std::vector<std::string> select;  ///< TAG=VALUE
    /// The rule options of RULES.md §1 (initial_position_counts, counters_from_setup,
    /// fifty_extensions, online_claims, intended_mate_incorrect), as status and claim take them;
    /// its own `rules` and `time_category` are not used (the two above are the audit's).
    RuleInput rule_input;

    /// The library's options: the rule options under the rule set and time category (the time
    /// category from each game's tags unless one is given). InputError unknown_rule_set
    /// ("rules"), bad_value ("time_category", a rule option), bad_usage (an option that has no
    /// effect under the rule set given); messages in the CLI's words (message_for for others).
    [[nodiscard]] audit::AuditOptions options() const;
    /// The filter of `only` and `select`. InputError bad_value ("only", "select").
    [[nodiscard]] AuditFilter filter() const;
};

}  // namespace arbiter::face
