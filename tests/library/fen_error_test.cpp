// Malformed and invalid FENs, table-driven: each case asserts the error code, the field and the
// byte offset the error points at (and, for invalid positions, every problem listed).
#include <gtest/gtest.h>

#include <optional>

#include "arbiter/arbiter.hpp"

using namespace arbiter;

namespace {

using C = FenError::Code;
using F = FenField;
using P = PositionProblem;

enum class Mode { strict, tolerant };

struct FenCase {
    const char* name;
    std::string fen;
    Mode mode;
    C code;
    F field;
    std::size_t offset;
    std::uint32_t problems = 0;  // for invalid_position
};

// Byte offsets of the standard FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1":
// placement 0-42, side 44, castling 46-49, en passant 51, halfmove 53, fullmove 55.
const std::string placement = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";

std::string with(const std::string& rest) { return placement + " " + rest; }

const FenCase fen_cases[] = {
    // Empty input.
    {"empty", "", Mode::strict, C::empty, F::placement, 0},
    {"only_spaces", "   \t ", Mode::tolerant, C::empty, F::placement, 0},
    // Placement.
    {"garbage", "garbage", Mode::strict, C::bad_piece, F::placement, 0},
    {"bad_piece_letter", "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Mode::strict, C::bad_piece,
     F::placement, 13},
    {"bad_piece_last", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", Mode::strict, C::bad_piece,
     F::placement, 42},
    {"digit_nine", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Mode::strict, C::bad_piece, F::placement,
     18},
    {"digit_zero", "rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Mode::strict, C::bad_piece,
     F::placement, 18},
    {"two_digits_strict", "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Mode::strict, C::bad_piece,
     F::placement, 19},
    {"rank_too_long_piece", "rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Mode::strict, C::rank_too_long,
     F::placement, 8},
    {"rank_too_long_digit", "rnbqkbnr/ppppppp2/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Mode::strict, C::rank_too_long,
     F::placement, 16},
    {"rank_too_short", "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Mode::strict, C::rank_too_short,
     F::placement, 16},
    {"last_rank_too_short", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", Mode::strict, C::rank_too_short,
     F::placement, 42},
    {"empty_rank", "rnbqkbnr//8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Mode::strict, C::rank_too_short, F::placement,
     9},
    {"seven_ranks", "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Mode::strict, C::wrong_rank_count,
     F::placement, 41},
    {"nine_ranks", "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Mode::strict, C::wrong_rank_count,
     F::placement, 36},
    {"trailing_slash", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1", Mode::strict, C::wrong_rank_count,
     F::placement, 43},
    // Side to move.
    {"bad_side", with("x KQkq - 0 1"), Mode::strict, C::bad_side, F::side_to_move, 44},
    {"upper_case_side", with("W KQkq - 0 1"), Mode::strict, C::bad_side, F::side_to_move, 44},
    {"side_as_word", with("white KQkq - 0 1"), Mode::strict, C::bad_side, F::side_to_move, 44},
    // Castling.
    {"bad_castling_char", with("w KQkx - 0 1"), Mode::strict, C::bad_castling, F::castling, 49},
    {"castling_digit", with("w KQ1q - 0 1"), Mode::strict, C::bad_castling, F::castling, 48},
    {"castling_dash_and_letter", with("w -K - 0 1"), Mode::strict, C::bad_castling, F::castling, 46},
    {"duplicate_castling", with("w KKkq - 0 1"), Mode::strict, C::bad_castling, F::castling, 47},
    {"duplicate_xfen_shredder", with("w KHkq - 0 1"), Mode::strict, C::bad_castling, F::castling, 47},
    {"duplicate_black", with("w KQkqq - 0 1"), Mode::strict, C::bad_castling, F::castling, 50},
    // En passant.
    {"ep_wrong_rank", with("w KQkq e4 0 1"), Mode::strict, C::bad_en_passant, F::en_passant, 51},
    {"ep_not_a_square", with("w KQkq z3 0 1"), Mode::strict, C::bad_en_passant, F::en_passant, 51},
    {"ep_too_long", with("w KQkq e33 0 1"), Mode::strict, C::bad_en_passant, F::en_passant, 51},
    {"ep_upper_case", with("w KQkq E3 0 1"), Mode::strict, C::bad_en_passant, F::en_passant, 51},
    // Counters.
    {"halfmove_letters", with("w KQkq - x 1"), Mode::strict, C::bad_halfmove, F::halfmove_clock, 53},
    {"halfmove_negative", with("w KQkq - -1 1"), Mode::strict, C::bad_halfmove, F::halfmove_clock, 53},
    {"halfmove_plus", with("w KQkq - +1 1"), Mode::strict, C::bad_halfmove, F::halfmove_clock, 53},
    {"halfmove_trailing", with("w KQkq - 1x 1"), Mode::strict, C::bad_halfmove, F::halfmove_clock, 54},
    {"halfmove_overflow", with("w KQkq - 99999999999 1"), Mode::strict, C::bad_halfmove, F::halfmove_clock, 53},
    {"fullmove_zero_strict", with("w KQkq - 0 0"), Mode::strict, C::bad_fullmove, F::fullmove_number, 55},
    {"fullmove_letters", with("w KQkq - 0 abc"), Mode::strict, C::bad_fullmove, F::fullmove_number, 55},
    {"fullmove_overflow", with("w KQkq - 0 4294967296"), Mode::tolerant, C::bad_fullmove, F::fullmove_number, 55},
    {"fullmove_past_range", with("w KQkq - 0 4294967295"), Mode::strict, C::bad_fullmove, F::fullmove_number, 55},
    {"halfmove_past_range", with("w KQkq - 1000001 1"), Mode::strict, C::bad_halfmove, F::halfmove_clock, 53},
    {"fullmove_decimal", with("w KQkq - 0 1.5"), Mode::strict, C::bad_fullmove, F::fullmove_number, 56},
    // Field count.
    {"extra_field", with("w KQkq - 0 1 extra"), Mode::strict, C::extra_field, F::fullmove_number, 57},
    {"extra_field_tolerant", with("w KQkq - 0 1 2"), Mode::tolerant, C::extra_field, F::fullmove_number, 57},
    {"missing_counters_strict", with("w KQkq -"), Mode::strict, C::missing_field, F::halfmove_clock, 52},
    {"missing_fullmove_strict", with("w KQkq - 0"), Mode::strict, C::missing_field, F::fullmove_number, 54},
    {"missing_castling_strict", with("w"), Mode::strict, C::missing_field, F::castling, 45},
    {"missing_side_strict", placement, Mode::strict, C::missing_field, F::side_to_move, 43},
    {"missing_side_tolerant", placement, Mode::tolerant, C::missing_field, F::side_to_move, 43},
    // Well-formed, but not a legal position.
    {"missing_king", "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", Mode::strict, C::invalid_position,
     F::placement, 0, 0u | P::missing_king},
    {"no_kings_at_all", "8/8/8/8/8/8/8/8 w - - 0 1", Mode::strict, C::invalid_position, F::placement, 0,
     0u | P::missing_king},
    {"two_white_kings", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1", Mode::strict, C::invalid_position,
     F::placement, 0, 0u | P::too_many_kings},
    {"pawn_on_first_rank", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1", Mode::strict, C::invalid_position, F::placement, 0,
     0u | P::pawns_on_back_rank},
    {"pawn_on_last_rank", "p3k3/8/8/8/8/8/8/4K3 b - - 0 1", Mode::strict, C::invalid_position, F::placement, 0,
     0u | P::pawns_on_back_rank},
    {"opposite_check", "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", Mode::strict, C::invalid_position, F::side_to_move, 22,
     0u | P::opposite_check},
    {"ep_without_pawn", with("w KQkq e6 0 1"), Mode::strict, C::invalid_position, F::en_passant, 51,
     0u | P::invalid_ep_square},
    {"ep_for_wrong_side", "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", Mode::strict,
     C::invalid_position, F::en_passant, 53, 0u | P::invalid_ep_square},
    {"ep_square_occupied", "rnbqkbnr/pppp2pp/4p3/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", Mode::strict,
     C::invalid_position, F::en_passant, 54, 0u | P::invalid_ep_square},
    {"castling_without_rook", "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Mode::strict,
     C::invalid_position, F::castling, 46, 0u | P::invalid_castling_rights},
    {"castling_without_king", "4k3/8/8/8/8/8/4K3/R6R w KQ - 0 1", Mode::strict, C::invalid_position, F::castling, 24,
     0u | P::invalid_castling_rights},
    {"shredder_castling_without_rook", "4k3/8/8/8/8/8/8/R3K3 w B - 0 1", Mode::strict, C::invalid_position, F::castling,
     23, 0u | P::invalid_castling_rights},
    {"nine_white_pawns", "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", Mode::strict, C::invalid_position, F::placement, 0,
     0u | P::too_many_pieces},
    {"too_many_queens", "4k3/8/8/8/8/8/PPPPPPPP/QQQQKQQQ w - - 0 1", Mode::strict, C::invalid_position, F::placement, 0,
     0u | P::too_many_pieces},
    {"two_knight_checks", "4k3/8/3N1N2/8/8/8/8/4K3 b - - 0 1", Mode::strict, C::invalid_position, F::placement, 0,
     0u | P::impossible_check},
    {"everything_at_once", "4k3/4R3/8/8/8/8/8/P3K3 w Kq e6 0 1", Mode::strict, C::invalid_position, F::placement, 0,
     P::pawns_on_back_rank | P::opposite_check | P::invalid_ep_square | P::invalid_castling_rights},
};

std::string case_name(const ::testing::TestParamInfo<FenCase>& info) { return info.param.name; }
void PrintTo(const FenCase& c, std::ostream* os) { *os << '"' << c.fen << '"'; }

}  // namespace

