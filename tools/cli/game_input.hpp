// game_input.hpp — the POSITION and rule options shared by `arbiter status` and `arbiter claim`:
// --fen, --moves (SAN or UCI), --pgn FILE [--game N] [--ply K]; --rules, --time-category and the
// options of RULES.md §1. Builds the GameRecord the command works on.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cli.hpp"

namespace arbiter::cli {

/// The help text of --rules, from the name table of RuleSetId: "Rule set: fide-2023 (default), …".
inline std::string rules_option_help() { return "Rule set: " + enum_name_list<RuleSetId>(", ", RuleSetId{}); }

struct GameInput {
    std::string fen;
    std::string moves;
    std::string pgn;
    int game = 1;
    int ply = -1;
    std::string rules = enum_name(RuleSetId{});
    std::string time_category = "standard";
    std::string initial_position_counts = "true";
    std::string counters_from_setup = "trust_fen";
    std::vector<std::string> fifty_extensions;
    bool online_claims_only = false;
    bool intended_mate_incorrect = false;
    bool json = false;

    /// Adds the options to a subcommand.
    void add_to(CLI::App& cmd);
    /// The rule options, or InputError.
    [[nodiscard]] RuleOptions rule_options() const;
    [[nodiscard]] const RuleSet& rule_set_or_throw() const;
    /// The record of the game up to the requested position, or InputError.
    [[nodiscard]] std::unique_ptr<GameRecord> build() const;

private:
    [[nodiscard]] std::unique_ptr<GameRecord> from_pgn(const RuleSet& rs, const RuleOptions& options) const;
};

}  // namespace arbiter::cli
