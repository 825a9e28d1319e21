// The JavaScript API against known answers and, when ARBITER_CLI names the native tool, against
// the CLI's own JSON for the same requests (wasm/CMakeLists.txt sets both variables).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { api, arbiter, cli, pkg, pkgDir } from './support.mjs';

const { ArbiterError } = api;
const knights = 'Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8';

test('a version, the same as the package\'s', () => {
  assert.match(arbiter.version, /^\d+\.\d+\.\d+/);
  assert.equal(arbiter.version, pkg.version);
  for (const f of pkg.files) assert.ok(existsSync(join(pkgDir, f)), `${f} is in the package`);
});

test('the rule sets are the library\'s, each accepted, the default first', () => {
  assert.equal(arbiter.ruleSets.length, 8);
  assert.equal(arbiter.ruleSets[0], arbiter.defaultRules);
  assert.equal(arbiter.defaultRules, 'fide-2023');
  for (const rules of arbiter.ruleSets) assert.equal(arbiter.status({ moves: 'e4', rules }).rules, rules);
  assert.throws(() => arbiter.status({ moves: 'e4', rules: 'fide-1999' }),
    (e) => e.code === 'unknown_rule_set' && e.field === 'rules' && !e.message.includes('--'));
});

test('a threefold repetition is claimable, not automatic', () => {
  const s = arbiter.status({ moves: knights });
  assert.equal(s.repetition.count, 3);
  assert.deepEqual(s.repetition.plies, [0, 4, 8]);
  assert.equal(s.claims.threefold.now, true);
  assert.equal(s.termination, null);
});

test('a claim with the intended move', () => {
  const v = arbiter.claim({ moves: 'Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1', kind: 'threefold', intended: 'Ng8' });
  assert.equal(v.correct, true);
});

test('a pawn blockade is dead for both sides', () => {
  const d = arbiter.dead('8/8/1k6/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1');
  assert.equal(d.dead, true);
  assert.equal(d.white, 'cannot_checkmate');
  assert.equal(d.black, 'cannot_checkmate');
});

test('refusals carry the code and the field', () => {
  assert.throws(() => arbiter.status({ moves: 'e4', colour: 'white' }),
    (e) => e instanceof ArbiterError && e.code === 'bad_field' && e.field === 'colour');
  assert.throws(() => arbiter.claim({ moves: 'e4', kind: 'threefold', intended: 'Zz9' }),
    (e) => e instanceof ArbiterError && e.code === 'bad_move' && e.field === 'intended');
  assert.throws(() => arbiter.status({ fen: 'not a fen' }), (e) => e instanceof ArbiterError && e.code === 'bad_fen' && e.field === 'fen');
});

test('Position: legal moves, moves played, check, perft', () => {
  const start = new arbiter.Position();
  assert.equal(start.legalMoves().length, 20);
  assert.ok(start.legalMoves('uci').includes('g1f3'));
  assert.deepEqual(start.move('g1f3'), { san: 'Nf3', uci: 'g1f3' });
  const p = start.play('e4').play('e5').play('Qh5').play('Nc6').play('Bc4').play('Nf6').play('Qxf7#');
  assert.equal(p.isCheck(), true);
  assert.deepEqual(p.legalMoves(), []);
  assert.equal(start.perft(3), 8902);
  assert.equal(new arbiter.Position('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1').perft(2), 2039);
  assert.throws(() => start.play('e5'), (e) => e instanceof ArbiterError && e.code === 'illegal_move' && e.field === 'move');
  assert.throws(() => new arbiter.Position('8/8/8/8/8/8/8/8 w - - 0 1'), (e) => e instanceof ArbiterError && e.code === 'bad_fen');
});

// The same requests as the CLI's options.
const cases = [
  ['status', { moves: knights }, ['status', '--moves', knights]],
  ['status', { moves: knights, rules: 'fide-online' }, ['status', '--moves', knights, '--rules', 'fide-online']],
  ['status', { fen: '8/8/8/8/8/2k5/8/K1B5 w - - 0 1' }, ['status', '--fen', '8/8/8/8/8/2k5/8/K1B5 w - - 0 1']],
  ['claim', { moves: 'Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1', kind: 'threefold', intended: 'Ng8' },
    ['claim', '--moves', 'Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1', 'threefold', '--intended', 'Ng8']],
  ['claim', { moves: knights, kind: 'fifty' }, ['claim', '--moves', knights, 'fifty']],
  ['dead', { fen: '8/8/1k6/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1', side: 'both' },
    ['dead', '--fen', '8/8/1k6/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1']],
];

test('the same JSON as the CLI', { skip: cli ? false : 'no native arbiter (ARBITER_CLI)' }, () => {
  for (const [what, request, args] of cases) {
    const expected = JSON.parse(execFileSync(cli, [...args, '--json'], { encoding: 'utf8' }));
    assert.deepEqual(arbiter[what === 'dead' ? 'dead' : what](...(what === 'dead' ? [request.fen, request.side] : [request])),
      expected, `${what} ${JSON.stringify(request)}`);
  }
});

