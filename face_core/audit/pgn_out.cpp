// pgn_out.cpp — the audit's --pgn-out: the games with findings, copied from the input with a
// comment on each finding.
#include "audit/audit_output.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstring>

#include "arbiter/scoresheet.hpp"
#include "audit/finding_fields.hpp"
#include "json/json.hpp"

namespace arbiter::face {

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
    std::vector<std::vector<std::string>> comments(g.plies.size() + 1);
    for (const auto& f : result.findings) comments[finding_index(g, f)].push_back(pgn_comment(f));
    std::vector<std::string> san;
    san.reserve(g.plies.size());
    for (const auto& p : g.plies) san.emplace_back(g.san(p));
    // The moves numbered, each followed by the comments of the position it reaches.
    std::vector<std::string> tokens = comments[0];
    std::size_t k = 0;
    for (auto& t : numbered_moves(g.start, san)) {
        const bool number = t.back() == '.';
        tokens.push_back(std::move(t));
        if (!number) {
            ++k;
            tokens.insert(tokens.end(), comments[k].begin(), comments[k].end());
        }
    }
    tokens.push_back(g.result.empty() ? std::string("*") : g.result);
    out += wrap_movetext(tokens, 79, "\n", false);  // a comment is never split
    out += '\n';
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

}  // namespace arbiter::face
