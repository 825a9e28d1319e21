// main.cpp — entry point of the `arbiter` command-line tool: registers the subcommands, maps
// errors to exit statuses (0 done, 2 bad usage or input, 1 internal failure) and checks at exit
// that standard output was written (a full disk or a write error is exit 1 with the reason; a
// closed pipe ends the process quietly by SIGPIPE, as for any Unix filter).
//
// Built twice (CMakeLists.txt): `arbiter-full` (ARBITER_CLI_FULL) with every command, and
// `arbiter` with the commands that need neither SQLite nor HTTP nor TLS, which hands any other
// command line, unchanged, to arbiter-full beside it (docs/design.md, "Two programs").
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "cli.hpp"
#include "json/json.hpp"

namespace {

// Flushes standard output; false (errno set, when known) when a write failed.
bool stdout_written() {
    std::cout.flush();
    const bool flushed = std::fflush(stdout) == 0;
    return flushed && !std::ferror(stdout) && !std::cout.fail();
}

// True when the command line asks for JSON (--json, or `session event`, whose output is JSON):
// then an error is also written to stdout as {"error":{"code","message","field"?,"offset"?}}.
bool json_wanted(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (std::string_view(argv[i]) == "--json") return true;
    return argc > 2 && std::string_view(argv[1]) == "session" && std::string_view(argv[2]) == "event";
}

bool json_errors = false;

// The line on stderr, and under JSON the error object on stdout; returns the exit status.
int report(const char* prefix, std::string_view message, int status, arbiter::face::Code code,
           const arbiter::cli::InputError* e = nullptr) {
    using namespace arbiter::cli;
    if (json_errors && !(e && e->reported())) {
        const Json j{{"error", e ? error_json(e->code(), printable(message), e->field(), e->offset())
                                 : error_json(arbiter::face::name_of(code),
                                              printable(std::string(prefix) + std::string(message)))}};
        std::cout << dump(j) << '\n';
    }
    std::cout.flush();
    std::cerr << "arbiter: " << prefix << printable(message) << '\n';
    return status;
}

#if !defined(ARBITER_CLI_FULL)
// The commands this program answers itself (each registered by its add_*), and those only
// arbiter-full has.
using Add = void (*)(CLI::App&);
constexpr std::pair<std::string_view, Add> own_commands[] = {
    {"perft", arbiter::cli::add_perft}, {"moves", arbiter::cli::add_moves}, {"status", arbiter::cli::add_status},
    {"claim", arbiter::cli::add_claim}, {"audit", arbiter::cli::add_audit}, {"dead", arbiter::cli::add_dead},
    {"play", arbiter::cli::add_play}};
constexpr std::string_view full_only_commands[] = {"session", "users", "serve", "watch", "completion"};

// The command of this command line that this program answers ("help CMD" answers CMD's help),
// or nothing.
std::optional<Add> answered_here(int argc, char** argv) {
    if (argc < 2) return std::nullopt;
    const std::string_view first = argv[1];
    const std::string_view word = first == "help" && argc == 3 ? std::string_view(argv[2]) : first;
    for (const auto& [name, add] : own_commands)
        if (word == name && (word == first || argc == 3)) return add;
    return std::nullopt;
}

// Where arbiter-full is: beside this program (the build folder, or the installed bin/).
std::string full_program(const char* argv0) {
    std::string self(4096, '\0');
    const ssize_t n = ::readlink("/proc/self/exe", self.data(), self.size() - 1);
    if (n > 0)
        self.resize(static_cast<std::size_t>(n));
    else
        self = argv0;
    const auto slash = self.rfind('/');
    return (slash == std::string::npos ? std::string() : self.substr(0, slash + 1)) + "arbiter-full";
}

// Hands the command line to arbiter-full. Returns only when it cannot be run: then the commands
// answered here still are (with the list of commands this program has), and any other is an
// internal failure that says where arbiter-full was looked for.
std::optional<int> hand_over(int argc, char** argv) {
    const std::string full = full_program(argv[0]);
    ::execv(full.c_str(), argv);
    const int err = errno;
    const std::string_view first = argc >= 2 ? argv[1] : "";
    for (std::string_view c : full_only_commands)
        if (first == c)
            return report("",
                          "'" + std::string(c) +
                              "' is a command of arbiter-full, which should be installed beside arbiter (" + full +
                              ": " + std::strerror(err) + ")",
                          1, arbiter::face::Code::internal);
    return std::nullopt;
}
#endif

}  // namespace

int main(int argc, char** argv) {
    using namespace arbiter::cli;
    CLI::App app{"arbiter — the draw rules of chess, exactly"};
    app.require_subcommand(1);
#if defined(ARBITER_CLI_FULL)
    add_perft(app);
    add_moves(app);
    add_play(app);
    add_status(app);
    add_claim(app);
    add_session(app);
    add_users(app);
    add_audit(app);
    add_dead(app);
    add_serve(app);
    add_watch(app);
#else
    json_errors = json_wanted(argc, argv);  // (for a hand-over that fails)
    const std::optional<Add> here = answered_here(argc, argv);
    if (!here)
        if (auto status = hand_over(argc, argv)) return *status;
    // The command asked is the only one registered (building every command's options was most
    // of the start-up's own time); without arbiter-full, all of this program's.
    for (const auto& [name, add] : own_commands)
        if (!here || *here == add) add(app);
#endif
    add_help(app);
    const std::string version = std::string("arbiter ") + std::string(arbiter::version);
    app.set_version_flag("--version", version);
    finish_commands(app, version);
    json_errors = json_wanted(argc, argv);
    arbiter::face::warning_sink() = [](std::string_view w) {
        std::cerr << "arbiter: warning: " << arbiter::face::printable(w) << '\n';
    };
    if (auto problem = check_subcommand_words(app, argc, argv))
        return report("", *problem, 2, arbiter::face::Code::bad_usage);
    int status = 0;
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        status = app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        status = app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        status = app.exit(e);
    } catch (const CLI::ValidationError& e) {
        // A value refused by an option's check ("--limit: 0 is out of range …"): bad_value, the
        // option's parameter as the field, as the service, Python and JavaScript name it.
        const std::string_view what = e.what();
        const std::size_t colon = what.find(": ");
        const std::string field =
            colon == std::string_view::npos ? std::string() : arbiter::face::parameter_of_flag(what.substr(0, colon));
        const arbiter::cli::InputError refused(arbiter::face::Code::bad_value, std::string(what), field);
        return report("", refused.message(), 2, arbiter::face::Code::bad_value, &refused);
    } catch (const CLI::ParseError& e) {
        return report("", e.what(), 2, arbiter::face::Code::bad_usage);
    } catch (...) {
        const InputError e = arbiter::face::refusal_of(std::current_exception());
        const bool internal =
            e.face_code() == arbiter::face::Code::internal && e.family() == arbiter::face::CodeFamily::face;
        return report(internal ? "internal error: " : "", e.message(), e.status(), e.face_code(), &e);
    }
    if (!stdout_written()) {
        const int err = errno;
        if (err == EPIPE) return 141;  // the reader went away (SIGPIPE ignored): quietly, as 128 + SIGPIPE
        std::cerr << "arbiter: cannot write standard output: " << (err ? std::strerror(err) : "write error") << '\n';
        return 1;
    }
    return status;
}
