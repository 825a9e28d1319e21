// Damaged and hostile PGN (issues 17 and 20): input cut into pieces at game boundaries reads as
// the whole does; unclosed comments between games; the per-game ply limit; truncated games;
// tag lines over the limit; duplicate FEN, SetUp and Result tags.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "arbiter/pgn.hpp"
#include "arbiter/pgn_game.hpp"

using namespace arbiter;
using namespace arbiter::pgn;

namespace {

// Every visitor call as text, with absolute offsets (`base` is added).
struct Trace : Visitor {
    std::vector<std::string> out;
    std::uint64_t base = 0;
    std::string at(SourcePos p) const { return "@" + std::to_string(p.offset + base); }
    void begin_game(std::uint64_t, SourcePos p) override { out.push_back("game" + at(p)); }
    void tag(std::string_view n, std::string_view v, SourcePos p) override {
        out.push_back("tag " + std::string(n) + "=" + std::string(v) + at(p));
    }
    void san(std::string_view t, SourcePos p) override { out.push_back("san " + std::string(t) + at(p)); }
    void comment(std::string_view t, const CommentInfo& info) override {
        out.push_back("comment " + std::to_string(t.size()) + (info.truncated ? " cut" : "") + at(info.pos));
    }
    void result(std::string_view t, SourcePos p) override { out.push_back("result " + std::string(t) + at(p)); }
    void error(const Error& e) override {
        out.push_back(std::string("error ") + code_name(e.code) + at(e.pos) + " " + e.message);
    }
    void end_game() override { out.push_back("end"); }
};

std::vector<std::string> trace(std::string_view text, ReaderOptions o = {}, std::uint64_t base = 0,
                               std::size_t chunk = 1 << 18) {
    InputOptions io;
    io.chunk_size = chunk;
    auto src = memory_input(text, io);
    Reader reader(*src, o);
    Trace t;
    t.base = base;
    reader.read_all(t);
    return t.out;
}

// Reads `text` cut at every game boundary, each piece on its own.
std::vector<std::string> trace_in_pieces(std::string_view text, ReaderOptions o = {}) {
    std::vector<std::string> all;
    std::size_t start = 0;
    for (;;) {
        BoundaryFinder finder;
        const std::size_t cut = finder.find(text.substr(start), 1);
        const std::size_t end = cut == std::string_view::npos ? text.size() : start + cut;
        ReaderOptions po = o;
        po.input_continues = end < text.size();
        auto piece = trace(text.substr(start, end - start), po, start);
        all.insert(all.end(), piece.begin(), piece.end());
        if (end == text.size()) return all;
        start = end;
    }
}

std::vector<ParsedGame> games_of(std::string_view text, GameReaderOptions o = {}) {
    auto src = memory_input(text);
    GameReader reader(*src, o);
    std::vector<ParsedGame> games;
    ParsedGame g;
    while (reader.next(g)) games.push_back(g);
    return games;
}

bool has_error(const ParsedGame& g, Error::Code c) {
    for (const auto& e : g.errors)
        if (e.code == c) return true;
    return false;
}

// Fragments that end in every state the reader has: tags, movetext, variations, comments
// (closed, open, huge), bad tags, stray brackets, games without a result.
const std::vector<std::string> fragments = {
    "[Event \"a\"]\n[Site \"s\"]\n\n1. e4 e5 *\n\n",
    "[Bad tag\n\n",
    "{ never closed\n\n",
    "1. d4 { open comment\n\n",
    "[Event \"t\"]\n\n",
    "1. e4 ( 1. d4 \n\n",
    "} ) stray\n\n",
    "[White \"x\"]\n\n1. c4 1-0\n\n",
    "[Event \"long\"]\n\n1. e4 {" + std::string(3000, 'x') + "} e5 2. Nf3 *\n\n",
    "[Event \"n\"]\n\n1. e4 e5\n\n",
    "%escape\n\n",
    "; line comment\n\n",
    "[Event \"c\"]\n{ between\n\n\n",
    "[Event \"x\"]\n\n1. e4 {\n  \n",
};

}  // namespace

TEST(PgnBoundaries, PiecesReadAsTheWhole) {
    // Every sequence of three fragments, and each fragment twice before itself.
    ReaderOptions o;
    o.max_comment_bytes = 1000;  // the long comment is cut, in the whole and in the pieces alike
    o.max_game_bytes = 2000;     // and the long game goes over the budget
    int checked = 0, cuts = 0;
    for (const auto& a : fragments)
        for (const auto& b : fragments)
            for (const auto& c : fragments) {
                const std::string text = a + b + c + "[Event \"z\"]\n\n1. e4 *\n";
                ASSERT_EQ(trace(text, o), trace_in_pieces(text, o)) << text;
                BoundaryFinder f;
                cuts += f.find(text, 1) != std::string::npos;
                ++checked;
            }
    EXPECT_EQ(checked, 14 * 14 * 14);
    EXPECT_GT(cuts, checked / 2);
}

