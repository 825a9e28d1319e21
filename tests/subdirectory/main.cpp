// A consumer of arbiter built with add_subdirectory: the library, the generated version header
// and the journal component are usable without installing anything.
#include <arbiter/arbiter.hpp>
#include <arbiter/journal.hpp>

#include <cstdio>

int main() {
    auto pos = arbiter::position_from_fen(arbiter::start_fen);
    if (!pos || arbiter::perft(*pos, 3) != 8902) return 1;
    if (arbiter::version.empty() || arbiter::version_major < 0) return 2;
    auto session = arbiter::Session::create({});
    if (!session) return 3;
    arbiter::Event e;
    e.type = arbiter::EventType::move;
    e.move = "e5";  // not White's move: refused with its code
    const auto err = session->apply(e);
    if (!err || err->code != arbiter::EventError::Code::illegal_move) return 4;
    std::printf("subdirectory consumer: ok (arbiter %s)\n", std::string(arbiter::version).c_str());
    return 0;
}
