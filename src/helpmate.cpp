// helpmate.cpp — HelpmateAnalyzer: the stages, cheapest first (see helpmate.hpp).
#include "arbiter/helpmate.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "arbiter/attacks.hpp"
#include "arbiter/movegen.hpp"
#include "helpmate/impl.hpp"
#include "movegen_impl.hpp"

namespace arbiter {

namespace {
// The interrupt of this thread's searches (SearchInterrupt): its poll and whether it fired.
struct InterruptState {
    SearchInterrupt::Poll poll = nullptr;
    void* context = nullptr;
    bool fired = false;
};
thread_local InterruptState interrupt_state;
}  // namespace

SearchInterrupt::SearchInterrupt(Poll poll, void* context) noexcept
    : previous_poll_(interrupt_state.poll),
      previous_context_(interrupt_state.context),
      previous_fired_(interrupt_state.fired) {
    interrupt_state = {poll, context, false};
}

SearchInterrupt::~SearchInterrupt() { interrupt_state = {previous_poll_, previous_context_, previous_fired_}; }

bool SearchInterrupt::fired() const noexcept { return interrupt_state.fired; }

bool SearchInterrupt::requested() noexcept {
    InterruptState& st = interrupt_state;
    if (st.fired) return true;
    if (!st.poll) return false;
    st.fired = st.poll(st.context);
    return st.fired;
}

namespace {

constexpr int forced_line_depth = 8;
constexpr std::uint64_t forced_line_nodes = 400;

/// The static stages (1-4 of helpmate.hpp) without strings: what they decide, or nothing.
struct StaticAnswer {
    MateAbility answer = MateAbility::unknown;
    MateProof proof = MateProof::none;
    const char* reason = "";
    bool lines_tried = false, blockade_tried = false;  // what the fast check already tried in vain
};

/// The cheap static stages: the game is over, the material rules, and the sound fast check
/// (each of its proofs behind a gate of a few nanoseconds; about a microsecond in all).
StaticAnswer cheap_stages(const Position& pos, Color side, std::uint64_t& nodes) {
    // 1. The game is over: the side has mated already here; the fast check below answers for
    //    stalemate and for the side mated (one test for legal moves in all).
    if (pos.in_check() && pos.turn() != side && !has_legal_move(pos))
        return {MateAbility::can_checkmate, MateProof::already_mated, "already checkmated the opponent"};
    // 2. Material, and the gated static proofs of the fast check (its small searches are left
    //    to the exhaustive search of the rounds below).
    const detail::FastProof fast = detail::fast_unwinnable(pos, side, false);
    nodes += fast.nodes;
    if (fast.proof != MateProof::none) return {MateAbility::cannot_checkmate, fast.proof, fast.reason};
    return {MateAbility::unknown, MateProof::none, "", fast.lines_tried, fast.blockade_tried};
}

/// The static stages the fast check gates, without their gates (3 and 4 of helpmate.hpp): run
/// after the quick guided search, which settles nearly every position where a mate is reachable.
/// What the fast check already tried in vain (`cheap`) is not tried again.
StaticAnswer ungated_stages(const Position& pos, Color side, const StaticAnswer& cheap, std::uint64_t& nodes) noexcept {
    // 3. Every line soon reaches a position where the material cannot mate.
    if (!cheap.lines_tried && detail::all_lines_end(pos, side, forced_line_depth, nodes, forced_line_nodes))
        return {MateAbility::cannot_checkmate, MateProof::exhaustive_search,
                "every line soon leaves material that cannot mate"};
    // 4. Blockade.
    if (!cheap.blockade_tried && detail::blockade_candidate(pos) && detail::blockade_proof(pos, side))
        return {MateAbility::cannot_checkmate, MateProof::blockade,
                "blockade: no unit that could give mate can ever reach a mating pattern"};
    return {};
}

/// Mating material that is free to act: a queen or rook, a pawn not blocked head-on, or two
/// minor pieces that are not bishops of one colour.
inline bool material_in_play(const Position& pos, Color side) noexcept {
    const Bitboard ours = pos.pieces(side);
    if (ours & (pos.pieces(PieceType::queen) | pos.pieces(PieceType::rook))) return true;
    const Bitboard pawns = pos.pieces(side, PieceType::pawn);
    const Bitboard blockers = pos.pieces(~side, PieceType::pawn).shifted(side == Color::white ? -8 : 8);
    if (pawns & ~blockers) return true;
    const Bitboard minors = ours & (pos.pieces(PieceType::knight) | pos.pieces(PieceType::bishop));
    const Bitboard bishops = pos.pieces(side, PieceType::bishop);
    const bool one_colour = minors == bishops && ((bishops & Bitboard::light_squares()) == bishops ||
                                                  (bishops & Bitboard::dark_squares()) == bishops);
    return minors.more_than_one() && !one_colour;
}

/// The short forced lines of the automatic check (docs/unwinnability.md, "The automatic check
/// after every ply"): looked for when at most `forced_units` units can move or be taken soon and
/// the side to move has at most `forced_moves` legal moves.
constexpr int forced_units = 12;
constexpr int forced_mover_units = 2;
constexpr std::size_t forced_moves = 3;
constexpr int forced_depth = 8;
constexpr std::uint64_t forced_nodes = 400;

/// True when the side to move has at most `forced_moves` legal moves: the move generator stops
/// as soon as it has counted more (most often after the king's moves).
struct FewMovesSink : detail::CountSink {
    static constexpr bool stop_early = true;
    [[nodiscard]] bool done() const noexcept { return n > forced_moves; }
};

bool few_legal_moves(const Position& pos) noexcept {
    FewMovesSink sink;
    detail::generate(pos, sink);
    return sink.n <= forced_moves;
}

/// Counts legal moves up to one past `limit`.
struct CountUpToSink : detail::CountSink {
    static constexpr bool stop_early = true;
    std::uint64_t limit = 0;
    [[nodiscard]] bool done() const noexcept { return n > limit; }
};

/// True when the side to move has more than `limit` legal moves (counting stops there).
bool has_more_moves_than(const Position& pos, std::size_t limit) noexcept {
    CountUpToSink sink;
    sink.limit = limit;
    detail::generate(pos, sink);
    return sink.n > limit;
}

/// Units that can move or be taken soon: every piece but the kings, and the pawns not blocked
/// head-on by an enemy pawn.
Bitboard loose_units(const Position& pos) noexcept {
    const Bitboard wp = pos.pieces(Color::white, PieceType::pawn), bp = pos.pieces(Color::black, PieceType::pawn);
    const Bitboard blocked = (wp & bp.shifted(-8)) | (bp & wp.shifted(8));
    return pos.occupied() & ~pos.pieces(PieceType::king) & ~blocked;
}

/// A king walled in by pawns: every square next to it holds its own unit, is attacked by an
/// enemy pawn, or holds a defended enemy pawn. Such a wall makes a pawn race, which the
/// exhaustive search settles, like pawns blocked head-on.
bool walled_in(const Position& pos, Color c) noexcept {
    const Square k = pos.king_square(c);
    const Bitboard occ = pos.occupied() ^ Bitboard(k);
    const Bitboard their_pawns = pos.pieces(~c, PieceType::pawn);
    for (Square n : king_attacks(k) & ~pos.pieces(c)) {
        if (pawn_attacks(c, n) & their_pawns) continue;
        if (their_pawns.contains(n) && pos.attacked_by(~c, n, occ)) continue;
        return false;
    }
    return true;
}

/// A queen or rook of `c` that has a square to go to: one boxed in by its own units (a rook on
/// g1 behind its king, bishop and pawns) is no mating force for now, and a closed position
/// with such a piece is settled like one without it.
bool free_heavy_piece(const Position& pos, Color c) noexcept {
    const Bitboard own = pos.pieces(c), occ = pos.occupied();
    for (Square s : own&(pos.pieces(PieceType::queen) | pos.pieces(PieceType::rook)))
        if (attacks(type_of(pos.piece_at(s)), s, occ) & ~own) return true;
    return false;
}

/// The previous automatic check of each side on this thread, so that the answer can carry over
/// to the next ply of the same game when that is provably right.
struct AbilityMemo {
    Position pos;
    MateAbility answer = MateAbility::unknown;
    bool valid = false;
};

std::array<AbilityMemo, 2>& ability_memo() {
    thread_local std::array<AbilityMemo, 2> memo;
    return memo;
}

/// Answers of the analysis kept per thread by position (direct-mapped on the Zobrist key, the
/// position itself compared): the positions of openings and common endings come back from game
/// to game, on the boards of a hall or in a database. An answer is a fact about the position, so
/// it holds whichever analyzer found it.
struct AnswerCache {
    struct Slot {
        Position pos;
        std::array<MateAbility, 2> answer{MateAbility::unknown, MateAbility::unknown};
        bool valid = false;
    };
    static constexpr std::size_t size = 4096;
    // Zero-filled: every slot starts invalid, and is written whole before it is read.
    std::unique_ptr<Slot[], detail::FreeDeleter> slots;
    Slot& slot(const Position& pos) {
        if (!slots) {
            detail::count_thread_table(size * sizeof(Slot));
            slots = detail::zeroed_array<Slot>(size);
        }
        return slots[pos.key() & (size - 1)];
    }
};

AnswerCache& answer_cache() {
    thread_local AnswerCache cache;
    return cache;
}

/// True when `next` follows `prev` by one legal move.
bool follows(const Position& prev, const Position& next) {
    if (prev.turn() == next.turn()) return false;
    for (Move m : legal_moves(prev))
        if (prev.after(m).same_position(next)) return true;
    return false;
}

/// True when `prev` can be reached again from `now`, one ply later: the last move was a
/// reversible piece move g (no capture, no pawn, no change of castling rights, no en passant
/// right lost) and the side to move has a reversible move h such that h, g undone, h undone is
/// legal. Then every mate reachable from `prev` is reachable from `now`.
bool returns_to(const Position& now, const Position& prev) {
    if (prev.turn() == now.turn() || prev.castling_rooks() != now.castling_rooks() ||
        prev.legal_ep_square() != Square::none)
        return false;
    const Bitboard changed = prev.occupied() ^ now.occupied();
    if (changed.count() != 2 || prev.occupied().count() != now.occupied().count()) return false;
    const Square from = (changed & prev.occupied()).first(), to = (changed & now.occupied()).first();
    const Piece moved = prev.piece_at(from);
    if (moved != now.piece_at(to) || type_of(moved) == PieceType::pawn || color_of(moved) != prev.turn()) return false;
    const Move back = Move::normal(to, from);
    for (Move h : legal_moves(now)) {
        if (h.is_castling() || now.is_zeroing(h)) continue;
        const Position a = now.after(h);
        if (a.castling_rooks() != now.castling_rooks() || !a.is_legal(back)) continue;
        const Position b = a.after(back);
        const Move undo = Move::normal(h.to(), h.from());
        if (b.is_legal(undo) && b.after(undo).same_position(prev)) return true;
    }
    return false;
}

/// The forced-line proof of the automatic check: true when every line from `pos` ends the game
/// without a checkmate — in a stalemate or in material that cannot mate for either side —
/// passing only positions where a side has mating material free to act and the side to move has
/// at most `forced_moves` legal moves, within `forced_depth` plies and `forced_nodes` positions.
/// False means "not shown", never "a mate".
struct ForcedLines {
    std::uint64_t nodes = 0;

