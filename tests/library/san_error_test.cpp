// Malformed, illegal and ambiguous moves, table-driven: each case asserts the error kind and
// the byte offset it points at; and the tolerated spellings (annotations, "0-0", "e.p.").
#include <gtest/gtest.h>

#include "arbiter/arbiter.hpp"

using namespace arbiter;

namespace {

using K = MoveError::Kind;

constexpr const char* start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
// White can castle both ways; knights on b1 and f3 both reach d2; rooks on a1 and a5 both reach a3.
constexpr const char* clash = "4k3/8/8/R7/8/5N2/8/RN2K2R w K - 0 1";
// A pawn on b7 that must promote; black pawn d5 can be taken en passant... by e5 after ...d5.
constexpr const char* promo = "8/1P2k3/8/3pP3/8/8/8/4K3 w - d6 0 2";
// Black pawn d4 and white pawn e4: only the capture reaches d5... for the e-pawn (white).
constexpr const char* capture = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";

struct SanCase {
    const char* name;
    const char* fen;
    const char* san;
    K kind;
    std::size_t offset;
};

const SanCase san_cases[] = {
    // Syntax.
    {"empty", start, "", K::syntax, 0},
    {"unknown_piece", start, "Xe4", K::syntax, 0},
    {"rank_nine", start, "e9", K::syntax, 1},
    {"file_only", start, "e", K::syntax, 1},
    {"piece_only", start, "N", K::syntax, 1},
    {"bad_rank_disambiguation", start, "N9f3", K::syntax, 1},
    {"trailing_capture_mark", start, "Nf3x", K::syntax, 3},
    {"double_capture_mark", start, "Nxxf3", K::syntax, 2},
    {"capture_mark_first", start, "xe4", K::syntax, 0},
    {"too_many_squares", start, "Ng1h3f4", K::syntax, 1},
    {"trailing_space", start, "Nf3 ", K::syntax, 3},
    {"trailing_garbage", start, "e4 foo", K::syntax, 2},
    {"leading_space", start, " e4", K::syntax, 0},
    {"lower_case_piece_after_move", start, "e4n", K::syntax, 2},
    {"non_ascii", start, "\xff\xfe", K::syntax, 0},
    {"promotion_to_king", promo, "b8=K", K::syntax, 3},
    {"promotion_to_pawn", promo, "b8=P", K::syntax, 3},
    {"promotion_piece_missing", promo, "b8=", K::syntax, 3},
    {"promotion_unclosed", promo, "b8(Q", K::syntax, 4},
    {"piece_promotes", clash, "Nd2=Q", K::syntax, 4},
    {"castling_one_o", start, "O", K::syntax, 1},
    {"castling_dangling_dash", start, "O-", K::syntax, 1},
    {"castling_four_parts", clash, "O-O-O-O", K::syntax, 5},
    {"castling_mixed", clash, "O-0", K::syntax, 1},
    // Illegal.
    {"knight_cannot_reach", start, "Ng3", K::illegal, 0},
    {"pawn_too_far", start, "e5", K::illegal, 0},
    {"blocked_king", start, "Ke2", K::illegal, 0},
    {"blocked_bishop", start, "Bb5", K::illegal, 0},
    {"blocked_rook", start, "Ra3", K::illegal, 0},
    {"blocked_queen_file", start, "Qd4", K::illegal, 0},
    {"blocked_queen_diagonal", start, "Qh5", K::illegal, 0},
    {"rook_not_on_a_line", start, "Rb3", K::illegal, 0},
    {"pinned_bishop", "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", "Bd3", K::illegal, 0},
    {"pinned_queen_off_its_line", "4k3/4r3/8/8/8/8/4Q3/4K3 w - - 0 1", "Qd2", K::illegal, 0},
    {"castle_blocked", start, "O-O", K::illegal, 0},
    {"castle_no_right", clash, "O-O-O", K::illegal, 0},
    {"pawn_capture_without_file", capture, "d5", K::illegal, 0},
    {"wrong_disambiguation", clash, "Ncd2", K::illegal, 0},
    {"promotion_missing", promo, "b8", K::illegal, 2},
    {"promotion_on_non_promotion", start, "e4=Q", K::illegal, 0},
    {"black_piece_for_white", start, "Nc6", K::illegal, 0},
    // Ambiguous.
    {"two_knights", clash, "Nd2", K::ambiguous, 0},
    {"two_rooks_same_file", clash, "Ra3", K::ambiguous, 0},
    {"two_rooks_file_does_not_help", clash, "Raa3", K::ambiguous, 0},
};

std::string case_name(const ::testing::TestParamInfo<SanCase>& info) { return info.param.name; }
void PrintTo(const SanCase& c, std::ostream* os) { *os << '"' << c.san << "\" in " << c.fen; }

Position read(const char* fen) {
    auto pos = position_from_fen(fen);
    EXPECT_TRUE(pos) << fen << ": " << pos.error().describe();
    return pos ? *pos : Position();
}

}  // namespace

