// piece_cut.cpp — cutting inputs into pieces of whole games (piece_cut.hpp).
#include "audit/piece_cut.hpp"

#include <algorithm>
#include <string>

#include "audit/audit_output.hpp"

namespace arbiter::face {

CutRule::CutRule(std::uint64_t games, std::uint64_t bytes) : games_(games), bytes_(bytes) {
    if (!games_ && !bytes_) games_ = 1;
}

std::size_t CutRule::cut(std::string_view text) {
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

void CutRule::cut_made() {
    finder_.reset();
    last_ = 0;
    seen_ = 0;
}

void TextPlace::advance(std::string_view text) {
    line += count_newlines(text);
    offset += text.size();
}

}  // namespace arbiter::face
