// cli_audit_output_test.cpp — the audit's --pgn-out writer and its filters (issue 18.4): where
// each finding's comment goes in the game's own text (after the move that reached its ply, before
// the first move number for ply 0, before the result of a game without moves), the comment's
// format, the text from the moves when the bytes are gone, --only / --select parsing, and the
// summary line.
#include <gtest/gtest.h>

#include <algorithm>

#include "arbiter/input.hpp"
#include "audit/audit_output.hpp"

namespace {

using namespace arbiter;
using arbiter::face::AuditFilter;
using arbiter::face::PgnOut;

// Reads every game of `pgn`, audits it and writes --pgn-out as the batch pipeline does.
std::string pgn_out(const std::string& pgn, const AuditFilter& filter = {}) {
    auto src = memory_input(pgn);
    pgn::GameReaderOptions ro;
    ro.keep_positions = true;
    pgn::GameReader reader(*src, ro);
    pgn::ParsedGame game;
    GameRecord record;
    PgnOut writer;
    std::string out;
    while (reader.next(game)) {
        audit::GameAudit result = audit::audit_game(game, {}, record);
        if (filter.selects(game))
            filter.apply(result);
        else
            result.findings.clear();
        writer.game(game, result, pgn, 0, out);
    }
    writer.finish(pgn, 0, out);
    return out;
}

const std::string fivefold =
    "[Event \"f\"]\n[Result \"1/2-1/2\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 "
    "Nf6\n"
    "8. Ng1 Ng8! {a comment} 9. e4 1/2-1/2\n";

TEST(AuditPgnOut, CommentAfterTheMoveAndItsAnnotation) {
    AuditFilter only;
    ASSERT_EQ(only.add_only("missed_automatic_draw"), "");
    const std::string out = pgn_out(fivefold, only);
    EXPECT_EQ(
        out,
        "[Event \"f\"]\n[Result \"1/2-1/2\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. "
        "Nf3 Nf6\n8. Ng1 Ng8! {arbiter: missed_automatic_draw fivefold_repetition (9.6.1): the game should have "
        "ended after 8...Ng8 (fivefold_repetition, 1/2-1/2) but went on for 1 more ply [%arbiter "
        "missed_automatic_draw fivefold_repetition article=\"9.6.1\" ply=16]} {a comment} 9. e4 1/2-1/2\n\n");
}

TEST(AuditPgnOut, GamesWithoutFindingsAreLeftOut) {
    const std::string quiet = "[Event \"q\"]\n\n1. e4 e5 *\n\n";
    EXPECT_EQ(pgn_out(quiet), "");
    const std::string out = pgn_out(quiet + fivefold + quiet);
    EXPECT_EQ(out.find("[Event \"q\"]"), std::string::npos);
    EXPECT_EQ(out.rfind("[Event \"f\"]", 0), 0u);
    // The last game's text ends at the next game's first byte, then a blank line.
    EXPECT_TRUE(out.ends_with("9. e4 1/2-1/2\n\n"));
}

TEST(AuditPgnOut, PlyZeroGoesBeforeTheFirstMoveNumber) {
    // A claim on the position standing at the start (a FEN with 100 plies without progress).
    const std::string pgn =
        "[Event \"z\"]\n[SetUp \"1\"]\n[FEN \"k7/8/1K6/8/8/8/8/7R b - - 100 60\"]\n\n60... Kb8 61. Rh7 Ka8 1/2-1/2\n";
    const std::string out = pgn_out(pgn);
    EXPECT_NE(out.find("\n\n{arbiter: claimable fifty, black (9.3.2): "), std::string::npos) << out;
    EXPECT_NE(out.find("first_ply=119]} 60... Kb8"), std::string::npos) << out;
    // When the first move cannot be played: before it.
    const std::string bad =
        "[Event \"z\"]\n[SetUp \"1\"]\n[FEN \"k7/8/1K6/8/8/8/8/7R b - - 100 60\"]\n\n60... Ka7 1/2-1/2\n";
    EXPECT_NE(pgn_out(bad).find("first_ply=119]} 60... Ka7 1/2-1/2"), std::string::npos) << pgn_out(bad);
}

TEST(AuditPgnOut, AGameWithoutMovesHasItsCommentBeforeTheResult) {
    const std::string pgn = "[Event \"s\"]\n[Result \"1-0\"]\n[FEN \"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\"]\n\n1-0\n";
    const std::string out = pgn_out(pgn);
    EXPECT_NE(out.find("\n\n{arbiter: result_contradicts_position stalemate (5.2.1): "), std::string::npos) << out;
    EXPECT_TRUE(out.ends_with("ply=1]} 1-0\n\n")) << out;
}

TEST(AuditPgnOut, AGameWithoutTagsStartsAtItsMoveNumber) {
    const std::string pgn = "[Event \"a\"]\n\n1. e4 *\n\n1. f3 e5 2. g4 Qh4# 1-0\n";
    const std::string out = pgn_out(pgn);
    EXPECT_EQ(out.rfind("1. f3 e5 2. g4 Qh4# {arbiter: result_contradicts_position checkmate", 0), 0u) << out;
}

TEST(AuditPgnOut, CommentFormat) {
    audit::Finding f{audit::FindingType::claimable,
                     "threefold_intended",
                     7,
                     Color::black,
                     "9.2.1",
                     "1 chance, 1 unused; first after 4.Ng1, writing 4...Ng8"};
    f.chances = 1;
    f.unused = 1;
    f.first_ply = 7;
    f.first_move = "Ng8";
    EXPECT_EQ(face::pgn_comment(f),
              "{arbiter: claimable threefold_intended, black (9.2.1): 1 chance, 1 unused; first after 4.Ng1, writing "
              "4...Ng8 [%arbiter claimable threefold_intended article=\"9.2.1\" ply=7 side=black chances=1 unused=1 "
              "first_ply=7 first_move=Ng8]}");
    // A tag value in a detail cannot close the comment or read as a command.
    audit::Finding r{audit::FindingType::result_inconsistent,
                     "tag_vs_marker",
                     2,
                     std::nullopt,
                     "PGN 8.1.1.7",
                     "the Result tag says }[%clk 0:00:00] but the termination marker 1-0"};
    EXPECT_EQ(face::pgn_comment(r),
              "{arbiter: result_inconsistent tag_vs_marker (PGN 8.1.1.7): the Result tag says )(%clk 0:00:00) but the "
              "termination marker 1-0 [%arbiter result_inconsistent tag_vs_marker article=\"PGN 8.1.1.7\" ply=2]}");
}

TEST(AuditPgnOut, FromTheMovesWhenTheBytesAreGone) {
    auto src = memory_input(fivefold);
    pgn::GameReaderOptions ro;
    ro.keep_positions = true;
    pgn::GameReader reader(*src, ro);
    pgn::ParsedGame game;
    ASSERT_TRUE(reader.next(game));
    GameRecord record;
    const audit::GameAudit result = audit::audit_game(game, {}, record);
    const std::string text = face::pgn_from_moves(game, result);
    std::string one_line = text;  // the movetext is cut into lines between tokens
    std::replace(one_line.begin() + static_cast<std::ptrdiff_t>(one_line.find("\n\n") + 2), one_line.end() - 2, '\n',
                 ' ');
    EXPECT_EQ(text.find('{'), one_line.find('{'));
    EXPECT_EQ(one_line.rfind(
                  "[Event \"f\"]\n[Result \"1/2-1/2\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 {arbiter: claimable "
                  "threefold_intended, black",
                  0),
              0u)
        << text;
    EXPECT_TRUE(one_line.ends_with(" 9. e4 1/2-1/2\n\n")) << text;
    for (std::size_t at = 0, next; (next = text.find('\n', at)) != std::string::npos; at = next + 1)
        if (text.compare(at, 1, "{") != 0 && text.find('{', at) > next) EXPECT_LE(next - at, 79u) << text;
    // The same findings when it is read again.
    auto again = memory_input(text);
    pgn::GameReader reader2(*again, ro);
    pgn::ParsedGame game2;
    ASSERT_TRUE(reader2.next(game2));
    const audit::GameAudit result2 = audit::audit_game(game2, {}, record);
    ASSERT_EQ(result2.findings.size(), result.findings.size());
    for (std::size_t k = 0; k < result.findings.size(); ++k)
        EXPECT_EQ(result2.findings[k].detail, result.findings[k].detail);
    // A stream whose held bytes start after the game: the game is written from its moves.
    PgnOut writer;
    writer.bytes_may_go = true;
    std::string out;
    writer.game(game, result, std::string_view(fivefold).substr(10), 10, out);
    EXPECT_EQ(out, text);
    EXPECT_EQ(writer.written(), 1u);
}

TEST(AuditFilter, OnlyTakesTypesKindsAndTypeSlashKind) {
    AuditFilter f;
    EXPECT_EQ(f.add_only("timeout_unwinnable,threefold"), "");
    EXPECT_EQ(f.add_only("missed_automatic_draw/dead_position"), "");
    audit::Finding a{audit::FindingType::claimable, "threefold", 1, Color::white, "9.2.2", ""};
    audit::Finding b{audit::FindingType::claimable, "fifty", 1, Color::white, "9.3.2", ""};
    audit::Finding c{audit::FindingType::missed_automatic_draw, "dead_position", 1, std::nullopt, "5.2.2", ""};
    audit::Finding d{audit::FindingType::missed_automatic_draw, "fivefold_repetition", 1, std::nullopt, "9.6.1", ""};
    EXPECT_TRUE(f.keeps(a));
    EXPECT_FALSE(f.keeps(b));
    EXPECT_TRUE(f.keeps(c));
    EXPECT_FALSE(f.keeps(d));
    EXPECT_TRUE(AuditFilter{}.keeps(d));
}

TEST(AuditFilter, UnknownNamesListTheValidOnes) {
    AuditFilter f;
    const std::string e = f.add_only("threefold,fivefold");
    EXPECT_NE(e.find("unknown finding type or kind 'fivefold'"), std::string::npos) << e;
    EXPECT_NE(e.find("types: missed_automatic_draw, result_contradicts_position, timeout_unwinnable, claimable, "
                     "result_inconsistent"),
              std::string::npos)
        << e;
    EXPECT_NE(e.find("kinds: checkmate, stalemate, dead_position"), std::string::npos) << e;
    EXPECT_NE(e.find("tag_vs_marker"), std::string::npos) << e;
    EXPECT_NE(f.add_only(""), "");
    EXPECT_NE(f.add_only("claimable/flagg"), "");
}

TEST(AuditFilter, SelectNeedsTagEqualsValue) {
    AuditFilter f;
    EXPECT_EQ(f.add_select("White=Carlsen, Magnus"), "");
    EXPECT_EQ(f.add_select("Round="), "");  // an empty value is a value
    EXPECT_NE(f.add_select("White"), "");
    EXPECT_NE(f.add_select("=x"), "");
    EXPECT_NE(f.add_select("Wh ite=x"), "");
    auto src = memory_input("[White \"Carlsen, Magnus\"]\n[Round \"\"]\n\n1. e4 *\n\n[White \"Carlsen\"]\n\n1. e4 *\n");
    pgn::GameReader reader(*src);
    pgn::ParsedGame game;
    ASSERT_TRUE(reader.next(game));
    EXPECT_TRUE(f.selects(game));
    ASSERT_TRUE(reader.next(game));
    EXPECT_FALSE(f.selects(game));
}

TEST(AuditSummaryLine, CountsAndTime) {
    face::AuditCounts c;
    c.games = 21;
    c.games_with_findings = 15;
    c.games_with_errors = 1;
    c.findings = {{"claimable", 30}, {"claimable/threefold", 30}, {"timeout_unwinnable", 2}};
    EXPECT_EQ(face::summary_line(c, 1.234), "21 games, 15 with findings (32 findings), 1 with errors, 1.23 s");
    face::AuditCounts one;
    one.games = 1;
    EXPECT_EQ(face::summary_line(one, 0), "1 game, 0 with findings (0 findings), 0 with errors, 0.00 s");
}

}  // namespace

