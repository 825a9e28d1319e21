// The streaming PGN reader and GameReader: tokens, tolerance, errors with line and column,
// resynchronisation, budgets, and the fixtures under tests/data/pgn.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "arbiter/fen.hpp"
#include "arbiter/notation.hpp"
#include "arbiter/pgn.hpp"
#include "arbiter/pgn_game.hpp"
#include "arbiter/scoresheet.hpp"

using namespace arbiter;
using namespace arbiter::pgn;

namespace {

const std::string fixtures = ARBITER_TEST_DATA "/pgn";

// Writes every visitor call as one line of text, so tests compare whole token streams.
struct Recorder : Visitor {
    std::vector<std::string> out;
    Skip skip_variations = Skip::no;
    Skip skip_movetext = Skip::no;
    static std::string at(SourcePos p) { return "@" + std::to_string(p.line) + ":" + std::to_string(p.column); }
    void begin_game(std::uint64_t index, SourcePos p) override {
        out.push_back("game " + std::to_string(index) + at(p));
    }
    void tag(std::string_view n, std::string_view v, SourcePos) override {
        out.push_back("tag " + std::string(n) + "=" + std::string(v));
    }
    Skip begin_movetext() override {
        out.push_back("movetext");
        return skip_movetext;
    }
    void san(std::string_view t, SourcePos p) override { out.push_back("san " + std::string(t) + at(p)); }
    void nag(int n, SourcePos) override { out.push_back("nag " + std::to_string(n)); }
    void comment(std::string_view t, const CommentInfo& info) override {
        std::string line = "comment " + std::string(t);
        if (info.clk_ms >= 0) line += " clk=" + std::to_string(info.clk_ms);
        if (info.emt_ms >= 0) line += " emt=" + std::to_string(info.emt_ms);
        if (info.truncated) line += " truncated";
        out.push_back(line);
    }
    Skip begin_variation(SourcePos) override {
        out.push_back("(");
        return skip_variations;
    }
    void end_variation() override { out.push_back(")"); }
    void result(std::string_view t, SourcePos p) override { out.push_back("result " + std::string(t) + at(p)); }
    void error(const Error& e) override { out.push_back(std::string("error ") + code_name(e.code) + at(e.pos)); }
    void end_game() override { out.push_back("end"); }
};

std::vector<std::string> record(std::string_view text, ReaderOptions options = {}, Recorder r = {}) {
    auto src = memory_input(text);
    Reader reader(*src, options);
    reader.read_all(r);
    return r.out;
}

std::vector<ParsedGame> read_games(ByteSource& src, GameReaderOptions options = {}) {
    GameReader reader(src, options);
    std::vector<ParsedGame> games;
    ParsedGame g;
    while (reader.next(g)) games.push_back(g);
    return games;
}

std::vector<ParsedGame> read_file(const std::string& path, GameReaderOptions options = {}) {
    auto src = open_input(path);
    EXPECT_TRUE(src) << path;
    if (!src) return {};
    return read_games(**src, options);
}

std::vector<ParsedGame> read_text(std::string_view text, GameReaderOptions options = {}) {
    auto src = memory_input(text);
    return read_games(*src, options);
}

using Lines = std::vector<std::string>;

}  // namespace

TEST(PgnReader, TokensOfASimpleGame) {
    const Lines expected = {
        "game 1@1:1",  "tag Event=E", "tag White=W\\x", "movetext", "san e4@4:4",      "nag 1", "comment  hi ",
        "san e5@4:15", "san Nf3@5:4", "nag 5",          "nag 14",   "result 1-0@5:14", "end"};
    EXPECT_EQ(record("[Event \"E\"]\n[White \"W\\\\x\"]\n\n1. e4! { hi } e5\n2. Nf3!? $14 1-0\n"), expected);
}

TEST(PgnReader, MoveNumbersInEveryForm) {
    const Lines expected = {"game 1@1:1",   "movetext",     "san e4@1:4",  "san e5@1:12",   "san Nf3@1:19",
                            "san Nc6@1:28", "san Bb5@1:35", "san a6@1:39", "result *@1:42", "end"};
    EXPECT_EQ(record("12.e4 12...e5 13. Nf3 13\xe2\x80\xa6Nc6 14 Bb5 a6 *"), expected);
}

