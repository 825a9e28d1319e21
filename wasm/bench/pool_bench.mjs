// pool_bench.mjs PACKAGE_DIR SHARED_DATA [ROUNDS] — the cost of a ply when games outnumber the
// live-game pool (make bench-wasm; issue 63): N games of the real corpora played side by side,
// one ply of each in turn (push + status), with N inside the pool (32 games, pool 64) and past it
// (65 and 128 games, pool 64: every use restores a game from its snapshot and gives another back),
// and with the pool set to hold them all (128 games, load({ maxLiveGames: 256 })). Each round runs
// the four cases alternately; the median of the rounds is printed, with each ratio to the in-pool cost.
// Then the cost of opening one game of the largest real file (new Game({pgn, game})): the first,
// the middle and the last game, and the whole file audited, for scale.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [pkgDir, shared, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 5);
const { load } = await import(pathToFileURL(resolve(pkgDir, 'node.mjs')).href);
const small = await load();
const large = await load({ maxLiveGames: 256 });

// Games of at least 60 plies from the real corpora (their UCI moves), read by the package itself.
const dir = join(shared, 'pgn', 'real');
const games = [];
for (const f of readdirSync(dir).filter((x) => x.endsWith('.pgn')).sort()) {
  const text = readFileSync(join(dir, f), 'latin1');
  for (const r of small.audit(text)) {
    if (games.length >= 256 || r.plies < 60 || r.errors.length || r.tags.FEN) continue;
    const g = new small.Game({ pgn: text, game: r.game_in_file });
    games.push(g.history('uci').slice(0, 60));
    g.delete();
  }
  if (games.length >= 256) break;
}

// µs a ply: `count` games, each played one ply in turn for 60 plies, status() after each.
function run(arbiter, count) {
  const open = Array.from({ length: count }, () => new arbiter.Game());
  const t0 = process.hrtime.bigint();
  for (let ply = 0; ply < 60; ++ply) {
    for (let i = 0; i < count; ++i) {
      open[i].push(games[i % games.length][ply]);
      open[i].status();
    }
  }
  const us = Number(process.hrtime.bigint() - t0) / 1e3 / (60 * count);
  for (const g of open) g.delete();
  return us;
}

const cases = [
  ['32 games, pool 64 (in the pool)', small, 32],
  ['65 games, pool 64', small, 65],
  ['128 games, pool 64', small, 128],
  ['128 games, pool 256', large, 128],
];
for (const [, a, n] of cases) run(a, n);  // warm up
const times = cases.map(() => []);
for (let r = 0; r < rounds; ++r) cases.forEach(([, a, n], k) => times[k].push(run(a, n)));
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const base = median(times[0]);
console.log(`live-game pool: ${games.length} real games, 60 plies each, push + status a ply, median of ${rounds} rounds`);
cases.forEach(([name], k) => {
  const t = median(times[k]);
  console.log(`  ${name.padEnd(34)} ${t.toFixed(1).padStart(6)} µs a ply  ${(t / base).toFixed(2)}× the in-pool cost`);
});

// One game of a large file: the games before it are scanned (their moves not played), none after it read.
const largest = readdirSync(dir).filter((x) => x.endsWith('.pgn')).map((f) => join(dir, f))
  .map((f) => [f, readFileSync(f, 'latin1')]).sort((a, b) => b[1].length - a[1].length)[0];
const [file, text] = largest;
const count = small.audit(text).length;
const timed = (f) => {
  const ms = [];
  for (let r = 0; r < rounds; ++r) {
    const t0 = performance.now();
    f();
    ms.push(performance.now() - t0);
  }
  return median(ms);
};
console.log(`one game of ${file.split('/').pop()} (${(text.length / 1e6).toFixed(1)} MB, ${count} games), median of ${rounds}:`);
for (const n of [1, Math.ceil(count / 2), count]) {
  const ms = timed(() => new small.Game({ pgn: text, game: n }).delete());
  console.log(`  new Game({pgn, game: ${n}})`.padEnd(36) + `${ms.toFixed(1).padStart(7)} ms`);
}
console.log('  audit(pgn), every game'.padEnd(36) + `${timed(() => small.audit(text)).toFixed(1).padStart(7)} ms`);
