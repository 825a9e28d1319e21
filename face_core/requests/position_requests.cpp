// position_requests.cpp — status, claim and dead requests given as JSON (position_requests.hpp).
#include "requests/position_requests.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/arbiter.hpp"
#include "errors.hpp"
#include "json/message_json.hpp"
#include "json/rules_json.hpp"
#include "requests/claim_answer.hpp"
#include "requests/dead_json.hpp"
#include "requests/game_input.hpp"
#include "requests/request_fields.hpp"
#include "text.hpp"

namespace arbiter::face {

namespace {

// Too little material for `side` to mate whatever the other side plays, as python-chess and
// chess.js count it (material alone; the Laws' dead position, 5.2.2, goes further): a bare king;
// a king and one knight against nothing but queens; bishops all on one colour with no knight and
// no pawn on the board. Both sides so is chess.js's isInsufficientMaterial().
bool insufficient_material(const Position& pos, Color side) {
    using PT = PieceType;
    const Bitboard mine = pos.pieces(side) & ~pos.pieces(PT::king);
    if ((mine & (pos.pieces(PT::pawn) | pos.pieces(PT::rook) | pos.pieces(PT::queen))).any()) return false;
    if ((mine & pos.pieces(PT::knight)).any()) {
        const Bitboard theirs = pos.pieces(~side) & ~pos.pieces(PT::king) & ~pos.pieces(PT::queen);
        return mine.count() == 1 && theirs.empty();
    }
    if ((mine & pos.pieces(PT::bishop)).any()) {
        const Bitboard bishops = pos.pieces(PT::bishop);
        const bool one_colour =
            (bishops & Bitboard::light_squares()).empty() || (bishops & Bitboard::dark_squares()).empty();
        return one_colour && (pos.pieces(PT::pawn) | pos.pieces(PT::knight)).empty();
    }
    return true;
}

// A legal move as chess.js's verbose move describes it: piece, captured, promotion (lower-case
// letters), flags (n normal, b pawn two squares, e en passant, c capture, p promotion, k/q
// castling) and the position after it.
void describe_move(const Position& pos, Move m, Json& out) {
    auto letter = [](PieceType t) { return std::string(1, static_cast<char>(piece_letter(t) + ('a' - 'A'))); };
    const PieceType moving = type_of(pos.piece_at(m.from()));
    std::string flags;
    if (m.is_castling()) flags += index(m.to()) > index(m.from()) ? "k" : "q";
    if (m.is_en_passant()) {
        flags += "e";
        out["captured"] = "p";
    } else if (pos.is_capture(m)) {
        flags += "c";
        out["captured"] = letter(type_of(pos.piece_at(m.to())));
    }
    if (m.promoted() != PieceType::none) {
        flags += "p";
        out["promotion"] = letter(m.promoted());
    }
    if (moving == PieceType::pawn && (index(m.to()) - index(m.from()) == 16 || index(m.from()) - index(m.to()) == 16))
        flags += "b";
    out["piece"] = letter(moving);
    out["flags"] = flags.empty() ? "n" : flags;
    out["after"] = to_fen(pos.after(m));
}

// The legal moves of a position and whether it is check: {"fen","side_to_move","check",
// "insufficient_material":{"white","black"},"moves":[{"san","uci"}]}; with `verbose`, each move
// also says its piece, capture, promotion, flags and the position after it (describe_move).
// A move played: {"fen" (after it),"san","uci"}.
Json play_answer(const Position& pos, const std::string& text) {
    const auto m = parse_move(pos, text);
    if (!m)
        throw InputError(move_error_code(m.error().kind), "move: '" + text + "': " + m.error().message, "move",
                         m.error().offset);
    return Json{{"fen", to_fen(pos.after(*m))}, {"san", to_san(pos, *m)}, {"uci", to_uci(pos, *m)}};
}

}  // namespace

Json moves_answer(const Position& pos, bool verbose) {
    const MoveList legal = legal_moves(pos);
    Json moves = Json::array();
    for (Move m : legal) {
        Json j{{"san", to_san(pos, m)}, {"uci", to_uci(pos, m)}};
        if (verbose) describe_move(pos, m, j);
        moves.push_back(std::move(j));
    }
    return Json{
        {"fen", to_fen(pos)},
        {"side_to_move", std::string(name(pos.turn()))},
        {"check", pos.in_check()},
        {"checkmate", legal.empty() && pos.in_check()},
        {"stalemate", legal.empty() && !pos.in_check()},
        {"insufficient_material",
         {{"white", insufficient_material(pos, Color::white)}, {"black", insufficient_material(pos, Color::black)}}},
        {"count", legal.size()},
        {"moves", moves}};
}

Json perft_answer(const Position& pos, int depth, bool divide) {
    std::uint64_t total = 0;
    Json split = nullptr;
    if (divide) {
        split = Json::array();
        for (auto [move, nodes] : perft_divide(pos, depth)) {
            split.push_back(Json{{"uci", to_uci(pos, move)}, {"san", to_san(pos, move)}, {"nodes", nodes}});
            total += nodes;
        }
        if (depth == 0) total = 1;
    } else {
        total = perft(pos, depth);
    }
    return Json{{"fen", to_fen(pos)}, {"depth", depth}, {"nodes", total}, {"divide", split}};
}

HelpmateOptions DeadRequest::options() const {
    checked_choice(request_option("side"), side);
    checked_number(request_option("limit"), limit);
    if (quick && fast) throw InputError(Code::bad_usage, "--fast excludes --quick: choose one of them", "fast");
    HelpmateOptions options;
    options.node_limit = static_cast<std::uint64_t>(limit);
    if (quick) options.mode = HelpmateOptions::Mode::quick;
    if (fast) options.mode = HelpmateOptions::Mode::fast;
    return options;
}

DeadResult dead_result(const GameInput& in, const DeadRequest& request) {
    const HelpmateAnalyzer analyzer(request.options());
    if (!in.given()) throw InputError(Code::bad_usage, "no position given: use --fen, --moves or --pgn");
    // With moves or a PGN the position is reached in a game (a legal start, the moves checked);
    // a FEN alone may be a composed position.
    const bool game = in.has_moves() || in.has_pgn();
    DeadResult out{game ? position_of(in) : composed_fen_or_throw(in.fen), {}};
    out.answers = analyse_dead(analyzer, out.position, sides_of(request.side));
    return out;
}

Json dead_answer(const GameInput& in, const DeadRequest& request) {
    const DeadResult r = dead_result(in, request);
    return dead_json(r.position, r.answers, request.timing);
}

namespace {

// The keys of an operation on a FEN alone: "fen", `more`, and its options from the table.
// `more` and the keys `operation` reads from the table of options.
std::set<std::string> with_option_keys(std::string_view operation, std::set<std::string> more) {
    more.merge(request_option_keys(operation));
    return more;
}

std::set<std::string> position_keys_of(std::string_view operation, std::set<std::string> more = {}) {
    more.merge(request_option_keys(operation));
    more.insert("fen");
    return more;
}

// The position of a request that takes only a FEN: a missing one is the start, "" is bad_fen.
Position fen_position(const Fields& f) {
    std::string fen;
    f.text("fen", fen);
    return f.has("fen") ? fen_or_throw(fen) : Position();
}

// Every operation on a position or a game, declared once: its name, the keys of its request and
// how it is answered. The service's POST /api/v1/NAME, request(NAME, …) in Python and
// JavaScript and the CLI's commands all come here; the keys are checked (FieldError) before
// anything is read, then read in the order written, so one bad request gets one refusal.
// A dead request's own options (the table's side, limit, quick and fast).
DeadRequest read_dead_request(const Fields& f) {
    DeadRequest dead;
    f.text("side", dead.side);
    const RequestOptionSpec& limit = request_option("limit");
    f.number("limit", dead.limit, limit.min, limit.max);
    f.flag("quick", dead.quick);
    f.flag("fast", dead.fast);
    return dead;
}

const std::vector<PositionOperation>& registry() {
    static const std::vector<PositionOperation> table{
        {"status", "the draw status of a position or game (arbiter status)", with_rule_keys(position_keys({})),
         [](const Fields& f) {
             GameInput in = read_position(f);
             read_rules(f, in);
             const auto record = in.build();
             return to_json(draw_status(*record), *record);
         }},
        {"claim", "the ruling on a threefold or fifty-move claim (arbiter claim)",
         with_rule_keys(position_keys(with_option_keys("claim", {"kind", "intended"}))),
         [](const Fields& f) {
             std::string kind, intended;
             f.text("kind", kind);
             claim_kind_or_throw(kind);  // before the position is read, as in every face
             GameInput in = read_position(f);
             read_rules(f, in);
             const auto record = in.build();
             f.text("intended", intended);
             return claim_answer(*record, kind, intended);
         }},
        {"dead", "whether each side can still checkmate (arbiter dead)", position_keys(request_option_keys("dead")),
         [](const Fields& f) {
             GameInput in = read_position(f);
             return dead_answer(in, read_dead_request(f));
         }},
        {"moves", "the legal moves of a position (arbiter moves)", position_keys_of("moves"),
         [](const Fields& f) {
             const Position pos = fen_position(f);
             bool verbose = false;
             f.flag("verbose", verbose);
             return moves_answer(pos, verbose);
         }},
        {"play", "a move played: the FEN after it, its SAN and UCI", position_keys_of("play", {"move"}),
         [](const Fields& f) {
             const Position pos = fen_position(f);
             if (!f.has("move")) throw FieldError("\"move\" is missing: the move to play, SAN or UCI", "move");
             std::string move;
             f.text("move", move);
             return play_answer(pos, move);
         }},
        {"perft", "the leaf nodes of the legal move tree (arbiter perft)", position_keys_of("perft"),
         [](const Fields& f) {
             const Position pos = fen_position(f);
             int depth = 1;
             bool divide = false;
             const RequestOptionSpec& spec = request_option("depth");
             f.number("depth", depth, static_cast<int>(spec.min), static_cast<int>(spec.max));
             f.flag("divide", divide);
             return perft_answer(pos, depth, divide);
         }},
    };
    return table;
}

}  // namespace

const std::vector<PositionOperation>& position_operation_table() { return registry(); }

DeadRequest dead_request(const Json& request) {
    return read_dead_request(Fields(request, request_option_keys("dead")));
}

const std::vector<std::string_view>& position_operations() {
    static const std::vector<std::string_view> names = [] {
        std::vector<std::string_view> out;
        for (const auto& op : registry()) out.push_back(op.name);
        return out;
    }();
    return names;
}

TextStyle text_style(const Json& request) {
    const std::set<std::string> keys{"lang", "figurines"};
    Json given = Json::object();
    if (request.is_object())
        for (const auto& k : keys)
            if (request.contains(k)) given[k] = request[k];
    const Fields f(given, keys);
    std::string code(request_option("lang").default_text);
    f.text("lang", code);
    TextStyle style;
    style.language = find_language(checked_choice(request_option("lang"), code));
    f.flag("figurines", style.figurines);
    return style;
}

Json position_answer(std::string_view what, const Json& request) {
    for (const auto& op : registry()) {
        if (op.name != what) continue;
        const Fields fields(request, op.keys);
        if (!op.keys.contains("lang")) return op.answer(fields);
        const TextStyle style = text_style(request);  // before the position: one refusal, the first
        Json answer = op.answer(fields);
        localize(answer, style);
        return answer;
    }
    std::string names;
    const auto& ops = position_operations();
    for (std::size_t i = 0; i < ops.size(); ++i)
        names += std::string(i == 0 ? "" : i + 1 == ops.size() ? " or " : ", ") + std::string(ops[i]);
    throw InputError(Code::not_found, "no such operation: '" + printable(std::string(what)) + "' (" + names + ")");
}

}  // namespace arbiter::face
