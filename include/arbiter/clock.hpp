// clock.hpp — time controls and the chess clock of a live game: periods (e.g. 40 moves in 90
// minutes, then 30 minutes for the rest), Fischer increment, Bronstein delay and simple (US)
// delay, pausing (an arbiter stopping the clock, a claim under 9.5.1), and flag falls. The
// clock never reads the system time: every change carries the caller's timestamp in
// milliseconds, so a game is deterministic and can be replayed exactly.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/expected.hpp"
#include "arbiter/rules.hpp"
#include "arbiter/types.hpp"

namespace arbiter {

/// What a period adds per move.
enum class Bonus : std::uint8_t {
    none,
    increment,  ///< Fischer: added after each completed move ("+30")
    bronstein,  ///< Bronstein delay: the time used on the move, up to the delay, is given back ("b5")
    delay,      ///< simple (US) delay: the clock waits this long before it counts down ("d5")
};

struct TimePeriod {
    int moves = 0;             ///< moves to complete in the period; 0 = all remaining moves
    std::int64_t base_ms = 0;  ///< time given at the start of the period
    Bonus bonus = Bonus::none;
    std::int64_t bonus_ms = 0;  ///< the increment or delay per move
    friend bool operator==(const TimePeriod&, const TimePeriod&) = default;
};

/// A time control: its periods in order. When the last period has a move count, it repeats
/// (the classical "40 moves in 2 hours, and so on").
struct TimeControl {
    std::vector<TimePeriod> periods;
    friend bool operator==(const TimeControl&, const TimeControl&) = default;
};

struct TimeControlError {
    std::size_t offset;  ///< byte offset in the text
    std::string message;
};

/// Parses the PGN TimeControl tag form: periods separated by ':', each "[MOVES/]SECONDS" with an
/// optional per-move bonus "+N" (Fischer increment), and two extensions for delays PGN cannot
/// express, "dN" (simple delay) and "bN" (Bronstein delay). Examples: "300", "5400+30",
/// "40/5400+30:1800+30", "7200d5". Errors: TimeControlError ("?" unknown, "*N" sandglass and
/// "-" no control are refused: a session without a clock simply has no time control).
Expected<TimeControl, TimeControlError> parse_time_control(std::string_view text);
/// The canonical text of a time control (parse_time_control round-trips it).
std::string to_string(const TimeControl& tc);

/// The time category the Laws derive from a time control (A.1, B.1): the time for all moves
/// plus 60 times the per-move bonus of the first period (a delay counts as a bonus [I]);
/// 10 minutes or less is blitz, less than 60 minutes rapid, otherwise standard.
TimeCategory derive_time_category(const TimeControl& tc) noexcept;

/// A chess clock with two faces. Times are in milliseconds on the caller's monotonic scale;
/// every call takes `at` ≥ the previous call's `at` (precondition).
///
/// A flag falls when a face reaches zero; the face then shows 0 and keeps its flag until the
/// side starts a new period (completes the period's moves), and the side gets no increment,
/// delay or added time meanwhile [I, digital-clock behaviour]. Whether a fallen flag ends the
/// game is for the session to decide (6.8: a flag counts when observed or claimed).
class Clock {
public:
    explicit Clock(TimeControl tc);

    [[nodiscard]] const TimeControl& time_control() const noexcept { return tc_; }

    /// Starts `side`'s face (the start of the game). No-op when a face already runs.
    void start(Color side, std::int64_t at);
    /// `mover` completes a move (presses the clock): its face stops, the period's bonus is
    /// applied, a new period begins when the move completes one, and the opponent's face runs.
    /// Pressing a paused clock also resumes it.
    void press(Color mover, std::int64_t at);
    void pause(std::int64_t at);
    void resume(std::int64_t at);
    /// Stops both faces for good (the game ended).
    void stop(std::int64_t at);
    /// Adds time to a face (penalty to the opponent, 9.5.3, 7.5.5). No effect on a fallen flag.
    void add(Color side, std::int64_t ms, std::int64_t at);
    /// Sets a face (FIDE 2005 claimant deduction).
    void set(Color side, std::int64_t ms, std::int64_t at);
    /// The arbiter corrects a face after a malfunction or a wrong setting (6.10, 6.11): the time it
    /// shows from `at` on, a fallen flag raised again, and when given, the moves completed (the
    /// period is the one that count falls in; its time is the `ms` given).
    void correct(Color side, std::int64_t ms, std::optional<int> moves, std::int64_t at);

    /// The time a face shows at `at` (≥ 0; a simple delay not yet used up is not shown).
    [[nodiscard]] std::int64_t remaining(Color side, std::int64_t at) const noexcept;
    /// When the side's flag fell in its current period, if it has.
    [[nodiscard]] std::optional<std::int64_t> flag_fell_at(Color side, std::int64_t at) const noexcept;
    [[nodiscard]] bool flag_down(Color side, std::int64_t at) const noexcept {
        return flag_fell_at(side, at).has_value();
    }

    /// The face that runs (or would run, when paused); nullopt before the start and after stop().
    [[nodiscard]] std::optional<Color> running() const noexcept { return running_; }
    [[nodiscard]] bool paused() const noexcept { return paused_; }
    [[nodiscard]] bool started() const noexcept { return started_; }
    /// Moves the side has completed (pressed) in the game.
    [[nodiscard]] int moves_completed(Color side) const noexcept { return moves_[index(side)]; }
    /// Index of the side's current period (in time_control().periods, the last one repeating).
    [[nodiscard]] std::size_t period_index(Color side) const noexcept { return period_[index(side)]; }
    [[nodiscard]] const TimePeriod& period(Color side) const noexcept;
    /// True when the side's current period is the one in which all remaining moves must be
    /// completed (moves == 0).
    [[nodiscard]] bool in_last_period(Color side) const noexcept { return period(side).moves == 0; }

    friend bool operator==(const Clock&, const Clock&) = default;

private:
    /// Brings the running face up to `at`: counts the time used and records a flag fall.
    void settle(std::int64_t at);
    /// The running face's time used in this turn, as counted against it (delay applied).
    [[nodiscard]] std::int64_t charged(std::int64_t turn_elapsed) const noexcept;

    TimeControl tc_;
    std::array<std::int64_t, 2> base_{};  ///< time at the start of the side's turn (or now, when not running)
    std::array<std::optional<std::int64_t>, 2> fell_at_{};
    std::array<int, 2> moves_{};
    std::array<std::size_t, 2> period_{};
    std::array<int, 2> period_moves_{};  ///< moves completed in the current period
    std::optional<Color> running_;
    bool started_ = false;
    bool paused_ = false;
    std::int64_t turn_elapsed_ = 0;  ///< running face: time run in this turn as of settled_at_
    std::int64_t settled_at_ = 0;
};

/// "1:29:57" (hours shown when any), "4:05", "0:07.3" under 10 seconds: how clocks show a time.
std::string format_clock(std::int64_t ms);
/// "1:29:57" always with hours, as PGN %clk comments write it (tenths dropped).
std::string format_pgn_clock(std::int64_t ms);

}  // namespace arbiter