TEST(PgnReader, ResultsAndCastlingWithZeros) {
    EXPECT_EQ(record("1. 0-0 0-0-0 0-1")[2], "san 0-0@1:4");
    EXPECT_EQ(record("1. 0-0 0-0-0 0-1")[3], "san 0-0-0@1:8");
    EXPECT_EQ(record("1. 0-0 0-0-0 0-1")[4], "result 0-1@1:14");
    EXPECT_EQ(record("1. e4 1/2-1/2")[3], "result 1/2-1/2@1:7");
    EXPECT_EQ(record("1. e4 Qg20-1")[3], "san Qg2@1:7");  // a result glued to the move
    EXPECT_EQ(record("1. e4 Qg20-1")[4], "result 0-1@1:10");
}

TEST(PgnReader, VariationsNestedAndSkipped) {
    const std::string text = "1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) 1... e5 *";
    const Lines all = record(text);
    const Lines expected_all = {"game 1@1:1",  "movetext",      "san e4@1:4",  "(", "san d4@1:11", "san d5@1:14",
                                "(",           "san Nf6@1:23",  "san c4@1:30", ")", "san c4@1:37", ")",
                                "san e5@1:46", "result *@1:49", "end"};
    EXPECT_EQ(all, expected_all);
    Recorder skipping;
    skipping.skip_variations = Skip::yes;
    const Lines expected_skipped = {"game 1@1:1", "movetext", "san e4@1:4", "(", "san e5@1:46", "result *@1:49", "end"};
    EXPECT_EQ(record(text, {}, skipping), expected_skipped);
}

TEST(PgnReader, MovetextCanBeSkipped) {
    Recorder r;
    r.skip_movetext = Skip::yes;
    const Lines expected = {"game 1@1:1", "tag Event=x", "movetext", "result 1-0@3:22", "end",
                            "game 2@5:1", "tag Event=y", "movetext", "result *@7:7",    "end"};
    EXPECT_EQ(record("[Event \"x\"]\n\n1. e4 {c} (1. d4) e5 1-0\n\n[Event \"y\"]\n\n1. d4 *\n", {}, r), expected);
}

TEST(PgnReader, CommentsAndClocks) {
    const Lines out = record("1. e4 {[%clk 1:02:03.4] [%emt 0:00:07]} e5 ; rest of line\n{[%clk 0:00:00]} *");
    EXPECT_EQ(out[3], "comment [%clk 1:02:03.4] [%emt 0:00:07] clk=3723400 emt=7000");
    EXPECT_EQ(out[5], "comment  rest of line");
    EXPECT_EQ(out[6], "comment [%clk 0:00:00] clk=0");
}

// The clock alone, as Lichess writes it, takes a short path; every other form the general one.
// Both give the same answers.
TEST(PgnReader, ClockAloneAndOtherForms) {
    const Lines out = record(
        "1. e4 { [%clk 0:02:59] } e5 {[%clk 1:00:00]} 2. Nf3 {  [%clk 0:0x:59] } Nc6 { [%clk 0:02:59] [%emt 0:00:01] }"
        " 3. Bb5 {\t[%clk 0:01:02]} a6 { [%clk 10:00:00] } *");
    EXPECT_EQ(out[3], "comment  [%clk 0:02:59]  clk=179000");
    EXPECT_EQ(out[5], "comment [%clk 1:00:00] clk=3600000");
    EXPECT_EQ(out[7], "comment   [%clk 0:0x:59] ");  // no clock
    EXPECT_EQ(out[9], "comment  [%clk 0:02:59] [%emt 0:00:01]  clk=179000 emt=1000");
    EXPECT_EQ(out[11], "comment \t[%clk 0:01:02] clk=62000");
    EXPECT_EQ(out[13], "comment  [%clk 10:00:00]  clk=36000000");
    EXPECT_EQ(parse_clock("0:02:59"), 179000);
    EXPECT_EQ(parse_clock("9:59:59"), 35999000);
    EXPECT_EQ(parse_clock("0:0x:59"), -1);
    EXPECT_EQ(parse_clock("a:00:00"), -1);
}

