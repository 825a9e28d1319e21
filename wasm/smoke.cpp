// smoke.cpp — the library under WebAssembly gives the answers it gives natively: perft counts
// (published), a claimable threefold repetition, a blockade that neither side can mate through,
// a PGN game read and its draw found, and compressed input refused with a clear error. Exit 0
// when every answer is right (ctest `wasm.smoke`, run by Node.js).
#include <cstdio>
#include <string>
#include <string_view>

#include "arbiter/arbiter.hpp"

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
    std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
    if (!ok) ++failures;
}

}  // namespace

int main() {
    using namespace arbiter;
    // Published perft counts (start position, "Kiwipete", en passant and promotion traps).
    struct Perft {
        const char* fen;
        int depth;
        std::uint64_t nodes;
    };
    for (const Perft& p : {Perft{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4, 197281},
                           Perft{"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, 97862},
                           Perft{"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43238},
                           Perft{"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3, 9467}}) {
        const auto pos = position_from_fen(p.fen);
        expect(pos && perft(*pos, p.depth) == p.nodes, std::string("perft ") + std::to_string(p.depth) + " " + p.fen);
    }

    // Knights out and back twice: the start position stands for the third time after 4...Ng8.
    GameRecord game;
    for (std::string_view m : {"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"})
        expect(!game.play(m), std::string("play ") + std::string(m));
    const DrawStatus status = draw_status(game);
    expect(status.repetition_count == 3 && status.threefold.now, "threefold claimable after 4...Ng8");
    expect(!status.termination, "no automatic ending after a threefold repetition");

    // Kings behind a locked pawn chain with only kings and pawns: a dead position.
    const auto locked = position_from_fen("8/8/1k6/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1");
    expect(locked.has_value(), "blockade FEN");
    if (locked) {
        const HelpmateAnalyzer analyzer;
        expect(analyzer.can_checkmate(*locked, Color::white).answer == MateAbility::cannot_checkmate &&
                   analyzer.can_checkmate(*locked, Color::black).answer == MateAbility::cannot_checkmate,
               "a pawn blockade: neither side can checkmate");
    }

    // A PGN game read from memory, its moves and its result.
    const std::string pgn_text =
        "[Event \"smoke\"]\n[Result \"1/2-1/2\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n";
    auto src = memory_input(pgn_text);
    pgn::GameReader reader(*src);
    pgn::ParsedGame parsed;
    expect(reader.next(parsed) && parsed.complete && parsed.plies.size() == 8, "a PGN game read from memory");

    // Compressed input: this build has no decompressors and says so.
    const std::string zstd_magic("\x28\xB5\x2F\xFD\x00\x00\x00\x00", 8);
    auto compressed = memory_input(zstd_magic, {}, "games.pgn.zst");
    char buffer[64];
    const auto got = compressed->read(buffer, sizeof buffer);
    expect(!got && got.error().code == InputError::Code::not_text &&
               got.error().message.find("Zstandard") != std::string::npos,
           "zstd input refused: " + (got ? std::string("read") : got.error().describe()));

    std::printf("%s\n", failures ? "FAILED" : "all answers right");
    return failures ? 1 : 0;
}
