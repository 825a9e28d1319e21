// message.cpp — messages as data and their text in a language: the catalogs compiled in
// (catalogs.hpp, generated from po/*.po at build time), plural forms, the language's digits,
// figurines and Unicode isolates.
#include "arbiter/message.hpp"

#include <algorithm>
#include <cstring>
#include <map>

#include "catalogs.hpp"

namespace arbiter {

namespace {

MessageArg arg_of(std::string name, MessageArg::Kind kind) {
    MessageArg a;
    a.name = std::move(name);
    a.kind = kind;
    return a;
}

}  // namespace

Message& Message::number(std::string name, std::int64_t value) {
    args.push_back(arg_of(std::move(name), MessageArg::Kind::number));
    args.back().number = value;
    return *this;
}

Message& Message::move(std::string name, std::string value) {
    args.push_back(arg_of(std::move(name), MessageArg::Kind::move));
    args.back().text = std::move(value);
    return *this;
}

Message& Message::text(std::string name, std::string value) {
    args.push_back(arg_of(std::move(name), MessageArg::Kind::text));
    args.back().text = std::move(value);
    return *this;
}

Message& Message::article(std::string name, std::string value) {
    args.push_back(arg_of(std::move(name), MessageArg::Kind::article));
    args.back().text = std::move(value);
    return *this;
}

Message& Message::message(std::string name, Message value) {
    args.push_back(arg_of(std::move(name), MessageArg::Kind::message));
    args.back().parts.push_back(std::move(value));
    return *this;
}

Message& Message::list(std::string name, std::vector<Message> values) {
    args.push_back(arg_of(std::move(name), MessageArg::Kind::list));
    args.back().parts = std::move(values);
    return *this;
}

const MessageArg* Message::arg(std::string_view name) const noexcept {
    for (const auto& a : args)
        if (a.name == name) return &a;
    return nullptr;
}

const MessageDef* find_message(std::string_view id) noexcept {
    static const std::map<std::string_view, const MessageDef*, std::less<>> by_id = [] {
        std::map<std::string_view, const MessageDef*, std::less<>> m;
        for (const auto& d : message_table()) m.emplace(d.id, &d);
        return m;
    }();
    const auto it = by_id.find(id);
    return it == by_id.end() ? nullptr : it->second;
}

namespace {

constexpr Language english_language{"en", "English", false, ""};

// Each compiled catalog's language, and its entries read once from the MO file (GNU gettext's
// binary format: a header, then two tables of (length, offset) pairs, the keys and their
// translations). Every key has a context (the message id) before the byte 4.
struct LoadedCatalog {
    Language language;
    const detail::CompiledCatalog* compiled;
    std::map<std::string_view, std::string_view, std::less<>> entries;  // id → msgstr (forms NUL-separated)
};

std::uint32_t word_at(const detail::CompiledCatalog& c, std::size_t at, bool swap) {
    if (at + 4 > c.size) return 0;
    std::uint32_t w;
    std::memcpy(&w, c.mo + at, 4);
    return swap ? __builtin_bswap32(w) : w;
}

LoadedCatalog load(const detail::CompiledCatalog& c) {
    LoadedCatalog out{{c.code, c.name, c.right_to_left, c.digits}, &c, {}};
    const bool swap = word_at(c, 0, false) != 0x950412deU;
    const std::uint32_t n = word_at(c, 8, swap), keys = word_at(c, 12, swap), values = word_at(c, 16, swap);
    const auto text_at = [&](std::uint32_t table, std::uint32_t i) -> std::string_view {
        const std::uint32_t len = word_at(c, table + 8 * i, swap), off = word_at(c, table + 8 * i + 4, swap);
        if (std::size_t{off} + len > c.size) return {};
        return {reinterpret_cast<const char*>(c.mo) + off, len};
    };
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::string_view key = text_at(keys, i);
        const std::size_t eot = key.find('\x04');
        if (eot == std::string_view::npos) continue;  // the header, or an entry without an id
        out.entries.emplace(key.substr(0, eot), text_at(values, i));
    }
    return out;
}

const std::vector<LoadedCatalog>& catalogs() {
    static const std::vector<LoadedCatalog> all = [] {
        std::vector<LoadedCatalog> v;
        for (const auto& c : detail::compiled_catalogs()) v.push_back(load(c));
        return v;
    }();
    return all;
}

const LoadedCatalog* catalog_of(const Language& lang) noexcept {
    for (const auto& c : catalogs())
        if (c.language.code == lang.code) return &c;
    return nullptr;
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

std::span<const Language> languages() {
    static const std::vector<Language> all = [] {
        std::vector<Language> v{english_language};
        for (const auto& c : catalogs()) v.push_back(c.language);
        return v;
    }();
    return all;
}

const Language& english() noexcept { return languages().front(); }

std::span<const std::string_view> language_codes() {
    static const std::vector<std::string_view> codes = [] {
        std::vector<std::string_view> v;
        for (const auto& l : languages()) v.push_back(l.code);
        return v;
    }();
    return codes;
}

const Language* find_language(std::string_view tag) noexcept {
    if (tag == "C" || tag == "POSIX" || tag.starts_with("C.")) return &english();
    // The language part: up to '-', '_', '.' or '@' ("fa-IR", "ar_EG.UTF-8", "sr@latin").
    const std::size_t end = tag.find_first_of("-_.@");
    const std::string_view code = tag.substr(0, end);
    if (code.empty()) return nullptr;
    for (const auto& l : languages()) {
        if (l.code.size() != code.size()) continue;
        if (std::equal(code.begin(), code.end(), l.code.begin(), [](char a, char b) { return lower(a) == b; }))
            return &l;
    }
    return nullptr;
}

std::optional<std::string_view> catalog_entry(const Language& lang, std::string_view id) noexcept {
    const LoadedCatalog* c = catalog_of(lang);
    if (!c) return std::nullopt;
    const auto it = c->entries.find(id);
    if (it == c->entries.end() || it->second.empty()) return std::nullopt;
    return it->second;
}

unsigned long plural_form(const Language& lang, std::uint64_t n) noexcept {
    const LoadedCatalog* c = catalog_of(lang);
    if (!c) return n != 1;
    return c->compiled->plural(static_cast<unsigned long>(n));
}

unsigned plural_count(const Language& lang) noexcept {
    const LoadedCatalog* c = catalog_of(lang);
    return c ? c->compiled->plurals : 2;
}

std::string localize_digits(std::string_view text, const Language& lang) {
    if (lang.digits.empty()) return std::string(text);
    // The ten digits, each one UTF-8 character of equal length.
    const std::size_t width = lang.digits.size() / 10;
    std::string out;
    out.reserve(text.size() * width);
    for (char ch : text) {
        if (ch >= '0' && ch <= '9')
            out += lang.digits.substr(static_cast<std::size_t>(ch - '0') * width, width);
        else
            out += ch;
    }
    return out;
}

std::string figurine_text(std::string_view san) {
    // A piece letter is a figure where SAN puts a piece: at the start of the move (after a move
    // number's dots) and after '=' of a promotion. Castling (O-O) has none.
    static constexpr std::string_view letters = "KQRBN";
    static constexpr std::string_view figures[] = {"♔", "♕", "♖", "♗", "♘"};
    std::string out;
    bool at_piece = true;
    for (std::size_t i = 0; i < san.size(); ++i) {
        const char ch = san[i];
        const std::size_t k = letters.find(ch);
        if (at_piece && k != std::string_view::npos) {
            out += figures[k];
        } else {
            out += ch;
        }
        at_piece = ch == '=' || ch == '.' || ch == ' ' || (ch >= '0' && ch <= '9' && at_piece);
    }
    return out;
}

namespace {

constexpr std::string_view lri = "\u2066", pdi = "\u2069";

void append(std::string& out, const Message& m, const TextStyle& style);

std::string joined(const std::vector<Message>& parts, std::size_t from, const TextStyle& style) {
    const std::size_t left = parts.size() - from;
    if (left == 0) return {};
    std::string first;
    append(first, parts[from], style);
    if (left == 1) return first;
    Message join(left == 2 ? "list.two" : "list.more");
    if (left == 2) {
        join.text("first", std::move(first)).text("last", {});
        std::string last;
        append(last, parts[from + 1], style);
        join.args.back().text = std::move(last);
    } else {
        join.text("first", std::move(first)).text("rest", joined(parts, from + 1, style));
    }
    // Already rendered: no isolates around the parts.
    TextStyle plain = style;
    plain.isolates = false;
    std::string out;
    append(out, join, plain);
    return out;
}

void append_arg(std::string& out, const MessageArg& a, const TextStyle& style) {
    const Language& lang = style.lang();
    const bool isolate = style.isolates && lang.right_to_left;
    switch (a.kind) {
        case MessageArg::Kind::number: out += localize_digits(std::to_string(a.number), lang); return;
        case MessageArg::Kind::move: {
            const std::string text = style.figurines ? figurine_text(a.text) : a.text;
            // A label's move number in the language's digits ("۴...Ng8"); the squares stay as
            // SAN writes them.
            const std::size_t dot = text.rfind('.');
            if (isolate) out += lri;
            if (dot == std::string::npos) {
                out += text;
            } else {
                out += localize_digits(std::string_view(text).substr(0, dot + 1), lang);
                out += std::string_view(text).substr(dot + 1);
            }
            if (isolate) out += pdi;
            return;
        }
        case MessageArg::Kind::text:
            if (isolate && !a.text.empty()) out += lri;
            out += a.text;
            if (isolate && !a.text.empty()) out += pdi;
            return;
        case MessageArg::Kind::article:
            if (isolate) out += lri;
            out += localize_digits(a.text, lang);
            if (isolate) out += pdi;
            return;
        case MessageArg::Kind::message:
            if (!a.parts.empty()) append(out, a.parts.front(), style);
            return;
        case MessageArg::Kind::list: out += joined(a.parts, 0, style); return;
    }
}

// The template of `m` in the style's language: the catalog's entry (its plural form for the
// argument `count`), else English.
std::string_view template_of(const Message& m, const MessageDef* def, const Language& lang) {
    const MessageArg* count = m.arg("count");
    const std::uint64_t n = count && count->number >= 0 ? static_cast<std::uint64_t>(count->number) : 1;
    if (auto entry = catalog_entry(lang, m.id)) {
        std::string_view forms = *entry;
        unsigned long form = def && !def->english_plural.empty() ? plural_form(lang, n) : 0;
        while (form-- > 0) {
            const std::size_t nul = forms.find('\0');
            if (nul == std::string_view::npos) break;
            forms.remove_prefix(nul + 1);
        }
        return forms.substr(0, forms.find('\0'));
    }
    if (!def) return m.id;
    if (!def->english_plural.empty() && n != 1) return def->english_plural;
    return def->english;
}

void append(std::string& out, const Message& m, const TextStyle& style) {
    const std::string_view t = template_of(m, find_message(m.id), style.lang());
    for (std::size_t i = 0; i < t.size();) {
        if (t[i] == '{') {
            const std::size_t close = t.find('}', i);
            if (close != std::string_view::npos) {
                if (const MessageArg* a = m.arg(t.substr(i + 1, close - i - 1))) {
                    append_arg(out, *a, style);
                    i = close + 1;
                    continue;
                }
            }
        }
        out += t[i++];
    }
}

}  // namespace

Message side_message(Color c) { return Message(c == Color::white ? "side.white" : "side.black"); }

Message piece_message(PieceType t) { return Message(std::string("piece.") + piece_name(t)); }

std::string render(const Message& m, const TextStyle& style) {
    std::string out;
    append(out, m, style);
    return out;
}

}  // namespace arbiter
