// attacks.cpp — fills the slider tables (PEXT or magic bitboards) and the line/between tables at
// static-initialisation time. The magic numbers below are the ones the seeded search at the end of
// init_sliders finds (printed once from a build without PEXT): each is checked as its table is
// filled, and the search runs only for one that does not fit. Searching them all at start-up costs
// a few milliseconds natively but about a second in WebAssembly, before the first answer.
#include "arbiter/attacks.hpp"

#include <bit>
#include <cstdint>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace arbiter {
namespace detail {

AttackTables tables;

namespace {

constexpr std::size_t rook_entries = 0x19000, bishop_entries = 0x1480;

/// Room for both slider tables (some 810 KiB): on Linux in one transparent huge page where the
/// system gives one (madvise mode, the common default), so that filling them costs one fault
/// instead of some two hundred at every start and the lookups one TLB entry; elsewhere, or if
/// the mapping fails, in static storage.
std::uint64_t* slider_storage() {
    constexpr std::size_t entries = rook_entries + bishop_entries;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::size_t huge = std::size_t{2} << 20;
    static_assert(entries * sizeof(std::uint64_t) <= huge);
    if (void* m = mmap(nullptr, 2 * huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        m != MAP_FAILED) {
        // Keep the 2 MiB-aligned half, give back the rest.
        const auto base = reinterpret_cast<std::uintptr_t>(m);
        const std::uintptr_t aligned = (base + huge - 1) & ~(huge - 1);
        if (aligned > base) munmap(m, aligned - base);
        if (base + 2 * huge > aligned + huge) munmap(reinterpret_cast<void*>(aligned + huge), base + huge - aligned);
        madvise(reinterpret_cast<void*>(aligned), huge, MADV_HUGEPAGE);
        return reinterpret_cast<std::uint64_t*>(aligned);
    }
#endif
    static std::uint64_t storage[entries];
    return storage;
}

#if !defined(ARBITER_USE_PEXT)
// clang-format off
constexpr std::uint64_t rook_magics[64] = {
    0x1080004008801020ULL, 0x0840092002c03000ULL, 0x1900200010400900ULL, 0x0880100008000480ULL,
    0x4200100420080200ULL, 0x8100020100080400ULL, 0x0200040110886200ULL, 0x0200008040220411ULL,
    0x0404800084400220ULL, 0x0000401000402000ULL, 0x0086001081220440ULL, 0x0408800800100280ULL,
    0x000a001201040820ULL, 0x8848800200840080ULL, 0x4001000100040200ULL, 0x0442000102105084ULL,
    0x9080010020804100ULL, 0x0040404000201009ULL, 0x0000808010002009ULL, 0x2200090021d00100ULL,
    0x0008008008040080ULL, 0x0004004002010040ULL, 0x0011040008015042ULL, 0x00000a0001768104ULL,
    0x0000800080204009ULL, 0x2010004140002001ULL, 0x9800200280100080ULL, 0x1000100080080080ULL,
    0x0442000a00049020ULL, 0x2100040080020080ULL, 0x0800120400900148ULL, 0x0010040a00128541ULL,
    0x2800804000800030ULL, 0x1010002000400041ULL, 0x4000200011004100ULL, 0x0610008410800800ULL,
    0x0400802402800800ULL, 0xc100020080800400ULL, 0x0002000802000401ULL, 0x0182085882000401ULL,
    0x0220204000808000ULL, 0x2860100040024022ULL, 0x0001002004110040ULL, 0x99101042000a0020ULL,
    0x0004080004008080ULL, 0x0010040002008080ULL, 0x2012004881020004ULL, 0x8300842444820011ULL,
    0x0088403882010200ULL, 0x0820400080210100ULL, 0x0110910040a00300ULL, 0x0801100280080480ULL,
    0x0242009008200600ULL, 0x1002000489500200ULL, 0x0040800200010080ULL, 0x0091800041000080ULL,
    0x0000209300488001ULL, 0x04c1002414824001ULL, 0x020020000b001041ULL, 0x7000100004200901ULL,
    0x8002002004100802ULL, 0x30010002084c0007ULL, 0x0888221800813004ULL, 0x4000002840840112ULL,
};
constexpr std::uint64_t bishop_magics[64] = {
    0x10102002004a1420ULL, 0x8020040400584008ULL, 0x10510800811201c8ULL, 0x5204042080000088ULL,
    0x2204106880000002ULL, 0x1401042004000000ULL, 0x0400880410042004ULL, 0x0028208200a02020ULL,
    0x1500241990010e00ULL, 0x8001200182020a40ULL, 0x40004101030b0000ULL, 0x8002041042000100ULL,
    0x4010011041020038ULL, 0x0000010421044000ULL, 0x1500210808020a00ULL, 0x8000088400880520ULL,
    0x0405004010040100ULL, 0x1005823210040108ULL, 0x2708008102040011ULL, 0x4048200404009100ULL,
    0x0018104101400024ULL, 0x0003000601190101ULL, 0x8004803108491000ULL, 0x8014241200820800ULL,
    0x0006e080100c3040ULL, 0x0501044a11041800ULL, 0x9020300008004045ULL, 0x0894080000220040ULL,
    0x1001010083104000ULL, 0x5004030040900080ULL, 0x000400422c012400ULL, 0x0002128698404812ULL,
    0x1010108404900440ULL, 0x0928021182084100ULL, 0x2006080409020024ULL, 0x1010202020180080ULL,
    0xa010008200202200ULL, 0x2098015100019004ULL, 0x0002041440810811ULL, 0x802a02020000b098ULL,
    0x0009015090004060ULL, 0x4000821082081001ULL, 0x0100210040420800ULL, 0x0800004010488a00ULL,
    0x2000081104004040ULL, 0x4c8e029015000082ULL, 0x0420340322224842ULL, 0x1298260043400210ULL,
    0x0000822802400008ULL, 0x00008a0101600000ULL, 0x3040003412080021ULL, 0x3040290220884800ULL,
    0x4a1500401041004aULL, 0x8010200282020781ULL, 0x0020203142209091ULL, 0x0070300600902110ULL,
    0x0040808800b62048ULL, 0x0000810400c44420ULL, 0x00080400440c0441ULL, 0x8340080020840411ULL,
    0x0000000104208200ULL, 0x0000800810d00080ULL, 0x0400530411080200ULL, 0x4040702400932244ULL,
};
// clang-format on
#endif

constexpr int rook_dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int bishop_dirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// The ray from each square in each direction (the square itself left out), made at compile time.
struct Rays {
    std::uint64_t rook[4][64]{}, bishop[4][64]{};
};
constexpr Rays rays = [] {
    Rays r;
    for (int sq = 0; sq < 64; ++sq)
        for (int d = 0; d < 4; ++d)
            for (int k = 0; k < 2; ++k) {
                const int(*dirs)[2] = k == 0 ? rook_dirs : bishop_dirs;
                std::uint64_t& ray = (k == 0 ? r.rook : r.bishop)[d][sq];
                for (int f = (sq & 7) + dirs[d][0], rk = (sq >> 3) + dirs[d][1]; f >= 0 && f < 8 && rk >= 0 && rk < 8;
                     f += dirs[d][0], rk += dirs[d][1])
                    ray |= std::uint64_t{1} << (rk * 8 + f);
            }
    return r;
}();

// The squares a slider on `sq` moving along `dirs` (rook_dirs or bishop_dirs) reaches on a board
// holding `occupied`: each ray up to and including its first occupied square. (Filling the tables
// asks this some 110,000 times at start-up, so it is the ray table and one bit scan a direction,
// not a walk.)
std::uint64_t slide(int sq, std::uint64_t occupied, const int (*dirs)[2]) {
    const auto& ray = dirs == rook_dirs ? rays.rook : rays.bishop;
    std::uint64_t r = 0;
    for (int d = 0; d < 4; ++d) {
        std::uint64_t a = ray[d][sq];
        if (const std::uint64_t blockers = a & occupied) {
            // Towards higher squares (up a rank, or along a rank to the right) the nearest
            // blocker is the lowest bit, the other way the highest.
            const bool up = dirs[d][1] > 0 || (dirs[d][1] == 0 && dirs[d][0] > 0);
            const int first = up ? std::countr_zero(blockers) : 63 - std::countl_zero(blockers);
            a ^= ray[d][first];
        }
        r |= a;
    }
    return r;
}

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

void init_sliders(std::array<SliderEntry, 64>& entries, std::uint64_t* storage, const int (*dirs)[2],
                  [[maybe_unused]] const std::uint64_t* known_magics) {
#if !defined(ARBITER_USE_PEXT)
    Prng rng{0x9E3779B97F4A7C15ULL};
#endif
    std::uint64_t* next_table = storage;
#if !defined(ARBITER_USE_PEXT)
    std::vector<std::uint64_t> occupancies, references;
    std::vector<int> epoch;
#endif
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

#if defined(ARBITER_USE_PEXT)
        e.magic = 0;
        std::uint64_t subset = 0;  // every subset of the mask (Carry-Rippler)
        do {
            e.table[e.index(subset)] = slide(sq, subset, dirs);
            subset = (subset - e.mask) & e.mask;
        } while (subset);
#else
        // The known magic, checked as the table is filled; a search only if it does not fit.
        epoch.assign(size, 0);
        e.magic = known_magics[sq];
        bool fits = true;
        std::uint64_t subset = 0;
        do {
            const std::uint64_t idx = e.index(subset), reference = slide(sq, subset, dirs);
            if (epoch[idx] < 1) {
                epoch[idx] = 1;
                e.table[idx] = reference;
            } else if (e.table[idx] != reference) {
                fits = false;
            }
            subset = (subset - e.mask) & e.mask;
        } while (subset && fits);
        if (fits) continue;
        occupancies.clear();
        references.clear();
        subset = 0;
        do {
            occupancies.push_back(subset);
            references.push_back(slide(sq, subset, dirs));
            subset = (subset - e.mask) & e.mask;
        } while (subset);
        for (int attempt = 2;; ++attempt) {
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
#if defined(ARBITER_USE_PEXT)
        std::uint64_t* const storage = slider_storage();
        init_sliders(tables.rook, storage, rook_dirs, nullptr);
        init_sliders(tables.bishop, storage + rook_entries, bishop_dirs, nullptr);
#else
        std::uint64_t* const storage = slider_storage();
        init_sliders(tables.rook, storage, rook_dirs, rook_magics);
        init_sliders(tables.bishop, storage + rook_entries, bishop_dirs, bishop_magics);
#endif
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
