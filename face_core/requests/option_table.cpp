// option_table.cpp — the rule options declared once (option_table.hpp).
#include "requests/option_table.hpp"

#include <array>

#include "arbiter/audit.hpp"

namespace arbiter::face {

namespace {

std::string time_categories() { return enum_name_list<TimeCategory>(" or ", TimeCategory::standard); }
std::string rule_sets() { return enum_name_list<RuleSetId>(", ", RuleSetId{}); }
template <class E>
std::string words_of() {
    std::string out;
    for (const char* n : EnumNames<E>::names) out += std::string(out.empty() ? "" : " ") + n;
    return out;
}

// "--time-category: expected standard, rapid or blitz, found 'x'": the option's flag and its value.
[[noreturn]] void refuse(const RuleOptionSpec& spec, const std::string& expected, const std::string& found) {
    throw InputError(Code::bad_value,
                     std::string(spec.flag) + ": expected " + expected + ", found '" + printable(found) + "'",
                     std::string(spec.name));
}

const RuleOptionSpec& spec_of(std::string_view name);

const std::array<RuleOptionSpec, 7> table{{
    {.name = "rules",
     .flag = "--rules",
     .kind = OptionKind::choice,
     .group = OptionGroup::rule_set,
     .help = "Rule set",
     .default_text = "fide-2023",
     .text = &RuleInput::rules,
     .choices = rule_sets,
     .words = words_of<RuleSetId>},
    {.name = "time_category",
     .flag = "--time-category",
     .kind = OptionKind::choice,
     .group = OptionGroup::rule_set,
     .help = "",
     .default_text = "standard",
     .text = &RuleInput::time_category,
     .choices = time_categories,
     .words = words_of<TimeCategory>,
     .apply =
         [](const RuleInput& in, RuleOptions& o) {
             const auto tc = parse_time_category(in.time_category);
             if (!tc) refuse(spec_of("time_category"), enum_name_list<TimeCategory>(), in.time_category);
             o.time_category = *tc;
         }},
    {.name = "initial_position_counts",
     .flag = "--initial-position-counts",
     .kind = OptionKind::boolean,
     .group = OptionGroup::rule,
     .help = "Whether the initial position counts as an occurrence: true (default) or false",
     .default_text = "true",
     .text = &RuleInput::initial_position_counts,
     .typed = &RuleInput::initial_position_counts_flag,
     .words = [] { return std::string("true false"); },
     .apply =
         [](const RuleInput& in, RuleOptions& o) {
             if (in.initial_position_counts_flag)
                 o.initial_position_counts = *in.initial_position_counts_flag;
             else if (in.initial_position_counts == "true" || in.initial_position_counts == "false")
                 o.initial_position_counts = in.initial_position_counts == "true";
             else
                 refuse(spec_of("initial_position_counts"), "true or false", in.initial_position_counts);
         }},
    {.name = "counters_from_setup",
     .flag = "--counters-from-setup",
     .kind = OptionKind::choice,
     .group = OptionGroup::rule,
     .help = "For a FEN start: trust_fen (default: the halfmove clock counts) or game_start",
     .default_text = "trust_fen",
     .text = &RuleInput::counters_from_setup,
     .words = words_of<RuleOptions::CountersFromSetup>,
     .apply =
         [](const RuleInput& in, RuleOptions& o) {
             const auto counters = parse_enum<RuleOptions::CountersFromSetup>(in.counters_from_setup);
             if (!counters)
                 refuse(spec_of("counters_from_setup"), enum_name_list<RuleOptions::CountersFromSetup>(),
                        in.counters_from_setup);
             o.counters_from_setup = *counters;
         }},
    {.name = "fifty_extensions",
     .flag = "--fifty-extension",
     .kind = OptionKind::list,
     .group = OptionGroup::rule,
     .help = "A historic 50-move extension, e.g. KRBvKR=75 (moves by each player); repeatable",
     .default_text = "none",
     .texts = &RuleInput::fifty_extensions,
     .apply =
         [](const RuleInput& in, RuleOptions& o) {
             for (const auto& e : in.fifty_extensions) {
                 auto ext = parse_fifty_extension(e);
                 if (!ext) refuse(spec_of("fifty_extensions"), "a signature and moves like KRBvKR=75", e);
                 o.fifty_extensions.push_back(*ext);
             }
         }},
    {.name = "online_claims",
     .flag = "--online-claims",
     .kind = OptionKind::flag,
     .group = OptionGroup::rule,
     .help = "fide-online: make threefold and fifty claims instead of automatic draws",
     .default_text = "false",
     .on = &RuleInput::online_claims,
     .apply =
         [](const RuleInput& in, RuleOptions& o) {
             o.online_threefold_automatic = !in.online_claims;
             o.online_fifty_automatic = !in.online_claims;
         },
     .check_applies =
         [](const RuleInput& in, const RuleSet& rs) {
             if (in.online_claims && rs.id != RuleSetId::fide_online)
                 throw InputError(Code::bad_usage,
                                  std::string("--online-claims has no effect under ") + rs.name +
                                      ": only fide-online makes threefold and fifty automatic draws (choose the "
                                      "rule set fide-online)",
                                  "online_claims");
         }},
    {.name = "intended_mate_incorrect",
     .flag = "--intended-mate-incorrect",
     .kind = OptionKind::flag,
     .group = OptionGroup::rule,
     .help = "A 9.3.1 claim whose intended move mates is incorrect (default: correct, TV-50-2)",
     .default_text = "false",
     .on = &RuleInput::intended_mate_incorrect,
     .apply = [](const RuleInput& in, RuleOptions& o) { o.intended_mate_incorrect = in.intended_mate_incorrect; }},
}};

const RuleOptionSpec& spec_of(std::string_view name) { return *find_rule_option(name); }

}  // namespace

std::span<const RuleOptionSpec> rule_option_table() { return table; }

std::string option_help(const RuleOptionSpec& spec) {
    if (!spec.choices) return std::string(spec.help);
    return spec.help.empty() ? spec.choices() : std::string(spec.help) + ": " + spec.choices();
}

const RuleOptionSpec* find_rule_option(std::string_view name) {
    for (const auto& spec : table)
        if (spec.name == name) return &spec;
    return nullptr;
}

const RuleOptionSpec* find_rule_flag(std::string_view flag) {
    for (const auto& spec : table)
        if (spec.flag == flag) return &spec;
    return nullptr;
}

std::string rules_option_help() { return option_help(spec_of("rules")); }

RuleOptions RuleInput::rule_options() const {
    RuleOptions o;
    for (const auto& spec : table)
        if (spec.apply) spec.apply(*this, o);
    return o;
}

void RuleInput::check_applies(const RuleSet& rs) const {
    for (const auto& spec : table)
        if (spec.check_applies) spec.check_applies(*this, rs);
}

}  // namespace arbiter::face
