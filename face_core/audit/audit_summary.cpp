// audit_summary.cpp — the audit's counts, its summary (text or JSON) and its progress line.
#include "audit/audit_output.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstring>

#include "json/json.hpp"
#include "vocabulary.hpp"

namespace arbiter::face {

void AuditCounts::add(const AuditCounts& o) {
    games += o.games;
    plies += o.plies;
    games_with_errors += o.games_with_errors;
    errors += o.errors;
    games_with_findings += o.games_with_findings;
    for (const auto& [k, v] : o.findings) findings[k] += v;
}

void AuditCounts::add_game(const pgn::ParsedGame& game, const audit::GameAudit& result) {
    ++games;
    plies += result.plies;
    errors += game.errors.size();
    games_with_errors += game.errors.empty() ? 0 : 1;
    games_with_findings += result.findings.empty() ? 0 : 1;
    for (const auto& f : result.findings) {
        ++findings[audit::finding_type_name(f.type)];
        ++findings[std::string(audit::finding_type_name(f.type)) + "/" + f.kind];
    }
}

std::vector<const char*> finding_kinds(audit::FindingType t) {
    using audit::FindingType;
    switch (t) {
        case FindingType::missed_automatic_draw:
        case FindingType::result_contradicts_position: {
            const auto& names = EnumNames<TerminationKind>::names;
            return {names.begin(), names.end()};
        }
        case FindingType::timeout_unwinnable: return {finding_kind::flag};
        case FindingType::claimable:
            return {finding_kind::threefold, finding_kind::threefold_intended, finding_kind::fifty,
                    finding_kind::fifty_intended};
        case FindingType::result_inconsistent: return {finding_kind::tag_vs_marker};
    }
    return {};
}

namespace {
std::uint64_t count_of(const AuditCounts& c, const std::string& key) {
    const auto it = c.findings.find(key);
    return it == c.findings.end() ? 0 : it->second;
}
}  // namespace

void print_summary(std::ostream& out, const AuditCounts& c, double seconds, std::uint64_t bytes, bool json) {
    const double rate = seconds > 0 ? static_cast<double>(c.games) / seconds : 0;
    if (json) {
        Json j;
        j["games"] = c.games;
        j["plies"] = c.plies;
        j["games_with_findings"] = c.games_with_findings;
        j["games_with_errors"] = c.games_with_errors;
        j["errors"] = c.errors;
        // Nested, every type and every kind it can have, zero counts kept (docs/json.md).
        Json f = Json::object();
        for (audit::FindingType t : enum_values<audit::FindingType>()) {
            const std::string type = audit::finding_type_name(t);
            Json kinds = Json::object();
            for (const char* k : finding_kinds(t)) kinds[k] = count_of(c, type + "/" + k);
            f[type] = Json{{"count", count_of(c, type)}, {"kinds", kinds}};
        }
        j["findings"] = f;
        j["seconds"] = seconds;
        j["games_per_second"] = rate;
        j["bytes"] = bytes;
        out << j.dump() << '\n';
        return;
    }
    out << "games              " << c.games << "\n";
    out << "plies              " << c.plies << "\n";
    out << "games with findings " << c.games_with_findings << "\n";
    out << "games with errors  " << c.games_with_errors << " (" << c.errors << " errors)\n";
    out << "findings\n";
    for (const char* t : EnumNames<audit::FindingType>::names) {
        const auto it = c.findings.find(t);
        out << "  " << t << ": " << (it == c.findings.end() ? 0 : it->second) << "\n";
        for (const auto& [k, v] : c.findings)
            if (k.size() > std::strlen(t) && k.compare(0, std::strlen(t), t) == 0 && k[std::strlen(t)] == '/')
                out << "    " << k.substr(std::strlen(t) + 1) << ": " << v << "\n";
    }
    char buf[128];
    std::snprintf(buf, sizeof buf, "time               %.2f s, %.0f games/s, %.1f MB/s\n", seconds, rate,
                  seconds > 0 ? static_cast<double>(bytes) / seconds / 1e6 : 0.0);
    out << buf;
}

std::string progress_line(std::uint64_t done, std::uint64_t total, std::uint64_t games, double seconds) {
    char buf[160];
    const double mb = static_cast<double>(done) / 1e6;
    int n = total > 0 ? std::snprintf(buf, sizeof buf, "%.1f of %.1f MB", mb, static_cast<double>(total) / 1e6)
                      : std::snprintf(buf, sizeof buf, "%.1f MB", mb);
    n +=
        std::snprintf(buf + n, sizeof buf - static_cast<std::size_t>(n), ", %llu games, %.0f games/s",
                      static_cast<unsigned long long>(games), seconds > 0 ? static_cast<double>(games) / seconds : 0.0);
    if (total > 0 && done > 0 && games > 0) {
        const double eta =
            seconds * (static_cast<double>(total) - static_cast<double>(done)) / static_cast<double>(done);
        std::snprintf(buf + n, sizeof buf - static_cast<std::size_t>(n), ", ETA %.0f s", eta > 0 ? eta : 0.0);
    }
    return buf;
}

}  // namespace arbiter::face
