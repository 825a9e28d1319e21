// option_table.cpp — the options of requests declared once (option_table.hpp).
#include "requests/option_table.hpp"

#include <array>
#include <stdexcept>

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

namespace {

constexpr std::string_view sides[] = {"white", "black", "both"};
constexpr std::string_view notations[] = {"san", "uci"};

const std::array<RequestOptionSpec, 10> requests{{
    {.name = "side",
     .flag = "--side",
     .kind = RequestOptionKind::choice,
     .operations = "dead",
     .help = "Which side to ask about",
     .default_text = "both",
     .choices = sides},
    {.name = "limit",
     .flag = "--limit",
     .kind = RequestOptionKind::number,
     .operations = "dead",
     .help = "Positions the search may visit before answering unknown; checked as each search starts and goes, so "
             "a tiny limit may be passed by a few positions: \"nodes\" is the real count",
     .default_text = "4500000",
     .min = 1,
     .max = static_cast<long long>(max_dead_limit)},
    {.name = "quick",
     .flag = "--quick",
     .kind = RequestOptionKind::flag,
     .operations = "dead",
     .help = "Quick mode: static proofs and a small search only",
     .default_text = "false"},
    {.name = "fast",
     .flag = "--fast",
     .kind = RequestOptionKind::flag,
     .operations = "dead",
     .help = "The sound fast check alone: cannot_checkmate only with a proof (\"proof\" names it), unknown otherwise; "
             "about a microsecond a question, no mating lines (not with --quick: the face core refuses the pair, as in "
             "every face)",
     .default_text = "false"},
    {.name = "verbose",
     .flag = "--verbose",
     .kind = RequestOptionKind::flag,
     .operations = "moves",
     .help =
         "With --json, each move as chess.js's verbose move: piece, captured, promotion, flags and the FEN after it",
     .default_text = "false"},
    {.name = "depth",
     .flag = "depth",
     .kind = RequestOptionKind::number,
     .operations = "perft",
     .help = "Depth in plies",
     .default_text = "1",
     .min = 0,
     .max = max_perft_depth},
    {.name = "divide",
     .flag = "--divide",
     .kind = RequestOptionKind::flag,
     .operations = "perft",
     .help = "Print the node count under each root move",
     .default_text = "false"},
    {.name = "lang",
     .flag = "--lang",
     .kind = RequestOptionKind::choice,
     .operations = "claim",
     .help = "The language of the texts a person reads (reasons, refusals); codes, keys and articles stay the same "
             "(the command line's default: LC_ALL, LC_MESSAGES or LANG)",
     .default_text = "en",
     .choices = language_codes()},
    {.name = "figurines",
     .flag = "--figurines",
     .kind = RequestOptionKind::flag,
     .operations = "claim",
     .help = "Moves in the texts a person reads with figurines (♘f3), FIDE Laws Appendix C.13",
     .default_text = "false"},
    {.name = "notation",
     .flag = "",
     .kind = RequestOptionKind::choice,
     .operations = "legal_moves history",
     .help = "The moves in SAN or UCI",
     .default_text = "san",
     .choices = notations},
}};

// "white, black or both".
std::string choice_list(const RequestOptionSpec& spec) {
    std::string out;
    for (std::size_t i = 0; i < spec.choices.size(); ++i)
        out += std::string(i == 0 ? "" : i + 1 == spec.choices.size() ? " or " : ", ") + std::string(spec.choices[i]);
    return out;
}

std::string_view shown(const RequestOptionSpec& spec) { return spec.flag.starts_with("--") ? spec.flag : spec.name; }

}  // namespace

std::span<const RequestOptionSpec> request_option_table() { return requests; }

const RequestOptionSpec& request_option(std::string_view name) {
    for (const RequestOptionSpec& spec : requests)
        if (spec.name == name) return spec;
    throw std::logic_error("no request option '" + std::string(name) + "'");
}

std::set<std::string> request_option_keys(std::string_view operation) {
    std::set<std::string> out;
    for (const RequestOptionSpec& spec : requests) {
        std::string_view ops = spec.operations;
        while (!ops.empty()) {
            const auto space = ops.find(' ');
            if (ops.substr(0, space) == operation) out.emplace(spec.name);
            ops = space == std::string_view::npos ? std::string_view() : ops.substr(space + 1);
        }
    }
    return out;
}

std::string_view checked_choice(const RequestOptionSpec& spec, std::string_view value) {
    for (std::string_view c : spec.choices)
        if (c == value) return c;
    throw InputError(Code::bad_value,
                     std::string(shown(spec)) + ": expected " + choice_list(spec) + ", found '" +
                         printable(std::string(value)) + "'",
                     std::string(spec.name));
}

long long checked_number(const RequestOptionSpec& spec, long long value) {
    if (value >= spec.min && value <= spec.max) return value;
    throw InputError(Code::bad_value,
                     std::string(shown(spec)) + ": " + std::to_string(value) +
                         " is out of range: " + std::to_string(spec.min) + " to " + std::to_string(spec.max),
                     std::string(spec.name));
}

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
