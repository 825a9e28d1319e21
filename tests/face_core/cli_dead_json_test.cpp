// The text `dead --batch` writes straight (append_dead_members) and the value dead_json builds for
// the CLI, the service and the Python module come from one writer over two sinks: the text is
// what the JSON library itself writes for that value (escapes, numbers, key order), for every kind
// of answer.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "requests/dead_json.hpp"

namespace arbiter::face {
namespace {

std::string written(const Position& pos, const std::vector<DeadAnswer>& answers, bool timing) {
    std::string out = "{";
    append_dead_members(out, pos, answers, timing);
    return out + "}";
}

TEST(DeadJsonText, SameBytesAsTheJsonValue) {
    HelpmateOptions options;
    options.node_limit = 20'000;  // some answers come out unknown
    const HelpmateAnalyzer analyzer(options);
    const char* fens[] = {
        "8/8/8/4k3/8/8/8/4K3 w - - 0 1",                                 // material, dead
        "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2",  // mating lines both ways
        "k7/2K5/1P6/8/8/8/8/8 b - - 0 1",                                // stalemate
        "3bk3/8/8/p1p1p1p1/P1P1P1P1/8/8/3BK3 w - - 0 1",                 // blockade
        "8/8/5p2/2p1pPp1/2PbPk1b/2pBp1pB/2P1P1P1/5BRK b - - 0 1",        // unknown at this limit
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
    };
    for (const char* fen : fens) {
        const Position pos = composed_fen_or_throw(fen);
        for (const char* side : {"white", "black", "both"}) {
            auto answers = analyse_dead(analyzer, pos, sides_of(side));
            for (DeadAnswer& a : answers) a.micros = 12.3456789;  // a fraction, as timed answers have
            for (bool timing : {false, true})
                EXPECT_EQ(written(pos, answers, timing), dump(dead_json(pos, answers, timing))) << fen << ' ' << side;
        }
    }
}

TEST(DeadJsonText, EscapesAsTheJsonLibraryDoes) {
    const Position pos = composed_fen_or_throw("8/8/8/4k3/8/8/8/4K3 w - - 0 1");
    DeadAnswer a;
    a.verdict.answer = MateAbility::can_checkmate;
    a.verdict.reason = std::string("quote \" backslash \\ tab \t newline \n bell \x07 del \x7f end");
    a.san = {"e4", "e5\"", "a\\b"};
    a.micros = 0;
    const std::vector<DeadAnswer> answers{a};
    EXPECT_EQ(written(pos, answers, true), dump(dead_json(pos, answers, true)));
}

TEST(DeadJsonText, MicrosecondsAsTheJsonLibraryWritesThem) {
    // Measured times are whole nanoseconds: every one below 2 ms, then a spread up to 10^12 µs,
    // and values that are not whole nanoseconds (the library's own text then).
    auto check = [](double micros) {
        std::string out;
        append_micros(out, micros);
        ASSERT_EQ(out, dump(Json(micros))) << micros;
    };
    for (std::uint64_t ns = 0; ns < 2'000'000; ++ns) check(static_cast<double>(ns) / 1000);
    std::uint64_t x = 88172645463325252ULL;
    for (int i = 0; i < 200'000; ++i) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        check(static_cast<double>(x % 1'000'000'000'000'000ULL) / 1000);
        check(std::chrono::duration<double, std::micro>(std::chrono::nanoseconds(x % (1ULL << 40))).count());
    }
    for (double v : {12.3456789, 0.0001, 1e-7, 0.5, 1e15, 3e20, 123456789.123456}) check(v);
}

}  // namespace
}  // namespace arbiter::face