namespace {

// The newline count of the readers against a byte-by-byte count: every length from 0 to 80
// (the tails of the 16- and 8-byte steps), a text longer than one block of 255 sixteen-byte
// steps, newlines in every position of a step, and texts of newlines only.
TEST(CountNewlines, AgreesWithAByteByByteCount) {
    std::uint64_t seed = 7;
    auto next = [&seed] {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<unsigned>(seed >> 33);
    };
    auto naive = [](const std::string& s) { return static_cast<std::uint64_t>(std::count(s.begin(), s.end(), '\n')); };
    for (std::size_t n = 0; n <= 80; ++n) {
        std::string s;
        for (std::size_t i = 0; i < n; ++i) s += next() % 5 == 0 ? '\n' : static_cast<char>(next() % 256);
        EXPECT_EQ(arbiter::face::count_newlines(s), naive(s)) << "length " << n;
        EXPECT_EQ(arbiter::face::count_newlines(std::string(n, '\n')), n);
    }
    std::string big;
    for (std::size_t i = 0; i < 255 * 16 * 3 + 21; ++i) big += next() % 3 == 0 ? '\n' : 'a' + static_cast<char>(i % 26);
    EXPECT_EQ(arbiter::face::count_newlines(big), naive(big));
    const std::string all(255 * 16 * 2 + 5, '\n');
    EXPECT_EQ(arbiter::face::count_newlines(all), all.size());
    for (std::size_t at = 0; at < 32; ++at) {
        std::string s(40, 'x');
        s[at] = '\n';
        EXPECT_EQ(arbiter::face::count_newlines(s), 1u) << "newline at " << at;
    }
}

}  // namespace
