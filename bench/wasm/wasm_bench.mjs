// wasm_bench.mjs PACKAGE_DIR CHESSJS_DIR ARBITER_CLI SHARED_DATA [ROUNDS] — the JavaScript package
// against chess.js in the same Node.js process, and against the native CLI on the same work
// (make bench-wasm; figures in docs/performance.md). Not a test: it prints a table of ratios.
//   size     the package's files, raw and gzip
//   replay   every game of the real corpora, a status after every ply: arbiter Game.push +
//            status() against chess.js move() + isThreefoldRepetition() + isDraw()
//   perft    Position.perft against chess.js perft in leaf nodes a second (start position and
//            Kiwipete; chess.js two plies shallower)
//   native   the same work in the CLI: perft (`arbiter perft`) and the audit of the real corpora
//            (`arbiter audit --threads 1` against audit() on each file's bytes)
// Each measurement alternates the two sides, ROUNDS times (default 3), and keeps each side's best.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const [pkgDir, chessDir, cli, shared, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 3);
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
const { load } = await import(pathToFileURL(join(pkgDir, pkg.exports['.'].node.import.default)).href);
const arbiter = await load();
const { Chess } = createRequire(resolve(chessDir, 'x.js'))('chess.js');
const chessVersion = JSON.parse(readFileSync(join(chessDir, 'node_modules', 'chess.js', 'package.json'), 'utf8')).version;

const now = () => Number(process.hrtime.bigint()) / 1e6;  // ms
const time = (f) => { const t = now(); const r = f(); return [now() - t, r]; };
const best = (pairs) => pairs.reduce((a, b) => [Math.min(a[0], b[0]), Math.min(a[1], b[1])], [Infinity, Infinity]);
const row = (...cells) => console.log('| ' + cells.join(' | ') + ' |');

// ---- size ----
console.log(`arbiter ${arbiter.version} (wasm, Node ${process.versions.node}) against chess.js ${chessVersion}\n`);
row('package file', 'raw bytes', 'gzip -9 bytes');
row('---', '---:', '---:');
let total = 0, totalGz = 0;
for (const f of pkg.files) {
  const bytes = readFileSync(join(pkgDir, f));
  const gz = gzipSync(bytes, { level: 9 }).length;
  total += bytes.length; totalGz += gz;
  row(f, bytes.length, gz);
}
row('**package**', total, totalGz);
console.log();

// ---- the real corpora as SAN move lists ----
const realDir = join(shared, 'pgn', 'real');
const files = readdirSync(realDir).filter((f) => f.endsWith('.pgn')).sort().map((f) => join(realDir, f));
// Games split at their tag sections and read by chess.js (a game it cannot read is left out: the
// work must be the same on both sides).
const games = [];
for (const path of files) {
  for (const text of readFileSync(path, 'latin1').split(/\r?\n\s*\n(?=\[)/)) {
    if (/\[(FEN|SetUp|Variant) /.test(text)) continue;
    const c = new Chess();
    try { c.loadPgn(text); } catch { continue; }
    if (c.history().length) games.push(c.history());
  }
}
const plies = games.reduce((n, g) => n + g.length, 0);

function replayArbiter() {
  let drawsSeen = 0;
  for (const moves of games) {
    const g = new arbiter.Game({ rules: 'uscf' });  // no automatic ending: every ply is played
    for (const m of moves) {
      g.push(m);
      const s = g.status();
      if (s.termination || s.claims?.threefold.now) ++drawsSeen;
    }
    g.delete();
  }
  return drawsSeen;
}
function replayChess() {
  let drawsSeen = 0;
  for (const moves of games) {
    const c = new Chess();
    for (const m of moves) {
      c.move(m);
      if (c.isThreefoldRepetition() || c.isDraw()) ++drawsSeen;
    }
  }
  return drawsSeen;
}
const replay = [];
for (let r = 0; r < rounds; ++r) replay.push([time(replayArbiter)[0], time(replayChess)[0]]);
const [ra, rc] = best(replay);
console.log(`replay: ${games.length} games, ${plies} plies, a status after every ply (best of ${rounds})\n`);
row('', 'arbiter (wasm)', 'chess.js', 'ratio');
row('---', '---:', '---:', '---:');
row('µs a ply', (ra * 1000 / plies).toFixed(2), (rc * 1000 / plies).toFixed(2), `**${(rc / ra).toFixed(2)}×**`);
console.log();

// ---- perft: leaf nodes a second; chess.js at a smaller depth (it is two orders slower) ----
const kiwipete = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
const perfts = [['start', undefined, 6, 119060324, 4, 197281], ['Kiwipete', kiwipete, 5, 193690690, 3, 97862]];
row('perft', 'arbiter (wasm) Mnodes/s', 'chess.js Mnodes/s', 'ratio', 'native CLI Mnodes/s', 'wasm/native');
row('---', '---:', '---:', '---:', '---:', '---:');
for (const [name, fen, depth, nodes, cdepth, cnodes] of perfts) {
  const p = new arbiter.Position(fen);
  const c = new Chess(fen);
  const pairs = [], native = [];
  for (let r = 0; r < rounds; ++r) {
    const [ta, na] = time(() => p.perft(depth));
    const [tc, nc] = time(() => c.perft(cdepth));
    if (na !== nodes || nc !== cnodes) throw new Error(`perft ${name}: ${na}, ${nc}, expected ${nodes}, ${cnodes}`);
    pairs.push([ta, tc]);
    const [tn, out] = time(() => execFileSync(cli, ['perft', String(depth), ...(fen ? ['--fen', fen] : [])], { encoding: 'utf8' }));
    if (!out.includes(String(nodes))) throw new Error(`native perft ${name}: ${out}`);
    native.push(tn);
  }
  const [ta, tc] = best(pairs);
  const tn = Math.min(...native);
  const mnps = (n, ms) => (n / ms / 1000).toFixed(1);
  row(`${name} (arbiter and native depth ${depth}, chess.js depth ${cdepth})`, mnps(nodes, ta), mnps(cnodes, tc),
    `**${((nodes / ta) / (cnodes / tc)).toFixed(0)}×**`, mnps(nodes, tn), `${(100 * tn / ta).toFixed(0)} %`);
}
console.log('\n(the native figure includes starting the process, a few milliseconds)\n');

// ---- the audit: wasm against the native CLI on the same files ----
const texts = files.map((f) => readFileSync(f));
const bytes = files.reduce((n, f) => n + statSync(f).size, 0);
const audits = [];
for (let r = 0; r < rounds; ++r) {
  const [tw] = time(() => texts.reduce((n, t, i) => n + arbiter.audit(t, { file: files[i] }).length, 0));
  const [tn] = time(() => execFileSync(cli, ['audit', '--threads', '1', '-q', '--format', 'summary', ...files]));
  audits.push([tw, tn]);
}
const [tw, tn] = best(audits);
row('audit of the real corpora', 'bytes', 'wasm ms', 'native ms (1 thread)', 'native speed kept');
row('---', '---:', '---:', '---:', '---:');
row(`${files.length} files`, bytes, tw.toFixed(0), tn.toFixed(0), `${(100 * tn / tw).toFixed(0)} %`);
