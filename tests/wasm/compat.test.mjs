// arbiter-chess/compat against chess.js 1.4.0 itself (issue 63): a chess.js program run unchanged
// with only its import changed gives the same FEN, SAN, legal moves, PGN and predicates on real
// games, except where the Laws decide otherwise (docs/javascript.md, "chess.js drop-in"), which are
// asserted as differences. chess.js is installed from npm into the build tree when missing
// (ARBITER_CHESSJS_DIR, default build-wasm/bench-deps); without the registry these tests skip.
// A sample of the real games of ../shared/data runs here; ARBITER_COMPAT_FULL=1 runs every game.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { api, pkgDir, root, seeded, shared } from './support.mjs';

const compat = await import(pathToFileURL(join(pkgDir, 'compat-node.mjs')).href);
const { Chess } = compat;

// chess.js from npm, into the build tree, once.
const depsDir = resolve(process.env.ARBITER_CHESSJS_DIR ?? join(pkgDir, '..', 'bench-deps'));
const chessPkg = join(depsDir, 'node_modules', 'chess.js', 'package.json');
let peerWhyNot = null;
if (!existsSync(chessPkg)) {
  mkdirSync(depsDir, { recursive: true });
  const r = spawnSync('npm', ['install', '--prefix', depsDir, '--no-audit', '--no-fund', '--silent', 'chess.js@1.4.0'],
    { encoding: 'utf8', timeout: 180_000 });
  if (r.status !== 0 || !existsSync(chessPkg)) peerWhyNot = `chess.js@1.4.0 could not be installed from npm (offline?): ${(r.stderr || r.error?.message || '').trim().split('\n')[0]}`;
}
const Peer = peerWhyNot ? null : createRequire(join(depsDir, 'x.js'))('chess.js').Chess;
if (peerWhyNot) console.log(`# SKIP the comparisons with chess.js: ${peerWhyNot}`);
const withPeer = { skip: peerWhyNot ?? false };

