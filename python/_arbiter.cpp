// _arbiter.cpp — the C++ layer of the Python package `arbiter` (pybind11): thin shims over the
// library and over the CLI's own JSON builders (arbiter_cli_core), so that every dict it returns
// is the object `arbiter status|claim|dead --json` and `arbiter audit --format jsonl` print. Long
// calls release the GIL. The Pythonic API (audit iterators, the Dask client) is arbiter/*.py.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <malloc.h>

#include <algorithm>
#include <cstring>
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

// A piece of one input: whole games, cut just before a game boundary or at the end.
struct InputPiece {
    py::bytes text;
    std::string file;
    std::uint64_t first_line = 1, first_offset = 0;
    bool ends_at_boundary = false;
    std::optional<py::tuple> error;  // the read error that ended the input after it (audit_piece's `error`)
};

py::tuple error_tuple(const InputError& e) { return py::make_tuple(code_name(e.code), e.path, e.offset, e.message); }

// Where to cut: at the first game boundary past `bytes` bytes or after `games` games (when not 0),
// whichever comes first. With `games` 0 only the first boundary past `bytes` is looked for (the
// finder jumps there: no work per game).
class CutRule {
public:
    CutRule(std::uint64_t games, std::uint64_t bytes) : games_(games), bytes_(bytes) {
        if (!games_ && !bytes_) games_ = 1;
    }
    // The length of the next piece of `text` (which starts where the last piece ended) when it can
    // be cut now, else npos: more text may complete a boundary.
    std::size_t cut(std::string_view text) {
        for (;;) {
            std::size_t from = std::max<std::size_t>(last_ + 1, 1);
            if (!games_) from = std::max<std::size_t>(from, bytes_);
            const std::size_t at = finder_.find(text, from);
            if (at == std::string::npos) return at;
            last_ = at;
            ++seen_;
            if ((games_ && seen_ >= games_) || (bytes_ && at >= bytes_)) return at;
        }
    }
    // A piece was cut: the text now starts after it.
    void cut_made() {
        finder_.reset();
        last_ = 0;
        seen_ = 0;
    }
    std::uint64_t bytes() const { return bytes_; }

private:
    std::uint64_t games_, bytes_;
    pgn::BoundaryFinder finder_;
    std::size_t last_ = 0;
    std::uint64_t seen_ = 0;
};

// Where the next piece starts in its file.
struct FilePlace {
    std::string file;
    std::uint64_t line = 1, offset = 0;
    // Fills `p`'s place and moves past its text (`n` bytes).
    void place(InputPiece& p, std::string_view text, bool boundary) {
        p.file = file;
        p.first_line = line;
        p.first_offset = offset;
        p.ends_at_boundary = boundary;
        line += cli::count_newlines(text);
        offset += text.size();
    }
};

// Cuts the text of a Python stream, as it is fed, into pieces (CutRule).
class Cutter {
public:
    Cutter(std::string file, std::uint64_t games, std::uint64_t bytes) : rule_(games, bytes), at_{std::move(file)} {}

    std::vector<InputPiece> feed(std::string_view data) {
        pending_.append(data);
        std::vector<InputPiece> out;
        for (std::size_t n; (n = rule_.cut(pending_)) != std::string::npos;) out.push_back(take(n, true));
        return out;
    }
    // The input ended: the rest (if any, or an empty piece with `always`) is the last piece.
    std::vector<InputPiece> finish(bool always) {
        std::vector<InputPiece> out;
        if (!pending_.empty() || always) out.push_back(take(pending_.size(), false));
        return out;
    }

private:
    InputPiece take(std::size_t n, bool boundary) {
        InputPiece p;
        const std::string_view text(pending_.data(), n);
        at_.place(p, text, boundary);
        p.text = py::bytes(text.data(), text.size());
        pending_.erase(0, n);
        rule_.cut_made();
        return p;
    }

    CutRule rule_;
    FilePlace at_;
    std::string pending_;
};

