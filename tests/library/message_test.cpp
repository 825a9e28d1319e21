// The messages and their catalogs (message.hpp, po/*.po): every message translated in every
// language with the same placeholders, plural forms as each language counts (Arabic's six at 0,
// 1, 2, 3, 11 and 100), the language's digits, figurines, isolates in right-to-left text, the
// language tags of gettext and HTTP, and the golden text of every message in every language
// (tests/data/messages.golden; ARBITER_UPDATE_GOLDEN=1 writes it again after a deliberate change).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "arbiter/arbiter.hpp"

namespace arbiter {
namespace {

std::set<std::string> placeholders(std::string_view text) {
    std::set<std::string> out;
    for (std::size_t i = text.find('{'); i != std::string_view::npos; i = text.find('{', i + 1)) {
        const std::size_t close = text.find('}', i);
        if (close == std::string_view::npos) break;
        out.emplace(text.substr(i + 1, close - i - 1));
    }
    return out;
}

std::vector<std::string_view> forms(std::string_view entry) {
    std::vector<std::string_view> out;
    for (;;) {
        const std::size_t nul = entry.find('\0');
        out.push_back(entry.substr(0, nul));
        if (nul == std::string_view::npos) return out;
        entry.remove_prefix(nul + 1);
    }
}

TEST(Messages, EachIdOnceWithItsEnglish) {
    std::set<std::string_view> ids;
    for (const auto& d : message_table()) {
        EXPECT_TRUE(ids.insert(d.id).second) << d.id << " twice";
        EXPECT_FALSE(d.english.empty()) << d.id;
        EXPECT_EQ(find_message(d.id), &d);
        if (!d.english_plural.empty()) EXPECT_EQ(placeholders(d.english), placeholders(d.english_plural)) << d.id;
    }
    EXPECT_EQ(find_message("no.such.message"), nullptr);
}

TEST(Messages, EveryLanguageTranslatesEveryMessageWithItsPlaceholders) {
    ASSERT_GE(languages().size(), 3u);
    for (const Language& lang : languages()) {
        if (&lang == &english()) continue;
        for (const auto& d : message_table()) {
            const auto entry = catalog_entry(lang, d.id);
            ASSERT_TRUE(entry) << lang.code << ": " << d.id << " is not translated (make po, then translate it)";
            const auto fs = forms(*entry);
            const std::set<std::string> english = placeholders(d.english);
            if (d.english_plural.empty()) {
                EXPECT_EQ(fs.size(), 1u) << lang.code << ": " << d.id;
                EXPECT_EQ(placeholders(fs.front()), english) << lang.code << ": " << d.id;
                continue;
            }
            EXPECT_EQ(fs.size(), plural_count(lang)) << lang.code << ": " << d.id;
            for (const auto& f : fs) {
                // A form for one number may write the number out ("مرة واحدة"): {count} may go.
                std::set<std::string> mine = placeholders(f);
                mine.insert("count");
                std::set<std::string> want = english;
                want.insert("count");
                EXPECT_EQ(mine, want) << lang.code << ": " << d.id << ": " << f;
            }
        }
    }
}

TEST(Messages, LanguagesAreFoundByTheirTags) {
    const Language* fa = find_language("fa");
    const Language* ar = find_language("ar");
    ASSERT_NE(fa, nullptr);
    ASSERT_NE(ar, nullptr);
    EXPECT_EQ(find_language("fa-IR"), fa);
    EXPECT_EQ(find_language("fa_IR.UTF-8"), fa);
    EXPECT_EQ(find_language("AR"), ar);
    EXPECT_EQ(find_language("ar_EG@latin"), ar);
    EXPECT_EQ(find_language("en-GB"), &english());
    EXPECT_EQ(find_language("C"), &english());
    EXPECT_EQ(find_language("C.UTF-8"), &english());
    EXPECT_EQ(find_language("POSIX"), &english());
    EXPECT_EQ(find_language("de_DE.UTF-8"), nullptr);
    EXPECT_EQ(find_language(""), nullptr);
    EXPECT_TRUE(fa->right_to_left);
    EXPECT_TRUE(ar->right_to_left);
    EXPECT_FALSE(english().right_to_left);
    EXPECT_EQ(fa->name, "فارسی");
    EXPECT_EQ(language_codes().front(), "en");
}

TEST(Messages, ArabicHasSixPluralForms) {
    const Language& ar = *find_language("ar");
    ASSERT_EQ(plural_count(ar), 6u);
    const std::map<std::uint64_t, unsigned long> want{{0, 0},  {1, 1},   {2, 2},   {3, 3},   {10, 3}, {11, 4},
                                                      {99, 4}, {100, 5}, {102, 5}, {103, 3}, {111, 4}};
    for (const auto& [n, form] : want) EXPECT_EQ(plural_form(ar, n), form) << n;
    TextStyle style{&ar};
    const auto times = [&](int n) { return render(Message("times.count").number("count", n), style); };
    EXPECT_EQ(times(0), "٠ مرة");
    EXPECT_EQ(times(1), "مرة واحدة");
    EXPECT_EQ(times(2), "مرتين");
    EXPECT_EQ(times(3), "٣ مرات");
    EXPECT_EQ(times(11), "١١ مرة");
    EXPECT_EQ(times(100), "١٠٠ مرة");
    EXPECT_EQ(render(Message("moves.each").number("count", 50), style), "٥٠ نقلة لكل لاعب");
    // Persian counts one and many alike; English says "1 move".
    EXPECT_EQ(plural_form(*find_language("fa"), 1), 0u);
    EXPECT_EQ(plural_form(*find_language("fa"), 2), 1u);
    EXPECT_EQ(render(Message("moves.each").number("count", 1)), "1 move by each player");
    EXPECT_EQ(render(Message("moves.each").number("count", 75)), "75 moves by each player");
}

TEST(Messages, DigitsFigurinesAndIsolates) {
    const Language& fa = *find_language("fa");
    const Language& ar = *find_language("ar");
    EXPECT_EQ(localize_digits("9.2.1", fa), "۹.۲.۱");
    EXPECT_EQ(localize_digits("9.2.1", ar), "٩.٢.١");
    EXPECT_EQ(localize_digits("9.2.1", english()), "9.2.1");
    EXPECT_EQ(figurine_text("Nxf3+"), "♘xf3+");
    EXPECT_EQ(figurine_text("b8=Q#"), "b8=♕#");
    EXPECT_EQ(figurine_text("4...Ng8"), "4...♘g8");
    EXPECT_EQ(figurine_text("O-O-O"), "O-O-O");
    EXPECT_EQ(figurine_text("exd5"), "exd5");
    EXPECT_EQ(figurine_text("Kxe1"), "♔xe1");
    EXPECT_EQ(figurine_text("Bb5"), "♗b5");
    const Message after = Message("place.after").move("move", "12...Nf6");
    EXPECT_EQ(render(after), "after 12...Nf6");
    EXPECT_EQ(render(after, {nullptr, true}), "after 12...♘f6");
    // Right to left: the move kept left to right in isolates; its number in the language's
    // digits, its squares as SAN writes them.
    EXPECT_EQ(render(after, {&fa}), "پس از \u2066۱۲...Nf6\u2069");
    EXPECT_EQ(render(after, {&fa, true, false}), "پس از ۱۲...♘f6");
    // A placeholder without an argument stays as written; an unknown id is its own text.
    EXPECT_EQ(render(Message("place.after")), "after {move}");
    EXPECT_EQ(render(Message("no.such.message")), "no.such.message");
}

TEST(Messages, ListsJoinAsTheLanguageJoins) {
    std::vector<Message> three{Message("place.start"), Message("place.after").move("move", "2...Ng8"),
                               Message("place.after").move("move", "4...Ng8")};
    EXPECT_EQ(render(Message("claim.threefold.now")
                         .message("side", Message("side.white"))
                         .message("times", Message("times.count").number("count", 3))
                         .list("places", three)),
              "The position with White to move has now stood 3 times: at the start, after 2...Ng8 and after "
              "4...Ng8");
    EXPECT_EQ(render(Message("x").list("places", {})), "x");
    TextStyle fa{find_language("fa"), false, false};
    EXPECT_EQ(render(Message("list.two").text("first", "a").text("last", "b"), fa), "a و b");
}

// A sample argument for each placeholder name the table uses; a new name needs one here.
std::optional<MessageArg> sample(const std::string& name) {
    Message m;
    if (name == "count")
        m.number(name, 3);
    else if (name == "other")
        m.number(name, 2);
    else if (name == "move")
        m.move(name, "4...Nf6");
    else if (name == "side")
        m.message(name, Message("side.white"));
    else if (name == "times")
        m.message(name, Message("times.twice"));
    else if (name == "places")
        m.list(name, {Message("place.start"), Message("place.after").move("move", "2...Ng8")});
    else if (name == "reason")
        m.message(name, Message("claim.threefold.not_before").message("side", Message("side.black")));
    else if (name == "place")
        m.message(name, Message("place.after_intended").move("move", "5.Nf3"));
    else if (name == "why")
        m.message(name, Message("why.castling").text("then", "KQkq").text("now", "Kkq"));
    else if (name == "moves")
        m.message(name, Message("moves.uneven").number("count", 5).number("other", 4));
    else if (name == "needed")
        m.message(name, Message("moves.each").number("count", 50));
    else if (name == "since")
        m.message(name, Message("since.move").move("move", "12...Nf6"));
    else if (name == "rules")
        m.text(name, "FIDE 2023");
    else if (name == "termination")
        m.message(name, Message("termination.seventy_five_moves"));
    else if (name == "then")
        m.text(name, "KQkq");
    else if (name == "now")
        m.text(name, "-");
    else if (name == "square")
        m.text(name, "e3");
    else if (name == "article")
        m.article(name, "9.4");
    else if (name == "piece")
        m.message(name, Message("piece.knight"));
    else if (name == "first" || name == "second" || name == "last" || name == "rest")
        m.text(name, name + "-text");
    else
        return std::nullopt;
    return m.args.front();
}

TEST(Messages, EveryMessageInEveryLanguageIsItsGoldenText) {
    std::ostringstream out;
    for (const auto& d : message_table()) {
        std::vector<std::int64_t> counts{0};
        if (!d.english_plural.empty()) counts = {0, 1, 2, 3, 11, 100};
        for (std::int64_t n : counts) {
            Message m{std::string(d.id)};
            for (const std::string& name : placeholders(d.english)) {
                auto a = sample(name);
                ASSERT_TRUE(a) << d.id << ": give the placeholder {" << name << "} a sample in message_test.cpp";
                if (name == "count") a->number = n;
                m.args.push_back(*a);
            }
            for (const Language& lang : languages())
                out << d.id << (d.english_plural.empty() ? "" : "#" + std::to_string(n)) << '\t' << lang.code << '\t'
                    << render(m, {&lang}) << '\n';
        }
    }
    const std::string path = std::string(ARBITER_TEST_DATA) + "/messages.golden";
    if (std::getenv("ARBITER_UPDATE_GOLDEN")) std::ofstream(path) << out.str();
    std::ifstream in(path);
    ASSERT_TRUE(in) << path << " is missing: ARBITER_UPDATE_GOLDEN=1 writes it";
    std::stringstream golden;
    golden << in.rdbuf();
    EXPECT_EQ(out.str(), golden.str()) << "a message's text changed: check it, then ARBITER_UPDATE_GOLDEN=1";
}

}  // namespace
}  // namespace arbiter
