// _arbiter.cpp — the C++ layer of the Python package `arbiter` (pybind11): thin shims over the
// library and over the CLI's own JSON builders (arbiter_cli_core), so that every dict it returns
// is the object `arbiter status|claim|dead --json` and `arbiter audit --format jsonl` print. Long
// calls release the GIL. The Pythonic API (audit iterators, the Dask client) is arbiter/*.py.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "arbiter/arbiter.hpp"
#include "arbiter/audit.hpp"
#include "arbiter/input.hpp"
#include "arbiter/pgn.hpp"
#include "audit_output.hpp"
#include "dead_json.hpp"
#include "game_input.hpp"
#include "rules_json.hpp"

namespace py = pybind11;
using namespace arbiter;

namespace {

// ---- errors: Python exceptions (arbiter/_errors.py) carrying code, field and offset ----

[[noreturn]] void raise(const char* type, const std::string& message, const std::string& code,
                        std::optional<std::string> field, std::optional<std::uint64_t> offset) {
    py::object cls = py::module_::import("arbiter._errors").attr(type);
    py::object exc = cls(message, code, field ? py::cast(*field) : py::none(), offset ? py::cast(*offset) : py::none());
    PyErr_SetObject(cls.ptr(), exc.ptr());
    throw py::error_already_set();
}

[[noreturn]] void raise_fen(const FenError& e) {
    raise("FenError", e.describe(), code_name(e.code), std::string(field_name(e.field)), e.offset);
}

[[noreturn]] void raise_option(const std::string& field, const std::string& message,
                               const std::string& code = "bad_value") {
    raise("OptionError", message, code, field, std::nullopt);
}

[[noreturn]] void raise_input(const InputError& e) {
    raise("ReadError", e.describe(), code_name(e.code), e.path, e.offset);
}

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

// ---- JSON (nlohmann, ordered or not) to Python objects, keys in the order the CLI prints ----

template <class J>
py::object to_python(const J& j) {
    switch (j.type()) {
        case J::value_t::null: return py::none();
        case J::value_t::boolean: return py::bool_(j.template get<bool>());
        case J::value_t::number_integer: return py::int_(j.template get<std::int64_t>());
        case J::value_t::number_unsigned: return py::int_(j.template get<std::uint64_t>());
        case J::value_t::number_float: return py::float_(j.template get<double>());
        case J::value_t::string: {
            const auto& s = j.template get_ref<const std::string&>();
            // As the CLI prints it: bytes that are not UTF-8 become U+FFFD.
            return py::reinterpret_steal<py::object>(
                PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace"));
        }
        case J::value_t::array: {
            py::list out;
            for (const auto& x : j) out.append(to_python(x));
            return out;
        }
        case J::value_t::object: {
            py::dict out;
            for (auto it = j.begin(); it != j.end(); ++it) out[py::str(it.key())] = to_python(it.value());
            return out;
        }
        default: return py::none();
    }
}

// ---- Position ----

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
        cli::RuleInput in;
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
        } catch (const cli::InputError& e) {
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
        cli::Json j;
        {
            py::gil_scoped_release release;
            std::lock_guard lock(mu_);
            j = cli::to_json(draw_status(*record_), *record_);
        }
        return to_python(j);
    }

    py::object claim(const std::string& kind, const std::optional<std::string>& intended) const {
        const auto k = parse_claim_kind(kind);
        if (!k)
            raise("ClaimError", "claim: expected threefold or fifty, found '" + kind + "'", "bad_kind", "kind",
                  std::nullopt);
        cli::Json j;
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
                j = cli::to_json(v, *record_);
            }
        }
        if (syntax)
            raise("MoveError",
                  "intended: '" + *intended + "' is not a move (byte " + std::to_string(syntax->offset) +
                      "): " + syntax->message,
                  "syntax", "intended", syntax->offset);
        return to_python(j);
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
    cli::Json j;
    {
        py::gil_scoped_release release;
        const HelpmateAnalyzer analyzer(options);
        j = cli::dead_json(*pos, cli::analyse_dead(analyzer, *pos, cli::sides_of(side)), timing);
    }
    return to_python(j);
}

// ---- audit: reading inputs, cutting them at game boundaries, auditing the pieces ----