test('arguments are checked, never coerced (issue 46): the service\'s codes for the same key', () => {
  const refused = (f, code, field) => assert.throws(f, (e) => e instanceof ArbiterError && e.code === code &&
    e.field === field && !e.message.includes('--'), `${code} ${field}`);
  for (const bad of [null, undefined, 123, {}, [1, 2]]) refused(() => arbiter.audit(bad), 'bad_field', 'pgn');
  refused(() => arbiter.audit('1. e4 *', 'exact'), 'bad_field', 'options');
  refused(() => new arbiter.Position().perft(), 'bad_field', 'depth');
  refused(() => new arbiter.Position().perft(NaN), 'bad_field', 'depth');
  refused(() => new arbiter.Position().perft('3'), 'bad_field', 'depth');
  refused(() => new arbiter.Position().perft(99), 'bad_value', 'depth');
  refused(() => new arbiter.Position().legalMoves('lan'), 'bad_value', 'notation');
  refused(() => new arbiter.Position(''), 'bad_fen', 'fen');
  refused(() => new arbiter.Position(42), 'bad_field', 'fen');
  refused(() => arbiter.status('e4 e5'), 'bad_field', 'request');
  refused(() => arbiter.dead(null), 'bad_field', 'fen');
  const g = new arbiter.Game();
  try {
    refused(() => g.history('lan'), 'bad_value', 'notation');
    refused(() => g.push(42), 'bad_field', 'move');
    refused(() => g.claim(null), 'bad_field', 'kind');
    assert.equal(g.push({ from: 'e2', to: 'e4' }).san, 'e4');  // chess.js's move object
    assert.equal(g.ply, 1);
  } finally {
    g.delete();
  }
  // What a page gets from file.arrayBuffer(), and typed views, are PGN bytes like a Uint8Array.
  const bytes = new TextEncoder().encode('1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n');
  const want = arbiter.audit(bytes);
  assert.deepEqual(arbiter.audit(bytes.buffer), want);
  assert.deepEqual(arbiter.audit(new DataView(bytes.buffer)), want);
  assert.equal(want.length, 1);
  // status() takes moves as an array, as Game does.
  assert.equal(arbiter.status({ moves: ['e4', 'e5'] }).fen, arbiter.status({ moves: 'e4 e5' }).fen);
});

test('compressed, archived and UTF-16 bytes are refused as the CLI refuses them, with its hint', () => {
  for (const [bytes, hint] of [[[0x1f, 0x8b, 8, 0, 0, 0, 0, 0], /gzip.*decompress/], [[0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0, 0], /Zstandard/],
    [[0x50, 0x4b, 3, 4, 0, 0], /ZIP.*unzip/], [[0xff, 0xfe, 0x31, 0], /UTF-16.*iconv/]]) {
    assert.throws(() => arbiter.audit(new Uint8Array(bytes)),
      (e) => e instanceof ArbiterError && e.code === 'not_text' && e.field === 'pgn' && hint.test(e.message));
  }
});

test('boardSvg: the console\'s board with its marks; bad squares and options refused', () => {
  const fen = new arbiter.Position().fen;
  const plain = arbiter.boardSvg(fen);
  assert.match(plain, /^<svg[\s\S]*<\/svg>\s*$/);
  const count = (svg, re) => (svg.match(re) || []).length;
  const marked = arbiter.boardSvg(fen, { highlight: ['g1', 'f3'], arrow: ['g1f3'] });
  assert.equal(count(marked, /fill="#9bc700"/g) - count(plain, /fill="#9bc700"/g), 2);
  assert.notEqual(arbiter.boardSvg(fen, { flip: true }), plain);
  assert.throws(() => arbiter.boardSvg(fen, { highlight: ['z9'] }), { code: 'bad_square', field: 'highlight' });
  assert.throws(() => arbiter.boardSvg(fen, { arrow: ['e2'] }), { code: 'bad_square', field: 'arrow' });
  assert.throws(() => arbiter.boardSvg(fen, { highlight: 'e4' }), { code: 'bad_field', field: 'highlight' });
  assert.throws(() => arbiter.boardSvg(fen, { flipped: true }), { code: 'bad_field', field: 'flipped' });
  assert.throws(() => arbiter.boardSvg(42), { code: 'bad_field', field: 'fen' });
  assert.throws(() => arbiter.boardSvg('8/8/8'), { code: 'bad_fen', field: 'fen' });
});

test('a cited position carries its move in UCI, to be marked', () => {
  const v = arbiter.claim({ kind: 'threefold', moves: 'Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1', intended: 'Ng8' });
  assert.deepEqual(v.evidence.occurrences.map((o) => o.uci), [null, 'f6g8', 'f6g8']);
});

test('auditAsync: a Blob, a File, a Response or a stream is read, then audited as audit() does', async () => {
  const pgn = '[White "A"]\n[Black "B"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n';
  const want = arbiter.audit(pgn);
  const bytes = new TextEncoder().encode(pgn);
  assert.deepEqual(await arbiter.auditAsync(new Blob([pgn])), want);
  assert.deepEqual(await arbiter.auditAsync(new File([bytes], 'games.pgn')), want);
  assert.deepEqual(await arbiter.auditAsync(new Response(pgn)), want);
  assert.deepEqual(await arbiter.auditAsync(new Response(pgn).body), want);
  assert.deepEqual(await arbiter.auditAsync(pgn), want);
  // The synchronous audit() says where to go with a Blob; a failed response is not a PGN.
  assert.throws(() => arbiter.audit(new Blob([pgn])), (e) => e.code === 'bad_field' && e.field === 'pgn' && /auditAsync/.test(e.message));
  await assert.rejects(arbiter.auditAsync(new Response('Not Found', { status: 404 })), { code: 'bad_input', field: 'pgn' });
  await assert.rejects(arbiter.auditAsync(42), { code: 'bad_field', field: 'pgn' });
  // Compressed bytes in a Blob are refused as in audit(), with the CLI's hint.
  await assert.rejects(arbiter.auditAsync(new Blob([new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0])])), { code: 'not_text', field: 'pgn' });
});
