// http_response_test.cpp — the answers of the polled URLs (http_response.hpp) read from their bytes
// without a network: fed whole and byte by byte, framed by Content-Length, by chunks and by the end
// of the connection, a 304 with no Content-Length, gzip, a 100 Continue first, bytes beyond the
// answer, and the answers that are wrong.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <string>

#include "http_response.hpp"

namespace arbiter::watch {
namespace {

const std::string game = "[Event \"E\"]\n[Board \"1\"]\n\n1. e4 e5 *\n\n";

// Feeds `bytes` whole, or one byte at a time; returns how many were taken.
std::size_t feed(HttpResponse& r, const std::string& bytes, bool by_byte) {
    r.reset();
    if (!by_byte) return r.feed(bytes);
    std::size_t used = 0;
    for (char c : bytes) used += r.feed(std::string_view(&c, 1));
    return used;
}

std::string gzipped(const std::string& text) {
    z_stream z{};
    deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&z, text.size()) + 32, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = static_cast<uInt>(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

std::string hex(std::size_t n) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%zx", n);
    return buf;
}

class WatchHttpResponse : public ::testing::TestWithParam<bool> {};

TEST_P(WatchHttpResponse, BodyByLength) {
    HttpResponse r;
    const std::string bytes = "HTTP/1.1 200 OK\r\nETag: \"a1\"\r\ncontent-length: " + std::to_string(game.size()) +
                              "\r\nLast-Modified: Fri, 04 Dec 2026 06:00:00 GMT\r\n\r\n" + game;
    EXPECT_EQ(feed(r, bytes, GetParam()), bytes.size());
    ASSERT_TRUE(r.complete()) << r.problem();
    EXPECT_EQ(r.status(), 200);
    EXPECT_EQ(r.header("etag"), "\"a1\"");
    EXPECT_EQ(r.header("Last-Modified"), "Fri, 04 Dec 2026 06:00:00 GMT");
    EXPECT_EQ(r.header("Location"), "");
    EXPECT_EQ(r.body(), game);
    EXPECT_TRUE(r.keep_alive());
}

TEST_P(WatchHttpResponse, NotModifiedHasNoBodyEvenWithoutLength) {
    HttpResponse r;
    // A 304 has no body whatever its headers say: the next answer on the connection is not taken
    // for one.
    const std::string bytes = "HTTP/1.1 304 Not Modified\r\nETag: \"a1\"\r\n\r\n";
    EXPECT_EQ(feed(r, bytes + "HTTP/1.1 200 OK\r\n", GetParam()), bytes.size());
    ASSERT_TRUE(r.complete()) << r.problem();
    EXPECT_EQ(r.status(), 304);
    EXPECT_EQ(r.body(), "");
    EXPECT_TRUE(r.keep_alive());
}

TEST_P(WatchHttpResponse, Chunked) {
    HttpResponse r;
    const std::string bytes = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + std::string("5;x=y\r\n") +
                              game.substr(0, 5) + "\r\n" + "1A\r\n" + game.substr(5, 26) + "\r\n" +
                              hex(game.size() - 31) + "\r\n" + game.substr(31) + "\r\n0\r\nX-T: 1\r\n\r\n";
    EXPECT_EQ(feed(r, bytes, GetParam()), bytes.size());
    ASSERT_TRUE(r.complete()) << r.problem();
    EXPECT_EQ(r.body(), game);
    EXPECT_TRUE(r.keep_alive());
}

TEST_P(WatchHttpResponse, GzipInflated) {
    HttpResponse r;
    const std::string zipped = gzipped(game);
    const std::string bytes =
        "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: " + std::to_string(zipped.size()) + "\r\n\r\n" +
        zipped;
    EXPECT_EQ(feed(r, bytes, GetParam()), bytes.size());
    ASSERT_TRUE(r.complete()) << r.problem();
    EXPECT_EQ(r.body(), game);
}

TEST_P(WatchHttpResponse, CorruptGzipSaid) {
    HttpResponse r;
    std::string zipped = gzipped(game);
    zipped[zipped.size() / 2] ^= 0x55;
    zipped.resize(zipped.size() - 4);  // and its length check cut off
    const std::string bytes =
        "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: " + std::to_string(zipped.size()) + "\r\n\r\n" +
        zipped;
    feed(r, bytes, GetParam());
    EXPECT_FALSE(r.complete());
    EXPECT_EQ(r.problem(), "the compressed body is corrupt");
}

TEST_P(WatchHttpResponse, BodyToTheEndOfTheConnection) {
    HttpResponse r;
    const std::string bytes = "HTTP/1.0 200 OK\r\n\r\n" + game;
    EXPECT_EQ(feed(r, bytes, GetParam()), bytes.size());
    EXPECT_FALSE(r.complete());
    r.end();
    ASSERT_TRUE(r.complete()) << r.problem();
    EXPECT_EQ(r.body(), game);
    EXPECT_FALSE(r.keep_alive());
}

TEST_P(WatchHttpResponse, ContinueThenAnswer) {
    HttpResponse r;
    const std::string bytes = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\nno\n";
    EXPECT_EQ(feed(r, bytes, GetParam()), bytes.size());
    ASSERT_TRUE(r.complete()) << r.problem();
    EXPECT_EQ(r.status(), 404);
    EXPECT_EQ(r.body(), "no\n");
}

TEST_P(WatchHttpResponse, RedirectAndClose) {
    HttpResponse r;
    const std::string bytes =
        "HTTP/1.1 301 Moved Permanently\r\nLocation: /round.pgn\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";
    EXPECT_EQ(feed(r, bytes, GetParam()), bytes.size());
    ASSERT_TRUE(r.complete()) << r.problem();
    EXPECT_EQ(r.status(), 301);
    EXPECT_EQ(r.header("location"), "/round.pgn");
    EXPECT_FALSE(r.keep_alive());
}

TEST_P(WatchHttpResponse, CutShort) {
    HttpResponse r;
    feed(r, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + game, GetParam());
    r.end();
    EXPECT_FALSE(r.complete());
    EXPECT_TRUE(r.started());
    EXPECT_NE(r.problem(), "");
    r.reset();
    EXPECT_FALSE(r.started());
    r.end();
    EXPECT_FALSE(r.complete());
}

TEST_P(WatchHttpResponse, BadFramingRefused) {
    for (const std::string bad :
         {"SMTP ready\r\n\r\n", "HTTP/1.1 2x0 OK\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n",
          "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
          "HTTP/1.1 200 OK\r\nContent-Encoding: br\r\nContent-Length: 1\r\n\r\nx"}) {
        HttpResponse r;
        feed(r, bad, GetParam());
        EXPECT_FALSE(r.complete()) << bad;
        EXPECT_NE(r.problem(), "") << bad;
        EXPECT_FALSE(r.keep_alive()) << bad;
    }
}

INSTANTIATE_TEST_SUITE_P(WholeAndByByte, WatchHttpResponse, ::testing::Bool());

}  // namespace
}  // namespace arbiter::watch
