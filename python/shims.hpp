// shims.hpp — what the C++ files of the Python module `arbiter` share: raising the package's
// exceptions (arbiter/_errors.py: code, field, offset; the face core's refusals with their own),
// calling the core without the GIL, turning the core's JSON into dicts, and an audit's options.
#pragma once

#include <pybind11/pybind11.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "arbiter/arbiter.hpp"
#include "arbiter/audit.hpp"
#include "arbiter/helpmate.hpp"
#include "arbiter/input.hpp"
#include "audit/audit_output.hpp"
#include "errors.hpp"
#include "json/json.hpp"
#include "requests/game_input.hpp"

namespace arbiter::python {

namespace py = pybind11;

/// An exception of the package (arbiter/_errors.py), made and not raised.
inline py::object exception(const char* type, const std::string& message, const std::string& code,
                            std::optional<std::string> field, std::optional<std::uint64_t> offset) {
    py::object cls = py::module_::import("arbiter._errors").attr(type);
    return cls(message, code, field ? py::cast(*field) : py::none(), offset ? py::cast(*offset) : py::none());
}

[[noreturn]] inline void raise(const py::object& exc) {
    PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exc.ptr())), exc.ptr());
    throw py::error_already_set();
}

/// A refusal of the face core as the package's exception, with the core's code, field and offset;
/// the class is the code's (face::python_class_of, from the one list of codes, error_codes.hpp):
/// FenError for a FEN, MoveError for a move (NoMoveError for no_move), ClaimError for the kind
/// of a claim, ReadError for input that cannot be read, OptionError for any other.
inline py::object core_exception(const face::InputError& e) {
    return exception(std::string(face::python_class_of(e)).c_str(), face::message_for(e, face::Caller::python),
                     std::string(e.code()), e.field().empty() ? std::nullopt : std::optional<std::string>(e.field()),
                     e.offset());
}
[[noreturn]] inline void raise_core(const face::InputError& e) { raise(core_exception(e)); }

/// The ReadError of an input that could not be read to its end: its describe() line, code, path
/// and offset.
inline py::object read_error_object(const InputError& e) {
    return exception("ReadError", e.describe(), code_name(e.code), e.path, e.offset);
}

/// Ctrl-C during a call without the GIL: the library's searches poll this (SearchInterrupt)
/// every few thousand positions; every 50 ms at most it takes the GIL and lets Python run its
/// signal handlers. A KeyboardInterrupt (or any exception a handler raises) stays set on this
/// thread, the searches stop, and the call raises it when it returns.
struct SignalPoll {
    std::chrono::steady_clock::time_point next{};
    static bool poll(void* context) {
        auto& self = *static_cast<SignalPoll*>(context);
        const auto now = std::chrono::steady_clock::now();
        if (now < self.next) return false;
        self.next = now + std::chrono::milliseconds(50);
        py::gil_scoped_acquire gil;
        return PyErr_CheckSignals() != 0;
    }
};

/// Runs `f` (a call into the face core) with the GIL released when `release`, and raises the
/// core's refusal as raise_core does once the GIL is back; Ctrl-C stops a long analysis in it
/// within about 100 ms (SignalPoll) and raises KeyboardInterrupt.
template <class F>
auto core_call(F&& f, bool release = true) -> decltype(f()) {
    std::optional<decltype(f())> result;
    std::optional<face::InputError> error;
    bool interrupted = false;
    {
        std::optional<py::gil_scoped_release> unlocked;
        if (release) unlocked.emplace();
        SignalPoll signals;
        const SearchInterrupt guard(release ? &SignalPoll::poll : nullptr, &signals);
        try {
            result.emplace(f());
        } catch (const face::InputError& e) {
            error.emplace(e);
        }
        interrupted = guard.fired();
    }
    if (interrupted) throw py::error_already_set();
    if (error) raise_core(*error);
    return std::move(*result);
}

[[noreturn]] inline void raise_option(const std::string& field, const std::string& message,
                                      face::Code code = face::Code::bad_value) {
    raise_core(face::InputError(code, message, field));
}

[[noreturn]] inline void raise_input(const InputError& e) {
    raise_core(face::InputError(e.code, e.describe(), e.path, e.offset));
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

/// A Python request as the face core's JSON: None, bool, int, float, str, lists and tuples, dicts
/// with str keys. TypeError naming `what` for anything else (an int past 64 bits: OverflowError,
/// as Python's own conversions raise it).
inline face::Json from_python(const py::handle& x, const std::string& what) {
    if (x.is_none()) return nullptr;
    if (py::isinstance<py::bool_>(x)) return x.cast<bool>();
    if (py::isinstance<py::int_>(x)) {
        if (x.cast<py::int_>() < py::int_(0)) return x.cast<std::int64_t>();
        return x.cast<std::uint64_t>();
    }
    if (py::isinstance<py::float_>(x)) return x.cast<double>();
    if (py::isinstance<py::str>(x)) return x.cast<std::string>();
    if (py::isinstance<py::list>(x) || py::isinstance<py::tuple>(x)) {
        face::Json out = face::Json::array();
        for (const py::handle item : x) out.push_back(from_python(item, what));
        return out;
    }
    if (py::isinstance<py::dict>(x)) {
        face::Json out = face::Json::object();
        for (const auto& [k, v] : x.cast<py::dict>()) {
            if (!py::isinstance<py::str>(k))
                throw py::type_error(what + ": a key is a " +
                                     std::string(py::str(py::type::handle_of(k).attr("__name__"))) +
                                     ", expected a str");
            out[k.cast<std::string>()] = from_python(v, what);
        }
        return out;
    }
    throw py::type_error(what + ": a " + std::string(py::str(py::type::handle_of(x).attr("__name__"))) +
                         " is not a JSON value (None, bool, int, float, str, list, dict)");
}

/// An audit's options and filter, from the options object of the Python layer (arbiter._audit's
/// AuditOptions: rules, time_category, only, select, exact and the rule options of RULES.md §1;
/// None: its defaults) read into the face core's AuditRequest and RuleInput once, as `arbiter
/// audit` reads its flags; their refusals raised as OptionError with the core's code and field.
struct AuditSetup {
    audit::AuditOptions options;
    face::AuditFilter filter;
};
AuditSetup audit_setup(const py::object& given);

/// The audit's shims (audit_shims.cpp): audit_piece, read_games, …, the pieces and the pipeline.
void bind_audit(py::module_& m);
/// Reading inputs in pieces (piece_shims.cpp): Piece, Cutter, PieceReader.
void bind_pieces(py::module_& m);
/// The audit of whole inputs by the face core's pipeline (pipeline_shims.cpp): AuditRun.
void bind_pipeline(py::module_& m);

/// The rule options of a call by name (option_shims.cpp): each checked against the face core's
/// table (TypeError naming an unknown name or a value of the wrong type), every one present in the
/// answer (None, () or False when not given; `rules` then `rules_default`).
py::dict rule_options_of(const py::dict& given, const std::string& rules_default);
/// The RuleInput of options as rule_options_of gives them.
face::RuleInput rule_input_of(const py::dict& options);
/// arbiter._arbiter.RULE_OPTIONS (the table: name, flag, kind, group, help, default, values) and
/// rule_options().
void bind_rule_options(py::module_& m);

}  // namespace arbiter::python
