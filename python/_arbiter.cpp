// _arbiter.cpp — the C++ layer of the Python package `arbiter` (pybind11): thin shims over the
// library and over the CLI's own JSON builders (arbiter_cli_core), so that every dict it returns
// is the object `arbiter status|claim|dead --json` and `arbiter audit --format jsonl` print. Long
// calls release the GIL. Positions, games and dead here; the audit's shims are audit_shims.cpp.
// The Pythonic API (moves, python-chess interop, audit iterators, the Dask client) is arbiter/*.py.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <algorithm>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "arbiter/arbiter.hpp"
#include "arbiter/version.hpp"
#include "audit/audit_request.hpp"
#include "board_svg.hpp"
#include "json/json.hpp"
#include "json/json_object.hpp"
#include "json/message_json.hpp"
#include "requests/game_input.hpp"
#include "requests/live_game.hpp"
#include "requests/position_requests.hpp"
#include "shims.hpp"
#include "text.hpp"

using namespace arbiter;
using namespace arbiter::python;

namespace {

// A FEN read as the CLI's --fen reads it (the face core: tolerant of missing counters), or FenError.
Position read_fen(const std::string& fen) {
    return core_call([&] { return face::fen_or_throw(fen); }, false);
}

// A move of `pos` in SAN or UCI, or MoveError with the face core's code (bad_move, illegal_move,
// ambiguous_move), the argument `field` and the byte in the move.
Move read_move(const Position& pos, const std::string& text, const std::string& field = "move") {
    auto m = parse_move(pos, text);
    if (!m)
        raise_core(face::InputError(face::move_error_code(m.error().kind),
                                    field + ": '" + text + "': " + kind_name(m.error().kind) + ": " + m.error().message,
                                    field, m.error().offset));
    return *m;
}

std::string type_name(const py::handle& x) { return py::str(py::type::of(x).attr("__name__")).cast<std::string>(); }

// A str argument as UTF-8; a str with a lone surrogate is refused as every text argument is
// (arbiter._game._text: Error `not_utf8`, the argument named, here as the exception `error`).
std::string utf8_arg(const char* name, const py::handle& text, const char* error) {
    Py_ssize_t size = 0;
    const char* utf8 = PyUnicode_AsUTF8AndSize(text.ptr(), &size);
    if (!utf8) {
        PyErr_Clear();
        py::module_::import("arbiter._game")
            .attr("_text")(name, text, py::module_::import("arbiter._errors").attr(error));
        throw py::value_error(std::string(name) + ": not valid text");  // not reached: _text raised
    }
    return std::string(utf8, static_cast<std::size_t>(size));
}

// The text of a move argument: SAN or UCI as a str, or a move object with uci() (python-chess's
// chess.Move, arbiter.Move). A TypeError naming the argument for anything else (never pybind11's
// list of overloads); the null move ("0000") is MoveError bad_move.
std::string move_arg(const char* name, const py::handle& move) {
    if (py::isinstance<py::str>(move)) return utf8_arg(name, move, "MoveError");
    const py::object uci = py::getattr(move, "uci", py::none());
    if (uci.is_none() || !PyCallable_Check(uci.ptr()))
        throw py::type_error(std::string(name) + ": expected a SAN/UCI string or a move with uci() (chess.Move), got " +
                             type_name(move));
    const py::object text = uci();
    if (!py::isinstance<py::str>(text))
        throw py::type_error(std::string(name) + ": uci() of the " + type_name(move) + " returned no str");
    std::string s = utf8_arg(name, text, "MoveError");
    if (s == "0000")
        raise_core(face::InputError(
            face::Code::bad_move,
            std::string(name) + ": the null move (0000) is no move of the Laws: arbiter plays only legal moves",
            std::string(name), 0));
    return s;
}

// A str argument, or a TypeError naming it.
std::string str_arg(const char* name, const py::handle& x, const std::string& expected) {
    if (!py::isinstance<py::str>(x))
        throw py::type_error(std::string(name) + ": expected " + expected + ", got " + type_name(x));
    return utf8_arg(name, x, "Error");
}

// A square as python-chess numbers them (0 = a1 … 63 = h8, chess.E4), or TypeError / OptionError.
Square square_arg(const py::handle& x) {
    if (!py::isinstance<py::int_>(x) || py::isinstance<py::bool_>(x))
        throw py::type_error("square: expected a square, an int 0 (a1) to 63 (h8) as chess.E4, got " + type_name(x));
    long long v = -1;
    try {
        v = x.cast<long long>();
    } catch (const py::cast_error&) {}
    if (v < 0 || v > 63)
        raise_option("square", "square: " + std::string(py::str(x)) + " is out of range: 0 (a1) to 63 (h8)");
    return square_at(static_cast<int>(v));
}

// python-chess's has_pseudo_legal_en_passant: an en passant square with a pawn of the side to move
// beside the pawn that made the double step (whether or not the capture is legal).
bool pseudo_legal_ep(const Position& p) {
    const Square ep = p.ep_square();
    if (!is_ok(ep) || p.piece_at(ep) != Piece::none) return false;
    const Rank rank = p.turn() == Color::white ? 4 : 3;  // the capturer's rank: 5th for White, 4th for Black
    const Piece pawn = make_piece(p.turn(), PieceType::pawn);
    for (int df : {-1, 1}) {
        const int f = file_of(ep) + df;
        if (f >= 0 && f < 8 && p.piece_at(make_square(f, rank)) == pawn) return true;
    }
    return false;
}

// The FEN as python-chess's fen(en_passant=...) writes it: "legal" (the square only when an en
// passant capture is legal: python-chess's default), "fen" (after every double step: the FEN
// standard, what the CLI writes) or "xfen" (when a capture is pseudo-legal).
std::string fen_as(const Position& p, const py::handle& en_passant) {
    const std::string mode = str_arg("en_passant", en_passant, "'legal', 'fen' or 'xfen'");
    FenWriteOptions always, legal;
    legal.ep = FenWriteOptions::Ep::legal;
    if (mode == "fen") return to_fen(p, always);
    if (mode == "legal") return to_fen(p, legal);
    if (mode == "xfen") return to_fen(p, pseudo_legal_ep(p) ? always : legal);
    raise_option("en_passant", "en_passant: expected 'legal', 'fen' or 'xfen', found '" + mode + "'");
}

// python-chess's move of a UCI text (chess.Move when it is importable, else arbiter.Move).
py::object move_object(const std::string& uci) {
    return py::module_::import("arbiter._chess_types").attr("move_of_uci")(uci);
}

// ---- Position ----

// The FEN of a board-like object (duck-typed: a chess.Board, an arbiter.Position, anything with fen()).
std::string fen_of(const py::object& board) {
    if (!py::hasattr(board, "fen"))
        throw py::type_error("fen: expected a FEN string, None, or a board with fen() (e.g. a chess.Board), got " +
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

// The leaf count of perft to `depth`: the face core's perft request (depth 0 to
// face::max_perft_depth, else OptionError bad_value "depth"), without the GIL. A deep one is
// counted as the core counts each position two plies down, with the GIL taken back between them
// to look for signals: Ctrl-C raises KeyboardInterrupt after at most one of those counts (about
// a tenth of a second at depth 7) instead of after the whole count.
std::uint64_t perft_of(const Position& p, long long depth) {
    auto core_perft = [](const Position& at, long long d) {
        const face::Json request{{"fen", to_fen(at)}, {"depth", d}};
        return core_call([&] { return face::position_answer("perft", request); })["nodes"].get<std::uint64_t>();
    };
    if (depth < 6 || depth > static_cast<long long>(face::max_perft_depth)) return core_perft(p, depth);
    std::uint64_t nodes = 0;
    for (Move m : legal_moves(p)) {
        const Position child = p.after(m);
        for (Move n : legal_moves(child)) {
            nodes += core_perft(child.after(n), depth - 2);
            if (PyErr_CheckSignals() != 0) throw py::error_already_set();
        }
    }
    return nodes;
}

// ---- Game: the face core's LiveGame, its calls translated from Python's arguments ----

class Game {
    // One call at a time (GameRecord caches the legal moves of its current position). The GIL
    // goes first and comes back last: it is never awaited while mu_ is held.
    template <class F>
    auto locked(F&& f, bool release = false) const {
        return core_call(
            [&] {
                std::lock_guard lock(mu_);
                return f();
            },
            release);
    }

public:
    // `moves`: a text as --moves takes it (the errors' offsets are bytes in it), or a list of moves.
    // `options`: the rule options by name, as rule_options() gives them (option_shims.cpp).
    Game(const std::optional<std::string>& fen, const std::variant<std::string, std::vector<std::string>>& moves,
         const py::dict& options) {
        face::GameInput in;
        static_cast<face::RuleInput&>(in) = rule_input_of(options);
        if (fen) {
            in.fen = *fen;
            in.fen_given = true;
        }
        in.moves_given = true;  // no moves: the game starts at `fen` (or the initial position)
        if (const auto* text = std::get_if<std::string>(&moves)) {
            in.moves = *text;
        } else {
            for (const auto& m : std::get<std::vector<std::string>>(moves))
                in.moves += (in.moves.empty() ? "" : " ") + m;
        }
        game_ = core_call([&] { return std::make_unique<face::LiveGame>(std::move(in)); });
    }

    // Plays a legal move, as --moves plays it (after an automatic ending too); game_over when it
    // cannot be played after the end.
    void push(const std::string& text) {
        locked([&] { return game_->push(text); });
    }
    // Takes back the last ply: its SAN. NoMoveError (an IndexError) at the start of the game.
    std::string pop() {
        return locked([&] { return game_->pop(); })["san"].template get<std::string>();
    }
    py::object status() const {
        return to_python(locked([&] { return game_->status(); }, true));
    }
    py::object claim(const std::string& kind, const std::optional<std::string>& intended, const std::string& lang,
                     bool figurines) const {
        return to_python(locked(
            [&] {
                // The language first: a bad one is the request's first refusal, as in every face.
                const TextStyle style = face::text_style(face::Json{{"lang", lang}, {"figurines", figurines}});
                face::Json j = game_->claim(kind, intended.value_or(""));
                face::localize(j, style);
                return j;
            },
            true));
    }
    std::vector<std::string> history(const char* notation) const {
        return locked([&] { return game_->history(); })[notation].template get<std::vector<std::string>>();
    }
    Position start() const {
        return locked([&] { return game_->record().position(0); });
    }
    Position position() const {
        return locked([&] { return game_->record().current(); });
    }
    std::uint32_t ply() const {
        return locked([&] { return game_->record().game_ply(game_->record().size() - 1); });
    }
    std::string rules() const { return game_->record().rules().name; }

private:
    mutable std::mutex mu_;
    std::unique_ptr<face::LiveGame> game_;
};

// ---- dead: the face core's dead request ----

py::object dead(const std::string& fen, const std::string& side, std::optional<std::int64_t> limit, bool quick,
                bool fast, bool timing) {
    face::GameInput in;
    in.fen = fen;
    in.fen_given = true;
    face::DeadRequest request;
    request.side = side;
    request.limit = limit.value_or(request.limit);
    request.quick = quick;
    request.fast = fast;
    request.timing = timing;
    return to_python(core_call([&] { return face::dead_answer(in, request); }));
}

}  // namespace

PYBIND11_MODULE(_arbiter, m) {
    m.doc() = "The C++ layer of arbiter (use the package `arbiter`, not this module).";
    m.attr("__version__") = std::string(arbiter::version);  // what `arbiter --version` prints

    {
        // Docstrings that open with a text signature ("name(self, move, /)\n--\n\n"), which Python
        // reads as __text_signature__, so that inspect.signature and IDEs see the parameters of these
        // C++ methods (pybind11's own signature line is not one Python can parse).
        py::options text_signatures;
        text_signatures.disable_function_signatures();
        py::class_<Position>(
            m, "Position",
            "Position(fen=None, *, board=None)\n--\n\n"
            "The position of a FEN (counters may be omitted), of a board-like object (a chess.Board, an "
            "arbiter.Position, anything with fen(); as fen or as board), or the initial position. Raises "
            "FenError.\n\n"
            "A chess position (immutable from Python: push returns a new one). Two positions are equal "
            "when they are the same position of the Laws (9.2.3: placement, side to move, castling "
            "rights, a legal en passant capture; not the counters), and hash alike: a key for dicts "
            "and sets.")
            .def(py::init([](const py::object& fen, const py::object& board) {
                     if (!board.is_none()) {
                         if (!fen.is_none()) throw py::type_error("Position: give fen or board, not both");
                         return read_fen(fen_of(board));
                     }
                     if (fen.is_none()) return Position();
                     if (!py::isinstance<py::str>(fen)) return read_fen(fen_of(fen));  // a board given first
                     Py_ssize_t size = 0;
                     const char* utf8 = PyUnicode_AsUTF8AndSize(fen.ptr(), &size);
                     if (!utf8) {  // a lone surrogate: refused as every text argument is (arbiter._game._text)
                         PyErr_Clear();
                         py::module_::import("arbiter._game")
                             .attr("_text")("fen", fen, py::module_::import("arbiter._errors").attr("FenError"));
                         throw py::value_error("fen: not valid text");  // not reached: _text raised
                     }
                     return read_fen(std::string(utf8, static_cast<std::size_t>(size)));
                 }),
                 py::arg("fen") = py::none(), py::kw_only(), py::arg("board") = py::none(),
                 "__init__(self, /, fen=None, *, board=None)\n--\n\nThe position of a FEN, of a board-like object "
                 "(fen() gives its FEN), or the initial position. Raises FenError.")
            .def(
                "fen",
                [](const Position& p, const py::object& en_passant) {
                    return en_passant.is_none() ? to_fen(p) : fen_as(p, en_passant);
                },
                py::arg("en_passant") = py::none(),
                "fen(self, /, en_passant=None)\n--\n\nThe FEN of the position. The en passant square: by default "
                "after every double step (the FEN standard, as the CLI writes it; en_passant='fen'), with "
                "en_passant='legal' only when an en passant capture is legal (python-chess's default, Game.fen()'s), "
                "with 'xfen' when one is pseudo-legal.")
            .def(
                "board_fen",
                [](const Position& p) {
                    const std::string fen = to_fen(p);
                    return fen.substr(0, fen.find(' '));
                },
                "board_fen(self, /)\n--\n\nThe piece placement field of the FEN (python-chess's board_fen()).")
            .def(
                "epd",
                [](const Position& p, const py::object& en_passant) {
                    const std::string fen = fen_as(p, en_passant);
                    std::size_t cut = 0;  // the fourth space: after placement, side, castling and en passant
                    for (int field = 0; field < 4; ++field) cut = fen.find(' ', field == 0 ? 0 : cut + 1);
                    return fen.substr(0, cut);
                },
                py::kw_only(), py::arg("en_passant") = "legal",
                "epd(self, /, *, en_passant='legal')\n--\n\nThe EPD of the position: the first four fields of "
                "the FEN, no counters and no operations (python-chess's epd() without operations).")
            .def(
                "legal_moves",
                [](const Position& p, const py::object& notation) {
                    const std::string n = str_arg("notation", notation, "'san' or 'uci'");
                    try {  // the choices and the refusal are the face core's table's
                        face::checked_choice(face::request_option("notation"), n);
                    } catch (const face::InputError& e) {
                        raise_core(e);
                    }
                    return moves_of(p, n == "uci");
                },
                py::arg("notation") = "san",
                "legal_moves(self, /, notation='san')\n--\n\nThe legal moves, in SAN (default) or UCI, in generation "
                "order.")
            .def(
                "san",
                [](const Position& p, const py::object& move) {
                    return to_san(p, read_move(p, move_arg("move", move)));
                },
                py::arg("move"),
                "san(self, /, move)\n--\n\nThe SAN of a legal move given in SAN, UCI or as a move object (chess.Move). "
                "Raises MoveError.")
            .def(
                "uci",
                [](const Position& p, const py::object& move) {
                    return to_uci(p, read_move(p, move_arg("move", move)));
                },
                py::arg("move"),
                "uci(self, /, move)\n--\n\nThe UCI of a legal move given in SAN, UCI or as a move object (chess.Move). "
                "Raises MoveError.")
            .def(
                "push",
                [](const Position& p, const py::object& move) {
                    Position next = p;
                    next.play_unchecked(read_move(p, move_arg("move", move)));
                    return next;
                },
                py::arg("move"),
                "push(self, /, move)\n--\n\nA new Position after a legal move (SAN, UCI or a move object such as "
                "chess.Move); this one is unchanged. Raises MoveError.")
            .def(
                "parse_san",
                [](const Position& p, const py::object& san) {
                    const std::string text = str_arg("san", san, "a move in SAN (a str)");
                    return move_object(to_uci(p, read_move(p, text, "san")));
                },
                py::arg("san"),
                "parse_san(self, /, san)\n--\n\nThe legal move written `san` (SAN, or UCI) as a move (chess.Move when "
                "python-chess is importable, else arbiter.Move). Raises MoveError (field 'san').")
            .def(
                "is_legal",
                [](const Position& p, const py::object& move) {
                    std::string text;
                    try {
                        text = move_arg("move", move);
                    } catch (const py::error_already_set& e) {
                        if (e.matches(PyExc_TypeError)) throw;
                        return false;  // the null move, or text that is not valid
                    }
                    return static_cast<bool>(parse_move(p, text));
                },
                py::arg("move"),
                "is_legal(self, /, move)\n--\n\nTrue when `move` (SAN, UCI or a move object) is one legal move of "
                "this position; False for anything else that is a move or text (the null move, illegal, ambiguous).")
            .def(
                "gives_check",
                [](const Position& p, const py::object& move) {
                    return p.after(read_move(p, move_arg("move", move))).in_check();
                },
                py::arg("move"),
                "gives_check(self, /, move)\n--\n\nThe legal move `move` checks the opponent. Raises MoveError for "
                "a move that is not legal (python-chess answers for pseudo-legal moves too).")
            .def(
                "is_capture",
                [](const Position& p, const py::object& move) {
                    return p.is_capture(read_move(p, move_arg("move", move)));
                },
                py::arg("move"),
                "is_capture(self, /, move)\n--\n\nThe legal move `move` captures (en passant included). Raises "
                "MoveError for a move that is not legal.")
            .def(
                "is_zeroing",
                [](const Position& p, const py::object& move) {
                    return p.is_zeroing(read_move(p, move_arg("move", move)));
                },
                py::arg("move"),
                "is_zeroing(self, /, move)\n--\n\nThe legal move `move` is a capture or a pawn move: it resets the "
                "fifty-move count (9.3). Raises MoveError for a move that is not legal.")
            .def(
                "piece_at",
                [](const Position& p, const py::object& square) -> py::object {
                    const Piece piece = p.piece_at(square_arg(square));
                    if (piece == Piece::none) return py::none();
                    return py::module_::import("arbiter._chess_types")
                        .attr("piece_of")(std::string(1, fen_char(piece)));
                },
                py::arg("square"),
                "piece_at(self, /, square)\n--\n\nThe piece on `square` (0 = a1 … 63 = h8, as chess.E4), or None: a "
                "chess.Piece when python-chess is importable, else arbiter.Piece.")
            .def_property_readonly(
                "halfmove_clock", [](const Position& p) { return p.halfmove_clock(); },
                "The halfmove clock of the FEN: plies since the last capture or pawn move (python-chess's).")
            .def_property_readonly(
                "fullmove_number", [](const Position& p) { return p.fullmove_number(); },
                "The fullmove number of the FEN (python-chess's).")
            .def(
                "ply",
                [](const Position& p) { return 2 * (p.fullmove_number() - 1) + (p.turn() == Color::black ? 1 : 0); },
                "ply(self, /)\n--\n\nThe ply of the position by its fullmove number and side to move (python-chess's "
                "ply()).")
            .def(
                "_repr_svg_", [](const Position& p) { return face::board_svg(p, {}); },
                "_repr_svg_(self, /)\n--\n\nThe board as SVG (arbiter's own drawing, as the service's /board.svg): "
                "Jupyter shows it.")
            .def("is_check", &Position::in_check, "is_check(self, /)\n--\n\nTrue when the side to move is in check.")
            .def(
                "turn", [](const Position& p) { return std::string(name(p.turn())); },
                "turn(self, /)\n--\n\n'white' or 'black'.")
            .def(
                "perft",
                [](const Position& p, const py::object& depth) {
                    // A TypeError that names the argument (pybind11's own lists the overloads).
                    if (!py::isinstance<py::int_>(depth) || py::isinstance<py::bool_>(depth))
                        throw py::type_error("depth: expected an int (0 to MAX_PERFT_DEPTH), got " +
                                             std::string(py::str(py::type::of(depth).attr("__name__"))));
                    long long d = -1;  // any negative: out of range, as is anything past the limit
                    if (PyObject_RichCompareBool(depth.ptr(), py::int_(0).ptr(), Py_GE) == 1) {
                        d = 1'000;
                        try {
                            d = std::min(depth.cast<long long>(), d);
                        } catch (const py::cast_error&) {}
                    }
                    return perft_of(p, d);
                },
                py::arg("depth"),
                "perft(self, /, depth)\n--\n\nLeaf nodes of the legal move tree to `depth` plies, 0 to MAX_PERFT_DEPTH "
                "(releases the GIL; Ctrl-C interrupts it).")
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
                "copy(self, /)\n--\n\nA copy (positions are immutable: equal to this one).")
            .def(
                "__copy__", [](const Position& p) { return Position(p); }, "A copy.")
            .def(
                "__deepcopy__", [](const Position& p, const py::object&) { return Position(p); }, py::arg("memo"),
                "A copy.")
            .def(
                "to_board", [](const Position& p) { return chess_module().attr("Board")(to_fen(p)); },
                "to_board(self, /)\n--\n\nA chess.Board of this position (needs python-chess; raises ImportError "
                "without it).");
    }

    const std::string default_rules(enum_name(RuleSetId{}));
    m.attr("DEFAULT_RULES") = default_rules;  // the rule set of a game when none is named
    m.attr("MAX_PERFT_DEPTH") = face::max_perft_depth;
    m.attr("MAX_AUDIT_THREADS") = face::max_audit_threads;
    m.attr("NO_GAMES") = std::string(face::no_games_message);  // no game in an audit's inputs
    py::list operations;                                       // the face core's registry of operations on a position
    for (const auto& op : face::position_operations()) operations.append(std::string(op));
    m.attr("OPERATIONS") = py::tuple(operations);
    // The languages of the texts (message.hpp): (code, its own name, written right to left).
    py::list langs;
    for (const Language& l : languages())
        langs.append(py::make_tuple(std::string(l.code), std::string(l.name), l.right_to_left));
    m.attr("LANGUAGES") = py::tuple(langs);

    py::class_<Game>(m, "Game", "A game under a rule set: moves played, and its draw status and claims.")
        .def(py::init([default_rules](const std::optional<std::string>& fen,
                                      const std::optional<std::variant<std::string, std::vector<std::string>>>& moves,
                                      const py::dict& options) {
                 return std::make_unique<Game>(fen, moves.value_or(std::string()),
                                               rule_options_of(options, default_rules));
             }),
             py::arg("fen") = py::none(), py::arg("moves") = py::none(), py::arg("options") = py::dict())
        .def("push", &Game::push, py::arg("move"),
             "Plays a legal move (SAN or UCI). Raises MoveError (bad_move, illegal_move, ambiguous_move, game_over).")
        .def("pop", &Game::pop,
             "Takes back the last ply; returns its SAN. NoMoveError (an IndexError) at the start of the game.")
        .def("status", &Game::status,
             "Everything draw-related about the current position: the dict of `arbiter status --json` "
             "(releases the GIL).")
        .def("claim", &Game::claim, py::arg("kind"), py::arg("intended") = py::none(), py::arg("lang") = "en",
             py::arg("figurines") = false,
             "The arbiter's ruling on a claim (kind 'threefold' or 'fifty', with the written move `intended` "
             "or not): the dict of `arbiter claim --json`, its texts in `lang`. Raises ClaimError, MoveError, "
             "OptionError.")
        .def_property_readonly(
            "history", [](const Game& g) { return g.history("san"); }, "The moves played, in SAN.")
        .def_property_readonly(
            "uci_history", [](const Game& g) { return g.history("uci"); }, "The moves played, in UCI.")
        .def_property_readonly("ply", &Game::ply, "The game ply of the current position.")
        .def_property_readonly("position", &Game::position, "The current Position.")
        .def_property_readonly("start", &Game::start, "The start Position.")
        .def_property_readonly("rules", &Game::rules, "The rule set's id.");

    m.def("dead", &dead, py::arg("fen"), py::arg("side") = "both", py::arg("limit") = py::none(),
          py::arg("quick") = false, py::arg("fast") = false, py::arg("timing") = false,
          "The dict of `arbiter dead --json`.");
    m.def(
        "request",
        [](const std::string& what, const std::string& json) {
            return face::dump(core_call([&] {
                // The one reader of a request (json_object.hpp): bad_json naming the byte, as everywhere.
                return face::position_answer(what, face::parse_json_object(json, "the request"));
            }));
        },
        py::arg("what"), py::arg("json"),
        "A request to the face core as the service and JavaScript send it (what: status, claim, dead, moves, "
        "play, perft; json: its keys): the answer as JSON text, or the core's refusal raised.");
    m.def(
        "answer",
        [](const std::string& what, const py::dict& request) {
            const face::Json j = from_python(request, "request");
            return to_python(core_call([&] { return face::position_answer(what, j); }));
        },
        py::arg("what"), py::arg("request"),
        "request() without JSON text: the request as a dict, the answer as one (no text written and read "
        "again within the process).");
    m.def(
        "board_svg",
        [](const Position& p, bool flip, const std::string& highlight, const std::string& arrow) {
            const face::BoardStyle style = core_call([&] { return face::board_style(flip, highlight, arrow); }, false);
            return face::board_svg(p, style);
        },
        py::arg("position"), py::arg("flip") = false, py::arg("highlight") = "", py::arg("arrow") = "",
        "The SVG board of the service's /board.svg: `highlight` squares ('e2,e4'), `arrow` pairs ('g1f3').");
    m.def("move_tokens", &face::move_tokens, py::arg("text"),
          "The moves of --moves text: move numbers, comments and a result left out.");
    bind_audit(m);
    bind_rule_options(m);
}
