// use.ts — the declarations of index.d.ts as a TypeScript user meets them: type-checked (never run)
// by the test wasm.types (check.sh) against the built package, with --strict.
import { load, ArbiterError } from 'arbiter-chess';
async function main() {
  const a = await load();
  const g = new a.Game({ moves: ['e4'], rules: 'uscf' });
  const m = g.push('e5'); const s = g.status(); const v = g.claim('threefold', 'Nf3');
  const n: number = new a.Position().perft(3);
  const r = a.audit('x', { only: ['threefold'] });
  const svg: string = a.boardSvg('8/8/8/8/8/8/8/K6k w - - 0 1');
  console.log(m.san, s.claims.threefold.now, v.correct, n, r[0]?.game, svg.length, g.history('uci'), a.dead('x').dead);
  g.delete();
  try { g.status(); } catch (e) { if (e instanceof ArbiterError) console.log(e.code, e.field, e.offset); }
}
main();
