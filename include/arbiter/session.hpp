// session.hpp — one live game as the arbiter sees it, driven by events: moves made and
// completed, touch-move and adjustments, draw offers, claims under 9.2/9.3 (now or with a
// written move) and their penalties, resignation, flag falls, illegal moves, quickplay-finish
// claims, and the clock. Each event carries the caller's timestamp, so a session is a pure
// function of its configuration and its events: replaying them rebuilds it exactly (journal.hpp
// stores them). An event the Laws do not allow at that moment is refused with a reason and
// changes nothing. RULES.md R-OFFER, R-TOUCH, R-CLAIM, R-FLAG, R-BOTHFLAGS, R-RESIGN,
// R-ILLEGAL, R-QPF and §4 PREC are the authority; docs/session.md says how they are applied.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/claims.hpp"
#include "arbiter/clock.hpp"
#include "arbiter/expected.hpp"
#include "arbiter/game.hpp"
#include "arbiter/procedure.hpp"
#include "arbiter/rules.hpp"

namespace arbiter {

/// Everything fixed when a session is created.
struct SessionConfig {
    RuleSetId rules = RuleSetId::fide_2023;
    /// Rule options; options.time_category is derived from the time control unless
    /// `time_category_given`.
    RuleOptions options;
    bool time_category_given = false;
    /// The clock; nullopt for a game without clocks (flag falls are then taken as reported).
    std::optional<TimeControl> time_control;
    /// The start position as FEN; empty for the standard initial position.
    std::string start_fen;
    /// Guidelines III (quickplay finish) announced before the event (III.2.1); for US Chess,
    /// Variation 14H in use.
    bool quickplay_finish = false;
    /// PGN tags.
    std::string white = "?", black = "?", event = "?", site = "?", date = "????.??.??", round = "?";
    /// PGN Section and Board tags (empty: none): where the game is played in the hall, and what an
    /// arbiter user's sections and boards name (journal.hpp, User).
    std::string section, board;