TEST(PgnReader, ParseClock) {
    EXPECT_EQ(parse_clock("1:02:03"), 3723000);
    EXPECT_EQ(parse_clock("0:00:00.25"), 250);
    EXPECT_EQ(parse_clock("5:07"), 307000);
    EXPECT_EQ(parse_clock("42"), 42000);
    EXPECT_EQ(parse_clock(""), -1);
    EXPECT_EQ(parse_clock("1:2:3:4"), -1);
    EXPECT_EQ(parse_clock("1:x"), -1);
    EXPECT_EQ(parse_clock("1."), -1);
}

TEST(PgnReader, TagEscapesAndTolerance) {
    const Lines out = record(
        "[A \"say \\\"hi\\\"\"]\n[B \"C:\\\"]\n[C \"Club \"Victory\"\"]\n[D \"x ] y\"] [E \"two\"]\n[F \"\"]\n*");
    EXPECT_EQ(out[1], "tag A=say \"hi\"");
    EXPECT_EQ(out[2], "tag B=C:\\");              // a backslash before the closing quote is literal
    EXPECT_EQ(out[3], "tag C=Club \"Victory\"");  // unescaped inner quotes are kept
    EXPECT_EQ(out[4], "tag D=x ] y");
    EXPECT_EQ(out[5], "tag E=two");  // two tags on one line
    EXPECT_EQ(out[6], "tag F=");
}

TEST(PgnReader, TagsAndMovetextOnOneLine) {
    const Lines out = record("[Result \"1-0\"] e4 *\n[Result \"0-1\"] d4 1-0\n");
    const Lines expected = {"game 1@1:1", "tag Result=1-0", "movetext", "san e4@1:16", "result *@1:19",   "end",
                            "game 2@2:1", "tag Result=0-1", "movetext", "san d4@2:16", "result 1-0@2:19", "end"};
    EXPECT_EQ(out, expected);
}

TEST(PgnReader, GamesWithoutTagsMovesOrResults) {
    // A game without a result ends where the next tag section starts; a blank line and then an
    // Event tag start a new game even without movetext; stray comments between games (after a
    // result) belong to no game.
    const Lines out =
        record("[Event \"a\"]\n\n1. e4\n[Event \"b\"]\n*{between}\n\n[Event \"c\"]\n\n[Event \"d\"]\n*\ne4 *");
    const Lines expected = {"game 1@1:1",  "tag Event=a",   "movetext", "san e4@3:4",   "end",
                            "game 2@4:1",  "tag Event=b",   "movetext", "result *@5:1", "end",
                            "game 3@7:1",  "tag Event=c",   "end",      "game 4@9:1",   "tag Event=d",
                            "movetext",    "result *@10:1", "end",      "game 5@11:1",  "movetext",
                            "san e4@11:1", "result *@11:4", "end"};
    EXPECT_EQ(out, expected);
    // A blank line inside a tag section does not split the game (ChessBase exports do this).
    EXPECT_EQ(record("[Event \"a\"]\n\n[Date \"b\"]\n\n*").size(), 6u);
}

TEST(PgnReader, EmptyAndBlankInputs) {
    EXPECT_TRUE(record("").empty());
    EXPECT_TRUE(record("\n\n  \r\n% escape\n{ only a comment }\n; and this\n").empty());
    EXPECT_TRUE(record("\xef\xbb\xbf").empty());
}

TEST(PgnReader, ErrorsResynchroniseAtTheNextGame) {
    const Lines out = record("[Event \"a\"]\n\n1. e4 ) e5 2. Nf3 *\n\n[Event \"b\"]\n\n1. d4 *\n");
    const Lines expected = {"game 1@1:1",   "tag Event=a", "movetext",    "san e4@3:4", "error unexpected_char@3:7",
                            "end",          "game 2@5:1",  "tag Event=b", "movetext",   "san d4@7:4",
                            "result *@7:7", "end"};
    EXPECT_EQ(out, expected);
}

