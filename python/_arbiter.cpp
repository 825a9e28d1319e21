// _arbiter.cpp — the C++ layer of the Python package `arbiter` (pybind11): thin shims over the
// library and over the CLI's own JSON builders (arbiter_cli_core), so that every dict it returns
// is the object `arbiter status|claim|dead --json` and `arbiter audit --format jsonl` print. Long
// calls release the GIL. Positions, games and dead here; the audit's shims are audit_shims.cpp.
// The Pythonic API (moves, python-chess interop, audit iterators, the Dask client) is arbiter/*.py.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "arbiter/arbiter.hpp"
#include "arbiter/version.hpp"
#include "dead_json.hpp"
#include "game_input.hpp"
#include "rules_json.hpp"
#include "shims.hpp"

using namespace arbiter;
using namespace arbiter::python;

namespace {

// A FEN read as the CLI reads one (tolerant of missing counters), or FenError.
Position read_fen(const std::string& fen) {
    FenReadOptions options;
    options.tolerant = true;
    auto pos = position_from_fen(fen, options);
    if (!pos) raise_fen(pos.error());
    return *pos;
}

Move read_move(const Position& pos, const std::string& text, std::optional<std::size_t> index = std::nullopt) {
    auto m = parse_move(pos, text);
    if (!m) {
        std::string where = index ? "move " + std::to_string(*index + 1) + " '" + text + "'" : "'" + text + "'";
        raise("MoveError", where + ": " + kind_name(m.error().kind) + ": " + m.error().message,
              kind_name(m.error().kind), "move", m.error().offset);
    }
    return *m;
}

// ---- Position ----

// The FEN of a board-like object (duck-typed: a chess.Board, an arbiter.Position, anything with fen()).
std::string fen_of(const py::object& board) {
    if (!py::hasattr(board, "fen"))
        throw py::type_error("expected a FEN string, None, or a board with fen() (e.g. a chess.Board), got " +
                             py::str(py::type::of(board).attr("__name__")).cast<std::string>());
    py::object fen = board.attr("fen")();
    if (!py::isinstance<py::str>(fen)) throw py::type_error("fen() returned no string");
    return fen.cast<std::string>();
}

// python-chess, for to_board(); an ImportError naming the package when it is not installed.
py::module_ chess_module() {
    try {
        return py::module_::import("chess");
    } catch (py::error_already_set& e) {
        if (!e.matches(PyExc_ImportError)) throw;
        PyErr_SetString(PyExc_ImportError,
                        "to_board() needs python-chess (the module `chess`: pip install chess, or its checkout on "
                        "PYTHONPATH)");
        throw py::error_already_set();
    }
}

std::vector<std::string> moves_of(const Position& pos, bool uci) {
    std::vector<std::string> out;
    for (Move m : legal_moves(pos)) out.push_back(uci ? to_uci(pos, m) : to_san(pos, m));
    return out;
}

// ---- Game: a GameRecord under a rule set, built as `--fen … --moves …` builds it ----

struct Options {
    std::string rules = "fide-2023";
    std::optional<std::string> time_category;
    std::optional<bool> initial_position_counts;
    std::optional<std::string> counters_from_setup;
    std::vector<std::string> fifty_extensions;
    bool online_claims = false;
    bool intended_mate_incorrect = false;
};

class Game {
public:
    Game(const std::optional<std::string>& fen, const std::vector<std::string>& moves, const Options& o) {
        face::RuleInput in;
        in.rules = o.rules;
        if (o.time_category) in.time_category = *o.time_category;
        if (o.initial_position_counts) in.initial_position_counts = *o.initial_position_counts ? "true" : "false";
        if (o.counters_from_setup) in.counters_from_setup = *o.counters_from_setup;
        in.fifty_extensions = o.fifty_extensions;
        in.online_claims_only = o.online_claims;
        in.intended_mate_incorrect = o.intended_mate_incorrect;
        const RuleSet* rs = nullptr;
        RuleOptions options;
        try {
            rs = &in.rule_set_or_throw();
            options = in.rule_options();
            in.check_applies(*rs);
        } catch (const face::InputError& e) {
            // The CLI's code and option (unknown_rule_set, bad_value, bad_usage; "rules", …).
            raise("OptionError", e.message(), e.code().empty() ? "bad_value" : e.code(),
                  e.field().empty() ? std::optional<std::string>() : e.field(), e.offset());
        }
        const Position start = fen ? read_fen(*fen) : Position();
        record_ = std::make_unique<GameRecord>(start, *rs, options);
        for (std::size_t k = 0; k < moves.size(); ++k) push(moves[k], k);
    }

