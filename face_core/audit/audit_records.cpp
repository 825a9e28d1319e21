// audit_records.cpp — the audit's JSONL and CSV records, written by hand (not through a JSON
// library) because the audit writes millions of them, and their numbering.
#include "audit/audit_output.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "audit/finding_fields.hpp"
#include "json/json.hpp"

namespace arbiter::face {

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

std::uint64_t line_in_file(const pgn::SourcePos& p, const GameSource& src) { return p.line + src.first_line - 1; }

std::string empty_or(const std::optional<std::uint32_t>& v) { return v ? std::to_string(*v) : std::string(); }

}  // namespace

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
            line += "{\"line\":";
            if (src.relative) line += line_marker;
            line += std::to_string(line_in_file(e.pos, src)) + ",\"column\":" + std::to_string(e.pos.column) +
                    ",\"offset\":";
            if (src.relative) line += offset_marker;
            line += std::to_string(e.pos.offset + src.first_offset) + ",\"code\":\"" + pgn::code_name(e.code) +
                    "\",\"message\":";
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
    switch (format) {  // every format (face_core compiles with -Werror=switch)
        case AuditFormat::jsonl: out << "{\"game\":" << game << ",\"game_in_file\":" << game_in_file << text; return;
        case AuditFormat::csv: {
            // one CSV row per finding: each row starts with the game numbers
            std::size_t start = 0;
            while (start < text.size()) {
                const std::size_t end = text.find('\n', start);
                out << game << ',' << game_in_file << text.substr(start, end - start + 1);
                start = end + 1;
            }
            return;
        }
        case AuditFormat::summary: return;  // the summary has no records
    }
}

std::uint64_t count_newlines(std::string_view text) noexcept {
    std::uint64_t n = 0;
    std::size_t i = 0;
#if defined(__SSE2__)
    // Sixteen bytes at a time: each compare gives 0xFF (-1) per newline, subtracted into byte
    // counters that are summed (psadbw) before any can pass 255.
    const __m128i newline = _mm_set1_epi8('\n');
    while (i + 16 <= text.size()) {
        const std::size_t stop = std::min(text.size(), i + 255 * 16);
        __m128i counts = _mm_setzero_si128();
        for (; i + 16 <= stop; i += 16) {
            const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + i));
            counts = _mm_sub_epi8(counts, _mm_cmpeq_epi8(bytes, newline));
        }
        const __m128i sums = _mm_sad_epu8(counts, _mm_setzero_si128());
        n += static_cast<std::uint64_t>(_mm_cvtsi128_si64(sums)) +
             static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
    }
#endif
    constexpr std::uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    constexpr std::uint64_t nl = ones * static_cast<unsigned char>('\n');
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

namespace {

// `record` with each relative line and offset (behind its marker) made absolute.
void place_positions(std::string_view record, std::uint64_t line_base, std::uint64_t offset_base, std::string& out) {
    for (;;) {
        const std::size_t at = record.find_first_of(std::string_view("\x01\x02", 2));
        if (at == std::string_view::npos) break;
        out.append(record.substr(0, at));
        std::size_t end = at + 1;
        std::uint64_t value = 0;
        for (; end < record.size() && record[end] >= '0' && record[end] <= '9'; ++end)
            value = value * 10 + static_cast<std::uint64_t>(record[end] - '0');
        out += std::to_string(value + (record[at] == line_marker ? line_base : offset_base));
        record.remove_prefix(end);
    }
    out.append(record);
}

}  // namespace

std::uint64_t number_records(std::string_view text, std::uint64_t game, std::uint64_t game_in_file, std::string& out,
                             std::uint64_t line_base, std::uint64_t offset_base) {
    out.reserve(out.size() + text.size() + text.size() / 8);
    static constexpr std::string_view game_key = "{\"game\":", file_key = ",\"game_in_file\":";
    const std::uint64_t first = game;
    for (std::size_t start = 0; start < text.size(); ++game, ++game_in_file) {
        const char* nl = static_cast<const char*>(std::memchr(text.data() + start, '\n', text.size() - start));
        const std::size_t end = nl ? static_cast<std::size_t>(nl - text.data()) + 1 : text.size();
        if (end - start > 1) {
            char digits[24];
            out.append(game_key);
            out.append(digits, std::to_chars(digits, digits + sizeof digits, game).ptr);
            out.append(file_key);
            out.append(digits, std::to_chars(digits, digits + sizeof digits, game_in_file).ptr);
            const std::string_view record = text.substr(start, end - start);
            // Markers are only in the errors and warnings at the end of a record: most have none.
            if (std::memchr(record.data(), line_marker, record.size()) ||
                std::memchr(record.data(), offset_marker, record.size()))
                place_positions(record, line_base, offset_base, out);
            else
                out.append(record);
        }
        start = end;
    }
    return game - first;
}

}  // namespace arbiter::face