// The real games as SAN lists (read by chess.js; games from a set-up position left out), a seeded
// sample unless ARBITER_COMPAT_FULL; a few games of our own when ../shared/data is absent.
const ownGames = [
  ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6', 'Ba4', 'Nf6', 'O-O', 'Be7', 'Re1', 'b5', 'Bb3', 'd6', 'c3', 'O-O', 'h3', 'Nb8', 'd4', 'Nbd7'],
  ['f3', 'e5', 'g4', 'Qh4#'],
  ['e4', 'd5', 'exd5', 'Qxd5', 'Nc3', 'Qa5', 'd4', 'c6', 'Nf3', 'Bf5', 'Bc4', 'e6', 'Bd2', 'Nf6', 'Nd5', 'Qd8', 'Nxf6+', 'gxf6'],
  ['e4', 'd5', 'e5', 'f5', 'exf6', 'Nc6', 'fxg7', 'Bf5', 'gxh8=Q', 'Qd7', 'Qxg8', 'O-O-O', 'Qxf8', 'Rxf8'],
];
function realGames() {
  if (!shared || !Peer) return null;
  const dir = join(shared, 'pgn', 'real');
  if (!existsSync(dir)) return null;
  let texts = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.pgn')).sort()) {
    texts.push(...readFileSync(join(dir, f), 'latin1').split(/\r?\n\s*\n(?=\[)/).filter((t) => !/\[(FEN|SetUp|Variant) /.test(t)));
  }
  if (process.env.ARBITER_COMPAT_FULL !== '1') {
    const pick = seeded(63);
    texts = Array.from({ length: Math.min(60, texts.length) }, () => texts[pick(texts.length)]);
  }
  const games = [];
  for (const text of texts) {
    const c = new Peer();
    try { c.loadPgn(text); } catch { continue; }
    if (c.history().length) games.push(c.history());
  }
  return games;
}

test('a chess.js program run unchanged, only its import changed: the same output but where the Laws differ', withPeer, () => {
  const games = [...ownGames, ...(realGames() ?? [])];
  if (!shared) console.log('# the real corpora (../shared/data) are absent: our own games only');
  const link = join(depsDir, 'node_modules', 'arbiter-chess');
  if (!existsSync(link)) symlinkSync(resolve(pkgDir), link, 'dir');
  const source = readFileSync(join(root, 'wasm', 'compat_program.mjs'), 'utf8');
  assert.ok(source.includes("from 'chess.js'"));
  writeFileSync(join(depsDir, 'program-chessjs.mjs'), source);
  writeFileSync(join(depsDir, 'program-compat.mjs'), source.replace("from 'chess.js'", "from 'arbiter-chess/compat'"));
  const gamesFile = join(depsDir, 'program-games.json');
  writeFileSync(gamesFile, JSON.stringify(games));
  const run = (file) => {
    const r = spawnSync(process.execPath, [join(depsDir, file), gamesFile], { encoding: 'utf8', maxBuffer: 1 << 30 });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.trim().split('\n').map((line) => JSON.parse(line));
  };
  const peer = run('program-chessjs.mjs');
  const ours = run('program-compat.mjs');
  assert.equal(ours.length, peer.length);
  let plies = 0;
  const differ = { threefold: 0, fifty: 0, draw: 0, over: 0 };
  for (let i = 0; i < peer.length; ++i) {
    const p = peer[i], o = ours[i];
    if (p.ply === undefined) {  // a game's end: PGN, history, board questions: all the same
      assert.deepEqual(o, p, `game ${p.g}`);
      continue;
    }
    ++plies;
    const where = `game ${p.g} ply ${p.ply} (${p.san})`;
    for (const key of ['san', 'lan', 'flags', 'piece', 'captured', 'promotion', 'capture', 'big', 'ep', 'k', 'q', 'promo',
      'before', 'after', 'legal', 'fen', 'turn', 'moveNumber', 'check', 'isCheck', 'mate', 'stalemate', 'insufficient']) {
      assert.deepEqual(o[key], p[key], `${where}: ${key}`);
    }
    // The draw predicates: the Laws' answers. A difference must be one the Laws explain.
    if (o.threefold !== p.threefold) ++differ.threefold;
    if (o.fifty !== p.fifty) { assert.ok(p.mate && !o.fifty, `${where}: fifty`); ++differ.fifty; }
    if (o.draw !== p.draw) {
      // chess.js: drawn at a threefold or 50-move position (a claim under 9.2, 9.3); arbiter: drawn
      // by a dead position (5.2.2) chess.js does not see, or a fivefold / 75 moves (9.6).
      assert.ok(p.draw ? (p.threefold || p.fifty) && !o.draw : o.draw, `${where}: draw`);
      ++differ.draw;
    }
    if (o.over !== p.over) ++differ.over;
    assert.equal(o.over, o.mate || o.draw, `${where}: isGameOver is checkmate or an automatic draw`);
  }
  console.log(`# ${games.length} games, ${plies} plies; predicates differing (the Laws): ${JSON.stringify(differ)}`);
  for (const [key, n] of Object.entries(differ)) assert.ok(n <= plies / 100, `${key} differs on ${n} of ${plies} plies`);
});

test('require("arbiter-chess/compat"): the same class, loaded synchronously', withPeer, () => {
  const req = createRequire(join(depsDir, 'x.js'));
  const cjs = req('arbiter-chess/compat');
  const c = new cjs.Chess();
  c.move('e4');
  assert.equal(c.fen(), 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1');
  assert.throws(() => c.move('e4'), (e) => e instanceof cjs.ArbiterError && e instanceof Error && e.message === 'Invalid move: e4');
  assert.equal(cjs.SQUARES.length, 64);
});

test('the same as chess.js: positions, moves, tags, comments, PGN, board editing, errors', withPeer, () => {
  const pair = (...a) => [new Chess(...a), new Peer(...a)];
  const same = (f, what) => { const [o, p] = [f(ours), f(peer)]; assert.deepEqual(o, p, what); return o; };
  let [ours, peer] = pair();
  same((c) => c.getHeaders(), 'the seven tags of a new game');
  same((c) => c.pgn(), 'pgn of a new game');
  same((c) => [c.moves(), c.moves({ piece: 'n' }), c.moves({ square: 'e2' }), c.moves({ square: 'zz' }), c.perft(3)], 'moves');
  same((c) => c.moves({ verbose: true }).map((m) => ({ ...m })), 'verbose moves');
  for (const m of ['e4', 'd5', 'exd5', 'c6', 'dxc6', 'Nf6', 'cxb7', 'Bd7', { from: 'b7', to: 'a8', promotion: 'q' }]) same((c) => ({ ...c.move(m) }), `move ${JSON.stringify(m)}`);
  same((c) => { c.setComment('{a} comment'); c.setHeader('White', 'A'); c.removeHeader('Site'); return [c.getComments(), c.getHeaders(), c.pgn(), c.pgn({ maxWidth: 20 })]; }, 'comments and tags');
  same((c) => [c.undo() && { ...c.history({ verbose: true })[0] }, c.history(), c.fen()], 'undo');
  same((c) => [c.put({ type: 'q', color: 'w' }, 'e5'), c.put({ type: 'k', color: 'w' }, 'e4'), c.get('e5'), c.remove('e5'), c.get('e5'), c.fen()], 'put, remove');
  [ours, peer] = pair('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
  same((c) => [c.getCastlingRights('w'), c.setCastlingRights('w', { k: false }), c.fen(), c.moves(), c.setTurn('b'), c.fen(), c.turn()], 'castling, setTurn');
  same((c) => [c.board(), c.ascii(), c.squareColor('a8'), c.squareColor('h8'), c.squareColor('x9'), c.findPiece({ type: 'r', color: 'b' })], 'board');
  same((c) => { c.clear(); return [c.fen(), c.getHeaders(), c.isStalemate()]; }, 'clear');
  // PGN read with tags, comments, annotations, a variation and a NAG, and written back.
  const text = '[Event "Test"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n{start} 1. e4 $1 e5!? (1... c5 2. Nf3) 2. Nf3 {a knight} Nc6 3. Bb5 a6 1-0';
  [ours, peer] = pair();
  same((c) => { c.loadPgn(text); return [c.history(), c.getHeaders(), c.getComments(), c.pgn(), c.fen()]; }, 'loadPgn');
  // Errors: thrown where chess.js throws, with its message, as ArbiterError.
  [ours, peer] = pair();
  for (const bad of ['Ke3', 'Nf9', 'exd5']) {
    assert.throws(() => peer.move(bad));
    assert.throws(() => ours.move(bad), (e) => e instanceof api.ArbiterError && e.message === `Invalid move: ${bad}`);
  }
  assert.throws(() => ours.move({ from: 'e2', to: 'e5' }), (e) => e instanceof api.ArbiterError && e.message === 'Invalid move: {"from":"e2","to":"e5"}');
  for (const fen of ['bad', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1', '8/8/8/8/8/8/8/8 w - - 0 1']) {
    let message;
    try { new Peer(fen); } catch (e) { message = e.message; }
    assert.throws(() => new Chess(fen), (e) => e instanceof api.ArbiterError && e.code === 'bad_fen' && e.message === message);
  }
  assert.throws(() => ours.move('Nge2', { strict: true }));
  assert.equal(ours.move('Pe2-e4').san, 'e4');  // the permissive reading, as chess.js
  assert.equal(ours.move('Nf6', { strict: true }).san, 'Nf6');
});

test('where the Laws decide otherwise: the differences docs/javascript.md lists', withPeer, () => {
  const knights = ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1', 'Ng8'];
  const play = (C, moves, fen) => { const c = new C(fen); for (const m of moves) c.move(m); return c; };
  // 9.2: a threefold repetition is a claim: the game goes on.
  let o = play(Chess, knights), p = play(Peer, knights);
  assert.deepEqual([p.isThreefoldRepetition(), p.isDraw(), p.isGameOver()], [true, true, true]);
  assert.deepEqual([o.isThreefoldRepetition(), o.isDraw(), o.isGameOver()], [true, false, false]);
  // 9.6.1: the fifth occurrence ends the game.
  o = play(Chess, [...knights, ...knights]);
  assert.deepEqual([o.isDraw(), o.isGameOver()], [true, true]);
  // 9.2.3: the en passant right counts only when the capture is legal (cutechess #817).
  const pinned = ['h5', 'Rh6', 'Rh7', 'Re6', 'Rg7', 'Rh6', 'Rh7', 'Re6', 'Rg7'];
  const fen = '6k1/1p2p1rp/rP1pR3/2pP1pP1/p1P2P1P/R5K1/8/8 b - - 0 1';
  assert.equal(play(Peer, pinned, fen).isThreefoldRepetition(), false);
  assert.equal(play(Chess, pinned, fen).isThreefoldRepetition(), true);
  // 9.3 and 5.1.1: mate on the 100th ply is mate, not a 50-move draw.
  const mateFen = '7k/8/6K1/8/8/8/8/R7 w - - 99 80';
  p = play(Peer, ['Ra8#'], mateFen); o = play(Chess, ['Ra8#'], mateFen);
  assert.deepEqual([p.isCheckmate(), p.isDrawByFiftyMoves(), p.isDraw()], [true, true, true]);
  assert.deepEqual([o.isCheckmate(), o.isDrawByFiftyMoves(), o.isDraw(), o.isGameOver()], [true, false, false, true]);
  // 9.3: 50 moves are a claim; 9.6.2: 75 moves end the game.
  o = play(Chess, ['Rb1'], '7k/8/6K1/8/8/8/8/R7 w - - 99 80');
  assert.deepEqual([o.isDrawByFiftyMoves(), o.isDraw(), o.isGameOver()], [true, false, false]);
  o = play(Chess, ['Rb1'], '7k/8/6K1/8/8/8/8/R7 w - - 149 80');
  assert.deepEqual([o.isDraw(), o.isGameOver()], [true, true]);
  // 5.2.2: a dead position ends the game; chess.js knows bare material only.
  const blocked = '8/8/1k6/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1';
  assert.deepEqual([new Peer(blocked).isDraw(), new Chess(blocked).isDraw(), new Chess(blocked).isInsufficientMaterial()], [false, true, false]);
});

test('one status per position: the predicates ask the record once, move() resolves one move', () => {
  const c = new Chess();
  c.move('e4');
  const before = c.fen();
  for (let i = 0; i < 3; ++i) assert.deepEqual([c.isGameOver(), c.isDraw(), c.isThreefoldRepetition(), c.inCheck()], [false, false, false, false]);
  assert.equal(c.undo().after, before);
  assert.equal(c.fen(), 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
  // Games never freed: the records held stay bounded, and a game given back is rebuilt.
  const games = Array.from({ length: 200 }, () => { const g = new Chess(); g.move('d4'); return g; });
  for (const g of games) { g.move('d5'); assert.equal(g.history().length, 2); assert.equal(g.moves().length, 27); }
  // Played ply by ply side by side, each game given back and restored (from its snapshot) at every
  // ply, the repetition counts survive: the third occurrence is seen at the same ply by all.
  const dance = ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1', 'Ng8'];
  const many = Array.from({ length: 70 }, () => new Chess());
  dance.forEach((san, k) => {
    for (const g of many) {
      g.move(san);
      assert.equal(g.isThreefoldRepetition(), k === 7, `ply ${k + 1}`);
    }
  });
  for (const g of many) assert.equal(g.pgn().split('\n').at(-1), '1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *');
});
