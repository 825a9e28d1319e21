// message.hpp — what arbiter says to a person, as data: a stable message id with its arguments
// (numbers, moves, verbatim text, other messages, lists of them), and its text in the language
// asked for, rendered from the catalogs compiled into the library (po/*.po, gettext's format;
// docs/i18n.md). English is the source language and the default: a message renders in English
// without any catalog, whatever the environment's locale.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/types.hpp"

namespace arbiter {

struct Message;

/// One argument of a message, filling the placeholder `{name}` of its text.
struct MessageArg {
    enum class Kind : std::uint8_t {
        number,   ///< a whole number: written in the language's digits; `count` chooses the plural form
        move,     ///< a move or a move label ("Nf3", "4...Ng8"): figurines on request, kept left to right
        text,     ///< verbatim text (a FEN, castling rights, a rule set's name): kept left to right
        article,  ///< an article of the Laws ("9.4"): in the language's digits, kept left to right
        message,  ///< another message (a side, a place in the game), rendered in the same language
        list      ///< messages joined as the language joins a list ("a, b and c")
    };
    std::string name;
    Kind kind = Kind::text;
    std::int64_t number = 0;
    std::string text;            ///< move, text or article
    std::vector<Message> parts;  ///< message (one) or list
};

/// A stable id ("claim.threefold.now") and its arguments. The id names the text in the message
/// table (src/messages.cpp) and in every catalog; ids never change with the wording.
struct Message {
    std::string id;
    std::vector<MessageArg> args;

    Message() = default;
    explicit Message(std::string message_id) : id(std::move(message_id)) {}

    Message& number(std::string name, std::int64_t value);
    Message& move(std::string name, std::string value);
    Message& text(std::string name, std::string value);
    Message& article(std::string name, std::string value);
    Message& message(std::string name, Message value);
    Message& list(std::string name, std::vector<Message> values);

    /// The argument of that name, or null.
    [[nodiscard]] const MessageArg* arg(std::string_view name) const noexcept;
    bool operator==(const Message&) const = default;
};

/// One entry of the message table: its id, its English text, and for a message with a count its
/// English plural (empty otherwise). The argument named `count` chooses the plural form.
struct MessageDef {
    std::string_view id;
    std::string_view english;
    std::string_view english_plural;
};

/// Every message arbiter shows a person (each id once; a test checks it).
std::span<const MessageDef> message_table();
/// The entry of that id, or null.
const MessageDef* find_message(std::string_view id) noexcept;

/// A language arbiter speaks: English (the source) or one with a catalog compiled in.
struct Language {
    std::string_view code;       ///< "en", "fa", "ar" (the catalog's file name)
    std::string_view name;       ///< its own name for itself ("English", "فارسی", "العربية")
    bool right_to_left = false;  ///< written right to left (the catalog's X-Arbiter-Direction)
    std::string_view digits;     ///< its ten digits as UTF-8, "" for 0-9 (CLDR's default numbering)
};

/// Every language, English first, then the catalogs in the order of po/LINGUAS.
std::span<const Language> languages();
/// English.
const Language& english() noexcept;
/// Their codes, in the same order ("en", "fa", "ar").
std::span<const std::string_view> language_codes();
/// The language a tag names, the way gettext and HTTP name them: "fa", "fa-IR", "fa_IR.UTF-8",
/// "ar_EG@latin", "AR" (case does not matter); "C" and "POSIX" are English. nullopt for a language
/// arbiter has no catalog for.
const Language* find_language(std::string_view tag) noexcept;

/// How a message is rendered.
struct TextStyle {
    const Language* language = nullptr;  ///< null: English
    bool figurines = false;              ///< moves with figurines (♘f3), FIDE Laws Appendix C.13
    /// Moves, FEN and other left-to-right text inside right-to-left text wrapped in Unicode
    /// isolates (U+2066 … U+2069), so that they read correctly in browsers and terminals.
    bool isolates = true;
    [[nodiscard]] const Language& lang() const noexcept { return language ? *language : english(); }
};

/// The text of a message in the style's language (English where the catalog has no entry).
/// A placeholder with no argument is left as written ("{side}").
std::string render(const Message& m, const TextStyle& style = {});
/// The text in English.
inline std::string english_text(const Message& m) { return render(m); }
/// `text` with its ASCII digits written in the language's digits.
std::string localize_digits(std::string_view text, const Language& lang);
/// `san` with its piece letters as figurines (white's: ♔♕♖♗♘), e.g. "Nxf3+" → "♘xf3+",
/// "b8=Q" → "b8=♕", "4...Ng8" → "4...♘g8".
std::string figurine_text(std::string_view san);

/// "side.white" or "side.black".
Message side_message(Color c);
/// "piece.knight", …: a piece's name.
Message piece_message(PieceType t);

/// The translation of `id` in `lang`'s catalog (plural forms separated by NUL), or nullopt.
std::optional<std::string_view> catalog_entry(const Language& lang, std::string_view id) noexcept;
/// Which plural form `lang` uses for `n` (gettext's Plural-Forms of its catalog; English: n != 1).
unsigned long plural_form(const Language& lang, std::uint64_t n) noexcept;
/// How many plural forms `lang` has.
unsigned plural_count(const Language& lang) noexcept;

}  // namespace arbiter
