// bindings.cpp — the library and the face core as JavaScript sees them (embind). Requests go in
// as JSON and answers come out as JSON, the same JSON as `arbiter status|claim|dead --json`,
// `arbiter audit --format jsonl` and the service; a refusal is {"error": {code, message, field,
// offset}}, which wasm/js/index.mjs throws as an ArbiterError.
//   request(what, json)  status, claim, dead (face::position_answer); moves, play, perft
//   checkOption(name, value)  an option's value checked by the face core's table
//   AuditStream          the records of `arbiter audit --format jsonl` on a PGN fed a piece at a time
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
#include <utility>

#include "arbiter/fen.hpp"
#include "arbiter/version.hpp"
#include "audit/audit_request.hpp"
#include "audit/piece_cut.hpp"
#include "board_svg.hpp"
#include "errors.hpp"
#include "json/json_object.hpp"
#include "json/message_json.hpp"
#include "json/rules_json.hpp"
#include "requests/dead_json.hpp"
#include "requests/live_game.hpp"
#include "requests/position_requests.hpp"
#include "requests/request_fields.hpp"

namespace {

using arbiter::face::Json;

// The answer of a refusal: {"error": {code, message, field?, offset?}} in JavaScript's words.
std::string refusal(const arbiter::face::InputError& e) {
    return arbiter::face::dump(Json{
        {"error", arbiter::face::error_json(std::string(e.code()), message_for(e, arbiter::face::Caller::javascript),
                                            e.field(), e.offset())}});
}
std::string refusal(arbiter::face::Code code, const std::string& message) {
    return refusal(arbiter::face::InputError(code, message));
}

// The text `answer()` gives, or the refusal of what it throws.
template <class F>
std::string refusing(F answer) {
    try {
        return answer();
    } catch (...) {
        return refusal(arbiter::face::refusal_of(std::current_exception()));
    }
}

// The answer of `answer(request)` for the JSON text of a request, or the refusal.
template <class F>
std::string answering(const std::string& text, F answer) {
    // The one JSON reader (json_object.hpp): bad_json with its byte, in plain words.
    return refusing([&] { return answer(arbiter::face::parse_json_object(text, "the request")); });
}

// An unknown `what` is refused by the core (not_found), as in every face.
std::string request(const std::string& what, const std::string& text) {
    return answering(text, [&](const Json& j) { return arbiter::face::dump(arbiter::face::position_answer(what, j)); });
}

// "{}" when `value` is one of the choices of the request option `name` (the face core's table,
// option_table.hpp), else the refusal in the table's words.
std::string check_option(const std::string& name, const std::string& value) {
    return refusing([&] {
        arbiter::face::checked_choice(arbiter::face::request_option(name), value);
        return std::string("{}");
    });
}

// Bytes that JavaScript reads or writes in place, through a Uint8Array view of the heap (valid
// until the next call): embind would copy a Uint8Array argument a byte at a time.
class HeapBytes {
public:
    // Holds `bytes` and lends them out (JavaScript copies them with slice()).
    emscripten::val lend(std::string bytes) {
        bytes_ = std::move(bytes);
        return view();
    }
    // Room for `size` bytes (JavaScript fills it with one set()).
    emscripten::val room(std::size_t size) {
        bytes_.assign(size, '\0');
        return view();
    }
    std::string take() { return std::exchange(bytes_, std::string()); }

private:
    emscripten::val view() {
        return emscripten::val(
            emscripten::typed_memory_view(bytes_.size(), reinterpret_cast<const unsigned char*>(bytes_.data())));
    }
    std::string bytes_;
};

// A large PGN text handed over as UTF-8 bytes (stage(), then one set() in JavaScript) rather
// than inside a request's JSON: embind's string conversion and the JSON reader would each go
// over it a byte at a time, which made one game of a 1 MB file cost as much as auditing half of it.
HeapBytes& staged_pgn() {
    static HeapBytes text;
    return text;
}
emscripten::val stage(std::size_t size) { return staged_pgn().room(size); }
// The request `text` with the staged PGN as its "pgn" (the staged bytes are taken).
Json with_staged_pgn(Json j) {
    j["pgn"] = staged_pgn().take();
    return j;
}
std::string request_staged(const std::string& what, const std::string& text) {
    return answering(text, [&](const Json& j) {
        return arbiter::face::dump(arbiter::face::position_answer(what, with_staged_pgn(j)));
    });
}

// The audit of a PGN given a piece at a time (feed), so that the wasm heap holds a few megabytes
// whatever the input's size: the text is cut at game boundaries (CutRule, as the CLI's batches
// are) and each piece audited as `arbiter audit --format jsonl` audits it, numbered on from the
// pieces before. Options: rules, time_category, exact, only, select and the rule options (as
// `arbiter audit`), file (the records' "file"; default "-"). Each call answers the records of the
// pieces it completed (jsonl, maybe empty) or a refusal, after which the stream is spent.
class AuditStream {
public:
    std::string open(const std::string& options) {
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
            f.text("file", file_);
            options_ = r.options();
            filter_ = r.filter();
            open_ = true;
            return std::string();
        });
    }
    std::string feed(const std::string& bytes) {
        return step([&] {
            pending_.append(bytes);
            std::string out;
            if (!checked_ && pending_.size() < check_bytes) return out;
            check();
            for (;;) {
                const std::size_t cut = cut_.cut(pending_);
                if (cut == std::string::npos) break;
                audit(std::string_view(pending_).substr(0, cut), true, out);
                pending_.erase(0, cut);
                cut_.cut_made();
            }
            return out;
        });
    }
    std::string finish() {
        return step([&] {
            check();
            std::string out;
            if (!pending_.empty()) audit(pending_, false, out);
            pending_ = std::string();
            open_ = false;
            return out;
        });
    }

