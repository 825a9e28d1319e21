// bindings.cpp — the library and the face core as JavaScript sees them (embind). Requests go in
// as JSON and answers come out as JSON, the same JSON as `arbiter status|claim|dead --json`,
// `arbiter audit --format jsonl` and the service; a refusal is {"error": {code, message, field,
// offset}}, which wasm/js/index.mjs throws as an ArbiterError.
//   request(what, json)  status, claim, dead (face::position_answer); moves, play, perft
//   audit(pgn, json)     the records of `arbiter audit --format jsonl` on the PGN text
//   Game                 a game kept in wasm memory (face::LiveGame); JavaScript frees it
//   board(fen, flip, highlight, arrow)  the board as SVG, as the console's /board.svg draws it
//   Compat               the record behind the chess.js-compatible class (wasm/js/compat_core.mjs):
//                        plain text and a status bit mask, no JSON, one status per position
#include <emscripten/bind.h>

#include <algorithm>
#include <array>
#include <cstdlib>

#include <memory>
#include <string>

#include "arbiter/fen.hpp"
#include "arbiter/version.hpp"
#include "audit_request.hpp"
#include "board_svg.hpp"
#include "dead_json.hpp"
#include "errors.hpp"
#include "json_object.hpp"
#include "live_game.hpp"
#include "position_requests.hpp"
#include "request_fields.hpp"
#include "rules_json.hpp"

