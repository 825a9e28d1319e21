// cmd_dead.cpp — `arbiter dead`: can a side still checkmate by any series of legal moves (FIDE
// 5.2.2 dead position, 6.9 flag fall, 5.1.2 resignation), for one position or a batch.
//
//   arbiter dead [--side white|black|both] [--limit N] [--quick|--fast] [--json] --fen FEN
//   arbiter dead --batch FILE|- [--side …] [--limit N] [--quick|--fast]
//
// --fast asks the sound fast check alone (FastUnwinnability): cannot_checkmate with a proof,
// unknown otherwise, in about a microsecond; the JSON has the same keys, "proof" naming what
// proved it.
//
// Batch input (plain or compressed, recognised by content): one position a line, `FEN [SIDE]
// [ID…]` — the FEN may omit its counters, SIDE is white, black or both, and any further fields
// (a game id, as in the project's data files) are echoed back as "id". Blank lines and lines
// starting with '#' are skipped; a line is at most 4096 bytes. Output: one JSON object a line, in
// input order, each with its "line" number; a bad line gives {"line": N, "error": {"code": …,
// "message": …}} and the batch carries on; the exit status is 2 when a line failed. The batch
// itself is the face core's (face_core/requests/dead_batch.hpp); this file reads the options.
#include <iostream>
#include <optional>
#include <sstream>

#include "arbiter/input.hpp"
#include "cli.hpp"
#include "game_options.hpp"
#include "requests/dead_batch.hpp"
#include "requests/dead_json.hpp"
#include "requests/position_requests.hpp"

namespace arbiter::cli {
namespace {

using Answer = DeadAnswer;

struct DeadOptions {
    std::string fen;
    std::string batch;
    bool timing = false;
    bool json = false;
};

/// "1. e4 g5 2. Nc3 f6 3. Qh5#", numbered from the position's move number.
std::string numbered(const Position& pos, const std::vector<std::string>& san) {
    std::ostringstream out;
    std::uint32_t number = pos.fullmove_number();
    bool white = pos.turn() == Color::white;
    for (std::size_t i = 0; i < san.size(); ++i) {
        if (i) out << ' ';
        if (white)
            out << number << ". ";
        else if (i == 0)
            out << number << "... ";
        out << san[i];
        if (!white) ++number;
        white = !white;
    }
    return out.str();
}

void print_human(const Position& pos, const std::vector<Answer>& answers) {
    std::cout << "position: " << to_fen(pos) << '\n';
    for (const Answer& a : answers) {
        std::cout << name(a.side) << ": ";
        switch (a.verdict.answer) {
            case MateAbility::can_checkmate:
                std::cout << "can checkmate";
                if (!a.san.empty())
                    std::cout << ", for example " << numbered(pos, a.san);
                else
                    std::cout << " (" << a.verdict.reason << ")";
                break;
            case MateAbility::cannot_checkmate: std::cout << "cannot checkmate (" << a.verdict.reason << ")"; break;
            case MateAbility::unknown:
                std::cout << "unknown (" << a.verdict.reason << ", " << a.verdict.nodes << " positions searched)";
                break;
        }
        std::cout << '\n';
    }
    const auto dead = dead_of(answers);
    if (dead) std::cout << "dead position: " << (*dead ? "yes, neither side can checkmate (5.2.2)" : "no") << '\n';
}

}  // namespace

void add_dead(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "dead", "Can a side still checkmate by any series of legal moves? (dead position 5.2.2, flag fall 6.9)");
    auto opt = std::make_shared<DeadOptions>();
    cmd->add_option("--fen", opt->fen,
                    "The position (counters may be omitted; a composed position is accepted); with --moves, the "
                    "moves are played from it");
    auto position = std::make_shared<GameInput>();
    add_position_options(*cmd, *position, false);
    cmd->add_option("--batch", opt->batch,
                    "Analyse many positions: a file (plain, .gz, .bz2 or .zst), or - for stdin; one `FEN "
                    "[white|black|both] [ID…]` a line (at most 4096 bytes)");
    auto options = std::make_shared<Json>(Json::object());  // side, limit, quick, fast: the core's table
    add_request_options(*cmd, "dead", options);
    cmd->add_flag("--json", opt->json, "Machine output (batch mode always writes JSON lines)");
    cmd->add_flag("--timing", opt->timing, "Add the analysis time of each side (\"microseconds\") to the JSON");
    cmd->callback([opt, position, options] {
        const bool game = !position->moves.empty() || !position->pgn.empty();
        if (game && !opt->batch.empty()) throw InputError("dead: --batch cannot be combined with --moves or --pgn");
        if (!game && opt->fen.empty() == opt->batch.empty())
            throw InputError("dead: give a position (--fen, --moves or --pgn) or --batch FILE");
        DeadRequest request = dead_request(*options);  // as the registry reads a dead request
        request.timing = opt->timing;
        if (!opt->batch.empty()) {
            const HelpmateAnalyzer analyzer(request.options());
            auto src = open_input(opt->batch);
            if (!src) throw InputError("dead --batch: " + src.error().describe());
            return dead_batch(analyzer, **src, request.side, request.timing, std::cout);
        }
        // The face core's answer (dead_result, as the service, Python and JavaScript ask it).
        position->fen = opt->fen;
        position->fen_given = !opt->fen.empty();
        const DeadResult r = dead_result(*position, request);
        if (opt->json)
            std::cout << dump(dead_json(r.position, r.answers, request.timing)) << '\n';
        else
            print_human(r.position, r.answers);
    });
}

}  // namespace arbiter::cli