private:
    // The first bytes read as the CLI reads a file: compressed data (which this build does not
    // decompress), an archive, UTF-16 or binary bytes are refused with the input's code and hint.
    static constexpr std::size_t check_bytes = 1 << 16;
    static constexpr std::uint64_t piece_bytes = 1 << 20;
    void check() {
        if (checked_) return;
        const auto source = arbiter::memory_input(std::string_view(pending_).substr(0, check_bytes), {}, file_);
        for (char buffer[1 << 14];;) {
            auto n = source->read(buffer, sizeof buffer);
            if (!n) throw arbiter::face::InputError(n.error().code, n.error().message, "pgn", n.error().offset);
            if (*n == 0) break;
        }
        checked_ = true;
    }
    void audit(std::string_view text, bool more, std::string& out) {
        using namespace arbiter::face;
        AuditPiece piece;
        piece.text = text;
        piece.file = file_;
        piece.first_line = at_.line;
        piece.first_offset = at_.offset;
        piece.ends_at_boundary = more;
        const PieceAudit result = audit_piece(piece, options_, AuditFormat::jsonl, &filter_);
        game_ += number_records(result.text, game_, game_, out);
        at_.advance(text);
    }
    template <class F>
    std::string step(F f) {
        if (!open_) return refusal(arbiter::face::Code::bad_request, "the audit was not opened, or is over");
        std::string answer = refusing(f);
        if (answer.starts_with("{\"error\"")) open_ = false;
        return answer;
    }
    bool open_ = false, checked_ = false;
    std::string file_ = "-";
    arbiter::audit::AuditOptions options_;
    arbiter::face::AuditFilter filter_;
    std::string pending_;
    arbiter::face::CutRule cut_{0, piece_bytes};
    arbiter::face::TextPlace at_;
    std::uint64_t game_ = 1;
};