    friend bool operator==(const SessionConfig& a, const SessionConfig& b);
};

enum class EventType : std::uint8_t {
    start,             ///< the arbiter starts the clock (else it starts with the first event)
    move,              ///< a move made (piece released) and, with `press`, completed
    press,             ///< the clock pressed after a move made with press = false
    touch,             ///< a piece touched with intent to move or capture it (4.3)
    adjust,            ///< a piece adjusted after saying "I adjust" (4.2.1)
    offer,             ///< a draw offer (9.1.2)
    accept,            ///< the pending offer accepted (5.2.3)
    decline,           ///< the pending offer rejected orally
    claim,             ///< a claim under 9.2 or 9.3, now or with a written move
    resign,            ///< a player resigns (5.1.2)
    flag,              ///< a flag fall established (6.8): observed by the arbiter or claimed
    illegal_move,      ///< the arbiter rules that a player completed an illegal move (7.5)
    illegal_position,  ///< both kings in check or a pawn on the last rank after the next move (A.5.4)
    declare,           ///< US Chess 14K: the director declares a draw for lack of progress
    quickplay_claim,   ///< a claim with less than two minutes left (Guidelines III.5, Art. 10.2)
    quickplay_ruling,  ///< the arbiter's decision on it
    pause,             ///< the arbiter pauses the clock (6.12)
    resume,            ///< the arbiter restarts it
    set_clock,         ///< the arbiter sets the clocks after a malfunction or a wrong setting (6.10, 6.11)
    add_time,          ///< the arbiter gives a player time (12.9.2, a disturbance)
    forfeit,           ///< the arbiter declares the game lost (6.7 default time, 11.3 device, 12.9 conduct)
    note,              ///< the arbiter's free text for the scoresheet
    retract,           ///< the last `count` accepted events are withdrawn (a correction); nothing is deleted
};

template <>
struct EnumNames<EventType> {
    static constexpr auto names = std::to_array<const char*>({"start",
                                                              "move",
                                                              "press",
                                                              "touch",
                                                              "adjust",
                                                              "offer",
                                                              "accept",
                                                              "decline",
                                                              "claim",
                                                              "resign",
                                                              "flag",
                                                              "illegal_move",
                                                              "illegal_position",
                                                              "declare",
                                                              "quickplay_claim",
                                                              "quickplay_ruling",
                                                              "pause",
                                                              "resume",
                                                              "set_clock",
                                                              "add_time",
                                                              "forfeit",
                                                              "note",
                                                              "retract"});
};
static_assert(enum_count<EventType> == std::size_t(EventType::retract) + 1);

/// Why the arbiter declares a game lost (`forfeit`).
enum class ForfeitReason : std::uint8_t {
    default_time,  ///< arrived after the default time (6.7.1)
    device,        ///< an electronic device in the playing venue (11.3.2)
    conduct,       ///< a penalty for the player's conduct (12.9.6: the arbiter decides the opponent's score)
    disconnect,    ///< online: disconnected and did not return (FIDE online 11.4.2)
};
template <>
struct EnumNames<ForfeitReason> {
    static constexpr auto names = std::to_array<const char*>({"default_time", "device", "conduct", "disconnect"});
};
static_assert(enum_count<ForfeitReason> == std::size_t(ForfeitReason::disconnect) + 1);

/// Stable name, e.g. "quickplay_claim".
constexpr const char* event_type_name(EventType t) noexcept { return enum_name(t); }
constexpr std::optional<EventType> parse_event_type(std::string_view s) noexcept { return parse_enum<EventType>(s); }

enum class QuickplayDecision : std::uint8_t { draw, postpone, reject };
template <>
struct EnumNames<QuickplayDecision> {
    static constexpr auto names = std::to_array<const char*>({"draw", "postpone", "reject"});
};
static_assert(enum_count<QuickplayDecision> == std::size_t(QuickplayDecision::reject) + 1);
constexpr const char* quickplay_decision_name(QuickplayDecision d) noexcept { return enum_name(d); }
constexpr std::optional<QuickplayDecision> parse_quickplay_decision(std::string_view s) noexcept {
    return parse_enum<QuickplayDecision>(s);
}

struct Event {
    EventType type = EventType::move;
    std::int64_t at_ms = 0;     ///< caller's monotonic time; never earlier than the previous event
    std::optional<Color> side;  ///< who acts; when absent the session infers it (docs/session.md)
    /// move: the move (SAN or UCI); claim: the written move, empty for a claim without one.
    std::string move;
    bool press = true;             ///< move: the clock is pressed, completing the move
    bool offer = false;            ///< move: a draw offer between making the move and pressing
    Square square = Square::none;  ///< touch, adjust
    ClaimKind claim = ClaimKind::threefold;
    bool both = false;     ///< flag: both flags are down and which fell first is unknown
    bool consent = false;  ///< offer, accept: the arbiter consents (9.1.1)
    TerminationKind declared = TerminationKind::fivefold_repetition;  ///< declare
    QuickplayDecision decision = QuickplayDecision::reject;           ///< quickplay_ruling
    std::optional<std::int64_t> added_ms;  ///< quickplay_ruling: time to the opponent instead of the default; add_time
    std::optional<std::int64_t> white_ms, black_ms;      ///< set_clock: what each face shows from now on
    std::optional<int> white_moves, black_moves;         ///< set_clock: the moves each side has completed
    ForfeitReason reason = ForfeitReason::default_time;  ///< forfeit
    bool draw = false;        ///< forfeit for conduct (12.9.6): the arbiter scores the opponent a draw
    std::uint32_t count = 0;  ///< retract: how many accepted events are withdrawn
    bool force = false;       ///< retract: also past a ruling already given (the arbiter corrects it)
    std::string text;         ///< note; retract, forfeit: why

    friend bool operator==(const Event&, const Event&) = default;
};

/// The accepted events in force of a session, in order (Session keeps them for a retract), stored
/// so that a copy of the session costs little whatever their number: every full block of
/// `block_events` events is immutable and shared between the copies, and so is the list of the
/// blocks; only the last, partial block is the copy's own. A session is copied for every event
/// checked (JournaledSession::stage) and every action tried (Session::actions): a plain vector
/// cost a copy of all the events before it each time, and the service's heap kept the freed
/// copies. Copies may be read and appended to on different threads (nothing shared changes).
class EventLog {
public:
    static constexpr std::size_t block_events = 16;

