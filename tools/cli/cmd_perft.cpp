// cmd_perft.cpp — `arbiter perft [--fen FEN] [--divide] DEPTH` and `arbiter moves --fen FEN`.
#include <chrono>
#include <iostream>

#include "cli.hpp"

namespace arbiter::cli {

void add_perft(CLI::App& app) {
    auto* cmd =
        app.add_subcommand("perft", "Count the leaf nodes of the legal move tree (last line: \"Nodes searched: N\")");
    struct Options {
        std::string fen{start_fen};
        bool divide = false;
        bool stats = false;
        int depth = 0;
    };
    auto opt = std::make_shared<Options>();
    cmd->add_option("--fen", opt->fen, "Start position (default: the initial position)");
    cmd->add_flag("--divide", opt->divide, "Print the node count under each root move");
    cmd->add_flag("--stats", opt->stats, "Print time and nodes per second on stderr");
    cmd->add_option("depth", opt->depth, "Depth in plies (0-20)")->required()->check(whole_number(0, 20));
    cmd->callback([opt] {
        const Position pos = fen_or_throw(opt->fen);
        const auto start = std::chrono::steady_clock::now();
        std::uint64_t total = 0;
        if (opt->divide) {
            for (auto [move, nodes] : perft_divide(pos, opt->depth)) {
                std::cout << to_uci(pos, move) << ": " << nodes << '\n';
                total += nodes;
            }
            if (opt->depth == 0) total = 1;
            std::cout << '\n';
        } else {
            total = perft(pos, opt->depth);
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::cout << "Nodes searched: " << total << std::endl;
        if (opt->stats)
            std::cerr << "time " << seconds << " s, "
                      << static_cast<std::uint64_t>(total / (seconds > 0 ? seconds : 1e-9)) << " nodes/s ("
                      << slider_backend() << ")\n";
    });
}

void add_moves(CLI::App& app) {
    auto* cmd = app.add_subcommand("moves", "List the legal moves of a position in SAN (and UCI with --uci)");
    auto fen = std::make_shared<std::string>(std::string(start_fen));
    auto uci = std::make_shared<bool>(false);
    cmd->add_option("--fen", *fen, "Position (default: the initial position)");
    cmd->add_flag("--uci", *uci, "Also print each move in UCI notation");
    cmd->callback([fen, uci] {
        const Position pos = fen_or_throw(*fen);
        const MoveList moves = legal_moves(pos);
        std::cout << moves.size() << " legal moves for " << name(pos.turn()) << ":";
        for (Move m : moves) {
            std::cout << ' ' << to_san(pos, m);
            if (*uci) std::cout << " (" << to_uci(pos, m) << ')';
        }
        std::cout << '\n';
    });
}

}  // namespace arbiter::cli
