// Deterministic random-input robustness: random bytes and mutations of valid FENs and moves are
// fed to every parser. Nothing may crash, hang or read out of bounds (this suite also runs under
// ASan + UBSan); errors must point inside the input; whatever is accepted must be usable.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "arbiter/arbiter.hpp"
#include "perft_data.hpp"

using namespace arbiter;

namespace {

class Mutator {
public:
    explicit Mutator(std::uint64_t seed) : rng_(seed) {}

    std::size_t below(std::size_t n) { return n ? static_cast<std::size_t>(rng_() % n) : 0; }

    // A byte that is often meaningful to the parsers, sometimes anything at all.
    char byte() {
        static const std::string alphabet = "pnbrqkPNBRQK12345678/ -wbKQkqabcdefghABCDEFGH0x=+#!?.:()O";
        if (below(4) == 0) return static_cast<char>(below(256));
        return alphabet[below(alphabet.size())];
    }

    std::string random_bytes(std::size_t max_len) {
        std::string s(below(max_len + 1), '\0');
        for (char& c : s) c = byte();
        return s;
    }

    std::string mutate(std::string s) {
        const int edits = 1 + static_cast<int>(below(below(2) ? 1 : 4));
        for (int i = 0; i < edits; ++i) {
            const std::size_t at = below(s.size() + 1);
            switch (below(6)) {
                case 0:
                    if (at < s.size()) s[at] = byte();
                    break;
                case 1: s.insert(s.begin() + static_cast<std::ptrdiff_t>(at), byte()); break;
                case 2:
                    if (at < s.size()) s.erase(at, 1 + below(3));
                    break;
                case 3: s.resize(at); break;  // truncate
                case 4: {                     // duplicate a slice
                    const std::size_t len = below(s.size() - std::min(at, s.size()) + 1);
                    s.insert(at, s.substr(at, len));
                    break;
                }
                default:
                    if (at + 1 < s.size()) std::swap(s[at], s[at + 1]);
                    break;
            }
        }
        return s;
    }

private:
    std::mt19937_64 rng_;
};

std::vector<std::string> seed_fens() {
    std::string error;
    std::vector<std::string> out;
    for (const auto& e : test::read_perft_file(ARBITER_TEST_DATA "/perft.txt", error)) out.push_back(e.fen);
    out.emplace_back(start_fen);
    return out;
}

// Everything a caller may do with an accepted position must work.
void exercise(const Position& pos) {
    ASSERT_EQ(pos.key(), pos.compute_key());
    const MoveList moves = legal_moves(pos);
    ASSERT_EQ(count_legal_moves(pos), moves.size());
    const std::string fen = to_fen(pos);
    FenReadOptions options;
    options.chess960 = pos.is_chess960();
    auto back = position_from_fen(fen, options, SetupRepairs{false, false, true, true});
    ASSERT_TRUE(back) << fen << ": " << back.error().describe();
    ASSERT_TRUE(back->same_position(pos)) << fen;
    std::uint64_t n = 0;
    for (Move m : moves) {
        const std::string san = to_san(pos, m);
        auto parsed = parse_san(pos, san);
        ASSERT_TRUE(parsed && *parsed == m) << fen << " " << san;
        n += count_legal_moves(pos.after(m));
    }
    ASSERT_EQ(n, perft(pos, 2)) << fen;
}

}  // namespace

TEST(Robustness, RandomBytesAsFen) {
    Mutator mut(1);
    for (int i = 0; i < 20000; ++i) {
        const std::string s = mut.random_bytes(100);
        for (bool tolerant : {false, true}) {
            FenReadOptions options;
            options.tolerant = tolerant;
            auto pos = position_from_fen(s, options);
            if (!pos) {
                ASSERT_LE(pos.error().offset, s.size());
                ASSERT_FALSE(pos.error().describe().empty());
            } else {
                exercise(*pos);
            }
        }
    }
}

