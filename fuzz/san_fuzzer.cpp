// Fuzz target for move text: the first line is a FEN (the standard position when it does not
// read), the rest moves separated by white space, read against the position as SAN, as UCI and
// as either. A move accepted must be one of the legal moves, and its own SAN and UCI must read
// back to it, its check suffix saying whether it checks or mates; a refusal must point inside the text. An accepted
// move is played and the next token read in the new position.
#include <algorithm>
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

Position start_of(std::string_view line) {
    FenReadOptions o;
    o.tolerant = true;
    if (auto pos = position_from_fen(line, o)) return *pos;
    o.chess960 = true;
    if (auto pos = position_from_fen(line, o)) return *pos;
    return *position_from_fen(start_fen);
}

// `m`, read from some text, is a legal move whose own notation reads back to it.
void check_accepted(const Position& pos, const MoveList& legal, Move m) {
    FUZZ_CHECK(pos.is_legal(m));
    FUZZ_CHECK(std::find(legal.begin(), legal.end(), m) != legal.end());
    auto san = parse_san(pos, to_san(pos, m));
    FUZZ_CHECK(san.has_value() && *san == m);
    auto plain = parse_san(pos, to_san_plain(pos, m));
    FUZZ_CHECK(plain.has_value() && *plain == m);
    auto uci = parse_uci(pos, to_uci(pos, m));
    FUZZ_CHECK(uci.has_value() && *uci == m);
    // The check suffix says what the move does: '#' mates, '+' checks without mating.
    Position after = pos;
    after.play_unchecked(m);
    MoveList replies;
    legal_moves(after, replies);
    const std::string written = to_san(pos, m);
    const char last = written.back();
    FUZZ_CHECK((last == '#') == (after.in_check() && replies.size() == 0));
    FUZZ_CHECK((last == '+') == (after.in_check() && replies.size() != 0));
}

void check_refused(const MoveError& e, std::string_view text) {
    FUZZ_CHECK(e.offset <= text.size());
    FUZZ_CHECK(!e.message.empty());
    FUZZ_CHECK(kind_name(e.kind) != nullptr);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const std::size_t nl = text.find('\n');
    Position pos = start_of(text.substr(0, nl));
    if (nl == std::string_view::npos) return 0;
    std::string_view rest = text.substr(nl + 1);
    for (int tokens = 0; tokens < 1000 && !rest.empty(); ++tokens) {
        const std::size_t b = rest.find_first_not_of(" \t\r\n");
        if (b == std::string_view::npos) break;
        rest.remove_prefix(b);
        const std::size_t e = std::min(rest.find_first_of(" \t\r\n"), rest.size());
        const std::string_view token = rest.substr(0, e);
        rest.remove_prefix(e);

        MoveList legal;
        legal_moves(pos, legal);
        auto san = parse_san(pos, token);
        auto uci = parse_uci(pos, token);
        auto any = parse_move(pos, token);
        if (san)
            check_accepted(pos, legal, *san);
        else
            check_refused(san.error(), token);
        if (uci)
            check_accepted(pos, legal, *uci);
        else
            check_refused(uci.error(), token);
        if (!any) {
            check_refused(any.error(), token);
            FUZZ_CHECK(!san || !uci);  // text that reads both ways is a move
            continue;
        }
        check_accepted(pos, legal, *any);
        FUZZ_CHECK((san && *san == *any) || (uci && *uci == *any));
        pos.play_unchecked(*any);
        // The position reached is still one that FEN can carry (counters past the FEN range,
        // reached by playing on from a FEN at its limit, are refused by design).
        if (pos.halfmove_clock() > max_fen_counter || pos.fullmove_number() > max_fen_counter) continue;
        FenReadOptions o;
        o.tolerant = true;
        o.chess960 = pos.is_chess960();
        auto again = position_from_fen(to_fen(pos), o);
        FUZZ_CHECK(again.has_value() && again->same_position(pos));
    }
    return 0;
}