    void push_back(const Event& e);
    [[nodiscard]] std::size_t size() const noexcept { return full_events_ + tail_.size(); }
    [[nodiscard]] const Event& operator[](std::size_t i) const noexcept {
        return i < full_events_ ? (*(*blocks_)[i / block_events])[i % block_events] : tail_[i - full_events_];
    }
    /// The bytes of heap this log holds (the shared blocks counted whole), without the strings
    /// of its events.
    [[nodiscard]] std::size_t heap_bytes() const noexcept;

private:
    using Block = std::vector<Event>;  // exactly block_events events, never changed once made
    using Blocks = std::vector<std::shared_ptr<const Block>>;
    std::shared_ptr<const Blocks> blocks_;  // never changed once made: a new list for a new block
    std::size_t full_events_ = 0;
    std::vector<Event> tail_;  // fewer than block_events
};

/// Why an event was refused (nothing changed), or why an encoded event or configuration could not
/// be read. `code` is stable (docs/session.md lists them): the HTTP API and the bindings map it to
/// a status or an exception; `message` is one sentence naming the rule, the field or the value.
struct EventError {
    enum class Code : std::uint8_t {
        bad_start_position,  ///< the configuration's start FEN is not a legal position
        malformed,           ///< an encoded event or configuration is not "word key=value …" text
        unknown_event_type,  ///< an encoded event names no event type
        unknown_field,       ///< an encoded event or configuration has a key it does not know
        missing_field,       ///< a field the event needs is absent: at, side, square
        bad_value,           ///< a field holds a value outside its range: a negative at_ms, an added_ms over a day
        time_goes_back,      ///< at_ms is earlier than the previous event's
        game_over,           ///< the game has already ended
        out_of_turn,         ///< the side named may not act now (it is the other player's move, offer or press)
        not_first_event,     ///< start after the clock has started
        illegal_move,        ///< the move is not a legal move (syntax, illegal or ambiguous)
        move_obligation,     ///< the move breaks an obligation: touch-move (4.3, 4.4) or a written move to be played
                             ///< (9.5.3)
        not_a_move,          ///< a claim's written move is not a move at all
        written_move_fixed,  ///< a claim's written move may not be changed (9.5.3), or rests on the move already made
                             ///< (US Chess 9G1)
        no_such_rule,  ///< the rule set has no such rule (touch-move online, both flags, illegal positions, quickplay,
                       ///< a claim)
        not_allowed_now,    ///< the rule exists but does not allow this now (time category, announcement, period, clock
                            ///< time, a move each)
        offers_forbidden,   ///< the event's regulations forbid offers and agreement before move N (9.1.1)
        offer_pending,      ///< a draw offer is already pending
        no_offer,           ///< no draw offer is pending to accept or decline
        nothing_to_press,   ///< no move waits for the clock to be pressed
        clock_not_pressed,  ///< the opponent has not yet pressed the clock (US Chess 9G1)
        no_piece,           ///< no piece (of that side) stands on the square
        flag_not_fallen,    ///< the clock shows time left on that face
        flag_fallen,        ///< the claimant's flag has already fallen
        quickplay_pending,  ///< a quickplay-finish claim awaits the arbiter's ruling, or one is already pending
        no_quickplay_claim,  ///< no quickplay-finish claim awaits a ruling
        no_clock,            ///< the game has no clock
        already_paused,      ///< the clock is already paused
        not_paused,          ///< the clock is not paused
        nothing_to_retract,  ///< a retract withdraws more events than were accepted
        ruling_given,        ///< a retract would withdraw an arbiter's ruling: give `force` to correct it
    };
    Code code;
    std::string message;
};

template <>
struct EnumNames<EventError::Code> {
    static constexpr auto names = std::to_array<const char*>(
        {"bad_start_position", "malformed",        "unknown_event_type", "unknown_field",      "missing_field",
         "bad_value",          "time_goes_back",   "game_over",          "out_of_turn",        "not_first_event",
         "illegal_move",       "move_obligation",  "not_a_move",         "written_move_fixed", "no_such_rule",
         "not_allowed_now",    "offers_forbidden", "offer_pending",      "no_offer",           "nothing_to_press",
         "clock_not_pressed",  "no_piece",         "flag_not_fallen",    "flag_fallen",        "quickplay_pending",
         "no_quickplay_claim", "no_clock",         "already_paused",     "not_paused",         "nothing_to_retract",
         "ruling_given"});
};
static_assert(enum_count<EventError::Code> == std::size_t(EventError::Code::ruling_given) + 1);
/// Stable name of a code, e.g. "out_of_turn".
constexpr const char* code_name(EventError::Code c) noexcept { return enum_name(c); }

/// One line of text ("move at=1500 move=Nf3 offer=1"), the form the journal stores.
std::string encode(const Event& e);
/// Parses encode()'s text. Errors: malformed, unknown_event_type, unknown_field, missing_field or
/// bad_value, with a message naming the field.
Expected<Event, EventError> decode_event(std::string_view text);
/// The same for a configuration (malformed, unknown_field, bad_value).
std::string encode(const SessionConfig& c);
Expected<SessionConfig, EventError> decode_config(std::string_view text);

/// How a session ended.
enum class EndKind : std::uint8_t {
    checkmate,
    stalemate,
    dead_position,
    seventy_five_moves,
    fivefold_repetition,
    threefold_repetition,  ///< a correct claim (9.2), or automatic online
    fifty_moves,           ///< a correct claim (9.3), or automatic online
    agreement,
    resignation,
    time_forfeit,  ///< a flag fall (a win, or a draw when the opponent cannot mate)
    both_flags,
    illegal_moves,     ///< 7.5.5
    illegal_position,  ///< A.5.4
    quickplay_finish,  ///< III.5 / 10.2
    forfeit,           ///< the arbiter declared the game lost (6.7, 11.3, 12.9)
};
template <>
struct EnumNames<EndKind> {
    static constexpr auto names = std::to_array<const char*>(
        {"checkmate", "stalemate", "dead_position", "seventy_five_moves", "fivefold_repetition", "threefold_repetition",
         "fifty_moves", "agreement", "resignation", "time_forfeit", "both_flags", "illegal_moves", "illegal_position",
         "quickplay_finish", "forfeit"});
};
static_assert(enum_count<EndKind> == std::size_t(EndKind::forfeit) + 1);
constexpr const char* end_kind_name(EndKind k) noexcept { return enum_name(k); }

/// The endings of the rules layer come first, in the same order and with the same names, so that
/// a Termination's kind converts to an EndKind by value.
constexpr EndKind end_kind_of(TerminationKind k) noexcept { return static_cast<EndKind>(k); }
static_assert([] {
    for (TerminationKind k : enum_values<TerminationKind>())
        if (std::string_view(enum_name(k)) != enum_name(end_kind_of(k))) return false;
    return true;
}());

struct SessionEnd {
    EndKind kind;
    std::string result;  ///< "1-0", "0-1", "1/2-1/2"
    std::string article;
    std::string reason;  ///< one sentence for the players
    std::size_t ply;     ///< record index at the end
    std::int64_t at_ms;
};

/// Time added to the opponent of `side`, and taken from `side` (FIDE 2005), for an incorrect
/// claim, a completed illegal move or a rejected quickplay claim.
struct Penalty {
    Color side;                 ///< the player penalised
    std::int64_t added_ms = 0;  ///< added to the opponent's clock
    std::int64_t deducted_ms = 0;
    std::string article;
};

/// The ruling on a 9.2/9.3 claim.
struct ClaimRuling {
    ClaimVerdict verdict;    ///< the rules layer's verdict (article 9.4 when the right was lost)
    bool admissible = true;  ///< false: the right to claim on this move was lost (9.4)
    std::optional<Penalty> penalty;
    std::int64_t at_ms = 0;
    std::size_t ply = 0;
};

/// After an incorrect claim with a written move: that move must be played (9.5.3), or, when it
/// is not legal, another move with that piece (Arbiters' Manual).
struct MustPlay {
    std::string written;        ///< as written, e.g. "Ng1"
    bool legal = true;          ///< false: the written move is illegal here
    std::vector<Move> allowed;  ///< the moves that satisfy the obligation (empty: any move)
};

/// A draw offer that has not yet been accepted or rejected.
struct Offer {
    Color by;
    std::size_t ply;         ///< record index when it was made
    bool irregular = false;  ///< not made between a move and the clock press (9.1.2.1, 11.5)
    bool by_claim = false;   ///< implied by a claim (9.1.2.3)
};

/// One line of the session's log, for the scoresheet and PGN comments.
struct Note {
    std::size_t ply;  ///< after the move at this record index (0 = before the first move)
    std::string text;
};

/// Per move: SAN, when it was completed and what the mover's clock showed then.
struct MoveEntry {
    std::string san;
    std::int64_t made_at = 0;
    std::optional<std::int64_t> clock_ms;  ///< the mover's clock after completing the move
    std::optional<Color> offer_by;         ///< a draw offer is recorded with this move, "(=)"
};

/// One thing that can happen at the board, and whether the Laws allow it now (Session::actions).
struct ActionCheck {
    const char* name;                   ///< move, touch, offer, accept, … (Session::action_names)
    std::optional<EventError> refusal;  ///< why the session would refuse it now; nullopt: allowed
};

class Session {
public:
    /// The actions Session::actions() reports, in its order.
    static constexpr std::array<const char*, 14> action_names{
        "move",   "touch", "offer", "accept", "decline",      "claim_threefold", "claim_fifty", "claim_quickplay",
        "resign", "flag",  "pause", "resume", "illegal_move", "illegal_position"};

