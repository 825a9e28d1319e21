// Dead positions end the game the ply they arise, one answer in every face (5.2.2; issue 29).
// For a composed position of each class — a forced stalemate with much material but one legal
// move, a forced capture of the last mating material, a locked wall with bishops on the wrong
// colour, a pen in which a king or rook only shuffles, every move of the side to move
// stalemating the other side — the status of a game set up there ends it by dead_position and
// says "no" for both sides' can_checkmate; a session started there and a session that plays
// into it end by dead_position at that ply; the audit reports it (by default and with exact) at
// that ply. The position one ply before is alive and says so. Then the one-decision property on
// generated positions: dead exactly when both sides are "no", never while a side is "yes".
#include <gtest/gtest.h>

#include <cctype>
#include <random>
#include <sstream>
#include <string>

#include "arbiter/arbiter.hpp"

using namespace arbiter;

namespace {

struct Case {
    const char* name;
    const char* before;  ///< a live position one ply before
    const char* move;    ///< the move that makes the dead position (SAN)
    const char* dead;    ///< the dead position it makes
};

// Composed for this test; each checked by the full analysis (can_checkmate) in DeadIsDead.
const Case cases[] = {
    // Black's only move, Kxg2, leaves White stalemated, with two queens and a knight on the board.
    {"forced stalemate, much material", "6K1/4q3/5q2/8/6n1/7Q/8/6k1 w - - 0 1", "Qg2+",
     "6K1/4q3/5q2/8/6n1/8/6Q1/6k1 b - - 1 1"},
    // White's only move takes the rook: bare kings.
    {"forced capture of the last mating material", "k7/8/8/8/8/8/r7/7K b - - 0 1", "Rg2",
     "k7/8/8/8/8/8/6r1/7K w - - 1 2"},
    // Pawns locked head-on across the board; each bishop runs on the squares of its own pawns
    // and can never take an enemy pawn nor cross the wall; no king can cross.
    // Black's h-pawn closes the last file (before it, Black's king could go round by h5 and take
    // h4).
    {"locked wall, bishops on the wrong colour", "4b3/5k2/7p/1p1p1p2/1P1P1P1P/8/8/2K5 b - - 0 1", "h5",
     "4b3/5k2/8/1p1p1p1p/1P1P1P1P/8/8/2K5 w - - 0 2"},
    // White's king takes the dark bishop and is then penned on a3/a4 behind its pawns (b2, c3,
    // a5 on dark squares, each blocked head-on); Black's light bishops can never take them.
    {"pen: a king that only shuffles", "6k1/5b1b/p7/P1p5/K1p5/bpP5/1P6/8 w - - 0 1", "Kxa3",
     "6k1/5b1b/p7/P1p5/2p5/KpP5/1P6/8 b - - 0 1"},
    // Black has no move; every White move, queen or king, leaves it so: a stalemate (the queen
    // cannot reach the eighth rank, the h-file or the long diagonal in one move).
    {"every move stalemates the other side", "6k1/6pP/6P1/8/8/8/1K6/1Q6 b - - 0 1", "Kh8",
     "7k/6pP/6P1/8/8/8/1K6/1Q6 w - - 1 2"},
};

Position at(const char* fen) {
    auto p = position_from_fen(fen);
    EXPECT_TRUE(p) << fen;
    return p ? *p : Position();
}

bool alive(const DrawStatus& s) {
    return s.white_can_checkmate == MateAbility::can_checkmate || s.black_can_checkmate == MateAbility::can_checkmate;
}

/// An audit of one PGN game (text) with the default analyzer, exact or not.
audit::GameAudit audit_text(const std::string& pgn, bool exact) {
    auto src = memory_input(pgn);
    pgn::GameReaderOptions ro;
    ro.keep_positions = true;
    pgn::GameReader reader(*src, ro);
    pgn::ParsedGame game;
    EXPECT_TRUE(reader.next(game));
    audit::AuditOptions options;
    options.rules = RuleSetId::fide_2023;
    options.exact = exact;
    GameRecord rec;
    return audit::audit_game(game, options, rec);
}

std::string setup_game(const char* fen, const std::string& moves) {
    return std::string("[Event \"t\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n[FEN \"") + fen + "\"]\n\n" + moves +
           (moves.empty() ? "" : " ") + "1-0\n";
}

bool reports_dead_at(const audit::GameAudit& a, std::uint32_t ply) {
    for (const auto& f : a.findings)
        if (f.type == audit::FindingType::result_contradicts_position && f.kind == "dead_position" && f.ply == ply)
            return true;
    return false;
}

}  // namespace

TEST(DeadPosition, DeadIsDead) {
    const HelpmateAnalyzer full;
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        const Position before = at(c.before);
        const auto m = parse_move(before, c.move);
        ASSERT_TRUE(m);
        EXPECT_TRUE(before.after(*m).same_position(at(c.dead)));
        for (Color side : {Color::white, Color::black})
            EXPECT_EQ(full.can_checkmate(at(c.dead), side).answer, MateAbility::cannot_checkmate);
        EXPECT_TRUE(full.can_checkmate(before, Color::white).answer == MateAbility::can_checkmate ||
                    full.can_checkmate(before, Color::black).answer == MateAbility::can_checkmate);
    }
}

