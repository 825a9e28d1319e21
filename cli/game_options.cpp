// game_options.cpp — the rule and POSITION options of the command line.
#include "game_options.hpp"

namespace arbiter::cli {

void add_rule_set(CLI::App& cmd, RuleInput& in, bool with_auto) {
    cmd.add_option("--rules", in.rules,
                   rules_option_help() +
                       (with_auto ? "; or auto (from the game's Date and Site tags, as the audit picks it)" : ""));
    cmd.add_option("--time-category", in.time_category, enum_name_list<TimeCategory>(" or ", TimeCategory::standard));
}

void add_rule_options(CLI::App& cmd, RuleInput& in) {
    cmd.add_option("--initial-position-counts", in.initial_position_counts,
                   "Whether the initial position counts as an occurrence: true (default) or false");
    cmd.add_option("--counters-from-setup", in.counters_from_setup,
                   "For a FEN start: trust_fen (default: the halfmove clock counts) or game_start");
    cmd.add_option("--fifty-extension", in.fifty_extensions,
                   "A historic 50-move extension, e.g. KRBvKR=75 (moves by each player); repeatable");
    cmd.add_flag("--online-claims", in.online_claims_only,
                 "fide-online: make threefold and fifty claims instead of automatic draws");
    cmd.add_flag("--intended-mate-incorrect", in.intended_mate_incorrect,
                 "A 9.3.1 claim whose intended move mates is incorrect (default: correct, TV-50-2)");
}

void add_game_input(CLI::App& cmd, GameInput& in) {
    add_position_options(cmd, in);
    add_rule_set(cmd, in, true);
    add_rule_options(cmd, in);
    cmd.add_flag("--json", in.json, "Machine-readable output on stdout");
}

void add_position_options(CLI::App& cmd, GameInput& in, bool with_fen) {
    if (with_fen)
        cmd.add_option("--fen", in.fen, "Start position (FEN); with --moves, the moves are played from it")
            ->each([&in](const std::string&) { in.fen_given = true; });
    cmd.add_option("--moves", in.moves, "Moves from the start (or from --fen), SAN or UCI, e.g. \"e4 e5 Nf3\"")
        ->each([&in](const std::string&) { in.moves_given = true; });
    cmd.add_option("--pgn", in.pgn, "A PGN file: the position after --ply K of game --game N")
        ->each([&in](const std::string&) { in.pgn_given = true; });
    cmd.add_option("--game", in.game, "With --pgn: the game number, from 1 (default 1)")
        ->check(whole_number(1, 1'000'000'000))
        ->each([&in](const std::string&) { in.game_given = true; });
    cmd.add_option("--ply", in.ply,
                   "With --pgn: the position at this game ply, counted as the audit and status --json count it "
                   "(2 x (move - 1), +1 with Black to move; from the initial position, the plies played; default: "
                   "the end)")
        ->check(whole_number(0, 1'000'000))
        ->each([&in](const std::string&) { in.ply_given = true; });
}

}  // namespace arbiter::cli
