// position.cpp — Position construction and validation, Zobrist keys, attack queries.
#include "arbiter/position.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#include "arbiter/movegen.hpp"

namespace arbiter {

namespace detail {
namespace {
constexpr ZobristKeys make_zobrist() {
    ZobristKeys z{};
    std::uint64_t s = 0x2545F4914F6CDD1DULL;
    auto next = [&s] {  // splitmix64
        std::uint64_t x = (s += 0x9E3779B97F4A7C15ULL);
        x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
        x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
        return x ^ (x >> 31);
    };
    for (auto& row : z.piece_square)
        for (auto& k : row) k = next();
    for (auto& k : z.castling) k = next();
    for (auto& k : z.ep_file) k = next();
    z.side = next();
    return z;
}
}  // namespace
// Computed at compile time, so the keys are valid during every static initialisation.
constinit const ZobristKeys zobrist = make_zobrist();
}  // namespace detail

std::optional<Piece> piece_from_char(char c) noexcept {
    const auto t = piece_type_from_char(c);
    if (!t) return std::nullopt;
    return make_piece(c >= 'a' ? Color::black : Color::white, *t);
}

std::optional<PieceType> piece_type_from_char(char c) noexcept {
    switch (c) {
        case 'P':
        case 'p': return PieceType::pawn;
        case 'N':
        case 'n': return PieceType::knight;
        case 'B':
        case 'b': return PieceType::bishop;
        case 'R':
        case 'r': return PieceType::rook;
        case 'Q':
        case 'q': return PieceType::queen;
        case 'K':
        case 'k': return PieceType::king;
        default: return std::nullopt;
    }
}

std::string to_string(Square s) {
    if (!is_ok(s)) return "-";
    return {file_char(file_of(s)), rank_char(rank_of(s))};
}

std::optional<Square> parse_square(std::string_view t) noexcept {
    if (t.size() != 2 || t[0] < 'a' || t[0] > 'h' || t[1] < '1' || t[1] > '8') return std::nullopt;
    return make_square(t[0] - 'a', t[1] - '1');
}

Setup Setup::standard() { return chess960_start(518); }

Setup Setup::chess960_start(int n) {
    Setup s;
    if (n < 0 || n > 959) n = 518;
    const bool is_standard = n == 518;
    std::array<PieceType, 8> rank{};
    rank.fill(PieceType::none);
    rank[2 * (n % 4) + 1] = PieceType::bishop;
    n /= 4;
    rank[2 * (n % 4)] = PieceType::bishop;
    n /= 4;
    auto place_free = [&rank](int nth, PieceType t) {
        for (int f = 0; f < 8; ++f)
            if (rank[f] == PieceType::none && nth-- == 0) {
                rank[f] = t;
                return;
            }
    };
    place_free(n % 6, PieceType::queen);
    n /= 6;
    static constexpr int knights[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2},
                                           {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};
    // Place the second knight first so that the first index is not shifted.
    place_free(knights[n][1], PieceType::knight);
    place_free(knights[n][0], PieceType::knight);
    place_free(0, PieceType::rook);
    place_free(0, PieceType::king);
    place_free(0, PieceType::rook);
    for (int f = 0; f < 8; ++f) {
        s.board[f] = make_piece(Color::white, rank[f]);
        s.board[56 + f] = make_piece(Color::black, rank[f]);
        s.board[8 + f] = make_piece(Color::white, PieceType::pawn);
        s.board[48 + f] = make_piece(Color::black, PieceType::pawn);
        if (rank[f] == PieceType::rook) s.castling_rooks |= make_square(f, 0) | make_square(f, 7);
    }
    s.chess960 = !is_standard;
    return s;
}

namespace {
// One row per problem, row i for the problem 1 << i: its stable name and its text.
struct ProblemRow {
    PositionProblem problem;
    const char* name;
    const char* text;
};
constexpr std::array<ProblemRow, 9> problem_rows = {{
    {PositionProblem::missing_king, "missing_king", "a side has no king"},
    {PositionProblem::too_many_kings, "too_many_kings", "a side has more than one king"},
    {PositionProblem::pawns_on_back_rank, "pawns_on_back_rank", "a pawn stands on the first or last rank"},
    {PositionProblem::opposite_check, "opposite_check", "the side not to move is in check"},
    {PositionProblem::invalid_ep_square, "invalid_ep_square",
     "no pawn can just have double-stepped over the en passant square"},
    {PositionProblem::invalid_castling_rights, "invalid_castling_rights",
     "a castling right has no king and rook in place"},
    {PositionProblem::too_many_pieces, "too_many_pieces", "too many pieces for one side"},
    {PositionProblem::impossible_check, "impossible_check", "the check could not have been given by a legal move"},
    {PositionProblem::invalid_piece, "invalid_piece", "a square holds something that is not a piece"},
}};
constexpr bool rows_follow_bits() noexcept {
    for (std::size_t i = 0; i < problem_rows.size(); ++i)
        if (static_cast<std::uint32_t>(problem_rows[i].problem) != 1u << i) return false;
    return true;
}
static_assert(rows_follow_bits());

const ProblemRow* problem_row(PositionProblem p) noexcept {
    const auto bits = static_cast<std::uint32_t>(p);
    if (bits == 0 || (bits & (bits - 1)) != 0) return nullptr;
    const auto i = static_cast<std::size_t>(std::countr_zero(bits));
    return i < problem_rows.size() ? &problem_rows[i] : nullptr;
}

const char* problem_text(PositionProblem p) {
    const ProblemRow* r = problem_row(p);
    return r ? r->text : "unknown problem";
}
}  // namespace

const char* problem_name(PositionProblem p) noexcept {
    const ProblemRow* r = problem_row(p);
    return r ? r->name : "unknown";
}

std::vector<PositionProblem> PositionError::list() const {
    std::vector<PositionProblem> out;
    for (std::uint32_t bit = 1; bit != 0 && bit <= problems; bit <<= 1)
        if (problems & bit) out.push_back(static_cast<PositionProblem>(bit));
    return out;
}

std::string PositionError::message() const {
    std::string m = "invalid position: ";
    bool first = true;
    for (auto p : list()) {
        if (!first) m += "; ";
        m += problem_text(p);
        first = false;
    }
    return m;
}

Bitboard Setup::occupied() const noexcept {
    constexpr std::uint64_t empty = 0x0101010101010101ULL * index(Piece::none), low7 = 0x7F7F7F7F7F7F7F7FULL;
    std::uint64_t occ = 0;
    for (int rank = 0; rank < 8; ++rank) {
        std::uint64_t row;
        std::memcpy(&row, board.data() + rank * 8, 8);
        const std::uint64_t x = row ^ empty;                           // a byte not zero: a square not empty
        const std::uint64_t high = (((x & low7) + low7) | x) & ~low7;  // its top bit set
        // The eight top bits (bits 7, 15, …, 63) gathered into one byte, file a lowest.
        occ |= (((high >> 7) * 0x0102040810204080ULL) >> 56) << (rank * 8);
    }
    return Bitboard(occ);
}

Position::Position() {
    static const Position start = *from_setup(Setup::standard());
    *this = start;
}

Expected<Position, PositionError> Position::from_setup(const Setup& setup, SetupRepairs repairs) {
    Position pos{EmptyTag{}};
    for (Square s : setup.occupied()) {
        const Piece p = setup.board[index(s)];
        if (type_of(p) > PieceType::king || index(p) > 13)
            return Unexpected(PositionError{static_cast<std::uint32_t>(PositionProblem::invalid_piece)});
        pos.put(p, s);
    }
    pos.turn_ = setup.turn;
    pos.halfmove_clock_ = setup.halfmove_clock;
    pos.fullmove_number_ = std::max<std::uint32_t>(1, setup.fullmove_number);
    pos.chess960_ = setup.chess960;

    std::uint32_t problems = 0;
    auto add = [&problems](PositionProblem p) { problems |= static_cast<std::uint32_t>(p); };

    for (Color c : {Color::white, Color::black}) {
        const int kings = pos.pieces(c, PieceType::king).count();
        if (kings == 0) add(PositionProblem::missing_king);
        if (kings > 1) add(PositionProblem::too_many_kings);
        const int pawns = pos.pieces(c, PieceType::pawn).count();
        auto surplus = [&](PieceType t, int normal) { return std::max(0, pos.pieces(c, t).count() - normal); };
        const int promoted = surplus(PieceType::knight, 2) + surplus(PieceType::bishop, 2) +
                             surplus(PieceType::rook, 2) + surplus(PieceType::queen, 1);
        if (!repairs.allow_too_many_pieces && (pos.pieces(c).count() > 16 || pawns > 8 || promoted > 8 - pawns))
            add(PositionProblem::too_many_pieces);
    }
    if (pos.pieces(PieceType::pawn) & (Bitboard::rank(0) | Bitboard::rank(7))) add(PositionProblem::pawns_on_back_rank);

    // Castling rights: each right needs the king on its first rank and a rook of the same
    // colour on the right's square; at most one right on each side of the king.
    Bitboard rights;
    for (Color c : {Color::white, Color::black}) {
        const Rank back = c == Color::white ? 0 : 7;
        const Bitboard wanted = setup.castling_rooks & Bitboard::rank(back);
        if (!wanted) continue;
        const Bitboard king = pos.pieces(c, PieceType::king) & Bitboard::rank(back);
        const bool king_ok = king.count() == 1 && pos.pieces(c, PieceType::king).count() == 1;
        Bitboard left, right;
        for (Square r : wanted) {
            if (!king_ok || !pos.pieces(c, PieceType::rook).contains(r)) continue;
            (index(r) < index(king.first()) ? left : right) |= r;
        }
        if (left.more_than_one()) left = Bitboard();
        if (right.more_than_one()) right = Bitboard();
        const Bitboard kept = left | right;
        if (kept != wanted && !repairs.drop_invalid_castling) add(PositionProblem::invalid_castling_rights);
        rights |= kept;
    }
    pos.castling_rooks_ = rights;
    for (Square r : rights) pos.key_ ^= detail::zobrist.castling[index(r)];
    if (!pos.chess960_) {
        for (Color c : {Color::white, Color::black}) {
            const Bitboard cr = pos.castling_rooks(c);
            if (!cr) continue;
            const Square k = relative_square(c, Square::e1);
            if (!pos.pieces(c, PieceType::king).contains(k) ||
                (cr & ~(relative_square(c, Square::a1) | relative_square(c, Square::h1))))
                pos.chess960_ = true;
        }
    }

    // En passant square: on the sixth rank of the side to move, empty, with the square behind
    // it empty and an enemy pawn in front of it.
    if (setup.ep_square != Square::none) {
        const Square ep = setup.ep_square;
        const Color us = setup.turn;
        const int up = us == Color::white ? 8 : -8;
        const bool ok = is_ok(ep) && rank_of(ep) == relative_rank(us, 5) && pos.piece_at(ep) == Piece::none &&
                        pos.piece_at(ep + up) == Piece::none &&
                        pos.piece_at(ep - up) == make_piece(~us, PieceType::pawn);
        if (ok) {
            pos.ep_square_ = ep;
        } else if (!repairs.drop_invalid_ep_square) {
            add(PositionProblem::invalid_ep_square);
        }
    }

    if (problems & (PositionProblem::missing_king | PositionProblem::too_many_kings))
        return Unexpected(PositionError{problems});

    pos.turn_ = ~setup.turn;
    if (pos.in_check()) add(PositionProblem::opposite_check);
    pos.turn_ = setup.turn;
    const Bitboard chk = pos.checkers();
    if (!repairs.allow_impossible_check) {
        const Bitboard sliders =
            pos.pieces(PieceType::bishop) | pos.pieces(PieceType::rook) | pos.pieces(PieceType::queen);
        if (chk.count() > 2 || (chk.count() == 2 && !(chk & sliders))) add(PositionProblem::impossible_check);
    }
    if (problems) return Unexpected(PositionError{problems});

    if (pos.turn_ == Color::black) pos.key_ ^= detail::zobrist.side;
    if (pos.ep_square_ != Square::none) {
        pos.ep_legal_ = pos.has_legal_ep(pos.ep_square_);
        if (pos.ep_legal_) pos.key_ ^= detail::zobrist.ep_file[file_of(pos.ep_square_)];
    }
    return pos;
}

Setup Position::to_setup() const {
    Setup s;
    s.board = board_;
    s.turn = turn_;
    s.castling_rooks = castling_rooks_;
    s.ep_square = ep_square_;
    s.halfmove_clock = halfmove_clock_;
    s.fullmove_number = fullmove_number_;
    s.chess960 = chess960_;
    return s;
}

std::uint64_t Position::compute_key() const noexcept {
    std::uint64_t k = 0;
    for (Square s : occupied()) k ^= detail::zobrist.piece_square[index(board_[index(s)])][index(s)];
    for (Square r : castling_rooks_) k ^= detail::zobrist.castling[index(r)];
    if (legal_ep_square() != Square::none) k ^= detail::zobrist.ep_file[file_of(ep_square_)];
    if (turn_ == Color::black) k ^= detail::zobrist.side;
    return k;
}

Bitboard Position::attackers_to(Square s, Bitboard occ) const noexcept {
    return (pawn_attacks(Color::white, s) & pieces(Color::black, PieceType::pawn)) |
           (pawn_attacks(Color::black, s) & pieces(Color::white, PieceType::pawn)) |
           (knight_attacks(s) & pieces(PieceType::knight)) | (king_attacks(s) & pieces(PieceType::king)) |
           (bishop_attacks(s, occ) & (pieces(PieceType::bishop) | pieces(PieceType::queen))) |
           (rook_attacks(s, occ) & (pieces(PieceType::rook) | pieces(PieceType::queen)));
}

bool Position::attacked_by(Color by, Square s, Bitboard occ) const noexcept {
    const Bitboard them = pieces(by);
    return ((pawn_attacks(~by, s) & pieces(PieceType::pawn) & them) |
            (knight_attacks(s) & pieces(PieceType::knight) & them) |
            (king_attacks(s) & pieces(PieceType::king) & them) |
            (bishop_attacks(s, occ) & (pieces(PieceType::bishop) | pieces(PieceType::queen)) & them) |
            (rook_attacks(s, occ) & (pieces(PieceType::rook) | pieces(PieceType::queen)) & them))
        .any();
}

bool Position::has_legal_ep(Square skipped) const noexcept {
    const Color us = turn_;
    const int up = us == Color::white ? 8 : -8;
    const Square captured = skipped - up;
    Bitboard candidates = pawn_attacks(~us, skipped) & pieces(us, PieceType::pawn);
    if (!candidates) return false;
    const Square k = king_square(us);
    for (Square from : candidates) {
        const Bitboard occ = (occupied() ^ from ^ captured) | skipped;
        const Bitboard attackers = attackers_to(k, occ) & pieces(~us) & ~Bitboard(captured);
        if (!attackers) return true;
    }
    return false;
}

bool Position::is_legal(Move m) const noexcept { return legal_moves(*this).contains(m); }

bool Position::gives_check(Move m) const noexcept { return after(m).in_check(); }

}  // namespace arbiter