class FenErrors : public ::testing::TestWithParam<FenCase> {};

TEST_P(FenErrors, CodeFieldAndOffset) {
    const FenCase& c = GetParam();
    FenReadOptions options;
    options.tolerant = c.mode == Mode::tolerant;
    auto pos = position_from_fen(c.fen, options);
    ASSERT_FALSE(pos) << c.fen << " was accepted";
    const FenError& e = pos.error();
    EXPECT_EQ(code_name(e.code), std::string(code_name(c.code))) << e.describe();
    EXPECT_EQ(field_name(e.field), std::string(field_name(c.field))) << e.describe();
    EXPECT_EQ(e.offset, c.offset) << e.describe();
    EXPECT_LE(e.offset, c.fen.size());
    EXPECT_FALSE(e.message.empty());
    // describe() is one line that names the field.
    const std::string d = e.describe();
    EXPECT_EQ(d.find('\n'), std::string::npos) << d;
    EXPECT_NE(d.find(field_name(c.field)), std::string::npos) << d;
    if (c.code == C::invalid_position) {
        EXPECT_EQ(e.position.problems, c.problems) << e.message;
        for (PositionProblem p : e.position.list()) EXPECT_TRUE(e.position.has(p));
    } else {
        // Syntax errors are found by parse_fen alone, with the same verdict.
        auto setup = parse_fen(c.fen, options);
        ASSERT_FALSE(setup);
        EXPECT_EQ(setup.error().code, e.code);
        EXPECT_EQ(setup.error().offset, e.offset);
    }
}