    bool end(const Position& pos, int depth) {
        if (++nodes > forced_nodes) return false;
        MoveList moves;
        legal_moves(pos, moves);
        if (moves.empty()) return !pos.in_check();
        if (detail::material_cannot_mate(pos, Color::white) && detail::material_cannot_mate(pos, Color::black))
            return true;
        if (depth == 0 || moves.size() > forced_moves) return false;
        if (!material_in_play(pos, Color::white) && !material_in_play(pos, Color::black)) return false;
        for (Move m : moves)
            if (!end(pos.after(m), depth - 1)) return false;
        return true;
    }
};

/// The last forced-line answer on this thread: the automatic check asks for both sides in turn.
struct ForcedMemo {
    Position pos;
    bool dead = false;
    bool valid = false;
};

ForcedMemo& forced_memo() {
    thread_local ForcedMemo memo;
    return memo;
}

/// The endings where dead positions live: the previous ply's answer for `side` carried over
/// when it provably holds (no mate from the earlier position means none from a later one; a
/// mate from a position that can be reached again is still reachable), else the full analysis.
[[gnu::noinline]] MateAbility remembered_ability(const HelpmateAnalyzer& analyzer, const Position& pos, Color side) {
    AbilityMemo& memo = ability_memo()[static_cast<std::size_t>(index(side))];
    if (memo.valid) {
        if (memo.pos.same_position(pos)) return memo.answer;
        if (memo.answer == MateAbility::cannot_checkmate && follows(memo.pos, pos)) {
            memo.pos = pos;
            return memo.answer;
        }
        if (memo.answer == MateAbility::can_checkmate && returns_to(pos, memo.pos)) {
            memo.pos = pos;
            return memo.answer;
        }
    }
    AnswerCache::Slot& slot = answer_cache().slot(pos);
    const std::size_t s = static_cast<std::size_t>(index(side));
    if (slot.valid && slot.answer[s] != MateAbility::unknown && slot.pos.same_position(pos)) {
        memo = AbilityMemo{pos, slot.answer[s], true};
        return slot.answer[s];
    }
    const MateAbility a = analyzer.can_checkmate(pos, side).answer;
    memo = AbilityMemo{pos, a, a != MateAbility::unknown};
    if (a != MateAbility::unknown) {
        if (!slot.valid || !slot.pos.same_position(pos))
            slot = AnswerCache::Slot{pos, {MateAbility::unknown, MateAbility::unknown}, true};
        slot.answer[s] = a;
    }
    return a;
}

/// The forced lines behind the fast exit's gate: true when the position is shown dead. The
/// gate: at most `forced_mover_units` loose units of the side to move and at most
/// `forced_moves` legal moves (the caller has checked the units on the board).
[[gnu::noinline]] bool forced_end(const Position& pos) noexcept {
    if ((loose_units(pos) & pos.pieces(pos.turn())).count() > forced_mover_units || !few_legal_moves(pos)) return false;
    ForcedMemo& memo = forced_memo();
    if (memo.valid && memo.pos.same_position(pos)) return memo.dead;
    ForcedLines lines;
    const bool dead = lines.end(pos, forced_depth);
    memo = ForcedMemo{pos, dead, true};
    return dead;
}

/// has_locked_units, remembered for the last position on this thread: the automatic check
/// asks for both sides in turn.
bool locked(const Position& pos) noexcept {
    struct LockedMemo {
        Position pos;
        bool locked = false;
        bool valid = false;
    };
    thread_local LockedMemo memo;
    if (memo.valid && memo.pos.same_position(pos)) return memo.locked;
    memo = LockedMemo{pos, bool(detail::locked_units(pos)), true};
    return memo.locked;
}

}  // namespace

bool HelpmateAnalyzer::fast_exit(const Position& pos) noexcept {
    if (detail::material_cannot_mate(pos, Color::white) && detail::material_cannot_mate(pos, Color::black))
        return false;
    if (!material_in_play(pos, Color::white) && !material_in_play(pos, Color::black)) return false;
    if ((pos.occupied() & ~pos.pieces(PieceType::king)).count() <= forced_units && forced_end(pos)) return false;
    return !locked(pos);
}

bool HelpmateAnalyzer::has_locked_units(const Position& pos) noexcept { return bool(detail::locked_units(pos)); }

namespace {

constexpr Bitboard file_a{0x0101010101010101ULL}, file_h{0x8080808080808080ULL};

/// Pawns of `c` with no enemy pawn ahead of them on their file or the next ones (passed pawns):
/// a pawn that may run through.
Bitboard passed_pawns(const Position& pos, Color c) noexcept {
    const int back = c == Color::white ? -8 : 8;  // from an enemy pawn towards c's side
    Bitboard span = pos.pieces(~c, PieceType::pawn).shifted(back);
    for (int i = 0; i < 5; ++i) span |= span.shifted(back);
    span |= (span & ~file_h).shifted(1) | (span & ~file_a).shifted(-1);
    return pos.pieces(c, PieceType::pawn) & ~span;
}

/// The squares the pieces (not pawns, not kings) of both sides attack that do not hold a unit of
/// their own, counted; stops counting past `limit`.
int piece_mobility(const Position& pos, int limit) noexcept {
    const Bitboard occ = pos.occupied();
    int n = 0;
    for (Color c : {Color::white, Color::black}) {
        const Bitboard own = pos.pieces(c);
        for (Square s : own & ~pos.pieces(PieceType::pawn) & ~pos.pieces(PieceType::king)) {
            n += (attacks(type_of(pos.piece_at(s)), s, occ) & ~own).count();
            if (n > limit) return n;
        }
    }
    return n;
}

/// True when the king of `c` has at most `limit` squares to go to (not its own units', not
/// attacked): a king in a pen.
bool king_squares(const Position& pos, Color c, int limit) noexcept {
    const Square k = pos.king_square(c);
    const Bitboard occ = pos.occupied() ^ Bitboard(k);
    int n = 0;
    for (Square to : king_attacks(k) & ~pos.pieces(c))
        if (!pos.attacked_by(~c, to, occ) && ++n > limit) return false;
    return true;
}

/// At most `limit` moves of the side not to move, counted as if it were its turn, without
/// legality but for its king's (pseudo-legal moves: never fewer than the legal ones).
bool opponent_nearly_frozen(const Position& pos, int limit) noexcept {
    const Color c = ~pos.turn();
    const Bitboard occ = pos.occupied(), own = pos.pieces(c), empty = ~occ;
    const Bitboard pawns = pos.pieces(c, PieceType::pawn);
    const int up = c == Color::white ? 8 : -8;
    const Bitboard single = pawns.shifted(up) & empty;
    const Bitboard start_rank_ahead = Bitboard::rank(c == Color::white ? Rank(2) : Rank(5));
    int n = single.count() + ((single & start_rank_ahead).shifted(up) & empty).count();
    for (Square s : pawns) n += (pawn_attacks(c, s) & pos.pieces(pos.turn())).count();
    if (n > limit) return false;
    for (Square s : own & ~pos.pieces(PieceType::pawn) & ~pos.pieces(PieceType::king)) {
        n += (attacks(type_of(pos.piece_at(s)), s, occ) & ~own).count();
        if (n > limit) return false;
    }
    const Square k = pos.king_square(c);
    for (Square to : king_attacks(k) & ~own)
        if (!pos.attacked_by(pos.turn(), to, occ ^ Bitboard(k)) && ++n > limit) return false;
    return true;
}

}  // namespace

bool HelpmateAnalyzer::may_be_closed(const Position& pos) noexcept {
    // Pens: pawns blocked head-on, no passed pawn, pieces with next to no squares (a rook that
    // shuffles behind a wall, bishops shut in) and a king with at most two. Forced stalemates: the side not to
    // move has next to no move, so that a move of the side to move may leave it none. Units
    // locked for ever. Measured on the test vectors and the real games in docs/unwinnability.md.
    const Bitboard wp = pos.pieces(Color::white, PieceType::pawn), bp = pos.pieces(Color::black, PieceType::pawn);
    if ((wp & bp.shifted(-8)) && !passed_pawns(pos, Color::white) && !passed_pawns(pos, Color::black) &&
        piece_mobility(pos, 10) <= 10 && (king_squares(pos, Color::white, 2) || king_squares(pos, Color::black, 2)))
        return true;
    if (!pos.in_check() && opponent_nearly_frozen(pos, 2)) return true;
    // A single legal move that leaves the other side next to none: a forced stalemate or a
    // forced capture with much material on the board.
    if (!has_more_moves_than(pos, 1)) {
        const MoveList moves = legal_moves(pos);
        if (moves.size() == 1 && !has_more_moves_than(pos.after(moves[0]), 2)) return true;
    }
    return has_locked_units(pos);
}

std::size_t analysis_thread_memory() noexcept { return detail::thread_table_bytes(); }

const HelpmateAnalyzer& unwinnability_without_locked_check() noexcept {
    static const HelpmateAnalyzer analyzer([] {
        HelpmateOptions o;
        o.check_locked = false;
        o.exact = false;
        return o;
    }());
    return analyzer;
}

MateAbility HelpmateAnalyzer::ability(const Position& pos, Color side) const {
    if (options_.mode == HelpmateOptions::Mode::fast) return FastUnwinnability{}.ability(pos, side);
    // Nanoseconds for the common case: material decides, or a side has mating material free to
    // act and too many units can move or be taken for a short forced line to end the game. Such
    // a side can mate, and a dead position needs both sides unable, so searching either side
    // would be wasted on the automatic check.
    // (With pawns on the board and material of `side` in play, no material rule applies: they
    // need a side with a lone king or a board without pawns. The common case skips them.)
    const bool in_play = material_in_play(pos, side);
    if (!(in_play && pos.pieces(PieceType::pawn)) && detail::material_cannot_mate(pos, side))
        return MateAbility::cannot_checkmate;
    if (in_play || material_in_play(pos, ~side)) {
        // Few units left: unless the side to move has few legal moves too (a forced capture of
        // the last mating material, a forced stalemate), a mate is reachable; else the forced
        // lines decide.
        if ((pos.occupied() & ~pos.pieces(PieceType::king)).count() <= forced_units && forced_end(pos))
            return MateAbility::cannot_checkmate;
        // A closed position (units locked for ever: a rook walled in behind pawns, pawns that
        // meet enemy pawns further up the file) goes to the analysis; in any other a mate is
        // reachable.
        if (options_.check_locked && locked(pos)) return remembered_ability(*this, pos, side);
        // The live faces want a proof either way: the analysis finds the mating line (in an
        // open position the quick search finds one within a few hundred positions).
        if (options_.exact) return remembered_ability(*this, pos, side);
        return MateAbility::unknown;
    }
    return remembered_ability(*this, pos, side);
}

MateVerdict HelpmateAnalyzer::can_checkmate(const Position& pos, Color side) const {
    if (options_.mode == HelpmateOptions::Mode::fast) return FastUnwinnability{}.can_checkmate(pos, side);
    // Every question is searched in the canonical orientation (the side asked as Black; the file
    // orientation whose placement reads first), so that a position and its mirrors get the same
    // answer from the same work; the mating line is turned back.
    const detail::Orientation o = detail::canonical_orientation(pos, side);
    if (!o.identity())
        if (const std::optional<Position> seen = detail::oriented(pos, o)) {
            MateVerdict v = analyse(*seen, o.colours ? ~side : side);
            for (Move& m : v.line) m = detail::oriented(m, o);
            return v;
        }
    return analyse(pos, side);
}

namespace {

// An analysis as it goes (HelpmateAnalyzer::analyse, stage by stage): the position and side, the
// positions searched so far, the verdict once one is found, the limit and the budget of the
// first guided search.
struct Progress {
    const HelpmateOptions& options;
    const Position& pos;
    Color side;
    std::uint64_t limit;
    std::uint64_t first_guided;
    std::uint64_t nodes = 0;
    MateVerdict v{};

