"""scenarios_test.py — the procedure scenarios of the session tests (tests/library/session_test.cpp,
tests/library/session_arbiter_test.cpp, tests/cli/cli_session_test.sh) replayed event by event through
`arbiter serve` and through `arbiter session event`: at every step both accept, or both refuse
with the same code (HTTP 409 and the CLI's exit 2), and the final state JSON and the PGN are the
same. Each scenario also states which of its events the Laws refuse, so a scenario that no longer
plays as its C++ test says fails here too. Bounded: 75 scenarios, one server (about 90 s,
most of it starting the CLI once an event).
Under the sanitizers (ARBITER_SCENARIO_STRIDE=N, set by the ASan build) every N-th scenario is
replayed: each event starts the CLI once, which is slow there; the release pass replays them all.
Usage: scenarios_test.py ARBITER WORKDIR"""
import json
import os
import subprocess
import sys

from serve_test_lib import fresh_journal, Server, check, run

ARBITER, WORK = sys.argv[1], sys.argv[2]
JOURNAL = fresh_journal(WORK, "scenarios.journal")
CLI_JOURNAL = fresh_journal(WORK, "scenarios-cli.journal")

REP1 = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8"   # TV-REP-1
REP1_PLY7 = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1"
LONE_KING = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
FLAG1 = "6K1/7P/5k2/8/8/8/1b6/8 w - - 0 1"
FLAG2 = "8/8/8/8/4n3/8/7R/5k1K w - - 0 1"
CASTLE = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
FIFTY = "4k3/8/8/8/8/8/8/R3K3 w - - 99 60"
K75 = "k7/8/1K6/8/8/8/8/7R w - - 149 100"


def moves(text):
    """A step of several moves, each accepted."""
    return [{"type": "move", "move": m} for m in text.split()]


def ev(type_, refused=None, **keys):
    """An event; refused=CODE when the Laws refuse it (both sides must then give that code)."""
    e = dict(type=type_, **keys)
    if refused:
        e["_refused"] = refused
    return e


def claim(kind="threefold", intended=None, **keys):
    e = ev("claim", kind=kind, **keys)
    if intended is not None:
        e["intended"] = intended
    return e