TEST(PgnReader, BudgetOnTokens) {
    ReaderOptions o;
    o.max_game_tokens = 10;
    const Lines out = record("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *\n[Event \"next\"]\n*", o);
    ASSERT_GE(out.size(), 4u);
    EXPECT_NE(std::find(out.begin(), out.end(), "error budget_exceeded@1:34"), out.end());
    EXPECT_EQ(out.back(), "end");
    EXPECT_NE(std::find(out.begin(), out.end(), "tag Event=next"), out.end());
}

TEST(PgnReader, DeepNestingIsBoundedAndFlat) {
    // 10^6 nested variations: the depth budget stops the game; nothing recurses.
    std::string text = "1. e4 ";
    for (int i = 0; i < 1000000; ++i) text += "( ";
    text += "\n\n[Event \"next\"]\n\n1. d4 *\n";
    const Lines out = record(text);
    EXPECT_NE(std::find(out.begin(), out.end(), "error budget_exceeded@1:519"), out.end());
    EXPECT_NE(std::find(out.begin(), out.end(), "san d4@5:4"), out.end());
}

TEST(PgnReader, HugeCommentIsTruncatedWithFlatMemory) {
    ReaderOptions o;
    o.max_comment_bytes = 1000;
    std::string text = "1. e4 {";
    text.append(5'000'000, 'x');
    text += "} e5 *";
    const Lines out = record(text, o);
    ASSERT_EQ(out.size(), 7u);
    EXPECT_EQ(out[3], "comment " + std::string(1000, 'x') + " truncated");
    EXPECT_EQ(out[4], "san e5@1:5000010");
}

TEST(PgnReader, HugeCommentOverTheGameBudget) {
    ReaderOptions o;
    o.max_game_bytes = 100'000;
    std::string text = "1. e4 {";
    text.append(3'000'000, 'x');
    text += "} e5 *\n[Event \"next\"]\n*";
    const Lines out = record(text, o);
    EXPECT_EQ(out[3].rfind("error game_too_long@1:100002", 0), 0u);
    EXPECT_EQ(out[5], "game 2@2:1");
}

TEST(PgnReader, TokensSpanningChunkBoundaries) {
    // A long game read through a source that returns few bytes at a time must give the same
    // tokens as one read in one piece.
    std::string text;
    for (int g = 0; g < 50; ++g)
        text += "[Event \"g" + std::to_string(g) +
                "\"]\n\n1. e4 {[%clk 0:01:00]} e5 2. Nf3 (2. Nc3 {x}) 2... Nc6 $1 3. Bb5 a6 1/2-1/2\n\n";
    InputOptions tiny;
    tiny.chunk_size = 7;
    auto small = memory_input(text, tiny);
    Recorder r1;
    Reader reader1(*small);
    reader1.read_all(r1);
    EXPECT_EQ(r1.out, record(text));
    EXPECT_EQ(reader1.games(), 50u);
}

namespace {

// A source that lends the first `lent` bytes of its text (ByteSource::lend), then reads the rest
// `step` bytes at a time, as the audit's batches do (a batch's text, then its stream or its end).
class LendingSource final : public ByteSource {
public:
    LendingSource(std::string_view text, std::size_t lent, std::size_t step) : text_(text), lent_(lent), step_(step) {}
    std::string_view lend() override {
        if (at_ > 0) return {};
        at_ = std::min(lent_, text_.size());
        ++lends;
        return text_.substr(0, at_);
    }
    Expected<std::size_t, InputError> read(char* buffer, std::size_t size) override {
        const std::size_t n = std::min({size, step_, text_.size() - at_});
        std::memcpy(buffer, text_.data() + at_, n);
        at_ += n;
        return n;
    }
    [[nodiscard]] std::uint64_t consumed() const noexcept override { return at_; }
    [[nodiscard]] std::optional<std::uint64_t> total() const noexcept override { return text_.size(); }
    [[nodiscard]] const std::string& name() const noexcept override { return name_; }
    int lends = 0;

private:
    std::string_view text_;
    std::size_t lent_, step_, at_ = 0;
    std::string name_ = "<lent>";
};

}  // namespace

