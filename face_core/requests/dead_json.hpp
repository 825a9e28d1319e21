// dead_json.hpp — the answer of `arbiter dead` (can each side still checkmate: FIDE 5.2.2, 6.9)
// and its JSON, shared by the CLI, the service and the Python module so that all three give the
// same keys in the same order (docs/json.md).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/arbiter.hpp"
#include "json/json.hpp"

namespace arbiter::face {

/// What the analyzer says about one side.
struct DeadAnswer {
    Color side = Color::white;
    MateVerdict verdict;
    std::vector<std::string> san;  ///< the mating line in SAN, when there is one
    double micros = 0;             ///< analysis time
};

/// Reads a FEN for `dead`: like fen_or_throw, but composed positions are welcome (surplus pieces
/// and checks no last move could have given do not change what can follow). Throws InputError.
Position composed_fen_or_throw(std::string_view fen);
/// The same, and `written` the position's FEN as to_fen writes it.
Position composed_fen_or_throw(std::string_view fen, std::string& written);

/// "white", "black" or "both" (anything else: both) as the sides to analyse (a view of a
/// constant list).
std::span<const Color> sides_of(std::string_view side);

/// Analyses `sides` of `pos`, timing each.
std::vector<DeadAnswer> analyse_dead(const HelpmateAnalyzer& analyzer, const Position& pos,
                                     std::span<const Color> sides);
/// The same into `out` (whose answers keep their room from call to call), timing each side only
/// when `timed` (micros stays 0 otherwise): for `dead --batch`.
void analyse_dead(const HelpmateAnalyzer& analyzer, const Position& pos, std::span<const Color> sides, bool timed,
                  std::vector<DeadAnswer>& out);

/// True or false when known: both sides asked and both cannot mate, or a side can mate; else
/// unknown.
std::optional<bool> dead_of(const std::vector<DeadAnswer>& answers);

/// {"fen","dead","white","black","can_checkmate":{"white","black"},"proof":{…},"reason":{…},
///  "nodes":{…},"helpmate":{…}[,"microseconds":{…}]}: "white" and "black" are the verdicts
/// (can_checkmate, cannot_checkmate, unknown; PRODUCT.md), can_checkmate the same as "yes", "no"
/// or "unknown", as `status --json` gives it; every per-side object has both sides, null for a
/// side not asked (and in "helpmate" for a side that cannot mate).
Json dead_json(const Position& pos, const std::vector<DeadAnswer>& answers, bool timing);

/// The members of dead_json written straight as text, as dump() would write them, each after a
/// comma but the first (`"fen":…,"dead":…,…`): for `dead --batch`, which writes one object a
/// position and would otherwise spend a third of its time outside the analysis building JSON
/// values. One writer (dead_json.cpp's write_verdicts) names the members and their order for both
/// this text and dead_json's value; that the two are equal, and that the text is what the JSON
/// library itself would write (escapes, numbers), is tested.
void append_dead_members(std::string& out, const Position& pos, const std::vector<DeadAnswer>& answers, bool timing);
/// The same with the position's FEN as to_fen wrote it (for a batch that asks of one position
/// twice in a row).
void append_dead_members(std::string& out, std::string_view fen, const std::vector<DeadAnswer>& answers, bool timing);

/// A time in microseconds as the JSON library writes a double (tested against it), without
/// building a JSON value when the time is a whole number of nanoseconds, as measured ones are.
void append_micros(std::string& out, double micros);

}  // namespace arbiter::face
