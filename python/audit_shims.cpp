// audit_shims.cpp — the audit's part of the Python module `arbiter`: each piece of whole games
// (read and cut by piece_shims.cpp) audited as a batch of `arbiter audit` is (the face core), the
// records numbered, the games read, the counts added. arbiter/_audit.py is the Python API on top.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <malloc.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "arbiter/arbiter.hpp"
#include "arbiter/audit.hpp"
#include "arbiter/input.hpp"
#include "arbiter/pgn.hpp"
#include "audit/audit_output.hpp"
#include "audit/audit_request.hpp"
#include "audit/audit_task.hpp"
#include "audit/piece_cut.hpp"
#include "errors.hpp"
#include "requests/game_input.hpp"
#include "requests/option_table.hpp"
#include "shims.hpp"

namespace arbiter::python {

namespace {

// The list of an attribute that may be None.
std::vector<std::string> texts_of(const py::handle& x) {
    return x.is_none() ? std::vector<std::string>{} : x.cast<std::vector<std::string>>();
}

}  // namespace

AuditSetup audit_setup(const py::object& given) {
    const py::object o = given.is_none() ? py::module_::import("arbiter._audit").attr("AuditOptions")() : given;
    face::AuditRequest request;
    request.rules = o.attr("rules").cast<std::string>();
    const py::object tc = o.attr("time_category");
    if (!tc.is_none()) request.time_category = tc.cast<std::string>();
    request.exact = o.attr("exact").cast<bool>();
    request.only = texts_of(o.attr("only"));
    request.select = texts_of(o.attr("select"));
    py::dict rule_options;  // the options of §1 by the table's names (rules and time category: the audit's own)
    for (const auto& spec : face::rule_option_table()) {
        const std::string name(spec.name);
        if (spec.group == face::OptionGroup::rule) rule_options[py::str(name)] = o.attr(name.c_str());
    }
    request.rule_input = rule_input_of(rule_options_of(rule_options, "auto"));
    return core_call([&] { return AuditSetup{request.options(), request.filter()}; }, false);
}

namespace {

py::dict counts_dict(const face::AuditCounts& c) {
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

face::AuditCounts counts_of(const py::dict& d) {
    face::AuditCounts c;
    c.games = d["games"].cast<std::uint64_t>();
    c.plies = d["plies"].cast<std::uint64_t>();
    c.games_with_errors = d["games_with_errors"].cast<std::uint64_t>();
    c.errors = d["errors"].cast<std::uint64_t>();
    c.games_with_findings = d["games_with_findings"].cast<std::uint64_t>();
    for (auto [k, v] : d["findings"].cast<py::dict>()) c.findings[k.cast<std::string>()] = v.cast<std::uint64_t>();
    return c;
}

// The audit of one piece: (text, games_read, counts). `text` holds one line per game read: its
// jsonl line without the leading {"game":N,"game_in_file":M (so it starts with a comma), or an
// empty line for a game `select` leaves out; nothing with `summary`. number_records puts the
// numbers in. `error`: (code, path, offset, message) of the read error that ended the input after it.
py::tuple audit_piece(py::bytes text, const std::string& file, std::uint64_t first_line, std::uint64_t first_offset,
                      bool ends_at_boundary, const py::object& audit_options, bool summary,
                      const std::optional<py::tuple>& error) {
    const AuditSetup setup = audit_setup(audit_options);
    face::AuditPiece piece;
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
    face::PieceAudit result;
    {
        py::gil_scoped_release release;
        result = face::audit_piece(piece, setup.options,
                                   summary ? face::AuditFormat::summary : face::AuditFormat::jsonl, &setup.filter);
    }
    return py::make_tuple(py::bytes(result.text), result.games_read, counts_dict(result.counts));
}

// The lines of audit_piece's text with their game numbers, from `game` and `game_in_file` on.
py::bytes number_records(py::bytes text, std::uint64_t game, std::uint64_t game_in_file) {
    const std::string_view view = text;
    std::string out;
    {
        py::gil_scoped_release release;
        face::number_records(view, game, game_in_file, out);
    }
    return py::bytes(out);
}

// The games of a piece as read for the audit: index (in the piece), tags, the start FEN (None when
// it could not be set up), the mainline in SAN and UCI up to the first error, the [%clk] clock after
// each of its plies (ms, None where not given), the result marker and whether every mainline move
// could be played.
py::list read_games(py::bytes text, bool ends_at_boundary) {
    const std::string_view view = text;
    struct Read {
        std::vector<std::pair<std::string, std::string>> tags;
        std::optional<std::string> fen;
        std::vector<std::string> san, uci;
        std::vector<std::optional<std::int64_t>> clk_ms;  // [%clk] after each ply, when given
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
                    r.clk_ms.push_back(p.clk_ms >= 0 ? std::optional<std::int64_t>(p.clk_ms) : std::nullopt);
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
        d["clk_ms"] = r.clk_ms;
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
    face::AuditCounts c = counts_of(a);
    c.add(counts_of(b));
    return counts_dict(c);
}

std::string summary_text(const py::dict& counts, double seconds, std::uint64_t bytes, bool json) {
    std::ostringstream out;
    face::print_summary(out, counts_of(counts), seconds, bytes, json);
    return out.str();
}

// ---- the distributed audit's tasks (audit_task.hpp, arbiter/distributed.py) ----

py::tuple plan_input(const std::string& path, std::uint64_t task_bytes, std::uint64_t frame_task_bytes) {
    face::InputPlan plan;
    {
        py::gil_scoped_release release;
        plan = face::plan_input(path, task_bytes, frame_task_bytes);
    }
    py::list spans;
    for (const auto& [begin, end] : plan.spans) spans.append(py::make_tuple(begin, end));
    return py::make_tuple(plan.compression, plan.size, enum_name(plan.kind), spans);
}

// A C file, closed at the end of its scope; errors raise OSError naming the file.
class CFile {
public:
    CFile(const std::string& path, const char* mode) : path_(path), f_(std::fopen(path.c_str(), mode)) {
        if (!f_) fail();
    }
    ~CFile() {
        if (f_) std::fclose(f_);
    }
    CFile(const CFile&) = delete;
    CFile& operator=(const CFile&) = delete;
    [[nodiscard]] std::FILE* get() const { return f_; }
    void close() {
        std::FILE* f = std::exchange(f_, nullptr);
        if (std::fclose(f) != 0) fail();
    }
    [[noreturn]] void fail() const {
        errno = errno ? errno : EIO;
        PyErr_SetFromErrnoWithFilename(PyExc_OSError, path_.c_str());
        throw py::error_already_set();
    }

private:
    std::string path_;
    std::FILE* f_;
};

// Audits one task (run_task), its records (relative positions, no game numbers) written to
// `out_path` (none with `summary`): (games, newlines, bytes, counts, error), `error` as
// audit_piece's with the line describe() gives (or None).
py::tuple audit_task(const std::string& path, const std::string& file, const std::string& kind, std::uint64_t begin,
                     std::uint64_t end, const std::optional<std::string>& out_path, const py::object& audit_options,
                     bool summary, std::size_t piece_bytes) {
    const AuditSetup setup = audit_setup(audit_options);
    const auto task_kind = parse_enum<face::TaskKind>(kind);
    if (!task_kind) raise_option("kind", "unknown task kind '" + kind + "'");
    const face::TaskSpec spec{path, file, *task_kind, begin, end};
    std::optional<CFile> out;
    if (out_path) out.emplace(*out_path, "wb");
    face::TaskResult r;
    bool write_failed = false;
    {
        py::gil_scoped_release release;
        r = face::run_task(
            spec, setup.options, &setup.filter, summary || !out,
            [&](std::string_view text) {
                if (!write_failed && std::fwrite(text.data(), 1, text.size(), out->get()) != text.size())
                    write_failed = true;
            },
            piece_bytes);
    }
    if (write_failed) out->fail();
    if (out) out->close();
    py::object error = py::none();
    if (r.error)
        error = py::make_tuple(code_name(r.error->code), r.error->path, r.error->offset, r.error->message,
                               r.error->describe());
    return py::make_tuple(r.games, r.newlines, r.bytes, counts_dict(r.counts), error);
}

// Copies a task's records from `src` to `dst` with their game numbers, lines and offsets
// (number_records), a few MB at a time; returns the bytes written.
std::uint64_t number_file(const std::string& src, const std::string& dst, std::uint64_t game,
                          std::uint64_t game_in_file, std::uint64_t line_base, std::uint64_t offset_base) {
    CFile in(src, "rb"), out(dst, "wb");
    std::uint64_t written = 0;
    bool read_failed = false, write_failed = false;
    {
        py::gil_scoped_release release;
        // Read straight behind the lines kept from the last read (no copy, no zeroing); each line
        // is one game.
        constexpr std::size_t chunk = std::size_t{4} << 20;
        std::size_t capacity = 2 * chunk, kept = 0;
        auto buf = std::make_unique_for_overwrite<char[]>(capacity);
        std::string numbered;
        for (;;) {
            if (capacity - kept < chunk) {  // a line longer than a chunk: room for it
                auto bigger = std::make_unique_for_overwrite<char[]>(2 * capacity);
                std::memcpy(bigger.get(), buf.get(), kept);
                buf = std::move(bigger);
                capacity *= 2;
            }
            const std::size_t n = std::fread(buf.get() + kept, 1, chunk, in.get());
            if (n == 0 && std::ferror(in.get())) read_failed = true;
            const std::size_t size = kept + n;
            // Whole lines now (all of them at the end).
            const std::string_view text(buf.get(), size);
            const std::size_t nl = text.rfind('\n');
            const std::size_t cut = n == 0 ? size : nl == std::string_view::npos ? 0 : nl + 1;
            if (cut > 0) {
                numbered.clear();
                const std::uint64_t games =
                    face::number_records(text.substr(0, cut), game, game_in_file, numbered, line_base, offset_base);
                game += games;
                game_in_file += games;
                if (std::fwrite(numbered.data(), 1, numbered.size(), out.get()) != numbered.size()) {
                    write_failed = true;
                    break;
                }
                written += numbered.size();
                std::memmove(buf.get(), buf.get() + cut, size - cut);
            }
            kept = size - cut;
            if (n == 0 || read_failed) break;
        }
    }
    if (read_failed) in.fail();
    if (write_failed) out.fail();
    out.close();
    return written;
}

}  // namespace

void bind_audit(py::module_& m) {
    m.def("plan_input", &plan_input, py::arg("path"), py::arg("task_bytes"), py::arg("frame_task_bytes") = 0,
          "The tasks of one input: (compression, size, kind, [(begin, end), ...]), reading only headers.");
    m.def("audit_task", &audit_task, py::arg("path"), py::arg("file"), py::arg("kind"), py::arg("begin"),
          py::arg("end"), py::arg("out_path"), py::arg("options") = py::none(), py::arg("summary") = false,
          py::arg("piece_bytes") = std::size_t{4} << 20,
          "Audits one task (options: an arbiter._audit.AuditOptions): (games, newlines, bytes, counts, error).");
    m.def("number_file", &number_file, py::arg("src"), py::arg("dst"), py::arg("game"), py::arg("game_in_file"),
          py::arg("line_base") = 0, py::arg("offset_base") = 0);
    bind_pieces(m);
    bind_pipeline(m);
    m.def("is_game_boundary",
          [](py::bytes text, std::size_t offset) { return pgn::is_game_boundary(std::string_view(text), offset); });
    m.def("audit_piece", &audit_piece, py::arg("text"), py::arg("file"), py::arg("first_line"), py::arg("first_offset"),
          py::arg("ends_at_boundary"), py::arg("options"), py::arg("summary") = false, py::arg("error") = py::none(),
          "Audits one piece (options: an arbiter._audit.AuditOptions): (text, games_read, counts).");
    m.def("number_records", &number_records, py::arg("text"), py::arg("game"), py::arg("game_in_file"));
    m.def("read_games", &read_games, py::arg("text"), py::arg("ends_at_boundary") = false);
    m.def("add_counts", &add_counts);
    m.def("reuse_memory", &reuse_memory,
          "Keeps buffers of a few MB in the heap (mallopt) rather than a fresh mapping each: process-wide.");
    m.def("summary_text", &summary_text, py::arg("counts"), py::arg("seconds"), py::arg("bytes"),
          py::arg("json") = false);
}

}  // namespace arbiter::python
