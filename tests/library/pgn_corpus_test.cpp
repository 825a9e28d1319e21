// The PGN reader over the shared corpora (label `corpus`; skipped when ../shared/data is absent):
// every edge-case file parses, with the game count established by reading it; the real-game
// files replay without move errors except the documented damage; the repetition files replay.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "arbiter/pgn_game.hpp"

using namespace arbiter;
using namespace arbiter::pgn;
namespace fs = std::filesystem;

namespace {

const fs::path data = ARBITER_SHARED_DATA "/pgn";

struct Tally {
    std::uint64_t games = 0, plies = 0, games_with_errors = 0;
    std::vector<std::string> errors;  // "line:column code token"
};

Tally tally(const fs::path& file) {
    Tally t;
    auto src = open_input(file.string());
    EXPECT_TRUE(src) << file;
    if (!src) return t;
    GameReader reader(**src);
    ParsedGame g;
    while (reader.next(g)) {
        ++t.games;
        t.plies += g.plies.size();
        if (!g.errors.empty()) ++t.games_with_errors;
        for (const auto& e : g.errors)
            t.errors.push_back(std::to_string(e.pos.line) + ":" + std::to_string(e.pos.column) + " " +
                               code_name(e.code) + (e.token.empty() ? "" : " " + e.token));
    }
    EXPECT_FALSE(reader.reader().input_error()) << file;
    return t;
}

#define REQUIRE_DATA(dir) \
    if (!fs::is_directory(dir)) GTEST_SKIP() << "no shared data at " << (dir).string()

// Expected game counts, established by reading each file. A comment marks what makes a file
// tricky and what the count rests on.
const std::map<std::string, std::uint64_t> edge_counts = {
    {"debian_pgn-extract_eco.pgn", 2014},  // no Event tags: ECO/Opening tag sections; a leading comment
    {"mate_in_2.pgn", 166},
    {"mate_in_3.pgn", 375},  // FEN tags with fullmove number 0
    {"mate_in_4.pgn", 373},
    {"chesslib/backslash_header.pgn", 1},  // [Event "Tournament \"]: literal backslash, last line ends without newline
    {"chesslib/basic.pgn", 1},
    {"chesslib/black2move.pgn", 1},  // 1...0-0-0 is illegal there (queen on d8): one move error
    {"chesslib/book.pgn", 1},
    {"chesslib/castling.pgn", 1},  // castling written with zeros; no result
    {"chesslib/comment_before_moves.pgn", 1},
    {"chesslib/corrupted.pgn", 1},   // cut off in the middle of a move ("Kx"): one syntax error
    {"chesslib/empty_body.pgn", 2},  // first game has tags only; a blank line and [Event start the second
    {"chesslib/multiple.pgn", 4},
    {"chesslib/newline.pgn", 1},
    {"chesslib/no_moves.pgn", 1},
    {"chesslib/no_moves_but_comment_followed_by_termination_marker.pgn", 2},  // no Event tags
    {"chesslib/no_moves_but_game_termination.pgn", 1},
    {"chesslib/no_moves_but_game_termination_2.pgn", 1},
    {"chesslib/no_moves_but_game_termination_3.pgn", 1},
    {"chesslib/no_moves_but_game_termination_multiple.pgn", 2},
    {"chesslib/no_moves_but_game_termination_multiple_2.pgn", 3},  // FEN+Result tags and a result only
    {"chesslib/no_moves_two_games.pgn", 2},                        // result on the line right after the tags
    {"chesslib/no_result.pgn", 1},
    {"chesslib/non_ascii.pgn", 1},  // UTF-8 in tag values
    {"chesslib/skip.pgn", 2},
    {"chesslib/square_bracket_in_header.pgn", 1},  // ']' and '\"' inside tag values
    {"chesslib/threefold_repetition.pgn", 1},      // no result
    {"chesslib/unescaped_quote_header.pgn", 1},    // "Club "Victory"": unescaped quotes kept
    {"chesslib/variations.pgn", 1},
    {"pychess/anastasian-lewis.pgn", 1},         // "Z0" null move in the mainline: one error
    {"pychess/antichess-programfox.pgn", 2},     // Variant "Antichess": unsupported, not replayed
    {"pychess/chessbase-empty-line.pgn", 1},     // blank line inside the tag section
    {"pychess/cutechess-fischerrandom.pgn", 4},  // Variant "fischerandom" with KQkq castling
    {"pychess/kasparov-deep-blue-1997.pgn", 6},
    {"pychess/knightvuillaume-jannlee-zh-lichess.pgn", 1},  // Crazyhouse (drops): unsupported
    {"pychess/molinari-bordais-1979.pgn", 1},
    {"pychess/nepomniachtchi-liren-game1.pgn", 1},
    {"pychess/saturs-jannlee-zh-lichess.pgn", 1},  // Crazyhouse: unsupported
    {"pychess/stockfish-learning.pgn", 1},
    {"pychess/uci-moves.pgn", 1},  // movetext in UCI ("g1f3")
    {"pychess/utf8-bom.pgn", 2},   // byte order mark before the first tag; games without moves
};

// Files whose games carry errors by design (what the error is, per file).
const std::map<std::string, std::uint64_t> edge_error_games = {
    {"chesslib/black2move.pgn", 1},
    {"chesslib/corrupted.pgn", 1},
    // The last game has no termination marker at the end of the file: truncated_game.
    {"chesslib/castling.pgn", 1},
    {"chesslib/newline.pgn", 1},
    {"chesslib/no_moves.pgn", 1},
    {"chesslib/threefold_repetition.pgn", 1},
    // SetUp "1" without a FEN tag (twice): missing_fen.
    {"chesslib/no_moves_but_comment_followed_by_termination_marker.pgn", 2},
    {"pychess/anastasian-lewis.pgn", 1},
    {"pychess/antichess-programfox.pgn", 2},
    {"pychess/knightvuillaume-jannlee-zh-lichess.pgn", 1},
    {"pychess/saturs-jannlee-zh-lichess.pgn", 1},
};

const std::map<std::string, std::uint64_t> extract_counts = {
    {"barnes-horton.pgn", 1},
    {"fischer.pgn", 34},
    {"fools-mate.pgn", 1},
    {"najdorf.pgn", 8},
    // "{ … { a nested comment } which … }": PGN comments do not nest, so the text after the first
    // '}' is movetext ("which" is no move) and the second '}' is a stray: one game, with errors.
    {"nested-comment.pgn", 1},
    {"petrosian.pgn", 35},
    {"test-7.pgn", 1},
    {"test-C.pgn", 1},
    {"test-F-text.pgn", 1},
    {"test-F.pgn", 1},
    {"test-L1.pgn", 1},
    {"test-L2.pgn", 1},
    {"test-N.pgn", 1},
    {"test-P.pgn", 11},
    {"test-R.pgn", 1},
    {"test-Ta.pgn", 1},
    {"test-V.pgn", 1},
    {"test-addhashcode.pgn", 1},
    {"test-allownullmoves.pgn", 2},  // "--" null moves in the mainline: one error each
    {"test-checkmate.pgn", 2},
    {"test-e.pgn", 6},
    {"test-evaluation.pgn", 1},
    {"test-f1.pgn", 1},
    {"test-f2.pgn", 1},
    {"test-fencomments.pgn", 1},
    {"test-fifty.pgn", 2},
    {"test-fixresulttags-in.pgn", 5},
    {"test-fuzzydepth.pgn", 4},  // four games without tags, one per line
    {"test-hash.pgn", 35},
    {"test-long-line.pgn", 1},
    {"test-matchplylimit.pgn", 1},
    {"test-nagcomments.pgn", 1},   // no tags; NAGs between comments
    {"test-nobadresults.pgn", 9},  // each line: a tag and the movetext on the same line
    {"test-nochecks.pgn", 2},
    {"test-nomovenumbers.pgn", 1},
    {"test-noresults.pgn", 1},
    {"test-notags.pgn", 1},
    {"test-plycount.pgn", 1},
    {"test-plylimit.pgn", 1},
    {"test-promotion-in.pgn", 8},  // games without Event tags
    {"test-repetition.pgn", 12},
    {"test-s.pgn", 3},
    {"test-selectonly.pgn", 34},
    {"test-setup-in.pgn", 2},
    {"test-splitvariants.pgn", 1},
    {"test-stalemate.pgn", 3},
    {"test-stopafter.pgn", 34},
    {"test-t.pgn", 6},
    {"test-ucE.pgn", 6},
    {"test-ucS.pgn", 3},
    {"test-ucW.pgn", 1},
    {"test-w.pgn", 1},
};
const std::set<std::string> extract_error_files = {"nested-comment.pgn", "test-allownullmoves.pgn"};

}  // namespace