    // A search's outcome counted: true, with the verdict, when it found a mate (`engine` names
    // the search in the reason) or proved that none is reachable (`exhausted` is then the reason).
    bool take(detail::SearchOutcome& found, const char* engine,
              const char* exhausted = "exhaustive search: no reachable position is a mate") {
        nodes += found.nodes;
        v.nodes = nodes;
        if (found.kind == detail::SearchOutcome::Kind::mate) {
            v.answer = MateAbility::can_checkmate;
            v.proof = MateProof::mating_line;
            v.line = std::move(found.line);
            v.reason = std::string("mating line found by the ") + engine;
            return true;
        }
        if (found.kind == detail::SearchOutcome::Kind::exhausted) {
            v.answer = MateAbility::cannot_checkmate;
            v.proof = MateProof::exhaustive_search;
            v.reason = exhausted;
            return true;
        }
        if (SearchInterrupt::requested()) nodes = std::max(nodes, limit);  // interrupted: every round ends now
        return false;
    }
    // A static stage's answer as the verdict.
    [[nodiscard]] MateVerdict settled(const StaticAnswer& s) const {
        MateVerdict out;
        out.answer = s.answer;
        out.proof = s.proof;
        out.reason = s.reason;
        out.nodes = nodes;
        return out;
    }
    // The guided search in its first plan, with the first budget.
    bool first_search() {
        detail::SearchOutcome found = detail::search_helpmate(pos, side, std::min<std::uint64_t>(first_guided, limit));
        return take(found, "guided search");
    }
};

// The plan variants of the guided search whose plans differ here (0, 3, 2, 1, 9 in that order;
// a variant whose plan is another's is left out): `distinct` of them in `variants`.
struct Variants {
    std::array<int, 5> variants{0, 3, 2, 1, 9};
    std::size_t distinct = 0;
};

// Full mode, before the rounds: the plans a position of their kind most often needs, each with a
// budget of its own. True when one settled the question (p.v).
bool opening_plans(Progress& p, Variants& plans) {
    const Position& pos = p.pos;
    const Color side = p.side;
    const HelpmateOptions& options_ = p.options;
    std::uint64_t& nodes = p.nodes;
    const std::uint64_t limit = p.limit;
    const std::uint64_t first_guided = p.first_guided;
    auto take = [&p](detail::SearchOutcome& found, const char* engine) { return p.take(found, engine); };
    std::array<int, 5>& variants = plans.variants;
    std::size_t& distinct = plans.distinct;
    // First, when the side has nothing but its king and pawns, each pawn blocked, and the loser
    // has pieces, the gift plan (the loser gives a piece for a pawn to take, which opens its way)
    // gets twice the quick budget: where the loser is rich, as after a lost-on-time ending with
    // a lone pawn left, that is most often the mate, which the guided plans below miss (they
    // head for the loser's king with units the side does not have); in the pawn endings, where
    // the loser has nothing to give but pawns, it is left to the rounds.
    const Bitboard pieces = pos.occupied() & ~pos.pieces(PieceType::king) & ~pos.pieces(PieceType::pawn);
    if (nodes < limit && !(pieces & pos.pieces(side)) && (pieces & pos.pieces(~side)) && detail::gift_plan(pos, side)) {
        detail::SearchOutcome found =
            detail::search_rewarded(pos, side, std::min(2 * options_.quick_node_limit, limit - nodes), true);
        if (take(found, "reward-extended search (gift plan)")) return true;
    }
    // Then, when the side's pawns are all blocked by enemy pawns and it has no queen or rook,
    // the plan that sends its king to take the blockers first, eagerly (variants 6 and 7), gets
    // a quick budget of its own: in the pawn endings of real games that is the whole mate,
    // found in a few hundred positions, where the rounds below would spend thousands.
    if (!detail::pawns_to_clear(pos, side).empty()) {
        for (int variant : {6, 7}) {
            if (nodes >= limit) break;
            detail::SearchOutcome found =
                detail::search_helpmate(pos, side, std::min(options_.quick_node_limit, limit - nodes), variant);
            if (take(found, "guided search")) return true;
        }
    }
    {
        std::array<std::uint64_t, 5> keys{};
        for (int variant : variants) {
            const std::uint64_t key = detail::guided_plan(pos, side, variant);
            if (std::find(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(distinct), key) ==
                keys.begin() + static_cast<std::ptrdiff_t>(distinct)) {
                keys[distinct] = key;
                variants[distinct++] = variant;
            }
        }
    }
    // Then the other plan variants of the guided search (those whose plan differs here), each
    // with the budget of the first: where the first plan leads astray, another often finds the
    // mate in a few hundred positions, which the rounds below would reach only after thousands.
    for (std::size_t i = 1; i < distinct && nodes < limit; ++i) {
        detail::SearchOutcome found =
            detail::search_helpmate(pos, side, std::min(first_guided, limit - nodes), variants[i]);
        if (take(found, "guided search")) return true;
    }
    return false;
}

// Full mode, last: rounds of growing budgets until a search answers or the limit is hit.
void search_rounds(Progress& p, const Variants& plans) {
    const Position& pos = p.pos;
    const Color side = p.side;
    const HelpmateOptions& options_ = p.options;
    std::uint64_t& nodes = p.nodes;
    MateVerdict& v = p.v;
    const std::uint64_t limit = p.limit;
    auto take = [&p](detail::SearchOutcome& found, const char* engine,
                     const char* exhausted = "exhaustive search: no reachable position is a mate") {
        return p.take(found, engine, exhausted);
    };
    const std::array<int, 5>& variants = plans.variants;
    const std::size_t distinct = plans.distinct;
    // Then rounds of budgets b growing sixfold, starting at 16 times the quick budget (9,600):
    // where it applies, the gift plan with b/4, then the targeted gift plan with b/4 for each of
    // its files (a targeted gift that works is found with a few ten thousand positions, so it
    // goes first); the reward-extended search with b; the guided search in five plan variants
    // (0, 3, 2, 1: blocked pawns as material or not, first or second mating corner, pawns to
    // clear first; 9: the lever plan, where a blocked pawn of the side could be let through)
    // sharing 2b; where it applies, the bishop corner plan with b/4 and b/16 (its
    // two corners); where the winner's king is shut in by a piece of its own, the release plan with
    // b; and the exhaustive search, which proves as well as finds, with 5b. The exhaustive search
    // goes on where it stopped; the others restart every round, so at most about a sixth of
    // their work is repeated. From the third round on (b = 345,600, beyond what the real
    // positions of the corpora need), the searches that find the long manoeuvres of the test
    // vectors open the round: the exhaustive search (progress first) with 3b/2 and the guided
    // variants with their 2b; the exhaustive search closes it with the rest of its 5b. The round
    // that reaches the limit is cut short wherever it is: with the default limit that is the
    // fourth. In a closed position (three pawn pairs blocked head-on, or a king walled in by
    // pawns) where the side has no queen or rook free to move (free_heavy_piece), which is most
    // often a dead one, the exhaustive search goes first in the first two rounds (after the
    // bishop corner plan, where that applies), with 16b: it proves as well as finds, and it
    // settles the dead positions of real games in a fraction of the time the others would spend
    // first. (Order and budgets tuned by positions searched, which does not depend on the
    // machine, on the lichess timeouts, the test vectors, the unfair timeouts and slow real
    // positions of the audit; see docs/unwinnability.md.)
    //
    // Variants whose plan does not differ here (no corner to choose, no pawn to clear, no
    // blocked pawn) would search alike: only the first of each is run, with the budget of all.
    const Bitboard head_on =
        pos.pieces(Color::white, PieceType::pawn).shifted(8) & pos.pieces(Color::black, PieceType::pawn);
    const bool closed = (head_on.count() >= 3 || walled_in(pos, Color::white) || walled_in(pos, Color::black)) &&
                        !free_heavy_piece(pos, side);
    // With at most five units besides the kings (real minor-piece and pawn endings), the
    // reward-extended search gets 4b in the first round: it finds their long manoeuvres, which
    // the guided search misses, within the round.
    const bool few_units = (pos.occupied() & ~pos.pieces(PieceType::king)).count() <= 5;
    const bool gifts = detail::gift_plan(pos, side);
    const std::uint8_t gift_files = detail::gift_files(pos, side);
    const bool release = detail::jailers(pos, side).any();
    std::uint64_t budget = std::max<std::uint64_t>(16 * options_.quick_node_limit, 1000);
    std::optional<detail::ExhaustiveSearch> exhaustive;  // goes on where the last round stopped
    auto exhaust = [&](std::uint64_t work) {
        if (!exhaustive) exhaustive.emplace(pos, side);
        detail::SearchOutcome found = exhaustive->run(std::min(work, limit - nodes));
        return take(found, "exhaustive search") || nodes >= limit;
    };
    // When the winner's only mobile material is bishops of one colour, the corner plan of such
    // bishops (helpmate/bishops.cpp) gets b/4 for the better corner and b/16 for the other in
    // each round: after the guided variants, or first where the exhaustive search goes first.
    const bool bishop_corner = detail::bishop_corner_plan(pos, side);
    auto corner_plan = [&](std::uint64_t b) {
        for (int corner = 0; corner < 2 && nodes < limit; ++corner) {
            detail::SearchOutcome found =
                detail::search_bishop_corner(pos, side, std::min(corner == 0 ? b / 4 : b / 16, limit - nodes), corner);
            if (take(found, "bishop corner search")) return true;
        }
        return nodes >= limit;
    };
    auto guided = [&](std::uint64_t b) {
        for (std::size_t i = 0; i < distinct; ++i) {
            detail::SearchOutcome found =
                detail::search_helpmate(pos, side, std::min(2 * b / distinct, limit - nodes), variants[i]);
            if (take(found, "guided search") || nodes >= limit) return true;
        }
        return false;
    };
    // Where units stand behind a wall that they can never cross, or most likely never will
    // (separated_area), the exhaustive search of the loser's king's game alone (the others only
    // give tempo moves) opens every round, with 8b. With both kings in the game and nothing
    // outside it that could touch the walls, it proves as well as finds, as long as no move it
    // meets touches the walls.
    const detail::Separation separation = detail::separate(pos, side);
    std::optional<detail::ExhaustiveSearch> focused;
    auto focus = [&](std::uint64_t work) {
        if (!focused) focused.emplace(pos, side, separation.area, separation.proves ? separation.walls : Bitboard());
        if (focused->finished()) return false;
        detail::SearchOutcome found = focused->run(std::min(work, limit - nodes));
        return take(found, "exhaustive search of the separated game",
                    "exhaustive search of the separated game: no reachable position is a mate") ||
               nodes >= limit;
    };
    // Where the units outside the loser's king's game can never touch the walls, the projected
    // game (those units off the board, their moves passes) opens every round with 8b in place of
    // the separated game's search, resumed where it stopped, until it proves, finds a mate whose
    // line lifts to the real board, or fails (then the separated game's search takes its place):
    // a proof over regions, exhaustive over the few units that can meet the loser's king, where
    // the searches of the whole board see every placement of the units that never take part
    // (docs/unwinnability.md, "The projected game").
    // (Its walls leave out the pieces shut in by the others: a unit of the game may take one.)
    const detail::Separation projection =
        separation.area[0] | separation.area[1] ? detail::separate(pos, side, false) : detail::Separation{};
    std::optional<detail::ProjectedGame> projected;
    bool projection_open = projection.projects;
    auto project = [&](std::uint64_t work) {
        if (!projected) projected.emplace(pos, side, projection);
        std::uint64_t spent = 0;
        const detail::ProjectedGame::Result r = projected->run(std::min(work, limit - nodes), spent);
        nodes += spent;
        v.nodes = nodes;
        if (r == detail::ProjectedGame::Result::proved) {
            v.answer = MateAbility::cannot_checkmate;
            v.proof = MateProof::exhaustive_search;
            v.reason = "exhaustive search of the projected game: no mate among the " +
                       std::to_string(projected->positions()) +
                       " positions of the loser's king's game while the walls stand (" +
                       std::to_string(projected->units_outside()) + " units outside it, their moves taken as passes)";
            return true;
        }
        if (r == detail::ProjectedGame::Result::mate) {
            v.answer = MateAbility::can_checkmate;
            v.proof = MateProof::mating_line;
            v.line = projected->take_line();
            v.reason = "mating line found by the exhaustive search of the projected game";
            return true;
        }
        if (r == detail::ProjectedGame::Result::failed) {
            projection_open = false;
            projected.reset();  // its memory back before the separated game's search
        }
        if (SearchInterrupt::requested()) nodes = std::max(nodes, limit);  // interrupted: every round ends now
        return nodes >= limit;
    };
    for (int round = 0; nodes < limit; ++round) {
        if (projection_open && project(8 * budget)) break;
        if (!projection_open && (separation.area[0] | separation.area[1]) && focus(8 * budget)) break;
        const bool closed_first = closed && round < 2;
        const bool late = round >= 2;  // the searches of the long manoeuvres open the round
        if (closed_first && bishop_corner && corner_plan(budget)) break;
        if (closed_first && exhaust(16 * budget)) break;
        if (late && (exhaust(3 * budget / 2) || guided(budget))) break;
        detail::SearchOutcome found;
        bool done = false;
        if (gifts) {
            found = detail::search_rewarded(pos, side, std::min(budget / 4, limit - nodes), true);
            if (take(found, "reward-extended search (gift plan)") || nodes >= limit) break;
            for (int file = 0; file < 8 && !done; ++file) {
                if (!(gift_files >> file & 1)) continue;
                found = detail::search_rewarded(pos, side, std::min(budget / 4, limit - nodes), true, file);
                done = take(found, "reward-extended search (targeted gift plan)") || nodes >= limit;
            }
            if (done) break;
        }
        found =
            detail::search_rewarded(pos, side, std::min(round == 0 && few_units ? 4 * budget : budget, limit - nodes));
        if (take(found, "reward-extended search") || nodes >= limit) break;
        if (!late && guided(budget)) break;
        if (!closed_first && bishop_corner && corner_plan(budget)) break;
        if (release) {  // the winner's king is shut in by a piece of its own: the release plan, with b
            found = detail::search_release(pos, side, std::min(budget, limit - nodes));
            if (take(found, "release plan") || nodes >= limit) break;
        }
        if (!closed_first && exhaust(late ? 7 * budget / 2 : 5 * budget)) break;
        budget = std::min<std::uint64_t>(6 * budget, std::uint64_t{1} << 58);  // 16 * budget < 2^64
    }
}

}  // namespace

MateVerdict HelpmateAnalyzer::analyse(const Position& pos, Color side) const {
    // 5. Search: the guided search alone in quick mode; in full mode it is followed by the
    //    plans before the rounds (opening_plans) and the rounds (search_rounds), in which the
    //    searches take turns with growing budgets until one answers or the limit is hit.
    const bool quick = options_.mode == HelpmateOptions::Mode::quick;
    // The guided search in its first plan: the quick budget in quick mode, twice that in full
    // mode (the mate of a real position is most often a little beyond the quick budget where
    // the guided search misses it, and the rounds below begin at sixteen times it).
    Progress p{.options = options_,
               .pos = pos,
               .side = side,
               .limit = quick ? options_.quick_node_limit : options_.node_limit,
               .first_guided = quick ? options_.quick_node_limit : 2 * options_.quick_node_limit};
    // With a queen or rook of its own free to move, more than twelve units on the board besides
    // the kings, and a move to play, the side nearly always mates along the first guided lines,
    // and the cheap stages' proofs (the material, a forced line to bare material, a blockade,
    // which needs no free queen or rook) hardly ever hold: the search goes first, and the stages
    // follow only where it fails. The answers are the same either way (a mating line and a
    // proof of the contrary never meet); in the open positions of real games the stages cost
    // about 3 % of the analysis, and on the unfair timeouts, where such a piece is often lost by
    // force, the search spends 4 % more.
    const bool search_first = free_heavy_piece(pos, side) &&
                              (pos.occupied() & ~pos.pieces(PieceType::king)).count() > forced_units &&
                              has_legal_move(pos);
    if (search_first && p.first_search()) return p.v;
    const StaticAnswer cheap = cheap_stages(pos, side, p.nodes);
    if (cheap.answer != MateAbility::unknown) return p.settled(cheap);
    if (!search_first && p.first_search()) return p.v;
    if (const StaticAnswer s = ungated_stages(pos, side, cheap, p.nodes); s.answer != MateAbility::unknown)
        return p.settled(s);
    if (quick) {
        p.v.answer = MateAbility::unknown;
        p.v.proof = MateProof::none;
        p.v.reason = "node limit reached";
        return p.v;
    }
    Variants plans;
    if (opening_plans(p, plans)) return p.v;
    search_rounds(p, plans);
    MateVerdict& v = p.v;
    if (v.answer != MateAbility::unknown) return v;
    v.answer = MateAbility::unknown;
    v.proof = MateProof::none;
    v.reason = SearchInterrupt::requested() ? "interrupted" : "node limit reached";
    return v;
}

}  // namespace arbiter
