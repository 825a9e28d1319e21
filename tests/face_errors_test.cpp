// face_errors_test.cpp — the one table of error codes (face_core/errors.hpp): every code in
// it is documented in docs/json.md with its HTTP status, and a refusal's words name each parameter
// in the caller's terms (message_for).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "errors.hpp"
#include "game_input.hpp"
#include "live_game.hpp"

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
    EXPECT_TRUE(arbiter::face::is_known_error_code("illegal_move"));
    EXPECT_TRUE(arbiter::face::is_known_error_code("corrupt_zstd"));   // an input code of the library
    EXPECT_FALSE(arbiter::face::is_known_error_code("bad_position"));  // gone: the precise codes instead
    EXPECT_FALSE(arbiter::face::is_known_error_code("syntax"));
    EXPECT_EQ(arbiter::face::http_status_of("too_large"), 413);
    EXPECT_EQ(arbiter::face::http_status_of("bad_fen"), 400);
}

TEST(MessageFor, TheCommandLineKeepsItsFlagsOthersGetTheParameter) {
    const InputError e("bad_value",
                       "--fifty-extension: expected KRBvKR=75, found 'x' (see --rules, not --time-category)",
                       "fifty_extensions");
    EXPECT_EQ(message_for(e, Caller::cli), e.message());
    for (Caller c : {Caller::json, Caller::python, Caller::javascript})
        EXPECT_EQ(message_for(e, c), "fifty_extensions: expected KRBvKR=75, found 'x' (see rules, not time_category)");
    // Not an option: a double dash inside a word or before a non-letter is left alone.
    const InputError d("bad_move", "move 'e2--e4' or '--' or -- 3", "moves");
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
