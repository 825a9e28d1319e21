// The native API held to one standard (issue 63): every option object checked, empty input one
// meaning, ArbiterError before load() in ES and CommonJS, a wasm that cannot start an ArbiterError
// with nothing on the console, the live-game pool settable and its games restored exactly, one game
// of a PGN opened without the rest, and the audit streamed (the heap bounded, the records the CLI's).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { api, arbiter, cli, pkgDir, root, runCli } from './support.mjs';

const { ArbiterError } = api;
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const refused = (code, field) => (e) => {
  assert.ok(e instanceof ArbiterError, `an ArbiterError, not ${e?.constructor?.name}: ${e?.message}`);
  assert.equal(e.code, code, e.message);
  if (field !== undefined) assert.equal(e.field, field, e.message);
  return true;
};

test('an empty FEN is bad_fen everywhere; an empty move list is no moves everywhere', () => {
  assert.throws(() => arbiter.status({ fen: '' }), refused('bad_fen', 'fen'));
  assert.throws(() => arbiter.claim({ fen: '', kind: 'fifty' }), refused('bad_fen', 'fen'));
  assert.throws(() => arbiter.dead(''), refused('bad_fen', 'fen'));
  assert.throws(() => new arbiter.Game({ fen: '' }), refused('bad_fen', 'fen'));
  assert.throws(() => new arbiter.Position(''), refused('bad_fen', 'fen'));
  assert.throws(() => arbiter.boardSvg(''), refused('bad_fen', 'fen'));
  const g = new arbiter.Game({ moves: 'e4' });
  assert.throws(() => g.load(''), refused('bad_fen', 'fen'));
  assert.equal(g.fen.split(' ')[1], 'b', 'a refused load() leaves the game as it was');
  g.delete();
  for (const moves of ['', []]) {
    assert.equal(arbiter.status({ moves }).fen, START);
    assert.equal(new arbiter.Game({ moves }).fen, START);
    assert.equal(arbiter.status({ moves, fen: '8/8/8/4k3/8/8/8/K6R w - - 0 1' }).ply, 0);
  }
  // No position at all: refused by the one-shot calls, the initial position for a new Game (as chess.js's new Chess()).
  assert.throws(() => arbiter.status({}), refused('bad_usage'));
  assert.equal(new arbiter.Game().fen, START);
  // An empty PGN has no game 1.
  assert.throws(() => arbiter.status({ pgn: '' }), refused('no_such_game'));
});

test('the CLI gives the same meanings to an empty --fen and an empty --moves', { skip: cli ? false : 'no native arbiter' }, () => {
  const bad = runCli('status', '--json', '--fen', '');
  assert.equal(bad.status, 2);
  assert.equal(JSON.parse(bad.stdout).error.code, 'bad_fen');
  const none = runCli('status', '--json', '--moves', '');
  assert.equal(none.status, 0, none.stderr);
  assert.equal(JSON.parse(none.stdout).fen, START);
});

