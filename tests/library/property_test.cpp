// Properties that must hold at every node of the perft trees of tests/data/perft.txt and along
// random games: incremental Zobrist key == key from scratch, FEN and Setup round trips, SAN and
// UCI round trips, gives_check agrees with in_check, counting agrees with listing.
#include <gtest/gtest.h>

#include <cctype>
#include <functional>
#include <random>
#include <set>

#include "arbiter/arbiter.hpp"
#include "perft_data.hpp"

using namespace arbiter;

namespace {

std::vector<Position> suite_positions() {
    std::string error;
    const auto suite = test::read_perft_file(ARBITER_TEST_DATA "/perft.txt", error);
    EXPECT_TRUE(error.empty()) << error;
    std::vector<Position> out;
    FenReadOptions options;
    options.tolerant = true;
    for (const auto& e : suite) {
        auto pos = position_from_fen(e.fen, options);
        EXPECT_TRUE(pos) << e.id;
        if (pos) out.push_back(*pos);
    }
    return out;
}

/// Calls `visit(pos, ply)` on every node of the legal move tree down to `depth` plies.
void walk(const Position& pos, int depth, const std::function<void(const Position&, int)>& visit, int ply = 0) {
    visit(pos, ply);
    if (ply == depth) return;
    for (Move m : legal_moves(pos)) walk(pos.after(m), depth, visit, ply + 1);
}

// Invariants of one node that are cheap enough for every node to depth 3.
void check_node(const Position& pos) {
    ASSERT_EQ(pos.key(), pos.compute_key()) << to_fen(pos);
    const MoveList moves = legal_moves(pos);
    ASSERT_EQ(count_legal_moves(pos), moves.size()) << to_fen(pos);
    ASSERT_EQ(has_legal_move(pos), !moves.empty()) << to_fen(pos);
    ASSERT_EQ(first_legal_move(pos), moves.empty() ? std::nullopt : std::optional<Move>(moves[0])) << to_fen(pos);
    ASSERT_EQ(is_checkmate(pos), pos.in_check() && moves.empty());
    ASSERT_EQ(is_stalemate(pos), !pos.in_check() && moves.empty());
    // The en passant square counts for identity exactly when an en passant capture is legal.
    bool ep_capture = false;
    for (Move m : moves) ep_capture |= m.is_en_passant();
    ASSERT_EQ(pos.legal_ep_square() != Square::none, ep_capture) << to_fen(pos);
    for (Move m : moves) {
        const Position child = pos.after(m);
        ASSERT_EQ(pos.gives_check(m), child.in_check()) << to_fen(pos) << " " << to_uci(pos, m);
        ASSERT_EQ(pos.is_zeroing(m), child.halfmove_clock() == 0) << to_fen(pos) << " " << to_uci(pos, m);
        ASSERT_NE(child.turn(), pos.turn());
    }
}

// Notation invariants of one node (run to depth 2: every move at plies 1 and 2).
void check_notation(const Position& pos) {
    const std::string fen = to_fen(pos);
    FenReadOptions options;
    options.chess960 = pos.is_chess960();
    auto back = position_from_fen(fen, options);
    ASSERT_TRUE(back) << fen << ": " << back.error().describe();
    ASSERT_TRUE(*back == pos) << fen;
    ASSERT_EQ(to_fen(*back), fen);
    ASSERT_EQ(back->key(), pos.key()) << fen;
    // Shredder-FEN reads back to the same position too.
    auto shredder = position_from_fen(to_fen(pos, {.shredder = true}));
    ASSERT_TRUE(shredder) << to_fen(pos, {.shredder = true});
    ASSERT_TRUE(shredder->same_position(pos)) << to_fen(pos, {.shredder = true});
    // Setup round trip.
    auto from_setup = Position::from_setup(pos.to_setup());
    ASSERT_TRUE(from_setup) << fen;
    ASSERT_TRUE(*from_setup == pos) << fen;

    std::set<std::string> sans;
    for (Move m : legal_moves(pos)) {
        const std::string san = to_san(pos, m);
        ASSERT_TRUE(sans.insert(san).second) << "two moves share the SAN " << san << " in " << fen;
        for (const std::string& text : {san, to_san_plain(pos, m)}) {
            auto parsed = parse_san(pos, text);
            ASSERT_TRUE(parsed) << fen << " '" << text << "': " << parsed.error().message;
            ASSERT_EQ(*parsed, m) << fen << " '" << text << "'";
            auto any = parse_move(pos, text);
            ASSERT_TRUE(any && *any == m) << fen << " '" << text << "'";
        }
        const char last = san.back();
        if (pos.after(m).in_check()) {
            ASSERT_TRUE(last == '+' || last == '#') << san;
            ASSERT_EQ(last == '#', is_checkmate(pos.after(m))) << san;
        } else {
            ASSERT_TRUE(last != '+' && last != '#') << san;
        }
        const std::string uci = to_uci(pos, m);
        auto parsed = parse_uci(pos, uci);
        ASSERT_TRUE(parsed) << fen << " '" << uci << "': " << parsed.error().message;
        ASSERT_EQ(*parsed, m) << fen << " '" << uci << "'";
        auto any = parse_move(pos, uci);
        ASSERT_TRUE(any && *any == m) << fen << " '" << uci << "'";
    }
}

}  // namespace

