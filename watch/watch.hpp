// watch.hpp — the hall monitor's core (`arbiter watch`, docs/watch.md): every game of a live PGN
// feed is a board, keyed by its Round and Board tags (else Round, White and Black); each read of
// the feed brings a board's new plies, which are analysed one by one (never the whole game again),
// and what the arbiter must know comes out as alerts: the game is over by itself, the 75-move
// limit is near, a draw may be claimed, a flag fell, the result contradicts the position, the
// feed is broken, moves were corrected. Alerts are deduplicated per board, type, kind and ply;
// a correction withdraws the alerts past the first changed ply.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "arbiter/audit.hpp"
#include "arbiter/game.hpp"
#include "arbiter/pgn_game.hpp"
#include "json/json.hpp"
#include "vocabulary.hpp"

namespace arbiter::watch {

/// Alert types (the `type` key): the face core's vocabulary.
namespace type = face::alert_type;

struct Alert {
    std::string board{};  ///< "3.17" (Round.Board), else "Round White - Black"
    std::string white{}, black{}, round{};
    std::string type{}, kind{};
    std::uint32_t ply = 0;                 ///< game ply of the position concerned
    std::string move{};                    ///< "41...Kg8": the move that led to it ("" at the start)
    std::optional<Color> side{};           ///< the side concerned, if one is
    std::string article{};                 ///< the article of the Laws, or of the PGN standard
    std::string detail{};                  ///< one sentence for the arbiter
    std::optional<std::uint32_t> count{};  ///< approaching_seventy_five: the no-progress plies
    std::string source{};                  ///< the file or URL the board was read from
    bool withdrawn = false;                ///< a withdrawal of an alert given before
    /// The alert no longer calls for the arbiter because the game ended (a claim that can no
    /// longer be made): printed again with `closed` true, then out of force. Not a withdrawal.
    bool closed = false;
    /// The alert printed again with its detail brought up to date (a game over by itself whose
    /// feed went on for more void plies); still in force.
    bool updated = false;
    /// The game plies the detail's evidence is about: the occurrences of a repeated position,
    /// the first and last position of a no-progress count. Empty when there are none.
    std::vector<std::uint32_t> plies{};
    std::uint64_t seq = 0;  ///< order of emission in this hall (1, 2, …)

    /// The dedupe key: board, type, kind and ply.
    [[nodiscard]] std::string key() const;
};

struct WatchOptions {
    /// The rule set (nullopt: auto, from each game's tags, as the audit chooses), the time
    /// category from TimeControl tags, the analyzer for dead positions and flag falls.
    audit::AuditOptions audit;
    /// approaching_seventy_five comes this many plies before the 75-move limit.
    std::uint32_t approach_plies = 10;
    /// feed_stale for a game in progress whose feed has not changed for this long (0: never).
    std::chrono::milliseconds stale_after{300'000};
};

/// What the hall page shows of a board.
struct BoardView {
    std::string id{}, white{}, black{}, round{}, source{}, result{};
    std::string fen{};  ///< the current position
    std::uint32_t plies = 0;
    std::string last_move{};  ///< "41...Kg8", or "" before the first move
    std::int64_t white_clock_ms = -1, black_clock_ms = -1;
    std::optional<std::string> ended{};  ///< the ending's name once the game is over
};

/// A position that backs an alert: its game ply, its FEN, the move that led to it ("23...Nf6";
/// "" for the start position).
struct Evidence {
    std::uint32_t ply = 0;
    std::string fen{}, move{};
};

/// A board as the state file keeps it: enough to rebuild its analysis without alerting again.
struct BoardRecord {
    std::string id{}, white{}, black{}, round{}, source{};
    std::string rules{};          ///< the rule set's id
    std::string time_category{};  ///< its name
    std::string start_fen{};      ///< the start position (Shredder-FEN for Chess960)
    std::string moves{};          ///< UCI moves, space separated
    std::string clocks{};         ///< the [%clk] milliseconds of the plies, space separated (-1: none)
    std::string result{};         ///< the termination marker last read ("" when none)
};

class Hall {
public:
    explicit Hall(WatchOptions options = {});
    ~Hall();
    Hall(const Hall&) = delete;
    Hall& operator=(const Hall&) = delete;

