// notation.cpp — SAN and UCI reading and writing.
#include "arbiter/notation.hpp"

#include <algorithm>
#include <optional>

#include "arbiter/attacks.hpp"
#include "arbiter/movegen.hpp"
#include "arbiter/text.hpp"

namespace arbiter {

namespace {

Unexpected<MoveError> error(MoveError::Kind k, std::size_t offset, std::string message) {
    return Unexpected(MoveError{k, offset, std::move(message)});
}

// The text in single quotes (built by appending: GCC 12 warns falsely on "'" + std::string).
std::string quoted(std::string_view s) {
    std::string out(1, '\'');
    out += excerpt(s);
    out += '\'';
    return out;
}

bool is_castle_kingside(Move m) { return index(m.to()) > index(m.from()); }

// Piece kind of an upper-case SAN letter (inline: parse_san's hot path).
inline std::optional<PieceType> san_piece(char c) noexcept {
    switch (c) {
        case 'P': return PieceType::pawn;
        case 'N': return PieceType::knight;
        case 'B': return PieceType::bishop;
        case 'R': return PieceType::rook;
        case 'Q': return PieceType::queen;
        case 'K': return PieceType::king;
        default: return piece_type_from_char(c);
    }
}

// Is the pseudo-legal, non-castling move from -> to (en passant when `ep`) legal: is the mover's
// king safe afterwards?
bool leaves_king_safe(const Position& pos, Square from, Square to, bool ep) noexcept {
    const Color us = pos.turn();
    const Square king = pos.king_square(us);
    Bitboard occ = pos.occupied() ^ Bitboard(from);
    if (from == king) return !pos.attacked_by(~us, to, occ);
    Bitboard gone = Bitboard(to);  // a piece captured there no longer attacks
    occ |= Bitboard(to);
    if (ep) {
        const Square captured = us == Color::white ? to - 8 : to + 8;
        occ ^= Bitboard(captured);
        gone |= Bitboard(captured);
    }
    // The attackers of the king after the move, from small tables: pawns, knights and a king
    // (which the move cannot change, but for the one it takes), then each enemy slider on a line
    // through the king with nothing between them (the large occupancy-indexed attack tables
    // would miss the cache at nearly every move).
    const Bitboard them = pos.pieces(~us) & ~gone;
    if ((pawn_attacks(us, king) & pos.pieces(PieceType::pawn) & them) ||
        (knight_attacks(king) & pos.pieces(PieceType::knight) & them) ||
        (king_attacks(king) & pos.pieces(PieceType::king) & them))
        return false;
    const Bitboard queens = pos.pieces(PieceType::queen);
    const Bitboard snipers = ((bishop_rays(king) & (pos.pieces(PieceType::bishop) | queens)) |
                              (rook_rays(king) & (pos.pieces(PieceType::rook) | queens))) &
                             them;
    for (Square s : snipers)
        if (!(between(s, king) & occ)) return false;
    return true;
}

struct SanMatch {
    Move found;
    int matches = 0;
    bool promotion_needed = false;
};

// The legal non-castling moves of a `pt` to `to` that pass the disambiguation filters, matched
// against the promotion piece exactly as a scan of legal_moves() would: the unique match, the
// number of matches, and whether a promotion piece was missing, written into `r` (a struct
// returned by value was put together on the stack field by field and read back whole into
// registers: a store-forwarding stall at every move of every game).
void match_san(const Position& pos, PieceType pt, Square to, int from_file, int from_rank, PieceType promo,
               SanMatch& r) noexcept {
    Move found;
    int matches = 0;
    bool promotion_needed = false;
    const auto finish = [&] {
        r.found = found;
        r.matches = matches;
        r.promotion_needed = promotion_needed;
    };
    const Color us = pos.turn();
    const Bitboard ours = pos.pieces(us);
    if (ours.contains(to)) return finish();
    const Bitboard occ = pos.occupied();
    const int up = us == Color::white ? 8 : -8;
    auto keep = [&](Square from) {
        return (from_file < 0 || file_of(from) == from_file) && (from_rank < 0 || rank_of(from) == from_rank);
    };
    auto consider = [&](Move m) {
        if (m.promoted() != promo) {
            if (promo == PieceType::none) promotion_needed = true;
            return;
        }
        if (matches == 0) found = m;
        ++matches;
    };
    auto add = [&](Square from, bool ep) {
        if (!keep(from) || !leaves_king_safe(pos, from, to, ep)) return;
        if (ep) {
            consider(Move::en_passant(from, to));
        } else if (pt == PieceType::pawn && relative_rank(us, rank_of(to)) == 7) {
            for (PieceType p : {PieceType::queen, PieceType::rook, PieceType::bishop, PieceType::knight})
                consider(Move::promotion(from, to, p));
        } else {
            consider(Move::normal(from, to));
        }
    };
    if (pt == PieceType::knight || pt == PieceType::king) {
        for (Square from : attacks(pt, to, occ) & pos.pieces(us, pt)) add(from, false);
        return finish();
    }
    if (pt != PieceType::pawn) {
        // A slider reaches `to` when it stands on one of its empty-board rays from `to` with
        // nothing between: two small tables instead of the large occupancy-indexed one (whose
        // lookup for a new square misses the cache), the same origins in the same order.
        const Bitboard rays = pt == PieceType::bishop ? bishop_rays(to)
                              : pt == PieceType::rook ? rook_rays(to)
                                                      : bishop_rays(to) | rook_rays(to);
        for (Square from : rays& pos.pieces(us, pt))
            if (!(between(from, to) & occ)) add(from, false);
        return finish();
    }
    const Bitboard pawns = pos.pieces(us, PieceType::pawn);
    if (!occ.contains(to)) {
        const Square one = to - up;
        if (is_ok(one) && pawns.contains(one)) {
            add(one, false);
        } else if (is_ok(one) && !occ.contains(one) && relative_rank(us, rank_of(to)) == 3 &&
                   pawns.contains(one - up)) {
            add(one - up, false);
        }
        if (to == pos.ep_square())
            for (Square from : pawn_attacks(~us, to) & pawns) add(from, true);
    } else {
        for (Square from : pawn_attacks(~us, to) & pawns) add(from, false);
    }
    return finish();
}

}  // namespace

std::string to_san_plain(const Position& pos, Move m) {
    if (m.is_castling()) return is_castle_kingside(m) ? "O-O" : "O-O-O";
    const Piece moving = pos.piece_at(m.from());
    const PieceType pt = type_of(moving);
    std::string out;
    if (pt == PieceType::pawn) {
        if (pos.is_capture(m)) {
            out += file_char(file_of(m.from()));
            out += 'x';
        }
        out += to_string(m.to());
        if (m.is_promotion()) {
            out += '=';
            out += piece_letter(m.promoted());
        }
        return out;
    }
    out += piece_letter(pt);
    // Disambiguate among other pieces of the same kind that can reach the same square: only
    // where another one attacks it at all (the move list is made for the rare moves that need it).
    const Bitboard rivals =
        attacks(pt, m.to(), pos.occupied()) & pos.pieces(color_of(moving), pt) & ~Bitboard(m.from());
    if (pt != PieceType::king && rivals) {
        bool clash = false, same_file = false, same_rank = false;
        for (Move o : legal_moves(pos)) {
            if (o == m || o.to() != m.to() || o.from() == m.from() || o.is_castling()) continue;
            if (pos.piece_at(o.from()) != moving) continue;
            clash = true;
            same_file |= file_of(o.from()) == file_of(m.from());
            same_rank |= rank_of(o.from()) == rank_of(m.from());
        }
        if (clash) {
            if (!same_file) {
                out += file_char(file_of(m.from()));
            } else if (!same_rank) {
                out += rank_char(rank_of(m.from()));
            } else {
                out += to_string(m.from());
            }
        }
    }
    if (pos.is_capture(m)) out += 'x';
    out += to_string(m.to());
    return out;
}

std::string to_san(const Position& pos, Move m) {
    std::string out = to_san_plain(pos, m);
    const Position next = pos.after(m);
    if (next.in_check()) out += has_legal_move(next) ? '+' : '#';
    return out;
}

std::vector<std::string> to_san_line(Position pos, std::span<const Move> line) {
    std::vector<std::string> out;
    out.reserve(line.size());
    for (Move m : line) {
        out.push_back(to_san_plain(pos, m));
        pos.play_unchecked(m);
        if (pos.in_check()) out.back() += has_legal_move(pos) ? '+' : '#';
    }
    return out;
}

namespace {

// The shapes nearly every move of a real game has — "e4", "exd5", "Nf3", "Nxe5", "Nbd7", "R1e2",
// each with an optional "+" or "#" — resolved without the general parser's bookkeeping. Returns
// the move only when it is the unique match, exactly as the general parser would find it; for
// anything else (other shapes, no match, an ambiguity) it returns nothing and the general parser
// decides, with its error messages.
std::optional<Move> parse_san_common(const Position& pos, std::string_view san) noexcept {
    std::size_t n = san.size();
    while (n > 0 && (san[n - 1] == '+' || san[n - 1] == '#')) --n;
    if (n < 2 || n > 5) return std::nullopt;
    auto is_file = [](char c) { return c >= 'a' && c <= 'h'; };
    auto is_rank = [](char c) { return c >= '1' && c <= '8'; };
    const char to_f = san[n - 2], to_r = san[n - 1];
    if (!is_file(to_f) || !is_rank(to_r)) return std::nullopt;
    PieceType pt = PieceType::pawn;
    std::size_t i = 0;
    switch (san[0]) {
        case 'N': pt = PieceType::knight; break;
        case 'B': pt = PieceType::bishop; break;
        case 'R': pt = PieceType::rook; break;
        case 'Q': pt = PieceType::queen; break;
        case 'K': pt = PieceType::king; break;
        default: break;
    }
    if (pt != PieceType::pawn) i = 1;
    // Between the piece letter and the destination: nothing, "x", one disambiguation character,
    // or one and "x".
    std::size_t mid_end = n - 2;
    if (mid_end > i && san[mid_end - 1] == 'x') --mid_end;
    const bool capture_mark = mid_end != n - 2;
    int from_file = -1, from_rank = -1;
    if (mid_end - i == 1) {
        const char d = san[i];
        if (is_file(d))
            from_file = d - 'a';
        else if (is_rank(d) && pt != PieceType::pawn)
            from_rank = d - '1';
        else
            return std::nullopt;
    } else if (mid_end != i) {
        return std::nullopt;
    }
    if (pt == PieceType::pawn) {
        // A push has no origin ("e4"); a capture names the file and the mark ("exd5").
        if (capture_mark != (from_file >= 0)) return std::nullopt;
        if (from_file < 0) from_file = to_f - 'a';
    }
    SanMatch r;
    match_san(pos, pt, make_square(to_f - 'a', to_r - '1'), from_file, from_rank, PieceType::none, r);
    if (r.matches != 1) return std::nullopt;
    return r.found;
}

}  // namespace

Expected<SanParts, MoveError> san_parts(std::string_view san) {
    using K = MoveError::Kind;
    if (san.empty()) return error(K::syntax, 0, "empty move");
    SanParts out;
    std::size_t i = 0;
    const std::size_t n = san.size();

    // The core of the move ends where the suffix (check marks, annotations, "e.p.") starts.
    auto parse_suffix = [&](std::size_t from) -> std::optional<MoveError> {
        std::size_t j = from;
        while (j < n) {
            const char c = san[j];
            if (c == '+' || c == '#' || c == '!' || c == '?') {
                ++j;
            } else if (san.substr(j, 4) == "e.p.") {
                j += 4;
            } else if (san.substr(j, 2) == "ep") {
                j += 2;
            } else if (c == ' ' && j + 1 < n && san[j + 1] == 'e') {
                ++j;  // "exd6 e.p."
            } else {
                return MoveError{K::syntax, j,
                                 "unexpected '" +
                                     printable(san.substr(j, std::max<std::size_t>(1, utf8_length_at(san, j)))) +
                                     "' in move '" + excerpt(san) + "'"};
            }
        }
        return std::nullopt;
    };

    // Castling.
    if (san[0] == 'O' || san[0] == '0' || san[0] == 'o') {
        const char o = san[0];
        std::size_t j = 0;
        int parts = 0;
        while (j < n && san[j] == o) {
            ++parts;
            ++j;
            if (parts < 3 && j < n && san[j] == '-' && j + 1 < n && san[j + 1] == o) {
                ++j;
            } else {
                break;
            }
        }
        if (parts < 2 || parts > 3)
            return error(K::syntax, j, "castling must be O-O or O-O-O, found '" + excerpt(san) + "'");
        if (auto e = parse_suffix(j)) return Unexpected(*e);
        out.piece = PieceType::king;
        out.castling = parts == 2 ? SanParts::Castling::kingside : SanParts::Castling::queenside;
        return out;
    }

    PieceType pt = PieceType::pawn;
    if (san[i] >= 'A' && san[i] <= 'Z') {
        const auto t = san_piece(san[i]);
        if (!t) return error(K::syntax, i, "unknown piece letter '" + printable(san.substr(i, 1)) + "'");
        pt = *t;
        ++i;
    }
    // Squares part: [file][rank][x|-|:][file][rank]. The capture mark (at most one, right before
    // the destination square) is skipped; the first two and the last two coordinate characters
    // are kept, with their offsets for error messages.
    int from_file = -1, from_rank = -1;
    char head[2] = {0, 0}, tail[2] = {0, 0};
    std::size_t head_at[2] = {0, 0}, tail_at[2] = {0, 0};
    std::size_t count = 0;
    std::size_t mark_at = n;        // offset of the capture mark, n when there is none
    std::size_t count_at_mark = 0;  // coordinate characters before it
    while (i < n && ((san[i] >= 'a' && san[i] <= 'h') || (san[i] >= '1' && san[i] <= '8') || san[i] == 'x' ||
                     san[i] == '-' || san[i] == ':')) {
        const char c = san[i];
        // Stops before an "e.p." or "ep" written without a space ("exd6e.p.").
        if (c == 'e' && i + 1 < n && (san[i + 1] == '.' || san[i + 1] == 'p')) break;
        if (c == 'x' || c == '-' || c == ':') {
            if (mark_at != n) return error(K::syntax, i, "second capture mark in " + quoted(san));
            mark_at = i;
            count_at_mark = count;
        } else {
            if (count < 2) {
                head[count] = c;
                head_at[count] = i;
            }
            tail[0] = tail[1];
            tail_at[0] = tail_at[1];
            tail[1] = c;
            tail_at[1] = i;
            ++count;
        }
        ++i;
    }
    if (count < 2) {
        return error(K::syntax, i < n ? i : n, "expected a destination square in '" + excerpt(san) + "'");
    }
    // The mark must stand right before the destination; a pawn capture names the pawn's file
    // first ("exd5").
    if (mark_at != n && (count != count_at_mark + 2 || (pt == PieceType::pawn && count_at_mark == 0)))
        return error(K::syntax, mark_at, "misplaced capture mark in " + quoted(san));
    if (!(tail[0] >= 'a' && tail[0] <= 'h') || !(tail[1] >= '1' && tail[1] <= '8'))
        return error(K::syntax, tail_at[0], "expected a destination square in '" + excerpt(san) + "'");
    const int to_file = tail[0] - 'a';
    const int to_rank = tail[1] - '1';
    const std::size_t prefix = count - 2;
    if (prefix == 1) {
        if (head[0] >= 'a' && head[0] <= 'h')
            from_file = head[0] - 'a';
        else
            from_rank = head[0] - '1';
    } else if (prefix == 2) {
        if (!(head[0] >= 'a' && head[0] <= 'h') || !(head[1] >= '1' && head[1] <= '8'))
            return error(K::syntax, head_at[0], "bad disambiguation in '" + excerpt(san) + "'");
        from_file = head[0] - 'a';
        from_rank = head[1] - '1';
    } else if (prefix > 2) {
        return error(K::syntax, head_at[0], "too many squares in '" + excerpt(san) + "'");
    }

    // Promotion: "=Q", "Q", "(Q)", "/Q".
    PieceType promo = PieceType::none;
    if (i < n && (san[i] == '=' || san[i] == '/' || san[i] == '(' ||
                  (pt == PieceType::pawn && (san[i] == 'Q' || san[i] == 'R' || san[i] == 'B' || san[i] == 'N')))) {
        const bool paren = san[i] == '(';
        if (san[i] == '=' || san[i] == '/' || paren) ++i;
        const auto t = i < n ? san_piece(san[i]) : std::nullopt;
        if (!t || *t == PieceType::pawn || *t == PieceType::king || pt != PieceType::pawn)
            return error(K::syntax, i, "bad promotion piece in '" + excerpt(san) + "'");
        promo = *t;
        ++i;
        if (paren) {
            if (i >= n || san[i] != ')') return error(K::syntax, i, "missing ')' in '" + excerpt(san) + "'");
            ++i;
        }
    }
    if (auto e = parse_suffix(i)) return Unexpected(*e);

    // A pawn move without an origin file is a push: captures must name their file ("exd5").
    if (pt == PieceType::pawn && from_file < 0) from_file = to_file;
    out.piece = pt;
    out.from_file = from_file;
    out.from_rank = from_rank;
    out.to = make_square(to_file, to_rank);
    out.promotion = promo;
    return out;
}

Expected<Move, MoveError> parse_san(const Position& pos, std::string_view san) {
    using K = MoveError::Kind;
    if (san.empty()) return error(K::syntax, 0, "empty move");
    if (const auto m = parse_san_common(pos, san)) return *m;
    const auto parts = san_parts(san);
    if (!parts) return Unexpected(parts.error());
    if (parts->castling != SanParts::Castling::none) {
        const bool kingside = parts->castling == SanParts::Castling::kingside;
        MoveList castlings;
        legal_castlings(pos, castlings);
        for (Move m : castlings)
            if (is_castle_kingside(m) == kingside) return m;
        return error(K::illegal, 0,
                     std::string("castling ") + (kingside ? "king" : "queen") + "side is not legal here");
    }
    // Resolve against the legal moves to `to` of the named piece kind. Instead of listing every
    // legal move, only the origins that can reach `to` are tried, each checked for legality.
    SanMatch r;
    match_san(pos, parts->piece, parts->to, parts->from_file, parts->from_rank, parts->promotion, r);
    if (r.matches == 1) return r.found;
    if (r.matches > 1) {
        // Name the candidates: "'Nd2' is ambiguous: Nbd2 or Nfd2".
        std::vector<std::string> candidates;
        for (Move m : legal_moves(pos)) {
            if (m.to() != parts->to || type_of(pos.piece_at(m.from())) != parts->piece ||
                m.promoted() != parts->promotion)
                continue;
            if ((parts->from_file >= 0 && file_of(m.from()) != parts->from_file) ||
                (parts->from_rank >= 0 && rank_of(m.from()) != parts->from_rank))
                continue;
            candidates.push_back(to_san(pos, m));
        }
        std::sort(candidates.begin(), candidates.end());
        std::string list;
        for (std::size_t k = 0; k < candidates.size(); ++k)
            list += (k == 0 ? "" : k + 1 == candidates.size() ? " or " : ", ") + candidates[k];
        return error(K::ambiguous, 0, quoted(san) + " is ambiguous: " + list);
    }
    if (r.promotion_needed) return error(K::illegal, san.size(), quoted(san) + " needs a promotion piece");
    return error(K::illegal, 0, quoted(san) + " is not a legal move");
}

std::string to_uci(const Position& pos, Move m) {
    if (m.is_null()) return "0000";
    std::string out = to_string(m.from());
    Square to = m.to();
    if (m.is_castling() && !pos.is_chess960()) to = Position::castle_king_to(pos.turn(), m.from(), m.to());
    out += to_string(to);
    if (m.is_promotion()) out += static_cast<char>(piece_letter(m.promoted()) + ('a' - 'A'));
    return out;
}

Expected<Move, MoveError> parse_uci(const Position& pos, std::string_view uci) {
    using K = MoveError::Kind;
    if (uci.size() < 4 || uci.size() > 5)
        return error(K::syntax, std::min<std::size_t>(uci.size(), 4),
                     "UCI moves have 4 or 5 characters, found '" + printable(uci) + "'");
    const auto from = parse_square(uci.substr(0, 2));
    if (!from) return error(K::syntax, 0, "bad origin square in '" + printable(uci) + "'");
    const auto to = parse_square(uci.substr(2, 2));
    if (!to) return error(K::syntax, 2, "bad destination square in '" + printable(uci) + "'");
    PieceType promo = PieceType::none;
    if (uci.size() == 5) {
        const auto t = piece_type_from_char(uci[4]);
        if (!t || *t == PieceType::pawn || *t == PieceType::king)
            return error(K::syntax, 4, "bad promotion piece in '" + printable(uci) + "'");
        promo = *t;
    }
    for (Move m : legal_moves(pos)) {
        if (m.from() != *from) continue;
        if (m.is_castling()) {
            const bool king_to_rook = m.to() == *to;
            const bool king_to_target =
                !pos.is_chess960() && Position::castle_king_to(pos.turn(), m.from(), m.to()) == *to;
            if ((king_to_rook || king_to_target) && promo == PieceType::none) return m;
            continue;
        }
        if (m.to() == *to && m.promoted() == promo) return m;
    }
    return error(K::illegal, 0, quoted(uci) + " is not a legal move");
}

namespace {

// Figurine notation (FIDE Laws, Appendix C.13): a piece's figure, either colour's (U+2654 ♔ to
// U+265F ♟, three bytes each in UTF-8), in place of its letter; a pawn's figure stands for no
// letter. The SAN it writes, with the byte of the text each of its bytes came from; nothing when
// the text has no figure.
struct FigurineSan {
    std::string san;
    std::vector<std::size_t> from;  // from[i]: the text's byte of san[i]; from[size] the end
};

std::optional<FigurineSan> figurine_san(std::string_view text) {
    static constexpr char letters[] = "KQRBN KQRBN ";  // ♔♕♖♗♘♙ then ♚♛♜♝♞♟ (a pawn: no letter)
    FigurineSan out;
    bool figure = false;
    for (std::size_t i = 0; i < text.size();) {
        const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
        if (i + 2 < text.size() && byte(i) == 0xE2 && byte(i + 1) == 0x99 && byte(i + 2) >= 0x94 &&
            byte(i + 2) <= 0x9F) {
            figure = true;
            if (const char letter = letters[byte(i + 2) - 0x94]; letter != ' ') {
                out.san += letter;
                out.from.push_back(i);
            }
            i += 3;
            continue;
        }
        out.san += text[i];
        out.from.push_back(i++);
    }
    out.from.push_back(text.size());
    if (!figure) return std::nullopt;
    return out;
}

}  // namespace

Expected<Move, MoveError> parse_move(const Position& pos, std::string_view text) {
    if (auto fig = figurine_san(text)) {
        auto m = parse_san(pos, fig->san);
        if (m) return m;
        // The error as the text was written: its byte, and the figures in its words.
        MoveError e = m.error();
        e.offset = fig->from[std::min(e.offset, fig->san.size())];
        const std::string said = "'" + fig->san + "'", written = "'" + std::string(text) + "'";
        for (std::size_t at = e.message.find(said); at != std::string::npos;
             at = e.message.find(said, at + written.size()))
            e.message.replace(at, said.size(), written);
        return Unexpected(std::move(e));
    }
    const bool uci_shaped =
        (text.size() == 4 || text.size() == 5) && parse_square(text.substr(0, 2)) && parse_square(text.substr(2, 2));
    if (uci_shaped || text == "0000") {
        auto m = parse_uci(pos, text);
        if (m) return m;
    }
    return parse_san(pos, text);
}

}  // namespace arbiter
