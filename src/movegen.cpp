// movegen.cpp — public entry points of the legal move generator and perft.
#include "arbiter/movegen.hpp"

#include "movegen_impl.hpp"

namespace arbiter {

void legal_moves(const Position& pos, MoveList& out) noexcept {
    out.clear();
    detail::ListSink sink{out};
    detail::generate(pos, sink);
}

MoveList legal_moves(const Position& pos) noexcept {
    MoveList list;
    legal_moves(pos, list);
    return list;
}

std::uint64_t count_legal_moves(const Position& pos) noexcept {
    detail::CountSink sink;
    detail::generate(pos, sink);
    return sink.n;
}

void legal_castlings(const Position& pos, MoveList& out) noexcept {
    out.clear();
    if (pos.in_check()) return;
    detail::ListSink sink{out};
    if (pos.turn() == Color::white)
        detail::generate_castling<Color::white>(pos, sink);
    else
        detail::generate_castling<Color::black>(pos, sink);
}

bool has_legal_move(const Position& pos) noexcept {
    detail::AnySink sink;
    detail::generate(pos, sink);
    return sink.n != 0;
}

std::optional<Move> first_legal_move(const Position& pos) noexcept {
    detail::FirstSink sink;
    detail::generate(pos, sink);
    return sink.first;
}

namespace {
template <Color Us>
std::uint64_t perft_rec(const Position& pos, int depth) noexcept {
    if (depth == 1) {
        detail::CountSink sink;
        detail::generate<Us>(pos, sink);
        return sink.n;
    }
    MoveList list;
    detail::ListSink sink{list};
    detail::generate<Us>(pos, sink);
    std::uint64_t nodes = 0;
    for (Move m : list) {
        Position child = pos;
        child.play_unchecked(m);
        nodes += perft_rec<~Us>(child, depth - 1);
    }
    return nodes;
}
}  // namespace

std::uint64_t perft(const Position& pos, int depth) noexcept {
    if (depth <= 0) return 1;
    return pos.turn() == Color::white ? perft_rec<Color::white>(pos, depth) : perft_rec<Color::black>(pos, depth);
}

std::vector<std::pair<Move, std::uint64_t>> perft_divide(const Position& pos, int depth) {
    std::vector<std::pair<Move, std::uint64_t>> out;
    if (depth <= 0) return out;
    for (Move m : legal_moves(pos)) out.emplace_back(m, perft(pos.after(m), depth - 1));
    return out;
}

}  // namespace arbiter
