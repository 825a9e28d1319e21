// scoresheet.hpp — a live session written down: the scoresheet as a player or arbiter keeps it
// (moves in SAN with their numbers, the "(=)" mark of each draw offer (9.1.2.2), the clock
// after each move, the claims and rulings), and the game as PGN with its Result and
// Termination tags and %clk comments.
#pragma once

#include <string>

#include "arbiter/session.hpp"

namespace arbiter {

/// The scoresheet as plain text, one move pair per line, then the notes and the result.
std::string scoresheet_text(const Session& session);

/// The game as PGN (export format: the seven tag roster, SetUp/FEN for a set-up start,
/// TimeControl, Termination; moves with move numbers, "{[%clk h:mm:ss]}" clock comments,
/// "(=)" offers and the rulings as comments; lines of at most 79 characters).
std::string export_pgn(const Session& session);

/// The PGN Termination tag value of an ending: "normal", "time forfeit", "rules infraction",
/// "adjudication"; "unterminated" while the game goes on.
const char* pgn_termination(const Session& session) noexcept;

}  // namespace arbiter
