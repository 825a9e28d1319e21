// option_shims.cpp — the rule options as Python gives them: keyword arguments by the names of the
// face core's one table (option_table.hpp), their types checked here (TypeError naming the
// argument, never pybind11's cast message), and the tables themselves for the package
// (arbiter._arbiter.RULE_OPTIONS: the signatures, the distributed audit's flags, AuditOptions;
// REQUEST_OPTIONS: the operations' own options).
#include <pybind11/stl.h>

#include "requests/option_table.hpp"
#include "shims.hpp"

namespace arbiter::python {

namespace {

std::string type_name(const py::handle& v) { return py::str(py::type::handle_of(v).attr("__name__")); }

[[noreturn]] void wrong_type(const face::RuleOptionSpec& spec, const std::string& expected, const py::handle& v) {
    throw py::type_error(std::string(spec.name) + ": expected " + expected + ", got " + type_name(v));
}

std::string expected_of(const face::RuleOptionSpec& spec) {
    switch (spec.kind) {
        case face::OptionKind::choice:
            return "a str (" + (spec.words ? spec.words() : std::string("see the docs")) + ")" +
                   (spec.name == "rules" ? "" : " or None");
        case face::OptionKind::boolean: return "a bool or None";
        case face::OptionKind::list: return "a list of str such as ['KRBvKR=75']";
        case face::OptionKind::flag: return "a bool";
    }
    return {};
}

// The value of one option, checked; None stays None (the core's default).
py::object checked(const face::RuleOptionSpec& spec, const py::handle& v) {
    if (v.is_none()) {
        if (spec.kind == face::OptionKind::list) return py::tuple();
        if (spec.kind == face::OptionKind::flag) return py::bool_(false);
        if (spec.name != "rules") return py::none();
    }
    switch (spec.kind) {
        case face::OptionKind::choice:
            if (!py::isinstance<py::str>(v)) wrong_type(spec, expected_of(spec), v);
            return py::reinterpret_borrow<py::object>(v);
        case face::OptionKind::boolean:
        case face::OptionKind::flag:
            if (!py::isinstance<py::bool_>(v)) wrong_type(spec, expected_of(spec), v);
            return py::reinterpret_borrow<py::object>(v);
        case face::OptionKind::list: {
            if (py::isinstance<py::str>(v) || py::isinstance<py::bytes>(v))
                throw py::type_error(std::string(spec.name) + ": expected " + expected_of(spec) + ", got a " +
                                     type_name(v) + " (put it in a list)");
            if (!py::isinstance<py::iterable>(v)) wrong_type(spec, expected_of(spec), v);
            py::list out;
            std::size_t k = 0;
            for (const py::handle item : v) {
                ++k;
                if (!py::isinstance<py::str>(item))
                    throw py::type_error(std::string(spec.name) + ": item " + std::to_string(k) + " is a " +
                                         type_name(item) + ", expected a str such as 'KRBvKR=75'");
                out.append(item);
            }
            return py::tuple(out);
        }
    }
    return py::none();
}

std::string names() {
    std::string out;
    for (const auto& spec : face::rule_option_table())
        if (spec.name != "rules") out += std::string(out.empty() ? "" : ", ") + std::string(spec.name);
    return out;
}

}  // namespace

py::dict rule_options_of(const py::dict& given, const std::string& rules_default) {
    for (const auto& [key, value] : given) {
        (void)value;
        if (!py::isinstance<py::str>(key) || !face::find_rule_option(key.cast<std::string>()))
            throw py::type_error("unknown option " + py::repr(key).cast<std::string>() + " (the rule options: rules, " +
                                 names() + ")");
    }
    py::dict out;
    for (const auto& spec : face::rule_option_table()) {
        const py::str key(std::string(spec.name));
        py::object v = given.contains(key) ? py::reinterpret_borrow<py::object>(given[key]) : py::none();
        if (spec.name == "rules" && v.is_none()) v = py::str(rules_default);
        out[key] = checked(spec, v);
    }
    return out;
}

face::RuleInput rule_input_of(const py::dict& options) {
    face::RuleInput in;
    for (const auto& spec : face::rule_option_table()) {
        const py::str key(std::string(spec.name));
        if (!options.contains(key)) continue;
        const py::object v = options[key];
        if (v.is_none()) continue;
        switch (spec.kind) {
            case face::OptionKind::choice: in.*spec.text = v.cast<std::string>(); break;
            case face::OptionKind::boolean: in.*spec.typed = v.cast<bool>(); break;
            case face::OptionKind::list: in.*spec.texts = v.cast<std::vector<std::string>>(); break;
            case face::OptionKind::flag: in.*spec.on = v.cast<bool>(); break;
        }
    }
    return in;
}

void bind_rule_options(py::module_& m) {
    py::list table;
    for (const auto& spec : face::rule_option_table()) {
        py::dict d;
        d["name"] = std::string(spec.name);
        d["flag"] = std::string(spec.flag);
        d["kind"] = spec.kind == face::OptionKind::choice    ? "choice"
                    : spec.kind == face::OptionKind::boolean ? "boolean"
                    : spec.kind == face::OptionKind::list    ? "list"
                                                             : "flag";
        d["group"] = spec.group == face::OptionGroup::rule_set ? "rule_set" : "rule";
        d["help"] = face::option_help(spec);
        d["default"] = std::string(spec.default_text);
        d["values"] = spec.words ? py::cast(spec.words()) : py::none();
        table.append(d);
    }
    m.attr("RULE_OPTIONS") = py::tuple(table);
    // The operations' own options (dead's side and limit, perft's depth, notation…), from the
    // same header: the keyword arguments of dead(), perft(), legal_moves() are tested against it.
    py::list requests;
    for (const auto& spec : face::request_option_table()) {
        py::dict d;
        d["name"] = std::string(spec.name);
        d["flag"] = std::string(spec.flag);
        d["kind"] = spec.kind == face::RequestOptionKind::choice   ? "choice"
                    : spec.kind == face::RequestOptionKind::number ? "number"
                                                                   : "flag";
        d["operations"] = std::string(spec.operations);
        d["help"] = std::string(spec.help);
        d["default"] = std::string(spec.default_text);
        py::list choices;
        for (std::string_view c : spec.choices) choices.append(std::string(c));
        d["choices"] = py::tuple(choices);
        d["min"] = spec.min;
        d["max"] = spec.max;
        requests.append(d);
    }
    m.attr("REQUEST_OPTIONS") = py::tuple(requests);
    m.def(
        "rule_options",
        [](const py::dict& given, const std::string& rules_default) { return rule_options_of(given, rules_default); },
        py::arg("given"), py::arg("rules_default"),
        "rule_options(given, rules_default)\n--\n\nThe rule options by name, every one present (None, () or False "
        "when not given; `rules` rules_default), each value's type checked: TypeError naming an unknown option or "
        "one of the wrong type.");
}

}  // namespace arbiter::python
