// game_input.cpp — building a GameRecord from the position a request names.
#include "requests/game_input.hpp"

#include <algorithm>
#include <cctype>

#include "arbiter/audit.hpp"
#include "arbiter/input.hpp"
#include "arbiter/pgn_game.hpp"
#include "arbiter/text.hpp"

namespace arbiter::face {

namespace {
const char* side_name(Color c) { return c == Color::white ? "White" : "Black"; }
}  // namespace

const RuleSet& RuleInput::rule_set_or_throw() const {
    const auto id = parse_rule_set(rules);
    if (!id)
        throw InputError(Code::unknown_rule_set,
                         "--rules: unknown rule set '" + printable(rules) + "' (expected " +
                             enum_name_list<RuleSetId>() + (rules == "auto" ? "; auto needs a game's tags" : "") + ")",
                         "rules");
    return rule_set(*id);
}

void play_text(GameRecord& record, const std::string& text, const std::string& field, const std::string& what,
               std::uint64_t at) {
    const auto err = record.play(text);
    if (!err) return;
    if (const auto& t = record.termination())
        throw InputError(Code::game_over,
                         what + "'" + arbiter::excerpt(text) + "': the game is over (" + termination_words(t->kind) +
                             " after " + record.move_label(t->index) + ")",
                         field, at);
    throw InputError(move_error_code(err->kind),
                     what + "'" + arbiter::excerpt(text) + "' (" + record.move_number_prefix(record.size() - 1) +
                         "): " + kind_name(err->kind) + ": " + err->message,
                     field, at + err->offset);
}

std::vector<std::string> move_tokens(const std::string& text) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        // A comment, as in PGN movetext: "{…}" (to its end when it is not closed).
        if (i < text.size() && text[i] == '{') {
            i = std::min(text.find('}', i), text.size() - 1) + 1;
            continue;
        }
        std::size_t j = i;
        while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j])) && text[j] != '{') ++j;
        std::string tok = text.substr(i, j - i);
        i = j;
        if (tok.empty()) continue;
        // Leading move number: digits followed by dots ("1.", "1...", "12.e4").
        std::size_t k = 0;
        while (k < tok.size() && std::isdigit(static_cast<unsigned char>(tok[k]))) ++k;
        if (k > 0 && k < tok.size() && tok[k] == '.') {
            while (k < tok.size() && tok[k] == '.') ++k;
            tok = tok.substr(k);
            if (tok.empty()) continue;
        }
        if (tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*") continue;
        out.push_back(tok);
    }
    return out;
}

void GameInput::refuse_pgn(const pgn::ParsedGame& g, std::string_view more) const {
    const auto& e = g.errors.front();
    throw InputError(Code::bad_pgn,
                     "--pgn: " + pgn + " game " + std::to_string(game) + ", line " + std::to_string(e.pos.line) +
                         ", column " + std::to_string(e.pos.column) + ": " + e.message + std::string(more),
                     "pgn", e.pos.offset);
}

pgn::ParsedGame GameInput::read_pgn_game(Tags* tags) const {
    auto src = !pgn_inline && pgn_text.empty()
                   ? open_input(pgn)
                   : Expected<std::unique_ptr<ByteSource>, arbiter::InputError>(memory_input(pgn_text, {}, pgn));
    if (!src) throw InputError(src.error().code, "--pgn: " + src.error().describe(), "pgn");
    std::uint64_t seen = 0;
    pgn::GameReaderOptions reading;
    // The games before the one asked for: their tags and syntax are read, their moves not played.
    reading.wants_movetext = [&](const pgn::ParsedGame&) { return seen + 1 >= static_cast<std::uint64_t>(game); };
    pgn::GameReader reader(**src, std::move(reading));
    pgn::ParsedGame g;
    while (reader.next(g)) {
        if (++seen < static_cast<std::uint64_t>(game)) continue;
        if (tags) {
            tags->clear();
            for (std::size_t i = 0; i < g.tag_count(); ++i) {
                const auto [name, value] = g.tag_at(i);
                if (g.tag_index(name) == i) tags->emplace_back(std::string(name), std::string(value));
            }
        }
        if (!g.has_start) refuse_pgn(g);
        return g;
    }
    if (const auto& e = reader.reader().input_error()) throw InputError(e->code, "--pgn: " + e->describe(), "pgn");
    throw InputError(Code::no_such_game,
                     "--pgn: " + pgn + " has " + std::to_string(seen) + (seen == 1 ? " game" : " games") + ", not " +
                         std::to_string(game),
                     "game");
}

