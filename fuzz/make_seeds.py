#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (fuzz/corpus/<target>/): valid inputs of every
shape, the damaged and hostile inputs of issues 17 and 20, and the journals (made with the
arbiter tool, then damaged with SQLite). A maintainer's tool: the seeds are checked in, and
neither the build nor the tests run this. Usage: fuzz/make_seeds.py BUILD/arbiter"""
import bz2
import gzip
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ARBITER = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else None


def put(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
EP = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
PROMO = "8/P6k/8/8/8/8/6Kp/8 w - - 0 1"
C960 = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
AT_LIMIT = "k7/8/8/8/8/8/8/K7 w - - 999999 1000000"

# --- FEN -------------------------------------------------------------------------------------
fens = {
    "start": START, "kiwipete": KIWIPETE, "en_passant": EP, "promotion": PROMO,
    "cpw3": "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "cpw4": "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "cpw5": "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "chess960_shredder": C960,
    "chess960_xfen": "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
    "tolerant_no_castling": "r3k2r/8/8/8/8/8/8/R3K2R w",
    "tolerant_fullmove_0": "8/8/8/8/8/8/8/K6k w - - 0 0",
    "err_bad_castling": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1",
    "err_no_king": "8/8/8/8/8/8/8/8 w - - 0 1",
    "err_four_ranks": "8/8/8/8 w - -",
    "err_garbage": "garbage",
    "err_opposite_check": "k7/8/8/8/8/8/8/K6r b - - 0 1",
    "err_ep_square": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
    # Issue 20.12: counters beyond the documented range, and at it.
    "issue20_12_counters_wrap": "k7/8/8/8/8/8/8/K7 w - - 4294967295 4294967295",
    "issue20_12_counter_over": "k7/8/8/8/8/8/8/K7 w - - 1000001 1",
    "issue20_12_at_limit": AT_LIMIT,
}
for name, fen in fens.items():
    put("fen", name + ".fen", fen)
put("fen", "issue20_11_not_utf8.fen", b"k7/8/8/8/8/8/8/K7 w - \xff")
put("fen", "nul_byte.fen", b"k7/8/8/8/8/8/8/K7 w - - 0 1\x00")
put("fen", "issue20_4_long_line.fen", "k7/8/8/8/8/8/8/K7 w - - 0 1 " + "x" * 300)
put("fen", "too_many_pieces.fen", "QQQQQQQQ/QQQQQQQQ/8/8/8/8/k7/K7 w - - 0 1")

# --- SAN: a FEN line, then moves -------------------------------------------------------------
sans = {
    "ruy_lopez": (START, "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3"),
    "en_passant": (EP, "exf6 e.p. exf6"),
    "promotion": (PROMO, "a8=Q+ h1=N+ Qb8 Nf2 e8Q"),
    "ambiguous": ("k7/8/8/8/8/8/8/R5RK w - - 0 1", "Rd1 Rad1 Rgd1 R1d1 Kb7"),
    "uci": (START, "e2e4 e7e5 g1f3 0000 b8c6 f1c4 g8f6 e1g1"),
    "castling_zeros": (KIWIPETE, "0-0-0 0-0 O-O"),
    "chess960_castling": (C960, "O-O e1g1 g1h1 O-O-O"),
    "annotations": (START, "e4 e5 Qh5!? Nc6 Bc4 Nf6?? Qxf7# Ke7"),
    "junk": (START, "Nbd7= e9 Kxx e4+# exd5 P@e4 --"),
    "counters_at_limit": (AT_LIMIT, "Kb1 Kb8 Ka1 Ka8 Kb1"),
    "illegal_and_check": ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "Rh8+ Kd7 Rh7+ Ke8 O-O"),
}
for name, (fen, moves) in sans.items():
    put("san", name + ".txt", fen + "\n" + moves + "\n")
put("san", "no_fen_line.txt", "\ne4 d5 exd5 Qxd5 Nc3 Qa5\n")
put("san", "issue20_11_not_utf8.txt", START.encode() + b"\ne4 \xff\xfe Nf3 e5\x00\n")

# --- PGN -------------------------------------------------------------------------------------
GAME = '[Event "a"]\n[Site "s"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 {[%clk 1:30:00]} Nc6 1-0\n\n'
pgns = {
    # Issue 20.7: an unclosed comment between games.
    "issue20_7_unclosed_comment": '{ x\n\n[Event "a"]\n\n1. e4 *\n',
    # Issue 20.8: the game after a bad tag line.
    "issue20_8_bad_tag_line": '[Event "a"]\n\n1. e4 *\n\n[Bad tag\n\n[Event "b"]\n\n1. d4 *\n',
    # Issue 20.1: an endless tag-less stream (short).
    "issue20_1_tagless_stream": "1. e4 e5\n" * 100,
    # Issue 20.2: a game over the fuzz target's ply limits.
    "issue20_2_long_game": '[Event "long"]\n\n' + "1. Nf3 Nf6 2. Ng1 Ng8 " * 80 + '*\n\n[Event "next"]\n\n1. e4 *\n',
    # Issue 20.10: long tags, duplicate FEN and Result tags, SetUp without FEN.
    "issue20_10_long_tag": '[Event "' + "v" * 200 + '"]\n[Site "s"]\n\n1. e4 *\n',
    "issue20_10_duplicate_fen": '[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]\n[FEN "8/8/8/8/8/8/8/K5k1 w - - 0 1"]\n\n1. Kb1 *\n',
    "issue20_10_duplicate_result": '[Result "1-0"]\n[Result "0-1"]\n\n1. e4 *\n',
    "issue20_10_setup_without_fen": '[SetUp "1"]\n\n1. e4 *\n',
    # Issue 17.1: truncated games.
    "issue17_1_truncated_mid_token": '[Event "a"]\n\n1. e4 e5 2. N',
    "issue17_1_truncated_tags": '[Event "a"]\n',
    # Issue 17.3: a Result tag that contradicts the marker.
    "issue17_3_result_inconsistent": '[Event "a"]\n[Result "0-1"]\n\n1. e4 e5 1/2-1/2\n',
    # Fragments that end in every state the reader has (tests/library/pgn_hostile_test.cpp).
    "fragments": '[Event "a"]\n[Site "s"]\n\n1. e4 e5 *\n\n[Bad tag\n\n{ never closed\n\n1. d4 { open comment\n\n'
                 '[Event "t"]\n\n1. e4 ( 1. d4 \n\n} ) stray\n\n[White "x"]\n\n1. c4 1-0\n\n%escape\n\n'
                 '; line comment\n\n[Event "c"]\n{ between\n\n\n[Event "x"]\n\n1. e4 {\n  \n[Event "z"]\n\n1. e4 *\n',
    "boundary_blank_lines": '[Event "a"]\n\n1. e4 *\n \t\r\n[Event "b"]\n*\n[Event "c"]\n\n\n[Event "d"]\r\n\r\n1. d4 *',
    "chess960": '[Event "a"]\n[Variant "Chess960"]\n[SetUp "1"]\n[FEN "' + C960 + '"]\n\n9. O-O O-O 10. Nc3 *\n',
}
for name, text in pgns.items():
    put("pgn", name + ".pgn", text)
put("pgn", "issue20_11_latin1_tags.pgn",
    b'[Event "a"]\n[White "M\xfcller"]\n\n1. e4 \xff\xfe *\n\n[Event "b"]\n\n1. d4 *\n')
# Issue 17.2 and 20.9: compressed input read by content; binaries refused.
small = (GAME * 2).encode()
put("pgn", "issue17_2_gzip.pgn.gz", gzip.compress(small, mtime=0))
put("pgn", "issue17_2_bzip2.pgn.bz2", bz2.compress(small))
put("pgn", "issue17_2_zip_header.bin", b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + small[:40])
put("pgn", "issue17_2_elf_header.bin", b"\x7fELF\x02\x01\x01\x00" + bytes(range(24)))
with tempfile.TemporaryDirectory() as t:
    src = os.path.join(t, "g.pgn")
    with open(src, "wb") as f:
        f.write(small)
    subprocess.run(["zstd", "-q", "-19", "-f", src, "-o", src + ".zst"], check=True)
    subprocess.run(["pzstd", "-q", "-f", src, "-o", src + ".pz"], check=True)
    put("pgn", "zstd.pgn.zst", open(src + ".zst", "rb").read())
    put("pgn", "issue20_9_pzstd_skippable.pgn.zst", open(src + ".pz", "rb").read())
    z = open(src + ".zst", "rb").read()
    put("pgn", "issue17_1_truncated.pgn.zst", z[: len(z) // 2])

# --- Session events: a configuration line, then events (JSON or the journal's text) ----------
CFG = "session rules=fide-2023 category=standard tc=5400+30 white=A black=B event=E site=S date=2024.05.01 round=1"
sessions = {
    "moves_json": [CFG, '{"type":"start","at_ms":0}', '{"type":"move","move":"e4","at_ms":1000}',
                   '{"type":"move","move":"e5","at_ms":2000}', '{"type":"move","move":"Nf3","at_ms":3000,"offer":true}',
                   '{"type":"decline","side":"black","at_ms":3500}', '{"type":"resign","side":"black","at_ms":4000}'],
    "moves_text": [CFG, "start at=0", "move at=1000 move=e4", "move at=2000 move=e5 press=0", "press at=2500",
                   "offer at=3000 side=white", "accept at=3100 side=black"],
    "threefold_claim": ["session rules=fide-2023 category=rapid",
                        *[f'{{"type":"move","move":"{m}","at_ms":{1000 * (i + 1)}}}'
                          for i, m in enumerate(["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"])],
                        '{"type":"claim","side":"black","kind":"threefold","intended":"Ng8","at_ms":9000}'],
    "touch_adjust": [CFG, '{"type":"touch","side":"white","square":"g1","at_ms":100}',
                     '{"type":"move","move":"e4","at_ms":200}', '{"type":"adjust","side":"black","square":"e7","at_ms":300}',
                     '{"type":"move","move":"Nf6","at_ms":400}', "touch at=500 side=white square=a1"],
    "flag_and_illegal": ["session rules=fide-2023 category=blitz tc=180+2",
                         '{"type":"move","move":"e4","at_ms":0}', '{"type":"illegal","side":"black","at_ms":500}',
                         '{"type":"move","move":"e5","at_ms":1000}', '{"type":"flag","side":"both","at_ms":999999}',
                         "flag at=400000 side=white"],
    "quickplay": ["session rules=fide-2023 category=standard tc=600 quickplay=1",
                  '{"type":"move","move":"d4","at_ms":0}', '{"type":"move","move":"d5","at_ms":500000}',
                  '{"type":"claim","kind":"quickplay","side":"white","at_ms":501000}',
                  '{"type":"ruling","decision":"postpone","at_ms":502000}',
                  '{"type":"ruling","decision":"draw","added_ms":120000,"at_ms":503000}'],
    "pause_declare": ["session rules=uscf category=standard tc=40/5400+30:1800+30",
                      '{"type":"pause","at_ms":10}', '{"type":"resume","at_ms":20}',
                      '{"type":"declare","kind":"seventy_five_moves","at_ms":30}', "declare at=40 declared=fivefold_repetition",
                      "quickplay_ruling at=50 decision=reject added=60000"],
    "options": ["session rules=fide-online category=blitz category_given=1 initial_counts=0 counters=game_start "
                "no_offers_before=30 intended_mate_correct=0 online_threefold_auto=0 online_fifty_auto=0 "
                "blitz_supervised=1 fifty_ext=KRBvKR=75 white=%C3%A9%20x black=%25",
                '{"type":"offer","side":"white","at_ms":0}', '{"type":"offer","side":"white","consent":true,"at_ms":1}',
                "move at=2 move=e2e4 offer=1 consent=1"],
    "start_fen": ["session fen=" + AT_LIMIT.replace(" ", "%20") + " tc=300d5",
                  '{"type":"move","move":"Kb1","at_ms":0}', '{"type":"move","move":"Kb8","at_ms":1}',
                  '{"type":"claim","kind":"fifty","side":"white","at_ms":2}'],
    "no_config_line": ['{"type":"move","move":"e4","at_ms":0}', "move at=1 move=c5",
                       '{"type":"illegal_position","side":"white","at_ms":2}'],
    # Issue 20.13: a configuration whose start position is impossible.
    "issue20_13_impossible_fen": ["session fen=8/8/8/8/8/8/8/8%20w%20-%20-%200%201", "move at=0 move=e4"],
    # Issue 20.12: a start FEN whose counters would wrap.
    "issue20_12_counters_wrap": ["session fen=k7/8/8/8/8/8/8/K7%20w%20-%20-%204294967295%204294967295",
                                 "move at=0 move=Kb1"],
    # Malformed and hostile text and JSON.
    "malformed": [CFG, "move  at=1", "move at=x", "move at=1 bogus=1", "nonsense at=1", "move at=1 move=%G1",
                  "move at=-5 move=e4", '{"type":"move"}', '{"type":"move","at_ms":1.5,"move":"e4"}',
                  '{"type":"move","at_ms":18446744073709551615,"move":"e4"}', '[1,2]', '{"type":',
                  '{"type":"claim","kind":"quickplay","intended":"e4","at_ms":1}',
                  '{"type":"move","move":"e4","at_ms":9223372036854775807}', "move at=9223372036854775807 move=e5"],
}
for name, lines in sessions.items():
    put("session", name + ".txt", "\n".join(lines) + "\n")
# Issue 20.11: names and moves that are not UTF-8.
put("session", "issue20_11_not_utf8.txt",
    b"session white=%FF black=\xfe\n" + b'{"type":"move","move":"\xff","at_ms":0}\n' + b"move at=1 move=\xffe4\n")

# --- Journals ----------------------------------------------------------------------------------
WAL_MARKER = b"\nARBITER-FUZZ-WAL\n"


def arbiter(*args):
    subprocess.run([ARBITER, *args], check=True, stdout=subprocess.DEVNULL)


def shrink(path):
    """The same database with 512-byte pages (the smallest SQLite allows): small seeds."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=DELETE")
    db.execute("PRAGMA page_size=512")
    db.execute("VACUUM")
    db.close()


