// audit_output.cpp — JSONL, CSV, summary and annotated-PGN output of `arbiter audit`, written by
// hand (not through a JSON library) because the audit writes millions of records; the --only and
// --select filters.
#include "audit_output.hpp"

#include <algorithm>
#include <array>
#include <bit>
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

// The numeric fields of a finding, in the order of the JSONL keys and the CSV columns.
std::array<std::pair<const char*, std::optional<std::uint32_t>>, 3> number_fields(const Finding& f) {
    return {{{"chances", f.chances}, {"unused", f.unused}, {"first_ply", f.first_ply}}};
}

std::string empty_or(const std::optional<std::uint32_t>& v) { return v ? std::to_string(*v) : std::string(); }

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
        for (const auto& [key, value] : number_fields(f)) {
            line += ",\"";
            line += key;
            line += "\":";
            line += value ? std::to_string(*value) : "null";
        }
        line += ",\"first_move\":";
        if (f.first_move)
            json_escape_into(line, *f.first_move);
        else
            line += "null";
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
    "game,game_in_file,file,white,black,date,result,rules,plies,type,kind,ply,side,article,detail,event,site,round,"
    "chances,unused,first_ply,first_move\n";

std::string csv_rows(const pgn::ParsedGame& game, const audit::GameAudit& result, const GameSource& src) {
    std::string rows;
    auto tag = [&](const char* name) { return csv_field(game.tag(name).value_or("")); };
    const std::string prefix = "," + csv_field(*src.file) + "," + tag("White") + "," + tag("Black") + "," +
                               tag("Date") + "," + csv_field(game.result) + "," + result.rules->name + "," +
                               std::to_string(result.plies) + ",";
    // The columns after `detail`: the game's Event, Site and Round, then the finding's numbers.
    const std::string tags = "," + tag("Event") + "," + tag("Site") + "," + tag("Round");
    for (const auto& f : result.findings) {
        rows += prefix + audit::finding_type_name(f.type) + "," + csv_field(f.kind) + "," + std::to_string(f.ply) +
                "," + side_or_empty(f.side) + "," + csv_field(f.article) + "," + csv_field(f.detail) + tags;
        for (const auto& field : number_fields(f)) {
            rows += ',';
            rows += empty_or(field.second);
        }
        rows += ',';
        rows += csv_field(f.first_move.value_or(""));
        rows += '\n';
    }
    for (const auto* list : {&game.errors, &game.warnings})
        for (const auto& e : *list)
            rows += prefix + (list == &game.errors ? "error," : "warning,") + pgn::code_name(e.code) + ",,,," +
                    csv_field("line " + std::to_string(line_in_file(e.pos, src)) + ", column " +
                              std::to_string(e.pos.column) + ": " + e.message) +
                    tags + ",,,,\n";
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

std::uint64_t count_newlines(std::string_view text) noexcept {
    constexpr std::uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    constexpr std::uint64_t nl = ones * static_cast<unsigned char>('\n');
    std::uint64_t n = 0;
    std::size_t i = 0;
    for (; i + 8 <= text.size(); i += 8) {
        std::uint64_t w;
        std::memcpy(&w, text.data() + i, 8);
        const std::uint64_t x = w ^ nl;  // zero bytes where a newline was
        // A byte's high bit ends up set exactly when the byte was zero (no borrow across bytes).
        n += static_cast<std::uint64_t>(std::popcount(~(((x & ~highs) + ~highs) | x) & highs));
    }
    for (; i < text.size(); ++i) n += text[i] == '\n';
    return n;
}

void number_records(std::string_view text, std::uint64_t game, std::uint64_t game_in_file, std::string& out) {
    out.reserve(out.size() + text.size() + text.size() / 8);
    char digits[48];
    for (std::size_t start = 0; start < text.size(); ++game, ++game_in_file) {
        std::size_t end = text.find('\n', start);
        end = end == std::string_view::npos ? text.size() : end + 1;
        if (end - start > 1) {
            const int n =
                std::snprintf(digits, sizeof digits, "{\"game\":%llu,\"game_in_file\":%llu",
                              static_cast<unsigned long long>(game), static_cast<unsigned long long>(game_in_file));
            out.append(digits, static_cast<std::size_t>(n));
            out.append(text.substr(start, end - start));
        }
        start = end;
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
        case FindingType::timeout_unwinnable: return {audit::kind::flag};
        case FindingType::claimable:
            return {audit::kind::threefold, audit::kind::threefold_intended, audit::kind::fifty,
                    audit::kind::fifty_intended};
        case FindingType::result_inconsistent: return {audit::kind::tag_vs_marker};
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
            return "--only: unknown finding type or kind '" + std::string(name) +
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
        return "--select: expected TAG=VALUE (a tag name of letters, digits and '_', then '=' and the value), found '" +
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

// --pgn-out ---------------------------------------------------------------------------------------

std::string pgn_comment(const audit::Finding& f) {
    // Brackets and braces can come into a detail only from a tag value (the Result tag of
    // result_inconsistent); inside a comment they would end it or read as a command.
    std::string detail = f.detail;
    for (char& c : detail) {
        if (c == '{' || c == '[') c = '(';
        if (c == '}' || c == ']') c = ')';
    }
    const std::string type = audit::finding_type_name(f.type);
    std::string out = "{arbiter: " + type + " " + f.kind;
    if (f.side) out += std::string(", ") + side_or_empty(f.side);
    out += " (" + f.article + "): " + detail + " [%arbiter " + type + " " + f.kind + " article=\"" + f.article +
           "\" ply=" + std::to_string(f.ply);
    if (f.side) out += std::string(" side=") + side_or_empty(f.side);
    for (const auto& [key, value] : number_fields(f))
        if (value) out += std::string(" ") + key + "=" + std::to_string(*value);
    if (f.first_move) out += " first_move=" + *f.first_move;
    return out + "]}";
}

namespace {

// The mainline index a finding's ply stands for: 0 the start, k the position after the k-th move.
std::size_t finding_index(const pgn::ParsedGame& g, const audit::Finding& f) {
    const std::uint32_t start_ply = 2 * (g.start.fullmove_number() - 1) + (g.start.turn() == Color::black ? 1u : 0u);
    const std::size_t i = f.ply >= start_ply ? f.ply - start_ply : 0;
    return std::min(i, g.plies.size());
}

constexpr std::uint64_t at_game_end = UINT64_MAX;  // before the whitespace that ends the game's text

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The offset of the move number ("1.", "12...") written just before the move at `off`, or `off`.
std::uint64_t move_number_before(std::uint64_t off, std::string_view window, std::uint64_t window_start) {
    if (off < window_start || off > window_start + window.size()) return off;
    const auto at = [&](std::uint64_t k) { return window[k - window_start]; };
    std::uint64_t p = off;
    while (p > window_start && (at(p - 1) == ' ' || at(p - 1) == '\t')) --p;
    std::uint64_t num = p;
    while (num > window_start && (at(num - 1) == '.' || (at(num - 1) >= '0' && at(num - 1) <= '9'))) --num;
    return num < p && at(num) != '.' ? num : off;
}

// Where a game's text starts: its first tag, or for a game without tags its first move's number
// (the reader starts such a game at the move itself).
std::uint64_t game_start(const pgn::ParsedGame& g, std::string_view window, std::uint64_t window_start) {
    return g.tag_count() > 0 ? g.pos.offset : move_number_before(g.pos.offset, window, window_start);
}

// Where the comments of index i go in the input (and whether they go before the text there).
std::pair<std::uint64_t, bool> insert_offset(const pgn::ParsedGame& g, std::size_t i, std::string_view window,
                                             std::uint64_t window_start) {
    const auto at = [&](std::uint64_t off) { return window[off - window_start]; };
    const std::uint64_t end = window_start + window.size();
    if (i > 0) {
        // After the move's token and its `!`/`?` annotation, where the next token starts.
        std::uint64_t off = g.plies[i - 1].pos.offset;
        while (off < end && !is_space(at(off)) && std::strchr("{}();$[\"", at(off)) == nullptr) ++off;
        return {off, false};
    }
    // Before the first move's number ("1.", "12..."), or the move when it has none.
    if (!g.plies.empty()) return {move_number_before(g.plies[0].pos.offset, window, window_start), true};
    // No legal move: before the first move that could not be played, else before the result.
    using Code = pgn::Error::Code;
    for (const auto& e : g.errors)
        if (e.code == Code::illegal_move || e.code == Code::ambiguous_move || e.code == Code::bad_move_syntax ||
            e.code == Code::null_move)
            return {move_number_before(e.pos.offset, window, window_start), true};
    if (!g.result.empty()) return {g.result_pos.offset, true};
    return {at_game_end, false};
}

void add_blank_line(std::string& out) {
    if (out.empty() || out.back() != '\n') out += '\n';
    const std::size_t n = out.size();
    const bool blank = (n >= 2 && out[n - 2] == '\n') || (n >= 3 && out[n - 2] == '\r' && out[n - 3] == '\n');
    if (!blank) out += '\n';
}

}  // namespace

std::string pgn_from_moves(const pgn::ParsedGame& g, const audit::GameAudit& result) {
    std::string out;
    for (std::size_t t = 0; t < g.tag_count(); ++t) {
        const auto tag = g.tag_at(t);
        out += '[';
        out += tag.name;
        out += " \"";
        for (char c : tag.value) {
            if (c == '"' || c == '\\') out += '\\';
            out += c;
        }
        out += "\"]\n";
    }
    out += '\n';
    std::vector<std::string> comments(g.plies.size() + 1);
    for (const auto& f : result.findings) {
        std::string& c = comments[finding_index(g, f)];
        c += ' ';
        c += pgn_comment(f);
    }
    std::string movetext = comments[0].empty() ? std::string() : comments[0].substr(1);
    std::uint32_t ply = 2 * (g.start.fullmove_number() - 1) + (g.start.turn() == Color::black ? 1u : 0u);
    for (std::size_t k = 0; k < g.plies.size(); ++k, ++ply) {
        if (!movetext.empty()) movetext += ' ';
        if (ply % 2 == 0 || k == 0) movetext += std::to_string(ply / 2 + 1) + (ply % 2 == 0 ? ". " : "... ");
        movetext += g.san(g.plies[k]);
        movetext += comments[k + 1];
    }
    movetext += (movetext.empty() ? "" : " ") + (g.result.empty() ? std::string("*") : g.result);
    // Lines of at most 79 characters where a space between tokens allows (not inside a comment,
    // and a comment may be longer).
    std::size_t line_start = 0, last_space = std::string::npos;
    bool in_comment = false;
    for (std::size_t k = 0; k < movetext.size(); ++k) {
        if (movetext[k] == '{' || movetext[k] == '}') in_comment = movetext[k] == '{';
        if (movetext[k] == ' ' && !in_comment) {
            if (k - line_start > 79 && last_space != std::string::npos && last_space > line_start) {
                movetext[last_space] = '\n';
                line_start = last_space + 1;
            }
            last_space = k;
        }
    }
    if (movetext.size() - line_start > 79 && last_space != std::string::npos && last_space > line_start)
        movetext[last_space] = '\n';
    out += movetext;
    out += "\n\n";
    return out;
}

void PgnOut::game(const pgn::ParsedGame& g, const audit::GameAudit& result, std::string_view window,
                  std::uint64_t window_start, std::string& out) {
    const std::uint64_t start = game_start(g, window, window_start);
    if (pending_) complete(start, window, window_start, out);
    if (result.findings.empty()) return;
    Pending p;
    p.start = start;
    if (bytes_may_go || p.start < window_start) p.from_moves = pgn_from_moves(g, result);
    if (p.start < window_start) {  // its bytes are gone already
        out += p.from_moves;
        ++written_;
        return;
    }
    std::vector<std::string> comments(g.plies.size() + 1);
    for (const auto& f : result.findings) comments[finding_index(g, f)] += pgn_comment(f) + " ";
    for (std::size_t i = 0; i < comments.size(); ++i) {
        if (comments[i].empty()) continue;
        auto [off, before] = insert_offset(g, i, window, window_start);
        if (off != at_game_end) off = std::max(off, start);
        comments[i].pop_back();  // the trailing space
        p.inserts.emplace_back(off, before ? comments[i] + " " : " " + comments[i]);
    }
    pending_ = std::move(p);
}

void PgnOut::finish(std::string_view window, std::uint64_t window_start, std::string& out) {
    if (pending_) complete(window_start + window.size(), window, window_start, out);
}

void PgnOut::complete(std::uint64_t end, std::string_view window, std::uint64_t window_start, std::string& out) {
    Pending p = std::move(*pending_);
    pending_.reset();
    ++written_;
    if (p.start < window_start || end > window_start + window.size() || end < p.start) {
        out += p.from_moves;  // the game's bytes were given up (a stream)
        return;
    }
    const std::string_view text = window.substr(p.start - window_start, end - p.start);
    std::uint64_t last = p.start + text.size();  // the end of the game's last token
    while (last > p.start && is_space(text[last - p.start - 1])) --last;
    for (auto& ins : p.inserts)
        if (ins.first == at_game_end) ins.first = last;
    std::stable_sort(p.inserts.begin(), p.inserts.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::uint64_t at = p.start;
    for (const auto& [off, comment] : p.inserts) {
        out += text.substr(at - p.start, off - at);
        out += comment;
        at = off;
    }
    out += text.substr(at - p.start);
    add_blank_line(out);
}

std::string summary_line(const AuditCounts& c, double seconds) {
    std::uint64_t findings = 0;
    for (const auto& [k, v] : c.findings)
        if (k.find('/') == std::string::npos) findings += v;
    char buf[64];
    std::snprintf(buf, sizeof buf, ", %.2f s", seconds);
    return std::to_string(c.games) + (c.games == 1 ? " game, " : " games, ") + std::to_string(c.games_with_findings) +
           " with findings (" + std::to_string(findings) + (findings == 1 ? " finding), " : " findings), ") +
           std::to_string(c.games_with_errors) + " with errors" + buf;
}

}  // namespace arbiter::cli
