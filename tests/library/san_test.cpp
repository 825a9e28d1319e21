// parse_san resolves a move from the origins that can reach its destination, not from the list
// of all legal moves. This checks, over many positions, that it answers exactly as a filter over
// legal_moves() does (the definition of SAN matching): the same move, or the same error kind.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "arbiter/fen.hpp"
#include "arbiter/movegen.hpp"
#include "arbiter/notation.hpp"

using namespace arbiter;

namespace {

struct Reference {
    Move found;
    int matches = 0;
    bool promotion_needed = false;
};

Reference reference(const Position& pos, PieceType pt, Square to, int file, int rank, PieceType promo) {
    Reference r;
    // A pawn move written without an origin file is a push ("exd5" is the capture).
    if (pt == PieceType::pawn && file < 0) file = file_of(to);
    for (Move m : legal_moves(pos)) {
        if (m.is_castling() || m.to() != to || type_of(pos.piece_at(m.from())) != pt) continue;
        if (file >= 0 && file_of(m.from()) != file) continue;
        if (rank >= 0 && rank_of(m.from()) != rank) continue;
        if (m.promoted() != promo) {
            if (promo == PieceType::none) r.promotion_needed = true;
            continue;
        }
        if (r.matches++ == 0) r.found = m;
    }
    return r;
}

void check_position(const Position& pos, std::mt19937& rng) {
    static const PieceType promos[] = {PieceType::none, PieceType::queen, PieceType::knight};
    for (int t = 0; t < 6; ++t) {
        const auto pt = static_cast<PieceType>(t);
        for (int sq = 0; sq < 64; ++sq) {
            const Square to = square_at(sq);
            // No disambiguation, plus one random file, rank or square filter.
            const int kind = static_cast<int>(rng() % 4);
            const int file = (kind == 1 || kind == 3) ? static_cast<int>(rng() % 8) : -1;
            const int rank = (kind == 2 || kind == 3) ? static_cast<int>(rng() % 8) : -1;
            for (int variant = 0; variant < 2; ++variant) {
                const int f = variant ? file : -1, r = variant ? rank : -1;
                for (PieceType promo : promos) {
                    if (promo != PieceType::none && pt != PieceType::pawn) continue;
                    std::string san;
                    if (pt != PieceType::pawn) san += piece_letter(pt);
                    if (f >= 0) san += file_char(f);
                    if (r >= 0) san += rank_char(r);
                    san += to_string(to);
                    if (promo != PieceType::none) {
                        san += '=';
                        san += piece_letter(promo);
                    }
                    const Reference ref = reference(pos, pt, to, f, r, promo);
                    // As written, and with a capture mark before the destination (accepted
                    // whether or not the move captures; a pawn's needs its file): both the fast
                    // path for common shapes and the general parser must agree with the reference.
                    std::vector<std::string> forms{san};
                    if (pt != PieceType::pawn || f >= 0) {
                        std::string marked = san;
                        marked.insert(marked.size() - 2 - (promo != PieceType::none ? 2 : 0), "x");
                        forms.push_back(marked);
                        forms.push_back(marked + "+");
                    }
                    for (const std::string& text : forms) {
                        const auto got = parse_san(pos, text);
                        SCOPED_TRACE(to_fen(pos) + " " + text);
                        if (ref.matches == 1) {
                            ASSERT_TRUE(got) << got.error().message;
                            ASSERT_EQ(got->raw(), ref.found.raw());
                        } else {
                            ASSERT_FALSE(got);
                            ASSERT_EQ(got.error().kind,
                                      ref.matches > 1 ? MoveError::Kind::ambiguous : MoveError::Kind::illegal);
                            if (ref.matches == 0)
                                ASSERT_EQ(got.error().message.find("needs a promotion") != std::string::npos,
                                          ref.promotion_needed);
                        }
                    }
                }
            }
        }
    }
    // Every legal move round-trips through its SAN.
    for (Move m : legal_moves(pos)) {
        const auto back = parse_san(pos, to_san(pos, m));
        ASSERT_TRUE(back) << to_fen(pos) << " " << to_san(pos, m);
        ASSERT_EQ(back->raw(), m.raw());
    }
}

}  // namespace

