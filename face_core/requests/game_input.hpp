// game_input.hpp — the rule options as every face takes them (RuleInput: --rules and the options
// of RULES.md §1, the service's and Python's fields of the same names), and the position a
// request names (GameInput: a FEN, moves in SAN or UCI, a PGN game and ply), which build the
// GameRecord the command works on, or refuse with the field at fault. The command line registers
// them in cli/game_options.hpp.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arbiter/arbiter.hpp"
#include "errors.hpp"
#include "text.hpp"

namespace arbiter::face {

/// --rules, --time-category and the options of RULES.md §1, the same for every command: the
/// values as given, each declared in option_table.hpp (its name, flag, kind, help, and what it
/// sets in RuleOptions).
struct RuleInput {
    std::string rules = enum_name(RuleSetId{});
    std::string time_category = "standard";
    /// --initial-position-counts as the command line gives it: "true" or "false".
    std::string initial_position_counts = "true";
    /// The same given typed (a JSON request's or Python's bool): when set, it is used and the
    /// text is not read.
    std::optional<bool> initial_position_counts_flag;
    std::string counters_from_setup = "trust_fen";
    std::vector<std::string> fifty_extensions;
    bool online_claims = false;
    bool intended_mate_incorrect = false;

    /// The rule options, or InputError (option_table.cpp).
    [[nodiscard]] RuleOptions rule_options() const;
    /// The rule set named by --rules (not `auto`), or InputError.
    [[nodiscard]] const RuleSet& rule_set_or_throw() const;
    /// InputError when an option given has no effect under `rules` (e.g. --online-claims outside
    /// fide-online), naming why.
    void check_applies(const RuleSet& rules) const;
};

/// The largest game number and ply a request names (--game, --ply; the keys game and ply).
inline constexpr int max_game_number = 1'000'000'000;
inline constexpr int max_game_ply = 1'000'000;

struct GameInput : RuleInput {
    std::string fen;
    std::string moves;
    std::string pgn;
    /// With `pgn`: the PGN text itself (the service's request body), `pgn` then only names it;
    /// `pgn_inline` says so when the text is empty.
    std::string pgn_text;
    bool pgn_inline = false;
    int game = 1;
    int ply = -1;
    bool json = false;
    /// --game and --ply given (not their defaults): refused without a PGN game.
    bool game_given = false, ply_given = false;

    /// --fen, --moves and --pgn given even when empty (one meaning everywhere: an empty FEN is
    /// refused as bad_fen, an empty move list is no moves, an empty PGN has no game 1).
    bool fen_given = false, moves_given = false, pgn_given = false;

    [[nodiscard]] bool has_fen() const { return fen_given || !fen.empty(); }
    [[nodiscard]] bool has_moves() const { return moves_given || !moves.empty(); }
    [[nodiscard]] bool has_pgn() const { return pgn_given || !pgn.empty(); }
    /// True when --fen, --moves or --pgn was given.
    [[nodiscard]] bool given() const { return has_fen() || has_moves() || has_pgn(); }
    /// A game's PGN tags, in the order read (a name written twice: the first).
    using Tags = std::vector<std::pair<std::string, std::string>>;
    /// The record of the game up to the requested position, or InputError; with `tags`, the tags
    /// of the PGN game read (none for a FEN or moves). The games of a PGN before the one asked for
    /// are only scanned (their movetext is not played).
    [[nodiscard]] std::unique_ptr<GameRecord> build(Tags* tags = nullptr) const;
    /// Game `game` of the PGN `pgn` names (the games before it scanned, their moves not played;
    /// `tags` as build's), or InputError: the input's own (cannot_open, …), no_such_game
    /// ("game"), bad_pgn when the game has no start position. `arbiter session import` and build.
    [[nodiscard]] pgn::ParsedGame read_pgn_game(Tags* tags = nullptr) const;
    /// InputError bad_pgn at the first error of `g`, game `game` of `pgn`: "--pgn: FILE game N,
    /// line L, column C: why" and `more`.
    [[noreturn]] void refuse_pgn(const pgn::ParsedGame& g, std::string_view more = {}) const;

private:
    /// `rs` null: --rules auto, chosen from the game's tags.
    [[nodiscard]] std::unique_ptr<GameRecord> from_pgn(const RuleSet* rs, const RuleOptions& options, Tags* tags) const;
};

/// Plays `text` (SAN or UCI) on `record`, as --moves plays its moves: after an automatic ending
/// a legal move is still recorded. Errors: InputError game_over (a move that cannot be played
/// after the game ended), illegal_move, ambiguous_move or bad_move, their message starting with
/// `what` (e.g. "--moves: move 3 "), with `field` and the byte: `at` (where `text` stands in the
/// field's text) plus the byte in `text`.
void play_text(GameRecord& record, const std::string& text, const std::string& field, const std::string& what,
               std::uint64_t at);

/// The position the POSITION options give (the initial position when none is given).
Position position_of(const GameInput& in);

/// Splits --moves text into move tokens, dropping move numbers ("1.", "12..."), comments ("{…}")
/// and a result (the Python module's Game(moves="1. e4 e5") reads its text with it too).
std::vector<std::string> move_tokens(const std::string& text);

}  // namespace arbiter::face
