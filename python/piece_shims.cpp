// piece_shims.cpp — the Python module's reading of inputs in pieces of whole games, for the
// audit in parallel and on a cluster (arbiter/_audit.py, arbiter/distributed.py): Piece, Cutter
// (a stream fed from Python) and PieceReader (a file or bytes read and cut without the GIL).
// Where to cut is the face core's (piece_cut.hpp), as for `arbiter audit`.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arbiter/input.hpp"
#include "audit/piece_cut.hpp"
#include "shims.hpp"

namespace arbiter::python {

namespace {

// A piece of one input: whole games, cut just before a game boundary or at the end.
struct InputPiece {
    py::bytes text;
    std::string file;
    std::uint64_t first_line = 1, first_offset = 0;
    bool ends_at_boundary = false;
    std::optional<py::tuple> error;  // the read error that ended the input after it (audit_piece's `error`)
};

py::tuple error_tuple(const InputError& e) { return py::make_tuple(code_name(e.code), e.path, e.offset, e.message); }

using face::CutRule;

// Where the next piece starts in its file.
struct FilePlace {
    std::string file;
    face::TextPlace at;
    // Fills `p`'s place and moves past its text.
    void place(InputPiece& p, std::string_view text, bool boundary) {
        p.file = file;
        p.first_line = at.line;
        p.first_offset = at.offset;
        p.ends_at_boundary = boundary;
        at.advance(text);
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
    py::object error() const { return error_ ? read_error_object(*error_) : py::none(); }

private:
    CutRule rule_;
    FilePlace at_;
    std::string data_;
    std::unique_ptr<ByteSource> src_;
    std::string carry_;
    std::optional<InputError> error_;
    bool eof_ = false, done_ = false;
};

}  // namespace

void bind_pieces(py::module_& m) {
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
}

}  // namespace arbiter::python
