// main.cpp — entry point of the `arbiter` command-line tool: registers the subcommands, maps
// errors to exit statuses (0 done, 2 bad usage or input, 1 internal failure) and checks at exit
// that standard output was written (a full disk or a write error is exit 1 with the reason; a
// closed pipe ends the process quietly by SIGPIPE, as for any Unix filter).
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "cli.hpp"

namespace arbiter::cli {

Position fen_or_throw(const std::string& fen) {
    FenReadOptions options;
    options.tolerant = true;
    auto pos = position_from_fen(fen, options);
    if (!pos) throw InputError(pos.error().describe());
    // Missing counters are common and harmless; a missing castling field silently drops rights.
    std::size_t fields = 0;
    for (std::size_t i = 0; i < fen.size();) {
        i = fen.find_first_not_of(" \t", i);
        if (i == std::string::npos) break;
        ++fields;
        i = fen.find_first_of(" \t", i);
    }
    if (fields < 3)
        std::cerr << "arbiter: warning: the FEN has no castling field; read as '-' (no castling rights) and no en "
                     "passant square\n";
    return *pos;
}

CLI::Validator whole_number(long long lo, long long hi) {
    const std::string range = std::to_string(lo) + " to " + std::to_string(hi);
    return CLI::Validator(
        [lo, hi, range](std::string& text) -> std::string {
            long long v = 0;
            const char* end = text.data() + text.size();
            const auto r = std::from_chars(text.data(), end, v);
            if (text.empty() || r.ptr != end || r.ec == std::errc::invalid_argument)
                return "'" + printable(text) + "' is not a whole number (expected " + range + ")";
            if (r.ec == std::errc::result_out_of_range || v < lo || v > hi)
                return printable(text) + " is out of range: " + range;
            return "";
        },
        range);
}

}  // namespace arbiter::cli

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
