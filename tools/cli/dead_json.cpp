// dead_json.cpp — the analysis behind `arbiter dead` and its JSON.
#include "dead_json.hpp"

#include <chrono>

#include "cli.hpp"

namespace arbiter::cli {

Position composed_fen_or_throw(const std::string& fen) {
    auto pos = composed_position_from_fen(fen);
    if (!pos) throw InputError("bad_fen", pos.error().describe(), "fen", pos.error().offset);
    return *pos;
}

std::vector<Color> sides_of(const std::string& side) {
    if (side == "white") return {Color::white};
    if (side == "black") return {Color::black};
    return {Color::white, Color::black};
}

namespace {
std::vector<std::string> san_line(Position pos, const std::vector<Move>& line) {
    std::vector<std::string> out;
    out.reserve(line.size());
    for (Move m : line) {
        out.push_back(to_san(pos, m));
        pos.play_unchecked(m);
    }
    return out;
}
}  // namespace

std::vector<DeadAnswer> analyse_dead(const HelpmateAnalyzer& analyzer, const Position& pos,
                                     const std::vector<Color>& sides) {
    std::vector<DeadAnswer> out;
    for (Color c : sides) {
        const auto start = std::chrono::steady_clock::now();
        DeadAnswer a{c, analyzer.can_checkmate(pos, c), {}};
        a.micros = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
        a.san = san_line(pos, a.verdict.line);
        out.push_back(std::move(a));
    }
    return out;
}

std::optional<bool> dead_of(const std::vector<DeadAnswer>& answers) {
    for (const DeadAnswer& a : answers)
        if (a.verdict.answer == MateAbility::can_checkmate) return false;
    if (answers.size() < 2) return std::nullopt;
    for (const DeadAnswer& a : answers)
        if (a.verdict.answer != MateAbility::cannot_checkmate) return std::nullopt;
    return true;
}

Json dead_json(const Position& pos, const std::vector<DeadAnswer>& answers, bool timing) {
    auto per_side = [] { return Json{{"white", nullptr}, {"black", nullptr}}; };
    Json verdict = per_side(), can = per_side(), proof = per_side(), reason = per_side(), nodes = per_side(),
         helpmate = per_side(), micros = per_side();
    for (const DeadAnswer& a : answers) {
        const std::string side(name(a.side));
        verdict[side] = mate_ability_name(a.verdict.answer);
        can[side] = yes_no_unknown(a.verdict.answer);
        proof[side] = mate_proof_name(a.verdict.proof);
        reason[side] = a.verdict.reason;
        nodes[side] = a.verdict.nodes;
        if (a.verdict.answer == MateAbility::can_checkmate) helpmate[side] = a.san;
        micros[side] = a.micros;
    }
    Json j;
    j["fen"] = to_fen(pos);
    const auto dead = dead_of(answers);
    j["dead"] = dead ? Json(*dead) : Json(nullptr);
    j["white"] = verdict["white"];
    j["black"] = verdict["black"];
    j["can_checkmate"] = can;
    j["proof"] = proof;
    j["reason"] = reason;
    j["nodes"] = nodes;
    j["helpmate"] = helpmate;
    if (timing) j["microseconds"] = micros;
    return j;
}

}  // namespace arbiter::cli
