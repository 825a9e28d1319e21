// face_errors_test.cpp — the one table of error codes (face_core/errors.hpp): every code in
// it is documented in docs/json.md with its HTTP status, and a refusal's words name each parameter
// in the caller's terms (message_for).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "errors.hpp"
#include "requests/claim_answer.hpp"
#include "requests/game_input.hpp"

namespace {

using arbiter::face::Caller;
using arbiter::face::InputError;
using arbiter::face::message_for;

std::string read_doc(const char* name) {
    std::ifstream in(std::string(ARBITER_SOURCE_DIR) + "/docs/" + name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

TEST(ErrorCodes, EveryCodeIsDocumentedWithItsStatus) {
    const std::string doc = read_doc("json.md");
    ASSERT_FALSE(doc.empty());
    for (const auto& c : arbiter::face::error_codes()) {
        const std::string row = "| " + std::to_string(c.http_status) + " | `" + std::string(c.code) + "` |";
        EXPECT_NE(doc.find(row), std::string::npos) << "docs/json.md has no row " << row;
    }
}

TEST(ErrorCodes, TheTableAndTheLibraryCodesAreKnown) {
    using arbiter::face::Code;
    EXPECT_TRUE(arbiter::face::is_known_error_code("illegal_move"));
    EXPECT_TRUE(arbiter::face::is_known_error_code("corrupt_zstd"));   // an input code of the library
    EXPECT_TRUE(arbiter::face::is_known_error_code("out_of_turn"));    // a session event's
    EXPECT_FALSE(arbiter::face::is_known_error_code("bad_position"));  // gone: the precise codes instead
    EXPECT_FALSE(arbiter::face::is_known_error_code("syntax"));
    EXPECT_FALSE(arbiter::face::is_known_error_code("busy"));  // the journal's is journal_busy everywhere
    EXPECT_EQ(arbiter::face::http_status_of(InputError(Code::too_large, "x")), 413);
    EXPECT_EQ(arbiter::face::http_status_of(InputError(Code::bad_fen, "x")), 400);
    EXPECT_EQ(arbiter::face::http_status_of(InputError(arbiter::InputError::Code::not_text, "x")), 400);
}

TEST(ErrorCodes, EveryErrorCarriesItsCodeWhereverItComesFrom) {
    using arbiter::face::Code;
    using arbiter::face::CodeFamily;
    const InputError listed(Code::illegal_move, "m", "moves", 4);
    EXPECT_EQ(listed.code(), "illegal_move");
    EXPECT_EQ(listed.face_code(), Code::illegal_move);
    EXPECT_EQ(listed.family(), CodeFamily::face);
    const InputError read(arbiter::InputError::Code::corrupt_zstd, "r", "pgn");
    EXPECT_EQ(read.code(), "corrupt_zstd");
    EXPECT_EQ(read.family(), CodeFamily::input);
    EXPECT_EQ(arbiter::face::python_class_of(read), "ReadError");
    const InputError event(arbiter::EventError::Code::out_of_turn, "e");
    EXPECT_EQ(event.code(), "out_of_turn");
    // The journal's codes are the list's: busy is journal_busy, with its status.
    const InputError busy(arbiter::JournalError::Code::busy, "b", "journal");
    EXPECT_EQ(busy.code(), "journal_busy");
    EXPECT_EQ(busy.family(), CodeFamily::face);
    EXPECT_EQ(arbiter::face::http_status_of(busy), 503);
    EXPECT_EQ(arbiter::face::http_status_of(InputError(arbiter::JournalError::Code::user_exists, "u")), 409);
    for (std::size_t i = 0; i < arbiter::enum_count<arbiter::JournalError::Code>; ++i) {
        const auto c = static_cast<arbiter::JournalError::Code>(i);
        EXPECT_TRUE(arbiter::face::find_error_code(arbiter::face::name_of(arbiter::face::code_of(c))))
            << arbiter::code_name(c);
    }
    // A re-thrown error keeps its code, whatever the family.
    const InputError again(read, "again", "start_fen", 7);
    EXPECT_EQ(again.code(), "corrupt_zstd");
    EXPECT_EQ(again.field(), "start_fen");
    // The Python class of each: the row's, and ClaimError for a claim's kind.
    EXPECT_EQ(arbiter::face::python_class_of(listed), "MoveError");
    EXPECT_EQ(arbiter::face::python_class_of(InputError(Code::no_move, "n")), "NoMoveError");
    EXPECT_EQ(arbiter::face::python_class_of(InputError(Code::bad_value, "k", "kind")), "ClaimError");
    EXPECT_EQ(arbiter::face::python_class_of(InputError(Code::bad_value, "l", "limit")), "OptionError");
}

TEST(ErrorCodes, EveryPythonClassOfTheListExists) {
    std::ifstream in(std::string(ARBITER_SOURCE_DIR) + "/python/arbiter/_errors.py");
    std::stringstream text;
    text << in.rdbuf();
    ASSERT_FALSE(text.str().empty());
    for (const auto& c : arbiter::face::error_codes())
        EXPECT_NE(text.str().find("class " + std::string(c.python_class) + "("), std::string::npos)
            << c.code << ": python/arbiter/_errors.py has no class " << c.python_class;
}

TEST(MessageFor, TheCommandLineKeepsItsFlagsOthersGetTheParameter) {
    const InputError e(arbiter::face::Code::bad_value,
                       "--fifty-extension: expected KRBvKR=75, found 'x' (see --rules, not --time-category)",
                       "fifty_extensions");
    EXPECT_EQ(message_for(e, Caller::cli), e.message());
    for (Caller c : {Caller::json, Caller::python, Caller::javascript})
        EXPECT_EQ(message_for(e, c), "fifty_extensions: expected KRBvKR=75, found 'x' (see rules, not time_category)");
    // Not an option: a double dash inside a word or before a non-letter is left alone.
    const InputError d(arbiter::face::Code::bad_move, "move 'e2--e4' or '--' or -- 3", "moves");
    EXPECT_EQ(message_for(d, Caller::python), d.message());
}

TEST(MessageFor, TheCoreRefusalsOfOneInputAgreeInEveryFace) {
    arbiter::face::GameInput in;
    in.rules = "fide-1999";
    in.moves = "e4";
    try {
        (void)in.build();
        FAIL() << "no refusal";
    } catch (const InputError& e) {
        EXPECT_EQ(e.code(), "unknown_rule_set");
        EXPECT_EQ(e.field(), "rules");
        EXPECT_EQ(message_for(e, Caller::json).rfind("rules: unknown rule set 'fide-1999'", 0), 0u);
    }
    try {
        arbiter::face::claim_kind_or_throw("sixfold");
        FAIL() << "no refusal";
    } catch (const InputError& e) {
        EXPECT_EQ(e.code(), "bad_value");
        EXPECT_EQ(e.field(), "kind");
    }
}

}  // namespace