// Reads an input as the CLI does (a path or "-"; zstd, gzip, bzip2 detected by content), or bytes.
class Reader {
public:
    explicit Reader(const std::string& path) : name_(path) {
        auto src = open_input(path);
        if (!src) raise_input(src.error());
        src_ = std::move(*src);
    }
    Reader(py::bytes data, const std::string& name) : name_(name), data_(data) { src_ = memory_input(data_, {}, name); }
    // Up to `size` bytes; b"" at the end. A read error raises ReadError (the input ends there).
    py::bytes read(std::size_t size) {
        std::string buf(size, '\0');
        Expected<std::size_t, InputError> n = std::size_t{0};
        {
            py::gil_scoped_release release;
            n = src_->read(buf.data(), buf.size());
        }
        if (!n) raise_input(n.error());
        buf.resize(*n);
        return py::bytes(buf);
    }
    std::uint64_t consumed() const { return src_->consumed(); }
    const std::string& name() const { return name_; }

private:
    std::string name_;
    std::string data_;
    std::unique_ptr<ByteSource> src_;
};

// A piece of one input: whole games, cut just before a game boundary or at the end.
struct InputPiece {
    py::bytes text;
    std::string file;
    std::uint64_t first_line = 1, first_offset = 0;
    bool ends_at_boundary = false;
    std::uint64_t games = 0;  // game boundaries in it (games that start with [Event after a blank line)
};

// Cuts one input's text, as it is fed, into pieces of `games` games (counted by game boundaries)
// or, when `bytes` is not 0, at the first boundary past that many bytes, whichever comes first.
class Cutter {
public:
    Cutter(std::string file, std::uint64_t games, std::uint64_t bytes)
        : file_(std::move(file)), games_(std::max<std::uint64_t>(games, 1)), bytes_(bytes) {}

    std::vector<InputPiece> feed(std::string_view data) {
        std::vector<InputPiece> out;
        {
            py::gil_scoped_release release;
            pending_.append(data);
            cut(out);
        }
        return out;
    }
    // The input ended: the rest (if any, or an empty piece with `always`) is the last piece.
    std::vector<InputPiece> finish(bool always) {
        std::vector<InputPiece> out;
        if (!pending_.empty() || always) out.push_back(take(pending_.size(), false));
        return out;
    }

private:
    void cut(std::vector<InputPiece>& out) {
        for (;;) {
            const std::size_t at = finder_.find(pending_, std::max<std::size_t>(last_ + 1, 1));
            if (at == std::string::npos) return;
            last_ = at;
            ++seen_;
            if (seen_ >= games_ || (bytes_ && at >= bytes_)) {
                out.push_back(take(at, true));
                finder_.reset();
                last_ = 0;
                seen_ = 0;
            }
        }
    }
    // The piece pending_[0, n) (GIL released by the caller for feed; the bytes object is made below).
    InputPiece take(std::size_t n, bool boundary) {
        InputPiece p;
        p.file = file_;
        p.first_line = line_;
        p.first_offset = offset_;
        p.ends_at_boundary = boundary;
        p.games = seen_ + (n ? 1 : 0);
        const std::string_view text(pending_.data(), n);
        line_ += static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n'));
        offset_ += n;
        {
            py::gil_scoped_acquire acquire;
            p.text = py::bytes(text.data(), text.size());
        }
        pending_.erase(0, n);
        return p;
    }

    std::string file_;
    std::uint64_t games_, bytes_;
    std::string pending_;
    pgn::BoundaryFinder finder_;
    std::size_t last_ = 0;
    std::uint64_t seen_ = 0;
    std::uint64_t line_ = 1, offset_ = 0;
};

audit::AuditOptions audit_options(const std::string& rules, const std::optional<std::string>& time_category) {
    audit::AuditOptions o;
    if (rules != "auto") {
        const auto id = parse_rule_set(rules);
        if (!id)
            raise_option("rules", "rules: unknown rule set '" + rules + "' (expected auto or a rule-set id)",
                         "unknown_rule_set");
        o.rules = *id;
    }
    if (time_category) {
        const auto tc = parse_time_category(*time_category);
        if (!tc)
            raise_option("time_category", "time_category: expected " + enum_name_list<TimeCategory>() + ", found '" +
                                              *time_category + "'");
        o.rule_options.time_category = *tc;
        o.time_category_from_tag = false;
    }
    return o;
}

