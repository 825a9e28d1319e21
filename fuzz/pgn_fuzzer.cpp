// Fuzz target for the PGN reader and GameReader: any bytes must be read without a crash, a
// sanitizer report or unbounded work, and the reader's invariants must hold (every game that
// begins ends; positions are 1-based and increase; replayed moves are legal).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "arbiter/movegen.hpp"
#include "arbiter/pgn.hpp"
#include "arbiter/pgn_game.hpp"

namespace {

void check(bool ok) {
    if (!ok) std::abort();
}

struct Checker : arbiter::pgn::Visitor {
    bool open = false;
    std::uint64_t last_offset = 0;
    int depth = 0;
    void at(arbiter::pgn::SourcePos p) {
        check(p.line >= 1 && p.column >= 1);
        check(p.offset >= last_offset);
        last_offset = p.offset;
    }
    void begin_game(std::uint64_t, arbiter::pgn::SourcePos p) override {
        check(!open);
        open = true;
        depth = 0;
        at(p);
    }
    void san(std::string_view t, arbiter::pgn::SourcePos p) override {
        check(!t.empty());
        at(p);
    }
    arbiter::pgn::Skip begin_variation(arbiter::pgn::SourcePos p) override {
        at(p);
        ++depth;
        // Skip every other level, so both paths run.
        return depth % 3 == 0 ? arbiter::pgn::Skip::yes : arbiter::pgn::Skip::no;
    }
    void end_variation() override { --depth; }
    void end_game() override {
        check(open);
        open = false;
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    arbiter::pgn::ReaderOptions small;
    small.max_comment_bytes = 64;
    small.max_game_tokens = 5000;
    {
        arbiter::InputOptions tiny;
        tiny.chunk_size = 64;  // tokens often straddle reads
        auto src = arbiter::memory_input(text, tiny);
        arbiter::pgn::Reader reader(*src, small);
        Checker c;
        reader.read_all(c);
        check(!c.open);
    }
    {
        auto src = arbiter::memory_input(text);
        arbiter::pgn::GameReader reader(*src);
        arbiter::pgn::ParsedGame g;
        while (reader.next(g)) {
            if (!g.has_start) continue;
            arbiter::Position pos = g.start;
            for (const auto& ply : g.plies) {
                check(pos.is_legal(ply.move));
                pos.play_unchecked(ply.move);
            }
            check(pos == g.end);
        }
    }
    return 0;
}