TEST(Properties, EveryNodeToDepth3) {
    std::uint64_t nodes = 0;
    for (const Position& root : suite_positions()) {
        walk(root, 3, [&](const Position& pos, int) {
            ++nodes;
            check_node(pos);
        });
        if (HasFatalFailure()) return;
    }
    EXPECT_GT(nodes, 100'000u);
}

TEST(Properties, NotationRoundTripsToDepth2) {
    for (const Position& root : suite_positions()) {
        walk(root, 1, [&](const Position& pos, int) { check_notation(pos); });
        if (HasFatalFailure()) return;
    }
}

// Random games reach positions the perft trees do not: promotions, long games, bare kings.
TEST(Properties, RandomGames) {
    std::mt19937_64 rng(20240601);
    std::uint64_t plies = 0;
    for (int game = 0; game < 150; ++game) {
        Position pos = game % 3 == 2 ? *Position::from_setup(arbiter::Setup::chess960_start(game % 960)) : Position();
        const Position start = pos;
        std::vector<Move> line;
        std::vector<std::string> sans;
        for (int ply = 0; ply < 300; ++ply) {
            check_node(pos);
            if (ply % 8 == 0) check_notation(pos);
            if (HasFatalFailure()) return;
            const MoveList moves = legal_moves(pos);
            if (moves.empty()) break;
            const Move m = moves[rng() % moves.size()];
            line.push_back(m);
            sans.push_back(to_san(pos, m));
            pos.play_unchecked(m);
            ++plies;
        }
        ASSERT_EQ(to_san_line(start, line), sans);  // the line's SAN, each move made once
    }
    EXPECT_GT(plies, 10'000u);
}

TEST(Properties, ZobristFollowsPositionIdentity) {
    // A knight tour back home: the same position, the same key, but different counters.
    Position pos;
    for (const char* san : {"Nf3", "Nf6", "Ng1", "Ng8"}) pos.play_unchecked(*parse_san(pos, san));
    EXPECT_EQ(pos.key(), Position().key());
    EXPECT_TRUE(pos.same_position(Position()));
    EXPECT_FALSE(pos == Position());

    // 1. e4: FEN writes e3, but no capture is possible, so the key ignores it (FIDE 9.2.3.1).
    Position e4;
    e4.play_unchecked(*parse_san(e4, "e4"));
    EXPECT_EQ(e4.ep_square(), Square::e3);
    EXPECT_EQ(e4.legal_ep_square(), Square::none);
    auto same = position_from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    ASSERT_TRUE(same);
    EXPECT_EQ(e4.key(), same->key());
    EXPECT_TRUE(e4.same_position(*same));
    EXPECT_EQ(to_fen(e4, {.ep = FenWriteOptions::Ep::legal}), to_fen(*same));

    // A legal en passant capture does change the key.
    auto with_ep = position_from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    auto without = position_from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1");
    ASSERT_TRUE(with_ep && without);
    EXPECT_EQ(with_ep->legal_ep_square(), Square::e3);
    EXPECT_NE(with_ep->key(), without->key());
    EXPECT_FALSE(with_ep->same_position(*without));

    // Castling rights and the side to move are part of the key.
    auto no_castling = position_from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Qkq - 0 1");
    auto black = position_from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    ASSERT_TRUE(no_castling && black);
    EXPECT_NE(no_castling->key(), Position().key());
    EXPECT_NE(black->key(), Position().key());
}

TEST(Properties, SetupRoundTripKeepsChess960) {
    for (int n : {0, 100, 518, 959}) {
        const arbiter::Setup s = arbiter::Setup::chess960_start(n);
        auto pos = Position::from_setup(s);
        ASSERT_TRUE(pos);
        EXPECT_EQ(pos->to_setup(), s) << n;
        EXPECT_EQ(pos->is_chess960(), n != 518) << n;
    }
}
