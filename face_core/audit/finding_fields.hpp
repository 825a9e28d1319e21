// finding_fields.hpp — how a finding's fields are written, the same in every output of the audit
// (the JSONL and CSV records, the --pgn-out comments): its side as a word, its numeric fields in
// the order of the JSONL keys and the CSV columns.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <utility>

#include "arbiter/audit.hpp"

namespace arbiter::face {

inline const char* side_or_empty(const std::optional<Color>& c) {
    return c ? (*c == Color::white ? "white" : "black") : "";
}

inline std::array<std::pair<const char*, std::optional<std::uint32_t>>, 3> number_fields(const audit::Finding& f) {
    return {{{"chances", f.chances}, {"unused", f.unused}, {"first_ply", f.first_ply}}};
}

}  // namespace arbiter::face
