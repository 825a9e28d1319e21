// game_options.hpp — the command line's rule and POSITION options, registered once for every
// command that takes them (`status`, `claim`, `moves`, `perft`, `dead`, `session new`, `audit`),
// into the face core's RuleInput and GameInput (face_core/requests/game_input.hpp), and the
// operations' own options from the face core's table (option_table.hpp).
#pragma once

#include <memory>

#include "cli.hpp"
#include "json/json.hpp"
#include "requests/game_input.hpp"
#include "requests/option_table.hpp"
#include "requests/position_requests.hpp"

namespace arbiter::cli {

/// Adds --rules (with `auto` when `with_auto`: the rule set from the game's Date and Site tags,
/// as the audit picks it) and --time-category.
void add_rule_set(CLI::App& cmd, RuleInput& in, bool with_auto);
/// Adds --initial-position-counts, --counters-from-setup, --fifty-extension, --online-claims and
/// --intended-mate-incorrect.
void add_rule_options(CLI::App& cmd, RuleInput& in);
/// Adds the POSITION and rule options and --json to a subcommand.
void add_game_input(CLI::App& cmd, GameInput& in);
/// Adds only --fen, --moves, --pgn, --game and --ply (moves, perft, dead: the position, under the
/// default rules, which only decide where a game ends). Without `with_fen`, the command has its
/// own --fen (dead: composed positions) and sets `in.fen`.
void add_position_options(CLI::App& cmd, GameInput& in, bool with_fen = true);

/// Adds every option of the face core's table (request_option_table) that `operation` reads
/// (request_option_keys), in the table's order: its flag, its help with the default (or, for a
/// positional argument, its range), the check of its choices or range, a flag without a value for
/// a `flag` option. Each one given is set into `request` under its name: the command then asks the face core's registry
/// (position_answer) with that request, so that an option added to the table for the operation
/// reaches the command line with no change here.
void add_request_options(CLI::App& cmd, std::string_view operation, const std::shared_ptr<Json>& request);

/// The language and figurines of a command's texts: --lang and --figurines from `request` (set by
/// add_request_options), else the language the environment asks for, as gettext reads it
/// (LC_ALL, then LC_MESSAGES, then LANG; C and POSIX are English; LANGUAGE's list is read first
/// when the locale is not C); English when arbiter has no catalog for it.
TextStyle command_text_style(const Json& request);

}  // namespace arbiter::cli
