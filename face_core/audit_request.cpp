// audit_request.cpp — the options of an audit (audit_request.hpp).
#include "audit_request.hpp"

#include "errors.hpp"

namespace arbiter::face {

audit::AuditOptions AuditRequest::options(const std::string& prefix, const RuleOptions& base) const {
    audit::AuditOptions o;
    o.rule_options = base;
    o.exact = exact;
    if (rules != "auto") {
        const auto id = parse_rule_set(rules);
        if (!id)
            throw InputError("unknown_rule_set",
                             prefix + "rules: unknown rule set '" + rules + "' (expected auto or a rule-set id)",
                             "rules");
        o.rules = *id;
    }
    if (!time_category.empty()) {
        const auto tc = parse_time_category(time_category);
        if (!tc)
            throw InputError("bad_value",
                             (prefix.empty() ? "time_category" : prefix + "time-category") + ": expected " +
                                 enum_name_list<TimeCategory>() + ", found '" + time_category + "'",
                             "time_category");
        o.rule_options.time_category = *tc;
        o.time_category_from_tag = false;
    }
    return o;
}

AuditFilter AuditRequest::filter(const std::string& prefix) const {
    AuditFilter f;
    for (const auto& list : only)
        if (const auto e = f.add_only(list); !e.empty()) throw InputError("bad_value", prefix + "only: " + e, "only");
    for (const auto& spec : select)
        if (const auto e = f.add_select(spec); !e.empty())
            throw InputError("bad_value", prefix + "select: " + e, "select");
    return f;
}

}  // namespace arbiter::face