// Reads an input (a path or "-", zstd, gzip, bzip2 detected by content; or bytes) and cuts it
// into pieces (CutRule), one call per piece. The input is read straight into the bytes object of
// the piece (no copy but the bytes read past its end, carried to the next piece), and reading,
// decompressing and cutting run without the GIL. A read error ends the input: the piece before it
// carries it (an empty piece if need be, as the CLI's last batch).
class PieceReader {
public:
    PieceReader(const std::string& path, std::uint64_t games, std::uint64_t bytes) : rule_(games, bytes), at_{path} {
        auto src = open_input(path);
        if (!src) raise_input(src.error());
        src_ = std::move(*src);
    }
    PieceReader(py::bytes data, const std::string& name, std::uint64_t games, std::uint64_t bytes)
        : rule_(games, bytes), at_{name}, data_(data) {
        src_ = memory_input(data_, {}, name);
    }

    // The next piece, or None at the end.
    py::object next() {
        if (done_) return py::none();
        constexpr std::size_t slack = std::size_t{1} << 18;  // read past the cut, carried to the next piece
        std::size_t size = carry_.size(), cap = std::max<std::size_t>(rule_.bytes(), size) + slack;
        // The bytes object is ours alone until it is returned, so it may be written and resized.
        PyObject* raw = PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(cap));
        if (!raw) throw py::error_already_set();
        const auto resize = [&](std::size_t to) {
            if (_PyBytes_Resize(&raw, static_cast<Py_ssize_t>(to)) < 0) throw py::error_already_set();
        };
        std::size_t n = std::string::npos;
        try {
            for (;;) {
                {
                    py::gil_scoped_release release;
                    char* data = PyBytes_AS_STRING(raw);
                    if (!carry_.empty()) {
                        std::memcpy(data, carry_.data(), carry_.size());
                        carry_.clear();
                    }
                    while ((n = rule_.cut({data, size})) == std::string::npos && !eof_ && size < cap) {
                        auto got = src_->read(data + size, cap - size);
                        if (!got) error_ = got.error();
                        if (!got || *got == 0)
                            eof_ = true;
                        else
                            size += *got;
                    }
                }
                if (n != std::string::npos || eof_) break;
                // No boundary yet and the buffer is full (a run of text longer than a piece): grow it.
                cap *= 2;
                resize(cap);
            }
            const bool last = n == std::string::npos;
            if (last) {
                done_ = true;
                n = size;
            }
            const char* data = PyBytes_AS_STRING(raw);
            carry_.assign(data + n, size - n);
            InputPiece p;
            at_.place(p, {data, n}, !last);
            rule_.cut_made();
            resize(n);
            p.text = py::reinterpret_steal<py::bytes>(raw);
            raw = nullptr;
            if (last && n == 0 && !error_) return py::none();
            if (last && error_) p.error = error_tuple(*error_);
            return py::cast(std::move(p));
        } catch (...) {
            Py_XDECREF(raw);
            throw;
        }
    }
    std::uint64_t consumed() const { return src_->consumed(); }
    // The read error that ended the input, or None.
    py::object error() const {
        if (!error_) return py::none();
        py::object cls = py::module_::import("arbiter._errors").attr("ReadError");
        return cls(error_->describe(), code_name(error_->code), error_->path, error_->offset);
    }

private:
    CutRule rule_;
    FilePlace at_;
    std::string data_;
    std::unique_ptr<ByteSource> src_;
    std::string carry_;
    std::optional<InputError> error_;
    bool eof_ = false, done_ = false;
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

cli::AuditFilter audit_filter(const std::vector<std::string>& only, const std::vector<std::string>& select) {
    cli::AuditFilter f;
    for (const auto& list : only)
        if (const auto e = f.add_only(list); !e.empty()) raise_option("only", "only: " + e);
    for (const auto& spec : select)
        if (const auto e = f.add_select(spec); !e.empty()) raise_option("select", "select: " + e);
    return f;
}

