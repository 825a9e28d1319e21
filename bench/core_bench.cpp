// core_bench.cpp — micro-benchmarks of the core and notation layers: legal move generation,
// counting, perft, copy-make, FEN and SAN reading and writing.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "arbiter/arbiter.hpp"

using namespace arbiter;

namespace {

// A small spread of positions: opening, middlegame (Kiwipete), endgame, promotion-heavy.
const char* const fens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
};

std::vector<Position> positions() {
    std::vector<Position> out;
    for (const char* f : fens) out.push_back(*position_from_fen(f));
    return out;
}

void BM_LegalMoves(benchmark::State& state) {
    const auto ps = positions();
    MoveList list;
    std::int64_t n = 0;
    for (auto _ : state) {
        for (const Position& p : ps) {
            legal_moves(p, list);
            n += static_cast<std::int64_t>(list.size());
        }
        benchmark::DoNotOptimize(list);
    }
    state.SetItemsProcessed(n);
}
BENCHMARK(BM_LegalMoves);

void BM_CountLegalMoves(benchmark::State& state) {
    const auto ps = positions();
    std::int64_t n = 0;
    for (auto _ : state)
        for (const Position& p : ps) n += static_cast<std::int64_t>(count_legal_moves(p));
    benchmark::DoNotOptimize(n);
    state.SetItemsProcessed(n);
}
BENCHMARK(BM_CountLegalMoves);

void BM_PlayUnchecked(benchmark::State& state) {
    const Position kiwipete = *position_from_fen(fens[1]);
    const MoveList list = legal_moves(kiwipete);
    for (auto _ : state)
        for (Move m : list) benchmark::DoNotOptimize(kiwipete.after(m));
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(list.size()));
}
BENCHMARK(BM_PlayUnchecked);

// Nodes per second of perft at a fixed depth (argument: 0 start position, 1 Kiwipete).
void BM_Perft(benchmark::State& state) {
    const Position pos = *position_from_fen(fens[state.range(0)]);
    const int depth = state.range(0) == 0 ? 5 : 4;
    std::uint64_t nodes = 0;
    for (auto _ : state) nodes += perft(pos, depth);
    state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Perft)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_ParseFen(benchmark::State& state) {
    for (auto _ : state)
        for (const char* f : fens) benchmark::DoNotOptimize(position_from_fen(f));
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(std::size(fens)));
}
BENCHMARK(BM_ParseFen);

void BM_WriteFen(benchmark::State& state) {
    const auto ps = positions();
    for (auto _ : state)
        for (const Position& p : ps) benchmark::DoNotOptimize(to_fen(p));
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(ps.size()));
}
BENCHMARK(BM_WriteFen);

// SAN of every legal move (with the check suffix), then parsing it back.
void BM_WriteSan(benchmark::State& state) {
    const Position pos = *position_from_fen(fens[1]);
    const MoveList list = legal_moves(pos);
    for (auto _ : state)
        for (Move m : list) benchmark::DoNotOptimize(to_san(pos, m));
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(list.size()));
}
BENCHMARK(BM_WriteSan);

void BM_ParseSan(benchmark::State& state) {
    const Position pos = *position_from_fen(fens[1]);
    std::vector<std::string> sans;
    for (Move m : legal_moves(pos)) sans.push_back(to_san(pos, m));
    for (auto _ : state)
        for (const auto& s : sans) benchmark::DoNotOptimize(parse_san(pos, s));
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(sans.size()));
}
BENCHMARK(BM_ParseSan);

}  // namespace
