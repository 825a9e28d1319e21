// arbiter.Game: moves pushed and taken back, status and claims as the CLI gives them on the test
// vectors of RULES.md §7 under five rule sets, refusals, the pinned en passant repetition that
// chess.js misses, and memory given back (delete(), and the pool of live records for games never deleted).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { api, arbiter, cli, cliJson, vectors } from './support.mjs';

const knights = ['Nf3', 'Nf6', 'Ng1', 'Ng8'];

test('a Game from moves (an array or a string), pushed, taken back', () => {
  const g = new arbiter.Game({ moves: [...knights, ...knights].slice(0, 7) });
  assert.equal(g.ply, 7);
  assert.equal(g.rules, 'fide-2023');
  assert.deepEqual(g.push('f6g8'), { san: 'Ng8', uci: 'f6g8', fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 8 5', ply: 8 });
  assert.deepEqual(g.history(), [...knights, ...knights]);
  assert.equal(g.history('uci')[0], 'g1f3');
  assert.equal(g.status().repetition.count, 3);
  assert.equal(g.claim('threefold').correct, true);
  assert.deepEqual(g.pop(), { san: 'Ng8', uci: 'f6g8', fen: 'rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 7 4', ply: 7 });
  assert.equal(g.claim('threefold', 'Ng8').correct, true);
  assert.equal(g.claim('threefold', 'Nd5').correct, false);
  const s = new arbiter.Game({ moves: '1. e4 e5 2. Nf3 {a comment} Nc6' });
  assert.deepEqual(s.history(), ['e4', 'e5', 'Nf3', 'Nc6']);
  assert.equal(s.position().legalMoves().length, 27);
  assert.equal(new arbiter.Game().fen, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
  for (const x of [g, s]) x.delete();
});

test('a Game from a PGN text at a ply, and under rule options', () => {
  const pgn = '[Event "x"]\n[Result "*"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n';
  const g = new arbiter.Game({ pgn, ply: 4 });
  assert.equal(g.ply, 4);
  assert.equal(g.status().repetition.count, 2);
  g.delete();
  const o = new arbiter.Game({ moves: [...knights, ...knights], initial_position_counts: false });
  assert.equal(o.claim('threefold').correct, false);
  assert.equal(o.options.initial_position_counts, false);
  o.delete();
  const online = new arbiter.Game({ moves: [...knights, ...knights], rules: 'fide-online' });
  assert.equal(online.status().termination.kind, 'threefold_repetition');
  online.delete();
});

test('refusals: code, field and byte; the game is unchanged', () => {
  const g = new arbiter.Game({ moves: 'e4 e5' });
  assert.throws(() => g.push('Ke3'), (e) => e instanceof api.ArbiterError && e.code === 'illegal_move' && e.field === 'move');
  assert.throws(() => g.push('Nf9'), (e) => e.code === 'bad_move' && e.field === 'move' && e.offset === 2);
  assert.throws(() => g.claim('fivefold'), (e) => e.code === 'bad_value' && e.field === 'kind');
  assert.throws(() => g.claim('threefold', 'Zz9'), (e) => e.code === 'bad_move' && e.field === 'intended');
  assert.equal(g.ply, 2);
  g.delete();
  assert.throws(() => g.status(), (e) => e.code === 'deleted');
  g.delete();  // twice is fine
  assert.throws(() => new arbiter.Game({ moves: 'e4 e5 Ke3' }),
    (e) => e.code === 'illegal_move' && e.field === 'moves' && e.offset === 6);
  assert.throws(() => new arbiter.Game({ rules: 'fide-1999' }), (e) => e.code === 'unknown_rule_set' && e.field === 'rules');
  assert.throws(() => new arbiter.Game({ colour: 'white' }), (e) => e.code === 'bad_field' && e.field === 'colour');
  assert.throws(() => new arbiter.Game({ fen: '8/8/8/8/8/8/8/8 w - - 0 1' }), (e) => e.code === 'bad_fen' && e.field === 'fen');
  assert.throws(() => new arbiter.Game().pop(), (e) => e.code === 'no_move');
  const mated = new arbiter.Game({ moves: 'f3 e5 g4 Qh4#' });
  assert.throws(() => mated.push('a3'), (e) => e.code === 'game_over');
  mated.delete();
});

test('a threefold repetition behind a pinned pawn (cutechess #817): no en passant right, the same position', () => {
  // After 1...h5 White's g5 pawn is pinned to its king along the g-file by the rook on g7: the
  // capture en passant is illegal, so the position is the same one that stands after 3...Rg7
  // and 5...Rg7 (FIDE 9.2.3: the possible moves are the same). chess.js counts it twice.
  const g = new arbiter.Game({
    fen: '6k1/1p2p1rp/rP1pR3/2pP1pP1/p1P2P1P/R5K1/8/8 b - - 0 1',
    moves: 'h5 Rh6 Rh7 Re6 Rg7 Rh6 Rh7 Re6 Rg7',
  });
  const s = g.status();
  assert.equal(s.repetition.count, 3);
  assert.equal(s.claims.threefold.now, true);
  assert.equal(g.claim('threefold').correct, true);
  g.delete();
});

test('a million pushes give their memory back', () => {
  // 5,000 games of 200 plies (a knight shuffle), each deleted: the wasm heap stops growing after
  // the first games.
  const shuffle = ['Nf3', 'Nf6', 'Ng1', 'Ng8'];
  let heapAfterWarmup = 0;
  for (let k = 0; k < 5000; ++k) {
    const g = new arbiter.Game({ rules: 'uscf' });  // no automatic fivefold: every push is played
    for (let i = 0; i < 200; ++i) g.push(shuffle[i % 4]);
    g.delete();
    if (k === 100) heapAfterWarmup = arbiter.memoryBytes();
  }
  assert.equal(arbiter.memoryBytes(), heapAfterWarmup);
  assert.ok(heapAfterWarmup < 64 << 20, `heap ${heapAfterWarmup}`);
});

test('games dropped without delete(), GC forced: the heap stays flat',
  { skip: typeof globalThis.gc === 'function' ? false : 'needs node --expose-gc' }, async () => {
    const heapAfter = async () => {
      for (let i = 0; i < 1000; ++i) new arbiter.Game({ moves: 'e4 e5 Nf3 Nc6 Bb5 a6' });
      for (let i = 0; i < 5; ++i) {
        globalThis.gc();
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return arbiter.memoryBytes();
    };
    const first = await heapAfter();
    for (let round = 0; round < 20; ++round) assert.equal(await heapAfter(), first, `round ${round}`);
  });

test('Position.push plays on the position itself', () => {
  const p = new arbiter.Position();
  assert.deepEqual(p.push('e4'), { san: 'e4', uci: 'e2e4' });
  assert.equal(p.turn, 'black');
  assert.equal(p.san('g8f6'), 'Nf6');
  assert.equal(p.uci('Nf6'), 'g8f6');
});

// RULES.md §7 replayed ply by ply: status every 4th ply and at the end, the claims at the end
// with and without the written moves, under five rule sets — the CLI's JSON each time.
test('the test vectors: the same JSON as the CLI', { skip: cli ? false : 'no native arbiter (ARBITER_CLI)' }, () => {
  const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
  for (const { id, fen, moves } of vectors.vectors) {
    for (const rules of vectors.rules) {
      const g = new arbiter.Game({ ...(fen ? { fen } : {}), rules });
      const args = (k) => ['--fen', fen ?? START, ...(k ? ['--moves', moves.slice(0, k).join(' ')] : [])];
      for (let k = 0; k <= moves.length; ++k) {
        if (k) g.push(moves[k - 1]);
        if (k % 4 && k !== moves.length) continue;
        assert.deepEqual(g.status(), cliJson('status', '--json', '--rules', rules, ...args(k)), `${id} ${rules} ply ${k}`);
      }
      for (const kind of ['threefold', 'fifty']) {
        assert.deepEqual(g.claim(kind), cliJson('claim', kind, '--json', '--rules', rules, ...args(moves.length)), `${id} ${rules} ${kind}`);
        for (const m of vectors.intended[id] ?? [])
          assert.deepEqual(g.claim(kind, m),
            cliJson('claim', kind, '--json', '--intended', m, '--rules', rules, ...args(moves.length)), `${id} ${rules} ${kind} ${m}`);
      }
      if (rules === 'fide-2023') {
        const pos = g.fen;
        for (const side of ['both', 'white', 'black'])
          assert.deepEqual(arbiter.dead(pos, side), cliJson('dead', '--json', '--side', side, '--fen', pos), `${id} dead ${side}`);
      }
      g.delete();
    }
  }
});

test('40,000 games dropped without delete() and without a forced GC keep the heap bounded', () => {
  // Only the games used last hold a record in the wasm heap (maxLiveGames); the others are
  // rebuilt from their moves when used again (issue 46).
  const start = arbiter.memoryBytes();
  const kept = [];
  for (let k = 0; k < 40_000; ++k) {
    const g = new arbiter.Game({ moves: 'e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7' });
    g.push(k % 2 ? 'Re1' : 'd3');
    if (k % 5000 === 0) kept.push([g, g.status()]);
  }
  assert.ok(arbiter.liveGames() <= arbiter.maxLiveGames);
  const heap = arbiter.memoryBytes();
  assert.ok(heap <= 64 << 20, `heap ${heap} (from ${start})`);
  // A game whose record was given back plays on as if it had never been.
  for (const [g, before] of kept) {
    assert.deepEqual(g.status(), before);
    g.push('b5');
    g.pop();
    assert.deepEqual(g.status(), before);
    assert.equal(g.history().length, 11);
  }
  for (const [g] of kept) g.delete();
});

test('a game rebuilt after its record was given back keeps its rule set and claims', () => {
  const pgn = '[Event "x"]\n[Site "lichess.org"]\n[Date "2024.01.01"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 *\n';
  const g = new arbiter.Game({ pgn, rules: 'auto' });
  const rules = g.rules;
  const claim = g.claim('threefold', 'Ng8');
  for (let k = 0; k < arbiter.maxLiveGames + 10; ++k) new arbiter.Game().status();  // pushes g out
  assert.equal(g.rules, rules);
  assert.deepEqual(g.claim('threefold', 'Ng8'), claim);
  g.delete();
  assert.throws(() => g.status(), (e) => e.code === 'deleted');
  assert.equal(arbiter.liveGames() <= arbiter.maxLiveGames, true);
});

test('using (Symbol.dispose) frees a game at once', { skip: typeof Symbol.dispose === 'symbol' ? false : 'no Symbol.dispose' }, () => {
  const g = new arbiter.Game({ moves: 'e4' });
  g[Symbol.dispose]();
  assert.ok(g.deleted);
});

test('chess.js\'s names on Game, the Laws where they differ (issue 46)', () => {
  const pgn = '[Event "Rapid"]\n[White "A"]\n[Black "B"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n';
  const g = new arbiter.Game({ pgn });
  assert.ok(g.isGameOver() && g.isCheckmate() && !g.isDraw() && !g.isStalemate() && g.inCheck());
  assert.equal(g.turn(), 'b');
  assert.equal(g.moveNumber(), 4);
  assert.deepEqual(g.getHeaders(), { Event: 'Rapid', White: 'A', Black: 'B' });
  assert.match(g.pgn(), /^\[Event "Rapid"\]\n[\s\S]*\[Result "1-0"\]\n\n1\. e4 e5 2\. Qh5 Nc6 3\. Bc4 Nf6 4\. Qxf7# 1-0\n$/);
  // The PGN written reads back as the same game.
  assert.deepEqual(new arbiter.Game({ pgn: g.pgn() }).history(), g.history());
  const verbose = g.history({ verbose: true });
  assert.equal(verbose.length, 7);
  assert.deepEqual([verbose[6].from, verbose[6].to, verbose[6].captured, verbose[6].san, verbose[6].color], ['h5', 'f7', 'p', 'Qxf7#', 'w']);
  assert.equal(verbose[1].before, verbose[0].after);
  assert.equal(verbose[6].after, g.fen);
  assert.deepEqual(g.history({ verbose: false }), g.history());
  assert.throws(() => g.history({ verbos: true }), { code: 'bad_field', field: 'verbos' });
  const undone = g.undo();
  assert.deepEqual([undone.from, undone.to, undone.piece, undone.captured, undone.flags, undone.san],
    ['h5', 'f7', 'q', 'p', 'c', 'Qxf7#']);
  assert.equal(g.moves().length, 43);
  assert.deepEqual(g.moves({ square: 'e1' }).sort(), ['Kd1', 'Ke2', 'Kf1']);
  const c = g.clone();
  assert.deepEqual(c.history(), g.history());
  assert.equal(c.header('Round', '3').Round, '3');
  assert.equal(g.getHeaders().Round, undefined);
  assert.equal(g.board()[7][4].type, 'k');
  assert.match(g.ascii(), / 1 \| R {2}N {2}B {2}\. {2}K/);
  g.reset();
  assert.equal(g.history().length, 0);
  assert.equal(g.fen, new arbiter.Position().fen);
  // A bishop each on one colour: chess.js's insufficient material, and the Laws' dead position.
  g.load('8/8/8/4k3/8/8/8/KB6 w - - 0 1');
  assert.ok(g.isInsufficientMaterial() && g.isDeadPosition() && g.isDraw() && g.isGameOver());
  // A locked wall: dead by the Laws, not insufficient material for chess.js.
  g.load('4b3/5k2/8/1p1p1p1p/1P1P1P1P/8/8/2K5 w - - 0 2');
  assert.ok(!g.isInsufficientMaterial() && g.isDeadPosition());
  // Threefold: claimable, not drawn (chess.js's isDraw() would say true).
  const r = new arbiter.Game({ moves: 'Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8' });
  assert.ok(r.canClaimThreefold() && !r.isDraw() && !r.isGameOver() && !r.canClaimFifty());
  // Verbose flags: a double step, en passant, a promotion, castling.
  const e = new arbiter.Game({ moves: 'e4 d5 e5 f5' });
  const ep = e.moves({ verbose: true, square: 'e5' }).find((m) => m.san === 'exf6');
  assert.deepEqual([ep.flags, ep.captured], ['e', 'p']);
  assert.equal(e.move({ from: 'g1', to: 'f3' }).flags, 'n');
  assert.equal(new arbiter.Game().moves({ verbose: true }).find((m) => m.san === 'e4').flags, 'b');
  const promo = new arbiter.Game({ fen: '7k/P7/8/8/8/8/8/K7 w - - 0 1' }).moves({ verbose: true })
    .filter((m) => m.flags.includes('p')).map((m) => m.promotion).sort();
  assert.deepEqual(promo, ['b', 'n', 'q', 'r']);
  const castle = new arbiter.Game({ fen: 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1' }).moves({ verbose: true })
    .filter((m) => m.piece === 'k' && /k|q/.test(m.flags)).map((m) => m.flags).sort();
  assert.deepEqual(castle, ['k', 'q']);
  for (const x of [g, c, r, e]) x.delete();
});

test('a claim in the arbiter\'s language: lang and figurines, the message and codes unchanged (issue 62)', () => {
  const moves = [...knights, ...knights];
  assert.deepEqual(arbiter.languages.map((l) => l.code).slice(0, 3), ['en', 'fa', 'ar']);
  assert.equal(arbiter.languages.find((l) => l.code === 'fa').rtl, true);
  const g = new arbiter.Game({ moves });
  const en = g.claim('threefold');
  const fa = g.claim('threefold', null, { lang: 'fa' });
  const ar = g.claim('threefold', undefined, { lang: 'ar', figurines: true });
  assert.match(fa.reason, /سفید/);
  assert.match(fa.reason, /۳ بار/);
  assert.match(ar.reason, /♘g8/);
  for (const other of [fa, ar]) {
    assert.deepEqual(other.reason_message, en.reason_message);
    assert.deepEqual({ ...other, reason: '' }, { ...en, reason: '' });
  }
  // The same ruling as the command line's, and through request().
  assert.deepEqual(ar, cliJson('claim', 'threefold', '--moves', moves.join(' '), '--lang', 'ar', '--figurines', '--json'));
  assert.deepEqual(arbiter.claim({ moves: moves.join(' '), kind: 'threefold', lang: 'fa' }), fa);
  assert.throws(() => g.claim('threefold', null, { lang: 'de' }), (e) => e.code === 'bad_value' && e.field === 'lang');
  assert.throws(() => g.claim('threefold', null, { language: 'fa' }), (e) => e.code === 'bad_field' && e.field === 'language');
  g.delete();
});
