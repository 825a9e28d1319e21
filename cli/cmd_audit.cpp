// cmd_audit.cpp — `arbiter audit`: its options, checked, and the run of the face core's audit
// pipeline (face_core/audit/audit_pipeline.hpp) into standard output or a report file.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <new>
#include <optional>
#include <thread>

#include "audit/audit_pipeline.hpp"
#include "audit/audit_request.hpp"
#include "audit/output_file.hpp"
#include "cli.hpp"
#include "game_options.hpp"

namespace arbiter::cli {

void add_audit(CLI::App& app) {
    auto* cmd =
        app.add_subcommand("audit", "Audit PGN games against the draw rules (files, '-' for stdin, compressed or not)");
    struct Options {
        std::vector<std::string> files;
        std::string rules = "auto";
        unsigned threads = 0;
        std::string format = "jsonl";
        std::string output;
        std::string pgn_out;
        std::vector<std::string> only, select;
        bool quiet = false;
        bool json = false;
        bool exact = false;
        std::string time_category;
        std::size_t batch_bytes = 1 << 20;
        std::uint32_t max_plies = pgn::ReaderOptions{}.max_game_plies;
    };
    auto o = std::make_shared<Options>();
    cmd->add_option("files", o->files,
                    "PGN files ('-' = standard input; zstd, gzip and bzip2 are decompressed, detected by content)")
        ->required();
    cmd->add_option("--rules", o->rules,
                    "A rule set for every game, or auto (default: from each game's Date and Site tags)");
    cmd->add_option("-j,--threads", o->threads, "Worker threads (default: all cores)");
    cmd->add_option("--format", o->format,
                    "jsonl (default: one object per game), csv (one row per finding) or summary");
    cmd->add_option("-o,--output", o->output, "Write to this file instead of standard output");
    cmd->add_option("--pgn-out", o->pgn_out,
                    "Also write the games with findings to this file as PGN, each finding a comment at its ply");
    cmd->add_option("--only", o->only,
                    "Report only these findings: types or kinds, comma-separated (e.g. timeout_unwinnable,threefold)")
        ->allow_extra_args(false);  // one value per --only: the files follow
    cmd->add_option("--select", o->select,
                    "Audit only the games whose tag has this value: TAG=VALUE, exact (repeat: all must hold)")
        ->allow_extra_args(false);
    cmd->add_option("--time-category", o->time_category,
                    enum_name_list<TimeCategory>() + " for every game (default: from each game's TimeControl tag)");
    cmd->add_flag("-q,--quiet", o->quiet, "No progress line on stderr");
    cmd->add_flag("--exact", o->exact,
                  "Dead positions: the full analysis of every game's final position (default: of the closed "
                  "ones only, which finds most dead positions at a fraction of the cost; docs/unwinnability.md)");
    cmd->add_option("--max-plies", o->max_plies,
                    "Mainline plies a game may have; a longer one is the error game_too_long (default 18000: "
                    "FIDE 9.6.2 ends every game within 17,697)")
        ->check(CLI::Range(std::uint32_t{1}, std::uint32_t{100'000'000}));
    cmd->add_option("--batch-bytes", o->batch_bytes, "Approximate bytes of PGN per unit of work (tests)")
        ->group("")
        ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 30));
    cmd->add_flag("--json", o->json, "With --format summary: the summary as one JSON object");
    auto rule_in = std::make_shared<RuleInput>();  // the rule options of status and claim
    add_rule_options(*cmd, *rule_in);
    cmd->callback([o, rule_in] {
        AuditConfig cfg;
        const AuditRequest request{o->rules, o->time_category, o->exact, o->only, o->select, *rule_in};
        cfg.options = request.options();
        cfg.filter = request.filter();
        cfg.files = o->files;
        cfg.batch_bytes = o->batch_bytes;
        cfg.max_plies = o->max_plies;
        cfg.pgn_out = !o->pgn_out.empty();
        const auto format = parse_enum<AuditFormat>(o->format);
        if (!format)
            throw InputError("--format: expected " + enum_name_list<AuditFormat>() + ", found '" + o->format + "'");
        cfg.format = *format;
        if (o->json && cfg.format != AuditFormat::summary)
            throw InputError("--json applies only with --format summary (--format " + o->format +
                             " is already machine-readable)");
        unsigned threads = o->threads ? o->threads : std::max(1u, std::thread::hardware_concurrency());
        if (threads > max_audit_threads) throw InputError("--threads: at most " + std::to_string(max_audit_threads));
        if (cfg.pgn_out && !o->output.empty()) {
            std::error_code ec1, ec2;
            const auto a = std::filesystem::weakly_canonical(o->output, ec1);
            const auto b = std::filesystem::weakly_canonical(o->pgn_out, ec2);
            if (o->output == o->pgn_out || (!ec1 && !ec2 && a == b))
                throw InputError("--pgn-out '" + o->pgn_out + "' is also --output: name two files");
        }
        std::optional<OutputFile> file, pgn_file;
        if (!o->output.empty()) file.emplace(o->output, cfg.files);
        if (cfg.pgn_out) pgn_file.emplace(o->pgn_out, cfg.files);
        std::ostream& out = file ? file->stream() : std::cout;
        const bool progress = !o->quiet && isatty(STDERR_FILENO);
        AuditPipeline pipeline(cfg, out, pgn_file ? &pgn_file->stream() : nullptr, threads, progress);
        bool ok = false;
        const std::string written = file ? "'" + o->output + "'" : std::string("standard output");
        try {
            ok = pipeline.run();
            // Nothing to report: an error, with nothing on stdout and no --output or --pgn-out file.
            if (pipeline.no_games()) throw InputError(std::string(no_games_message));
            if (cfg.format == AuditFormat::summary)
                print_summary(out, pipeline.counts(), pipeline.seconds(), pipeline.bytes(), o->json);
            out.flush();
            if (!out) throw OutputFailed{errno};
        } catch (const std::bad_alloc&) {
            // From any thread of the pipeline (carried to this one): exit 1 with a message.
            throw InputError("out of memory while auditing (fewer --threads or a smaller --batch-bytes need less)", 1);
        } catch (const OutputFailed& e) {
            throw InputError("cannot write " + (e.pgn ? "'" + o->pgn_out + "'" : written) + ": " +
                                 (e.error ? std::strerror(e.error) : "write error"),
                             1);
        }
        if (file) file->commit();
        if (pgn_file) pgn_file->commit();
        if (!ok) throw InputError("some input could not be read to its end (see above)");
        if (pipeline.no_games()) throw InputError(std::string(no_games_message));
        if (pipeline.counts().games == 0)
            std::cerr << "arbiter: no game has the tags --select asks for (" << pipeline.games_read()
                      << " games read)\n";
        // The report went to a file: one line at the end for the person at the terminal.
        if (file && !o->quiet && isatty(STDERR_FILENO)) {
            std::cerr << summary_line(pipeline.counts(), pipeline.seconds()) << "; report in '" << o->output << "'";
            if (pgn_file) std::cerr << "; " << pipeline.pgn_games() << " games in '" << o->pgn_out << "'";
            std::cerr << '\n';
        }
    });
}

}  // namespace arbiter::cli
