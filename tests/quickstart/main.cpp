#include <arbiter/arbiter.hpp>
#include <iostream>

int main() {
    arbiter::GameRecord game;  // from the initial position, under FIDE 2023
    for (const char* san : {"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"})
        if (game.play(san)) return 1;
    // Black claims a draw: 4...Ng8 would make the position stand for the third time (9.2.1).
    const auto verdict = arbiter::evaluate_claim(game, arbiter::ClaimKind::threefold, "Ng8");
    std::cout << (verdict.correct ? "correct" : "incorrect") << " (" << verdict.article << ")\n"
              << verdict.reason << '\n';
}