// A game kept open: made by open(request), then played and asked; every method answers JSON.
class Game {
public:
    // The game a request names ({fen, moves, pgn, game, ply, the rule options}): "" when it is
    // made, else the refusal.
    std::string open(const std::string& text) {
        return answering(text, [&](const Json& j) { return opened(j); });
    }
    // open() with the staged PGN (stage()) as the request's "pgn".
    std::string openStaged(const std::string& text) {
        return answering(text, [&](const Json& j) { return opened(with_staged_pgn(j)); });
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
    // `style`: {"lang", "figurines"} as JSON (the language first: a bad one is the first refusal).
    std::string claim(const std::string& kind, const std::string& intended, const std::string& style) const {
        return guarded([&] {
            const arbiter::TextStyle text =
                arbiter::face::text_style(arbiter::face::parse_json_object(style, "options"));
            Json j = game_->claim(kind, intended);
            arbiter::face::localize(j, text);
            return j;
        });
    }
    std::string history() const {
        return guarded([&] { return game_->history(); });
    }
    std::string state() const {
        return guarded([&] { return game_->state(); });
    }
    // The tags of the PGN game it was read from ({} for a FEN or moves).
    std::string tags() const {
        return guarded([&] { return game_->tags(); });
    }
    // The game as PGN ({tags, result, width, newline}: LiveGame::pgn), as a JSON string.
    std::string pgn(const std::string& text) const {
        return answering(text, [&](const Json& j) { return guarded([&] { return Json(game_->pgn(j)); }); });
    }
    // The game's record as bytes (GameRecord::snapshot), viewed in the heap until the next call:
    // index.mjs copies them out and deletes the game (its pool's eviction).
    emscripten::val snapshot() { return kept_.lend(game_ ? game_->record().snapshot() : std::string()); }
    // Room for a snapshot of `size` bytes, viewed in the heap: index.mjs copies the snapshot in
    // with one set() (embind would copy a Uint8Array argument a byte at a time), then restore().
    emscripten::val buffer(std::size_t size) { return kept_.room(size); }
    // The game the snapshot copied into buffer() holds: "" when restored, else the refusal.
    std::string restore() {
        auto record = arbiter::GameRecord::restore(kept_.take());
        if (!record) return refusal(arbiter::face::Code::internal, "not a game snapshot of this build");
        game_ = std::make_unique<arbiter::face::LiveGame>(std::move(record));
        return "";
    }

private:
    std::string opened(const Json& j) {
        using namespace arbiter::face;
        const Fields f(j, with_rule_keys({"fen", "moves", "pgn", "game", "ply"}));
        GameInput in = read_position(f);
        read_rules(f, in);
        game_ = std::make_unique<LiveGame>(in);
        return std::string();
    }
    HeapBytes kept_;
    template <class F>
    std::string guarded(F f) const {
        if (!game_) return refusal(arbiter::face::Code::bad_request, "the game was not opened");
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
        return refusal(e);
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
    // The record as bytes while the pool has given it back (as Game::snapshot, buffer, restore).
    emscripten::val snapshot() { return kept_.lend(record_ ? record_->snapshot() : std::string()); }
    emscripten::val buffer(std::size_t size) { return kept_.room(size); }
    bool restore() {
        auto record = arbiter::GameRecord::restore(kept_.take());
        if (!record) return false;
        record_ = std::move(record);
        status_ = -1;
        return true;
    }

private:
    HeapBytes kept_;
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
// The languages of the texts: [{"code","name","rtl"}], English first.
std::string languages() {
    Json out = Json::array();
    for (const auto& l : arbiter::languages())
        out.push_back(Json{{"code", l.code}, {"name", l.name}, {"rtl", l.right_to_left}});
    return arbiter::face::dump(out);
}
// The codes a refusal here can carry: the one table's (face_core/errors.cpp) and the input's
// (a PGN's bytes that are not text), for the test that index.d.ts's ErrorCode union names them all.
std::string error_codes() {
    Json codes = Json::array();
    for (const auto& c : arbiter::face::error_codes()) codes.push_back(std::string(c.code));
    for (const char* name : arbiter::EnumNames<arbiter::InputError::Code>::names) codes.push_back(name);
    return arbiter::face::dump(codes);
}

}  // namespace

EMSCRIPTEN_BINDINGS(arbiter) {
    emscripten::function("request", &request);
    emscripten::function("checkOption", &check_option);
    emscripten::function("stage", &stage);
    emscripten::function("requestStaged", &request_staged);
    emscripten::class_<AuditStream>("AuditStream")
        .constructor<>()
        .function("open", &AuditStream::open)
        .function("feed", &AuditStream::feed)
        .function("finish", &AuditStream::finish);
    emscripten::function("board", &board);
    emscripten::function("version", &version);
    emscripten::function("ruleSets", &rule_sets);
    emscripten::function("languages", &languages);
    emscripten::function("errorCodes", &error_codes);
    emscripten::class_<Game>("Game")
        .constructor<>()
        .function("open", &Game::open)
        .function("openStaged", &Game::openStaged)
        .function("push", &Game::push)
        .function("pop", &Game::pop)
        .function("status", &Game::status)
        .function("claim", &Game::claim)
        .function("history", &Game::history)
        .function("state", &Game::state)
        .function("tags", &Game::tags)
        .function("pgn", &Game::pgn)
        .function("snapshot", &Game::snapshot)
        .function("buffer", &Game::buffer)
        .function("restore", &Game::restore);
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
        .function("plies", &Compat::plies)
        .function("snapshot", &Compat::snapshot)
        .function("buffer", &Compat::buffer)
        .function("restore", &Compat::restore);
}