    /// A new session. Errors: a bad start FEN.
    static Expected<Session, EventError> create(SessionConfig config, const Unwinnability* analyzer = nullptr);

    /// Applies one event. Errors: EventError with the reason it was refused; the session is
    /// then unchanged (every check runs before anything changes).
    std::optional<EventError> apply(const Event& e);

    [[nodiscard]] const SessionConfig& config() const noexcept { return config_; }
    [[nodiscard]] const RuleSet& rules() const noexcept { return record_.rules(); }
    [[nodiscard]] const ProcedureRules& procedure() const noexcept { return procedure_rules(config_.rules); }
    [[nodiscard]] const GameRecord& record() const noexcept { return record_; }
    [[nodiscard]] bool ended() const noexcept { return end_.has_value(); }
    [[nodiscard]] const std::optional<SessionEnd>& end() const noexcept { return end_; }
    /// "1-0", "0-1", "1/2-1/2", or "*" while the game goes on.
    [[nodiscard]] std::string result() const { return end_ ? end_->result : "*"; }
    [[nodiscard]] const std::optional<Clock>& clock() const noexcept { return clock_; }
    /// A face's time as of the last event.
    [[nodiscard]] std::optional<std::int64_t> clock_ms(Color side) const noexcept;
    [[nodiscard]] const std::optional<Offer>& pending_offer() const noexcept { return offer_; }
    [[nodiscard]] const std::optional<ClaimRuling>& last_ruling() const noexcept { return last_ruling_; }
    [[nodiscard]] const std::optional<MustPlay>& must_play() const noexcept { return must_play_; }
    /// Squares touched with intent this turn by the player having the move, in order.
    [[nodiscard]] const std::vector<Square>& touched() const noexcept { return touched_; }
    /// The player having the move lost the right to claim on this move (9.4).
    [[nodiscard]] bool claim_right_lost() const noexcept { return claim_right_lost_; }
    /// The side that has made a move but not yet pressed the clock.
    [[nodiscard]] std::optional<Color> awaiting_press() const noexcept { return awaiting_press_; }
    /// A quickplay claim awaiting the arbiter (III.5), or postponed (III.5.2).
    [[nodiscard]] std::optional<Color> quickplay_pending() const noexcept { return quickplay_pending_; }
    [[nodiscard]] bool quickplay_postponed() const noexcept { return quickplay_postponed_; }
    [[nodiscard]] int illegal_moves(Color side) const noexcept { return illegal_[index(side)]; }
    [[nodiscard]] const std::vector<MoveEntry>& moves() const noexcept { return moves_; }
    [[nodiscard]] const std::vector<Note>& notes() const noexcept { return notes_; }
    [[nodiscard]] std::size_t events_applied() const noexcept { return events_; }
    [[nodiscard]] std::int64_t last_event_ms() const noexcept { return last_at_; }

