// helpmate.cpp — HelpmateAnalyzer: the stages, cheapest first (see helpmate.hpp).
#include "arbiter/helpmate.hpp"

#include <algorithm>

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

    // 5. Search: the guided search alone in quick mode; in full mode, the exhaustive and the
    //    guided searches take turns with growing budgets until one answers or the limit is hit.
    MateVerdict v;
    auto take = [&](detail::SearchOutcome& found, const char* engine) {
        nodes += found.nodes;
        v.nodes = nodes;
        if (found.kind == detail::SearchOutcome::Kind::mate) {
            v.answer = MateAbility::can_checkmate;
            v.proof = MateProof::mating_line;
            v.line = std::move(found.line);
            v.reason = std::string("mating line found by the ") + engine;
            return true;
        }
        if (found.kind == detail::SearchOutcome::Kind::exhausted) {
            v.answer = MateAbility::cannot_checkmate;
            v.proof = MateProof::exhaustive_search;
            v.reason = "exhaustive search: no reachable position is a mate";
            return true;
        }
        return false;
    };
    const bool quick = options_.mode == HelpmateOptions::Mode::quick;
    const std::uint64_t limit = quick ? options_.quick_node_limit : options_.node_limit;
    std::uint64_t guided = std::min<std::uint64_t>(options_.quick_node_limit, limit);
    {
        detail::SearchOutcome found = detail::search_helpmate(pos, side, guided);
        if (take(found, "guided search")) return v;
    }
    // Rounds of budgets growing eightfold: the reward-extended search, the exhaustive search and
    // the guided search in four plan variants (blocked pawns as material or not, first or second
    // mating corner), which share one budget: one of them is often right where others stall.
    // Mates are the common answer, so the mate finders get the larger budgets and go first, but
    // in a closed position (three pawn pairs blocked head-on) without queen or rook the exhaustive search, which proves as well as
    // finds, goes first with a larger budget. (Budgets tuned on the lichess timeouts and the test
    // vectors by positions searched.)
    const Bitboard heavy = pos.pieces(PieceType::queen) | pos.pieces(PieceType::rook);
    const Bitboard head_on = pos.pieces(Color::white, PieceType::pawn).shifted(8) & pos.pieces(Color::black, PieceType::pawn);
    const bool closed = head_on.count() >= 3 && !(pos.pieces(side) & heavy);
    std::uint64_t exhaustive = (closed ? 256 : 64) * guided;
    guided *= 64;
    auto exhaust = [&] {
        detail::SearchOutcome found = detail::exhaust_helpmate(pos, side, std::min(exhaustive, limit - nodes));
        return take(found, "exhaustive search") || nodes >= limit;
    };
    while (!quick && nodes < limit) {
        if (closed && exhaust()) break;
        detail::SearchOutcome found = detail::search_rewarded(pos, side, std::min(guided, limit - nodes));
        if (take(found, "reward-extended search") || nodes >= limit) break;
        if (!closed && exhaust()) break;
        bool done = false;
        for (int variant = 0; variant < 4 && !done && nodes < limit; ++variant) {
            found = detail::search_helpmate(pos, side, std::min(guided / 4, limit - nodes), variant);
            done = take(found, "guided search");
        }
        if (done) break;
        exhaustive *= 8;
        guided *= 8;
    }
    if (v.answer != MateAbility::unknown) return v;
    v.answer = MateAbility::unknown;
    v.proof = MateProof::none;
    v.reason = "node limit reached";
    return v;
}

}  // namespace arbiter