# name: (configuration of POST /sessions, [events…]); events without at_ms are a second apart.
SCENARIOS = {
    # tests/library/session_test.cpp: touch-move (4.3, 4.4) and the right to claim (9.4)
    "Touch.TvTouch1TouchingThenClaimingLosesTheRightForThatMove": ({"time_control": "5400+30"}, [
        *moves(REP1), ev("touch", square="g1"), claim(), ev("move", move="e4", refused="move_obligation"),
        ev("move", move="Nc3", refused="move_obligation"), *moves("Nf3 Nf6"), claim()]),
    "Touch.TvTouch1UscfTouchingDoesNotLoseTheClaim": ({"rules": "uscf"}, [
        *moves(REP1), ev("touch", square="g1"), claim()]),
    "Touch.TvTouch1UscfMayMakeTheMoveAndClaimBeforePressingTheClock": ({"rules": "uscf", "time_control": "5400"}, [
        *moves(REP1_PLY7), ev("move", move="Ng8", press=False), claim(side="black")]),
    "Touch.FideTheMoverNoLongerHasTheMoveOnceTheMoveIsMade": ({"time_control": "5400"}, [
        *moves(REP1_PLY7), ev("move", move="Ng8", press=False), claim(side="black", refused="out_of_turn"), claim()]),
    "Touch.Fide2005TheRightEndsOnlyByMovingAPiece": ({"rules": "fide-2005"}, [
        *moves(REP1), ev("touch", square="g1"), claim()]),
    "Touch.AnAnnouncedAdjustmentKeepsTheClaim": ({}, [*moves(REP1), ev("adjust", square="g1"), claim()]),
    "Touch.TouchingAnOpponentsPieceObligesACapture": ({}, [
        *moves("e4 d5"), ev("touch", square="d5"), ev("move", move="Nf3", refused="move_obligation"),
        ev("move", move="exd5")]),
    "Touch.OwnThenOpponentsPieceMeansCaptureWithIt": ({}, [
        *moves("e4 d5 Nc3 Nf6"), ev("touch", square="c3"), ev("touch", square="d5"),
        ev("move", move="exd5", refused="move_obligation"), ev("move", move="Nxd5")]),
    "Touch.KingThenRookMeansCastle": ({"start_fen": CASTLE}, [
        ev("touch", square="e1"), ev("touch", square="h1"), ev("move", move="Kf1", refused="move_obligation"),
        ev("move", move="O-O")]),
    "Touch.RookThenKingForbidsCastlingThatSide": ({"start_fen": CASTLE}, [
        ev("touch", square="h1"), ev("touch", square="e1"), ev("move", move="O-O", refused="move_obligation"),
        ev("move", move="Rh2")]),
    "Touch.OnlyThePlayerHavingTheMoveTouchesOrAdjusts": ({}, [
        ev("touch", side="black", square="e7", refused="out_of_turn"), ev("touch", square="e4", refused="*"),
        ev("touch", square="a1"), ev("move", move="e4")]),
    "Touch.OnlineHasNoTouchMove": ({"rules": "fide-online"}, [ev("touch", square="e2", refused="*")]),
    # claims (9.2, 9.3, 9.5) and their penalties
    "Claim.TvClaim1IncorrectWrittenMoveCostsTwoMinutesAndMustBePlayed": ({"time_control": "5400+30"}, [
        *moves(REP1_PLY7), claim(intended="Nc6"), ev("move", move="Ng8", refused="*"),
        claim(intended="Nh5", refused="*"), ev("move", move="Nc6")]),
    "Claim.TheClaimPausesTheClaimantsClock": ({"time_control": "5400"}, [
        ev("move", move="e4", at_ms=1000), claim(at_ms=11000), ev("move", move="e5", at_ms=71000)]),
    "Claim.AnIllegalWrittenMoveMeansAnotherMoveWithThatPiece": ({}, [
        *moves(REP1_PLY7), claim(intended="f6d7"), ev("move", move="e5", refused="*"), ev("move", move="Ng8")]),
    "Claim.TheClaimIsADrawOfferTheOpponentMayAccept": ({}, [
        *moves(REP1_PLY7), claim(intended="Nc6"), ev("accept")]),
    "Claim.TheImpliedOfferLapsesWhenRejected": ({}, [
        *moves(REP1_PLY7), claim(intended="Nc6"), ev("decline"), ev("accept", refused="*")]),
    "Claim.OnlyThePlayerHavingTheMoveMayClaim": ({}, [*moves(REP1), claim(side="black", refused="out_of_turn")]),
    "Claim.PenaltyRapid": ({"time_control": "900"}, [*moves("e4 e5"), claim()]),
    "Claim.PenaltyBlitzFullySupervised": ({"time_control": "300", "blitz_fully_supervised": True},
                                          [*moves("e4 e5"), claim()]),
    "Claim.UscfFiftyMoveClaimCitesItsOwnArticle": ({"rules": "uscf", "start_fen": FIFTY}, [claim("fifty")]),
    "Claim.Fide2005DeductsFromTheClaimant": ({"rules": "fide-2005", "time_control": "5400"}, [
        *moves("e4 e5"), claim()]),
    "Claim.OnlineHasNoWrittenMoveClaims": ({"rules": "fide-online", "online_claims": True}, [
        *moves("e4"), claim(intended="Nc6", refused="*")]),
    "Claim.Tv501FiftyWithAWrittenMove": ({"start_fen": FIFTY}, [claim("fifty", intended="Ra2")]),
    "Claim.Tv501PlayingWithoutClaimingLeavesTheClaimToTheOpponent": ({"start_fen": FIFTY}, [
        *moves("Ra2"), claim("fifty")]),
    "Claim.TvSetup1CountingFromTheSetUpPositionMakesTheClaimIncorrect": (
        {"start_fen": FIFTY, "counters_from_setup": "game_start"}, [claim("fifty", intended="Ra2")]),
    "Claim.Tv502AWrittenMoveThatMatesStillCompletesTheCount": (
        {"start_fen": "6rk/6pp/7N/5p2/6p1/8/2q5/K7 w - - 99 60"}, [claim("fifty", intended="Nf7")]),
    # offers and agreement (9.1, 5.2.3)
    "Offer.MadeBetweenMoveAndClockIsRecordedWithTheMove": ({"time_control": "300"}, [
        ev("move", move="e4", offer=True), ev("accept", refused="*"), ev("decline", side="white", refused="*")]),
    "Offer.BeforeEachPlayerHasMovedAgreementIsAllowedBefore2018": ({"rules": "fide-2009"}, [
        ev("move", move="e4", offer=True), ev("accept")]),
    "Offer.LapsesWhenTheOpponentTouchesAPiece": ({}, [
        *moves("e4 e5"), ev("move", move="Nf3", offer=True), ev("touch", square="b8")]),
    "Offer.AtAnotherTimeItIsStillValidButNoted": ({}, [
        *moves("e4 e5"), ev("offer"), *moves("Nf3"), ev("offer", refused="*"), ev("accept")]),
    "Offer.CompetitionRuleNoOffersBeforeMoveN": ({"no_offers_before": 3}, [
        *moves("e4 e5"), ev("move", move="Nf3", offer=True, refused="*"),
        ev("move", move="Nf3", offer=True, consent=True), ev("decline"), *moves("Nc6"),
        ev("move", move="Bb5", offer=True)]),
    "Offer.LapsesWhenTheGameEnds": ({}, [*moves("e4 e5"), ev("offer"), ev("resign", side="black")]),
    # flags (6.9, A.5.3, US Chess 13C, 14E) and both flags (III.3.1, 14G)
    "Flag.TvFlag1Fide": ({"start_fen": FLAG1, "time_control": "3600"}, [
        ev("start", at_ms=0), ev("flag", side="white", at_ms=3599000, refused="flag_not_fallen"),
        ev("flag", side="white", at_ms=3600001)]),
    "Flag.TvFlag1Uscf": ({"rules": "uscf", "start_fen": FLAG1, "time_control": "3600"}, [
        ev("start", at_ms=0), ev("flag", side="white", at_ms=3600001)]),
    "Flag.TvFlag2KnightAgainstRookUscf": ({"rules": "uscf", "start_fen": FLAG2, "time_control": "60"}, [
        ev("start", at_ms=0), ev("flag", side="white", at_ms=61000)]),
    "Flag.UscfKnightWithAForcedMateWins": (
        {"rules": "uscf", "start_fen": "k7/8/8/8/4n3/8/P5PP/6RK w - - 0 1", "time_control": "60"}, [
            ev("start", at_ms=0), ev("move", move="a3", press=False, at_ms=50000),
            ev("flag", side="white", at_ms=61000)]),
    "Flag.TvFlag3ALoneKingCannotWinOnTime": ({"start_fen": LONE_KING, "time_control": "60"}, [
        ev("start", at_ms=0), ev("flag", side="white", at_ms=60000)]),
    "Flag.WithoutAClockTheFlagIsTakenAsReported": ({}, [
        ev("flag", refused="*"), *moves("e4"), ev("flag", side="black")]),
    "Flag.Tv752AFlagAfterTheSeventyFiveMoveDrawChangesNothing": ({"start_fen": K75, "time_control": "60"}, [
        ev("start", at_ms=0), ev("move", move="Rh2", press=False, at_ms=70000),
        ev("flag", side="white", at_ms=71000, refused="game_over")]),
    "Flag.Tv751Fide2009ClaimsTheFifty": ({"rules": "fide-2009", "start_fen": K75}, [*moves("Rh2"), claim("fifty")]),
    "BothFlags.LastPeriodOrderUnknownIsADraw": ({"time_control": "60"}, [
        ev("start", at_ms=0), ev("move", move="e4", at_ms=70000), ev("flag", side="both", at_ms=140000)]),
    "BothFlags.NotTheLastPeriodTheGameContinues": ({"time_control": "2/60:30"}, [
        ev("start", at_ms=0), ev("move", move="e4", at_ms=70000), ev("move", move="e5", at_ms=140000),
        ev("flag", side="both", at_ms=140001)]),
    "BothFlags.UscfSuddenDeathIsADrawWhicheverFellFirst": ({"rules": "uscf", "time_control": "60"}, [
        ev("start", at_ms=0), ev("move", move="e4", at_ms=70000), ev("flag", side="black", at_ms=140000)]),
    # resignation, illegal moves and positions (5.1.2, 7.5.5, A.5.4)
    "Resign.TvResign1Fide2014": ({"rules": "fide-2014", "start_fen": LONE_KING}, [ev("resign", side="white")]),
    "Resign.AnyoneMayResignAtAnyTimeButMustSayWho": ({}, [ev("resign", refused="*"), ev("resign", side="black")]),
    "Illegal.FirstCostsTimeSecondLoses": ({"time_control": "5400"}, [
        *moves("e4"), ev("illegal_move"), ev("illegal_move")]),
    "Illegal.SecondIllegalMoveIsADrawWhenTheOpponentCannotMate": ({"start_fen": LONE_KING}, [
        ev("illegal_move"), ev("illegal_move")]),
    "Illegal.Fide2009ThirdLoses": ({"rules": "fide-2009"}, [ev("illegal_move")] * 3),
    "Illegal.ThePieceMovedIllegallyMustBeMoved": ({}, [
        ev("illegal_move", square="g1"), ev("move", move="e4", refused="move_obligation"), ev("move", move="Nf3"),
        ev("illegal_move", side="white", refused="*")]),
    "Illegal.A54IllegalPositionInRapidIsADraw": ({"time_control": "900"}, [*moves("e4"), ev("illegal_position")]),
    "Illegal.A54NotInStandard": ({"time_control": "5400"}, [ev("illegal_position", refused="*")]),
    # quickplay finish (III.5, 10.2, 14H)
    "Quickplay.RejectedThenPostponedThenDrawn": ({"time_control": "3600", "quickplay_finish": True}, [
        ev("move", move="e4", at_ms=1000), claim("quickplay", at_ms=3510000),
        ev("move", move="e5", at_ms=3511000, refused="*"), ev("quickplay_ruling", decision="reject", at_ms=3512000),
        claim("quickplay", at_ms=3513000), ev("quickplay_ruling", decision="postpone", at_ms=3514000),
        ev("move", move="e5", at_ms=3515000), ev("move", move="Nf3", at_ms=3516000),
        ev("quickplay_ruling", decision="draw", at_ms=3517000)]),
    "Quickplay.NotAnnounced": ({"time_control": "3600"}, [
        ev("move", move="e4", at_ms=1000), claim("quickplay", at_ms=3510000, refused="*")]),
    "Quickplay.Fide2009Article10NeedsNoAnnouncement": ({"rules": "fide-2009", "time_control": "3600"}, [
        ev("move", move="e4", at_ms=1000), claim("quickplay", at_ms=3510000),
        ev("quickplay_ruling", decision="draw", at_ms=3511000)]),
    # US Chess 14K, refusals, clocking
    "Declare.UscfDirectorDeclaresFivefold": ({"rules": "uscf", "start_fen": "7k/8/8/8/8/3R4/8/K7 w - - 0 1"}, [
        *moves(" ".join(["Rd4 Kh7 Rd3 Kh8"] * 4)), ev("declare", kind="fivefold_repetition")]),
    "Declare.FideFivefoldIsAutomatic": ({"start_fen": "7k/8/8/8/8/3R4/8/K7 w - - 0 1"}, [
        *moves(" ".join(["Rd4 Kh7 Rd3 Kh8"] * 4)), ev("move", move="Rd4", refused="game_over")]),
    "Refusals.OutOfTurnLateOrAfterTheEnd": ({}, [
        ev("move", move="e5", side="black", at_ms=1000, refused="out_of_turn"),
        ev("move", move="e5", at_ms=1000, refused="illegal_move"), ev("press", at_ms=1000, refused="*"),
        ev("accept", at_ms=1000, refused="*"), ev("pause", at_ms=1000, refused="*"),
        ev("move", move="e4", at_ms=5000), ev("move", move="e5", at_ms=4999, refused="time_goes_back"),
        ev("start", at_ms=6000, refused="*"), ev("resign", side="white", at_ms=6000),
        ev("move", move="e5", at_ms=7000, refused="game_over"), ev("offer", at_ms=7000, refused="game_over")]),
    "Clocking.PauseAndResumeAndTheImplicitStart": ({"time_control": "300"}, [
        ev("move", move="e4", at_ms=10000), ev("pause", at_ms=20000), ev("pause", at_ms=21000, refused="*"),
        ev("resume", at_ms=80000), ev("move", move="e5", at_ms=90000)]),
    "Clocking.AnUnpressedMoveIsCompletedByTheNextMove": ({"time_control": "300"}, [
        ev("start", at_ms=0), ev("move", move="e4", press=False, at_ms=10000), ev("move", move="e5", at_ms=40000)]),
    # tests/library/session_arbiter_test.cpp: the arbiter's decisions and corrections
    "Retract.WithdrawsTheLastEventsAndCountsItself": ({"time_control": "300+2"}, [
        *moves("e4 e5 Nf3"), ev("retract", count=2, text="entered twice"), *moves("Nc6")]),
    "Retract.RefusedPastARulingUnlessForced": ({"time_control": "5400"}, [
        *moves("e4 e5"), claim(), ev("retract", count=1, refused="*"), ev("retract", count=1, force=True)]),
    "Retract.ReopensAGameEndedByMistake": ({}, [
        *moves("e4"), ev("resign", side="white"), ev("retract", count=1), ev("retract", count=9, refused="*"),
        *moves("e5")]),
    "SetClock.SetsTheFacesAndTheMoveCounts": ({"time_control": "40/5400+30:1800+30"}, [
        *moves("e4 e5"), ev("set_clock", white_ms=1000000, black_ms=2000000, white_moves=39, black_moves=39),
        *moves("Nf3 Nc6")]),
    "AddTime.ToTheOpponent": ({"time_control": "300+2"}, [
        *moves("e4"), ev("add_time", side="white", added_ms=60000, text="phone rang"), *moves("e5")]),
    "Forfeit.ConductAndDefaultTime": ({"time_control": "5400"}, [
        *moves("e4"), ev("forfeit", side="black", reason="conduct", text="talking")]),
    "Forfeit.DefaultTimeDraw": ({"start_fen": LONE_KING, "time_control": "5400"}, [
        ev("forfeit", side="white", reason="default_time", draw=True, refused="*"),
        ev("forfeit", side="black", reason="default_time")]),
    "Note.OnTheScoresheet": ({}, [*moves("d4"), ev("note", text="spectator warned"), *moves("d5")]),
    # tests/cli/cli_session_test.sh: sessions 1 to 8 of its journal
    "cli_session.TvClaim1ThenAgreement": ({"time_control": "5400+30", "white": "Alice A", "black": "Bob"}, [
        *moves(REP1_PLY7), ev("adjust", square="f6"), claim(intended="Nc6", at_ms=9000),
        ev("move", move="Ng8", at_ms=10000, refused="move_obligation"),
        ev("move", move="Nc6", at_ms=10, refused="time_goes_back"),
        ev("move", move="e4", side="white", at_ms=10000, refused="out_of_turn"),
        ev("move", move="Nc6", at_ms=70000), ev("decline", at_ms=71000),
        ev("move", move="e4", offer=True, at_ms=72000), ev("accept", at_ms=73000),
        ev("flag", side="white", at_ms=74000, refused="game_over")]),
    "cli_session.UscfClaimBeforePressing": ({"rules": "uscf"}, [
        *moves(REP1_PLY7), ev("move", move="Ng8", press=False, at_ms=9000), claim(at_ms=9500)]),
    "cli_session.TvFlag1FideBlitz": ({"start_fen": FLAG1, "time_control": "60"}, [
        ev("start", at_ms=0), ev("flag", side="white", at_ms=59000, refused="flag_not_fallen"),
        ev("flag", side="white", at_ms=60500)]),
    "cli_session.TvFlag1Uscf": ({"rules": "uscf", "start_fen": FLAG1, "time_control": "60"}, [
        ev("start", at_ms=0), ev("flag", side="white", at_ms=60000),
        ev("resign", side="black", at_ms=60001, refused="game_over")]),
    "cli_session.TvResign1Fide2023": ({"start_fen": LONE_KING}, [ev("resign", side="white", at_ms=0)]),
    "cli_session.TvResign1Fide2018": ({"rules": "fide-2018", "start_fen": LONE_KING}, [
        ev("resign", side="white", at_ms=0)]),
    "cli_session.BatchGame": ({"white": "Ann", "black": "Bob", "time_control": "300+2"}, [
        ev("move", move="e4", at_ms=1000), ev("move", move="e5", at_ms=5000),
        ev("move", move="Nf3", offer=True, at_ms=12000), ev("move", move="Nc6", at_ms=20000),
        ev("move", move="Bc4", at_ms=21000), ev("move", move="Ke5", at_ms=22000, refused="illegal_move"),
        ev("move", move="Nf6", at_ms=23000)]),
}

