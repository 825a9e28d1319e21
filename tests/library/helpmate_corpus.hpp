// helpmate_corpus.hpp — reading the unwinnability corpora of ../shared/data/unwinnable and
// running the analyzer over them, with every certificate replayed.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "arbiter/arbiter.hpp"
#include "helpmate_check.hpp"

namespace arbiter::testing {

inline std::string unwinnable_dir() { return std::string(ARBITER_SHARED_DATA) + "/unwinnable/"; }

inline bool corpus_full() {
    const char* v = std::getenv("ARBITER_CORPUS_FULL");
    return v && *v && std::string(v) != "0";
}

struct Query {
    std::string fen;
    Color side;
    std::optional<MateAbility> expected;
};

/// d3_test-vector.txt: "WB FEN" lines; each position gives a query for both sides.
inline std::vector<Query> load_vectors(const std::string& path) {
    std::vector<Query> out;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        if (line.size() < 4 || line[0] == '#') continue;
        const std::string fen = line.substr(3);
        out.push_back({fen, Color::white, line[0] == 'W' ? MateAbility::can_checkmate : MateAbility::cannot_checkmate});
        out.push_back({fen, Color::black, line[1] == 'B' ? MateAbility::can_checkmate : MateAbility::cannot_checkmate});
    }
    return out;
}

/// The timeout files: "FEN gameid" lines; the side asked is the one that just moved.
inline std::vector<Query> load_timeouts(const std::string& path, std::optional<MateAbility> expected) {
    std::vector<Query> out;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string f[6];
        for (auto& x : f) fields >> x;
        if (f[5].empty()) continue;
        const std::string fen = f[0] + ' ' + f[1] + ' ' + f[2] + ' ' + f[3] + ' ' + f[4] + ' ' + f[5];
        out.push_back({fen, f[1] == "w" ? Color::black : Color::white, expected});
    }
    return out;
}

struct Tally {
    std::uint64_t queries = 0, can = 0, cannot = 0, unknown = 0, wrong = 0, bad_certificates = 0;
    std::uint64_t most_nodes = 0;  // the most positions searched for one query
    std::string most_nodes_query;
    double seconds = 0, slowest = 0;
    std::string slowest_query;
    std::vector<std::string> unknowns;

    void print(const std::string& title) const {
        std::cout << "[ " << title << " ] " << queries << " queries: " << can << " can_checkmate, " << cannot
                  << " cannot_checkmate, " << unknown << " unknown, " << wrong << " wrong, " << bad_certificates
                  << " bad certificates; " << seconds << " s (" << (seconds > 0 ? queries / seconds : 0)
                  << " queries/s), slowest " << slowest * 1000 << " ms: " << slowest_query << "; the most positions "
                  << most_nodes << ": " << most_nodes_query << '\n';
        for (std::size_t i = 0; i < unknowns.size() && i < 100; ++i) std::cout << "  unknown: " << unknowns[i] << '\n';
    }
};

/// Runs every `step`-th query; checks answers against expectations and replays certificates.
inline Tally run_queries(const std::vector<Query>& queries, const HelpmateAnalyzer& analyzer, std::size_t step = 1) {
    Tally t;
    for (std::size_t i = 0; i < queries.size(); i += step) {
        const Query& q = queries[i];
        const Position pos = composed(q.fen);
        const auto start = std::chrono::steady_clock::now();
        const MateVerdict v = analyzer.can_checkmate(pos, q.side);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        t.seconds += s;
        ++t.queries;
        if (v.nodes > t.most_nodes) {
            t.most_nodes = v.nodes;
            t.most_nodes_query = q.fen + ' ' + std::string(name(q.side));
        }
        const std::string what = q.fen + " " + std::string(name(q.side));
        if (s > t.slowest) t.slowest = s, t.slowest_query = what;
        switch (v.answer) {
            case MateAbility::can_checkmate: {
                ++t.can;
                const std::string problem = certificate_problem(pos, q.side, v);
                if (!problem.empty()) {
                    ++t.bad_certificates;
                    ADD_FAILURE() << "bad certificate (" << problem << "): " << what;
                }
                break;
            }
            case MateAbility::cannot_checkmate: ++t.cannot; break;
            case MateAbility::unknown:
                ++t.unknown;
                t.unknowns.push_back(what);
                break;
        }
        if (q.expected && v.answer != MateAbility::unknown && v.answer != *q.expected) {
            ++t.wrong;
            ADD_FAILURE() << "wrong answer " << mate_ability_name(v.answer) << " (" << v.reason << "): " << what;
        }
    }
    return t;
}

}  // namespace arbiter::testing
