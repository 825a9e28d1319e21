// dead_batch.hpp — `dead --batch`: one question a line ("FEN [white|black|both] [ID…]") answered
// as one JSON object a line (dead_json.hpp's members, with its "line" number and "id"), a line
// that fails answered by {"line","id"?,"error":{"code","message"}} while the batch carries on.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

#include "arbiter/arbiter.hpp"
#include "arbiter/input.hpp"

namespace arbiter::face {

/// The longest batch line read (a FEN with a side is under 120 bytes; the rest is room for an id).
inline constexpr std::size_t dead_batch_max_line_bytes = 4096;

/// Answers every line of `src` on `out`, in input order: blank lines and lines starting with '#'
/// are skipped; `side` ("white", "black" or "both") is asked where a line names none; `timing`
/// adds "microseconds". Throws InputError when the input cannot be read, and at the end when
/// some line failed (how many, and the first), after every line is answered.
void dead_batch(const HelpmateAnalyzer& analyzer, ByteSource& src, const std::string& side, bool timing,
                std::ostream& out);

}  // namespace arbiter::face