TEST(DeadPosition, StatusEndsItAndSaysNoForBoth) {
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        const GameRecord dead(at(c.dead));
        const DrawStatus s = draw_status(dead);
        ASSERT_TRUE(s.termination);
        EXPECT_EQ(s.termination->kind, TerminationKind::dead_position);
        EXPECT_EQ(s.termination->index, 0u);
        EXPECT_EQ(s.white_can_checkmate, MateAbility::cannot_checkmate);
        EXPECT_EQ(s.black_can_checkmate, MateAbility::cannot_checkmate);

        GameRecord played(at(c.before));
        const DrawStatus b = draw_status(played);
        EXPECT_FALSE(b.termination);
        EXPECT_TRUE(alive(b));
        ASSERT_FALSE(played.play(std::string_view(c.move)));
        const DrawStatus after = draw_status(played);
        ASSERT_TRUE(after.termination);
        EXPECT_EQ(after.termination->kind, TerminationKind::dead_position);
        EXPECT_EQ(after.termination->index, 1u);
        EXPECT_EQ(after.white_can_checkmate, MateAbility::cannot_checkmate);
        EXPECT_EQ(after.black_can_checkmate, MateAbility::cannot_checkmate);
    }
}

TEST(DeadPosition, SessionsEndIt) {
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        SessionConfig at_dead;
        at_dead.start_fen = c.dead;
        const auto started = Session::create(at_dead);
        ASSERT_TRUE(started);
        ASSERT_TRUE(started->ended());
        EXPECT_EQ(started->end()->kind, EndKind::dead_position);
        EXPECT_EQ(started->result(), "1/2-1/2");

        SessionConfig at_before;
        at_before.start_fen = c.before;
        auto session = Session::create(at_before);
        ASSERT_TRUE(session);
        EXPECT_FALSE(session->ended());
        Event move;
        move.type = EventType::move;
        move.at_ms = 1000;
        move.move = c.move;
        move.press = true;
        ASSERT_FALSE(session->apply(move));
        ASSERT_TRUE(session->ended());
        EXPECT_EQ(session->end()->kind, EndKind::dead_position);
        EXPECT_EQ(session->end()->ply, 1u);
    }
}

TEST(DeadPosition, AuditReportsItByDefaultAndExact) {
    for (const Case& c : cases)
        for (const bool exact : {false, true}) {
            SCOPED_TRACE(std::string(c.name) + (exact ? ", exact" : ", default"));
            // Set up at the dead position and "resigned".
            EXPECT_TRUE(
                reports_dead_at(audit_text(setup_game(c.dead, ""), exact),
                                at(c.dead).fullmove_number() * 2 - (at(c.dead).turn() == Color::white ? 2 : 1)));
            // Played into it: the game ended with the move, whatever was written after it.
            const Position before = at(c.before);
            const std::uint32_t ply = (before.fullmove_number() - 1) * 2 + (before.turn() == Color::white ? 1 : 2);
            const std::string number =
                std::to_string(before.fullmove_number()) + (before.turn() == Color::white ? ". " : "... ");
            EXPECT_TRUE(reports_dead_at(audit_text(setup_game(c.before, number + c.move), exact), ply));
        }
}

TEST(DeadPosition, AuditFindsThePlyWhereDeadnessArose) {
    // Played on past the dead position (1...h5 locks the wall): the game ended with that move.
    const Case& c = cases[2];
    for (const bool exact : {false, true}) {
        const auto a = audit_text(setup_game(c.before, "1... h5 2. Kd2 Ke7 3. Kc1 Kf7"), exact);
        bool missed = false;
        for (const auto& f : a.findings)
            missed |= f.type == audit::FindingType::missed_automatic_draw && f.kind == "dead_position" && f.ply == 2;
        EXPECT_TRUE(missed) << (exact ? "exact" : "default");
    }
}

// Games that end in a stalemate (or with no mating material left) one ply after a dead position:
// the replay ends them there, but the dead position came first and the default audit reports it,
// at its own ply, as --exact does (issue 48). Composed for this test, each checked with
// python-chess: every legal move of the position before the last move stalemates.
struct EndsAfterDead {
    const char* name;
    const char* start;
    const char* moves;       ///< movetext from `start` to the stalemate
    std::uint32_t dead_ply;  ///< the game ply of the dead position
};
const EndsAfterDead ends_after_dead[] = {
    // 1.Qg2+ leaves Black one move, Kxg2, which stalemates White: two black queens, a rook and a
    // knight, a white queen and a pinned white knight on the board.
    {"forced stalemate, queens, rook and knights", "r4NK1/4q3/5q2/8/6n1/7Q/8/6k1 w - - 0 1", "1. Qg2+ Kxg2", 1},
    // The same with the colours exchanged and the board mirrored.
    {"the same, colours exchanged", "6K1/8/7q/6N1/8/5Q2/4Q3/R4nk1 b - - 0 1", "1... Qg7+ 2. Kxg7", 2},
    // After 1...Kh8 Black has no move, and each of White's 25 moves (queen, rook, knight, king)
    // leaves it so: 2.Rd3 is one.
    {"every move stalemates, queen, rook and knight", "6k1/6pP/1p4P1/1P6/8/1R6/1K6/NQ6 b - - 0 1", "1... Kh8 2. Rd3",
     2},
    {"the same, colours exchanged", "nq6/1k6/1r6/8/1p6/1P4p1/6Pp/6K1 w - - 0 1", "1. Kh1 Rd6", 1},
};