test('every option object is checked: unknown keys and wrong types refused, nothing coerced', () => {
  const g = new arbiter.Game();
  assert.throws(() => g.moves({ verbos: true }), refused('bad_field', 'verbos'));
  assert.throws(() => g.moves('e2'), refused('bad_field', 'options'));
  assert.throws(() => g.moves({ verbose: 1 }), refused('bad_field', 'verbose'));
  assert.throws(() => g.moves({ square: 'e9' }), refused('bad_field', 'square'));
  assert.throws(() => g.moves({ piece: 'x' }), refused('bad_field', 'piece'));
  assert.throws(() => g.pgn({ maxWidth: '5' }), refused('bad_field', 'maxWidth'));
  assert.throws(() => g.pgn({ width: 5 }), refused('bad_field', 'width'));
  assert.throws(() => g.header(1, 2), refused('bad_field', 'key'));
  assert.throws(() => g.header('White', 2), refused('bad_field', 'value'));
  assert.throws(() => g.header('White'), refused('bad_usage', 'value'));
  assert.throws(() => g.history({ verbos: true }), refused('bad_field', 'verbos'));
  assert.deepEqual(g.getHeaders(), {}, 'a refused header() sets nothing');
  assert.throws(() => arbiter.status({ fenn: START }), refused('bad_field', 'fenn'));
  assert.throws(() => arbiter.dead(START, 'both', { limt: 5 }), refused('bad_field', 'limt'));
  assert.throws(() => arbiter.audit('', { exactly: true }), refused('bad_field', 'exactly'));
  assert.throws(() => arbiter.boardSvg(START, { flipped: true }), refused('bad_field', 'flipped'));
  // What the options do.
  assert.deepEqual(g.moves({ piece: 'n' }), ['Na3', 'Nc3', 'Nf3', 'Nh3']);
  assert.deepEqual(g.moves({ piece: 'p', square: 'e2' }), ['e3', 'e4']);
  assert.deepEqual(g.moves({ verbose: true, piece: 'n', square: 'g1' }).map((m) => m.san), ['Nf3', 'Nh3']);
  for (const san of ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6']) g.push(san);
  const pgn = g.pgn({ maxWidth: 12, newline: '\r\n' });
  const movetext = pgn.split('\r\n\r\n')[1].split('\r\n');
  assert.deepEqual(movetext.slice(0, -1), ['1. e4 e5 2.', 'Nf3 Nc6 3.', 'Bb5 a6 *']);
  assert.equal(g.pgn({ maxWidth: 0 }).trimEnd().split('\n').at(-1), '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *');
  g.delete();
});

test('load() checks its options', async () => {
  await assert.rejects(api.load({ maxLiveGame: 10 }), refused('bad_field', 'maxLiveGame'));
  await assert.rejects(api.load({ maxLiveGames: 0 }), refused('bad_field', 'maxLiveGames'));
  await assert.rejects(api.load({ maxLiveGames: 2.5 }), refused('bad_field', 'maxLiveGames'));
  await assert.rejects(api.load({ wasmBinary: 'arbiter_wasm.wasm' }), refused('bad_field', 'wasmBinary'));
  await assert.rejects(api.load('fast'), refused('bad_field', 'options'));
  await assert.rejects(api.load({ wasmBinary: new Uint8Array(8), wasmUrl: 'x.wasm' }), refused('bad_usage', 'wasmUrl'));
});

test('ArbiterError is there before load(), in ES modules and CommonJS, one class to instanceof', () => {
  const require = createRequire(join(pkgDir, 'package.json'));
  const cjs = require(join(pkgDir, 'index.cjs'));
  assert.equal(typeof cjs.ArbiterError, 'function');
  assert.equal(typeof cjs.load, 'function');
  const compat = require(join(pkgDir, 'compat.cjs'));
  const esmError = new ArbiterError({ code: 'bad_fen', message: 'x', field: 'fen' });
  const cjsError = new cjs.ArbiterError({ code: 'bad_fen', message: 'x' });
  for (const E of [ArbiterError, cjs.ArbiterError, compat.ArbiterError]) {
    assert.ok(esmError instanceof E);
    assert.ok(cjsError instanceof E);
  }
  assert.ok(cjsError instanceof Error);
  assert.ok(!(new Error('x') instanceof ArbiterError));
  assert.ok(!({ code: 'bad_fen' } instanceof cjs.ArbiterError));
  try {
    new compat.Chess('not a fen');
    assert.fail('chess.js throws on a bad FEN');
  } catch (e) {
    assert.ok(e instanceof ArbiterError && e instanceof cjs.ArbiterError, e.message);
  }
});

test('the ErrorCode and RuleSetId unions of index.d.ts name exactly the library\'s codes and rule sets', async () => {
  const dts = readFileSync(join(pkgDir, 'index.d.ts'), 'utf8');
  const union = (name) => {
    const body = new RegExp(`export type ${name} =([^;]+);`).exec(dts)?.[1];
    assert.ok(body, `index.d.ts declares ${name}`);
    return [...body.matchAll(/'([^']+)'/g)].map((m) => m[1]).sort();
  };
  const createModule = (await import(pathToFileURL(join(pkgDir, 'arbiter_wasm.mjs')).href)).default;
  const m = await createModule({ wasmBinary: readFileSync(join(pkgDir, 'arbiter_wasm.wasm')) });
  assert.deepEqual(union('ErrorCode'), JSON.parse(m.errorCodes()).sort());
  assert.deepEqual(union('RuleSetId'), [...arbiter.ruleSets].sort());
});

test('a wasm that does not compile is an ArbiterError, and nothing is written to the console', () => {
  const script = `
    const { load, ArbiterError } = await import(${JSON.stringify(pathToFileURL(join(pkgDir, 'node.mjs')).href)});
    try {
      await load({ wasmBinary: new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 99]) });
      process.exitCode = 3;
    } catch (e) {
      const ok = e instanceof ArbiterError && e.code === 'wasm_unavailable' && e.message.includes('did not start');
      process.exitCode = ok ? 0 : 4;
    }`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, `exit ${r.status}: ${r.stderr}`);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr, '');
});

