// audit_request.hpp — the options of an audit as every face names them (the CLI's --rules,
// --time-category, --exact, --only, --select; the same keys in Python and JavaScript), read into
// the library's AuditOptions and the face core's AuditFilter, or refused with the option at fault.
#pragma once

#include <string>
#include <vector>

#include "arbiter/audit.hpp"
#include "audit_output.hpp"

namespace arbiter::face {

struct AuditRequest {
    std::string rules = "auto";  ///< "auto" (from each game's tags) or a rule-set id
    std::string time_category;   ///< empty: from each game's tags
    bool exact = false;
    std::vector<std::string> only;    ///< comma-separated lists of finding types or kinds
    std::vector<std::string> select;  ///< TAG=VALUE

    /// The library's options, the rule options `base` under them (the time category replaced
    /// when one is given). InputError unknown_rule_set ("rules") or bad_value ("time_category");
    /// messages name each option as `prefix` + its name (e.g. "--rules").
    [[nodiscard]] audit::AuditOptions options(const std::string& prefix = "", const RuleOptions& base = {}) const;
    /// The filter of `only` and `select`. InputError bad_value ("only", "select").
    [[nodiscard]] AuditFilter filter(const std::string& prefix = "") const;
};

}  // namespace arbiter::face
