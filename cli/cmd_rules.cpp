// cmd_rules.cpp — `arbiter status` (everything draw-related about one position) and
// `arbiter claim threefold|fifty [--intended MOVE]` (a claim decided with its evidence).
#include <iostream>

#include "game_options.hpp"
#include "json/message_json.hpp"
#include "json/rules_json.hpp"
#include "requests/claim_answer.hpp"

namespace arbiter::cli {

namespace {

std::string side_name(Color c) { return c == Color::white ? "White" : "Black"; }

/// Lists for people show at most this many items, then "… and N more".
constexpr std::size_t list_limit = 12;

std::string more(std::size_t n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return "… and " + out + " more";
}

std::string join_san(const GameRecord& record, const std::vector<Move>& moves) {
    if (moves.empty()) return "none";
    std::string out;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        if (!out.empty()) out += ' ';
        if (i == list_limit) return out + more(moves.size() - i);
        out += to_san(record.current(), moves[i]);
    }
    return out;
}

void print_status(const DrawStatus& s, const GameRecord& record) {
    const RuleSet& rules = record.rules();
    const auto& art = rules.articles;
    std::cout << "Position   " << s.fen << '\n';
    std::cout << "           " << side_name(s.side_to_move) << " to move, ply " << s.ply << ", " << s.no_progress_plies
              << (s.no_progress_plies == 1 ? " ply" : " plies") << " without a pawn move or capture\n";
    std::cout << "Repetition this position has stood " << s.repetition_count
              << (s.repetition_count == 1 ? " time" : " times");
    if (!s.repetition_plies.empty()) {
        std::cout << " (";
        const auto idx = record.occurrence_indices(record.size() - 1);
        for (std::size_t i = 0; i < idx.size(); ++i) {
            if (i == list_limit) {
                std::cout << ", " << more(idx.size() - i);
                break;
            }
            std::cout << (i ? ", " : "") << record.move_label(idx[i]);
        }
        std::cout << ')';
    }
    std::cout << '\n';
    if (s.termination) {
        std::cout << "Game over  " << termination_words(s.termination->kind) << " (" << s.termination->article << "), "
                  << s.termination->result << ", after " << record.move_label(s.termination->index) << '\n';
    } else {
        std::cout << "Game over  no\n";
    }
    for (const auto& t : s.director_may_declare)
        std::cout << "Director   may declare a draw: " << termination_words(t.kind) << " (" << t.article << ")\n";
    if (s.termination) {
        // After the end there is nothing to claim (9.2, 9.3 are claims during the game).
        std::cout << "Claims     none: the game is over\n";
        std::cout << "Can mate   White " << yes_no_unknown(s.white_can_checkmate) << ", Black "
                  << yes_no_unknown(s.black_can_checkmate) << '\n';
        return;
    }
    std::cout << "Claims     under " << rules.name << " by " << side_name(s.side_to_move) << ":\n";
    std::cout << "  threefold now (" << art.threefold_now << "): " << (s.threefold.now ? "yes" : "no") << '\n';
    std::cout << "  threefold with intended move (" << art.threefold_intended << "): "
              << (s.threefold.now ? "any legal move (no move is needed)" : join_san(record, s.threefold.intended))
              << '\n';
    std::cout << "  fifty now (" << art.fifty_now << "): " << (s.fifty.now ? "yes" : "no") << '\n';
    std::cout << "  fifty with intended move (" << art.fifty_intended
              << "): " << (s.fifty.now ? "any legal move (no move is needed)" : join_san(record, s.fifty.intended))
              << '\n';
    std::cout << "Can mate   White " << yes_no_unknown(s.white_can_checkmate) << ", Black "
              << yes_no_unknown(s.black_can_checkmate) << '\n';
}

void print_claim(const ClaimVerdict& v, const GameRecord& record, const TextStyle& style) {
    std::cout << "Claim      " << claim_kind_name(v.kind) << " by " << side_name(v.claimant);
    if (v.intended) std::cout << ", intended move " << v.intended_san;
    std::cout << '\n';
    std::cout << "Ruling     " << (v.correct ? "CORRECT" : "INCORRECT") << " (" << v.article << ")\n";
    std::cout << "Reason     " << render(v.reason_message, style) << '\n';
    if (v.kind == ClaimKind::threefold) {
        if (!v.occurrences.empty()) std::cout << "Occurrences\n";
        for (std::size_t i = 0; i < v.occurrences.size(); ++i) {
            if (i == list_limit) {
                std::cout << "  " << more(v.occurrences.size() - i) << " (all of them with --json)\n";
                break;
            }
            const auto& c = v.occurrences[i];
            std::cout << "  ply " << c.ply << "  " << c.label << "  " << c.fen << '\n';
        }
        if (!v.lookalikes.empty()) std::cout << "Look the same but do not count\n";
        for (const auto& l : v.lookalikes)
            std::cout << "  ply " << l.position.ply << "  " << l.position.label << "  " << render(l.why_message, style)
                      << '\n';
    } else {
        std::cout << "Count      " << v.no_progress_plies << " of " << v.required_plies
                  << (v.required_plies == 1 ? " ply" : " plies");
        if (v.count_started)
            std::cout << ", counting from " << v.count_started->label << " (ply " << v.count_started->ply << ")";
        std::cout << '\n';
    }
    const Json p = incorrect_claim_penalty(v, record);
    if (!p.is_null()) {
        const auto minutes = [](std::int64_t ms) {
            const std::int64_t s = ms / 1000;
            return std::to_string(s / 60) + ":" + (s % 60 < 10 ? "0" : "") + std::to_string(s % 60);
        };
        std::cout << "Penalty    " << minutes(p["added_ms"].get<std::int64_t>()) << " added to "
                  << side_name(~v.claimant) << "'s clock";
        if (p["deducted_ms"].is_null()) std::cout << ", and time taken from " << side_name(v.claimant) << "'s";
        std::cout << " (" << p["article"].get<std::string>() << ")\n";
    }
}

}  // namespace

void add_status(CLI::App& app) {
    auto* cmd =
        app.add_subcommand("status", "Everything draw-related about one position: endings, repetitions, claims");
    auto in = std::make_shared<GameInput>();
    add_game_input(*cmd, *in);
    cmd->callback([in] {
        const auto record = in->build();
        const DrawStatus s = draw_status(*record);
        if (in->json) {
            std::cout << dump(to_json(s, *record)) << '\n';
        } else {
            print_status(s, *record);
        }
    });
}

void add_claim(CLI::App& app) {
    auto* cmd =
        app.add_subcommand("claim", "Decide a threefold or fifty-move claim by the side to move, with evidence");
    auto in = std::make_shared<GameInput>();
    auto kind = std::make_shared<std::string>();
    auto intended = std::make_shared<std::string>();
    cmd->add_option("kind", *kind, "threefold or fifty")->required();
    cmd->add_option("--intended", *intended, "The move written down before claiming (9.2.1 / 9.3.1), SAN or UCI");
    add_game_input(*cmd, *in);
    auto request = std::make_shared<Json>(Json::object());
    add_request_options(*cmd, "claim", request);
    cmd->callback([in, kind, intended, request] {
        const TextStyle style = command_text_style(*request);
        claim_kind_or_throw(*kind);  // before the position is read
        const auto record = in->build();
        const ClaimVerdict v = claim_verdict(*record, *kind, *intended);
        if (in->json) {
            Json j = to_json(v, *record);
            localize(j, style);
            std::cout << dump(j) << '\n';
        } else {
            print_claim(v, *record, style);
        }
    });
}

}  // namespace arbiter::cli