std::unique_ptr<GameRecord> GameInput::from_pgn(const RuleSet* fixed, const RuleOptions& options, Tags* tags) const {
    const pgn::ParsedGame g = read_pgn_game(tags);
    // --ply is a game ply, counted as the audit and status --json count it: from the start
    // position's move number (2 × (move − 1), + 1 with Black to move).
    const std::uint64_t first =
        2 * (std::uint64_t{g.start.fullmove_number()} - 1) + (g.start.turn() == Color::black ? 1 : 0);
    const std::uint64_t last = first + g.plies.size();
    if (ply >= 0 && static_cast<std::uint64_t>(ply) < first)
        throw InputError(Code::bad_value,
                         "--ply " + std::to_string(ply) + ": game " + std::to_string(game) + " starts at ply " +
                             std::to_string(first) + " (its FEN's move " + std::to_string(g.start.fullmove_number()) +
                             ", " + side_name(g.start.turn()) +
                             " to move); plies are counted from the move number, give " + std::to_string(first) +
                             " to " + std::to_string(last),
                         "ply");
    const std::size_t want = ply < 0 ? g.plies.size() : static_cast<std::size_t>(ply - first);
    if (want > g.plies.size()) {
        std::string why = "the game ends at ply " + std::to_string(last) + " (" + std::to_string(g.plies.size()) +
                          " readable plies played from ply " + std::to_string(first) + ")";
        if (!g.errors.empty())
            why += " (line " + std::to_string(g.errors.front().pos.line) + ", column " +
                   std::to_string(g.errors.front().pos.column) + ": " + g.errors.front().message + ")";
        throw InputError(Code::bad_value, "--ply " + std::to_string(ply) + ": " + why, "ply");
    }
    if (ply < 0 && !g.complete && !g.errors.empty()) refuse_pgn(g, " (use --ply to stop before it)");
    const RuleSet& rs = fixed ? *fixed : rule_set(audit::rules_for_game(g, audit::AuditOptions{}));
    check_applies(rs);
    auto record = std::make_unique<GameRecord>(g.start, rs, options);
    for (std::size_t k = 0; k < want; ++k) record->play_legal(g.plies[k].move);
    return record;
}

Position position_of(const GameInput& in) { return in.given() ? in.build()->current() : Position(); }

std::unique_ptr<GameRecord> GameInput::build(Tags* tags) const {
    // --rules auto: from the PGN game's tags; a position without tags is under the current rules.
    const bool automatic = rules == "auto";
    const RuleSet& rs = automatic ? rule_set(RuleSetId::fide_2023) : rule_set_or_throw();
    const RuleOptions options = rule_options();
    const int sources = (has_fen() || has_moves() ? 1 : 0) + (has_pgn() ? 1 : 0);
    if (sources == 0) throw InputError(Code::bad_usage, "no position given: use --fen, --moves or --pgn");
    if (has_pgn() && (has_fen() || has_moves()))
        throw InputError(Code::bad_usage, "--pgn cannot be combined with --fen or --moves", "pgn");
    if (!has_pgn() && ply_given)
        throw InputError(Code::bad_usage,
                         "--ply applies to a game read with --pgn; with --fen/--moves, give the moves to play instead",
                         "ply");
    if (!has_pgn() && game_given) throw InputError(Code::bad_usage, "--game applies only with --pgn", "game");
    if (has_pgn()) return from_pgn(automatic ? nullptr : &rs, options, tags);
    check_applies(rs);

    const Position start = has_fen() ? fen_or_throw(fen) : Position();
    auto record = std::make_unique<GameRecord>(start, rs, options);
    const auto tokens = move_tokens(moves);
    std::size_t at = 0;  // the byte of the token in --moves, for the error
    for (std::size_t k = 0; k < tokens.size(); ++k) {
        at = std::min(moves.find(tokens[k], at), moves.size());
        play_text(*record, tokens[k], "moves", "--moves: move " + std::to_string(k + 1) + " ", at);
        at += tokens[k].size();
    }
    return record;
}

}  // namespace arbiter::face
