// main.cpp — entry point of the `arbiter` command-line tool: registers the subcommands, maps
// errors to exit statuses (0 done, 2 bad usage or input, 1 internal failure) and checks at exit
// that standard output was written (a full disk or a write error is exit 1 with the reason; a
// closed pipe ends the process quietly by SIGPIPE, as for any Unix filter).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "cli.hpp"

namespace {

// Flushes standard output; false (errno set, when known) when a write failed.
bool stdout_written() {
    std::cout.flush();
    const bool flushed = std::fflush(stdout) == 0;
    return flushed && !std::ferror(stdout) && !std::cout.fail();
}

int report(const char* prefix, std::string_view message, int status) {
    std::cout.flush();
    std::cerr << "arbiter: " << prefix << arbiter::cli::printable(message) << '\n';
    return status;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace arbiter::cli;
    CLI::App app{"arbiter — the draw rules of chess, exactly"};
    app.require_subcommand(1);
    add_perft(app);
    add_moves(app);
    add_status(app);
    add_claim(app);
    add_session(app);
    add_audit(app);
    add_dead(app);
    add_help(app);
    const std::string version = std::string("arbiter ") + std::string(arbiter::version);
    app.set_version_flag("--version", version);
    finish_commands(app, version);
    if (auto problem = check_subcommand_words(app, argc, argv)) return report("", *problem, 2);
    int status = 0;
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        status = app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        status = app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        status = app.exit(e);
    } catch (const CLI::ParseError& e) {
        return report("", e.what(), 2);
    } catch (const InputError& e) {
        return report("", e.message(), e.status());
    } catch (const std::bad_alloc&) {
        return report("", "out of memory", 1);
    } catch (const std::exception& e) {
        return report("internal error: ", e.what(), 1);
    }
    if (!stdout_written()) {
        const int err = errno;
        if (err == EPIPE) return 141;  // the reader went away (SIGPIPE ignored): quietly, as 128 + SIGPIPE
        std::cerr << "arbiter: cannot write standard output: " << (err ? std::strerror(err) : "write error") << '\n';
        return 1;
    }
    return status;
}