// The audit of one piece: (text, games_read, counts). `text` holds one line per game read: its
// jsonl line without the leading {"game":N,"game_in_file":M (so it starts with a comma), or an
// empty line for a game `select` leaves out; nothing with `summary`. number_records puts the
// numbers in. `error`: (code, path, offset, message) of the read error that ended the input after it.
py::tuple audit_piece(py::bytes text, const std::string& file, std::uint64_t first_line, std::uint64_t first_offset,
                      bool ends_at_boundary, const std::string& rules, const std::optional<std::string>& time_category,
                      bool summary, const std::optional<py::tuple>& error, const std::vector<std::string>& only,
                      const std::vector<std::string>& select) {
    const audit::AuditOptions options = audit_options(rules, time_category);
    const cli::AuditFilter filter = audit_filter(only, select);
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
    cli::PieceAudit result;
    {
        py::gil_scoped_release release;
        result =
            cli::audit_piece(piece, options, summary ? cli::AuditFormat::summary : cli::AuditFormat::jsonl, &filter);
    }
    return py::make_tuple(py::bytes(result.text), result.games_read, counts_dict(result.counts));
}

// The lines of audit_piece's text with their game numbers, from `game` and `game_in_file` on.
py::bytes number_records(py::bytes text, std::uint64_t game, std::uint64_t game_in_file) {
    const std::string_view view = text;
    std::string out;
    {
        py::gil_scoped_release release;
        cli::number_records(view, game, game_in_file, out);
    }
    return py::bytes(out);
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

// Keeps buffers of a few MB in the heap instead of a fresh mapping each (whose every page is a
// fault when first written: a large share of the distributed audit's CPU on a virtual machine).
// Process-wide; called by the distributed audit's client and on its workers.
void reuse_memory() {
    static std::once_flag once;
    std::call_once(once, [] {
        mallopt(M_MMAP_THRESHOLD, 32 << 20);
        mallopt(M_TRIM_THRESHOLD, 128 << 20);
    });
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

    py::class_<InputPiece>(m, "Piece")
        .def_readonly("text", &InputPiece::text)
        .def_readonly("file", &InputPiece::file)
        .def_readonly("first_line", &InputPiece::first_line)
        .def_readonly("first_offset", &InputPiece::first_offset)
        .def_readonly("ends_at_boundary", &InputPiece::ends_at_boundary)
        .def_readonly("error", &InputPiece::error);

    py::class_<Cutter>(m, "Cutter")
        .def(py::init<std::string, std::uint64_t, std::uint64_t>(), py::arg("file"), py::arg("games"),
             py::arg("bytes") = 0)
        .def(
            "feed", [](Cutter& c, py::bytes data) { return c.feed(std::string_view(data)); }, py::arg("data"))
        .def("finish", &Cutter::finish, py::arg("always") = false);

    py::class_<PieceReader>(m, "PieceReader")
        .def(py::init<const std::string&, std::uint64_t, std::uint64_t>(), py::arg("path"), py::arg("games"),
             py::arg("bytes"))
        .def(py::init<py::bytes, const std::string&, std::uint64_t, std::uint64_t>(), py::arg("data"), py::arg("name"),
             py::arg("games"), py::arg("bytes"))
        .def("next", &PieceReader::next)
        .def_property_readonly("error", &PieceReader::error)
        .def_property_readonly("consumed", &PieceReader::consumed);

    m.def("is_game_boundary",
          [](py::bytes text, std::size_t offset) { return pgn::is_game_boundary(std::string_view(text), offset); });
    m.def("audit_piece", &audit_piece, py::arg("text"), py::arg("file"), py::arg("first_line"), py::arg("first_offset"),
          py::arg("ends_at_boundary"), py::arg("rules") = "auto", py::arg("time_category") = py::none(),
          py::arg("summary") = false, py::arg("error") = py::none(), py::arg("only") = std::vector<std::string>{},
          py::arg("select") = std::vector<std::string>{});
    m.def("number_records", &number_records, py::arg("text"), py::arg("game"), py::arg("game_in_file"));
    m.def("read_games", &read_games, py::arg("text"), py::arg("ends_at_boundary") = false);
    m.def("add_counts", &add_counts);
    m.def("reuse_memory", &reuse_memory,
          "Keeps buffers of a few MB in the heap (mallopt) rather than a fresh mapping each: process-wide.");
    m.def("summary_text", &summary_text, py::arg("counts"), py::arg("seconds"), py::arg("bytes"),
          py::arg("json") = false);
}
