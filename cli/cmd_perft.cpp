// cmd_perft.cpp — `arbiter perft [POSITION] [--divide] DEPTH`, `arbiter moves [POSITION]` and
// `arbiter play [POSITION] MOVE` (POSITION: --fen, --moves, --pgn --game --ply as for status; default the initial
// position).
#include <chrono>
#include <iostream>

#include "cli.hpp"
#include "game_options.hpp"
#include "json/json.hpp"
#include "requests/position_requests.hpp"

namespace arbiter::cli {

void add_perft(CLI::App& app) {
    auto* cmd =
        app.add_subcommand("perft", "Count the leaf nodes of the legal move tree (last line: \"Nodes searched: N\")");
    struct Options {
        GameInput position;
        bool stats = false;
        bool json = false;
    };
    auto opt = std::make_shared<Options>();
    auto request = std::make_shared<Json>(Json::object());  // depth and --divide, from the core's table
    add_position_options(*cmd, opt->position);
    add_request_options(*cmd, "perft", request);
    cmd->get_option("depth")->required();
    cmd->add_flag("--stats", opt->stats, "Print time and nodes per second on stderr");
    cmd->add_flag(
        "--json", opt->json,
        "JSON: {\"fen\",\"depth\",\"nodes\",\"divide\"} (divide: [{\"uci\",\"san\",\"nodes\"}] with --divide, "
        "else null)");
    cmd->callback([opt, request] {
        const Position pos = position_of(opt->position);
        (*request)["fen"] = to_fen(pos);
        const auto start = std::chrono::steady_clock::now();
        // The core's perft operation (its registry, position_requests.hpp), printed as JSON or as text.
        const Json answer = position_answer("perft", *request);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const auto total = answer["nodes"].get<std::uint64_t>();
        if (opt->json) {
            std::cout << dump(answer) << std::endl;
        } else {
            if (!answer["divide"].is_null()) {
                for (const Json& d : answer["divide"])
                    std::cout << d["uci"].get<std::string>() << ": " << d["nodes"].get<std::uint64_t>() << '\n';
                std::cout << '\n';
            }
            std::cout << "Nodes searched: " << total << std::endl;
        }
        if (opt->stats)
            std::cerr << "time " << seconds << " s, "
                      << static_cast<std::uint64_t>(total / (seconds > 0 ? seconds : 1e-9)) << " nodes/s ("
                      << slider_backend() << ")\n";
    });
}

void add_moves(CLI::App& app) {
    auto* cmd = app.add_subcommand("moves", "List the legal moves of a position in SAN (and UCI with --uci)");
    auto position = std::make_shared<GameInput>();
    auto uci = std::make_shared<bool>(false);
    auto json = std::make_shared<bool>(false);
    auto request = std::make_shared<Json>(Json::object());  // --verbose, from the core's table
    add_position_options(*cmd, *position);
    cmd->add_flag("--uci", *uci, "Also print each move in UCI notation");
    add_request_options(*cmd, "moves", request);
    cmd->add_flag("--json", *json,
                  "JSON: {\"fen\",\"side_to_move\",\"check\",\"checkmate\",\"stalemate\",\"insufficient_material\","
                  "\"count\",\"moves\":[{\"san\",\"uci\"}]}, the moves operation of every face");
    cmd->callback([position, uci, json, request] {
        const Position pos = position_of(*position);
        if (*json) {
            (*request)["fen"] = to_fen(pos);
            std::cout << dump(position_answer("moves", *request)) << '\n';  // the core's registry
            return;
        }
        if (!request->empty())
            throw InputError(Code::bad_usage, "moves: --" + request->begin().key() + " is an option of --json",
                             request->begin().key());
        const MoveList moves = legal_moves(pos);
        if (moves.empty()) {
            std::cout << "no legal moves for " << name(pos.turn()) << " ("
                      << (pos.in_check() ? "checkmate" : "stalemate") << ")\n";
            return;
        }
        std::cout << moves.size() << (moves.size() == 1 ? " legal move for " : " legal moves for ") << name(pos.turn())
                  << ":";
        for (Move m : moves) {
            std::cout << ' ' << to_san(pos, m);
            if (*uci) std::cout << " (" << to_uci(pos, m) << ')';
        }
        std::cout << '\n';
    });
}

void add_play(CLI::App& app) {
    auto* cmd = app.add_subcommand("play", "Play one move (SAN or UCI) and print it and the FEN after it");
    auto position = std::make_shared<GameInput>();
    auto move = std::make_shared<std::string>();
    auto json = std::make_shared<bool>(false);
    add_position_options(*cmd, *position);
    cmd->add_option("move", *move, "The move, in SAN (Nf3) or UCI (g1f3)")->required();
    cmd->add_flag("--json", *json, "JSON: {\"fen\",\"san\",\"uci\"}, the play operation of every face");
    cmd->callback([position, move, json] {
        // The core's play operation (its registry, position_requests.hpp), printed as JSON or as text.
        const Json answer = position_answer("play", Json{{"fen", to_fen(position_of(*position))}, {"move", *move}});
        if (*json)
            std::cout << dump(answer) << '\n';
        else
            std::cout << answer["san"].get<std::string>() << " (" << answer["uci"].get<std::string>()
                      << "): " << answer["fen"].get<std::string>() << '\n';
    });
}

}  // namespace arbiter::cli
