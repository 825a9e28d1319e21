// FastUnwinnability (issue 35), proof by proof: each stage of the fast check on a position that
// it decides, with the proof it names, the same answer through HelpmateAnalyzer's Mode::fast,
// and `unknown` (never `can_checkmate`) wherever a side can still mate or no cheap proof exists.
#include <gtest/gtest.h>

#include <string>

#include "arbiter/arbiter.hpp"
#include "helpmate_check.hpp"

using namespace arbiter;
using arbiter::testing::composed;

namespace {

MateVerdict fast(const std::string& fen, Color side) { return FastUnwinnability{}.can_checkmate(composed(fen), side); }

void expect_proof(const std::string& fen, Color side, MateProof proof) {
    const Position pos = composed(fen);
    const MateVerdict v = FastUnwinnability{}.can_checkmate(pos, side);
    EXPECT_EQ(v.answer, MateAbility::cannot_checkmate) << fen << ' ' << name(side);
    EXPECT_EQ(v.proof, proof) << fen << ' ' << name(side) << ": " << v.reason;
    EXPECT_TRUE(v.line.empty());
    EXPECT_EQ(FastUnwinnability{}.ability(pos, side), MateAbility::cannot_checkmate);
    // The full search agrees.
    EXPECT_EQ(HelpmateAnalyzer{}.can_checkmate(pos, side).answer, MateAbility::cannot_checkmate) << fen;
    // HelpmateAnalyzer in Mode::fast is the same check.
    const HelpmateAnalyzer fast_mode(HelpmateOptions{HelpmateOptions::Mode::fast});
    const MateVerdict m = fast_mode.can_checkmate(pos, side);
    EXPECT_EQ(m.answer, v.answer);
    EXPECT_EQ(m.proof, v.proof);
    EXPECT_EQ(fast_mode.ability(pos, side), MateAbility::cannot_checkmate);
}

void expect_unknown(const std::string& fen, Color side) {
    const Position pos = composed(fen);
    const MateVerdict v = FastUnwinnability{}.can_checkmate(pos, side);
    EXPECT_EQ(v.answer, MateAbility::unknown) << fen << ' ' << name(side) << ": " << v.reason;
    EXPECT_EQ(v.proof, MateProof::none);
    EXPECT_TRUE(v.line.empty());
    EXPECT_EQ(FastUnwinnability{}.ability(pos, side), MateAbility::unknown);
    EXPECT_EQ(HelpmateAnalyzer(HelpmateOptions{HelpmateOptions::Mode::fast}).ability(pos, side), MateAbility::unknown);
}

TEST(FastUnwinnability, GameOverByStalemate) {
    expect_proof("7k/5Q2/6K1/8/8/8/8/8 b - -", Color::white, MateProof::game_over);
    expect_proof("7k/5Q2/6K1/8/8/8/8/8 b - -", Color::black, MateProof::game_over);
    expect_proof("k7/P7/K7/8/8/8/8/8 b - -", Color::white, MateProof::game_over);
}

TEST(FastUnwinnability, GameOverForTheSideCheckmated) {
    // Black is checkmated: Black can never mate; White has mated already, which the fast check
    // does not report (it proves only "cannot").
    const std::string mated = "7k/6Q1/6K1/8/8/8/8/8 b - -";
    expect_proof(mated, Color::black, MateProof::game_over);
    expect_unknown(mated, Color::white);
}

TEST(FastUnwinnability, Material) {
    expect_proof("8/8/4k3/8/8/3BK3/8/8 w - -", Color::white, MateProof::material);
    expect_proof("8/8/4k3/8/8/3BK3/8/8 w - -", Color::black, MateProof::material);
    expect_proof("k7/8/1K6/8/8/8/8/1R6 w - -", Color::black, MateProof::material);
    expect_proof("7k/8/6KP/8/8/8/8/8 b - -", Color::black, MateProof::material);
}

TEST(FastUnwinnability, Blockade) {
    // Pawn walls across the board with kings alone on each side.
    for (const char* fen : {"4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - -", "8/8/k7/p1p1p1p1/P1P1P1P1/K7/8/8 w - -",
                            "8/4k3/8/1p1p1p1p/1P1P1P1P/8/4K3/8 b - -"})
        for (Color c : {Color::white, Color::black}) expect_proof(fen, c, MateProof::blockade);
}

TEST(FastUnwinnability, UnknownWhereASideCanMate) {
    expect_unknown("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", Color::white);
    expect_unknown("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", Color::black);
    expect_unknown("7k/5Q1p/6K1/8/8/8/8/8 w - -", Color::white);  // mate in one: still only "unknown"
    expect_unknown("k7/8/1K6/8/8/8/8/1R6 w - -", Color::white);
    expect_unknown("7k/8/6KP/8/8/8/8/8 b - -", Color::white);
    // A wall with a rook boxed in only for now (its king steps aside), and one with a gap on
    // the a-file's neighbour: both sides can mate, the fast check must not prove otherwise.
    for (const char* fen : {"4k3/8/8/p1p1p1p1/P1P1P1P1/1P6/P7/RK6 w - -", "4k3/p7/P7/1p1p1p1p/1P1P1P1P/8/8/4K3 w - -"})
        for (Color c : {Color::white, Color::black}) {
            expect_unknown(fen, c);
            EXPECT_EQ(HelpmateAnalyzer{}.can_checkmate(composed(fen), c).answer, MateAbility::can_checkmate) << fen;
        }
}

TEST(FastUnwinnability, UnknownInPawnEndingsWhereAKingGetsThrough) {
    // Pawns stopped by pawns, but a king can go round and take them: the small search runs out
    // (or would find a mate) and the fast check proves nothing. The full search finds mates.
    for (const char* fen : {"8/8/p1k5/Pp1p4/1P1P4/2K5/8/8 w - -", "8/8/2k5/p1p1p3/P1P1P3/1K6/8/8 b - -",
                            "8/3k4/p2p4/P1pPp3/2P1P3/3K4/8/8 w - -", "8/8/1p1k4/pPp1p3/P1P1P3/3K4/8/8 w - -"})
        for (Color c : {Color::white, Color::black}) {
            expect_unknown(fen, c);
            EXPECT_EQ(HelpmateAnalyzer{}.can_checkmate(composed(fen), c).answer, MateAbility::can_checkmate) << fen;
        }
}

TEST(FastUnwinnability, AnswersDoNotDependOnTheOrder) {
    // The same verdict on a second call (no state is kept between calls).
    const std::string fen = "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - -";
    const MateVerdict a = fast(fen, Color::white), b = fast(fen, Color::white);
    EXPECT_EQ(a.answer, b.answer);
    EXPECT_EQ(a.proof, b.proof);
    EXPECT_EQ(a.reason, b.reason);
}

}  // namespace
