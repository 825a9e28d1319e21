// cmd_dead.cpp — `arbiter dead`: can a side still checkmate by any series of legal moves (FIDE
// 5.2.2 dead position, 6.9 flag fall, 5.1.2 resignation), for one position or a batch.
//
//   arbiter dead [--side white|black|both] [--limit N] [--quick|--fast] [--json] --fen FEN
//   arbiter dead --batch FILE|- [--side …] [--limit N] [--quick|--fast]
//
// --fast asks the sound fast check alone (FastUnwinnability): cannot_checkmate with a proof,
// unknown otherwise, in about a microsecond; the JSON has the same keys, "proof" naming what
// proved it.
//
// Batch input (plain or compressed, recognised by content): one position a line, `FEN [SIDE]
// [ID…]` — the FEN may omit its counters, SIDE is white, black or both, and any further fields
// (a game id, as in the project's data files) are echoed back as "id". Blank lines and lines
// starting with '#' are skipped; a line is at most max_line_bytes. Output: one JSON object a
// line, in input order, each with its "line" number; a bad line gives {"line": N, "code": …,
// "error": "…"} and the batch carries on; the exit status is 2 when a line failed.
#include <chrono>
#include <cstring>
#include <iostream>
#include <optional>
#include <sstream>

#include "arbiter/input.hpp"
#include "cli.hpp"
#include "dead_json.hpp"
#include "game_options.hpp"
#include "line_reader.hpp"
#include "position_requests.hpp"

