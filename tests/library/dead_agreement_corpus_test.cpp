// The automatic check agrees with can_checkmate (issues 21 and 29; label `corpus`): on the
// positions of the real games (../shared/data/pgn/real), of generated games biased towards
// sacrifices and sparse material, and of the unwinnability test vectors, the automatic check
// after a ply (Unwinnability::ability for both sides, as the rules layer calls it) reports a dead
// position exactly when can_checkmate decides that neither side can mate, wherever it decides.
// Positions without a legal move are left out: there checkmate or stalemate ends the game first.
// The test vectors' composed blockades, which the fast exit used to answer "not dead" (258 of
// them), are now decided by the analysis too (HelpmateOptions::exact): no disagreement is left.
// make test runs a sample of each set; ARBITER_CORPUS_FULL=1 (make corpus) runs them whole.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "arbiter/input.hpp"
#include "arbiter/pgn_game.hpp"
#include "helpmate_corpus.hpp"

using namespace arbiter;
using namespace arbiter::testing;
namespace fs = std::filesystem;

namespace {

struct Agreement {
    std::uint64_t positions = 0, decided = 0, dead = 0, disagreements = 0;

    void print(const char* title) const {
        std::cout << "[ " << title << " ] " << positions << " positions, " << decided << " decided by can_checkmate, "
                  << dead << " dead, " << disagreements << " disagreements\n";
    }
};

bool automatic_dead(const Position& pos) {
    const Unwinnability& u = default_unwinnability();
    return u.ability(pos, Color::white) == MateAbility::cannot_checkmate &&
           u.ability(pos, Color::black) == MateAbility::cannot_checkmate;
}

/// Compares the automatic check with `dead` (nullopt: can_checkmate does not decide).
void compare(const Position& pos, std::optional<bool> dead, Agreement& a) {
    ++a.positions;
    const bool automatic = automatic_dead(pos);
    if (!dead) return;
    ++a.decided;
    a.dead += *dead ? 1 : 0;
    if (automatic != *dead) {
        ++a.disagreements;
        ADD_FAILURE() << "the automatic check says " << (automatic ? "dead" : "not dead")
                      << ", can_checkmate says the opposite: " << to_fen(pos);
    }
}

/// Whether neither side can mate, by can_checkmate (the quick search first: most positions are
/// settled by one mating line).
std::optional<bool> neither_can_mate(const Position& pos) {
    static const HelpmateAnalyzer quick(HelpmateOptions{HelpmateOptions::Mode::quick});
    static const HelpmateAnalyzer full;
    for (Color c : {Color::white, Color::black})
        if (quick.can_checkmate(pos, c).answer == MateAbility::can_checkmate) return false;
    bool unknown = false;
    for (Color c : {Color::white, Color::black}) {
        const MateAbility m = full.can_checkmate(pos, c).answer;
        if (m == MateAbility::can_checkmate) return false;
        unknown |= m == MateAbility::unknown;
    }
    if (unknown) return std::nullopt;
    return true;
}

void check(const Position& pos, Agreement& a) {
    if (!has_legal_move(pos)) return;
    compare(pos, neither_can_mate(pos), a);
}

/// A move chosen at random, biased towards captures, sacrifices (moves to an attacked square)
/// and checks.
Move biased_move(const Position& pos, const MoveList& moves, std::mt19937_64& rng) {
    std::vector<double> weights;
    for (Move m : moves) {
        const Position next = pos.after(m);
        double w = 1;
        if (pos.is_capture(m)) w += 8;
        if (next.attacked_by(next.turn(), m.to(), next.occupied())) w += 6;
        if (next.in_check()) w += 4;
        weights.push_back(w);
    }
    std::discrete_distribution<std::size_t> pick(weights.begin(), weights.end());
    return moves[pick(rng)];
}

/// Plays a biased game from `pos` for at most `plies`, checking every position.
void play_biased(Position pos, int plies, std::mt19937_64& rng, Agreement& a) {
    check(pos, a);
    for (int i = 0; i < plies; ++i) {
        const MoveList moves = legal_moves(pos);
        if (moves.empty()) return;
        pos = pos.after(biased_move(pos, moves, rng));
        check(pos, a);
        if (default_unwinnability().ability(pos, Color::white) == MateAbility::cannot_checkmate &&
            default_unwinnability().ability(pos, Color::black) == MateAbility::cannot_checkmate)
            return;
    }
}

/// A random legal position with the kings and `units` (FEN letters) on random squares.
std::optional<Position> random_sparse(const std::string& units, std::mt19937_64& rng) {
    for (int attempt = 0; attempt < 100; ++attempt) {
        std::string board(64, '.');
        place_randomly(board, "Kk" + units, rng);
        std::string fen = placement_of(board);
        fen += rng() % 2 ? " w - - 0 1" : " b - - 0 1";
        if (auto p = position_from_fen(fen)) return *p;
    }
    return std::nullopt;
}

}  // namespace

