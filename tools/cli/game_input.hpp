// game_input.hpp — the rule options registered once for every command that takes them
// (`status`, `claim`, `session new`, `audit`: RuleInput), and the POSITION options of `status`,
// `claim`, `moves`, `perft` and `dead` (--fen, --moves in SAN or UCI, --pgn FILE [--game N]
// [--ply K]: GameInput), which build the GameRecord the command works on.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cli.hpp"

namespace arbiter::cli {

/// The help text of --rules, from the name table of RuleSetId: "Rule set: fide-2023 (default), …".
inline std::string rules_option_help() { return "Rule set: " + enum_name_list<RuleSetId>(", ", RuleSetId{}); }

/// --rules, --time-category and the options of RULES.md §1, the same for every command.
struct RuleInput {
    std::string rules = enum_name(RuleSetId{});
    std::string time_category = "standard";
    std::string initial_position_counts = "true";
    std::string counters_from_setup = "trust_fen";
    std::vector<std::string> fifty_extensions;
    bool online_claims_only = false;
    bool intended_mate_incorrect = false;

    /// Adds --rules (with `auto` when `with_auto`: the rule set from the game's Date and Site
    /// tags, as the audit picks it) and --time-category.
    void add_rule_set(CLI::App& cmd, bool with_auto);
    /// Adds --initial-position-counts, --counters-from-setup, --fifty-extension,
    /// --online-claims and --intended-mate-incorrect.
    void add_rule_options(CLI::App& cmd);
    /// The rule options, or InputError.
    [[nodiscard]] RuleOptions rule_options() const;
    /// The rule set named by --rules (not `auto`), or InputError.
    [[nodiscard]] const RuleSet& rule_set_or_throw() const;
    /// InputError when an option given has no effect under `rules` (e.g. --online-claims outside
    /// fide-online), naming why.
    void check_applies(const RuleSet& rules) const;

private:
    CLI::Option* online_opt_ = nullptr;
};

struct GameInput : RuleInput {
    std::string fen;
    std::string moves;
    std::string pgn;
    /// With `pgn`: the PGN text itself (the service's request body), `pgn` then only names it.
    std::string pgn_text;
    int game = 1;
    int ply = -1;
    bool json = false;

    /// Adds the POSITION and rule options and --json to a subcommand.
    void add_to(CLI::App& cmd);
    /// Adds only --fen, --moves, --pgn, --game and --ply (moves, perft, dead: the position, under
    /// the default rules, which only decide where a game ends).
    /// Without `with_fen`, the command has its own --fen (dead: composed positions) and sets `fen`.
    void add_position_to(CLI::App& cmd, bool with_fen = true);
    /// True when --fen, --moves or --pgn was given.
    [[nodiscard]] bool given() const { return !fen.empty() || !moves.empty() || !pgn.empty(); }
    /// The record of the game up to the requested position, or InputError.
    [[nodiscard]] std::unique_ptr<GameRecord> build() const;

private:
    CLI::Option* game_opt_ = nullptr;
    CLI::Option* ply_opt_ = nullptr;
    /// `rs` null: --rules auto, chosen from the game's tags.
    [[nodiscard]] std::unique_ptr<GameRecord> from_pgn(const RuleSet* rs, const RuleOptions& options) const;
};

/// The position the POSITION options give (the initial position when none is given).
Position position_of(const GameInput& in);

/// Splits --moves text into move tokens, dropping move numbers ("1.", "12..."), comments ("{…}")
/// and a result (the Python module's Game(moves="1. e4 e5") reads its text with it too).
std::vector<std::string> move_tokens(const std::string& text);

}  // namespace arbiter::cli
