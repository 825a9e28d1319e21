// cmd_help.cpp — the CLI's help habits: `arbiter help [CMD...]`, `arbiter completion bash` (a
// bash completion script generated from the command definitions), examples and the exit codes
// at the end of every --help, --version on every command, and a missing or mistyped subcommand
// answered with the list of subcommands and the nearest name.
#include <algorithm>
#include <array>
#include <iostream>
#include <map>
#include <sstream>

#include "audit/audit_output.hpp"
#include "cli.hpp"
#include "json/json.hpp"
#include "requests/operations.hpp"
#include "requests/option_table.hpp"

namespace arbiter::cli {

namespace {

constexpr const char* exit_codes =
    "Exit status: 0 done; 2 bad usage or bad input (one line on stderr naming what is wrong and where); 1 internal "
    "failure, or standard output could not be written.";

/// Two or three examples per command, by its path ("session event").
const std::map<std::string, std::string>& examples() {
    static const std::map<std::string, std::string> table = {
        {"",
         "  arbiter status --moves \"e4 e5 Nf3 Nf6 Ng1 Ng8\"\n"
         "  arbiter claim threefold --pgn game.pgn --intended Nf3\n"
         "  arbiter audit --format summary games.pgn.zst"},
        {"perft",
         "  arbiter perft 5\n  arbiter perft --divide 3 --fen \"8/8/8/8/8/8/8/K6k w - - 0 1\"\n"
         "  arbiter perft 2 --moves \"e4 e5\""},
        {"moves",
         "  arbiter moves\n  arbiter moves --uci --fen \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\"\n"
         "  arbiter moves --pgn game.pgn --game 2 --ply 30"},
        {"status",
         "  arbiter status --moves \"e4 e5 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6\"\n"
         "  arbiter status --json --pgn game.pgn --game 3 --ply 80\n"
         "  arbiter status --rules uscf --fen \"8/8/8/8/8/8/8/K6k w - - 99 80\""},
        {"claim",
         "  arbiter claim threefold --pgn game.pgn\n"
         "  arbiter claim fifty --intended Kb1 --fen \"4k3/8/8/8/8/8/8/R3K3 w - - 99 60\"\n"
         "  arbiter claim threefold --json --rules fide-2009 --moves \"Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1\""},
        {"dead",
         "  arbiter dead --fen \"8/8/8/8/7K/8/2R5/k7 b - - 0 1\"\n"
         "  arbiter dead --side white --json --moves \"e4 e5\"\n"
         "  arbiter dead --batch positions.txt > verdicts.jsonl"},
        {"serve",
         "  arbiter serve --journal hall.arbiter            # then open http://127.0.0.1:8080/\n"
         "  arbiter serve --journal hall.arbiter --listen 127.0.0.1:0\n"
         "  arbiter serve --journal hall.arbiter --listen 0.0.0.0:8443 --token-file token.txt --tls-cert hall.crt "
         "--tls-key hall.key"},
        {"watch",
         "  arbiter watch round3.pgn                      # one JSON line per alert, until interrupted\n"
         "  arbiter watch --state hall.watch --interval-ms 500 /srv/livechess/round3/\n"
         "  arbiter watch --once --rules fide-2023 http://127.0.0.1:1982/round3.pgn\n"
         "  arbiter watch --state hall.watch --stream https://relay.example/round3.pgn"},
        {"audit",
         "  arbiter audit games.pgn > findings.jsonl\n"
         "  arbiter audit --format summary --threads 4 lichess_db.pgn.zst\n"
         "  arbiter audit --format csv -o findings.csv a.pgn b.pgn.gz"},
        {"session",
         "  arbiter session new --journal hall.arbiter --white Ann --black Bob --time-control 5400+30\n"
         "  arbiter session event --journal hall.arbiter 1 '{\"type\":\"move\",\"move\":\"e4\",\"at_ms\":1000}'\n"
         "  arbiter session show --journal hall.arbiter 1"},
        {"session new",
         "  arbiter session new --journal hall.arbiter\n"
         "  arbiter session new --journal hall.arbiter --rules uscf --time-category rapid "
         "--time-control 1500+10"},
        {"session event",
         "  arbiter session event --journal hall.arbiter 1 '{\"type\":\"move\",\"move\":\"e4\",\"at_ms\":1000}'\n"
         "  arbiter session event --journal hall.arbiter 1 "
         "'{\"type\":\"claim\",\"kind\":\"threefold\",\"at_ms\":9000}'\n"
         "  arbiter session event --journal hall.arbiter 1 - < game-events.jsonl"},
        {"session import",
         "  arbiter session import --journal hall.arbiter --pgn round3.pgn --game 17\n"
         "  arbiter session import --json --journal hall.arbiter --pgn game.pgn --rules fide-2023"},
        {"session show",
         "  arbiter session show --journal hall.arbiter 1\n  arbiter session show --json --journal hall.arbiter 1"},
        {"session export",
         "  arbiter session export --journal hall.arbiter 1 > game.pgn\n"
         "  arbiter session export --json --journal hall.arbiter 1"},
        {"session list", "  arbiter session list --journal hall.arbiter"},
        {"session verify",
         "  arbiter session verify --journal hall.arbiter\n"
         "  arbiter session verify --journal hall.arbiter --head 3f2a…(the head printed on an export)"},
        {"session delete", "  arbiter session delete --journal hall.arbiter 7 --by chief"},
        {"users",
         "  arbiter users add --journal hall.arbiter --name deputy1 --role arbiter --sections \"Open A\"\n"
         "  arbiter users list --journal hall.arbiter\n"
         "  arbiter users revoke --journal hall.arbiter --name deputy1"},
        {"users add",
         "  arbiter users add --journal hall.arbiter --name chief --role chief > chief.token\n"
         "  arbiter users add --journal hall.arbiter --name screen --role viewer\n"
         "  arbiter users add --journal hall.arbiter --name deputy2 --role arbiter --boards 1-10,12"},
        {"users list",
         "  arbiter users list --journal hall.arbiter\n  arbiter users list --json --journal hall.arbiter"},
        {"users revoke", "  arbiter users revoke --journal hall.arbiter --name deputy1"},
        {"help", "  arbiter help\n  arbiter help session event"},
        {"completion",
         "  arbiter completion bash > ~/.local/share/bash-completion/completions/arbiter\n"
         "  source <(arbiter completion bash)"},
    };
    return table;
}

/// "session event" for that subcommand, "" for the top level.
std::string path_of(const CLI::App* app) {
    std::string path;
    for (const CLI::App* a = app; a && a->get_parent(); a = a->get_parent())
        path = path.empty() ? a->get_name() : a->get_name() + " " + path;
    return path;
}

std::vector<CLI::App*> subcommands_of(CLI::App& app) {
    return app.get_subcommands([](CLI::App*) { return true; });
}

/// Levenshtein distance, for "did you mean".
std::size_t distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

std::string names_of(CLI::App& app) {
    std::string out;
    for (CLI::App* sub : subcommands_of(app)) out += (out.empty() ? "" : ", ") + sub->get_name();
    return out;
}

/// Finishes one command and its subcommands: examples and exit codes as the footer, --version.
void finish(CLI::App& app, const std::string& version) {
    const std::string path = path_of(&app);
    std::string footer = app.get_footer();  // a command's own (session event: the event types)
    if (!footer.empty()) footer += "\n";
    if (const auto it = examples().find(path); it != examples().end()) footer += "Examples:\n" + it->second + "\n\n";
    if (!subcommands_of(app).empty())
        footer += "'arbiter help " + (path.empty() ? std::string("CMD") : path + " CMD") +
                  "' (or CMD --help) shows the options of CMD.\n";
    app.footer(footer + exit_codes);
    if (app.get_parent()) app.set_version_flag("--version", version);
    for (CLI::App* sub : subcommands_of(app)) finish(*sub, version);
}

// --- bash completion ---------------------------------------------------------------------------

/// The fixed values an option takes, for completion (empty: files).
std::string values_of(const CLI::Option* opt) {
    const std::string name = opt->get_name(false, true);
    const auto words = [](const auto& names) {
        std::string out;
        for (const auto& n : names) out += (out.empty() ? "" : " ") + std::string(n);
        return out;
    };
    if (name == "--format") return words(EnumNames<AuditFormat>::names);  // audit/audit_output.hpp
    if (name == "--side") return words(request_option("side").choices);   // the operations' table
    const RuleOptionSpec* spec = find_rule_flag(name);
    if (!spec || !spec->words) return {};
    return (name == "--rules" ? "auto " : "") + spec->words();
}

/// A flag takes no value; an option does (CLI11 gives a flag no expected items).
bool takes_value(const CLI::Option* opt) { return opt->get_items_expected_max() > 0; }

void completion_cases(CLI::App& app, std::ostream& out) {
    const std::string path = path_of(&app);
    std::string words, valued, fixed;
    for (CLI::App* sub : subcommands_of(app)) words += sub->get_name() + " ";
    for (const CLI::Option* opt : app.get_options()) {
        if (!opt->nonpositional()) continue;
        for (const auto& l : opt->get_lnames()) {
            words += "--" + l + " ";
            if (takes_value(opt)) {
                valued += "--" + l + "|";
                const std::string v = values_of(opt);
                if (!v.empty())
                    fixed += "        --" + l + ") COMPREPLY=($(compgen -W \"" + v + "\" -- \"$cur\")); return;;\n";
            }
        }
        for (const auto& s : opt->get_snames()) {
            words += "-" + s + " ";
            if (takes_value(opt)) valued += "-" + s + "|";
        }
    }
    out << "    \"" << path << "\")\n";
    if (!fixed.empty() || !valued.empty()) {
        out << "      case \"$prev\" in\n" << fixed;
        if (!valued.empty()) {
            valued.pop_back();
            out << "        " << valued << ") COMPREPLY=($(compgen -f -- \"$cur\")); return;;\n";
        }
        out << "      esac\n";
    }
    out << "      if [[ \"$cur\" == -* || -z \"$files\" ]]; then COMPREPLY=($(compgen -W \"" << words
        << "\" -- \"$cur\")); else COMPREPLY=($(compgen -f -- \"$cur\")); fi;;\n";
    for (CLI::App* sub : subcommands_of(app)) completion_cases(*sub, out);
}

/// The script: the subcommand path from the words typed, then per path its options and
/// subcommands, the fixed values of some options, files for the others and for positional files.
void print_completion(CLI::App& root, std::ostream& out) {
    std::string with_files;
    std::vector<CLI::App*> todo{&root};
    while (!todo.empty()) {
        CLI::App* a = todo.back();
        todo.pop_back();
        // Positional files: the commands whose positional is named "files" (audit).
        for (const CLI::Option* opt : a->get_options())
            if (!opt->nonpositional() && opt->get_name() == "files") with_files += "\"" + path_of(a) + "\"|";
        for (CLI::App* sub : subcommands_of(*a)) todo.push_back(sub);
    }
    out << "# bash completion for arbiter, generated by `arbiter completion bash` from the command definitions.\n"
           "_arbiter() {\n"
           "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} path=\"\" i w files=\"\"\n"
           "  # The subcommand path: the words before the cursor that name subcommands.\n"
           "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
           "    w=${COMP_WORDS[i]}\n"
           "    case \"${path:+$path }$w\" in\n";
    std::vector<CLI::App*> all;
    todo = {&root};
    while (!todo.empty()) {
        CLI::App* a = todo.back();
        todo.pop_back();
        for (CLI::App* sub : subcommands_of(*a)) {
            all.push_back(sub);
            todo.push_back(sub);
        }
    }
    std::string paths;
    for (CLI::App* a : all) paths += "\"" + path_of(a) + "\"|";
    paths.pop_back();
    out << "      " << paths << ") path=\"${path:+$path }$w\";;\n"
        << "    esac\n"
           "  done\n";
    if (!with_files.empty()) {
        with_files.pop_back();
        out << "  case \"$path\" in " << with_files << ") files=1;; esac\n";
    }
    out << "  case \"$path\" in\n";
    completion_cases(root, out);
    out << "  esac\n"
           "}\n"
           "complete -o filenames -F _arbiter arbiter\n";
}

// `arbiter help --operations`: the face core's table of operations, as a table or as JSON.
void print_operations(bool json, std::ostream& out) {
    const Json ops = operations_json();
    if (json) {
        out << dump(ops) << '\n';
        return;
    }
    const auto cell = [](const Json& j) { return j.is_null() ? std::string("-") : j.get<std::string>(); };
    std::vector<std::array<std::string, 5>> rows = {{"OPERATION", "COMMAND", "SERVICE", "PYTHON", "JAVASCRIPT"}};
    for (const Json& o : ops)
        rows.push_back({o["name"].get<std::string>(), cell(o["cli"]), cell(o["service"]), cell(o["python"]),
                        cell(o["javascript"])});
    std::array<std::size_t, 5> width{};
    for (const auto& r : rows)
        for (std::size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
    for (const auto& r : rows) {
        std::string line;
        for (std::size_t i = 0; i < r.size(); ++i)
            line += r[i] + (i + 1 < r.size() ? std::string(width[i] - r[i].size() + 2, ' ') : "");
        out << line << '\n';
    }
    out << "\nPython and JavaScript reach every operation on a position by request(NAME) too.\n";
}

}  // namespace

void add_help(CLI::App& app) {
    auto* help = app.add_subcommand("help", "Show the options of a command: arbiter help [CMD [SUBCMD]]");
    auto words = std::make_shared<std::vector<std::string>>();
    help->add_option("command", *words, "The command (and subcommand) to describe");
    auto operations = std::make_shared<bool>(false);
    auto json = std::make_shared<bool>(false);
    help->add_flag("--operations", *operations,
                   "List every operation and how each face reaches it: the command, the service's route, the names "
                   "in Python and JavaScript");
    help->add_flag("--json", *json, "With --operations: the list as JSON");
    help->callback([&app, words, operations, json] {
        if (*json && !*operations)
            throw InputError(Code::bad_usage, "help: --json is an option of --operations", "json");
        if (*operations) {
            if (!words->empty()) throw InputError(Code::bad_usage, "help: --operations takes no command", "operations");
            print_operations(*json, std::cout);
            return;
        }
        CLI::App* target = &app;
        for (const std::string& w : *words) {
            CLI::App* next = nullptr;
            for (CLI::App* sub : subcommands_of(*target))
                if (sub->get_name() == w) next = sub;
            if (!next) throw InputError(unknown_subcommand(*target, w));
            target = next;
        }
        // The formatter directly: App::help() would describe the parsed `help` command instead.
        const std::string parent = target->get_parent() ? path_of(target->get_parent()) : "";
        const std::string prev =
            target == &app ? "arbiter" : "arbiter" + (parent.empty() ? "" : " " + parent) + " " + target->get_name();
        std::cout << target->get_formatter()->make_help(target, prev, CLI::AppFormatMode::Normal);
    });
    auto* completion = app.add_subcommand("completion", "Print a shell completion script: arbiter completion bash");
    auto shell = std::make_shared<std::string>();
    completion->add_option("shell", *shell, "The shell (bash)")->required();
    completion->callback([&app, shell] {
        if (*shell != "bash") throw InputError("completion: only bash is supported, found '" + printable(*shell) + "'");
        print_completion(app, std::cout);
    });
}

void finish_commands(CLI::App& app, const std::string& version) { finish(app, version); }

std::string unknown_subcommand(CLI::App& app, std::string_view word) {
    const std::string path = path_of(&app);
    std::string best;
    std::size_t best_d = 3;  // suggest only close names
    for (CLI::App* sub : subcommands_of(app)) {
        const std::size_t d = distance(word, sub->get_name());
        const bool prefix = !word.empty() && sub->get_name().starts_with(word);
        if (prefix || d < best_d) best = sub->get_name(), best_d = prefix ? 0 : d;
    }
    std::string msg = "'" + printable(word) + "' is not a command of arbiter" + (path.empty() ? "" : " " + path);
    if (!best.empty()) msg += "; did you mean '" + best + "'?";
    return msg + " (commands: " + names_of(app) + "; 'arbiter help" + (path.empty() ? "" : " " + path) + "' for more)";
}

std::string missing_subcommand(CLI::App& app) {
    const std::string path = path_of(&app);
    return "arbiter" + (path.empty() ? "" : " " + path) + " needs a command: " + names_of(app) + " ('arbiter help" +
           (path.empty() ? "" : " " + path) + "' for more)";
}

std::optional<std::string> check_subcommand_words(CLI::App& app, int argc, char** argv) {
    CLI::App* at = &app;
    for (int i = 1; i <= argc; ++i) {
        const auto subs = subcommands_of(*at);
        if (subs.empty()) return std::nullopt;
        if (i == argc) return missing_subcommand(*at);
        const std::string_view w = argv[i];
        if (w.starts_with("-")) return std::nullopt;  // --help, --version: CLI11's own
        CLI::App* next = nullptr;
        for (CLI::App* sub : subs)
            if (sub->get_name() == w) next = sub;
        if (!next) return unknown_subcommand(*at, w);
        at = next;
    }
    return std::nullopt;
}

}  // namespace arbiter::cli
