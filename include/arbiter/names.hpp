// names.hpp — one name table per enum: the stable names of an enum's values written once, in
// the order of the values, with one generic pair to write and to read them (enum_name,
// parse_enum). Codecs, JSON, CLI help texts and summaries take their names and their lists from
// these tables, so adding a value means adding one name here and nowhere else.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace arbiter {

/// Specialised next to each enum whose values are 0, 1, …, N − 1:
///     template <> struct EnumNames<E> {
///         static constexpr auto names = std::to_array<const char*>({"a", "b", …});
///     };
/// followed by `static_assert(enum_count<E> == std::size_t(E::last) + 1);` so that a value
/// added without a name does not compile.
template <class E>
struct EnumNames;

/// How many values E has.
template <class E>
inline constexpr std::size_t enum_count = EnumNames<E>::names.size();

/// The stable name of a value; "?" for a value outside the table.
template <class E>
constexpr const char* enum_name(E e) noexcept {
    const auto i = static_cast<std::size_t>(e);
    return i < enum_count<E> ? EnumNames<E>::names[i] : "?";
}

/// The value with that name; nullopt for an unknown name.
template <class E>
constexpr std::optional<E> parse_enum(std::string_view name) noexcept {
    for (std::size_t i = 0; i < enum_count<E>; ++i)
        if (name == EnumNames<E>::names[i]) return static_cast<E>(i);
    return std::nullopt;
}

/// Every value of E, in order.
template <class E>
constexpr std::array<E, enum_count<E>> enum_values() noexcept {
    std::array<E, enum_count<E>> out{};
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<E>(i);
    return out;
}

/// Whether row i of a table indexed by an enum has `.id` i: tables read as table[id] check their
/// order with `static_assert(rows_follow_ids(table))`.
template <class Table>
constexpr bool rows_follow_ids(const Table& table) noexcept {
    for (std::size_t i = 0; i < table.size(); ++i)
        if (static_cast<std::size_t>(table[i].id) != i) return false;
    return true;
}

/// The names joined for a help text: "a, b or c" (last_separator " or "), "a, b, c" (", "); the
/// name of `marked` is followed by `mark`, e.g. "a (default), b or c".
template <class E>
std::string enum_name_list(std::string_view last_separator = " or ", std::optional<E> marked = std::nullopt,
                           std::string_view mark = " (default)") {
    std::string out;
    for (std::size_t i = 0; i < enum_count<E>; ++i) {
        if (i > 0) out += i + 1 == enum_count<E> ? last_separator : std::string_view(", ");
        out += EnumNames<E>::names[i];
        if (marked && static_cast<std::size_t>(*marked) == i) out += mark;
    }
    return out;
}

}  // namespace arbiter
