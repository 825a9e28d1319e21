// compat_bench.mjs PACKAGE_DIR CHESSJS_DIR SHARED_DATA [ROUNDS] — arbiter-chess/compat against
// chess.js 1.4.0 in the same Node.js process on the real games (make bench-wasm; issue 63): the
// chess.js-style loop, `move(san)` + `isThreefoldRepetition()` + `isDraw()` + `isGameOver()` after
// every ply, the same code run with each class. Each round alternates the two; the best of each is kept.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [pkgDir, chessDir, shared, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 5);
const { Chess: Compat } = await import(pathToFileURL(resolve(pkgDir, 'compat-node.mjs')).href);
const { Chess: Peer } = createRequire(resolve(chessDir, 'x.js'))('chess.js');

const dir = join(shared, 'pgn', 'real');
const games = [];
for (const f of readdirSync(dir).filter((x) => x.endsWith('.pgn')).sort()) {
  for (const text of readFileSync(join(dir, f), 'latin1').split(/\r?\n\s*\n(?=\[)/)) {
    if (/\[(FEN|SetUp|Variant) /.test(text)) continue;
    const c = new Peer();
    try { c.loadPgn(text); } catch { continue; }
    if (c.history().length) games.push(c.history());
  }
}
const plies = games.reduce((n, g) => n + g.length, 0);

// The loop a chess.js program writes, unchanged for either class.
function loop(Chess) {
  let seen = 0;
  for (const moves of games) {
    const c = new Chess();
    for (const san of moves) {
      c.move(san);
      if (c.isThreefoldRepetition()) ++seen;
      if (c.isDraw()) ++seen;
      if (c.isGameOver()) ++seen;
    }
  }
  return seen;
}
const now = () => Number(process.hrtime.bigint()) / 1e6;
let best = [Infinity, Infinity];
for (let r = 0; r < rounds; ++r) {
  let t = now(); loop(Compat); const a = now() - t;
  t = now(); loop(Peer); const p = now() - t;
  best = [Math.min(best[0], a), Math.min(best[1], p)];
}
const [a, p] = best;
console.log(`chess.js loop (move + isThreefoldRepetition + isDraw + isGameOver): ${games.length} games, ${plies} plies, best of ${rounds}\n`);
console.log('| | arbiter-chess/compat | chess.js 1.4.0 | ratio |');
console.log('| --- | ---: | ---: | ---: |');
console.log(`| µs a ply | ${(a * 1000 / plies).toFixed(2)} | ${(p * 1000 / plies).toFixed(2)} | **${(p / a).toFixed(2)}×** |`);