TEST(PgnBoundaries, ChunkSizeChangesNothing) {
    // Budgets and truncation are decided on byte counts, not on what the buffer holds.
    ReaderOptions o;
    o.max_comment_bytes = 100;
    o.max_game_bytes = 1500;
    o.max_tag_bytes = 100;
    std::string text;
    for (const auto& f : fragments) text += f;
    text += "[Event \"" + std::string(150, 'v') + "\"]\n\n1. e4 *\n";
    const auto whole = trace(text, o);
    for (std::size_t chunk : {1, 7, 64, 1000}) EXPECT_EQ(trace(text, o, 0, chunk), whole) << chunk;
}

TEST(PgnBoundaries, FinderAndPredicate) {
    const std::string text = "[Event \"a\"]\n\n1. e4 *\n \t\r\n[Event \"b\"]\n*\n[Event \"c\"]\n";
    BoundaryFinder f;
    const std::size_t b = text.find("[Event \"b\"");
    EXPECT_EQ(f.find(text, 1), b);
    EXPECT_TRUE(is_game_boundary(text, b));
    EXPECT_FALSE(is_game_boundary(text, text.find("[Event \"c\"")));  // no blank line before it
    EXPECT_FALSE(is_game_boundary(text, 0));
    BoundaryFinder g;
    EXPECT_EQ(g.find(text, b + 1), std::string::npos);
}

TEST(PgnBoundaries, AnchorsDivideTheGamesWhereverTheTextStarts) {
    // The anchor is the newline before the blank line; a reader starting at any byte S finds first
    // the boundary anchored at or after S (issue 30: the distributed audit's byte ranges).
    const std::string text = "[Event \"a\"]\n\n1. e4 *\n \t\r\n[Event \"b\"]\n*\n\n[Event \"c\"]\n";
    const std::size_t b = text.find("[Event \"b\""), c = text.find("[Event \"c\"");
    EXPECT_EQ(game_boundary_anchor(text, b), text.find("*\n") + 1);
    EXPECT_EQ(game_boundary_anchor(text, c), c - 2);
    for (std::size_t s = 1; s < text.size(); ++s) {
        const std::string_view from = std::string_view(text).substr(s);
        const std::size_t first = BoundaryFinder{}.find(from, 0);
        const std::size_t want = s <= game_boundary_anchor(text, b) ? b : s <= game_boundary_anchor(text, c) ? c : 0;
        if (want == 0)
            EXPECT_EQ(first, std::string::npos) << s;
        else
            EXPECT_EQ(first + s, want) << s;
    }
}

TEST(PgnBoundaries, BadTagLineThenNextGame) {
    // Issue 20.8: the game after a bad tag line is a game of its own, wherever the input is cut.
    const std::string text = "[Event \"a\"]\n\n1. e4 *\n\n[Bad tag\n\n[Event \"b\"]\n\n1. d4 *\n";
    const auto games = games_of(text);
    ASSERT_EQ(games.size(), 3u);
    EXPECT_TRUE(has_error(games[1], Error::Code::bad_tag));
    EXPECT_EQ(games[2].tag("Event"), "b");
    EXPECT_EQ(trace(text), trace_in_pieces(text));
}

TEST(PgnHostile, UnclosedCommentBetweenGames) {
    // Issue 20.7: the comment ends at the next tag section; it is reported as a game of its own.
    const auto games = games_of("{ x\n\n[Event \"a\"]\n\n1. e4 *\n");
    ASSERT_EQ(games.size(), 2u);
    ASSERT_EQ(games[0].errors.size(), 1u);
    EXPECT_EQ(games[0].errors[0].code, Error::Code::unterminated_comment);
    EXPECT_EQ(games[0].errors[0].pos.offset, 0u);
    EXPECT_EQ(games[1].tag("Event"), "a");
    EXPECT_EQ(games[1].plies.size(), 1u);
    // At the end of the input.
    const auto last = games_of("[Event \"a\"]\n\n1. e4 *\n{ open");
    ASSERT_EQ(last.size(), 2u);
    EXPECT_TRUE(has_error(last[1], Error::Code::unterminated_comment));
    // A closed comment between games is still no game.
    EXPECT_EQ(games_of("{ c }\n[Event \"a\"]\n\n1. e4 *\n").size(), 1u);
}