namespace arbiter::cli {
namespace {

using Answer = DeadAnswer;

struct DeadOptions {
    std::string fen;
    std::string batch;
    std::string side = "both";
    std::uint64_t limit = HelpmateOptions{}.node_limit;
    bool quick = false;
    bool fast = false;
    bool json = false;
    bool timing = false;
};

/// "1. e4 g5 2. Nc3 f6 3. Qh5#", numbered from the position's move number.
std::string numbered(const Position& pos, const std::vector<std::string>& san) {
    std::ostringstream out;
    std::uint32_t number = pos.fullmove_number();
    bool white = pos.turn() == Color::white;
    for (std::size_t i = 0; i < san.size(); ++i) {
        if (i) out << ' ';
        if (white)
            out << number << ". ";
        else if (i == 0)
            out << number << "... ";
        out << san[i];
        if (!white) ++number;
        white = !white;
    }
    return out.str();
}

void print_human(const Position& pos, const std::vector<Answer>& answers) {
    std::cout << "position: " << to_fen(pos) << '\n';
    for (const Answer& a : answers) {
        std::cout << name(a.side) << ": ";
        switch (a.verdict.answer) {
            case MateAbility::can_checkmate:
                std::cout << "can checkmate";
                if (!a.san.empty())
                    std::cout << ", for example " << numbered(pos, a.san);
                else
                    std::cout << " (" << a.verdict.reason << ")";
                break;
            case MateAbility::cannot_checkmate: std::cout << "cannot checkmate (" << a.verdict.reason << ")"; break;
            case MateAbility::unknown:
                std::cout << "unknown (" << a.verdict.reason << ", " << a.verdict.nodes << " positions searched)";
                break;
        }
        std::cout << '\n';
    }
    const auto dead = dead_of(answers);
    if (dead) std::cout << "dead position: " << (*dead ? "yes, neither side can checkmate (5.2.2)" : "no") << '\n';
}

// The longest batch line read (a FEN with a side is under 120 bytes; the rest is room for an id).
constexpr std::size_t max_line_bytes = 4096;

bool all_of(std::string_view s, std::string_view allowed) {
    return !s.empty() && s.find_first_not_of(allowed) == std::string_view::npos;
}

struct BatchLine {
    std::string fen, side, id;
};

// Splits "FEN [white|black|both] [ID…]" into `out` (whose strings keep their room from line to
// line): the FEN is its placement and side to move and then those of castling, en passant,
// halfmove clock and fullmove number that follow in order; tokens are separated by blanks and
// tabs, and joined again by one blank.
void split_line(std::string_view line, BatchLine& out) {
    out.fen.clear();
    out.side.clear();
    out.id.clear();
    std::size_t i = 0;
    auto next = [&]() -> std::string_view {  // the next token (empty at the end)
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
        return line.substr(start, i - start);
    };
    std::string_view t = next();
    for (int k = 0; k < 2 && !t.empty(); ++k, t = next()) {
        if (k) out.fen += ' ';
        out.fen += t;
    }
    if (out.fen.find(' ') != std::string::npos) {  // both leading fields: the optional ones may follow
        auto field = [&](auto&& looks_like) {
            if (t.empty() || !looks_like(t)) return false;
            out.fen += ' ';
            out.fen += t;
            t = next();
            return true;
        };
        field([](std::string_view f) { return f == "-" || all_of(f, "KQkqABCDEFGHabcdefgh"); }) &&
            field([](std::string_view f) {
                return f == "-" || (f.size() == 2 && f[0] >= 'a' && f[0] <= 'h' && (f[1] == '3' || f[1] == '6'));
            }) &&
            field([](std::string_view f) { return all_of(f, "0123456789"); }) &&
            field([](std::string_view f) { return all_of(f, "0123456789"); });
    }
    if (t == "white" || t == "black" || t == "both") {
        out.side = t;
        t = next();
    }
    for (; !t.empty(); t = next()) {
        if (!out.id.empty()) out.id += ' ';
        out.id += t;
    }
}

void run_batch(const HelpmateAnalyzer& analyzer, ByteSource& src, const DeadOptions& opt) {
    LineReader reader(src, max_line_bytes, "dead --batch");
    std::string line;
    std::uint64_t number = 0, failed = 0, first_failed = 0;
    std::string text;  // an answer, written straight as JSON text (append_dead_members)
    BatchLine b;       // the fields of the line (kept from line to line for their room)
    for (LineReader::Got got; (got = reader.next(line)) != LineReader::Got::end;) {
        ++number;
        Json j;
        auto refuse = [&](const char* code, const std::string& message, const std::string& id) {
            j = Json{{"line", number}};
            if (!id.empty()) j["id"] = printable(id);
            j["error"] = Json{{"code", code}, {"message", printable(message)}};
            if (!failed++) first_failed = number;
        };
        if (got == LineReader::Got::too_long) {
            refuse("line_too_long",
                   "line " + std::to_string(number) + " is longer than " + std::to_string(max_line_bytes) +
                       " bytes, the limit of a batch line (a FEN with a side is under 120); skipped",
                   "");
        } else {
            const auto first = line.find_first_not_of(" \t");
            if (first == std::string::npos || line[first] == '#') continue;
            split_line(std::string_view(line).substr(first), b);
            if (!is_utf8(line)) {
                refuse("not_utf8", "line " + std::to_string(number) + " is not valid UTF-8: " + line, b.id);
            } else {
                try {
                    const Position pos = composed_fen_or_throw(b.fen);
                    const auto answers = analyse_dead(analyzer, pos, sides_of(b.side.empty() ? opt.side : b.side));
                    text.clear();  // (the string keeps its room from line to line)
                    text += "{\"line\":";
                    text += std::to_string(number);
                    if (!b.id.empty()) text += ",\"id\":" + dump(Json(b.id));
                    text += ',';
                    append_dead_members(text, pos, answers, opt.timing);
                    text += "}\n";
                    std::cout << text;
                    continue;
                } catch (const InputError& e) {
                    refuse("bad_fen", e.message(), b.id);
                }
            }
        }
        std::cout << dump(j) << '\n';
    }
    std::cout.flush();
    if (failed)
        throw InputError("dead --batch: " + std::to_string(failed) + " of " + std::to_string(number) +
                         (number == 1 ? " line" : " lines") + " failed (the first: line " +
                         std::to_string(first_failed) + "); each has an error object above");
}

}  // namespace

void add_dead(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "dead", "Can a side still checkmate by any series of legal moves? (dead position 5.2.2, flag fall 6.9)");
    auto opt = std::make_shared<DeadOptions>();
    cmd->add_option("--fen", opt->fen,
                    "The position (counters may be omitted; a composed position is accepted); with --moves, the "
                    "moves are played from it");
    auto position = std::make_shared<GameInput>();
    add_position_options(*cmd, *position, false);
    cmd->add_option("--batch", opt->batch,
                    "Analyse many positions: a file (plain, .gz, .bz2 or .zst), or - for stdin; one `FEN "
                    "[white|black|both] [ID…]` a line (at most 4096 bytes)");
    cmd->add_option("--side", opt->side, "Which side to ask about (default: both)")
        ->check(CLI::IsMember({"white", "black", "both"}));
    cmd->add_option("--limit", opt->limit,
                    "Positions the search may visit before answering unknown (checked as each search starts and "
                    "goes; a tiny limit may be passed by a few positions: \"nodes\" is the real count; default " +
                        std::to_string(opt->limit) + ")")
        ->check(whole_number(1, static_cast<long long>(face::max_dead_limit)));
    auto* quick = cmd->add_flag("--quick", opt->quick, "Quick mode: static proofs and a small search only");
    cmd->add_flag("--fast", opt->fast,
                  "The sound fast check alone: cannot_checkmate only with a proof (\"proof\" names it), unknown "
                  "otherwise; about a microsecond a question, no mating lines")
        ->excludes(quick);
    cmd->add_flag("--json", opt->json, "Machine output (batch mode always writes JSON lines)");
    cmd->add_flag("--timing", opt->timing, "Add the analysis time of each side (\"microseconds\") to the JSON");
    cmd->callback([opt, position] {
        const bool game = !position->moves.empty() || !position->pgn.empty();
        if (game && !opt->batch.empty()) throw InputError("dead: --batch cannot be combined with --moves or --pgn");
        if (!game && opt->fen.empty() == opt->batch.empty())
            throw InputError("dead: give a position (--fen, --moves or --pgn) or --batch FILE");
        HelpmateOptions options;
        options.node_limit = opt->limit;
        if (opt->quick) options.mode = HelpmateOptions::Mode::quick;
        if (opt->fast) options.mode = HelpmateOptions::Mode::fast;
        const HelpmateAnalyzer analyzer(options);
        if (!opt->batch.empty()) {
            auto src = open_input(opt->batch);
            if (!src) throw InputError("dead --batch: " + src.error().describe());
            return run_batch(analyzer, **src, *opt);
        }
        // With --moves or --pgn the position is reached in a game (a legal start, the moves
        // checked); a FEN alone may be a composed position.
        position->fen = opt->fen;
        const Position pos = game ? position_of(*position) : composed_fen_or_throw(opt->fen);
        const auto answers = analyse_dead(analyzer, pos, sides_of(opt->side));
        if (opt->json)
            std::cout << dump(dead_json(pos, answers, opt->timing)) << '\n';
        else
            print_human(pos, answers);
    });
}

}  // namespace arbiter::cli