    // Plays a legal move, as --moves plays it: a game goes on being recorded after an automatic
    // ending (status() reports the first ending); a move that cannot be played after the end is
    // the error game_over.
    void push(const std::string& text, std::optional<std::size_t> index = std::nullopt) {
        std::lock_guard lock(mu_);
        const std::string what = index ? "move " + std::to_string(*index + 1) + " '" + text + "'" : "'" + text + "'";
        const auto m = parse_move(record_->current(), text);
        if (m) {
            record_->play_legal(*m);
            return;
        }
        if (const auto& t = record_->termination())
            raise("MoveError",
                  what + ": the game is over (" + termination_words(t->kind) + " after " +
                      record_->move_label(t->index) + ")",
                  "game_over", "move", std::nullopt);
        raise("MoveError", what + ": " + kind_name(m.error().kind) + ": " + m.error().message,
              kind_name(m.error().kind), "move", m.error().offset);
    }

    py::object status() const {
        face::Json j;
        {
            py::gil_scoped_release release;
            std::lock_guard lock(mu_);
            j = face::to_json(draw_status(*record_), *record_);
        }
        return to_python(j);
    }

    py::object claim(const std::string& kind, const std::optional<std::string>& intended) const {
        const auto k = parse_claim_kind(kind);
        if (!k)
            raise("ClaimError", "claim: expected threefold or fifty, found '" + kind + "'", "bad_kind", "kind",
                  std::nullopt);
        face::Json j;
        std::optional<MoveError> syntax;
        {
            // The GIL goes first and comes back last: it is never awaited while mu_ is held.
            py::gil_scoped_release release;
            std::lock_guard lock(mu_);
            if (intended) {
                const auto m = parse_move(record_->current(), *intended);
                if (!m && m.error().kind == MoveError::Kind::syntax) syntax = m.error();
            }
            if (!syntax) {
                const ClaimVerdict v =
                    intended ? evaluate_claim(*record_, *k, std::string_view(*intended)) : evaluate_claim(*record_, *k);
                j = face::to_json(v, *record_);
            }
        }
        if (syntax)
            raise("MoveError",
                  "intended: '" + *intended + "' is not a move (byte " + std::to_string(syntax->offset) +
                      "): " + syntax->message,
                  "syntax", "intended", syntax->offset);
        return to_python(j);
    }

    // Takes back the last ply (GameRecord::pop): the SAN of the move taken back; IndexError when
    // no move was played.
    std::string pop() {
        std::lock_guard lock(mu_);
        if (record_->plies_played() == 0) throw py::index_error("pop(): no move to take back (ply 0 of the game)");
        std::string san = record_->san(record_->size() - 1);
        record_->pop();
        return san;
    }

    std::vector<std::string> uci_history() const {
        std::lock_guard lock(mu_);
        std::vector<std::string> out;
        for (std::size_t i = 1; i < record_->size(); ++i)
            out.push_back(to_uci(record_->position(i - 1), record_->move(i)));
        return out;
    }
    Position start() const {
        std::lock_guard lock(mu_);
        return record_->position(0);
    }

