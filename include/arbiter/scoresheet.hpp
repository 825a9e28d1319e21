// scoresheet.hpp — a live session written down: the scoresheet as a player or arbiter keeps it
// (moves in SAN with their numbers, the "(=)" mark of each draw offer (9.1.2.2), the clock
// after each move, the claims and rulings), and the game as PGN with its Result and
// Termination tags and %clk comments.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "arbiter/session.hpp"

namespace arbiter {

/// The scoresheet as plain text, one move pair per line, then the notes and the result.
std::string scoresheet_text(const Session& session);

/// The game as PGN (export format: the seven tag roster, SetUp/FEN for a set-up start,
/// TimeControl, Termination; moves with move numbers, "{[%clk h:mm:ss]}" clock comments,
/// "(=)" offers and the rulings as comments; lines of at most 79 characters).
std::string export_pgn(const Session& session);

/// A PGN tag pair, `[Name "value"]` (no line end): quotes and backslashes escaped, a control
/// character written as a space (a tag is one line).
std::string pgn_tag_pair(std::string_view name, std::string_view value);

/// PGN movetext tokens (move numbers, SAN, comments in braces, the result) joined by spaces in
/// lines of at most `width` characters where the tokens allow (0: one line), each line ended by
/// `newline`. A line breaks between tokens, and inside a comment at its spaces when
/// `split_comments`; a longer token has a line of its own. The one wrapper of every PGN arbiter
/// writes: a session's export, the audit's --pgn-out, JavaScript's Game.pgn().
std::string wrap_movetext(const std::vector<std::string>& tokens, std::size_t width = 79,
                          std::string_view newline = "\n", bool split_comments = true);

/// The movetext tokens of `san`, moves played from `start`: "N." before each White move, "N..."
/// before a first move by Black, then the move.
std::vector<std::string> numbered_moves(const Position& start, const std::vector<std::string>& san);

/// The PGN Termination tag value of an ending: "normal", "time forfeit", "rules infraction",
/// "adjudication"; "unterminated" while the game goes on.
const char* pgn_termination(const Session& session) noexcept;

}  // namespace arbiter