INSTANTIATE_TEST_SUITE_P(Table, FenErrors, ::testing::ValuesIn(fen_cases), case_name);

TEST(FenErrors, TableIsLarge) { EXPECT_GE(std::size(fen_cases), 40u); }

TEST(FenErrors, EveryProblemIsListedAtOnce) {
    auto pos = position_from_fen("4k3/4R3/8/8/8/8/8/P3K3 w Kq e6 0 1");
    ASSERT_FALSE(pos);
    const PositionError& e = pos.error().position;
    const std::vector<PositionProblem> expected = {P::pawns_on_back_rank, P::opposite_check, P::invalid_ep_square,
                                                   P::invalid_castling_rights};
    EXPECT_EQ(e.list(), expected);
    const std::string m = e.message();
    for (const char* part : {"first or last rank", "not to move is in check", "en passant", "castling"})
        EXPECT_NE(m.find(part), std::string::npos) << m;
    for (PositionProblem p : expected) EXPECT_STRNE(problem_name(p), "unknown");
}

TEST(FenErrors, TolerantModeFillsMissingFields) {
    FenReadOptions tolerant;
    tolerant.tolerant = true;
    for (const std::string fen :
         {with("w KQkq -"), with("w KQkq - 0"), with("w KQkq"), with("w"), with("w KQkq - 0 0")}) {
        auto pos = position_from_fen(fen, tolerant);
        ASSERT_TRUE(pos) << fen << ": " << pos.error().describe();
        EXPECT_EQ(to_fen(*pos).substr(0, placement.size() + 2), placement + " w") << fen;
        EXPECT_EQ(pos->halfmove_clock(), 0u);
        EXPECT_EQ(pos->fullmove_number(), 1u);
    }
    auto two_digits = position_from_fen("rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", tolerant);
    ASSERT_TRUE(two_digits);
    EXPECT_EQ(*two_digits, Position());
    auto no_castling = position_from_fen(with("w"), tolerant);
    ASSERT_TRUE(no_castling);
    EXPECT_TRUE(no_castling->castling_rooks().empty());
}

