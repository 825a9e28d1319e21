// Audit over the shared corpus (label corpus): every game of
// pgn/repetition/sunfish_3fold_do.pgn (engine games that ended by threefold repetition) is
// reported claimable threefold by its end.
#include <gtest/gtest.h>

#include <filesystem>

#include "arbiter/arbiter.hpp"
#include "arbiter/input.hpp"
#include "arbiter/pgn_game.hpp"

using namespace arbiter;
namespace fs = std::filesystem;

TEST(AuditCorpus, SunfishThreefoldGamesAreClaimable) {
    const fs::path file = fs::path(ARBITER_SHARED_DATA) / "pgn" / "repetition" / "sunfish_3fold_do.pgn";
    if (!fs::exists(file)) GTEST_SKIP() << "no corpus at " << file << " (../shared/data is absent)";
    auto src = open_input(file.string());
    ASSERT_TRUE(src);
    pgn::GameReader reader(**src);
    pgn::ParsedGame game;
    GameRecord record;
    std::size_t games = 0, claimable = 0;
    while (reader.next(game)) {
        ++games;
        EXPECT_TRUE(game.errors.empty()) << "game " << games;
        const auto a = audit::audit_game(game, {}, record);
        bool found = false;
        for (const auto& f : a.findings) found |= f.type == audit::FindingType::claimable && f.kind == "threefold";
        EXPECT_TRUE(found) << "game " << games << " (" << game.tag("Round").value_or("?") << ")";
        claimable += found ? 1 : 0;
    }
    EXPECT_GT(games, 400u);
    EXPECT_EQ(claimable, games);
}