    std::vector<std::string> history() const {
        std::lock_guard lock(mu_);
        std::vector<std::string> out;
        for (std::size_t i = 1; i < record_->size(); ++i) out.push_back(record_->san(i));
        return out;
    }
    std::uint32_t ply() const {
        std::lock_guard lock(mu_);
        return record_->game_ply(record_->size() - 1);
    }
    Position position() const {
        std::lock_guard lock(mu_);
        return record_->current();
    }
    std::string rules() const { return record_->rules().name; }

private:
    // GameRecord caches the legal moves of its current position: calls on one Game take turns.
    mutable std::mutex mu_;
    std::unique_ptr<GameRecord> record_;
};

// ---- dead ----

py::object dead(const std::string& fen, const std::string& side, std::optional<std::uint64_t> limit, bool quick,
                bool timing) {
    if (side != "white" && side != "black" && side != "both")
        raise_option("side", "side: expected white, black or both, found '" + side + "'");
    // Read as `dead --fen` reads it (composed positions welcome), with the FEN error's fields.
    auto pos = composed_position_from_fen(fen);
    if (!pos) raise_fen(pos.error());
    HelpmateOptions options;
    if (limit) {
        if (*limit < 1) raise_option("limit", "limit: at least 1");
        options.node_limit = *limit;
    }
    if (quick) options.mode = HelpmateOptions::Mode::quick;
    face::Json j;
    {
        py::gil_scoped_release release;
        const HelpmateAnalyzer analyzer(options);
        j = face::dead_json(*pos, face::analyse_dead(analyzer, *pos, face::sides_of(side)), timing);
    }
    return to_python(j);
}

}  // namespace

