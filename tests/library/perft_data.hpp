// perft_data.hpp — reads perft suites in the two formats the tests use:
//   .perft blocks ("id NAME" / "epd FEN" / "perft DEPTH NODES" lines), and
//   .epd lines ("FEN ;D1 20 ;D2 400 ..."),
// and picks, per position, the depths whose published counts fit a node budget.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace arbiter::test {

struct PerftEntry {
    std::string id;                                     ///< the "id" line, or "line N" for EPD files
    std::string fen;                                    ///< four to six FEN fields
    std::vector<std::pair<int, std::uint64_t>> counts;  ///< (depth, nodes), in file order
};

/// How GoogleTest shows a parameter (test names and failures): the id and the FEN.
inline void PrintTo(const PerftEntry& e, std::ostream* os) { *os << e.id << " (" << e.fen << ")"; }

inline std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return {};
    const auto e = s.find_last_not_of(" \t\r\n");
    return s.substr(b, e - b + 1);
}

/// One EPD line "FEN ;D1 n ;D2 n ...". Returns false when the line is not of that shape.
inline bool parse_epd_line(const std::string& line, PerftEntry& out) {
    const auto semi = line.find(';');
    if (semi == std::string::npos) return false;
    out.fen = trim(line.substr(0, semi));
    out.counts.clear();
    std::istringstream ops(line.substr(semi));
    std::string op;
    while (std::getline(ops, op, ';')) {
        std::istringstream f(op);
        std::string tag;
        std::uint64_t nodes = 0;
        if (!(f >> tag >> nodes) || tag.size() < 2 || tag[0] != 'D') continue;
        out.counts.emplace_back(std::atoi(tag.c_str() + 1), nodes);
    }
    return !out.fen.empty() && !out.counts.empty();
}

/// Reads a whole suite; the format is chosen by the content (a line starting with "epd " means
/// the block format). `error` is set when the file cannot be read or a line is malformed.
inline std::vector<PerftEntry> read_perft_file(const std::string& path, std::string& error) {
    std::vector<PerftEntry> out;
    std::ifstream in(path);
    if (!in) {
        error = "cannot open " + path;
        return out;
    }
    std::string line;
    int line_no = 0;
    while (std::getline(in, line)) {
        ++line_no;
        const std::string t = trim(line);
        if (t.empty() || t[0] == '#') continue;
        if (t.rfind("id ", 0) == 0) {
            out.push_back({trim(t.substr(3)), {}, {}});
        } else if (t.rfind("epd ", 0) == 0) {
            if (out.empty() || !out.back().fen.empty()) out.push_back({"line " + std::to_string(line_no), {}, {}});
            out.back().fen = trim(t.substr(4));
        } else if (t.rfind("perft ", 0) == 0) {
            std::istringstream f(t.substr(6));
            int depth = 0;
            std::uint64_t nodes = 0;
            if (out.empty() || !(f >> depth >> nodes)) {
                error = path + ":" + std::to_string(line_no) + ": bad perft line";
                return out;
            }
            out.back().counts.emplace_back(depth, nodes);
        } else {
            PerftEntry e;
            if (!parse_epd_line(t, e)) {
                error = path + ":" + std::to_string(line_no) + ": not a perft line";
                return out;
            }
            e.id = "line " + std::to_string(line_no);
            out.push_back(std::move(e));
        }
    }
    return out;
}

/// The (depth, nodes) pairs to run: every published depth whose count is at most `budget`
/// nodes, or the shallowest one when none is.
inline std::vector<std::pair<int, std::uint64_t>> within_budget(const PerftEntry& e, std::uint64_t budget) {
    std::vector<std::pair<int, std::uint64_t>> out;
    for (const auto& c : e.counts)
        if (c.second <= budget) out.push_back(c);
    if (out.empty() && !e.counts.empty()) {
        auto shallowest = e.counts.front();
        for (const auto& c : e.counts)
            if (c.first < shallowest.first) shallowest = c;
        out.push_back(shallowest);
    }
    return out;
}

/// An unsigned number from the environment, or `fallback`.
inline std::uint64_t env_number(const char* name, std::uint64_t fallback) {
    const char* v = std::getenv(name);
    if (!v || !*v) return fallback;
    return std::strtoull(v, nullptr, 10);
}

}  // namespace arbiter::test