FLAGS = {"time_control": "--time-control", "white": "--white", "black": "--black", "rules": "--rules",
         "start_fen": "--fen", "no_offers_before": "--no-offers-before", "counters_from_setup": "--counters-from-setup",
         "quickplay_finish": "--quickplay-finish", "blitz_fully_supervised": "--blitz-fully-supervised",
         "online_claims": "--online-claims"}

srv = Server(ARBITER, JOURNAL).start()


def cli(*args):
    return subprocess.run([ARBITER] + list(args), capture_output=True, text=True, timeout=60)


def replay(name, config, events):
    status, j, _, _ = srv.request("POST", "/api/v1/sessions", config)
    check(status == 201, "%s: create %d %s" % (name, status, j))
    sid = j["id"]
    args = ["session", "new", "--journal", CLI_JOURNAL]
    for k, v in config.items():
        args += [FLAGS[k]] if v is True else [FLAGS[k], str(v)]
    p = cli(*args)
    check(p.returncode == 0, "%s: session new %s" % (name, p.stderr))
    cid = p.stdout.strip()
    t = 0
    for k, e in enumerate(events):
        e = dict(e)
        expected = e.pop("_refused", None)
        if "at_ms" not in e:
            t += 1000
            e["at_ms"] = t
        t = max(t, e["at_ms"])
        body = json.dumps(e)
        p = cli("session", "event", "--journal", CLI_JOURNAL, cid, body)
        status, j, _, _ = srv.request("POST", "/api/v1/sessions/%d/events" % sid, body)
        where = "%s, event %d %s" % (name, k + 1, body)
        if expected:
            check(p.returncode == 2 and status == 409, "%s: refused expected; CLI %d, HTTP %d %s" % (
                where, p.returncode, status, j))
            code = json.loads(p.stdout)["error"]["code"]
            check(j["error"]["code"] == code and j["refusal"]["error"]["code"] == code,
                  "%s: CLI code %s, HTTP %s" % (where, code, j["error"]))
            check(expected == "*" or code == expected, "%s: code %s, expected %s" % (where, code, expected))
        else:
            check(p.returncode == 0 and status == 200, "%s: CLI %d %s, HTTP %d %s" % (
                where, p.returncode, p.stderr.strip(), status, j))
            mine = json.loads(p.stdout)
            mine["id"] = j["id"]
            check(mine == j, "%s: the states differ:\nHTTP %s\nCLI  %s" % (where, j, mine))
    got = srv.request("GET", "/api/v1/sessions/%d" % sid)[1]
    mine = json.loads(cli("session", "show", "--journal", CLI_JOURNAL, cid, "--json").stdout)
    got.pop("id"), mine.pop("id")
    check(got == mine, "%s: final states differ:\nHTTP %s\nCLI  %s" % (name, got, mine))
    pgn = srv.request("GET", "/api/v1/sessions/%d/pgn" % sid)[2].decode()
    check(pgn == cli("session", "export", "--journal", CLI_JOURNAL, cid).stdout, "%s: the PGN differs" % name)
    return got


