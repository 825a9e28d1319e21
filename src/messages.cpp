// messages.cpp — the message table: every message arbiter shows a person, its stable id and its
// English text (English is the source language of the catalogs, po/*.po). `make po` extracts
// this table into po/arbiter.pot with xgettext (ARBITER_TEXT: the id is the context, the text the
// msgid; ARBITER_PLURAL adds the plural, chosen by the argument `count`), then merges it into
// each language's catalog. Placeholders are named ({side}, {count}, {move}); message.hpp says
// what each kind of argument becomes.
#include "arbiter/message.hpp"

namespace arbiter {

namespace {

#define ARBITER_TEXT(id, text) \
    MessageDef {               \
        id, text, {}           \
    }
#define ARBITER_PLURAL(id, one, other) \
    MessageDef { id, one, other }

constexpr MessageDef table[] = {
    // TRANSLATORS: a correct claim that needed no intended move although one was written (FIDE
    // 9.2.2). {times} is "twice", "3 times"…, {places} the list of the positions.
    ARBITER_TEXT("claim.threefold.already",
                 "No move is needed: the position with {side} to move has now stood {times}: {places}"),
    ARBITER_TEXT("claim.threefold.intended.count",
                 "The intended {move} would make the position stand for the {count}th time: {places}"),
    ARBITER_TEXT("claim.threefold.intended.not_before",
                 "The position after the intended {move} has not stood before in this game; a claim needs a third "
                 "occurrence"),
    ARBITER_TEXT("claim.threefold.intended.only",
                 "The position after the intended {move} would stand only {times} ({places}); a claim needs a third "
                 "occurrence"),
    ARBITER_TEXT("claim.threefold.intended.third",
                 "The intended {move} would make the position stand for the third time: {places}"),
    // TRANSLATORS: {reason} is one of the claim.threefold.* sentences, without its full stop;
    // {place} where the look-alike position stood; {why} a why.* text.
    ARBITER_TEXT("claim.threefold.lookalike",
                 "{reason} — the position {place} looks the same but does not count, because {why}."),
    ARBITER_TEXT("claim.threefold.not_before",
                 "The position with {side} to move has not stood before in this game; a claim needs it to stand a "
                 "third time"),
    ARBITER_TEXT("claim.threefold.now", "The position with {side} to move has now stood {times}: {places}"),
    ARBITER_TEXT("claim.threefold.only",
                 "The position with {side} to move has stood only {times} ({places}); a claim needs a third "
                 "occurrence"),
    // TRANSLATORS: {reason} is one of the claim.threefold.* sentences, without its full stop.
    ARBITER_TEXT("claim.threefold.sentence", "{reason}."),
    // TRANSLATORS: {moves} is a moves.* text; {since} a since.* text; {needed} "50 moves by each player".
    ARBITER_TEXT("claim.fifty.enough",
                 "No pawn has moved and nothing has been captured in the last {moves} {since}; {needed} are "
                 "enough."),
    ARBITER_TEXT("claim.fifty.intended.capture", "The intended {move} is a capture, which starts the count again."),
    ARBITER_TEXT("claim.fifty.intended.completes",
                 "The intended {move} completes {needed} without a pawn move or capture {since}."),
    ARBITER_TEXT("claim.fifty.intended.mates",
                 "The intended {move} checkmates, and under the chosen option a mating move cannot complete the "
                 "count."),
    ARBITER_TEXT("claim.fifty.intended.not_enough",
                 "After the intended {move} only {moves} would have been made without a pawn move or capture "
                 "{since}; {needed} are needed."),
    ARBITER_TEXT("claim.fifty.intended.pawn", "The intended {move} is a pawn move, which starts the count again."),
    ARBITER_TEXT("claim.fifty.not_enough",
                 "Only {moves} have been made without a pawn move or capture {since}; {needed} are needed."),
    // TRANSLATORS: {rules} is a rule set's name, e.g. "ICCF 2024".
    ARBITER_PLURAL("claim.fifty.tablebase",
                   "With {count} or fewer piece on the board the 50-move rule gives way to a tablebase claim under "
                   "{rules}.",
                   "With {count} or fewer pieces on the board the 50-move rule gives way to a tablebase claim under "
                   "{rules}."),
    // TRANSLATORS: {termination} is a termination.* text, {place} a place.* text.
    ARBITER_TEXT("claim.game_over", "The game has already ended ({termination}, {place}); no claim can be made."),
    ARBITER_TEXT("claim.intended.ambiguous", "The intended move {move} is ambiguous here, so no claim can rest on it."),
    ARBITER_TEXT("claim.intended.illegal", "The intended move {move} is illegal here, so no claim can rest on it."),
    ARBITER_TEXT("claim.intended.not_legal", "The intended move {move} is not legal, so no claim can rest on it."),
    ARBITER_TEXT("claim.intended.syntax", "The intended move {move} is not a move here, so no claim can rest on it."),
    // TRANSLATORS: a claim refused because the claimant touched a piece with intent first (FIDE
    // 9.4): {article} is the article's number, {piece} a piece.* name.
    ARBITER_TEXT("claim.lost_right.a_piece",
                 "{side} touched a piece with intent before claiming and so lost the right to claim on this move "
                 "({article}); the right returns on {side}'s next move."),
    ARBITER_TEXT("claim.lost_right.piece",
                 "{side} touched the {piece} on {square} with intent before claiming and so lost the right to claim "
                 "on this move ({article}); the right returns on {side}'s next move."),
    ARBITER_TEXT("claim.written.ambiguous", "The written move {move} is ambiguous here, so no claim can rest on it."),
    ARBITER_TEXT("claim.written.illegal", "The written move {move} is illegal here, so no claim can rest on it."),
    ARBITER_TEXT("claim.written.syntax", "The written move {move} is not a move here, so no claim can rest on it."),
    // TRANSLATORS: how lists are joined: "a and b", then "a, b and c" as "a, " + "b and c".
    ARBITER_TEXT("list.more", "{first}, {rest}"),
    ARBITER_TEXT("list.two", "{first} and {last}"),
    // TRANSLATORS: an odd number of moves: {count} by the player who made one more, {other} by
    // the other player (one fewer).
    ARBITER_PLURAL("moves.each", "{count} move by each player", "{count} moves by each player"),
    ARBITER_PLURAL("moves.uneven", "{count} move by one player and {other} by the other",
                   "{count} moves by one player and {other} by the other"),
    // TRANSLATORS: where a position stood in the game: {move} is a move with its number ("4...Ng8").
    ARBITER_TEXT("place.after", "after {move}"),
    ARBITER_TEXT("place.after_intended", "after the intended {move}"),
    ARBITER_TEXT("place.start", "at the start"),
    ARBITER_TEXT("piece.bishop", "bishop"),
    ARBITER_TEXT("piece.king", "king"),
    ARBITER_TEXT("piece.knight", "knight"),
    ARBITER_TEXT("piece.pawn", "pawn"),
    ARBITER_TEXT("piece.piece", "piece"),
    ARBITER_TEXT("piece.queen", "queen"),
    ARBITER_TEXT("piece.rook", "rook"),
    ARBITER_TEXT("side.black", "Black"),
    ARBITER_TEXT("side.white", "White"),
    // TRANSLATORS: since when no pawn has moved and nothing has been captured.
    ARBITER_TEXT("since.before_setup", "(the count began before the set-up position)"),
    ARBITER_TEXT("since.move", "since {move}"),
    ARBITER_TEXT("since.start", "since the start"),
    ARBITER_TEXT("termination.checkmate", "checkmate"),
    ARBITER_TEXT("termination.dead_position", "dead position"),
    ARBITER_TEXT("termination.fifty_moves", "50-move rule"),
    ARBITER_TEXT("termination.fivefold_repetition", "fivefold repetition"),
    ARBITER_TEXT("termination.seventy_five_moves", "75-move rule"),
    ARBITER_TEXT("termination.stalemate", "stalemate"),
    ARBITER_TEXT("termination.threefold_repetition", "threefold repetition"),
    // TRANSLATORS: how many times a position has stood: once, twice, then {count} times.
    ARBITER_PLURAL("times.count", "{count} time", "{count} times"),
    ARBITER_TEXT("times.once", "once"),
    ARBITER_TEXT("times.twice", "twice"),
    // TRANSLATORS: why a position that looks the same is not the same position (FIDE 9.2.3):
    // {then} and {now} are castling rights as FEN writes them ("KQkq", "-").
    ARBITER_TEXT("why.both", "{first}; {second}"),
    ARBITER_TEXT("why.castling", "castling rights differed ({then} then, {now} now)"),
    ARBITER_TEXT("why.en_passant_now", "a legal en passant capture on {square} exists now"),
    ARBITER_TEXT("why.en_passant_then", "a legal en passant capture on {square} existed then"),
};

#undef ARBITER_TEXT
#undef ARBITER_PLURAL

}  // namespace

std::span<const MessageDef> message_table() { return table; }

}  // namespace arbiter