py::dict counts_dict(const cli::AuditCounts& c) {
    py::dict d;
    d["games"] = c.games;
    d["plies"] = c.plies;
    d["games_with_errors"] = c.games_with_errors;
    d["errors"] = c.errors;
    d["games_with_findings"] = c.games_with_findings;
    py::dict f;
    for (const auto& [k, v] : c.findings) f[py::str(k)] = v;
    d["findings"] = f;
    return d;
}

cli::AuditCounts counts_of(const py::dict& d) {
    cli::AuditCounts c;
    c.games = d["games"].cast<std::uint64_t>();
    c.plies = d["plies"].cast<std::uint64_t>();
    c.games_with_errors = d["games_with_errors"].cast<std::uint64_t>();
    c.errors = d["errors"].cast<std::uint64_t>();
    c.games_with_findings = d["games_with_findings"].cast<std::uint64_t>();
    for (auto [k, v] : d["findings"].cast<py::dict>()) c.findings[k.cast<std::string>()] = v.cast<std::uint64_t>();
    return c;
}

// The audit of one piece: (records, counts). Each record is a game's jsonl line without its
// leading {"game":N,"game_in_file":M (it starts with a comma and ends with a newline); none when
// `summary`. `error`: (code, path, offset, message) of the read error that ended the input after it.
py::tuple audit_piece(py::bytes text, const std::string& file, std::uint64_t first_line, std::uint64_t first_offset,
                      bool ends_at_boundary, const std::string& rules, const std::optional<std::string>& time_category,
                      bool summary, const std::optional<py::tuple>& error) {
    const audit::AuditOptions options = audit_options(rules, time_category);
    cli::AuditPiece piece;
    std::string_view view = text;  // the bytes object is kept alive by the caller
    piece.text = view;
    piece.file = file;
    piece.first_line = first_line;
    piece.first_offset = first_offset;
    piece.ends_at_boundary = ends_at_boundary;
    if (error) {
        const auto code = parse_enum<InputError::Code>((*error)[0].cast<std::string>());
        piece.error = InputError{code.value_or(InputError::Code::read_failed), (*error)[1].cast<std::string>(),
                                 (*error)[2].cast<std::uint64_t>(), (*error)[3].cast<std::string>()};
    }
    cli::AuditCounts counts;
    std::vector<std::string> records;
    {
        py::gil_scoped_release release;
        records =
            cli::audit_piece(piece, options, summary ? cli::AuditFormat::summary : cli::AuditFormat::jsonl, counts);
    }
    py::list out;
    for (const auto& r : records) out.append(py::bytes(r));
    return py::make_tuple(out, counts_dict(counts));
}

// The games of a piece as read for the audit: index (in the piece), tags, the start FEN (None when
// it could not be set up), the mainline in SAN and UCI up to the first error, the result marker and
// whether every mainline move could be played.
py::list read_games(py::bytes text, bool ends_at_boundary) {
    const std::string_view view = text;
    struct Read {
        std::vector<std::pair<std::string, std::string>> tags;
        std::optional<std::string> fen;
        std::vector<std::string> san, uci;
        std::string result;
        bool complete;
        std::uint64_t index;
    };
    std::vector<Read> games;
    {
        py::gil_scoped_release release;
        auto src = memory_input(view, {InputOptions::Compression::plain});
        pgn::GameReaderOptions ro;
        ro.reader.input_continues = ends_at_boundary;
        pgn::GameReader reader(*src, ro);
        pgn::ParsedGame g;
        while (reader.next(g)) {
            Read r;
            r.index = g.index;
            for (std::size_t t = 0; t < g.tag_count(); ++t)
                r.tags.emplace_back(std::string(g.tag_at(t).name), std::string(g.tag_at(t).value));
            if (g.has_start) {
                r.fen = to_fen(g.start);
                Position pos = g.start;
                for (const auto& p : g.plies) {
                    r.san.emplace_back(g.san(p));
                    r.uci.push_back(to_uci(pos, p.move));
                    pos.play_unchecked(p.move);
                }
            }
            r.result = g.result;
            r.complete = g.complete;
            games.push_back(std::move(r));
        }
    }
    py::list out;
    for (const auto& r : games) {
        py::dict d;
        d["index"] = r.index;
        py::dict tags;
        for (const auto& [k, v] : r.tags)
            if (!tags.contains(k))
                tags[py::str(k)] = py::reinterpret_steal<py::object>(
                    PyUnicode_DecodeUTF8(v.data(), static_cast<Py_ssize_t>(v.size()), "replace"));
        d["tags"] = tags;
        d["fen"] = r.fen ? py::cast(*r.fen) : py::none();
        d["san"] = r.san;
        d["uci"] = r.uci;
        d["result"] = r.result.empty() ? py::none() : py::cast(r.result);
        d["complete"] = r.complete;
        out.append(d);
    }
    return out;
}

