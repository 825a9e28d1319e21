// cmd_dead.cpp — `arbiter dead`: can a side still checkmate by any series of legal moves (FIDE
// 5.2.2 dead position, 6.9 flag fall, 5.1.2 resignation), for one position or a batch.
//
//   arbiter dead [--side white|black|both] [--limit N] [--quick] [--json] --fen FEN
//   arbiter dead --batch FILE|- [--side …] [--limit N] [--quick]
//
// Batch input: one position a line, `FEN` or `FEN white|black` (the FEN may omit its counters);
// blank lines and lines starting with '#' are skipped. Output: one JSON object a line, in input
// order; a bad line gives {"line": N, "error": "…"} and the batch carries on.
#include <chrono>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli.hpp"

namespace arbiter::cli {
namespace {

using nlohmann::json;

struct DeadOptions {
    std::string fen;
    std::string batch;
    std::string side = "both";
    std::uint64_t limit = HelpmateOptions{}.node_limit;
    bool quick = false;
    bool json = false;
    bool timing = false;
};

struct Answer {
    Color side;
    MateVerdict verdict;
    std::vector<std::string> san;  // the mating line in SAN
    double micros = 0;             // analysis time
};

/// Like fen_or_throw, but composed positions are welcome: surplus pieces and checks no last move
/// could have given do not change what can follow.
Position composed_fen_or_throw(const std::string& fen) {
    FenReadOptions options;
    options.tolerant = true;
    SetupRepairs repairs;
    repairs.allow_too_many_pieces = true;
    repairs.allow_impossible_check = true;
    auto pos = position_from_fen(fen, options, repairs);
    if (!pos) throw InputError(pos.error().describe());
    return *pos;
}

std::vector<Color> sides_of(const std::string& side) {
    if (side == "white") return {Color::white};
    if (side == "black") return {Color::black};
    return {Color::white, Color::black};
}

std::vector<std::string> san_line(Position pos, const std::vector<Move>& line) {
    std::vector<std::string> out;
    out.reserve(line.size());
    for (Move m : line) {
        out.push_back(to_san(pos, m));
        pos.play_unchecked(m);
    }
    return out;
}

std::vector<Answer> analyse(const HelpmateAnalyzer& analyzer, const Position& pos, const std::vector<Color>& sides) {
    std::vector<Answer> out;
    for (Color c : sides) {
        const auto start = std::chrono::steady_clock::now();
        Answer a{c, analyzer.can_checkmate(pos, c), {}};
        a.micros = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
        a.san = san_line(pos, a.verdict.line);
        out.push_back(std::move(a));
    }
    return out;
}

/// `dead` is known when both sides were asked, or when a side asked can mate.
std::optional<bool> dead_of(const std::vector<Answer>& answers) {
    for (const Answer& a : answers)
        if (a.verdict.answer == MateAbility::can_checkmate) return false;
    if (answers.size() < 2) return std::nullopt;
    for (const Answer& a : answers)
        if (a.verdict.answer != MateAbility::cannot_checkmate) return std::nullopt;
    return true;
}

json to_json(const Position& pos, const std::vector<Answer>& answers, bool timing) {
    json j;
    j["fen"] = to_fen(pos);
    json helpmate = json::object(), reason = json::object(), proof = json::object(), nodes = json::object(),
         micros = json::object();
    for (const Answer& a : answers) {
        const std::string side(name(a.side));
        j[side] = mate_ability_name(a.verdict.answer);
        if (a.verdict.answer == MateAbility::can_checkmate) helpmate[side] = a.san;
        reason[side] = a.verdict.reason;
        proof[side] = mate_proof_name(a.verdict.proof);
        nodes[side] = a.verdict.nodes;
        micros[side] = a.micros;
    }
    const auto dead = dead_of(answers);
    j["dead"] = dead ? json(*dead) : json(nullptr);
    j["helpmate"] = helpmate;
    j["reason"] = reason;
    j["proof"] = proof;
    j["nodes"] = nodes;
    if (timing) j["microseconds"] = micros;
    return j;
}

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

/// Splits "FEN [white|black]"; the side is empty when not given.
std::pair<std::string, std::string> split_side(const std::string& line) {
    const auto last = line.find_last_of(" \t");
    if (last != std::string::npos) {
        const std::string tail = line.substr(last + 1);
        if (tail == "white" || tail == "black") {
            const auto end = line.find_last_not_of(" \t", last);
            return {line.substr(0, end == std::string::npos ? 0 : end + 1), tail};
        }
    }
    return {line, ""};
}

void run_batch(const HelpmateAnalyzer& analyzer, std::istream& in, const DeadOptions& opt) {
    std::string line;
    std::uint64_t number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const auto first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line[first] == '#') continue;
        const auto [fen, side] = split_side(line.substr(first));
        json j;
        try {
            const Position pos = composed_fen_or_throw(fen);
            j = to_json(pos, analyse(analyzer, pos, sides_of(side.empty() ? opt.side : side)), opt.timing);
        } catch (const InputError& e) {
            j = json{{"line", number}, {"error", e.what()}};
        }
        std::cout << j.dump() << '\n';
    }
    std::cout.flush();
}

}  // namespace

void add_dead(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "dead", "Can a side still checkmate by any series of legal moves? (dead position 5.2.2, flag fall 6.9)");
    auto opt = std::make_shared<DeadOptions>();
    cmd->add_option("--fen", opt->fen, "The position (counters may be omitted)");
    cmd->add_option("--batch", opt->batch,
                    "Analyse many positions: a file, or - for stdin; one `FEN [white|black]` a line");
    cmd->add_option("--side", opt->side, "Which side to ask about (default: both)")
        ->check(CLI::IsMember({"white", "black", "both"}));
    cmd->add_option("--limit", opt->limit, "Positions the search may visit before answering unknown")
        ->capture_default_str()
        ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
    cmd->add_flag("--quick", opt->quick, "Quick mode: static proofs and a small search only");
    cmd->add_flag("--json", opt->json, "Machine output (batch mode always writes JSON lines)");
    cmd->add_flag("--timing", opt->timing, "Add the analysis time of each side (\"microseconds\") to the JSON");
    cmd->callback([opt] {
        if (opt->fen.empty() == opt->batch.empty()) throw InputError("dead: give exactly one of --fen and --batch");
        HelpmateOptions options;
        options.node_limit = opt->limit;
        if (opt->quick) options.mode = HelpmateOptions::Mode::quick;
        const HelpmateAnalyzer analyzer(options);
        if (!opt->batch.empty()) {
            if (opt->batch == "-") return run_batch(analyzer, std::cin, *opt);
            std::ifstream in(opt->batch);
            if (!in) throw InputError("dead: cannot read batch file " + opt->batch);
            return run_batch(analyzer, in, *opt);
        }
        const Position pos = composed_fen_or_throw(opt->fen);
        const auto answers = analyse(analyzer, pos, sides_of(opt->side));
        if (opt->json)
            std::cout << to_json(pos, answers, opt->timing).dump() << '\n';
        else
            print_human(pos, answers);
    });
}

}  // namespace arbiter::cli