TEST(DeadPosition, AuditFindsItBeforeAStalemateByDefault) {
    for (const EndsAfterDead& c : ends_after_dead)
        for (const bool exact : {false, true}) {
            SCOPED_TRACE(std::string(c.name) + (exact ? ", exact" : ", default"));
            const auto a = audit_text(setup_game(c.start, c.moves), exact);
            bool missed = false;
            for (const auto& f : a.findings)
                missed |= f.type == audit::FindingType::missed_automatic_draw && f.kind == "dead_position" &&
                          f.ply == c.dead_ply;
            EXPECT_TRUE(missed);
            // And the game does end in a stalemate at its last move: the replay alone ends it there.
            GameRecord rec(at(c.start));
            std::istringstream words(c.moves);
            for (std::string w; words >> w;)
                if (!std::isdigit(static_cast<unsigned char>(w[0]))) ASSERT_FALSE(rec.play(std::string_view(w))) << w;
            EXPECT_TRUE(legal_moves(rec.current()).size() == 0 && !rec.current().in_check());
        }
}

// A stalemate that no dead position came before (the position before it could still be won) is
// reported as nothing more than the stalemate it is.
TEST(DeadPosition, AStalemateAfterALivePositionIsOnlyAStalemate) {
    // 1.Qf7?? stalemates Black's king on h8, but before it White could mate (1.Qg7#... or Qh7#
    // after the king is driven): the position before was alive.
    const auto a = audit_text(setup_game("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", "1. Qf7"), false);
    for (const auto& f : a.findings) EXPECT_NE(f.kind, "dead_position");
}

TEST(DeadPosition, OneDecisionOnGeneratedPositions) {
    // Kings and a few units at random, closed pawn pairs among them: whatever the position, the
    // status ends it by dead_position exactly when both sides' can_checkmate say "no" (unless
    // checkmate or stalemate is there), and never while one says "yes".
    std::mt19937_64 rng(29);
    static const char* sets[] = {"",     "B",      "n",  "Pp",  "PpPp", "PpB", "Ppb",
                                 "PpBb", "PpPpBb", "Rp", "Qpp", "Nn",   "PpN", "RPp"};
    int checked = 0, dead = 0;
    for (int n = 0; n < 400; ++n) {
        std::string board(64, '.');
        const std::string units = std::string("Kk") + sets[rng() % std::size(sets)];
        for (char u : units) {
            std::size_t sq;
            do sq = rng() % 64;
            while (board[sq] != '.' || ((u == 'P' || u == 'p') && (sq < 8 || sq >= 56)));
            board[sq] = u;
        }
        std::string fen;
        for (int r = 7; r >= 0; --r) {
            for (int f = 0; f < 8; ++f) fen += board[static_cast<std::size_t>(r * 8 + f)];
            if (r) fen += '/';
        }
        for (char d = '8'; d >= '1'; --d) {
            std::string dots(static_cast<std::size_t>(d - '0'), '.');
            for (std::size_t at = fen.find(dots); at != std::string::npos; at = fen.find(dots))
                fen.replace(at, dots.size(), std::string(1, d));
        }
        const auto pos = position_from_fen(fen + (rng() % 2 ? " w - - 0 1" : " b - - 0 1"));
        if (!pos) continue;
        const DrawStatus s = draw_status(GameRecord(*pos));
        const bool both_no = s.white_can_checkmate == MateAbility::cannot_checkmate &&
                             s.black_can_checkmate == MateAbility::cannot_checkmate;
        const bool mate_or_stalemate = s.termination && (s.termination->kind == TerminationKind::checkmate ||
                                                         s.termination->kind == TerminationKind::stalemate);
        const bool ended_dead = s.termination && s.termination->kind == TerminationKind::dead_position;
        ++checked;
        dead += ended_dead;
        if (!mate_or_stalemate) EXPECT_EQ(ended_dead, both_no) << to_fen(*pos);
        if (s.white_can_checkmate == MateAbility::can_checkmate || s.black_can_checkmate == MateAbility::can_checkmate)
            EXPECT_FALSE(ended_dead) << to_fen(*pos);
    }
    EXPECT_GT(checked, 300);
    EXPECT_GT(dead, 10);
}