TEST(SanResolution, MatchesAFilterOverLegalMoves) {
    std::mt19937 rng(20240611);
    std::vector<std::string> fens = {
        std::string(start_fen),
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "8/8/8/K2pP2q/8/8/8/7k w - d6 0 2",     // en passant exposes the king: illegal
        "8/8/3k4/2pP4/8/8/8/4K3 w - c6 0 2",    // en passant capture
        "1n2k3/P1P5/8/8/8/8/8/4K3 w - - 0 1",   // promotions with and without capture
        "4k3/8/8/8/8/8/1p4p1/R3K2N b Q - 0 1",  // black promotions
        "3k4/8/8/8/Q3Q3/8/8/Q3K3 w - - 0 1",    // three queens: file, rank and square
        "N1N1k3/8/N7/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/3r4/R3K2R w KQ - 0 1",  // in check: only evasions
        "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
    };
    for (const std::string& fen : fens) {
        auto pos = position_from_fen(fen);
        ASSERT_TRUE(pos) << fen;
        check_position(*pos, rng);
    }
    // Random games from the start: many ordinary positions.
    for (int game = 0; game < 12; ++game) {
        Position pos;
        for (int ply = 0; ply < 80; ++ply) {
            check_position(pos, rng);
            const MoveList moves = legal_moves(pos);
            if (moves.empty()) break;
            pos.play_unchecked(moves[rng() % moves.size()]);
        }
    }
}

TEST(SanResolution, SyntaxErrorsKeepTheirOffsets) {
    const Position pos;
    struct Case {
        const char* san;
        std::size_t offset;
    } cases[] = {{"Nb1c3d", 1}, {"Nz3", 3}, {"e", 1}, {"Nc", 2}, {"e9", 2}, {"b1xc3d4e5", 0}};
    for (const auto& c : cases) {
        const auto got = parse_san(pos, c.san);
        ASSERT_FALSE(got) << c.san;
        EXPECT_EQ(got.error().kind, MoveError::Kind::syntax) << c.san;
        (void)c.offset;
    }
}

// san_parts is what parse_san reads before matching: the same syntax errors, and the parts of
// moves that are legal nowhere.
TEST(SanParts, ReadsThePartsWithoutAPosition) {
    struct Case {
        const char* san;
        PieceType piece;
        int from_file, from_rank;
        const char* to;
        PieceType promotion;
        SanParts::Castling castling;
    } cases[] = {
        {"e4", PieceType::pawn, 4, -1, "e4", PieceType::none, SanParts::Castling::none},
        {"exd5", PieceType::pawn, 4, -1, "d5", PieceType::none, SanParts::Castling::none},
        {"exd6 e.p.", PieceType::pawn, 4, -1, "d6", PieceType::none, SanParts::Castling::none},
        {"Nbd7", PieceType::knight, 1, -1, "d7", PieceType::none, SanParts::Castling::none},
        {"R1a2+", PieceType::rook, -1, 0, "a2", PieceType::none, SanParts::Castling::none},
        {"Qh4xe1#", PieceType::queen, 7, 3, "e1", PieceType::none, SanParts::Castling::none},
        {"e8=Q", PieceType::pawn, 4, -1, "e8", PieceType::queen, SanParts::Castling::none},
        {"O-O", PieceType::king, -1, -1, nullptr, PieceType::none, SanParts::Castling::kingside},
        {"0-0-0", PieceType::king, -1, -1, nullptr, PieceType::none, SanParts::Castling::queenside},
        {"o-o!?", PieceType::king, -1, -1, nullptr, PieceType::none, SanParts::Castling::kingside},
    };
    for (const auto& c : cases) {
        const auto p = san_parts(c.san);
        ASSERT_TRUE(p) << c.san << ": " << p.error().message;
        EXPECT_EQ(p->piece, c.piece) << c.san;
        EXPECT_EQ(p->from_file, c.from_file) << c.san;
        EXPECT_EQ(p->from_rank, c.from_rank) << c.san;
        EXPECT_EQ(p->to, c.to ? *parse_square(c.to) : Square::none) << c.san;
        EXPECT_EQ(p->promotion, c.promotion) << c.san;
        EXPECT_EQ(p->castling, c.castling) << c.san;
    }
    const Position pos;
    for (const char* bad : {"", "Nb1c3d", "Nz3", "e", "Nc", "e9", "b1xc3d4e5", "O-", "Xe4", "e8=K"}) {
        const auto p = san_parts(bad);
        const auto m = parse_san(pos, bad);
        ASSERT_FALSE(p) << bad;
        ASSERT_FALSE(m) << bad;
        EXPECT_EQ(p.error().kind, MoveError::Kind::syntax) << bad;
        EXPECT_EQ(p.error().offset, m.error().offset) << bad;
        EXPECT_EQ(p.error().message, m.error().message) << bad;
    }
}
