// pgn_game.hpp — games replayed from PGN: for each game its tags, start position (FEN/SetUp,
// Chess960 by Variant tag or castling letters), the mainline as legal Moves with their SAN text,
// source position and clock comments, the result token and the errors. Variations are skipped.
// Built for batch work: a ParsedGame is reused from game to game, so reading does not allocate
// once the buffers have grown to the largest game.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/move.hpp"
#include "arbiter/pgn.hpp"
#include "arbiter/position.hpp"
#include "arbiter/setup.hpp"

namespace arbiter::pgn {

/// One half-move of the mainline.
struct Ply {
    Move move;
    std::uint32_t san_offset = 0;  ///< the SAN text, in ParsedGame::san_text
    std::uint32_t san_size = 0;
    SourcePos pos;             ///< where the move's text starts
    std::int64_t clk_ms = -1;  ///< `[%clk]` in a comment after the move (clock of the mover), or -1
    std::int64_t emt_ms = -1;  ///< `[%emt]` (time the move took), or -1
    bool offer = false;        ///< a comment after the move holds "(=)": a draw offer made with it
};

struct TagPair {
    std::string_view name;
    std::string_view value;
};

/// A game as read by GameReader. Views returned by its accessors are valid until the next read
/// into it.
class ParsedGame {
public:
    std::uint64_t index = 0;  ///< 1-based position in the input
    SourcePos pos;            ///< where the game starts

    /// The start position: the FEN tag's (with SetUp or without), else the standard one.
    /// Meaningful only when `has_start` is true (false after bad_fen or unsupported_variant).
    Position start;
    bool has_start = false;
    /// The position after the last mainline move that was played.
    Position end;
    /// Legal mainline moves, in order, up to the first move error.
    std::vector<Ply> plies;
    /// True when every mainline move could be played (no move error, no syntax error).
    bool complete = true;
    /// True when GameReaderOptions::wants_movetext turned this game's movetext down: `plies` is
    /// empty and `end` is the start position.
    bool movetext_skipped = false;
    /// The termination marker ("1-0", "0-1", "1/2-1/2", "*") or empty when the game has none.
    std::string result;
    SourcePos result_pos;
    /// Everything that went wrong, in input order.
    std::vector<Error> errors;
    /// Notes that do not stop the game being read, in input order: a tag value that was not UTF-8
    /// and was read as Latin-1 (Error::Code::not_utf8).
    std::vector<Error> warnings;
    /// The SAN texts of the plies, one after another.
    std::string san_text;
    /// With GameReaderOptions::keep_positions: the position after each ply (`after[k]` is the
    /// position once `plies[k]` is played), so a consumer that replays the game again need not
    /// make the moves a second time. Empty otherwise.
    std::vector<Position> after;

    [[nodiscard]] std::size_t tag_count() const noexcept { return tags_.size(); }
    [[nodiscard]] TagPair tag_at(std::size_t i) const noexcept {
        const TagRef& t = tags_[i];
        return {std::string_view(tag_text_).substr(t.name, t.name_size),
                std::string_view(tag_text_).substr(t.value, t.value_size)};
    }
    /// The value of the first tag with this name (case-sensitive), if any.
    [[nodiscard]] std::optional<std::string_view> tag(std::string_view name) const noexcept;
    /// The index of the first tag with this name, or tag_count() when there is none. (Every tag is
    /// kept, a name written twice too; a second FEN, SetUp, Variant or Result with another value is
    /// an error of the game, Error::Code::duplicate_tag.)
    [[nodiscard]] std::size_t tag_index(std::string_view name) const noexcept;
    [[nodiscard]] std::string_view san(const Ply& p) const noexcept {
        return std::string_view(san_text).substr(p.san_offset, p.san_size);
    }
    [[nodiscard]] bool chess960() const noexcept { return has_start && start.is_chess960(); }

    /// Empties the game, keeping the memory for the next one.
    void clear();
    /// Appends a tag (used by GameReader).
    void add_tag(std::string_view name, std::string_view value);

private:
    struct TagRef {
        std::uint32_t name, name_size, value, value_size;
    };
    std::vector<TagRef> tags_;
    std::string tag_text_;
};

struct GameReaderOptions {
    ReaderOptions reader;
    /// Accept UCI moves ("e2e4") in the movetext as well as SAN.
    bool accept_uci = true;
    /// Keep the position after every ply in ParsedGame::after.
    bool keep_positions = false;
    /// Asked once a game's tags are read (before its first move): when it returns false, the
    /// movetext is only read through to the game's end — no move is resolved or played, `plies`
    /// stays empty and ParsedGame::movetext_skipped is true (the result is read, and a syntax
    /// error of the movetext is still an error of the game). For readers that want some games
    /// only, e.g. the audit's `--select`. Empty: every game's moves are played.
    std::function<bool(const ParsedGame&)> wants_movetext;
};

/// Reads games from a ByteSource and replays their mainlines.
class GameReader {
public:
    explicit GameReader(ByteSource& source, GameReaderOptions options = {});
    ~GameReader();
    GameReader(const GameReader&) = delete;
    GameReader& operator=(const GameReader&) = delete;

    /// Reads the next game into `game` (its buffers are reused). Returns false when no game is
    /// left. Problems are in game.errors; an input error that ends the input is also in
    /// reader().input_error().
    bool next(ParsedGame& game);

    [[nodiscard]] const Reader& reader() const noexcept;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// Whether a Variant tag value names standard chess (empty, "Standard", "From Position"…),
/// Chess960 ("Chess960", "Fischerandom", "Fischer Random"…) or something else.
enum class VariantKind { standard, chess960, other };
VariantKind classify_variant(std::string_view value) noexcept;

}  // namespace arbiter::pgn
