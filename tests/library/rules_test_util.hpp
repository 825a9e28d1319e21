// Helpers shared by the rules-layer tests: build a GameRecord from a FEN and a move list.
#pragma once

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "arbiter/arbiter.hpp"

namespace arbiter::testing {

inline GameRecord record(const std::string& fen, const std::string& moves, RuleSetId id = RuleSetId::fide_2023,
                         RuleOptions options = {}) {
    auto start = fen.empty() ? Expected<Position, FenError>(Position()) : position_from_fen(fen);
    EXPECT_TRUE(start) << fen;
    GameRecord rec(start ? *start : Position(), rule_set(id), options);
    std::istringstream in(moves);
    std::string tok;
    while (in >> tok) {
        const auto err = rec.play(tok);
        EXPECT_FALSE(err) << "move '" << tok << "': " << (err ? err->message : "");
        if (err) break;
    }
    return rec;
}

inline std::string repeat(const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s + " ";
    return out;
}

inline Move move_of(const GameRecord& rec, const std::string& san) {
    auto m = parse_san(rec.current(), san);
    EXPECT_TRUE(m) << san;
    return m ? *m : Move::null();
}

}  // namespace arbiter::testing