    /// What a console may offer now: each of action_names tried as an event on a copy of this
    /// session, at the time of the last event, by the side that would do it — the side to move
    /// for a move, touch, resignation or illegal move; the side the session infers for an offer,
    /// an answer or a claim; either side for a flag. Allowed means the session would accept the
    /// event; a claim may still be ruled incorrect, with its penalty. A refusal that depends on
    /// the time (a flag not yet fallen, a quickplay claim with more than two minutes left) holds
    /// as of the last event's time.
    [[nodiscard]] std::vector<ActionCheck> actions() const;

    /// Every piece of state as canonical text: two sessions are in the same state exactly when
    /// their summaries are equal. Without `texts`, the explanations (reasons, notes) are left
    /// out: what remains is what the game's outcome depends on.
    [[nodiscard]] std::string summary(bool texts = true) const;
    /// A hash of summary(false), stored with each journaled event and checked on replay; the
    /// wording of a ruling may change between versions without making old journals unreadable.
    [[nodiscard]] std::uint64_t digest() const;

private:
    Session(SessionConfig config, GameRecord record);

    // Each handler checks everything first and changes the session only when it accepts.
    std::optional<EventError> on_start(const Event& e);
    std::optional<EventError> on_move(const Event& e);
    std::optional<EventError> on_press(const Event& e);
    std::optional<EventError> on_touch(const Event& e, bool adjust);
    std::optional<EventError> on_offer(const Event& e);
    std::optional<EventError> on_answer(const Event& e, bool accept);
    std::optional<EventError> on_claim(const Event& e);
    struct ClaimBasis;  // src/session_claims.cpp
    [[nodiscard]] Expected<ClaimBasis, EventError> claim_basis(const Event& e) const;
    std::string rule_incorrect_claim(const Event& e, const ClaimBasis& b, ClaimRuling& ruling);
    std::optional<EventError> on_resign(const Event& e);
    std::optional<EventError> on_flag(const Event& e);
    std::optional<EventError> on_illegal_move(const Event& e);
    std::optional<EventError> on_illegal_position(const Event& e);
    std::optional<EventError> on_declare(const Event& e);
    std::optional<EventError> on_quickplay_claim(const Event& e);
    std::optional<EventError> on_quickplay_ruling(const Event& e);
    std::optional<EventError> on_pause(const Event& e, bool pause);
    std::optional<EventError> on_set_clock(const Event& e);
    std::optional<EventError> on_add_time(const Event& e);
    std::optional<EventError> on_forfeit(const Event& e);
    std::optional<EventError> on_note(const Event& e);
    /// Rebuilds the session from its configuration without the last e.count events in force.
    std::optional<EventError> on_retract(const Event& e);