def sql(path, statement):
    db = sqlite3.connect(path)
    db.executescript(statement)
    db.commit()
    db.close()


def read(path):
    with open(path, "rb") as f:
        return f.read()


if ARBITER:
    with tempfile.TemporaryDirectory() as t:
        j = os.path.join(t, "j.arbiter")
        arbiter("session", "new", "--journal", j, "--time-control", "300+2", "--white", "A", "--black", "B")
        for i, m in enumerate(["e4", "e5", "Nf3"]):
            arbiter("session", "event", "--journal", j, "1", f'{{"type":"move","move":"{m}","at_ms":{1000 * (i + 1)}}}')
        arbiter("session", "new", "--journal", j, "--rules", "uscf")
        for i, m in enumerate(["d4", "d5"]):
            arbiter("session", "event", "--journal", j, "2", f'{{"type":"move","move":"{m}","at_ms":{1000 * (i + 1)}}}')
        arbiter("session", "event", "--journal", j, "2", '{"type":"offer","side":"white","at_ms":2500}')
        shrink(j)
        good = read(j)
        put("journal", "two_sessions.arbiter", good)

        def variant(name, statement):
            p = os.path.join(t, name)
            shutil.copy(j, p)
            sql(p, statement)
            shrink(p)
            put("journal", name + ".arbiter", read(p))

        # Issue 17 and the journal tests: damaged and foreign files.
        variant("newer_format", "PRAGMA user_version = 99")
        variant("tampered_event", "UPDATE events SET event = replace(event, 'at=2000', 'at=2500') "
                                  "WHERE session_id = 1 AND seq = 2")
        variant("undecodable_event", "UPDATE events SET event = 'move at=1 bogus=1' WHERE session_id = 1 AND seq = 1")
        variant("gap_in_events", "DELETE FROM events WHERE session_id = 2 AND seq = 1")
        # Issue 20.13: a configuration whose start position is impossible, an edited event row.
        variant("issue20_13_impossible_fen", "UPDATE sessions SET config = config || ' fen=8/8/8/8/8/8/8/8%20w%20-%20-' "
                                             "WHERE id = 1")
        variant("issue20_13_edited_row", "UPDATE events SET event = 'move at=3000 move=Nc3' WHERE session_id = 1 AND seq = 3")
        put("journal", "truncated.arbiter", good[: len(good) // 2 + 100])
        damaged = bytearray(good)
        for i in range(512 + 8, 512 + 200):
            damaged[i] = (i * 7) & 0xFF
        put("journal", "scribbled_page.arbiter", bytes(damaged))
        put("journal", "text_file.arbiter", b"1. e4 e5 2. Nf3 Nc6\n")
        put("journal", "empty.arbiter", b"")
        put("journal", "tiny.arbiter", b"x")
        other = os.path.join(t, "other.db")
        sql(other, "CREATE TABLE accounts(id INTEGER, balance INTEGER); INSERT INTO accounts VALUES (1, 100)")
        shrink(other)
        put("journal", "other_database.arbiter", read(other))
        # Issue 20.6: a -wal beside the journal that belongs to another database, and its own.
        wal_db = os.path.join(t, "w.db")
        db = sqlite3.connect(wal_db)
        db.execute("PRAGMA page_size=512")
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA wal_autocheckpoint=0")
        db.execute("CREATE TABLE t(x)")
        db.execute("INSERT INTO t VALUES (1)")
        db.commit()
        foreign = read(wal_db + "-wal")
        db.close()
        put("journal", "issue20_6_foreign_wal.arbiter", good + WAL_MARKER + foreign)
        # Its own log: the event the tool appends to a copy, written by SQLite into the log of
        # another copy, which is taken as it is on disk before the log is checkpointed.
        ahead = os.path.join(t, "ahead.arbiter")
        shutil.copy(j, ahead)
        arbiter("session", "event", "--journal", ahead, "2", '{"type":"decline","side":"black","at_ms":2600}')
        row = sqlite3.connect(ahead).execute("SELECT * FROM events WHERE session_id = 2 AND seq = 4").fetchone()
        own = os.path.join(t, "own.arbiter")
        shutil.copy(j, own)
        db = sqlite3.connect(own, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA wal_autocheckpoint=0")
        db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?)", row)
        base, log = read(own), read(own + "-wal")
        db.close()
        put("journal", "own_wal.arbiter", base + WAL_MARKER + log)
        put("journal", "empty_wal.arbiter", good + WAL_MARKER)
