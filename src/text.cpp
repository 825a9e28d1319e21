// text.cpp — text in messages (text.hpp).
#include "arbiter/text.hpp"

#include <cstdint>
#include <cstring>

namespace arbiter {

std::size_t utf8_length_at(std::string_view s, std::size_t i) noexcept {
    const auto b = [&](std::size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
    const unsigned c = b(0);
    if (c < 0x80) return 1;
    const std::size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
    if (n == 0 || c > 0xF4) return 0;
    for (std::size_t k = 1; k < n; ++k)
        if ((b(k) & 0xC0) != 0x80) return 0;
    // The second byte's range rules out overlong forms, surrogates and code points past U+10FFFF.
    const unsigned d = b(1);
    if ((c == 0xE0 && d < 0xA0) || (c == 0xED && d > 0x9F) || (c == 0xF0 && d < 0x90) || (c == 0xF4 && d > 0x8F))
        return 0;
    return n;
}

bool is_utf8(std::string_view text) noexcept {
    for (std::size_t i = 0; i < text.size();) {
        if (i + 8 <= text.size()) {  // eight ASCII bytes at a time (most text is ASCII)
            std::uint64_t w;
            std::memcpy(&w, text.data() + i, 8);
            if (!(w & 0x8080808080808080ULL)) {
                i += 8;
                continue;
            }
        }
        const std::size_t n = utf8_length_at(text, i);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    static constexpr char hex[] = "0123456789abcdef";
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        const std::size_t n = utf8_length_at(text, i);
        if (n == 0 || c < 0x20 || c == 0x7F) {
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
            ++i;
        } else {
            out.append(text.substr(i, n));
            i += n;
        }
    }
    return out;
}

std::string excerpt(std::string_view text, std::size_t max) {
    // Short enough (the marks of a cut would be longer than what they leave out): whole.
    if (text.size() <= max + 16) return printable(text);
    std::size_t end = 0;
    while (end < max) {
        const std::size_t n = utf8_length_at(text, end);
        end += n == 0 ? 1 : n;
    }
    return printable(text.substr(0, end)) + "… (" + std::to_string(text.size()) + " bytes)";
}

}  // namespace arbiter
