// option_table_test.cpp — the rule options declared once (face_core/requests/option_table.hpp): each has one
// spelling, each changes the rules it names when given through a JSON request (the service's,
// JavaScript's), and the declarations written outside C++ — the TypeScript interface, Python's
// TypedDict, the docs — name exactly the table's options, so that an option added to the table and
// missing in a stub or a doc fails here. Also the operations on a position (one registry): each a
// documented route with its keys; the operations' own options (the second table); and the fields
// of a new session (session_field_table).
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "requests/option_table.hpp"
#include "requests/position_requests.hpp"
#include "requests/request_fields.hpp"
#include "session/session_json.hpp"

namespace arbiter::face {
namespace {

std::string read_source(const std::string& path) {
    std::ifstream in(std::string(ARBITER_SOURCE_DIR) + "/" + path);
    EXPECT_TRUE(in) << path;
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::set<std::string> table_names(bool with_rule_set = true) {
    std::set<std::string> out;
    for (const auto& spec : rule_option_table())
        if (with_rule_set || spec.group == OptionGroup::rule) out.emplace(spec.name);
    return out;
}

// The keys declared between `start` and the next line holding only a closing brace (or, for a
// Python class, the next blank line), each written `key?:` or `key:` at the start of a line.
std::set<std::string> declared_keys(const std::string& text, const std::string& start, const std::string& end) {
    const std::size_t from = text.find(start);
    EXPECT_NE(from, std::string::npos) << start;
    if (from == std::string::npos) return {};
    const std::size_t to = text.find(end, from);
    const std::string block = text.substr(from, to - from);
    std::set<std::string> out;
    static const std::regex key(R"(\n\s+([a-z_]+)\??:)");
    for (auto it = std::sregex_iterator(block.begin(), block.end(), key); it != std::sregex_iterator(); ++it)
        out.insert((*it)[1].str());
    return out;
}

TEST(OptionTable, OneSpellingEach) {
    std::set<std::string_view> names, flags;
    for (const auto& spec : rule_option_table()) {
        EXPECT_TRUE(names.insert(spec.name).second) << spec.name;
        EXPECT_TRUE(flags.insert(spec.flag).second) << spec.flag;
        EXPECT_TRUE(std::regex_match(std::string(spec.name), std::regex("[a-z]+(_[a-z]+)*"))) << spec.name;
        // The flag is the name with dashes; a repeatable one names one item (--fifty-extension).
        std::string flag = "--" + std::string(spec.name);
        for (char& c : flag)
            if (c == '_') c = '-';
        if (spec.kind == OptionKind::list) flag.pop_back();
        EXPECT_EQ(spec.flag, flag);
        EXPECT_FALSE(option_help(spec).empty()) << spec.name;
        EXPECT_FALSE(spec.default_text.empty()) << spec.name;
        EXPECT_EQ(find_rule_option(spec.name), &spec);
        EXPECT_EQ(find_rule_flag(spec.flag), &spec);
        // Where RuleInput keeps it, as its kind says.
        switch (spec.kind) {
            case OptionKind::choice: EXPECT_TRUE(spec.text && !spec.typed && !spec.texts && !spec.on); break;
            case OptionKind::boolean: EXPECT_TRUE(spec.text && spec.typed && !spec.texts && !spec.on); break;
            case OptionKind::list: EXPECT_TRUE(!spec.text && spec.texts && !spec.on); break;
            case OptionKind::flag: EXPECT_TRUE(!spec.text && !spec.texts && spec.on); break;
        }
    }
    EXPECT_EQ(find_rule_option("intended_mate_claim_correct"), nullptr);
}

// A value other than the default, as a JSON request gives it.
Json other_value(const RuleOptionSpec& spec) {
    switch (spec.kind) {
        case OptionKind::choice: {
            std::istringstream words(spec.words());
            std::string first, second;
            words >> first >> second;
            return second;
        }
        case OptionKind::boolean: return spec.default_text != "true";
        case OptionKind::list: return Json::array({"KRBvKR=75"});
        case OptionKind::flag: return true;
    }
    return nullptr;
}

TEST(OptionTable, EachOptionChangesTheRulesItNames) {
    for (const auto& spec : rule_option_table()) {
        if (spec.name == "rules") continue;  // the rule set itself, not an option of it
        Json request = Json::object();
        request["rules"] = "fide-online";  // where every option applies (online_claims)
        const Json plain = request;
        request[std::string(spec.name)] = other_value(spec);
        RuleInput given, not_given;
        read_rules(Fields(request, with_rule_keys({})), given);
        read_rules(Fields(plain, with_rule_keys({})), not_given);
        given.check_applies(given.rule_set_or_throw());
        EXPECT_FALSE(given.rule_options() == not_given.rule_options()) << spec.name << " changed nothing";
        // What is set is kept: by a game's snapshot (RuleOptions::each_scalar) and by a session's
        // stored settings (src/session_codec.cpp), so that a member missing from either fails here.
        const GameRecord game(Position(), rule_set(RuleSetId::fide_online), given.rule_options());
        const auto back = GameRecord::restore(game.snapshot());
        ASSERT_TRUE(back) << spec.name;
        EXPECT_TRUE(back->options() == given.rule_options()) << spec.name << " is lost by a snapshot";
        SessionConfig config;
        config.rules = RuleSetId::fide_online;
        config.options = given.rule_options();
        config.time_category_given = true;
        const auto stored = decode_config(encode(config));
        ASSERT_TRUE(stored) << spec.name << ": " << stored.error().message;
        EXPECT_TRUE(stored->options == config.options) << spec.name << " is lost by a session's stored settings";
    }
}

TEST(OptionTable, ABadValueNamesItsOption) {
    for (const auto& spec : rule_option_table()) {
        if (spec.kind != OptionKind::choice && spec.kind != OptionKind::boolean && spec.kind != OptionKind::list)
            continue;
        RuleInput in;
        if (spec.kind == OptionKind::list)
            (in.*spec.texts).push_back("nonsense");
        else
            in.*spec.text = "nonsense";
        try {
            if (spec.name == "rules")
                (void)in.rule_set_or_throw();
            else
                (void)in.rule_options();
            ADD_FAILURE() << spec.name << " took 'nonsense'";
        } catch (const InputError& e) {
            EXPECT_EQ(e.field(), spec.name);
            EXPECT_NE(e.message().find(std::string(spec.flag)), std::string::npos) << e.message();
        }
    }
}

TEST(OptionTable, AJsonRequestTakesEveryNameAndNoOther) {
    EXPECT_EQ(with_rule_keys({}), table_names());
    EXPECT_THROW(Fields(Json{{"intended_mate_claim_correct", true}}, with_rule_keys({})), FieldError);
}

TEST(OptionTable, TheStubsDeclareExactlyTheTable) {
    // TypeScript: the RuleOptions interface of the JavaScript package.
    EXPECT_EQ(declared_keys(read_source("wasm/js/index.d.ts"), "export interface RuleOptions {", "\n}"), table_names());
    // Python: the keyword arguments of Game and the audit (rules is Game's third argument).
    EXPECT_EQ(declared_keys(read_source("python/arbiter/types.py"), "class RuleOptions(TypedDict", "\n\n"), [] {
        auto names = table_names();
        names.erase("rules");
        return names;
    }());
}

TEST(OptionTable, TheDocsNameEveryOption) {
    for (const char* doc : {"docs/api.md", "docs/python.md", "docs/javascript.md", "docs/rules.md"}) {
        const std::string text = read_source(doc);
        for (const auto& spec : rule_option_table())
            EXPECT_NE(text.find("`" + std::string(spec.name) + "`"), std::string::npos) << doc << ": " << spec.name;
    }
    const std::string readme = read_source("README.md");
    for (const auto& spec : rule_option_table())
        EXPECT_NE(readme.find(std::string(spec.flag)), std::string::npos) << "README.md: " << spec.flag;
}

}  // namespace
}  // namespace arbiter::face

namespace arbiter::face {
namespace {

// The operations on a position (position_requests.hpp's registry): each one documented as a
// route with every key its request takes, and each answering through position_answer.
TEST(OperationRegistry, EachOperationIsARouteWithItsKeysDocumented) {
    const std::string api = read_source("docs/api.md");
    ASSERT_FALSE(position_operation_table().empty());
    for (const auto& op : position_operation_table()) {
        const std::string route = "`POST /api/v1/" + std::string(op.name) + "`";
        const std::size_t at = api.find(route);
        ASSERT_NE(at, std::string::npos) << route;
        // The row names the keys of its own (the position and rule keys are described below it).
        const std::string row = api.substr(at, api.find('\n', at) - at);
        for (const auto& key : op.keys) {
            if (with_rule_keys(position_keys()).count(key)) continue;
            EXPECT_NE(row.find("`" + key + "`"), std::string::npos) << op.name << ": " << key << " in " << row;
        }
        EXPECT_FALSE(op.summary.empty());
        // Answered, or refused for its own reasons, never as an unknown operation.
        try {
            (void)position_answer(op.name, Json{{"fen", "8/8/8/4k3/8/8/8/K6R w - - 0 1"}});
        } catch (const InputError& e) {
            EXPECT_NE(e.face_code(), Code::not_found) << op.name;
        }
    }
    EXPECT_THROW((void)position_answer("statu", Json::object()), InputError);
}

// JavaScript's request() names exactly the registry's operations in its type (index.d.ts).
TEST(OperationRegistry, TheTypeScriptUnionIsTheRegistry) {
    const std::string dts = read_source("wasm/js/index.d.ts");
    const std::string start = "request(operation: ";
    const std::size_t from = dts.find(start);
    ASSERT_NE(from, std::string::npos);
    const std::string union_text = dts.substr(from + start.size(), dts.find(',', from) - from - start.size());
    std::set<std::string> declared;
    static const std::regex name("'([a-z_]+)'");
    for (auto it = std::sregex_iterator(union_text.begin(), union_text.end(), name); it != std::sregex_iterator(); ++it)
        declared.insert((*it)[1].str());
    std::set<std::string> registry;
    for (const auto op : position_operations()) registry.emplace(op);
    EXPECT_EQ(declared, registry) << union_text;
}

}  // namespace
}  // namespace arbiter::face

namespace arbiter::face {
namespace {

// The operations' own options (option_table.hpp's request_option_table): the registry reads each
// key of theirs from the table, and every key of its requests is a position key, a rule key, the
// move or claim it is about, or a row of the table — so an option added to an operation without
// its row fails here.
TEST(RequestOptionTable, TheRegistryReadsItsKeysFromTheTable) {
    std::set<std::string> operations;
    for (const auto& op : position_operation_table()) operations.emplace(op.name);
    std::set<std::string> named;
    for (const auto& spec : request_option_table()) {
        EXPECT_TRUE(named.emplace(spec.name).second) << spec.name << " twice";
        EXPECT_FALSE(spec.help.empty()) << spec.name;
        EXPECT_FALSE(spec.operations.empty()) << spec.name;
        for (const auto& op : position_operation_table())
            if (request_option_keys(op.name).count(std::string(spec.name)))
                EXPECT_TRUE(op.keys.count(std::string(spec.name))) << op.name << " does not read " << spec.name;
        if (spec.kind == RequestOptionKind::choice) {
            EXPECT_FALSE(spec.choices.empty()) << spec.name;
            EXPECT_EQ(checked_choice(spec, spec.default_text), spec.default_text) << spec.name;
        }
        if (spec.kind == RequestOptionKind::number) EXPECT_LT(spec.min, spec.max) << spec.name;
        if (spec.kind == RequestOptionKind::flag) EXPECT_EQ(spec.default_text, "false") << spec.name;
    }
    const std::set<std::string> about = {"move", "kind", "intended"};
    for (const auto& op : position_operation_table())
        for (const auto& key : op.keys)
            EXPECT_TRUE(with_rule_keys(position_keys()).count(key) || about.count(key) ||
                        request_option_keys(op.name).count(key))
                << op.name << ": " << key << " is in no table";
    EXPECT_THROW((void)request_option("sidee"), std::logic_error);
}

TEST(RequestOptionTable, TheDefaultsAreTheOperationsOwn) {
    const DeadRequest dead;
    EXPECT_EQ(request_option("side").default_text, dead.side);
    EXPECT_EQ(request_option("limit").default_text, std::to_string(dead.limit));
    EXPECT_EQ(request_option("limit").max, static_cast<long long>(max_dead_limit));
    EXPECT_EQ(request_option("depth").max, max_perft_depth);
    // A perft request without a depth counts to the table's default.
    EXPECT_EQ(std::to_string(position_answer("perft", Json::object())["depth"].get<int>()),
              request_option("depth").default_text);
}

TEST(RequestOptionTable, ABadValueIsRefusedInTheTablesWords) {
    const std::string krk = "8/8/8/4k3/8/8/8/K6R w - - 0 1";
    try {
        (void)position_answer("dead", Json{{"fen", krk}, {"side", "grey"}});
        ADD_FAILURE() << "a side of grey was taken";
    } catch (const InputError& e) {
        EXPECT_EQ(e.face_code(), Code::bad_value);
        EXPECT_EQ(e.field(), "side");
        EXPECT_EQ(e.message(), "--side: expected white, black or both, found 'grey'");
    }
    try {
        (void)checked_choice(request_option("notation"), "lan");
        ADD_FAILURE() << "a notation of lan was taken";
    } catch (const InputError& e) {
        EXPECT_EQ(e.field(), "notation");
        EXPECT_EQ(e.message(), "notation: expected san or uci, found 'lan'");
    }
    try {
        (void)checked_number(request_option("limit"), 0);
        ADD_FAILURE() << "a limit of 0 was taken";
    } catch (const InputError& e) {
        EXPECT_EQ(e.face_code(), Code::bad_value);
        EXPECT_EQ(e.message(), "--limit: 0 is out of range: 1 to 1099511627776");
    }
    EXPECT_EQ(checked_number(request_option("depth"), 8), 8);
}

}  // namespace
}  // namespace arbiter::face

namespace arbiter::face {
namespace {

// A new session's fields (session_json.hpp's session_field_table): each key read from a JSON
// request into its member, refused by name when of the wrong type, and named by docs/api.md.
TEST(SessionFieldTable, EachFieldIsReadAndDocumented) {
    const std::string api = read_source("docs/api.md");
    const std::size_t from = api.find("**Configuration** (`POST /api/v1/sessions`)");
    ASSERT_NE(from, std::string::npos);
    const std::string paragraph = api.substr(from, api.find("\n\n", from) - from);
    std::set<std::string> named;
    for (const SessionFieldSpec& spec : session_field_table()) {
        EXPECT_TRUE(named.emplace(spec.name).second) << spec.name << " twice";
        EXPECT_NE(paragraph.find("`" + std::string(spec.name) + "`"), std::string::npos) << spec.name;
        EXPECT_EQ((spec.text != nullptr) + (spec.number != nullptr) + (spec.on != nullptr), 1) << spec.name;
        const std::string key(spec.name);
        const NewSessionInput defaults;
        if (spec.text) {
            const NewSessionInput in = new_session_input(Json{{key, "12"}});
            EXPECT_EQ(in.*spec.text, "12") << key;
            EXPECT_NE(defaults.*spec.text, "12") << key;
        } else if (spec.number) {
            EXPECT_EQ(new_session_input(Json{{key, spec.max}}).*spec.number, spec.max) << key;
            EXPECT_THROW((void)new_session_input(Json{{key, spec.max + 1}}), InputError) << key;
        } else {
            EXPECT_TRUE(new_session_input(Json{{key, true}}).*spec.on) << key;
        }
        try {
            (void)new_session_input(Json{{key, Json::array()}});
            ADD_FAILURE() << key << ": an array was taken";
        } catch (const InputError& e) {
            EXPECT_EQ(e.field(), key);
        }
    }
    // The rule options come with them; anything else is refused.
    EXPECT_EQ(new_session_input(Json{{"rules", "uscf"}}).rules.rules, "uscf");
    EXPECT_THROW((void)new_session_input(Json{{"colour", "white"}}), InputError);
}

}  // namespace
}  // namespace arbiter::face
