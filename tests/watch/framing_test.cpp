// framing_test.cpp — the pieces of the hall monitor's network feeds that need no network: URLs and
// redirect targets (http_client.hpp), and a stream cut into complete games (pgn_framer.hpp), fed
// whole, byte by byte, with markers inside comments and strings, and with a game too long.
#include <gtest/gtest.h>

#include <string>

#include "http_client.hpp"
#include "pgn_framer.hpp"

namespace arbiter::watch {
namespace {

const std::string game1 = "[Event \"E\"]\n[Board \"1\"]\n\n1. e4 e5 *\n\n";
const std::string game2 = "[Event \"E\"]\n[Board \"2\"]\n\n1. d4 {a comment with * and 1-0} d5 2. c4 1-0\n\n";

TEST(WatchUrl, Parses) {
    std::string error;
    auto u = parse_url("https://relay.example/round/3.pgn?x=1#top", error);
    ASSERT_TRUE(u) << error;
    EXPECT_TRUE(u->tls);
    EXPECT_EQ(u->host, "relay.example");
    EXPECT_EQ(u->port, 443);
    EXPECT_EQ(u->path, "/round/3.pgn?x=1");
    EXPECT_EQ(u->text(), "https://relay.example/round/3.pgn?x=1");
    u = parse_url("HTTP://127.0.0.1:8080", error);
    ASSERT_TRUE(u) << error;
    EXPECT_FALSE(u->tls);
    EXPECT_EQ(u->port, 8080);
    EXPECT_EQ(u->path, "/");
    u = parse_url("http://[::1]:81/x", error);
    ASSERT_TRUE(u) << error;
    EXPECT_EQ(u->host, "::1");
    EXPECT_EQ(u->port, 81);
    EXPECT_EQ(u->text(), "http://[::1]:81/x");  // bracketed again: what libcurl is asked and a person shown
}

TEST(WatchUrl, RefusesWhatIsNotAUrl) {
    for (const char* bad : {"ftp://x/", "http://", "http://h:0/", "http://h:70000/", "http://h:8x/", "https://[::1",
                            "http://user@h/", "round3.pgn"}) {
        std::string error;
        EXPECT_FALSE(parse_url(bad, error)) << bad;
        EXPECT_FALSE(error.empty()) << bad;
    }
}

TEST(WatchUrl, ResolvesRedirects) {
    std::string error;
    const Url base = *parse_url("https://a.example:8443/feeds/round3.pgn", error);
    EXPECT_EQ(resolve_location(base, "/other.pgn", error)->text(), "https://a.example:8443/other.pgn");
    EXPECT_EQ(resolve_location(base, "round4.pgn", error)->text(), "https://a.example:8443/feeds/round4.pgn");
    EXPECT_EQ(resolve_location(base, "//b.example/x", error)->text(), "https://b.example/x");
    EXPECT_EQ(resolve_location(base, "http://c.example:81/y", error)->text(), "http://c.example:81/y");
}

TEST(WatchFramer, MarkerOutsideCommentsAndStrings) {
    EXPECT_TRUE(ends_with_marker(game1));
    EXPECT_TRUE(ends_with_marker(game2));
    EXPECT_FALSE(ends_with_marker("1. e4 e5 *"));  // no white space after it yet
    EXPECT_FALSE(ends_with_marker("1. e4 {still * "));
    EXPECT_FALSE(ends_with_marker("[Event \"a * \n"));
    EXPECT_FALSE(ends_with_marker("1. e4 ; rest of line *\n"));
    EXPECT_TRUE(ends_with_marker("1. e4 ; rest of line\n*\n"));
    EXPECT_FALSE(ends_with_marker("1. e4 e5 2. Nf3\n"));
}

TEST(WatchFramer, GamesWholeOrByteByByte) {
    const std::string stream = game1 + game2 + game1;
    PgnFramer whole;
    std::string out;
    whole.append(stream, out);
    EXPECT_EQ(out, stream);
    PgnFramer bytes;
    std::string got;
    std::size_t complete = 0;
    for (char c : stream) {
        std::string games;
        bytes.append(std::string_view(&c, 1), games);
        if (!games.empty()) ++complete;
        got += games;
    }
    // The last line break stays behind: white space before the next game, given with it.
    EXPECT_EQ(got, stream.substr(0, stream.size() - 1));
    // Each game is given once it is complete, never a piece of one: three appends gave games.
    EXPECT_EQ(complete, 3u);
}

TEST(WatchFramer, AHalfGameWaitsAndADropForgetsIt) {
    PgnFramer f;
    std::string out;
    f.append(game1.substr(0, 30), out);
    EXPECT_EQ(out, "");
    f.clear();  // the connection dropped: the server sends everything again
    f.append(game1, out);
    EXPECT_EQ(out, game1);
}

TEST(WatchFramer, DropsAGameTooLong) {
    PgnFramer f(64);
    std::string out;
    f.append("[Event \"E\"]\n\n1. e4 {" + std::string(100, 'x'), out);
    EXPECT_EQ(out, "");
    EXPECT_EQ(f.dropped(), 1u);
    f.append(game1, out);
    EXPECT_EQ(out, game1);
}

TEST(WatchFramer, MarkersInACommentAcrossManyAppends) {
    // A comment left open, then pieces that each end like a finished game: the comment state is
    // kept from append to append (each byte read once), so none is taken for the end.
    PgnFramer f(1u << 20);
    std::string out;
    f.append("[Event \"E\"]\n\n1. e4 {", out);
    const std::string piece = std::string(4000, 'x') + " * \n";
    for (int i = 0; i < 400 && f.dropped() == 0; ++i) f.append(piece, out);
    EXPECT_EQ(out, "");
    EXPECT_EQ(f.dropped(), 1u);  // over 1 MiB: dropped
    f.append(game1, out);
    EXPECT_EQ(out, game1);
}

}  // namespace
}  // namespace arbiter::watch