TEST(FenErrors, RepairsDropWhatTheyMay) {
    SetupRepairs repairs;
    repairs.drop_invalid_ep_square = true;
    repairs.drop_invalid_castling = true;
    auto pos = position_from_fen(with("w KQkq e6 0 1"), {}, repairs);
    ASSERT_TRUE(pos) << pos.error().describe();
    EXPECT_EQ(pos->ep_square(), Square::none);
    auto castling = position_from_fen("rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", {}, repairs);
    ASSERT_TRUE(castling) << castling.error().describe();
    EXPECT_EQ(to_fen(*castling), "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQq - 0 1");
    SetupRepairs lenient;
    lenient.allow_too_many_pieces = true;
    lenient.allow_impossible_check = true;
    EXPECT_TRUE(position_from_fen("4k3/8/8/8/8/8/PPPPPPPP/QQQQKQQQ w - - 0 1", {}, lenient));
    EXPECT_TRUE(position_from_fen("4k3/8/3N1N2/8/8/8/8/4K3 b - - 0 1", {}, lenient));
}

TEST(FenErrors, WhitespaceBetweenFieldsIsFlexible) {
    auto pos = position_from_fen("  " + placement + "\tw  KQkq -  0\t1 \n");
    ASSERT_TRUE(pos) << pos.error().describe();
    EXPECT_EQ(*pos, Position());
}

// composed_position_from_fen with the text written: the FEN as to_fen writes it, whether the
// placement read is already written that way (copied) or not (split runs of empty squares,
// missing counters, castling letters in another order or Shredder files).
TEST(FenWritten, SameTextAsToFen) {
    const char* fens[] = {
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3",
        "rnbqkbnr/pppppppp/44/8/4P3/8/PPPP1PPP/RNBQKBNR b qkQK - 3 7",
        "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
        "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w BGbg - 0 1",
        "8/8/8/8/8/8/8/K6k w",
        "11111111/8/8/8/8/8/8/K5k1 b - - 12 40",
        "K7/8/8/8/8/8/8/7k w - -",
        "QQQQQQQQ/QQQQQQQQ/8/8/8/8/8/K6k b - - 0 1",
    };
    for (const char* fen : fens) {
        std::string written = "(left over)";
        const auto pos = composed_position_from_fen(fen, written);
        ASSERT_TRUE(pos) << fen << ": " << pos.error().describe();
        EXPECT_EQ(written, to_fen(*pos)) << fen;
        const auto plain = composed_position_from_fen(fen);
        ASSERT_TRUE(plain);
        EXPECT_TRUE(*plain == *pos) << fen;
    }
    std::string written;
    const auto bad = composed_position_from_fen("8/8/8/8/8/8/8/K6k w - e9", written);
    EXPECT_FALSE(bad);
}
