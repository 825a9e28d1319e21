// live_game.hpp — a game kept open and played move by move, for the faces that hold one (the
// JavaScript API's Game): built from a request's position and rule options as a status request
// builds its record, moves pushed in SAN or UCI and taken back, its status and claims answered
// with the JSON of `arbiter status|claim --json` (the claim's: claim_answer.hpp).
#pragma once

#include <memory>
#include <string>

#include "arbiter/arbiter.hpp"
#include "json/json.hpp"
#include "requests/claim_answer.hpp"
#include "requests/game_input.hpp"

namespace arbiter::face {

class LiveGame {
public:
    /// The game `in` names (no position given: the initial position). Errors: as GameInput::build.
    explicit LiveGame(GameInput in);
    /// A game restored from its record (GameRecord::restore), without tags.
    explicit LiveGame(std::unique_ptr<GameRecord> record) : record_(std::move(record)) {}

    /// Plays a move: {"san","uci","fen" (after it),"ply"}. Errors: as play_text, field "move".
    Json push(const std::string& move);
    /// Takes back the last move: {"san","uci","fen" (after taking it back),"ply"}. Error: InputError
    /// no_move at the start of the game.
    Json pop();
    /// `arbiter status --json` on the current position.
    [[nodiscard]] Json status() const;
    /// `arbiter claim --json` on the current position (claim_answer).
    [[nodiscard]] Json claim(const std::string& kind, const std::string& intended) const;
    /// The moves played: {"san":[…],"uci":[…]}.
    [[nodiscard]] Json history() const;
    /// Where the game stands: {"fen","start_fen","ply" (game ply),"plies" (moves played),"rules"}.
    [[nodiscard]] Json state() const;
    /// The tags of the PGN game it was read from, as an object (a name written twice: its first
    /// value); empty for a game given by FEN or moves.
    [[nodiscard]] Json tags() const;
    /// The game as PGN (JavaScript's Game.pgn(), as chess.js writes it): {"tags": [[name, value],
    /// …] in order, "result", "width" (0: one line), "newline"} gives the tag pairs, a blank line,
    /// the moves from the start numbered and the result, in lines of at most `width` characters
    /// (the one wrapper of arbiter/scoresheet.hpp), each line ended by `newline`. FieldError for
    /// a key unknown or of the wrong type.
    [[nodiscard]] std::string pgn(const Json& request) const;
    [[nodiscard]] const GameRecord& record() const noexcept { return *record_; }

private:
    std::unique_ptr<GameRecord> record_;
    GameInput::Tags tags_;
};

}  // namespace arbiter::face