class SanErrors : public ::testing::TestWithParam<SanCase> {};

TEST_P(SanErrors, KindAndOffset) {
    const SanCase& c = GetParam();
    const Position pos = read(c.fen);
    auto m = parse_san(pos, c.san);
    ASSERT_FALSE(m) << "'" << c.san << "' parsed as " << to_uci(pos, *m);
    EXPECT_STREQ(kind_name(m.error().kind), kind_name(c.kind)) << m.error().message;
    EXPECT_EQ(m.error().offset, c.offset) << m.error().message;
    EXPECT_FALSE(m.error().message.empty());
}

INSTANTIATE_TEST_SUITE_P(Table, SanErrors, ::testing::ValuesIn(san_cases), case_name);

TEST(SanErrors, TableIsLarge) { EXPECT_GE(std::size(san_cases), 30u); }

TEST(San, ToleratedSpellings) {
    const struct {
        const char* fen;
        const char* san;
        const char* uci;
    } cases[] = {
        {start, "e4", "e2e4"},       {start, "e4!", "e2e4"},    {start, "e4!!", "e2e4"},
        {start, "e4?", "e2e4"},      {start, "e4!?", "e2e4"},   {start, "e4?!", "e2e4"},
        {start, "e4+", "e2e4"},      {start, "e4#", "e2e4"},    {start, "Nf3", "g1f3"},
        {start, "Ngf3", "g1f3"},     {start, "N1f3", "g1f3"},   {start, "Ng1f3", "g1f3"},
        {start, "Ng1-f3", "g1f3"},   {start, "Nxf3", "g1f3"},   {start, "e2e4", "e2e4"},
        {start, "e2-e4", "e2e4"},    {start, "Pe4", "e2e4"},    {clash, "O-O", "e1g1"},
        {clash, "0-0", "e1g1"},      {clash, "O-O+", "e1g1"},   {clash, "0-0!", "e1g1"},
        {clash, "Nbd2", "b1d2"},     {clash, "Nfd2", "f3d2"},   {clash, "N1d2", "b1d2"},
        {clash, "N3d2", "f3d2"},     {clash, "Nf3d2", "f3d2"},  {clash, "R5a3", "a5a3"},
        {clash, "R1a3", "a1a3"},     {clash, "Ra5a3", "a5a3"},  {promo, "b8=Q", "b7b8q"},
        {promo, "b8Q", "b7b8q"},     {promo, "b8=N+", "b7b8n"}, {promo, "b8(R)", "b7b8r"},
        {promo, "b8/B", "b7b8b"},    {promo, "exd6", "e5d6"},   {promo, "exd6 e.p.", "e5d6"},
        {promo, "exd6e.p.", "e5d6"}, {promo, "exd6ep", "e5d6"}, {promo, "exd6 e.p.+", "e5d6"},
        {promo, "ed6", "e5d6"},      {promo, "e5d6", "e5d6"},   {promo, "e:d6", "e5d6"},
        {capture, "exd5", "e4d5"},   {capture, "e5", "e4e5"},
    };
    for (const auto& c : cases) {
        const Position pos = read(c.fen);
        auto m = parse_san(pos, c.san);
        ASSERT_TRUE(m) << c.fen << " '" << c.san << "': " << m.error().message;
        EXPECT_EQ(to_uci(pos, *m), c.uci) << c.san;
    }
}