    [[nodiscard]] Color to_move() const noexcept { return record_.current().turn(); }
    /// 9.1.1; `with_move`: the offer comes with a move being made now, which counts.
    [[nodiscard]] std::optional<EventError> check_offers_allowed(Color side, bool consent,
                                                                 bool with_move = false) const;
    [[nodiscard]] std::optional<EventError> check_move_obligations(Move m) const;
    [[nodiscard]] bool opponent_can_mate(Color loser, std::string& why) const;
    void start_clock_if_needed(std::int64_t at);
    void finish(EndKind kind, std::string result, std::string article, std::string reason, std::int64_t at);
    void penalise(Penalty& p, std::int64_t at);
    void note(std::string text);
    void end_turn_state();

    SessionConfig config_;
    GameRecord record_;
    const Unwinnability* analyzer_;
    std::optional<Clock> clock_;
    std::optional<SessionEnd> end_;
    std::optional<Offer> offer_;
    std::optional<ClaimRuling> last_ruling_;
    std::optional<MustPlay> must_play_;
    std::vector<Square> touched_;
    bool claim_right_lost_ = false;
    std::optional<Color> awaiting_press_;
    std::optional<Color> quickplay_pending_;
    bool quickplay_postponed_ = false;
    std::array<int, 2> illegal_{};
    std::vector<MoveEntry> moves_;
    std::vector<Note> notes_;
    std::size_t events_ = 0;
    std::int64_t last_at_ = 0;
    /// The accepted events in force, in order: what a retract rebuilds from. A retract stands in
    /// it as a marker (its `text` the note it wrote), which later retracts do not count.
    EventLog in_force_;
};

}  // namespace arbiter
