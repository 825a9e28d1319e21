// Differential test on the real games of ../shared/data/pgn (corpus label): at every ply of every
// game, the occurrence count kept incrementally by GameRecord equals a slow, independent
// reference that compares every earlier position field by field, with the en passant field
// recomputed from the legal move list. A minimal PGN reader lives here (mainline SAN only).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "arbiter/arbiter.hpp"

using namespace arbiter;
namespace fs = std::filesystem;

namespace {

const fs::path data_dir = ARBITER_SHARED_DATA;

struct MiniGame {
    std::string fen;
    std::vector<std::string> sans;
};

// Splits a PGN text into games: tag pairs, then movetext without comments, variations, NAGs,
// move numbers and results.
std::vector<MiniGame> read_games(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    std::vector<MiniGame> games;
    MiniGame cur;
    bool in_moves = false;
    int depth = 0;
    std::size_t i = 0;
    auto flush = [&] {
        if (in_moves || !cur.sans.empty()) games.push_back(cur);
        cur = MiniGame{};
        in_moves = false;
    };
    while (i < text.size()) {
        const char c = text[i];
        if (c == '{') {
            const auto e = text.find('}', i);
            i = e == std::string::npos ? text.size() : e + 1;
        } else if (c == ';') {
            const auto e = text.find('\n', i);
            i = e == std::string::npos ? text.size() : e + 1;
        } else if (c == '(') {
            ++depth;
            ++i;
        } else if (c == ')') {
            --depth;
            ++i;
        } else if (c == '[' && depth == 0 && (i == 0 || text[i - 1] == '\n')) {
            if (in_moves) flush();
            const auto e = text.find('\n', i);
            const std::string tag = text.substr(i, (e == std::string::npos ? text.size() : e) - i);
            if (tag.rfind("[FEN \"", 0) == 0) {
                const auto q = tag.find('"', 6);
                cur.fen = tag.substr(6, q - 6);
            }
            i = e == std::string::npos ? text.size() : e + 1;
        } else if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else {
            std::size_t j = i;
            while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j])) && text[j] != '{' &&
                   text[j] != '(' && text[j] != ')' && text[j] != ';')
                ++j;
            std::string tok = text.substr(i, j - i);
            i = j;
            if (depth > 0) continue;
            in_moves = true;
            if (tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*") {
                flush();
                continue;
            }
            if (tok[0] == '$') continue;
            std::size_t k = 0;
            while (k < tok.size() && std::isdigit(static_cast<unsigned char>(tok[k]))) ++k;
            if (k > 0 && k < tok.size() && tok[k] == '.') {
                while (k < tok.size() && tok[k] == '.') ++k;
                tok = tok.substr(k);
            } else if (k == tok.size()) {
                continue;  // a bare move number
            }
            if (!tok.empty() && tok != "--") cur.sans.push_back(tok);
        }
    }
    flush();
    return games;
}

// Independent identity: placement square by square, side to move, castling rights, and the
// en passant square only when the legal move list contains an en passant capture.
struct RefKey {
    std::array<Piece, 64> board;
    Color turn;
    Bitboard castling;
    Square ep;
    bool operator==(const RefKey&) const = default;
};

RefKey ref_key(const Position& p) {
    RefKey k{};
    for (int s = 0; s < 64; ++s) k.board[s] = p.piece_at(square_at(s));
    k.turn = p.turn();
    k.castling = p.castling_rooks();
    k.ep = Square::none;
    for (Move m : legal_moves(p))
        if (m.is_en_passant()) k.ep = m.to();
    return k;
}

struct Totals {
    std::size_t games = 0, plies = 0, threefold_games = 0, unreadable = 0;
};

Totals check_file(const fs::path& file) {
    Totals t;
    for (const auto& g : read_games(file)) {
        Position start;
        if (!g.fen.empty()) {
            FenReadOptions o;
            o.tolerant = true;
            auto p = position_from_fen(g.fen, o);
            if (!p) {
                ++t.unreadable;
                continue;
            }
            start = *p;
        }
        GameRecord rec(start);
        std::vector<RefKey> keys{ref_key(start)};
        bool threefold = false;
        for (const auto& san : g.sans) {
            if (rec.play(san)) break;  // a move this minimal reader cannot follow ends the game here
            keys.push_back(ref_key(rec.current()));
            const std::size_t i = keys.size() - 1;
            std::uint32_t count = 0;
            for (std::size_t j = 0; j <= i; ++j) count += keys[j] == keys[i] ? 1 : 0;
            EXPECT_EQ(rec.occurrences(i), count) << file.filename() << " game " << t.games + 1 << " ply " << i;
            if (rec.occurrences(i) != count) return t;
            threefold |= count >= 3;
        }
        t.plies += rec.size() - 1;
        ++t.games;
        t.threefold_games += threefold ? 1 : 0;
    }
    return t;
}

}  // namespace

TEST(RepetitionCorpus, IncrementalEqualsReference) {
    if (!fs::exists(data_dir / "pgn")) GTEST_SKIP() << "no corpus at " << data_dir << " (../shared/data is absent)";
    Totals all;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(data_dir / "pgn" / "real")) files.push_back(e.path());
    files.push_back(data_dir / "pgn" / "repetition" / "sunfish_3fold.pgn");
    for (const auto& f : files) {
        if (f.extension() != ".pgn" || !fs::exists(f)) continue;
        const Totals t = check_file(f);
        all.games += t.games;
        all.plies += t.plies;
        all.threefold_games += t.threefold_games;
        all.unreadable += t.unreadable;
    }
    std::cout << "games " << all.games << ", plies " << all.plies << ", games with a threefold repetition "
              << all.threefold_games << ", unreadable FEN " << all.unreadable << '\n';
    EXPECT_GT(all.games, 4000u);
    EXPECT_GT(all.plies, 300000u);
    // data/README.md: independent readers find threefold repetitions in 830 of these games.
    EXPECT_EQ(all.threefold_games, 830u);
}
