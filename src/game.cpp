// game.cpp — the game record: incremental occurrence index, counters and automatic endings.
#include "arbiter/game.hpp"

#include <algorithm>
#include <array>

#include "arbiter/movegen.hpp"

namespace arbiter {

namespace {

constexpr std::array<PieceType, 5> signature_order = {PieceType::queen, PieceType::rook, PieceType::bishop,
                                                      PieceType::knight, PieceType::pawn};

std::string side_signature(const Position& pos, Color c, int& value) {
    static constexpr int values[] = {1, 3, 3, 5, 9, 0};
    std::string s = "K";
    value = 0;
    for (PieceType t : signature_order) {
        const int n = pos.pieces(c, t).count();
        s.append(static_cast<std::size_t>(n), piece_letter(t));
        value += n * values[index(t)];
    }
    return s;
}

// Sorts the letters of one side of a signature into K Q R B N P order.
std::string normalise_side(std::string_view side) {
    std::string out = "K";
    for (PieceType t : signature_order)
        out.append(static_cast<std::size_t>(std::count(side.begin(), side.end(), piece_letter(t))), piece_letter(t));
    return out;
}

}  // namespace

std::string material_signature(const Position& pos) {
    int wv = 0, bv = 0;
    const std::string w = side_signature(pos, Color::white, wv);
    const std::string b = side_signature(pos, Color::black, bv);
    const bool white_first = wv > bv || (wv == bv && w.size() >= b.size());
    return white_first ? w + "v" + b : b + "v" + w;
}

GameRecord::GameRecord(const Position& start, const RuleSet& rules, RuleOptions options,
                       const Unwinnability* analyzer) {
    entries_.reserve(160);
    reset(start, rules, std::move(options), analyzer);
}

void GameRecord::reset(const Position& start, const RuleSet& rules, RuleOptions options,
                       const Unwinnability* analyzer) {
    rules_ = &rules;
    options_ = std::move(options);
    analyzer_ = analyzer ? analyzer : &default_unwinnability();
    entries_.clear();
    termination_.reset();
    start_game_ply_ = 2 * (start.fullmove_number() - 1) + (start.turn() == Color::black ? 1 : 0);
    auto_seventy_five_ = rules_->seventy_five == DrawEffect::automatic;
    auto_fivefold_ = rules_->fivefold == DrawEffect::automatic;
    auto_threefold_ = threefold_effect(*rules_, options_) == DrawEffect::automatic;
    auto_fifty_ = fifty_effect(*rules_, options_) == DrawEffect::automatic;
    const std::uint32_t np =
        options_.counters_from_setup == RuleOptions::CountersFromSetup::trust_fen ? start.halfmove_clock() : 0;
    entries_.emplace_back(start, Move::null(), np, options_.initial_position_counts ? 1u : 0u, -1);
    moves_now_valid_ = false;
    mate_check_pending_ = false;
    const auto endings = endings_at(0);
    if (!endings.empty()) termination_ = endings.front();
}

std::optional<MoveError> GameRecord::play(Move m) {
    if (!legal_moves_now().contains(m))
        return MoveError{MoveError::Kind::illegal, 0, "'" + to_uci(current(), m) + "' is not a legal move"};
    play_legal(m);
    return std::nullopt;
}

void GameRecord::play_legal(Move m) { play_legal(m, entries_.back().pos.after(m)); }

void GameRecord::play_legal(Move m, const Position& after) {
    // The position the move is played from has a legal move: it is neither mate nor stalemate.
    mate_check_pending_ = false;
    const Entry& last = entries_.back();
    const std::uint32_t no_progress = last.pos.is_zeroing(m) ? 0 : last.no_progress + 1;
    entries_.emplace_back(after, m, no_progress, 0u, -1);
    append();
}

void GameRecord::pop() {
    entries_.pop_back();
    if (termination_ && termination_->index >= entries_.size()) termination_.reset();
    moves_now_valid_ = false;
    // The position now last had a legal move, the one taken back: it is neither checkmate nor
    // stalemate, and any other ending at it would already be termination_.
    mate_check_pending_ = false;
}

std::optional<MoveError> GameRecord::play(std::string_view text) {
    auto m = parse_move(current(), text);
    if (!m) return m.error();
    return play(*m);
}

void GameRecord::append() {
    const std::size_t n = entries_.size() - 1;
    Entry& added = entries_.back();
    const Position& pos = added.pos;
    const std::uint32_t no_progress = added.no_progress;
    const std::int32_t prev = latest_before(pos, n, no_progress);
    const std::uint32_t occ = prev < 0 ? 1 : entries_[static_cast<std::size_t>(prev)].occurrences + 1;
    added.occurrences = occ;
    added.previous = prev;
    added.twice_seen = occ >= 2 ? static_cast<std::int32_t>(n) : entries_[n - 1].twice_seen;
    moves_now_valid_ = false;
    if (!termination_) {
        // Checkmate and stalemate need the legal moves: decided lazily (termination()), unless
        // another ending holds here, which checkmate might override (9.6.2).
        if (!ending_without_moves(n)) {
            mate_check_pending_ = true;
        } else {
            termination_ = endings_at(n).front();
        }
    }
}

const std::optional<Termination>& GameRecord::termination() const {
    if (mate_check_pending_) {
        mate_check_pending_ = false;
        const std::size_t n = entries_.size() - 1;
        const bool no_moves = moves_now_valid_ ? moves_now_.empty() : !has_legal_move(entries_[n].pos);
        if (no_moves) termination_ = endings_at(n).front();
    }
    return termination_;
}

std::vector<std::size_t> GameRecord::occurrence_indices(std::size_t i) const {
    std::vector<std::size_t> out;
    for (std::int32_t j = static_cast<std::int32_t>(i); j >= 0; j = entries_[static_cast<std::size_t>(j)].previous) {
        if (j == 0 && !options_.initial_position_counts) break;
        out.push_back(static_cast<std::size_t>(j));
    }
    std::reverse(out.begin(), out.end());
    return out;
}

std::int32_t GameRecord::latest_before(const Position& p, std::size_t at, std::uint32_t window) const noexcept {
    // Only positions after the last pawn move or capture can match, and only every second ply
    // (same side to move): at-4, at-6, … within the window. The Zobrist key filters; the exact
    // comparison decides.
    const std::size_t w = std::min<std::size_t>(window, at);
    for (std::size_t back = 4; back <= w; back += 2) {
        const std::size_t j = at - back;
        const Entry& e = entries_[j];
        if (e.pos.key() == p.key() && e.pos.same_position(p)) {
            if (j == 0 && !options_.initial_position_counts) return -1;
            return static_cast<std::int32_t>(j);
        }
    }
    return -1;
}

std::int32_t GameRecord::previous_occurrence_of(const Position& p, std::uint32_t window) const noexcept {
    return latest_before(p, entries_.size(), window);
}

std::uint32_t GameRecord::count_in_history(const Position& p, std::uint32_t window) const noexcept {
    const std::int32_t j = previous_occurrence_of(p, window);
    return j < 0 ? 0 : entries_[static_cast<std::size_t>(j)].occurrences;
}

std::string GameRecord::move_number_prefix(std::size_t i) const {
    const std::uint32_t g = game_ply(i);
    return std::to_string(g / 2 + 1) + (g % 2 == 0 ? "." : "...");
}

std::string GameRecord::san(std::size_t i) const { return to_san(entries_[i - 1].pos, entries_[i].move); }

std::string GameRecord::move_label(std::size_t i) const {
    if (i == 0) return "start";
    return move_number_prefix(i - 1) + san(i);
}

bool GameRecord::fivefold_at(std::size_t i) const noexcept {
    if (rules_->fivefold_count == FivefoldCount::any_five) return entries_[i].occurrences >= 5;
    // "Five consecutive alternate moves by each player": the same position at i, i-4, …, i-16.
    const std::size_t lowest = options_.initial_position_counts ? 0 : 1;
    if (i < 16 || i - 16 < lowest) return false;
    for (std::size_t k = 1; k <= 4; ++k)
        if (!entries_[i - 4 * k].pos.same_position(entries_[i].pos)) return false;
    return true;
}

std::uint32_t GameRecord::extended_fifty_limit_plies(const Position& p) const noexcept {
    const std::string sig = material_signature(p);
    const auto v = sig.find('v');
    const std::string a = sig.substr(0, v), b = sig.substr(v + 1);
    for (const auto& ext : options_.fifty_extensions) {
        const auto ev = ext.signature.find('v');
        if (ev == std::string::npos) continue;
        const std::string ea = normalise_side(std::string_view(ext.signature).substr(0, ev));
        const std::string eb = normalise_side(std::string_view(ext.signature).substr(ev + 1));
        if ((ea == a && eb == b) || (ea == b && eb == a)) return static_cast<std::uint32_t>(2 * ext.moves);
    }
    return 100;
}

std::vector<Termination> GameRecord::endings_at(std::size_t i) const { return collect_endings(i, true); }

std::vector<Termination> GameRecord::collect_endings(std::size_t i, bool check_moves) const {
    std::vector<Termination> out;
    const Entry& e = entries_[i];
    const Position& pos = e.pos;
    const bool no_moves =
        check_moves && (i + 1 == entries_.size() && moves_now_valid_ ? moves_now_.empty() : !has_legal_move(pos));
    const Articles& art = rules_->articles;
    const char* draw = "1/2-1/2";
    if (no_moves && pos.in_check()) {
        out.push_back({TerminationKind::checkmate, pos.turn() == Color::white ? "0-1" : "1-0", art.checkmate, i});
        return out;  // checkmate takes precedence over everything (9.6.2)
    }
    if (no_moves) out.push_back({TerminationKind::stalemate, draw, art.stalemate, i});
    if (mate_ability(i, Color::white) == MateAbility::cannot_checkmate &&
        mate_ability(i, Color::black) == MateAbility::cannot_checkmate)
        out.push_back({TerminationKind::dead_position, draw, art.dead_position, i});
    const CounterDraws counters = counter_draws(i);
    if (counters.seventy_five) out.push_back({TerminationKind::seventy_five_moves, draw, art.seventy_five, i});
    if (counters.fivefold) out.push_back({TerminationKind::fivefold_repetition, draw, art.fivefold, i});
    if (counters.threefold) out.push_back({TerminationKind::threefold_repetition, draw, art.threefold_now, i});
    if (counters.fifty) out.push_back({TerminationKind::fifty_moves, draw, art.fifty_now, i});
    return out;
}

GameRecord::CounterDraws GameRecord::counter_draws(std::size_t i) const noexcept {
    const Entry& e = entries_[i];
    // (Five occurrences in a row are five occurrences: the count rules out most plies before
    // fivefold_at looks back.)
    return {auto_seventy_five_ && e.no_progress >= 150, auto_fivefold_ && e.occurrences >= 5 && fivefold_at(i),
            auto_threefold_ && e.occurrences >= 3, auto_fifty_ && e.no_progress >= fifty_limit_plies(e.pos)};
}

bool GameRecord::ending_without_moves(std::size_t i) const {
    // The conditions of collect_endings but stalemate and checkmate; the counters first (the
    // mate abilities they would skip are asked by endings_at when one holds).
    if (counter_draws(i).any()) return true;
    return mate_ability(i, Color::white) == MateAbility::cannot_checkmate &&
           mate_ability(i, Color::black) == MateAbility::cannot_checkmate;
}

MateAbility GameRecord::mate_ability(std::size_t i, Color side) const {
    std::uint8_t& a = entries_[i].ability[static_cast<std::size_t>(index(side))];
    if (a == not_decided) a = static_cast<std::uint8_t>(analyzer_->ability(entries_[i].pos, side));
    return static_cast<MateAbility>(a);
}

std::vector<Termination> GameRecord::director_may_declare(std::size_t i) const {
    std::vector<Termination> out;
    const std::string draw = "1/2-1/2";
    if (rules_->seventy_five == DrawEffect::director_may_declare && entries_[i].no_progress >= 150)
        out.push_back({TerminationKind::seventy_five_moves, draw, rules_->articles.seventy_five, i});
    if (rules_->fivefold == DrawEffect::director_may_declare && fivefold_at(i))
        out.push_back({TerminationKind::fivefold_repetition, draw, rules_->articles.fivefold, i});
    return out;
}

}  // namespace arbiter