test('a wasm URL that answers 404 is an ArbiterError naming the URL and what to do', async () => {
  const server = createServer((req, res) => { res.writeHead(404); res.end('no'); });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}/assets/arbiter_wasm.wasm`;
  try {
    await assert.rejects(api.load({ wasmUrl: url }), (e) => {
      refused('wasm_unavailable', 'wasmUrl')(e);
      assert.ok(e.message.includes(url) && e.message.includes('HTTP 404'), e.message);
      assert.ok(e.message.includes('wasmUrl') && e.message.includes('wasmBinary'), e.message);
      return true;
    });
  } finally {
    server.close();
  }
});

test('a pool of two: games given back and restored play on exactly as games never given back', async () => {
  const small = await api.load({ maxLiveGames: 2 });
  assert.equal(small.maxLiveGames, 2);
  const lines = [
    'Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3',           // threefold claimable, an occurrence list
    'f3 e5 g4 Qh4#',                                  // checkmate: a termination kept
    'e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5',
    'd4 d5 c4 e6 Nc3 Nf6 Bg5 Be7 e3 O-O',
  ];
  const options = [{}, { rules: 'fide-online' }, { rules: 'uscf' }, { rules: 'fide-2014', time_category: 'blitz' }];
  const pooled = lines.map((_, k) => new small.Game(options[k]));
  const reference = lines.map((_, k) => new arbiter.Game(options[k]));
  const split = lines.map((l) => l.split(' '));
  for (let ply = 0; ply < 12; ++ply) {
    for (let k = 0; k < lines.length; ++k) {
      if (ply >= split[k].length) continue;
      assert.deepEqual(pooled[k].push(split[k][ply]), reference[k].push(split[k][ply]));
      assert.ok(small.liveGames() <= 2);
      assert.deepEqual(pooled[(k + 2) % 4].status(), reference[(k + 2) % 4].status(), `game ${k + 2} at ply ${ply}`);
    }
  }
  for (let k = 0; k < lines.length; ++k) {
    assert.deepEqual(pooled[k].status(), reference[k].status());
    assert.deepEqual(pooled[k].claim('threefold'), reference[k].claim('threefold'));
    assert.deepEqual(pooled[k].history('uci'), reference[k].history('uci'));
    assert.equal(pooled[k].rules, reference[k].rules);
    assert.deepEqual(pooled[k].pop(), reference[k].pop());
    assert.deepEqual(pooled[(k + 1) % 4].status(), reference[(k + 1) % 4].status());
    assert.deepEqual(pooled[k].status(), reference[k].status(), `game ${k} after a take-back`);
  }
  assert.equal(pooled[1].status().termination, null, 'the mate taken back');
  for (const g of [...pooled, ...reference]) g.delete();
  assert.equal(small.liveGames(), 0);
});

test('one game of a PGN: its own tags, the games before it only scanned', () => {
  const game = (k, moves, extra = '') => `[Event "E${k}"]\n[Site "S"]\n[White "W${k}"]\n${extra}\n${moves}\n\n`;
  const pgn = game(1, '1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0') +
    game(2, '1. e4 zz9 *') +                          // a syntax error in a game before the one asked for
    game(3, '1. d4 d5 2. c4 *', '[Black "B3"]\n[White "again"]\n') +
    game(4, '1. garbage');
  const g = new arbiter.Game({ pgn, game: 3 });
  assert.deepEqual(g.getHeaders(), { Event: 'E3', Site: 'S', White: 'W3', Black: 'B3' });
  assert.deepEqual(g.history(), ['d4', 'd5', 'c4']);
  g.delete();
  assert.throws(() => new arbiter.Game({ pgn, game: 5 }), refused('no_such_game', 'game'));
  assert.throws(() => new arbiter.Game({ pgn, game: 2 }), refused('bad_pgn', 'pgn'));
});

// A PGN of several megabytes (the fixtures over and over, an error in the last copy), so that the
// audit's pieces are cut more than once.
function bigPgn() {
  const unit = ['tests/data/audit/findings.pgn', 'tests/data/pgn/features.pgn']
    .map((f) => readFileSync(join(root, f), 'utf8')).join('\n');
  const copies = Math.ceil((3 << 20) / unit.length);
  return `${unit}\n`.repeat(copies) + '[Event "last"]\n\n1. e4 e5 2. Ke3 *\n';
}

test('audit() streams its input: the CLI\'s records across pieces, lines and offsets included', { skip: cli ? false : 'no native arbiter' }, () => {
  const text = bigPgn();
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-stream-'));
  try {
    const path = join(dir, 'big.pgn');
    writeFileSync(path, text);
    const r = runCli('audit', '--format', 'jsonl', '-q', path);
    assert.equal(r.status, 0, r.stderr);
    const want = r.stdout.split('\n').filter((l) => l).map((l) => JSON.parse(l));
    assert.ok(want.length > 1000);
    assert.ok(want.at(-1).errors.length > 0 && want.at(-1).errors[0].offset > 3 << 20, 'an error past the first pieces');
    assert.deepEqual(arbiter.audit(text, { file: path }), want, 'from a string');
    assert.deepEqual(arbiter.audit(new TextEncoder().encode(text), { file: path }), want, 'from bytes');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a game of a large PGN (handed over as bytes, not JSON) is the game the CLI reads', { skip: cli ? false : 'no native arbiter' }, () => {
  const text = bigPgn();
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-one-'));
  try {
    const path = join(dir, 'big.pgn');
    writeFileSync(path, text);
    const games = arbiter.audit(text).length;
    for (const game of [1, Math.ceil(games / 2), games - 1]) {
      const r = runCli('status', '--json', '--pgn', path, '--game', String(game));
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual(arbiter.status({ pgn: text, game }), JSON.parse(r.stdout), `game ${game}`);
      const g = new arbiter.Game({ pgn: text, game });
      assert.equal(g.fen, JSON.parse(r.stdout).fen);
      g.delete();
    }
    // The last game stops at its illegal move, as the CLI says.
    const last = runCli('status', '--json', '--pgn', path, '--game', String(games));
    assert.throws(() => arbiter.status({ pgn: text, game: games }), (e) => {
      assert.deepEqual({ code: e.code, field: e.field, offset: e.offset },
        { code: JSON.parse(last.stdout).error.code, field: 'pgn', offset: JSON.parse(last.stdout).error.offset });
      return true;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.throws(() => arbiter.status({ pgn: `${text}\ud800` }), refused('not_utf8', 'pgn'));
  assert.throws(() => new arbiter.Game({ pgn: text, game: 1, foo: 1 }), refused('bad_field', 'foo'));
});

test('auditRecords() and auditAsync() read a stream as it comes, with the records audit() gives', async () => {
  const text = bigPgn();
  const want = arbiter.audit(text);
  const bytes = new TextEncoder().encode(text);
  // A stream of odd-sized chunks: a chunk ends inside a game, a tag, a UTF-8 character.
  const stream = () => new ReadableStream({
    start(controller) {
      for (let at = 0; at < bytes.length; at += 65_537) controller.enqueue(bytes.subarray(at, at + 65_537));
      controller.close();
    },
  });
  const seen = [];
  for await (const record of arbiter.auditRecords(stream())) seen.push(record);
  assert.deepEqual(seen, want);
  assert.deepEqual(await arbiter.auditAsync(new Blob([bytes])), want);
  assert.deepEqual(await arbiter.auditAsync(new Response(stream())), want);
  // Stopping early frees the stream: the next audit is as good.
  for await (const record of arbiter.auditRecords(stream())) if (record.game === 3) break;
  assert.deepEqual(arbiter.audit(text).length, want.length);
});

test('a string cut between pieces inside a surrogate pair reads as the whole string', () => {
  // Short games up to the first megabyte of UTF-16 code units, then a tag whose emoji straddles it.
  const filler = '[Event "f"]\n\n1. e4 *\n\n';
  let text = filler.repeat(Math.floor(((1 << 20) - 64) / filler.length));
  const head = '[Event "x"]\n[Annotator "';
  const pad = 'a'.repeat((1 << 20) - 1 - text.length - head.length);
  text += `${head}${pad}\u{1F600}"]\n\n1. e4 e5 *\n`;
  assert.equal(text.charCodeAt(1 << 20) & 0xfc00, 0xdc00, 'the low surrogate is the first unit of the second piece');
  const last = arbiter.audit(text).at(-1);
  assert.equal(last.tags.Annotator, `${pad}\u{1F600}`);
  assert.equal(last.plies, 2);
});

test('the heap stays bounded while a large input is audited', async () => {
  const fresh = await api.load();
  const unit = readFileSync(join(root, 'tests/data/audit/findings.pgn'));
  const copies = Math.ceil((24 << 20) / unit.length);
  const bytes = new Uint8Array(unit.length * copies);
  for (let k = 0; k < copies; ++k) bytes.set(unit, k * unit.length);
  const before = fresh.memoryBytes();
  let games = 0;
  for await (const record of fresh.auditRecords(bytes)) games += record.game > 0;
  assert.ok(games > 10_000);
  const grown = fresh.memoryBytes() - before;
  assert.ok(grown < 16 << 20, `the heap grew by ${grown} bytes for a ${bytes.length}-byte input`);
});