TEST(PgnReader, LentTextReadInPlaceThenFromTheSource) {
    // Whatever the cut between the lent text and the bytes read after it (inside a tag, a
    // comment, a move, a move number, a byte order mark), the tokens, their places and the
    // errors are those of one read in one piece.
    std::string text = "\xEF\xBB\xBF";
    for (int g = 0; g < 6; ++g)
        text += "[Event \"g" + std::to_string(g) +
                "\"]\n[Site \"x\"]\n\n1. e4 {[%clk 0:01:00]} e5 2. Nf3 (2. Nc3 {x\ny}) 2... Nc6 $1 3. Bb5 a6 ; rest\n"
                "4. Qxf7 Kxq9 1/2-1/2\n\n";
    const Lines whole = record(text);
    for (std::size_t lent :
         {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{10}, std::size_t{57},
          std::size_t{75}, std::size_t{101}, text.size() / 2, text.size() - 1, text.size()}) {
        for (std::size_t step : {std::size_t{1}, std::size_t{5}, std::size_t{1} << 20}) {
            SCOPED_TRACE("lent " + std::to_string(lent) + ", step " + std::to_string(step));
            LendingSource src(text, lent, step);
            Recorder r;
            Reader reader(src);
            reader.read_all(r);
            EXPECT_EQ(r.out, whole);
            EXPECT_EQ(reader.games(), 6u);
            EXPECT_EQ(src.lends, 1);  // asked once, at the start
        }
    }
}

// --- GameReader ---------------------------------------------------------------------------

TEST(GameReader, FeaturesFixture) {
    for (const char* name :
         {"features.pgn", "features_crlf.pgn", "features_bom.pgn", "features_bom_crlf.pgn", "features.pgn.zst"}) {
        SCOPED_TRACE(name);
        const auto games = read_file(fixtures + "/" + name);
        ASSERT_EQ(games.size(), 6u);
        for (const auto& g : games) EXPECT_TRUE(g.errors.empty()) << g.errors[0].message;

        const ParsedGame& g1 = games[0];
        EXPECT_EQ(g1.tag("Event"), "Features \"quoted\" and back\\slash");
        EXPECT_EQ(g1.tag_count(), 5u);
        EXPECT_EQ(g1.pos.line, 2u);
        EXPECT_EQ(g1.pos.column, 1u);
        ASSERT_EQ(g1.plies.size(), 20u);
        EXPECT_EQ(g1.san(g1.plies[0]), "e4");
        EXPECT_EQ(g1.plies[0].pos.line, 8u);
        EXPECT_EQ(g1.plies[0].pos.column, 39u);
        EXPECT_EQ(g1.plies[0].clk_ms, 5400000);
        EXPECT_EQ(g1.plies[0].emt_ms, 5000);
        EXPECT_EQ(g1.plies[1].clk_ms, 5398500);
        EXPECT_EQ(g1.plies[2].clk_ms, -1);
        EXPECT_EQ(g1.san(g1.plies[5]), "a6");  // after "3…" and a skipped variation
        EXPECT_EQ(g1.plies[5].pos.line, 9u);
        EXPECT_EQ(g1.result, "1-0");
        EXPECT_EQ(to_fen(g1.end), "r1bq1rk1/2pnbppp/p2p1n2/1p2p3/3PP3/1BP2N1P/PP3PP1/RNBQR1K1 w - - 1 11");

        EXPECT_EQ(games[1].plies.size(), 4u);
        EXPECT_EQ(games[1].result, "*");
        EXPECT_EQ(games[2].tag_count(), 0u);  // no tags at all
        EXPECT_EQ(games[2].result, "1/2-1/2");
        EXPECT_EQ(games[3].plies.size(), 0u);  // no moves
        EXPECT_TRUE(games[3].has_start);

        const ParsedGame& c960 = games[4];
        EXPECT_TRUE(c960.chess960());
        ASSERT_EQ(c960.plies.size(), 4u);
        EXPECT_TRUE(c960.plies[0].move.is_castling());
        EXPECT_EQ(to_fen(c960.end, {FenWriteOptions::Ep::always, true}),
                  "2kr2r1/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/1R3RK1 w - d6 0 3");

        const ParsedGame& fen = games[5];
        EXPECT_EQ(to_fen(fen.start), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 40");
        EXPECT_EQ(fen.plies.size(), 3u);
        EXPECT_FALSE(fen.chess960());
    }
}

struct ErrorCase {
    const char* file;
    Error::Code code;
    std::uint32_t line, column;
    const char* token;  // the move as written, for move errors
    std::size_t plies;  // legal plies before the error
    GameReaderOptions options{};
};

class ErrorFixture : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ErrorFixture, LineColumnAndResynchronisation) {
    const ErrorCase& c = GetParam();
    const auto games = read_file(fixtures + "/errors/" + c.file, c.options);
    ASSERT_EQ(games.size(), 2u);
    const ParsedGame& bad = games[0];
    ASSERT_EQ(bad.errors.size(), 1u);
    EXPECT_EQ(bad.errors[0].code, c.code) << code_name(bad.errors[0].code) << ": " << bad.errors[0].message;
    EXPECT_EQ(bad.errors[0].pos.line, c.line);
    EXPECT_EQ(bad.errors[0].pos.column, c.column);
    EXPECT_EQ(bad.errors[0].token, c.token);
    EXPECT_FALSE(bad.errors[0].message.empty());
    EXPECT_EQ(bad.plies.size(), c.plies);
    EXPECT_FALSE(bad.complete);
    // The next game is read normally.
    EXPECT_TRUE(games[1].errors.empty());
    EXPECT_EQ(games[1].tag("Event"), "Next");
    EXPECT_TRUE(games[1].complete);
    EXPECT_GE(games[1].plies.size(), 1u);
}

