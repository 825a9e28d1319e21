// bindings.cpp — the library and the face core as JavaScript sees them (embind). Requests go in
// as JSON and answers come out as JSON, the same JSON as `arbiter status|claim|dead --json`,
// `arbiter audit --format jsonl` and the service; a refusal is {"error": {code, message, field,
// offset}}, which wasm/js/index.mjs throws as an ArbiterError.
//   request(what, json)  status, claim, dead (face::position_answer); moves, play, perft
//   audit(pgn, json)     the records of `arbiter audit --format jsonl` on the PGN text
//   Game                 a game kept in wasm memory (face::LiveGame); JavaScript frees it
//   board(fen, flip, highlight, arrow)  the board as SVG, as the console's /board.svg draws it
#include <emscripten/bind.h>

#include <memory>
#include <string>

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
}