TEST(PgnCorpus, EdgeFilesParseWithTheirGameCounts) {
    REQUIRE_DATA(data / "edge");
    std::size_t seen = 0;
    for (const auto& entry : fs::recursive_directory_iterator(data / "edge")) {
        if (!entry.is_regular_file() || entry.path().extension() != ".pgn") continue;
        const std::string rel = fs::relative(entry.path(), data / "edge").generic_string();
        SCOPED_TRACE(rel);
        ++seen;
        const Tally t = tally(entry.path());
        const auto want = edge_counts.find(rel);
        ASSERT_NE(want, edge_counts.end()) << "a new file: read it and add its count";
        EXPECT_EQ(t.games, want->second);
        const auto errs = edge_error_games.find(rel);
        EXPECT_EQ(t.games_with_errors, errs == edge_error_games.end() ? 0 : errs->second)
            << (t.errors.empty() ? "" : t.errors[0]);
    }
    EXPECT_EQ(seen, edge_counts.size());
}

TEST(PgnCorpus, PgnExtractTestInputsParse) {
    REQUIRE_DATA(data / "pgn-extract-tests" / "infiles");
    std::size_t seen = 0;
    for (const auto& entry : fs::directory_iterator(data / "pgn-extract-tests" / "infiles")) {
        if (entry.path().extension() != ".pgn") continue;
        const std::string name = entry.path().filename().string();
        SCOPED_TRACE(name);
        ++seen;
        const Tally t = tally(entry.path());
        const auto want = extract_counts.find(name);
        ASSERT_NE(want, extract_counts.end()) << "a new file: read it and add its count";
        EXPECT_EQ(t.games, want->second);
        if (!extract_error_files.count(name))
            EXPECT_EQ(t.games_with_errors, 0u) << (t.errors.empty() ? "" : t.errors[0]);
    }
    EXPECT_EQ(seen, extract_counts.size());
}

