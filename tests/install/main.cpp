// The smallest real use of the installed library: read a FEN, count perft, write SAN.
#include <arbiter/arbiter.hpp>

#include <cstdio>

int main() {
    auto pos = arbiter::position_from_fen(arbiter::start_fen);
    if (!pos) return 1;
    if (arbiter::perft(*pos, 3) != 8902) return 2;
    auto move = arbiter::parse_san(*pos, "Nf3");
    if (!move || arbiter::to_san(*pos, *move) != "Nf3") return 3;
    auto bad = arbiter::position_from_fen("garbage");
    if (bad || bad.error().code != arbiter::FenError::Code::bad_piece) return 4;
    std::puts("consumer: ok");
    return 0;
}