STRIDE = max(1, int(os.environ.get("ARBITER_SCENARIO_STRIDE", "1")))


def test_all():
    check(len(SCENARIOS) >= 40, "at least 40 scenarios")
    failures = []
    chosen = list(SCENARIOS.items())[::STRIDE]
    if STRIDE > 1:
        print("replaying %d of the %d scenarios (every %d-th)" % (len(chosen), len(SCENARIOS), STRIDE))
    for name, (config, events) in chosen:
        try:
            replay(name, config, events)
        except AssertionError as e:
            failures.append(str(e))
    check(not failures, "%d of %d scenarios:\n%s" % (len(failures), len(SCENARIOS), "\n".join(failures)))


def test_outcomes():
    # A few outcomes as the C++ tests assert them, read from the state the server gives.
    def final(name):
        config, events = SCENARIOS[name]
        return replay(name + " (again)", config, events)

    s = final("Touch.TvTouch1TouchingThenClaimingLosesTheRightForThatMove")
    check(s["result"] == "1/2-1/2" and s["termination"]["article"] == "9.2.2", "TV-TOUCH-1: %s" % s["termination"])
    s = final("Claim.TvClaim1IncorrectWrittenMoveCostsTwoMinutesAndMustBePlayed")
    check(s["status"] == "ongoing" and s["must_play"] is None and s["moves"][-1] == "Nc6", "TV-CLAIM-1 %s" % s)
    s = final("Quickplay.RejectedThenPostponedThenDrawn")
    check(s["termination"]["article"] == "III.5", "quickplay %s" % s["termination"])
    s = final("Declare.UscfDirectorDeclaresFivefold")
    check(s["termination"]["article"] == "14K1", "14K1 %s" % s["termination"])
    s = final("Retract.WithdrawsTheLastEventsAndCountsItself")
    check(s["moves"] == ["e4", "Nc6"], "retract %s" % s["moves"])


try:
    run([("session test scenarios through HTTP and the CLI", test_all), ("their outcomes", test_outcomes)])
finally:
    srv.stop()
