// expected.hpp — a small value-or-error type (the subset of C++23 std::expected that arbiter
// needs), so that every parser and factory in the library can return errors as values instead
// of throwing across the public API.
#pragma once

#include <cassert>
#include <type_traits>
#include <utility>
#include <variant>

namespace arbiter {

/// Wraps an error value so that it can be returned where an Expected<T, E> is expected.
template <class E>
struct Unexpected {
    // A constructor (not aggregate initialisation) so that `Unexpected(e)` also compiles with
    // compilers without C++20 parenthesised aggregate initialisation (clang 14, for the fuzzers).
    constexpr Unexpected(E e) : error(std::move(e)) {}
    E error;
};

template <class E>
Unexpected(E) -> Unexpected<E>;

/// Either a T (success) or an E (failure). Accessing the wrong alternative is a precondition
/// violation (checked by assert in debug builds).
template <class T, class E>
class [[nodiscard]] Expected {
public:
    Expected(const T& v) : data_(std::in_place_index<0>, v) {}
    Expected(T&& v) : data_(std::in_place_index<0>, std::move(v)) {}
    template <class G>
    Expected(Unexpected<G> u) : data_(std::in_place_index<1>, std::move(u.error)) {}

    [[nodiscard]] bool has_value() const noexcept { return data_.index() == 0; }
    explicit operator bool() const noexcept { return has_value(); }

    T& value() & {
        assert(has_value());
        return *std::get_if<0>(&data_);
    }
    const T& value() const& {
        assert(has_value());
        return *std::get_if<0>(&data_);
    }
    T&& value() && {
        assert(has_value());
        return std::move(*std::get_if<0>(&data_));
    }
    E& error() & {
        assert(!has_value());
        return *std::get_if<1>(&data_);
    }
    const E& error() const& {
        assert(!has_value());
        return *std::get_if<1>(&data_);
    }

    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    template <class U>
    T value_or(U&& fallback) const& {
        return has_value() ? value() : static_cast<T>(std::forward<U>(fallback));
    }

private:
    std::variant<T, E> data_;
};

}  // namespace arbiter
