// helpmate.cpp — HelpmateAnalyzer: the stages, cheapest first (see helpmate.hpp).
#include "arbiter/helpmate.hpp"

#include "arbiter/movegen.hpp"
#include "helpmate_impl.hpp"

namespace arbiter {

namespace {

constexpr int forced_line_depth = 8;
constexpr std::uint64_t forced_line_nodes = 400;

MateVerdict cannot(MateProof proof, std::string reason, std::uint64_t nodes = 0) {
    MateVerdict v;
    v.answer = MateAbility::cannot_checkmate;
    v.proof = proof;
    v.reason = std::move(reason);
    v.nodes = nodes;
    return v;
}

}  // namespace

MateVerdict HelpmateAnalyzer::can_checkmate(const Position& pos, Color side) const {
    // 1. The game is over.
    if (!has_legal_move(pos)) {
        if (!pos.in_check()) return cannot(MateProof::game_over, "stalemate: the game is over");
        if (pos.turn() == side) return cannot(MateProof::game_over, "checkmated: the game is over");
        MateVerdict v;
        v.answer = MateAbility::can_checkmate;
        v.proof = MateProof::already_mated;
        v.reason = "already checkmated the opponent";
        return v;
    }
    // 2. Material.
    if (const char* why = detail::material_cannot_mate(pos, side)) return cannot(MateProof::material, why);

    // 3. Every line soon reaches a position where the material cannot mate.
    std::uint64_t nodes = 0;
    if (detail::all_lines_end(pos, side, forced_line_depth, nodes, forced_line_nodes))
        return cannot(MateProof::exhaustive_search, "every line soon leaves material that cannot mate", nodes);

    // 4. Blockade.
    if (detail::blockade_candidate(pos) && detail::blockade_proof(pos, side))
        return cannot(MateProof::blockade, "blockade: no unit that could give mate can ever reach a mating pattern",
                      nodes);

    // 5. Search: a small one first, the full one when allowed.
    const std::uint64_t limit =
        options_.mode == HelpmateOptions::Mode::quick ? options_.quick_node_limit : options_.node_limit;
    detail::SearchOutcome found = detail::search_helpmate(pos, side, limit);
    nodes += found.nodes;
    MateVerdict v;
    v.nodes = nodes;
    switch (found.kind) {
        case detail::SearchOutcome::Kind::mate:
            v.answer = MateAbility::can_checkmate;
            v.proof = MateProof::mating_line;
            v.line = std::move(found.line);
            v.reason = "mating line found";
            break;
        case detail::SearchOutcome::Kind::exhausted:
            v.answer = MateAbility::cannot_checkmate;
            v.proof = MateProof::exhaustive_search;
            v.reason = "exhaustive search: no reachable position is a mate";
            break;
        case detail::SearchOutcome::Kind::limit:
            v.answer = MateAbility::unknown;
            v.proof = MateProof::none;
            v.reason = "node limit reached";
            break;
    }
    return v;
}

}  // namespace arbiter