py::dict add_counts(const py::dict& a, const py::dict& b) {
    cli::AuditCounts c = counts_of(a);
    c.add(counts_of(b));
    return counts_dict(c);
}

std::string summary_text(const py::dict& counts, double seconds, std::uint64_t bytes, bool json) {
    std::ostringstream out;
    cli::print_summary(out, counts_of(counts), seconds, bytes, json);
    return out.str();
}

}  // namespace

PYBIND11_MODULE(_arbiter, m) {
    m.doc() = "The C++ layer of arbiter (use the package `arbiter`, not this module).";

    py::class_<Position>(m, "Position", "A chess position (immutable from Python: push returns a new one).")
        .def(py::init([](const std::optional<std::string>& fen) { return fen ? read_fen(*fen) : Position(); }),
             py::arg("fen") = py::none(),
             "The position of a FEN (counters may be omitted), or the initial position. Raises FenError.")
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
        .def("__eq__", [](const Position& a, const Position& b) { return to_fen(a) == to_fen(b); })
        .def("__hash__", [](const Position& p) { return py::hash(py::str(to_fen(p))); })
        .def("__repr__", [](const Position& p) { return "arbiter.Position('" + to_fen(p) + "')"; });

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
            "push", [](Game& g, const std::string& move) { g.push(move); }, py::arg("move"))
        .def("status", &Game::status)
        .def("claim", &Game::claim, py::arg("kind"), py::arg("intended") = py::none())
        .def_property_readonly("history", &Game::history)
        .def_property_readonly("ply", &Game::ply)
        .def_property_readonly("position", &Game::position)
        .def_property_readonly("rules", &Game::rules);

    m.def("dead", &dead, py::arg("fen"), py::arg("side") = "both", py::arg("limit") = py::none(),
          py::arg("quick") = false, py::arg("timing") = false);

    py::class_<Reader>(m, "Reader")
        .def(py::init<const std::string&>(), py::arg("path"))
        .def(py::init<py::bytes, const std::string&>(), py::arg("data"), py::arg("name"))
        .def("read", &Reader::read, py::arg("size") = 1 << 18)
        .def_property_readonly("consumed", &Reader::consumed)
        .def_property_readonly("name", &Reader::name);

    py::class_<InputPiece>(m, "Piece")
        .def_readonly("text", &InputPiece::text)
        .def_readonly("file", &InputPiece::file)
        .def_readonly("first_line", &InputPiece::first_line)
        .def_readonly("first_offset", &InputPiece::first_offset)
        .def_readonly("ends_at_boundary", &InputPiece::ends_at_boundary)
        .def_readonly("games", &InputPiece::games);

    py::class_<Cutter>(m, "Cutter")
        .def(py::init<std::string, std::uint64_t, std::uint64_t>(), py::arg("file"), py::arg("games"),
             py::arg("bytes") = 0)
        .def(
            "feed", [](Cutter& c, py::bytes data) { return c.feed(std::string_view(data)); }, py::arg("data"))
        .def("finish", &Cutter::finish, py::arg("always") = false);

    m.def("is_game_boundary",
          [](py::bytes text, std::size_t offset) { return pgn::is_game_boundary(std::string_view(text), offset); });
    m.def("audit_piece", &audit_piece, py::arg("text"), py::arg("file"), py::arg("first_line"), py::arg("first_offset"),
          py::arg("ends_at_boundary"), py::arg("rules") = "auto", py::arg("time_category") = py::none(),
          py::arg("summary") = false, py::arg("error") = py::none());
    m.def("read_games", &read_games, py::arg("text"), py::arg("ends_at_boundary") = false);
    m.def("add_counts", &add_counts);
    m.def("summary_text", &summary_text, py::arg("counts"), py::arg("seconds"), py::arg("bytes"),
          py::arg("json") = false);
}