namespace {
GameReaderOptions small_budget() {
    GameReaderOptions o;
    o.reader.max_game_tokens = 100;
    return o;
}
}  // namespace

INSTANTIATE_TEST_SUITE_P(
    Kinds, ErrorFixture,
    ::testing::Values(ErrorCase{"bad_tag.pgn", Error::Code::bad_tag, 2, 7, "", 2},
                      ErrorCase{"unterminated_string.pgn", Error::Code::unterminated_string, 1, 8, "", 2},
                      ErrorCase{"unterminated_comment.pgn", Error::Code::unterminated_comment, 3, 17, "", 3},
                      ErrorCase{"unterminated_variation.pgn", Error::Code::unterminated_variation, 3, 17, "", 3},
                      ErrorCase{"unexpected_char.pgn", Error::Code::unexpected_char, 3, 17, "", 3},
                      ErrorCase{"illegal_move.pgn", Error::Code::illegal_move, 3, 24, "Ke3", 4},
                      // Knights on c4 and f3 can both go to e5.
                      ErrorCase{"ambiguous_move.pgn", Error::Code::ambiguous_move, 3, 34, "Ne5", 6},
                      ErrorCase{"bad_move_syntax.pgn", Error::Code::bad_move_syntax, 3, 17, "Nz6", 3},
                      ErrorCase{"null_move.pgn", Error::Code::null_move, 3, 7, "--", 1},
                      ErrorCase{"bad_fen.pgn", Error::Code::bad_fen, 3, 1, "", 0},
                      ErrorCase{"unsupported_variant.pgn", Error::Code::unsupported_variant, 2, 1, "", 0},
                      ErrorCase{"budget_exceeded.pgn", Error::Code::budget_exceeded, 3, 358, "", 65, small_budget()}),
    [](const auto& info) {
        std::string n = info.param.file;
        return n.substr(0, n.find('.'));
    });

