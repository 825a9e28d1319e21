// Benchmarks of the rules layer (issue 3):
//  * replaying the real games of ../shared/data/pgn/real with full draw tracking (GameRecord:
//    keys, counters, occurrence index, automatic endings after every ply) against the plain
//    validated replay it must be compared with (generate the legal moves, check the move is one
//    of them, play it), and against bare play_unchecked;
//  * draw_status() of a position with 300 plies of history, intended-move claim lists included.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "arbiter/arbiter.hpp"

using namespace arbiter;
namespace fs = std::filesystem;

namespace {

// The mainline moves of every game in the real PGN files, parsed once.
const std::vector<std::vector<Move>>& corpus_games() {
    static const std::vector<std::vector<Move>> games = [] {
        std::vector<std::vector<Move>> out;
        const fs::path dir = fs::path(ARBITER_SHARED_DATA) / "pgn" / "real";
        if (!fs::exists(dir)) return out;
        for (const auto& e : fs::directory_iterator(dir)) {
            std::ifstream in(e.path(), std::ios::binary);
            std::stringstream ss;
            ss << in.rdbuf();
            const std::string text = ss.str();
            Position pos;
            std::vector<Move> moves;
            bool skip_game = false;
            std::istringstream words(text);
            std::string line;
            std::istringstream lines(text);
            while (std::getline(lines, line)) {
                if (!line.empty() && line.back() == '\r') line.pop_back();
                if (line.rfind("[Event ", 0) == 0) {
                    if (!moves.empty() && !skip_game) out.push_back(moves);
                    moves.clear();
                    pos = Position();
                    skip_game = false;
                }
                if (line.rfind("[FEN ", 0) == 0) skip_game = true;
                if (line.empty() || line[0] == '[' || skip_game) continue;
                // Drop comments and variations crudely: games with them are skipped.
                if (line.find_first_of("{}();") != std::string::npos) {
                    skip_game = true;
                    continue;
                }
                std::istringstream toks(line);
                std::string t;
                while (toks >> t) {
                    const auto dot = t.find_last_of('.');
                    if (dot != std::string::npos) t = t.substr(dot + 1);
                    if (t.empty() || t[0] == '$' || t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*") continue;
                    auto m = parse_san(pos, t);
                    if (!m) {
                        skip_game = true;
                        break;
                    }
                    moves.push_back(*m);
                    pos.play_unchecked(*m);
                }
            }
            if (!moves.empty() && !skip_game) out.push_back(moves);
        }
        return out;
    }();
    return games;
}

std::size_t total_plies() {
    std::size_t n = 0;
    for (const auto& g : corpus_games()) n += g.size();
    return n;
}

void BM_ReplayPlayUnchecked(benchmark::State& state) {
    const auto& games = corpus_games();
    if (games.empty()) return state.SkipWithError("no corpus in ../shared/data");
    for (auto _ : state) {
        for (const auto& g : games) {
            Position pos;
            for (Move m : g) pos.play_unchecked(m);
            benchmark::DoNotOptimize(pos);
        }
    }
    state.counters["plies/s"] =
        benchmark::Counter(static_cast<double>(total_plies()), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_ReplayValidated(benchmark::State& state) {
    const auto& games = corpus_games();
    if (games.empty()) return state.SkipWithError("no corpus in ../shared/data");
    MoveList list;
    for (auto _ : state) {
        for (const auto& g : games) {
            Position pos;
            for (Move m : g) {
                legal_moves(pos, list);
                if (!list.contains(m)) break;
                pos.play_unchecked(m);
            }
            legal_moves(pos, list);  // the last position's moves: mate or stalemate?
            benchmark::DoNotOptimize(list);
        }
    }
    state.counters["plies/s"] =
        benchmark::Counter(static_cast<double>(total_plies()), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_ReplayTracked(benchmark::State& state) {
    const auto& games = corpus_games();
    if (games.empty()) return state.SkipWithError("no corpus in ../shared/data");
    for (auto _ : state) {
        for (const auto& g : games) {
            GameRecord rec;
            for (Move m : g)
                if (rec.play(m)) break;
            benchmark::DoNotOptimize(rec.termination());
        }
    }
    state.counters["plies/s"] =
        benchmark::Counter(static_cast<double>(total_plies()), benchmark::Counter::kIsIterationInvariantRate);
}

// A game of 300 plies: 160 seeded random plies, then 140 plies without a pawn move or capture
// (the widest window the repetition scan can have before the 75-move rule ends the game),
// ending in a position with at least 35 legal moves.
GameRecord long_game() {
    for (unsigned seed = 1;; ++seed) {
        std::mt19937 rng(seed);
        GameRecord rec;
        bool ok = true;
        for (int ply = 0; ply < 300 && ok; ++ply) {
            std::vector<Move> choices;
            for (Move m : rec.legal_moves_now())
                if (ply < 160 || !rec.current().is_zeroing(m)) choices.push_back(m);
            if (choices.empty() || rec.ended()) {
                ok = false;
                break;
            }
            rec.play(choices[rng() % choices.size()]);
        }
        if (ok && !rec.ended() && rec.size() == 301 && rec.no_progress(300) >= 140 &&
            rec.legal_moves_now().size() >= 35)
            return rec;
    }
}

void BM_StatusAfter300Plies(benchmark::State& state) {
    const GameRecord rec = long_game();
    for (auto _ : state) benchmark::DoNotOptimize(draw_status(rec));
    state.counters["no_progress"] = rec.no_progress(rec.size() - 1);
    state.counters["legal_moves"] = static_cast<double>(rec.legal_moves_now().size());
    state.counters["intended_threefold"] = static_cast<double>(draw_status(rec).threefold.intended.size());
}

}  // namespace

BENCHMARK(BM_ReplayPlayUnchecked)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReplayValidated)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReplayTracked)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StatusAfter300Plies)->Unit(benchmark::kMicrosecond)->Repetitions(9)->ReportAggregatesOnly(true);

BENCHMARK_MAIN();