// The real-game files: every game replays, except the damage that is in the files themselves
// (checked by hand: moves that are illegal or ambiguous as written, null moves "--", text with
// unbalanced braces or brackets, tags cut off). Each is listed with its line and column.
TEST(PgnCorpus, RealGamesReplayWithoutMoveErrors) {
    REQUIRE_DATA(data / "real");
    const std::map<std::string, std::vector<std::string>> known = {
        {"scoutfish_GM_games.pgn", {"8:13 unterminated_string", "284:1 unexpected_char"}},
        {"scoutfish_ambiguous.pgn", {"32:6 ambiguous_move Rd1"}},
        {"scoutfish_chessdoctor.pgn",
         {"3050:8 illegal_move Be3", "3270:9 ambiguous_move Ne7", "3384:7 illegal_move Bb4+", "4122:5 illegal_move Bd3",
          "4573:37 unexpected_char"}},
        {"scoutfish_d00_chess_informant.pgn", {"2914:1 unexpected_char"}},  // a stray 0xFF byte
        {"scoutfish_europe_echecs.pgn",
         {"937:1 unterminated_comment", "8721:47 illegal_move cxd3"}},  // 9860 "axb6ep": e.p. is tolerated
        {"scoutfish_hartwig.pgn", {"835:11 unterminated_string"}},
        {"scoutfish_hayes.pgn", {"14:1181 unexpected_char", "44:1258 unexpected_char"}},
        {"scoutfish_immortal_games.pgn",
         {"14:8 ambiguous_move Nd7", "1136:7 ambiguous_move Rf8", "1534:6 ambiguous_move Rd1",
          "2182:6 ambiguous_move Nd7"}},
        {"scoutfish_middleg.pgn",
         {"502:43 null_move --", "1560:55 null_move --", "6154:71 null_move --", "6232:22 null_move --",
          "9294:51 null_move --", "15196:57 null_move --", "15411:9 null_move --", "17880:47 null_move --"}},
        {"scoutfish_russian_chess.pgn", {"48:327 unexpected_char"}},
        {"scoutfish_scca.pgn", {"3462:56 unexpected_char"}},
    };
    std::uint64_t games = 0;
    for (const auto& entry : fs::directory_iterator(data / "real")) {
        if (entry.path().extension() != ".pgn") continue;
        const std::string name = entry.path().filename().string();
        SCOPED_TRACE(name);
        const Tally t = tally(entry.path());
        games += t.games;
        EXPECT_GT(t.games, 0u);
        const auto k = known.find(name);
        EXPECT_EQ(t.errors, k == known.end() ? std::vector<std::string>{} : k->second);
    }
    EXPECT_EQ(games, 4127u);
}

TEST(PgnCorpus, RepetitionFilesReplay) {
    REQUIRE_DATA(data / "repetition");
    const std::map<std::string, std::uint64_t> counts = {
        {"sunfish_3fold.pgn", 713}, {"sunfish_3fold_do.pgn", 411}, {"sunfish_3fold_dont.pgn", 188}};
    for (const auto& [name, n] : counts) {
        SCOPED_TRACE(name);
        const Tally t = tally(data / "repetition" / name);
        EXPECT_EQ(t.games, n);
        EXPECT_EQ(t.games_with_errors, 0u) << (t.errors.empty() ? "" : t.errors[0]);
    }
}