TEST(PgnHostile, PlyLimit) {
    // Issue 20.2: a game longer than max_game_plies is game_too_long, and the next game is read.
    std::string text = "[Event \"long\"]\n\n";
    for (int i = 0; i < 60; ++i) text += "1. Nf3 Nf6 2. Ng1 Ng8 ";
    text += "*\n\n[Event \"next\"]\n\n1. e4 *\n";
    GameReaderOptions o;
    o.reader.max_game_plies = 100;
    const auto games = games_of(text, o);
    ASSERT_EQ(games.size(), 2u);
    EXPECT_TRUE(has_error(games[0], Error::Code::game_too_long));
    EXPECT_EQ(games[0].plies.size(), 100u);
    EXPECT_TRUE(games[1].errors.empty());
    EXPECT_EQ(games_of(text).front().errors.size(), 0u);  // 240 plies: within the default
    EXPECT_GT(ReaderOptions{}.max_game_plies, 17'697u);
}

TEST(PgnHostile, TruncatedGame) {
    // Issue 17.1: no termination marker at the end of the input, or cut mid-token.
    for (const char* text : {"[Event \"a\"]\n\n1. e4 e5 2. Nf3", "[Event \"a\"]\n\n1. e4 e5 2. N", "[Event \"a\"]\n"}) {
        const auto games = games_of(text);
        ASSERT_EQ(games.size(), 1u) << text;
        EXPECT_TRUE(has_error(games[0], Error::Code::truncated_game)) << text;
    }
    // A game that ends without a result before the next one is not truncated; nor is the last
    // game of a piece that is cut at a boundary.
    EXPECT_TRUE(games_of("[Event \"a\"]\n\n1. e4\n\n[Event \"b\"]\n\n1. d4 *\n")[0].errors.empty());
    GameReaderOptions o;
    o.reader.input_continues = true;
    EXPECT_TRUE(games_of("[Event \"a\"]\n\n1. e4\n", o)[0].errors.empty());
    EXPECT_TRUE(games_of("[Event \"a\"]\n\n1. e4 *").front().errors.empty());
}

TEST(PgnHostile, TagLineOverTheLimit) {
    // Issue 20.10: a tag value over 65,536 bytes is an error, not cut silently.
    const std::string text = "[Event \"" + std::string(70'000, 'x') + "\"]\n[Site \"s\"]\n\n1. e4 *\n";
    const auto games = games_of(text);
    ASSERT_EQ(games.size(), 1u);
    EXPECT_TRUE(has_error(games[0], Error::Code::tag_too_long));
    EXPECT_FALSE(games[0].tag("Event"));
    EXPECT_EQ(games[0].tag("Site"), "s");
    EXPECT_EQ(games[0].plies.size(), 1u);
}

TEST(PgnHostile, DuplicateTagsAndSetUpWithoutFen) {
    // Issue 20.10.
    const std::string fen1 = "8/8/8/8/8/8/8/K6k w - - 0 1", fen2 = "8/8/8/8/8/8/8/K5k1 w - - 0 1";
    auto g = games_of("[FEN \"" + fen1 + "\"]\n[FEN \"" + fen2 + "\"]\n\n1. Kb1 *\n");
    ASSERT_EQ(g.size(), 1u);
    EXPECT_TRUE(has_error(g[0], Error::Code::duplicate_tag));
    EXPECT_FALSE(g[0].has_start);
    EXPECT_TRUE(g[0].plies.empty());
    g = games_of("[FEN \"" + fen1 + "\"]\n[FEN \"" + fen1 + "\"]\n\n1. Kb1 *\n");  // the same twice
    EXPECT_TRUE(g[0].errors.empty());
    EXPECT_EQ(g[0].plies.size(), 1u);
    g = games_of("[Result \"1-0\"]\n[Result \"0-1\"]\n\n1. e4 *\n");
    EXPECT_TRUE(has_error(g[0], Error::Code::duplicate_tag));
    EXPECT_EQ(g[0].tag("Result"), "1-0");
    EXPECT_EQ(g[0].tag_index("Result"), 0u);
    g = games_of("[SetUp \"1\"]\n\n1. e4 *\n");
    EXPECT_TRUE(has_error(g[0], Error::Code::missing_fen));
    EXPECT_TRUE(g[0].plies.empty());
}

TEST(PgnHostile, TagsThatAreNotUtf8AreReadAsLatin1) {
    // Issue 20.11: text enters the library at the tags; a Latin-1 value is converted and said so.
    auto g = games_of("[White \"M\xfcller\"]\n[Black \"Caf\xc3\xa9\"]\n[Site \"\xed\xa0\x80\"]\n\n1. e4 *\n");
    ASSERT_EQ(g.size(), 1u);
    EXPECT_EQ(g[0].tag("White"), "M\xc3\xbcller");
    EXPECT_EQ(g[0].tag("Black"), "Caf\xc3\xa9");              // UTF-8 is kept
    EXPECT_EQ(g[0].tag("Site"), "\xc3\xad\xc2\xa0\xc2\x80");  // a surrogate is not UTF-8
    EXPECT_TRUE(g[0].errors.empty());
    ASSERT_EQ(g[0].warnings.size(), 2u);
    EXPECT_EQ(g[0].warnings[0].code, Error::Code::not_utf8);
    EXPECT_EQ(g[0].warnings[0].pos.line, 1u);
    EXPECT_TRUE(g[0].complete);  // a note: the game is read
    EXPECT_EQ(g[0].plies.size(), 1u);
}