TEST(GameReader, UciAndLongAlgebraicMoves) {
    const auto games = read_text("e2e4 e7e5 g1-f3 Nb8-c6 f1xb5 a7a6 *");
    ASSERT_EQ(games.size(), 1u);
    EXPECT_TRUE(games[0].errors.empty());
    EXPECT_EQ(games[0].plies.size(), 6u);
    GameReaderOptions strict;
    strict.accept_uci = false;
    EXPECT_EQ(read_text("g1f3 *", strict)[0].errors.size(), 1u);  // "e2e4" would pass as SAN
}

// wants_movetext (the audit's --select): a game turned down by its tags is read through to its
// end without its moves (an illegal one included), its result and a syntax error of its movetext
// still read; the games around it are played as without the option; the option sees every tag.
TEST(GameReader, MovetextOfGamesNotWantedIsSkipped) {
    const std::string text =
        "[Event \"keep\"]\n\n1. e4 e5 2. Nf3 { [%clk 0:01:00] } Nc6 1-0\n\n"
        "[Event \"skip\"]\n[Site \"x\"]\n\n1. e4 e5 2. Ke3 (2. Nf3) Nc6 0-1\n\n"
        "[Event \"skip\"]\n\n1. e4 ) e5 *\n\n"
        "[Event \"keep\"]\n\n1. d4 d5 1/2-1/2\n";
    GameReaderOptions options;
    std::vector<std::size_t> tags_seen;
    options.wants_movetext = [&tags_seen](const ParsedGame& g) {
        tags_seen.push_back(g.tag_count());
        return g.tag("Event") == std::optional<std::string_view>("keep");
    };
    auto src = memory_input(text);
    const auto games = read_games(*src, options);
    ASSERT_EQ(games.size(), 4u);
    EXPECT_EQ(tags_seen, (std::vector<std::size_t>{1, 2, 1, 1}));
    EXPECT_FALSE(games[0].movetext_skipped);
    ASSERT_EQ(games[0].plies.size(), 4u);
    EXPECT_EQ(games[0].plies[2].clk_ms, 60000);
    EXPECT_TRUE(games[1].movetext_skipped);
    EXPECT_TRUE(games[1].plies.empty());
    EXPECT_TRUE(games[1].errors.empty());  // the illegal Ke3 is never resolved
    EXPECT_EQ(games[1].result, "0-1");
    EXPECT_EQ(to_fen(games[1].end), to_fen(games[1].start));
    EXPECT_TRUE(games[2].movetext_skipped);
    ASSERT_EQ(games[2].errors.size(), 1u);  // the stray ')' is the tokenizer's, still reported
    EXPECT_EQ(games[2].errors[0].code, Error::Code::unexpected_char);
    EXPECT_FALSE(games[3].movetext_skipped);
    EXPECT_EQ(games[3].plies.size(), 2u);
    EXPECT_EQ(games[3].result, "1/2-1/2");
    // Without the option the same text plays every game's moves.
    auto again = memory_input(text);
    const auto all = read_games(*again);
    ASSERT_EQ(all.size(), 4u);
    EXPECT_FALSE(all[1].movetext_skipped);
    EXPECT_EQ(all[1].plies.size(), 2u);  // up to the illegal move
    ASSERT_EQ(all[1].errors.size(), 1u);
    EXPECT_EQ(all[1].errors[0].token, "Ke3");
}

