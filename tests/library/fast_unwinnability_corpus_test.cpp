// The fast check is sound (issue 35; label `corpus`): wherever FastUnwinnability says
// `cannot_checkmate`, the full search finds no mate, over the D3 test vectors, the Lichess
// timeout sets and generated positions (random pawn walls with a few units, and random games played
// from the vectors). It never says `can_checkmate`, and it keeps proving the share of the
// vectors' unwinnable questions that the issue asks for (at least chasolver's 83 %).
// make test runs every vector and a sample of the real sets; ARBITER_CORPUS_FULL=1 runs them whole.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include "helpmate_corpus.hpp"

using namespace arbiter;
using namespace arbiter::testing;

namespace {

#define REQUIRE_FILE(path) \
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "corpus file not found: " << path

struct Soundness {
    std::uint64_t questions = 0, proved = 0, labelled_unwinnable = 0, proved_unwinnable = 0;
};

/// Asks the fast check; where it proves `cannot_checkmate`, the full search must not find a mate
/// (and must not contradict the label).
void check(const Position& pos, Color side, std::optional<MateAbility> expected, Soundness& s) {
    static const FastUnwinnability fast;
    static const HelpmateAnalyzer full;
    ++s.questions;
    const MateVerdict v = fast.can_checkmate(pos, side);
    const std::string what = to_fen(pos) + ' ' + std::string(name(side));
    ASSERT_NE(v.answer, MateAbility::can_checkmate) << "the fast check looks for no mating line: " << what;
    EXPECT_EQ(v.answer == MateAbility::cannot_checkmate, v.proof != MateProof::none) << what;
    EXPECT_EQ(fast.ability(pos, side), v.answer) << what;
    if (expected == MateAbility::cannot_checkmate) ++s.labelled_unwinnable;
    if (v.answer != MateAbility::cannot_checkmate) return;
    ++s.proved;
    if (expected == MateAbility::cannot_checkmate) ++s.proved_unwinnable;
    EXPECT_NE(expected, MateAbility::can_checkmate) << "fast check wrong (" << v.reason << "): " << what;
    EXPECT_NE(full.can_checkmate(pos, side).answer, MateAbility::can_checkmate)
        << "fast check says cannot (" << v.reason << "), the full search finds a mate: " << what;
}

void run(const std::vector<Query>& queries, std::size_t step, Soundness& s) {
    for (std::size_t i = 0; i < queries.size(); i += step)
        check(composed(queries[i].fen), queries[i].side, queries[i].expected, s);
}

TEST(FastUnwinnabilityCorpus, SoundAndProvesMostVectors) {
    const std::string path = unwinnable_dir() + "d3_test-vector.txt";
    REQUIRE_FILE(path);
    Soundness s;
    run(load_vectors(path), 1, s);
    std::cout << "[ vectors ] " << s.questions << " questions, " << s.proved_unwinnable << " of "
              << s.labelled_unwinnable << " unwinnable proved\n";
    ASSERT_GT(s.labelled_unwinnable, 0u);
    EXPECT_GE(s.proved_unwinnable * 100, s.labelled_unwinnable * 83);
}

TEST(FastUnwinnabilityCorpus, SoundOnLichessTimeouts) {
    const std::string path = unwinnable_dir() + "d3_lichess-30K-games.txt";
    REQUIRE_FILE(path);
    Soundness s;
    run(load_timeouts(path, std::nullopt), corpus_full() ? 1 : 5, s);
    std::cout << "[ lichess ] " << s.questions << " questions, " << s.proved << " proved unwinnable\n";
}

TEST(FastUnwinnabilityCorpus, SoundAndNearlyCompleteOnUnfairTimeouts) {
    // Every position of this set is unwinnable for the side asked.
    const std::string path = unwinnable_dir() + "d3_unfair_2022-05.txt";
    REQUIRE_FILE(path);
    Soundness s;
    run(load_timeouts(path, MateAbility::cannot_checkmate), corpus_full() ? 1 : 10, s);
    std::cout << "[ unfair ] " << s.questions << " questions, " << s.proved_unwinnable << " proved\n";
    EXPECT_GE(s.proved_unwinnable * 1000, s.questions * 999);
}

/// A random legal position: on each file, with probability 7/8, a white pawn with a black pawn
/// just in front of it (a wall, at a random height), then the kings and `units` (FEN letters) on
/// random empty squares.
std::optional<Position> random_wall(const std::string& units, std::mt19937_64& rng) {
    for (int attempt = 0; attempt < 100; ++attempt) {
        std::string board(64, '.');
        const int height = 1 + static_cast<int>(rng() % 5);
        for (int f = 0; f < 8; ++f) {
            if (rng() % 8 == 0) continue;
            const int r = std::clamp(height + static_cast<int>(rng() % 3) - 1, 1, 5);
            board[static_cast<std::size_t>(r * 8 + f)] = 'P';
            board[static_cast<std::size_t>((r + 1) * 8 + f)] = 'p';
        }
        place_randomly(board, "Kk" + units, rng);
        std::string fen = placement_of(board);
        fen += rng() % 2 ? " w - - 0 1" : " b - - 0 1";
        if (auto p = position_from_fen(fen)) return *p;
    }
    return std::nullopt;
}

TEST(FastUnwinnabilityGenerated, SoundOnRandomBoardsWithPawnWalls) {
    // Pawn-heavy boards, where the blockade proof and the small searches are tried most.
    std::mt19937_64 rng(35);
    const std::vector<std::string> kinds = {"", "B", "b", "Bb", "BB", "N", "n", "P", "p", "R", "q", "Bbp", "NB"};
    Soundness s;
    for (int i = 0; i < (corpus_full() ? 20000 : 3000); ++i)
        if (auto pos = random_wall(kinds[static_cast<std::size_t>(i) % kinds.size()], rng); pos && has_legal_move(*pos))
            for (Color c : {Color::white, Color::black}) check(*pos, c, std::nullopt, s);
    std::cout << "[ random boards ] " << s.questions << " questions, " << s.proved << " proved unwinnable\n";
    EXPECT_GT(s.proved, 0u);
}

TEST(FastUnwinnabilityGenerated, SoundAlongGamesFromTheVectors) {
    // Random games from the vectors' positions: blockades opened by a capture, pawns let through.
    const std::string path = unwinnable_dir() + "d3_test-vector.txt";
    REQUIRE_FILE(path);
    const std::vector<Query> vectors = load_vectors(path);
    std::mt19937_64 rng(3535);
    Soundness s;
    for (std::size_t i = 0; i < vectors.size(); i += corpus_full() ? 2 : 12) {
        Position pos = composed(vectors[i].fen);
        for (int ply = 0; ply < 12; ++ply) {
            const MoveList moves = legal_moves(pos);
            if (moves.empty()) break;
            pos = pos.after(moves[rng() % moves.size()]);
            for (Color c : {Color::white, Color::black}) check(pos, c, std::nullopt, s);
        }
    }
    std::cout << "[ games from the vectors ] " << s.questions << " questions, " << s.proved << " proved unwinnable\n";
    EXPECT_GT(s.proved, 0u);
}

}  // namespace