namespace {

using arbiter::face::Json;

std::string refusal(const std::string& code, const std::string& message, const std::string& field = {},
                    std::optional<std::uint64_t> offset = std::nullopt) {
    return arbiter::face::dump(Json{{"error", arbiter::face::error_json(code, message, field, offset)}});
}

// The text `answer()` gives, or the refusal of what it throws.
template <class F>
std::string refusing(F answer) {
    try {
        return answer();
    } catch (const arbiter::face::InputError& e) {
        return refusal(e.code(), message_for(e, arbiter::face::Caller::javascript), e.field(), e.offset());
    } catch (const std::bad_alloc&) {
        return refusal("out_of_memory", "the work needed more memory than the WebAssembly heap can give");
    } catch (const std::exception& e) {
        return refusal("internal", e.what());
    }
}

// The answer of `answer(request)` for the JSON text of a request, or the refusal.
template <class F>
std::string answering(const std::string& text, F answer) {
    // The one JSON reader (json_object.hpp): bad_json with its byte, in plain words.
    return refusing([&] { return answer(arbiter::face::parse_json_object(text, "the request")); });
}

std::string request(const std::string& what, const std::string& text) {
    if (what != "status" && what != "claim" && what != "dead" && what != "moves" && what != "play" && what != "perft")
        return refusal("bad_request", "no such request: '" + what + "' (status, claim, dead, moves, play or perft)");
    return answering(text, [&](const Json& j) { return arbiter::face::dump(arbiter::face::position_answer(what, j)); });
}

// The audit of a PGN text: its jsonl records (one line a game), or the refusal of an option.
// Options: rules, time_category, exact, only, select and the rule options (as `arbiter audit`),
// file (the records' "file"; default "-").
std::string audit(const std::string& pgn, const std::string& options) {
    return answering(options, [&](const Json& j) {
        using namespace arbiter::face;
        const Fields f(j, with_rule_keys({"exact", "only", "select", "file"}));
        AuditRequest r;
        read_rules(f, r.rule_input);
        f.text("rules", r.rules);
        f.text("time_category", r.time_category);
        f.flag("exact", r.exact);
        f.texts("only", r.only);
        f.texts("select", r.select);
        AuditPiece piece;
        piece.file = "-";
        f.text("file", piece.file);
        // Read as the CLI reads a file: compressed data (which this build does not decompress),
        // an archive, UTF-16 or binary bytes are refused with the input's code and its hint.
        const auto source = arbiter::memory_input(pgn, {}, piece.file);
        std::string text;
        for (char buffer[1 << 16];;) {
            auto n = source->read(buffer, sizeof buffer);
            if (!n) throw InputError(arbiter::code_name(n.error().code), n.error().message, "pgn", n.error().offset);
            if (*n == 0) break;
            text.append(buffer, *n);
        }
        piece.text = text;
        const AuditFilter filter = r.filter();
        const PieceAudit result = audit_piece(piece, r.options(), AuditFormat::jsonl, &filter);
        std::string out;
        number_records(result.text, 1, 1, out);
        return out;
    });
}

// A game kept open: made by open(request), then played and asked; every method answers JSON.
class Game {
public:
    // The game a request names ({fen, moves, pgn, game, ply, the rule options}): "" when it is
    // made, else the refusal.
    std::string open(const std::string& text) {
        std::string answer = answering(text, [&](const Json& j) {
            using namespace arbiter::face;
            const Fields f(j, with_rule_keys({"fen", "moves", "pgn", "game", "ply"}));
            GameInput in = read_position(f);
            read_rules(f, in);
            game_ = std::make_unique<LiveGame>(in);
            return std::string();
        });
        return answer;
    }
    std::string push(const std::string& move) {
        return guarded([&] { return game_->push(move); });
    }
    std::string pop() {
        return guarded([&] { return game_->pop(); });
    }
    std::string status() const {
        return guarded([&] { return game_->status(); });
    }
    std::string claim(const std::string& kind, const std::string& intended) const {
        return guarded([&] { return game_->claim(kind, intended); });
    }
    std::string history() const {
        return guarded([&] { return game_->history(); });
    }
    std::string state() const {
        return guarded([&] { return game_->state(); });
    }

private:
    template <class F>
    std::string guarded(F f) const {
        if (!game_) return refusal("bad_request", "the game was not opened");
        return refusing([&] { return arbiter::face::dump(f()); });
    }
    std::unique_ptr<arbiter::face::LiveGame> game_;
};

// The board of a position as SVG (the console's /board.svg, the same style options), or the
// refusal of its FEN or of a square.
std::string board(const std::string& fen, bool flip, const std::string& highlight, const std::string& arrow) {
    try {
        const arbiter::face::BoardStyle style = arbiter::face::board_style(flip, highlight, arrow);
        return arbiter::face::board_svg(arbiter::face::composed_fen_or_throw(fen), style);
    } catch (const arbiter::face::InputError& e) {
        return refusal(e.code(), message_for(e, arbiter::face::Caller::javascript), e.field(), e.offset());
    }
}

// ---- the chess.js-compatible class's record (wasm/js/compat_core.mjs) ----
//
// A game under FIDE 2023 kept as arbiter's GameRecord, asked in chess.js's vocabulary with plain
// text answers (no JSON on the per-ply path): a move is "san|lan|flags|piece|captured|fen after";
// a refusal starts with "!". FENs are written as chess.js writes them: the en passant square only
// when a legal capture exists (which is also the square FIDE 9.2.3 counts).

// chess.js's move flags, in its order (n, c, b, e, p, k, q): "n" for a quiet move, "np" for a
// quiet promotion, "cp" for a capture that promotes.
std::string compat_flags(const arbiter::Position& pos, arbiter::Move m) {
    using arbiter::PieceType;
    if (m.is_castling()) return arbiter::index(m.to()) > arbiter::index(m.from()) ? "k" : "q";
    std::string f;
    const bool capture = !m.is_en_passant() && pos.piece_at(m.to()) != arbiter::Piece::none;
    const bool pawn = arbiter::type_of(pos.piece_at(m.from())) == PieceType::pawn;
    const bool big = pawn && ((arbiter::index(m.to()) ^ arbiter::index(m.from())) == 16);
    if (!capture && !m.is_en_passant()) f += big ? "" : "n";
    if (capture) f += "c";
    if (big) f += "b";
    if (m.is_en_passant()) f += "e";
    if (m.is_promotion()) f += "p";
    return f;
}

char lower_letter(arbiter::PieceType t) { return static_cast<char>(arbiter::piece_letter(t) + ('a' - 'A')); }

// "flags|piece|captured" of a legal move (captured "" when none).
std::string compat_describe(const arbiter::Position& pos, arbiter::Move m) {
    using arbiter::PieceType;
    std::string out = compat_flags(pos, m);
    out += '|';
    out += lower_letter(arbiter::type_of(pos.piece_at(m.from())));
    out += '|';
    if (m.is_en_passant())
        out += 'p';
    else if (!m.is_castling() && pos.piece_at(m.to()) != arbiter::Piece::none)
        out += lower_letter(arbiter::type_of(pos.piece_at(m.to())));
    return out;
}

std::string compat_fen(const arbiter::Position& pos) {
    arbiter::FenWriteOptions o;
    o.ep = arbiter::FenWriteOptions::Ep::legal;
    return arbiter::to_fen(pos, o);
}

// The order chess.js lists moves in: origin squares from a8 to h1, then the piece's directions in
// chess.js's order, nearer squares first, promotions n, b, r, q; castling last, king's side first.
int compat_order(const arbiter::Position& pos, arbiter::Move m) {
    using arbiter::PieceType;
    const int from = arbiter::index(m.from()), to = arbiter::index(m.to());
    const int ff = from & 7, fr = from >> 3;
    if (m.is_castling()) return (1 << 20) + (to > from ? 0 : 1);
    const int df = (to & 7) - ff, dr = (to >> 3) - fr;
    const int scan = (7 - fr) * 8 + ff;
    const PieceType t = arbiter::type_of(pos.piece_at(m.from()));
    const int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
    const int dist = std::max(std::abs(df), std::abs(dr));
    int dir = 0;
    auto find = [](const auto& list, int f, int r) {
        for (std::size_t i = 0; i < list.size(); ++i)
            if (list[i][0] == f && list[i][1] == r) return static_cast<int>(i);
        return 0;
    };
    static constexpr std::array<std::array<int, 2>, 8> knight{
        {{-2, 1}, {-1, 2}, {1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}}};
    static constexpr std::array<std::array<int, 2>, 4> bishop{{{-1, 1}, {1, 1}, {1, -1}, {-1, -1}}};
    static constexpr std::array<std::array<int, 2>, 4> rook{{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}};
    static constexpr std::array<std::array<int, 2>, 8> queen{
        {{-1, 1}, {0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}}};
    switch (t) {
        case PieceType::pawn:
            // White: push, double, capture to the a-side, to the h-side; Black: push, double,
            // capture to the h-side, to the a-side.
            dir = df == 0 ? (dist == 1 ? 0 : 1)
                          : (pos.turn() == arbiter::Color::white ? (df < 0 ? 2 : 3) : (df > 0 ? 2 : 3));
            break;
        case PieceType::knight: dir = find(knight, df, dr); break;
        case PieceType::bishop: dir = find(bishop, sf, sr); break;
        case PieceType::rook: dir = find(rook, sf, sr); break;
        default: dir = find(queen, sf, sr); break;
    }
    const int promo = m.is_promotion() ? arbiter::index(m.promoted()) - arbiter::index(PieceType::knight) : 0;
    return ((scan * 8 + dir) * 8 + dist) * 4 + promo;
}

// chess.js's isInsufficientMaterial: K v K, K and one minor piece v K, or only bishops besides
// the kings, all on squares of one colour.
bool compat_insufficient(const arbiter::Position& pos) {
    using arbiter::PieceType;
    const auto pieces = pos.occupied().count();
    if (pieces == 2) return true;
    const auto minors = pos.pieces(PieceType::knight) | pos.pieces(PieceType::bishop);
    if (pieces == 3 && minors.count() == 1) return true;
    const auto bishops = pos.pieces(PieceType::bishop);
    if (static_cast<std::size_t>(pieces) != static_cast<std::size_t>(bishops.count()) + 2) return false;
    int light = 0, dark = 0;
    for (arbiter::Square s : bishops) (((arbiter::index(s) >> 3) + (arbiter::index(s) & 7)) % 2 ? light : dark)++;
    return light == 0 || dark == 0;
}

class Compat {
public:
    // Starts a game at `fen` (a full six-field FEN, chess.js's checks passed): "" or "!message".
    std::string load(const std::string& fen) {
        arbiter::SetupRepairs repairs;
        repairs.drop_invalid_ep_square = true;
        repairs.drop_invalid_castling = true;
        auto pos = arbiter::position_from_fen(fen, {}, repairs);
        if (!pos) return "!" + pos.error().describe();
        record_ = std::make_unique<arbiter::GameRecord>(*pos);
        return "";
    }
    std::string fen() const { return compat_fen(record_->current()); }
    // Plays SAN or UCI text (strict: the SAN exactly as chess.js writes it, decorations aside).
    std::string move(const std::string& text, bool strict) {
        const arbiter::Position& pos = record_->current();
        auto m = arbiter::parse_move(pos, text);
        if (!m) return "!" + m.error().message;
        if (strict && stripped(text) != stripped(arbiter::to_san(pos, *m))) return "!not SAN";
        return play(*m);
    }
    // chess.js's {from, to, promotion}: a promotion must be named; a promotion letter given for
    // another move is ignored, as chess.js ignores it.
    std::string moveFromTo(const std::string& from, const std::string& to, const std::string& promotion) {
        const arbiter::Position& pos = record_->current();
        for (arbiter::Move m : record_->legal_moves_now()) {
            const std::string uci = arbiter::to_uci(pos, m);
            if (uci.compare(0, 2, from) != 0 || uci.compare(2, 2, to) != 0 || from.size() != 2 || to.size() != 2)
                continue;
            if (m.is_promotion() && promotion != std::string(1, lower_letter(m.promoted()))) continue;
            return play(m);
        }
        return "!illegal";
    }
    // Takes back the last move: its "san|lan|flags|piece|captured|fen before it", or "" at the start.
    std::string undo() {
        if (record_->plies_played() == 0) return "";
        const std::size_t last = record_->size() - 1;
        const arbiter::Position& before = record_->position(last - 1);
        const arbiter::Move m = record_->move(last);
        std::string out = record_->san(last) + "|" + arbiter::to_uci(before, m) + "|" + compat_describe(before, m);
        record_->pop();
        status_ = -1;
        return out + "|" + compat_fen(before);
    }
    // The status of the current position, computed once: bit 0 check, 1 no legal move, 2 chess.js's
    // insufficient material, 3 the position has stood three times (9.2.3 identity), 4 fifty moves
    // (100 plies without a pawn move or capture), 5 five times; bits 8 and up: the game's first
    // automatic ending (TerminationKind + 1, 0 none).
    int status() {
        if (status_ >= 0) return status_;
        const arbiter::GameRecord& r = *record_;
        const arbiter::Position& pos = r.current();
        const std::size_t n = r.size() - 1;
        int s = 0;
        if (pos.in_check()) s |= 1;
        if (r.legal_moves_now().empty()) s |= 2;
        if (compat_insufficient(pos)) s |= 4;
        if (r.occurrences(n) >= 3) s |= 8;
        if (r.no_progress(n) >= 100) s |= 16;
        if (r.occurrences(n) >= 5) s |= 32;
        if (const auto& t = r.termination()) s |= (static_cast<int>(t->kind) + 1) << 8;
        return status_ = s;
    }
    // The legal moves in chess.js's order, one a line: "san|lan|flags|piece|captured", and with
    // `after` "|fen after"; `from` (a square, or "") keeps one origin, `piece` (a letter or "") one kind.
    std::string moves(bool after, const std::string& from, const std::string& piece) const {
        const arbiter::Position& pos = record_->current();
        std::vector<std::pair<int, arbiter::Move>> list;
        for (arbiter::Move m : record_->legal_moves_now()) {
            if (!piece.empty() && lower_letter(arbiter::type_of(pos.piece_at(m.from()))) != piece[0]) continue;
            if (!from.empty() && arbiter::to_string(m.from()) != from) continue;
            list.emplace_back(compat_order(pos, m), m);
        }
        std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        std::string out;
        for (const auto& [key, m] : list) {
            out += arbiter::to_san(pos, m);
            out += '|';
            out += arbiter::to_uci(pos, m);
            out += '|';
            out += compat_describe(pos, m);
            if (after) {
                out += '|';
                out += compat_fen(pos.after(m));
            }
            out += '\n';
        }
        return out;
    }
    // Squares (a8 first) of the pieces of colour `by` ('w'/'b') attacking `square`.
    std::string attackers(const std::string& square, const std::string& by) const {
        const auto sq = arbiter::parse_square(square);
        if (!sq) return "";
        const arbiter::Position& pos = record_->current();
        const arbiter::Color c = by == "b" ? arbiter::Color::black : arbiter::Color::white;
        const auto bb = pos.attackers_to(*sq, pos.occupied()) & pos.pieces(c);
        std::vector<int> squares;
        for (arbiter::Square s : bb) squares.push_back(arbiter::index(s));
        std::sort(squares.begin(), squares.end(),
                  [](int a, int b) { return (7 - (a >> 3)) * 8 + (a & 7) < (7 - (b >> 3)) * 8 + (b & 7); });
        std::string out;
        for (int s : squares) out += arbiter::to_string(arbiter::square_at(s)) + " ";
        return out;
    }
    double perft(int depth) const { return static_cast<double>(arbiter::perft(record_->current(), depth)); }
    // The position's key (FIDE 9.2.3 identity) as 16 hex digits.
    std::string hash() const {
        static const char* digits = "0123456789abcdef";
        std::uint64_t k = record_->current().key();
        std::string out(16, '0');
        for (int i = 15; i >= 0; --i, k >>= 4) out[i] = digits[k & 15];
        return out;
    }
    int plies() const { return static_cast<int>(record_->plies_played()); }

private:
    // SAN without "=", and without a trailing check sign or annotation (chess.js's comparison).
    static std::string stripped(std::string s) {
        s.erase(std::remove(s.begin(), s.end(), '='), s.end());
        while (!s.empty() && (s.back() == '!' || s.back() == '?')) s.pop_back();
        if (!s.empty() && (s.back() == '+' || s.back() == '#')) s.pop_back();
        return s;
    }
    std::string play(arbiter::Move m) {
        const arbiter::Position& pos = record_->current();
        std::string out = arbiter::to_san(pos, m) + "|" + arbiter::to_uci(pos, m) + "|" + compat_describe(pos, m);
        record_->play_legal(m);
        status_ = -1;
        return out + "|" + compat_fen(record_->current());
    }
    std::unique_ptr<arbiter::GameRecord> record_;
    int status_ = -1;
};

std::string version() { return std::string(arbiter::version); }
std::string rule_sets() { return arbiter::face::dump(arbiter::face::rule_sets_json()); }

}  // namespace

EMSCRIPTEN_BINDINGS(arbiter) {
    emscripten::function("request", &request);
    emscripten::function("audit", &audit);
    emscripten::function("board", &board);
    emscripten::function("version", &version);
    emscripten::function("ruleSets", &rule_sets);
    emscripten::class_<Game>("Game")
        .constructor<>()
        .function("open", &Game::open)
        .function("push", &Game::push)
        .function("pop", &Game::pop)
        .function("status", &Game::status)
        .function("claim", &Game::claim)
        .function("history", &Game::history)
        .function("state", &Game::state);
    emscripten::class_<Compat>("Compat")
        .constructor<>()
        .function("load", &Compat::load)
        .function("fen", &Compat::fen)
        .function("move", &Compat::move)
        .function("moveFromTo", &Compat::moveFromTo)
        .function("undo", &Compat::undo)
        .function("status", &Compat::status)
        .function("moves", &Compat::moves)
        .function("attackers", &Compat::attackers)
        .function("perft", &Compat::perft)
        .function("hash", &Compat::hash)
        .function("plies", &Compat::plies);
}