TEST(San, WritesStandardForms) {
    const Position c = read(clash);
    EXPECT_EQ(to_san(c, *parse_uci(c, "b1d2")), "Nbd2");
    EXPECT_EQ(to_san(c, *parse_uci(c, "a5a3")), "R5a3");
    EXPECT_EQ(to_san(c, *parse_uci(c, "e1g1")), "O-O");
    EXPECT_EQ(to_san(c, *parse_uci(c, "a5a8")), "Ra8+");
    const Position p = read(promo);
    EXPECT_EQ(to_san(p, *parse_uci(p, "b7b8q")), "b8=Q");
    EXPECT_EQ(to_san(p, *parse_uci(p, "e5d6")), "exd6+");
    // Mate gets '#'.
    const Position mate = read("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    EXPECT_EQ(to_san(mate, *parse_san(mate, "Ra8")), "Ra8#");
    // Three queens that need the full square to tell them apart.
    const Position queens = read("7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1");
    EXPECT_EQ(to_san(queens, *parse_uci(queens, "a4b3")), "Qa4b3");
}

TEST(Uci, Errors) {
    const Position pos;
    const struct {
        const char* uci;
        K kind;
        std::size_t offset;
    } cases[] = {
        {"", K::syntax, 0},       {"e2", K::syntax, 2},    {"e2e4qq", K::syntax, 4}, {"i2e4", K::syntax, 0},
        {"e2e9", K::syntax, 2},   {"e7e8k", K::syntax, 4}, {"e2e5", K::illegal, 0},  {"e1g1", K::illegal, 0},
        {"e2e4q", K::illegal, 0}, {"0000", K::syntax, 0},
    };
    for (const auto& c : cases) {
        auto m = parse_uci(pos, c.uci);
        ASSERT_FALSE(m) << c.uci;
        EXPECT_EQ(m.error().kind, c.kind) << c.uci << ": " << m.error().message;
        EXPECT_EQ(m.error().offset, c.offset) << c.uci << ": " << m.error().message;
    }
}

TEST(Uci, CastlingInBothForms) {
    const Position c = read(clash);
    EXPECT_EQ(to_uci(c, *parse_uci(c, "e1g1")), "e1g1");
    EXPECT_EQ(*parse_uci(c, "e1h1"), *parse_uci(c, "e1g1"));
    // Chess960: king takes rook, the only form that is never ambiguous.
    const Position x = read("2r5/8/8/8/8/8/6PP/k2KR3 w K - 0 1");
    ASSERT_TRUE(x.is_chess960());
    auto castle = parse_uci(x, "d1e1");
    ASSERT_TRUE(castle);
    EXPECT_TRUE(castle->is_castling());
    EXPECT_EQ(to_san(x, *castle), "O-O+");  // the rook on f1 checks the king on a1
    EXPECT_EQ(to_uci(x, *castle), "d1e1");
}

namespace {

// Figurine notation (FIDE Laws, Appendix C.13) wherever a person enters a move (parse_move):
// either colour's figures for the piece letters, a pawn's figure for none, in a promotion too;
// an error points at the byte of the text as written and quotes it so.
TEST(FigurineMoves, AreReadAsTheirSan) {
    const Position start_pos = read(start);
    for (const char* text : {"\xE2\x99\x98"
                             "f3",
                             "\xE2\x99\x9E"
                             "f3"}) {  // ♘f3, ♞f3
        const auto m = parse_move(start_pos, text);
        ASSERT_TRUE(m) << text << ": " << m.error().message;
        EXPECT_EQ(to_san(start_pos, *m), "Nf3");
    }
    const auto pawn = parse_move(start_pos,
                                 "\xE2\x99\x99"
                                 "e4");  // ♙e4
    ASSERT_TRUE(pawn);
    EXPECT_EQ(to_uci(start_pos, *pawn), "e2e4");
    const Position p = read(promo);
    const auto queen = parse_move(p, "b8=\xE2\x99\x95");  // b8=♕
    ASSERT_TRUE(queen) << queen.error().message;
    EXPECT_EQ(to_san(p, *queen), "b8=Q");
    const Position c = read(clash);
    const auto ambiguous = parse_move(c,
                                      "\xE2\x99\x98"
                                      "d2");  // ♘d2: the b1 or the f3 knight
    ASSERT_FALSE(ambiguous);
    EXPECT_EQ(ambiguous.error().kind, K::ambiguous);
    // "♘f9": the rank is the fifth byte of the text (the figure is three).
    const auto bad = parse_move(start_pos,
                                "\xE2\x99\x98"
                                "f9");
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().kind, K::syntax);
    EXPECT_EQ(bad.error().offset, 4u);
    EXPECT_EQ(bad.error().message.find("'Nf9'"), std::string::npos) << bad.error().message;
    // Another symbol is no figure; the SAN reader alone (PGN movetext) still takes letters only.
    EXPECT_FALSE(parse_move(start_pos,
                            "\xE2\x99\xA0"
                            "f3"));  // ♠f3
    EXPECT_FALSE(parse_san(start_pos,
                           "\xE2\x99\x98"
                           "f3"));
}

}  // namespace
