// game_options.cpp — the rule and POSITION options of the command line.
#include "game_options.hpp"

#include <cstdlib>

namespace arbiter::cli {

namespace {

// One option of the table as a flag of `cmd`; `help` replaces the table's.
void add_from_table(CLI::App& cmd, RuleInput& in, const RuleOptionSpec& spec, const std::string& help) {
    const std::string flag(spec.flag);
    switch (spec.kind) {
        case OptionKind::choice:
        case OptionKind::boolean: cmd.add_option(flag, in.*spec.text, help); break;
        case OptionKind::list: cmd.add_option(flag, in.*spec.texts, help); break;
        case OptionKind::flag: cmd.add_flag(flag, in.*spec.on, help); break;
    }
}

}  // namespace

void add_rule_set(CLI::App& cmd, RuleInput& in, bool with_auto) {
    for (const auto& spec : rule_option_table())
        if (spec.group == OptionGroup::rule_set)
            add_from_table(cmd, in, spec,
                           option_help(spec) + (with_auto && spec.name == "rules"
                                                    ? "; or auto (from the game's Date and Site tags, as the "
                                                      "audit picks it)"
                                                    : ""));
}

void add_rule_options(CLI::App& cmd, RuleInput& in) {
    for (const auto& spec : rule_option_table())
        if (spec.group == OptionGroup::rule) add_from_table(cmd, in, spec, option_help(spec));
}

void add_game_input(CLI::App& cmd, GameInput& in) {
    add_position_options(cmd, in);
    add_rule_set(cmd, in, true);
    add_rule_options(cmd, in);
    cmd.add_flag("--json", in.json, "Machine-readable output on stdout");
}

void add_position_options(CLI::App& cmd, GameInput& in, bool with_fen) {
    if (with_fen)
        cmd.add_option("--fen", in.fen, "Start position (FEN); with --moves, the moves are played from it")
            ->each([&in](const std::string&) { in.fen_given = true; });
    cmd.add_option("--moves", in.moves, "Moves from the start (or from --fen), SAN or UCI, e.g. \"e4 e5 Nf3\"")
        ->each([&in](const std::string&) { in.moves_given = true; });
    cmd.add_option("--pgn", in.pgn, "A PGN file: the position after --ply K of game --game N")
        ->each([&in](const std::string&) { in.pgn_given = true; });
    cmd.add_option("--game", in.game, "With --pgn: the game number, from 1 (default 1)")
        ->check(whole_number(1, max_game_number))
        ->each([&in](const std::string&) { in.game_given = true; });
    cmd.add_option("--ply", in.ply,
                   "With --pgn: the position at this game ply, counted as the audit and status --json count it "
                   "(2 x (move - 1), +1 with Black to move; from the initial position, the plies played; default: "
                   "the end)")
        ->check(whole_number(0, max_game_ply))
        ->each([&in](const std::string&) { in.ply_given = true; });
}

void add_request_options(CLI::App& cmd, std::string_view operation, const std::shared_ptr<Json>& request) {
    const std::set<std::string> keys = request_option_keys(operation);
    for (const RequestOptionSpec& spec : request_option_table()) {  // in the table's order
        if (!keys.contains(std::string(spec.name))) continue;
        const std::string name(spec.name);
        CLI::Option* o = nullptr;
        switch (spec.kind) {
            case RequestOptionKind::flag:
                o = cmd.add_flag_function(
                    std::string(spec.flag), [request, name](std::int64_t) { (*request)[name] = true; },
                    std::string(spec.help));
                break;
            case RequestOptionKind::choice:
                o = cmd.add_option_function<std::string>(
                    std::string(spec.flag), [request, name](const std::string& v) { (*request)[name] = v; },
                    std::string(spec.help) + " (default: " + std::string(spec.default_text) + ")");
                o->check(CLI::IsMember(std::vector<std::string>(spec.choices.begin(), spec.choices.end())));
                break;
            case RequestOptionKind::number: {
                const bool positional = !spec.flag.starts_with("--");
                o = cmd.add_option_function<long long>(
                    std::string(spec.flag), [request, name](long long v) { (*request)[name] = v; },
                    std::string(spec.help) +
                        (positional ? " (" + std::to_string(spec.min) + "-" + std::to_string(spec.max) + ")"
                                    : " (default: " + std::string(spec.default_text) + ")"));
                o->check(whole_number(spec.min, spec.max));
                break;
            }
        }
    }
}

TextStyle command_text_style(const Json& request) {
    TextStyle style = text_style(request);
    if (request.contains("lang")) return style;
    const auto env = [](const char* name) -> std::string_view {
        const char* v = std::getenv(name);
        return v ? v : "";
    };
    std::string_view locale = env("LC_ALL");
    if (locale.empty()) locale = env("LC_MESSAGES");
    if (locale.empty()) locale = env("LANG");
    const Language* lang = find_language(locale);
    const bool c_locale = locale.empty() || locale == "C" || locale == "POSIX" || locale.starts_with("C.");
    if (!c_locale) {
        // LANGUAGE ("fa:en"): the first of its languages with a catalog.
        std::string_view list = env("LANGUAGE");
        while (!list.empty()) {
            const std::size_t colon = list.find(':');
            if (const Language* l = find_language(list.substr(0, colon))) {
                lang = l;
                break;
            }
            list = colon == std::string_view::npos ? std::string_view{} : list.substr(colon + 1);
        }
    }
    style.language = lang ? lang : &english();
    return style;
}

}  // namespace arbiter::cli
