// audit_output.cpp — JSONL, CSV and summary output of `arbiter audit`, written by hand (not
// through a JSON library) because the audit writes millions of records.
#include "audit_output.hpp"

#include <cstdio>
#include <cstring>

#include "rules_json.hpp"

namespace arbiter::cli {

namespace {

using audit::Finding;

void json_escape_into(std::string& out, std::string_view s) {
    out += Json(std::string(s)).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string csv_field(std::string_view s) {
    if (s.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(s);
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

const char* side_or_empty(const std::optional<Color>& c) { return c ? (*c == Color::white ? "white" : "black") : ""; }

std::uint64_t line_in_file(const pgn::SourcePos& p, const GameSource& src) { return p.line + src.first_line - 1; }

}  // namespace

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

std::string jsonl_record(const pgn::ParsedGame& game, const audit::GameAudit& result, const GameSource& src) {
    std::string line;
    line += ",\"file\":";
    json_escape_into(line, *src.file);
    line += ",\"tags\":{";
    bool first = true;
    for (std::size_t t = 0; t < game.tag_count(); ++t) {
        const auto tag = game.tag_at(t);
        if (game.tag_index(tag.name) != t) continue;  // a name written twice: the first (keys stay unique)
        if (!first) line += ',';
        first = false;
        json_escape_into(line, tag.name);
        line += ':';
        json_escape_into(line, tag.value);
    }
    line += "},\"rules\":\"";
    line += result.rules->name;
    line += "\",\"time_category\":\"";
    line += time_category_name(result.time_category);
    line += "\",\"plies\":" + std::to_string(result.plies);
    // The termination marker and the Result tag, null when absent (`result` is the marker).
    const auto marker = game.result.empty() ? std::nullopt : std::optional<std::string_view>(game.result);
    auto put = [&](const char* key, std::optional<std::string_view> value) {
        line += key;
        if (value)
            json_escape_into(line, *value);
        else
            line += "null";
    };
    put(",\"result\":", marker);
    put(",\"result_marker\":", marker);
    put(",\"result_tag\":", game.tag("Result"));
    line += ",\"findings\":[";
    for (std::size_t k = 0; k < result.findings.size(); ++k) {
        const Finding& f = result.findings[k];
        if (k) line += ',';
        line += "{\"type\":\"";
        line += audit::finding_type_name(f.type);
        line += "\",\"kind\":";
        json_escape_into(line, f.kind);
        line += ",\"ply\":" + std::to_string(f.ply) + ",\"side\":";
        line += f.side ? std::string("\"") + side_or_empty(f.side) + "\"" : "null";
        line += ",\"article\":";
        json_escape_into(line, f.article);
        line += ",\"detail\":";
        json_escape_into(line, f.detail);
        line += '}';
    }
    for (const auto* list : {&game.errors, &game.warnings}) {
        line += list == &game.errors ? "],\"errors\":[" : "],\"warnings\":[";
        for (std::size_t k = 0; k < list->size(); ++k) {
            const auto& e = (*list)[k];
            if (k) line += ',';
            line += "{\"line\":" + std::to_string(line_in_file(e.pos, src)) +
                    ",\"column\":" + std::to_string(e.pos.column) +
                    ",\"offset\":" + std::to_string(e.pos.offset + src.first_offset) + ",\"code\":\"" +
                    pgn::code_name(e.code) + "\",\"message\":";
            json_escape_into(line, e.message);
            line += '}';
        }
    }
    line += "]}\n";
    return line;
}

const char* const csv_header =
    "game,game_in_file,file,white,black,date,result,rules,plies,type,kind,ply,side,article,detail\n";

std::string csv_rows(const pgn::ParsedGame& game, const audit::GameAudit& result, const GameSource& src) {
    std::string rows;
    auto tag = [&](const char* name) { return csv_field(game.tag(name).value_or("")); };
    const std::string prefix = "," + csv_field(*src.file) + "," + tag("White") + "," + tag("Black") + "," +
                               tag("Date") + "," + csv_field(game.result) + "," + result.rules->name + "," +
                               std::to_string(result.plies) + ",";
    for (const auto& f : result.findings)
        rows += prefix + audit::finding_type_name(f.type) + "," + csv_field(f.kind) + "," + std::to_string(f.ply) +
                "," + side_or_empty(f.side) + "," + csv_field(f.article) + "," + csv_field(f.detail) + "\n";
    for (const auto* list : {&game.errors, &game.warnings})
        for (const auto& e : *list)
            rows += prefix + (list == &game.errors ? "error," : "warning,") + pgn::code_name(e.code) + ",,,," +
                    csv_field("line " + std::to_string(line_in_file(e.pos, src)) + ", column " +
                              std::to_string(e.pos.column) + ": " + e.message) +
                    "\n";
    return rows;
}

void write_numbered(std::ostream& out, AuditFormat format, std::uint64_t game, std::uint64_t game_in_file,
                    const std::string& text) {
    if (format == AuditFormat::jsonl) {
        out << "{\"game\":" << game << ",\"game_in_file\":" << game_in_file << text;
        return;
    }
    // one CSV row per finding: each row starts with the game numbers
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        out << game << ',' << game_in_file << text.substr(start, end - start + 1);
        start = end + 1;
    }
}

void print_summary(std::ostream& out, const AuditCounts& c, double seconds, std::uint64_t bytes, bool json) {
    const double rate = seconds > 0 ? static_cast<double>(c.games) / seconds : 0;
    if (json) {
        Json j;
        j["games"] = c.games;
        j["plies"] = c.plies;
        j["games_with_findings"] = c.games_with_findings;
        j["games_with_errors"] = c.games_with_errors;
        j["errors"] = c.errors;
        Json f = Json::object();
        for (const auto& [k, v] : c.findings) f[k] = v;
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

}  // namespace arbiter::cli
