// audit_filter.cpp — the audit's --only and --select filters.
#include "audit/audit_output.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstring>

#include "json/json.hpp"

namespace arbiter::face {

// --only and --select ---------------------------------------------------------------------------

namespace {

bool is_finding_type(std::string_view name) {
    const auto& types = EnumNames<audit::FindingType>::names;
    return std::find(types.begin(), types.end(), name) != types.end();
}

bool is_finding_kind(std::string_view name) {
    const auto& endings = EnumNames<TerminationKind>::names;
    return std::find(endings.begin(), endings.end(), name) != endings.end() ||
           std::find(audit::other_kinds.begin(), audit::other_kinds.end(), name) != audit::other_kinds.end();
}

template <class Names>
std::string joined(const Names& names) {
    std::string out;
    for (const char* n : names) out += (out.empty() ? "" : ", ") + std::string(n);
    return out;
}

}  // namespace

std::string AuditFilter::add_only(std::string_view list) {
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = list.find(',', start);
        const std::string_view name = list.substr(start, comma == std::string_view::npos ? list.npos : comma - start);
        const std::size_t slash = name.find('/');
        const bool known = slash == std::string_view::npos
                               ? is_finding_type(name) || is_finding_kind(name)
                               : is_finding_type(name.substr(0, slash)) && is_finding_kind(name.substr(slash + 1));
        if (!known)
            return "unknown finding type or kind '" + std::string(name) +
                   "' (types: " + joined(EnumNames<audit::FindingType>::names) +
                   "; kinds: " + joined(EnumNames<TerminationKind>::names) + ", " + joined(audit::other_kinds) +
                   "; or type/kind)";
        only.emplace_back(name);
        if (comma == std::string_view::npos) return {};
        start = comma + 1;
    }
}

std::string AuditFilter::add_select(std::string_view spec) {
    const std::size_t eq = spec.find('=');
    const std::string_view name = spec.substr(0, eq);
    const bool name_ok = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
    if (eq == std::string_view::npos || !name_ok)
        return "expected TAG=VALUE (a tag name of letters, digits and '_', then '=' and the value), found '" +
               std::string(spec) + "'";
    select.emplace_back(name, spec.substr(eq + 1));
    return {};
}

bool AuditFilter::selects(const pgn::ParsedGame& game) const {
    for (const auto& [name, value] : select)
        if (game.tag(name) != std::optional<std::string_view>(value)) return false;
    return true;
}

bool AuditFilter::keeps(const audit::Finding& f) const {
    if (only.empty()) return true;
    const std::string_view type = audit::finding_type_name(f.type);
    for (const auto& o : only)
        if (o == type || o == f.kind ||
            (o.size() == type.size() + 1 + f.kind.size() && o.compare(0, type.size(), type) == 0 &&
             o[type.size()] == '/' && o.compare(type.size() + 1, o.npos, f.kind) == 0))
            return true;
    return false;
}

void AuditFilter::apply(audit::GameAudit& result) const {
    if (only.empty()) return;
    std::erase_if(result.findings, [this](const audit::Finding& f) { return !keeps(f); });
}

}  // namespace arbiter::face
