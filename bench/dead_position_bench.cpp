// dead_position_bench.cpp — what the dead-position check (5.2.2) costs and finds, in the live
// faces and in the audit (docs/performance.md, "Dead positions"; docs/unwinnability.md):
//
//   arbiter_dead_position_bench live FILE.pgn…   the automatic check after every ply as status,
//                                                 sessions, the service, the hall monitor and
//                                                 Python run it (exact): cost per ply, p50/p99/max,
//                                                 against the audit's replay check on the same plies
//   arbiter_dead_position_bench vectors FILE      the same for a game set up at each position of
//                                                 the unwinnability test vectors (its first ply)
//   arbiter_dead_position_bench finals FILE.pgn…  the audit's check of final positions: how many
//                                                 it analyses, what it costs, what it proves
//
// Timings are the thread's CPU time around each call (CLOCK_THREAD_CPUTIME_ID), so that other
// work on the machine does not count; caches still do: prefer a quiet machine.
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "arbiter/arbiter.hpp"

using namespace arbiter;

namespace {

/// The thread's CPU time in microseconds: what a call costs, whatever else the machine runs.
double cpu_micros() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e6 + double(t.tv_nsec) / 1e3;
}

void report(const char* what, std::vector<double> t) {
    if (t.empty()) {
        std::printf("%-44s no samples\n", what);
        return;
    }
    std::sort(t.begin(), t.end());
    double sum = 0;
    for (double x : t) sum += x;
    const auto q = [&](double p) { return t[std::min(t.size() - 1, static_cast<std::size_t>(p * double(t.size())))]; };
    std::printf("%-44s n=%zu mean=%.2f p50=%.2f p99=%.2f max=%.1f us\n", what, t.size(), sum / double(t.size()), q(0.5),
                q(0.99), t.back());
}

template <class F>
void for_each_game(int argc, char** argv, F&& f) {
    for (int a = 2; a < argc; ++a) {
        auto src = open_input(argv[a]);
        if (!src) {
            std::fprintf(stderr, "%s: %s\n", argv[a], src.error().message.c_str());
            continue;
        }
        pgn::GameReaderOptions ro;
        ro.keep_positions = true;
        pgn::GameReader reader(**src, ro);
        pgn::ParsedGame game;
        while (reader.next(game))
            if (game.has_start && !game.chess960()) f(game);
    }
}

/// Every ply of every game through a record with `analyzer`, timed; returns the dead endings.
std::size_t replay(const pgn::ParsedGame& game, const Unwinnability& analyzer, std::vector<double>& times) {
    GameRecord rec(game.start, rule_set(RuleSetId::fide_2023), {}, &analyzer);
    for (std::size_t k = 0; k < game.plies.size(); ++k) {
        const double t0 = cpu_micros();
        rec.play_legal(game.plies[k].move, game.after[k]);
        (void)rec.termination();
        times.push_back(cpu_micros() - t0);
    }
    const auto& t = rec.termination();
    return t && t->kind == TerminationKind::dead_position;
}

int live(int argc, char** argv) {
    // The live check before issue 29: the fast exit's "not dead" without a proof.
    static const HelpmateAnalyzer presumed([] {
        HelpmateOptions o;
        o.exact = false;
        return o;
    }());
    std::vector<double> exact, before, replay_check;
    std::size_t games = 0, dead_exact = 0, dead_before = 0, dead_replay = 0;
    for_each_game(argc, argv, [&](const pgn::ParsedGame& g) {
        ++games;
        dead_exact += replay(g, default_unwinnability(), exact);
        dead_before += replay(g, presumed, before);
        dead_replay += replay(g, unwinnability_without_locked_check(), replay_check);
    });
    std::printf("%zu games; ended dead: live %zu, live without exact %zu, audit replay %zu\n", games, dead_exact,
                dead_before, dead_replay);
    report("live (exact) check, per ply", exact);
    report("live check without exact, per ply", before);
    report("audit replay check, per ply", replay_check);
    return 0;
}

int vectors(const char* file) {
    std::ifstream in(file);
    if (!in) {
        std::fprintf(stderr, "%s: cannot open\n", file);
        return 2;
    }
    std::vector<double> t;
    std::string line;
    std::vector<std::string> seen;
    std::size_t dead_labelled = 0, ended = 0, wrong = 0;
    while (std::getline(in, line)) {
        if (line.size() < 4 || line[0] == '#') continue;
        const std::string label = line.substr(0, 2);
        std::istringstream f(line.substr(3));
        std::string b, s, c, e;
        f >> b >> s >> c >> e;
        const std::string fen = b + ' ' + s + ' ' + c + ' ' + e;
        if (std::find(seen.begin(), seen.end(), fen) != seen.end()) continue;
        seen.push_back(fen);
        const auto pos = position_from_fen(fen + " 0 1");
        if (!pos || !has_legal_move(*pos)) continue;
        const double t0 = cpu_micros();
        const GameRecord rec(*pos);
        const auto& end = rec.termination();
        t.push_back(cpu_micros() - t0);
        const bool dead = end && end->kind == TerminationKind::dead_position;
        dead_labelled += label == "--";
        ended += label == "--" && dead;
        wrong += label != "--" && dead;
    }
    std::printf("%zu positions with a legal move; labelled dead %zu, ended as dead %zu, wrongly %zu\n", t.size(),
                dead_labelled, ended, wrong);
    report("live (exact) check at the start position", t);
    return 0;
}

int finals(int argc, char** argv) {
    std::vector<Position> ends;
    for_each_game(argc, argv,
                  [&](const pgn::ParsedGame& g) { ends.push_back(g.after.empty() ? g.start : g.after.back()); });
    {
        std::size_t closed = 0, locked = 0;
        const double t0 = cpu_micros();
        for (const Position& p : ends) closed += HelpmateAnalyzer::may_be_closed(p);
        const double t1 = cpu_micros();
        for (const Position& p : ends) locked += HelpmateAnalyzer::has_locked_units(p);
        const double t2 = cpu_micros();
        std::printf("gate (may_be_closed): %zu of %zu, %.3f us a position; has_locked_units alone: %zu, %.3f us\n",
                    closed, ends.size(), (t1 - t0) / double(ends.size()), locked, (t2 - t1) / double(ends.size()));
    }
    for (const bool exact : {false, true}) {
        std::size_t analysed = 0, dead = 0;
        const double t0 = cpu_micros();
        for (const Position& p : ends) {
            const audit::FinalCheck c = audit::check_final_position(p, exact);
            analysed += c.analysed;
            dead += c.dead;
        }
        const double total = cpu_micros() - t0;
        std::printf("%s: %zu final positions, analysed %zu, proved dead %zu; %.3f us a position (CPU, whole loop)\n",
                    exact ? "--exact" : "default", ends.size(), analysed, dead, total / double(ends.size()));
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "live" && argc > 2) return live(argc, argv);
    if (mode == "vectors" && argc == 3) return vectors(argv[2]);
    if (mode == "finals" && argc > 2) return finals(argc, argv);
    std::fprintf(stderr, "usage: %s live FILE.pgn... | vectors FILE | finals FILE.pgn...\n", argv[0]);
    return 2;
}
