// attacks.cpp — fills the slider tables (PEXT or magic bitboards) and the line/between tables at
// static-initialisation time. Magic numbers are found by a seeded search, so the tables are the
// same on every run.
#include "arbiter/attacks.hpp"

#include <vector>

namespace arbiter {
namespace detail {

AttackTables tables;

namespace {

std::uint64_t rook_table_storage[0x19000];
std::uint64_t bishop_table_storage[0x1480];

std::uint64_t slide(int sq, std::uint64_t occupied, const int (*dirs)[2]) {
    std::uint64_t r = 0;
    for (int d = 0; d < 4; ++d) {
        int f = (sq & 7) + dirs[d][0];
        int rk = (sq >> 3) + dirs[d][1];
        while (f >= 0 && f < 8 && rk >= 0 && rk < 8) {
            const std::uint64_t b = std::uint64_t{1} << (rk * 8 + f);
            r |= b;
            if (occupied & b) break;
            f += dirs[d][0];
            rk += dirs[d][1];
        }
    }
    return r;
}

constexpr int rook_dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int bishop_dirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// xorshift64* generator with a fixed seed: deterministic magic search.
struct Prng {
    std::uint64_t s;
    std::uint64_t next() {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return s * 2685821657736338717ULL;
    }
    std::uint64_t sparse() { return next() & next() & next(); }
};

void init_sliders(std::array<SliderEntry, 64>& entries, std::uint64_t* storage, const int (*dirs)[2]) {
#if !defined(ARBITER_USE_PEXT)
    Prng rng{0x9E3779B97F4A7C15ULL};
#endif
    std::uint64_t* next_table = storage;
    std::vector<std::uint64_t> occupancies, references;
    std::vector<int> epoch;
    for (int sq = 0; sq < 64; ++sq) {
        const std::uint64_t edges =
            ((0xFFULL | 0xFF00000000000000ULL) & ~(0xFFULL << (8 * (sq >> 3)))) |
            ((0x0101010101010101ULL | 0x8080808080808080ULL) & ~(0x0101010101010101ULL << (sq & 7)));
        SliderEntry& e = entries[sq];
        e.mask = slide(sq, 0, dirs) & ~edges;
        const int bits = std::popcount(e.mask);
        e.shift = 64 - bits;
        e.table = next_table;
        const std::size_t size = std::size_t{1} << bits;
        next_table += size;

        // Enumerate all subsets of the mask (Carry-Rippler) with their attack sets.
        occupancies.clear();
        references.clear();
        std::uint64_t subset = 0;
        do {
            occupancies.push_back(subset);
            references.push_back(slide(sq, subset, dirs));
            subset = (subset - e.mask) & e.mask;
        } while (subset);

#if defined(ARBITER_USE_PEXT)
        e.magic = 0;
        for (std::size_t i = 0; i < occupancies.size(); ++i) e.table[e.index(occupancies[i])] = references[i];
#else
        epoch.assign(size, 0);
        for (int attempt = 1;; ++attempt) {
            do {
                e.magic = rng.sparse();
            } while (std::popcount((e.mask * e.magic) >> 56) < 6);
            bool ok = true;
            for (std::size_t i = 0; i < occupancies.size() && ok; ++i) {
                const std::uint64_t idx = e.index(occupancies[i]);
                if (epoch[idx] < attempt) {
                    epoch[idx] = attempt;
                    e.table[idx] = references[i];
                } else if (e.table[idx] != references[i]) {
                    ok = false;
                }
            }
            if (ok) break;
        }
#endif
    }
}

void init_lines() {
    for (int a = 0; a < 64; ++a) {
        for (int b = 0; b < 64; ++b) {
            tables.between[a][b] = 0;
            tables.line[a][b] = 0;
            if (a == b) continue;
            const std::uint64_t bb = std::uint64_t{1} << b;
            for (const auto* dirs : {rook_dirs, bishop_dirs}) {
                if (slide(a, 0, dirs) & bb) {
                    tables.line[a][b] = (slide(a, 0, dirs) & slide(b, 0, dirs)) | (std::uint64_t{1} << a) | bb;
                    tables.between[a][b] = slide(a, bb, dirs) & slide(b, std::uint64_t{1} << a, dirs);
                }
            }
        }
    }
}

struct Initializer {
    Initializer() {
        init_sliders(tables.rook, rook_table_storage, rook_dirs);
        init_sliders(tables.bishop, bishop_table_storage, bishop_dirs);
        init_lines();
    }
};

// The tables must be ready before any user's static initialiser runs (a namespace-scope
// `const Position p;` in the program computes checks with them), so they are filled with the
// highest priority static initialisation, ahead of every ordinary initialiser in any unit.
#if defined(__GNUC__)
const Initializer initializer __attribute__((init_priority(101)));
#else
const Initializer initializer;
#endif

}  // namespace
}  // namespace detail

const char* slider_backend() noexcept {
#if defined(ARBITER_USE_PEXT)
    return "pext";
#else
    return "magic";
#endif
}

}  // namespace arbiter