TEST(GameReader, MovesAfterAnErrorAreSkippedButTheGameIsReported) {
    const auto games = read_text("1. e4 e5 2. Ke3 Nc6 3. Nf3 1-0\n");
    ASSERT_EQ(games.size(), 1u);
    EXPECT_EQ(games[0].plies.size(), 2u);
    EXPECT_EQ(games[0].result, "1-0");
    ASSERT_EQ(games[0].errors.size(), 1u);
    EXPECT_EQ(games[0].errors[0].token, "Ke3");
    EXPECT_EQ(to_fen(games[0].end), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2");
}

TEST(GameReader, VariantTags) {
    EXPECT_EQ(classify_variant(""), VariantKind::standard);
    EXPECT_EQ(classify_variant("Standard"), VariantKind::standard);
    EXPECT_EQ(classify_variant("From Position"), VariantKind::standard);
    EXPECT_EQ(classify_variant("Chess960"), VariantKind::chess960);
    EXPECT_EQ(classify_variant("fischerandom"), VariantKind::chess960);
    EXPECT_EQ(classify_variant("Atomic"), VariantKind::other);
}

TEST(GameReader, BufferReuseAcrossGames) {
    const auto games = read_text("[Event \"a\"]\n[Site \"s\"]\n1. e4 e5 *\n\n[Event \"b\"]\n1. d4 *\n");
    ASSERT_EQ(games.size(), 2u);
    EXPECT_EQ(games[1].tag_count(), 1u);
    EXPECT_EQ(games[1].tag("Site"), std::nullopt);
    EXPECT_EQ(games[1].plies.size(), 1u);
    EXPECT_EQ(games[1].san(games[1].plies[0]), "d4");
    EXPECT_EQ(games[1].index, 2u);
}

// ---- wrap_movetext: the one PGN wrapper (scoresheet.hpp) -------------------------------------

TEST(WrapMovetext, GreedyLinesOfAtMostTheWidth) {
    std::vector<std::string> tokens;
    for (int n = 1; n <= 30; ++n) {
        tokens.push_back(std::to_string(n) + ".");
        tokens.push_back("Nf3");
        tokens.push_back("Nf6");
    }
    tokens.push_back("*");
    for (std::size_t width : {5u, 12u, 40u, 79u, 200u}) {
        const std::string text = arbiter::wrap_movetext(tokens, width, "\r\n");
        ASSERT_EQ(text.substr(text.size() - 2), "\r\n");
        std::string joined;
        std::size_t start = 0, lines = 0;
        for (std::size_t end; (end = text.find("\r\n", start)) != std::string::npos; start = end + 2, ++lines) {
            const std::string line = text.substr(start, end - start);
            EXPECT_LE(line.size(), width) << line;
            // Greedy: the next line's first token would not have fitted on this one.
            const std::size_t next_end = text.find("\r\n", end + 2);
            if (next_end != std::string::npos) {
                const std::string next = text.substr(end + 2, next_end - end - 2);
                EXPECT_GT(line.size() + 1 + next.substr(0, next.find(' ')).size(), width) << line << " | " << next;
            }
            joined += (joined.empty() ? "" : " ") + line;
        }
        std::string want;
        for (const auto& t : tokens) want += (want.empty() ? "" : " ") + t;
        EXPECT_EQ(joined, want) << width;
    }
    std::string one;
    for (const auto& t : tokens) one += (one.empty() ? "" : " ") + t;
    EXPECT_EQ(arbiter::wrap_movetext(tokens, 0), one + "\n");
}

TEST(WrapMovetext, CommentsSplitAtTheirSpacesOrKeptWhole) {
    const std::vector<std::string> tokens{"1.", "e4", "{a comment of several words}", "e5", "*"};
    EXPECT_EQ(arbiter::wrap_movetext(tokens, 12), "1. e4 {a\ncomment of\nseveral\nwords} e5 *\n");
    EXPECT_EQ(arbiter::wrap_movetext(tokens, 12, "\n", false), "1. e4\n{a comment of several words}\ne5 *\n");
}

TEST(WrapMovetext, NumberedFromTheStart) {
    const auto black = arbiter::position_from_fen("8/8/8/4k3/8/8/8/K6R b - - 3 41");
    ASSERT_TRUE(black.has_value());
    EXPECT_EQ(arbiter::numbered_moves(*black, {"Kd5", "Rd1+", "Kc4"}),
              (std::vector<std::string>{"41...", "Kd5", "42.", "Rd1+", "Kc4"}));
    EXPECT_EQ(arbiter::numbered_moves(arbiter::Position(), {"e4", "e5", "Nf3"}),
              (std::vector<std::string>{"1.", "e4", "e5", "2.", "Nf3"}));
    EXPECT_EQ(arbiter::pgn_tag_pair("White", "A \"B\"\\\tC"), "[White \"A \\\"B\\\"\\\\ C\"]");
}