PYBIND11_MODULE(_arbiter, m) {
    m.doc() = "The C++ layer of arbiter (use the package `arbiter`, not this module).";
    m.attr("__version__") = std::string(arbiter::version);  // what `arbiter --version` prints

    py::class_<Position>(m, "Position",
                         "A chess position (immutable from Python: push returns a new one). Two positions are equal "
                         "when they are the same position of the Laws (9.2.3: placement, side to move, castling "
                         "rights, a legal en passant capture; not the counters), and hash alike: a key for dicts "
                         "and sets.")
        .def(py::init([](const std::optional<std::string>& fen) { return fen ? read_fen(*fen) : Position(); }),
             py::arg("fen") = py::none(),
             "The position of a FEN (counters may be omitted), or the initial position. Raises FenError.")
        .def(py::init([](const py::object& board) { return read_fen(fen_of(board)); }), py::arg("board"),
             "The position of a board-like object: a chess.Board, an arbiter.Position, anything with fen().")
        .def(
            "fen", [](const Position& p) { return to_fen(p); }, "The FEN of the position.")
        .def(
            "legal_moves",
            [](const Position& p, const std::string& notation) {
                if (notation != "san" && notation != "uci")
                    raise_option("notation", "notation: expected san or uci, found '" + notation + "'");
                return moves_of(p, notation == "uci");
            },
            py::arg("notation") = "san", "The legal moves, in SAN (default) or UCI, in generation order.")
        .def(
            "san", [](const Position& p, const std::string& move) { return to_san(p, read_move(p, move)); },
            py::arg("move"), "The SAN of a legal move given in SAN or UCI. Raises MoveError.")
        .def(
            "uci", [](const Position& p, const std::string& move) { return to_uci(p, read_move(p, move)); },
            py::arg("move"), "The UCI of a legal move given in SAN or UCI. Raises MoveError.")
        .def(
            "push",
            [](const Position& p, const std::string& move) {
                Position next = p;
                next.play_unchecked(read_move(p, move));
                return next;
            },
            py::arg("move"), "A new Position after a legal move (SAN or UCI); this one is unchanged. Raises MoveError.")
        .def("is_check", &Position::in_check, "True when the side to move is in check.")
        .def(
            "turn", [](const Position& p) { return std::string(name(p.turn())); }, "'white' or 'black'.")
        .def(
            "perft",
            [](const Position& p, int depth) {
                if (depth < 0 || depth > 12) raise_option("depth", "depth: expected 0 to 12");
                py::gil_scoped_release release;
                return perft(p, depth);
            },
            py::arg("depth"), "Leaf nodes of the legal move tree to `depth` plies (releases the GIL).")
        .def(
            "__eq__", [](const Position& a, const Position& b) { return a.same_position(b); }, py::is_operator(),
            "The same position of the Laws (9.2.3); the counters are not compared (fen() does).")
        .def(
            "__hash__", [](const Position& p) { return static_cast<py::ssize_t>(p.key()); },
            "The Zobrist key of the position's identity (placement, side to move, castling, legal en passant).")
        .def(
            "__repr__", [](const Position& p) { return "arbiter.Position('" + to_fen(p) + "')"; },
            "arbiter.Position('FEN') (the FEN's fullmove number and halfmove clock give the ply and counter).")
        .def(
            "__reduce__",
            [](const py::object& self) {
                return py::make_tuple(self.attr("__class__"), py::make_tuple(self.attr("fen")()));
            },
            "Pickles as its FEN.")
        .def(
            "copy", [](const Position& p) { return Position(p); },
            "A copy (positions are immutable: equal to this one).")
        .def(
            "__copy__", [](const Position& p) { return Position(p); }, "A copy.")
        .def(
            "__deepcopy__", [](const Position& p, const py::object&) { return Position(p); }, py::arg("memo"),
            "A copy.")
        .def(
            "to_board", [](const Position& p) { return chess_module().attr("Board")(to_fen(p)); },
            "A chess.Board of this position (needs python-chess; raises ImportError without it).");

    py::class_<Game>(m, "Game", "A game under a rule set: moves played, and its draw status and claims.")
        .def(
            py::init(
                [](const std::optional<std::string>& fen, const std::optional<std::vector<std::string>>& moves,
                   const std::string& rules, const std::optional<std::string>& time_category,
                   std::optional<bool> initial_position_counts, const std::optional<std::string>& counters_from_setup,
                   const std::vector<std::string>& fifty_extensions, bool online_claims, bool intended_mate_incorrect) {
                    Options o{rules,
                              time_category,
                              initial_position_counts,
                              counters_from_setup,
                              fifty_extensions,
                              online_claims,
                              intended_mate_incorrect};
                    return std::make_unique<Game>(fen, moves.value_or(std::vector<std::string>{}), o);
                }),
            py::arg("fen") = py::none(), py::arg("moves") = py::none(), py::arg("rules") = "fide-2023",
            py::arg("time_category") = py::none(), py::arg("initial_position_counts") = py::none(),
            py::arg("counters_from_setup") = py::none(), py::arg("fifty_extensions") = std::vector<std::string>{},
            py::arg("online_claims") = false, py::arg("intended_mate_incorrect") = false)
        .def(
            "push", [](Game& g, const std::string& move) { g.push(move); }, py::arg("move"),
            "Plays a legal move (SAN or UCI). Raises MoveError (syntax, illegal, ambiguous, game_over).")
        .def("pop", &Game::pop, "Takes back the last ply; returns its SAN. IndexError at the start of the game.")
        .def("status", &Game::status,
             "Everything draw-related about the current position: the dict of `arbiter status --json` "
             "(releases the GIL).")
        .def("claim", &Game::claim, py::arg("kind"), py::arg("intended") = py::none(),
             "The arbiter's ruling on a claim (kind 'threefold' or 'fifty', with the written move `intended` "
             "or not): the dict of `arbiter claim --json`. Raises ClaimError, MoveError.")
        .def_property_readonly("history", &Game::history, "The moves played, in SAN.")
        .def_property_readonly("uci_history", &Game::uci_history, "The moves played, in UCI.")
        .def_property_readonly("ply", &Game::ply, "The game ply of the current position.")
        .def_property_readonly("position", &Game::position, "The current Position.")
        .def_property_readonly("start", &Game::start, "The start Position.")
        .def_property_readonly("rules", &Game::rules, "The rule set's id.");

    m.def("dead", &dead, py::arg("fen"), py::arg("side") = "both", py::arg("limit") = py::none(),
          py::arg("quick") = false, py::arg("timing") = false, "The dict of `arbiter dead --json`.");
    m.def("move_tokens", &face::move_tokens, py::arg("text"),
          "The moves of --moves text: move numbers, comments and a result left out.");
    bind_audit(m);
}