TEST(Robustness, MutatedFens) {
    Mutator mut(2);
    const auto seeds = seed_fens();
    int accepted = 0;
    for (int i = 0; i < 60000; ++i) {
        const std::string s = mut.mutate(seeds[mut.below(seeds.size())]);
        FenReadOptions options;
        options.tolerant = i % 2 == 0;
        options.chess960 = i % 3 == 0;
        // Every fourth input with every repair, so that odd positions reach the generator.
        const SetupRepairs repairs = i % 4 == 0 ? SetupRepairs{true, true, true, true} : SetupRepairs{};
        auto setup = parse_fen(s, options);
        auto pos = position_from_fen(s, options, repairs);
        ASSERT_EQ(setup.has_value() || (!pos && pos.error().code != FenError::Code::invalid_position), true) << s;
        if (!pos) {
            ASSERT_LE(pos.error().offset, s.size()) << s;
            ASSERT_EQ(pos.error().describe().find('\n'), std::string::npos);
            continue;
        }
        ++accepted;
        exercise(*pos);
        if (HasFatalFailure()) {
            ADD_FAILURE() << "input: " << s;
            return;
        }
    }
    std::cout << "[ fuzz     ] " << accepted << " of 60000 mutated FENs accepted\n";
    EXPECT_GT(accepted, 1000);  // the mutations keep many inputs valid, so positions get exercised
}

TEST(Robustness, MutatedAndRandomMoves) {
    Mutator mut(3);
    FenReadOptions tolerant;
    tolerant.tolerant = true;
    std::vector<Position> positions;
    for (const auto& fen : seed_fens()) positions.push_back(*position_from_fen(fen, tolerant));
    std::vector<std::vector<std::string>> texts;
    for (const Position& pos : positions) {
        std::vector<std::string> t;
        for (Move m : legal_moves(pos)) {
            t.push_back(to_san(pos, m));
            t.push_back(to_uci(pos, m));
        }
        t.emplace_back("O-O-O");
        t.emplace_back("exd6 e.p.");
        texts.push_back(std::move(t));
    }
    for (int i = 0; i < 100000; ++i) {
        const std::size_t k = mut.below(positions.size());
        const Position& pos = positions[k];
        const std::string s = i % 5 == 0         ? mut.random_bytes(12)
                              : texts[k].empty() ? mut.random_bytes(8)
                                                 : mut.mutate(texts[k][mut.below(texts[k].size())]);
        for (auto parse : {&parse_san, &parse_uci, &parse_move}) {
            auto m = parse(pos, s);
            if (m) {
                ASSERT_TRUE(pos.is_legal(*m)) << to_fen(pos) << " '" << s << "'";
            } else {
                ASSERT_LE(m.error().offset, s.size()) << to_fen(pos) << " '" << s << "'";
                ASSERT_FALSE(m.error().message.empty());
            }
        }
    }
}

TEST(Robustness, SetupsWithOutOfRangeValues) {
    arbiter::Setup s = arbiter::Setup::standard();
    s.board[20] = static_cast<Piece>(7);  // not a piece
    auto bad = Position::from_setup(s);
    ASSERT_FALSE(bad);
    EXPECT_TRUE(bad.error().has(PositionProblem::invalid_piece));
    EXPECT_EQ(bad.error().list().size(), 1u);

    arbiter::Setup ep = arbiter::Setup::standard();
    ep.ep_square = Square::none;
    ep.castling_rooks = Bitboard::all();  // rights on every square: refused, not trusted
    auto castling = Position::from_setup(ep);
    ASSERT_FALSE(castling);
    EXPECT_TRUE(castling.error().has(PositionProblem::invalid_castling_rights));
    auto repaired = Position::from_setup(ep, SetupRepairs{false, true, false, false});
    ASSERT_TRUE(repaired);
    EXPECT_EQ(repaired->castling_rooks().count(), 4);
}
