// Fuzz target for FEN: any bytes, read strictly, tolerantly and as Chess960, must give a position
// or an error that names a field and a byte offset inside the input; what strict reading accepts,
// tolerant reading accepts as the same position. A position read must write
// back (X-FEN and Shredder-FEN) to a FEN that reads to the same position and writes the same
// text again; its legal moves must each write as SAN and UCI that read back to the same move.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "arbiter/fen.hpp"
#include "arbiter/movegen.hpp"
#include "arbiter/notation.hpp"
#include "fuzz_check.hpp"

namespace {

using namespace arbiter;

void check_round_trip(const Position& pos, FenReadOptions read) {
    read.chess960 = pos.is_chess960();
    for (bool shredder : {false, true}) {
        FenWriteOptions w;
        w.shredder = shredder;
        const std::string fen = to_fen(pos, w);
        auto again = position_from_fen(fen, read);
        FUZZ_CHECK(again.has_value());
        FUZZ_CHECK(*again == pos);
        FUZZ_CHECK(to_fen(*again, w) == fen);
    }
    // Only a legal en passant square written: the same position by 9.2.3.
    FenWriteOptions legal_ep;
    legal_ep.ep = FenWriteOptions::Ep::legal;
    auto same = position_from_fen(to_fen(pos, legal_ep), read);
    FUZZ_CHECK(same.has_value());
    FUZZ_CHECK(same->same_position(pos));
    // The Setup round trip that Position documents.
    auto back = Position::from_setup(pos.to_setup());
    FUZZ_CHECK(back.has_value());
    FUZZ_CHECK(*back == pos);
}

void check_moves(const Position& pos) {
    MoveList moves;
    legal_moves(pos, moves);
    for (const Move m : moves) {
        FUZZ_CHECK(pos.is_legal(m));
        const std::string san = to_san(pos, m);
        auto from_san = parse_san(pos, san);
        FUZZ_CHECK(from_san.has_value());
        FUZZ_CHECK(*from_san == m);
        auto from_uci = parse_uci(pos, to_uci(pos, m));
        FUZZ_CHECK(from_uci.has_value());
        FUZZ_CHECK(*from_uci == m);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    bool moves_checked = false;
    std::optional<Position> strict[2];  // by chess960
    for (int variant = 0; variant < 4; ++variant) {
        FenReadOptions o;
        o.tolerant = (variant & 1) != 0;
        o.chess960 = (variant & 2) != 0;
        auto setup = parse_fen(text, o);
        auto pos = position_from_fen(text, o);
        if (!pos) {
            FUZZ_CHECK(!(o.tolerant && strict[o.chess960]));  // what strict reading accepts, tolerant does
            const FenError& e = pos.error();
            FUZZ_CHECK(e.offset <= text.size());
            FUZZ_CHECK(!e.message.empty());
            FUZZ_CHECK(!e.describe().empty());
            FUZZ_CHECK(code_name(e.code) != nullptr && field_name(e.field) != nullptr);
            // A syntax error is the same whether the position is then validated or not.
            FUZZ_CHECK(setup.has_value() == (e.code == FenError::Code::invalid_position));
            continue;
        }
        FUZZ_CHECK(setup.has_value());
        // Tolerant reading accepts every strict FEN, as the same position.
        if (!o.tolerant) strict[o.chess960] = *pos;
        if (o.tolerant && strict[o.chess960]) FUZZ_CHECK(*strict[o.chess960] == *pos);
        FUZZ_CHECK(pos->halfmove_clock() <= max_fen_counter && pos->fullmove_number() <= max_fen_counter);
        check_round_trip(*pos, o);
        if (!moves_checked) {
            check_moves(*pos);
            moves_checked = true;
        }
    }
    return 0;
}