TEST(DeadAgreementCorpus, RealGames) {
    const fs::path dir = fs::path(ARBITER_SHARED_DATA) / "pgn" / "real";
    if (!fs::exists(dir)) GTEST_SKIP() << "no corpus at " << dir;
    const std::size_t step = corpus_full() ? 1 : 64;
    Agreement a;
    std::size_t n = 0, locked = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
        auto src = open_input(entry.path().string());
        ASSERT_TRUE(src) << entry.path();
        pgn::GameReader reader(**src);
        pgn::ParsedGame game;
        while (reader.next(game)) {
            if (!game.has_start) continue;
            Position pos = game.start;
            if (n++ % step == 0) check(pos, a);
            for (const auto& ply : game.plies) {
                pos = pos.after(ply.move);
                locked += HelpmateAnalyzer::has_locked_units(pos);
                if (n++ % step == 0) check(pos, a);
            }
        }
    }
    a.print("real games");
    // Every position, sampled or not: the audit sends a final position with locked units to the
    // analysis (docs/unwinnability.md), which costs it little because real games have none.
    std::cout << "[ real games ] " << locked << " of " << n << " positions with locked units\n";
    EXPECT_EQ(locked, 0u);
    EXPECT_GT(a.decided, corpus_full() ? 250'000u : 4'000u);
    EXPECT_EQ(a.disagreements, 0u);
}

TEST(DeadAgreementCorpus, GeneratedGames) {
    std::mt19937_64 rng(21);
    Agreement a;
    // Games from the initial position, biased towards captures and sacrifices.
    const int games = corpus_full() ? 2000 : 40;
    for (int g = 0; g < games; ++g) play_biased(Position(), 300, rng, a);
    // Sparse material: kings and a few units on random squares, then a biased game.
    static const char* sets[] = {"Q",    "q",   "R",   "r",  "QR",  "Rb",  "Rn",  "rB", "rN",  "Qn",  "qB",
                                 "Pp",   "Rp",  "rP",  "RB", "qN",  "RRn", "Qbn", "QB", "rnb", "Ppp", "PPp",
                                 "Rppp", "rPP", "QNb", "Bn", "BNp", "NNp", "Qq",  "Rr", "RrB", "Pq",  "pQ"};
    const int sparse = corpus_full() ? 40000 : 400;
    for (int g = 0; g < sparse; ++g)
        if (auto p = random_sparse(sets[rng() % std::size(sets)], rng)) play_biased(*p, 30, rng, a);
    a.print("generated games");
    EXPECT_GT(a.dead, 0u);
    EXPECT_EQ(a.disagreements, 0u);
}

TEST(DeadAgreementCorpus, TestVectors) {
    const std::string path = unwinnable_dir() + "d3_test-vector.txt";
    if (!fs::exists(path)) GTEST_SKIP() << "corpus file not found: " << path;
    // Each line gives both sides' answers ("WB FEN": W when White can mate, B when Black can),
    // which UnwinnabilityCorpus.TestVectors checks against can_checkmate.
    const auto queries = load_vectors(path);
    const std::size_t step = corpus_full() ? 2 : 64;  // the two queries of a position are adjacent
    Agreement a;
    for (std::size_t i = 0; i + 1 < queries.size(); i += step) {
        const Position pos = composed(queries[i].fen);
        if (!has_legal_move(pos)) continue;
        compare(pos,
                queries[i].expected == MateAbility::cannot_checkmate &&
                    queries[i + 1].expected == MateAbility::cannot_checkmate,
                a);
    }
    a.print("test vectors");
    EXPECT_EQ(a.disagreements, 0u);
}
