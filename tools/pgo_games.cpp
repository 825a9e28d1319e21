// pgo_games — the training input of the profile-guided build (scripts/pgo-build.sh): games made
// up here, not taken from any database, in the shapes the audit meets in real files. Moves are
// drawn at random among the legal ones with a bias towards captures, checks and central pawn
// moves (so that games reach middle games and endings as real ones do); half the games carry
// online tags and [%clk] comments, some end on time (the flag-fall ruling), some in checkmate,
// stalemate, repetitions or by agreement, and a few have NAGs, comments and variations.
// Usage: arbiter_pgo_games [GAMES [SEED]]   (PGN on standard output; default 4000 games, seed 1)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "arbiter/movegen.hpp"
#include "arbiter/notation.hpp"
#include "arbiter/position.hpp"

namespace {

using arbiter::Move;
using arbiter::Position;

struct Game {
    std::string movetext;
    std::string result;
    std::string termination;
};

std::string clock_text(int seconds) {
    char b[32];
    std::snprintf(b, sizeof b, "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
    return b;
}

// A move of `pos` drawn with the bias; repeats a knight shuffle now and then (repetitions).
Move pick(const Position& pos, const arbiter::MoveList& moves, std::mt19937_64& rng) {
    std::vector<double> weight;
    weight.reserve(moves.size());
    for (Move m : moves) {
        double w = 1;
        if (pos.piece_at(m.to()) != arbiter::Piece::none) w += 6;
        if (pos.after(m).in_check()) w += 3;
        if (m.is_promotion()) w += 20;
        weight.push_back(w);
    }
    std::discrete_distribution<std::size_t> d(weight.begin(), weight.end());
    return moves[d(rng)];
}

Game play(std::mt19937_64& rng, bool online) {
    Game g;
    Position pos;
    const int length = 20 + static_cast<int>(rng() % 160);  // plies before a decision by the players
    int clock[2] = {180, 180};
    for (int ply = 0;; ++ply) {
        const arbiter::MoveList moves = arbiter::legal_moves(pos);
        if (moves.empty()) {
            if (pos.in_check()) {
                g.result = pos.turn() == arbiter::Color::white ? "0-1" : "1-0";
                g.termination = "Normal";
            } else {
                g.result = "1/2-1/2";
                g.termination = "Normal";
            }
            break;
        }
        if (ply >= length) {
            const unsigned r = static_cast<unsigned>(rng() % 10);
            if (r < 4) {  // resigned (the side to move)
                g.result = pos.turn() == arbiter::Color::white ? "0-1" : "1-0";
                g.termination = "Normal";
            } else if (r < 7) {  // lost on time (the side to move)
                g.result = pos.turn() == arbiter::Color::white ? "0-1" : "1-0";
                g.termination = "Time forfeit";
                if (online) g.movetext += "{ [%clk 0:00:00] } ";
            } else {
                g.result = "1/2-1/2";
                g.termination = "Normal";
            }
            break;
        }
        const Move m = pick(pos, moves, rng);
        if (ply % 2 == 0) g.movetext += std::to_string(ply / 2 + 1) + ". ";
        g.movetext += arbiter::to_san(pos, m);
        if (rng() % 40 == 0) g.movetext += rng() % 2 ? "!" : "?!";
        g.movetext += ' ';
        const int side = ply % 2;
        if (online) {
            clock[side] = std::max(1, clock[side] - static_cast<int>(rng() % 6));
            g.movetext += "{ [%clk " + clock_text(clock[side]) + "] } ";
        } else if (rng() % 50 == 0) {
            g.movetext += "{ A comment on the move. } ";
        }
        if (rng() % 120 == 0) g.movetext += "$" + std::to_string(1 + rng() % 6) + ' ';
        if (!online && rng() % 150 == 0 && moves.size() > 1) {
            // A variation: another move from the same position.
            const Move alt = moves[rng() % moves.size()];
            if (alt != m) g.movetext += "( " + arbiter::to_san(pos, alt) + " ) ";
        }
        pos = pos.after(m);
    }
    return g;
}

}  // namespace

int main(int argc, char** argv) {
    const long games = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 4000;
    const unsigned long seed = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 1;
    if (games <= 0) {
        std::fprintf(stderr, "usage: arbiter_pgo_games [GAMES [SEED]]\n");
        return 2;
    }
    std::mt19937_64 rng(seed);
    for (long n = 1; n <= games; ++n) {
        const bool online = n % 2 == 0;
        const Game g = play(rng, online);
        std::string out;
        if (online) {
            out += "[Event \"Rated Blitz game\"]\n[Site \"https://example.org/" + std::to_string(n) + "\"]\n";
            out += "[Date \"2026.12.05\"]\n[Round \"-\"]\n[White \"player" + std::to_string(rng() % 1000) +
                   "\"]\n[Black \"player" + std::to_string(rng() % 1000) + "\"]\n";
            out += "[Result \"" + g.result + "\"]\n[UTCDate \"2026.12.05\"]\n[UTCTime \"12:00:00\"]\n";
            out += "[WhiteElo \"" + std::to_string(1200 + rng() % 1200) + "\"]\n[BlackElo \"" +
                   std::to_string(1200 + rng() % 1200) + "\"]\n";
            out += "[TimeControl \"180+0\"]\n[Termination \"" + g.termination + "\"]\n\n";
        } else {
            out += "[Event \"Open " + std::to_string(n % 37) + "\"]\n[Site \"Somewhere\"]\n[Date \"2026.??.??\"]\n";
            out += "[Round \"" + std::to_string(1 + n % 9) + "\"]\n[White \"Player, A\"]\n[Black \"Player, B\"]\n";
            out += "[Result \"" + g.result + "\"]\n[ECO \"C" + std::to_string(10 + n % 90) + "\"]\n\n";
        }
        // Lines of at most about 80 bytes, as PGN writers cut them.
        std::size_t col = 0, start = 0;
        while (start < g.movetext.size()) {
            std::size_t next = g.movetext.find(' ', start);
            if (next == std::string::npos) next = g.movetext.size();
            const std::size_t len = next - start;
            if (col > 0 && col + 1 + len > 80) {
                out += '\n';
                col = 0;
            } else if (col > 0) {
                out += ' ';
                ++col;
            }
            out.append(g.movetext, start, len);
            col += len;
            start = next + 1;
        }
        out += (col > 0 ? " " : "") + g.result + "\n\n";
        std::fwrite(out.data(), 1, out.size(), stdout);
    }
    return 0;
}
