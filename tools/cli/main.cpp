// main.cpp — entry point of the `arbiter` command-line tool: registers the subcommands and maps
// errors to exit statuses (0 done, 2 bad usage or input, 1 internal failure).
#include <iostream>

#include "cli.hpp"

namespace arbiter::cli {

Position fen_or_throw(const std::string& fen) {
    FenReadOptions options;
    options.tolerant = true;
    auto pos = position_from_fen(fen, options);
    if (!pos) throw InputError(pos.error().describe());
    return *pos;
}

}  // namespace arbiter::cli

int main(int argc, char** argv) {
    using namespace arbiter::cli;
    CLI::App app{"arbiter — the draw rules of chess, exactly"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "arbiter 0.1.0");
    add_perft(app);
    add_moves(app);
    add_status(app);
    add_claim(app);
    add_session(app);
    add_audit(app);
    add_dead(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "arbiter: " << e.what() << '\n';
        return 2;
    } catch (const InputError& e) {
        std::cerr << "arbiter: " << e.what() << '\n';
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "arbiter: internal error: " << e.what() << '\n';
        return 1;
    }
    return 0;
}
