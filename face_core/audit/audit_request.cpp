// audit_request.cpp — the options of an audit (audit_request.hpp).
#include "audit/audit_request.hpp"

#include "errors.hpp"
#include "text.hpp"

namespace arbiter::face {

audit::AuditOptions AuditRequest::options() const {
    audit::AuditOptions o;
    o.rule_options = rule_input.rule_options();
    o.exact = exact;
    if (rules != "auto") {
        const auto id = parse_rule_set(rules);
        if (!id)
            throw InputError(Code::unknown_rule_set,
                             "--rules: unknown rule set '" + printable(rules) + "' (expected auto or a rule-set id)",
                             "rules");
        o.rules = *id;
        rule_input.check_applies(rule_set(*id));
    }
    if (!time_category.empty()) {
        const auto tc = parse_time_category(time_category);
        if (!tc)
            throw InputError(Code::bad_value,
                             "--time-category: expected " + enum_name_list<TimeCategory>() + ", found '" +
                                 printable(time_category) + "'",
                             "time_category");
        o.rule_options.time_category = *tc;
        o.time_category_from_tag = false;
    }
    return o;
}

AuditFilter AuditRequest::filter() const {
    AuditFilter f;
    for (const auto& list : only)
        if (const auto e = f.add_only(list); !e.empty()) throw InputError(Code::bad_value, "--only: " + e, "only");
    for (const auto& spec : select)
        if (const auto e = f.add_select(spec); !e.empty())
            throw InputError(Code::bad_value, "--select: " + e, "select");
    return f;
}

}  // namespace arbiter::face
