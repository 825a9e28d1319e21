// session_impl.hpp — private to src/session*.cpp: the small helpers every part of the session's
// event handling shares (refusals, results, the words of an automatic ending, minutes in words).
#pragma once

#include <cstdint>
#include <string>

#include "arbiter/session.hpp"

namespace arbiter::session_detail {

using Code = EventError::Code;

inline EventError refuse(Code code, std::string message) { return EventError{code, std::move(message)}; }

inline std::string win_for(Color c) { return c == Color::white ? "1-0" : "0-1"; }

/// The scoresheet's words for an ending the rules make without a claim (checkmate, stalemate, …).
std::string automatic_reason(const Termination& t, const Position& pos);

/// "3 minutes", or the clock's form when not whole minutes.
std::string ms_text(std::int64_t ms);

}  // namespace arbiter::session_detail