    /// Reads every game of one read of a PGN source (the whole file or HTTP body as it is now)
    /// and appends to `out` the alerts this read gives, withdrawals included, in order. A last
    /// game caught half-written (no termination marker) counts up to its last complete token.
    void read(std::string_view source, std::string_view text, std::vector<Alert>& out);

    /// Every alert in force (not withdrawn), oldest first.
    [[nodiscard]] std::vector<Alert> alerts() const;
    /// The positions that back an alert in force, as (game ply, FEN): the occurrences of a
    /// repeated position, the position where a no-progress count started and the one it reached,
    /// else the position the alert is about. Empty when the board has no such position.
    [[nodiscard]] std::vector<Evidence> evidence(const Alert& alert) const;
    /// The boards, in the order they were first seen.
    [[nodiscard]] std::vector<BoardView> boards() const;
    [[nodiscard]] std::size_t board_count() const noexcept;
    /// A board for the state file, or nullopt when there is none with that id.
    [[nodiscard]] std::optional<BoardRecord> board_record(const std::string& id) const;
    /// The ids of the boards the last read() changed (new plies, corrections, new alerts).
    [[nodiscard]] const std::vector<std::string>& changed_boards() const noexcept { return changed_; }

    /// Raises feed_stale for each game in progress whose feed has not changed for
    /// WatchOptions::stale_after (once per board and ply; withdrawn when the game moves again).
    /// Fills changed_boards().
    void tick(std::chrono::steady_clock::time_point now, std::vector<Alert>& out);
    /// A source is gone (a file deleted, a URL answering 404): feed_gone for each game in
    /// progress last read from it, withdrawn when the game is read again. Fills changed_boards().
    void source_gone(std::string_view source, std::string_view kind, std::vector<Alert>& out);

    /// Rebuilds a board from the state file: its moves are replayed and `alerts` (the ones it
    /// had in force) are taken as already given, so that only what is new is alerted. False
    /// when the record does not replay (the board is then rebuilt from the feed, the alerts
    /// still counting as given).
    bool restore(const BoardRecord& record, const std::vector<Alert>& alerts);

private:
    struct Board;
    Board& board_for(const pgn::ParsedGame& game, std::string_view source);
    void update(Board& b, const pgn::ParsedGame& game, bool in_progress, std::vector<Alert>& out);
    // Feed errors, clock tags and the result, from the game as a whole (derived.cpp).
    void update_derived(Board& b, const pgn::ParsedGame& game, bool in_progress, std::vector<Alert>& out);
    // Gives an alert unless it is in force or was closed; true when given.
    bool emit(Board& b, Alert a, std::vector<Alert>& out);
    // Withdraws (or with `close`, closes) the alerts in force that `pred` picks, oldest first.
    void withdraw_if(Board& b, const std::function<bool(const Alert&)>& pred, std::vector<Alert>& out,
                     bool close = false);
    // Closes the claims of a game that has ended, withdraws its feed_stale and feed_gone.
    void settle_ended(Board& b, std::vector<Alert>& out);

    WatchOptions options_;
    std::map<std::string, std::unique_ptr<Board>> boards_;
    std::vector<Board*> order_;
    std::vector<std::string> changed_;
    std::uint64_t seq_ = 0;
    std::uint64_t reads_ = 0;                                        // Hall::read calls so far
    std::map<std::string, std::unordered_set<std::size_t>> pieces_;  // per source: digests of its games last read
    std::uint32_t line_base_ = 0;                                    // lines before the piece being read
};

/// One alert as the JSON line `arbiter watch` prints (docs/json.md, section watch):
/// board, white, black, round, type, kind, ply, move, side, article, detail, count, source,
/// withdrawn.
face::Json alert_json(const Alert& alert);

/// The board id of a game: "Round.Board" when it has a Board tag, else "Round White - Black".
std::string board_id(const pgn::ParsedGame& game);

/// The text a reader should parse: `text` without a last token that may be cut in the middle
/// (a file caught while being written), unless that token is a termination marker.
std::string_view complete_part(std::string_view text) noexcept;

}  // namespace arbiter::watch
