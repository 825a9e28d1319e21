// use.ts — the declarations of index.d.ts as a TypeScript user meets them: type-checked with
// --strict against the built package and then run (check.sh, test wasm.types), so that a type
// that says what the answers are not fails one way or the other. `@ts-expect-error` lines are
// the mistakes the types must catch (a nullable read without a check).
import { load, ArbiterError, type Arbiter, type Termination, type ClaimVerdict, type Status } from 'arbiter-chess';

function assert(ok: boolean, what: string): void {
  if (!ok) throw new Error('use.ts: ' + what);
}

// Every kind of ending is one of the union: a new kind in the JSON fails to compile here first.
function describe(t: Termination): string {
  switch (t.kind) {
    case 'checkmate': return (t.result === '1-0' ? 'White' : 'Black') + ' mates (' + t.article + ')';
    case 'stalemate': case 'dead_position': case 'fivefold_repetition': case 'seventy_five_moves':
    case 'threefold_repetition': case 'fifty_moves':
      return 'drawn: ' + t.kind + ' ' + t.result;
  }
}
function evidence(v: ClaimVerdict): string {
  return v.kind === 'threefold' ? v.evidence.occurrences.map((o) => o.uci ?? 'start').join(' ')
    : `${v.evidence.no_progress_plies}/${v.evidence.required_plies}`;
}
function claimable(s: Status): boolean {
  return s.claims !== null && s.claims.threefold.now;
}
// Never called: what strict TypeScript must refuse to compile.
export function mistakes(s: Status, v: ClaimVerdict, a: Arbiter, e: ArbiterError): void {
  // @ts-expect-error: a misspelt error code is no code (ErrorCode is a union)
  void (e.code === 'ilegal_move');
  // @ts-expect-error: a misspelt rule-set id is no rule set (RuleSetId is a union)
  void new a.Game({ rules: 'fide-2024' });
  // @ts-expect-error: load() has no such option
  void load({ maxLiveGame: 10 });
  // @ts-expect-error: claims is null once the game has ended
  void s.claims.threefold;
  // @ts-expect-error: a fifty-move ruling has no occurrences; check v.kind first
  void v.evidence.occurrences;
  // @ts-expect-error: termination is null while the game goes on
  void s.termination.kind;
}

async function main() {
  const a = await load();
  const g = new a.Game({ moves: ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1'], rules: 'uscf' });
  const m = g.push('Ng8');
  assert(m.san === 'Ng8' && claimable(g.status()), 'a claimable threefold');
  const v = g.claim('threefold');
  assert(v.correct && evidence(v) === 'start f6g8 f6g8', 'threefold evidence ' + evidence(v));
  const fifty = a.claim({ kind: 'fifty', fen: '8/8/4k3/8/8/3K4/8/7R w - - 99 80', intended: 'Rh2' });
  assert(fifty.correct && evidence(fifty) === '100/100', 'fifty evidence ' + evidence(fifty));
  const mate = a.status({ moves: 'f3 e5 g4 Qh4#' });
  assert(mate.termination !== null && describe(mate.termination) === 'Black mates (5.1.1)', 'mate');
  assert(!claimable(mate), 'no claims after the end');
  const dead = a.status({ fen: '8/8/8/4k3/8/8/8/KB6 w - - 0 1' });
  assert(dead.termination?.kind === 'dead_position' && dead.termination.result === '1/2-1/2', 'dead');
  const n: number = new a.Position().perft(3);
  assert(n === 8902, 'perft');
  const r = a.audit('[White "A"]\n\n1. e4 e5 *\n', { only: ['threefold'] });
  assert(r[0]?.tags.White === 'A' && r[0].findings.length === 0 && r[0].errors.length === 0, 'audit');
  const d = a.dead('8/8/8/4k3/8/8/8/KB6 w - - 0 1');
  assert(d.dead === true && d.white === 'cannot_checkmate' && d.proof.white !== null, 'dead answer');
  const svg: string = a.boardSvg('8/8/8/8/8/8/8/K6k w - - 0 1', { highlight: ['a1'], arrow: ['a1a2'] });
  assert(svg.startsWith('<svg'), 'svg');
  const verbose = g.history({ verbose: true });
  assert(verbose[0]?.piece === 'n' && g.history('uci')[0] === 'g1f3', 'history');
  g.delete();
  try {
    g.status();
    assert(false, 'a deleted game answers');
  } catch (e) {
    assert(e instanceof ArbiterError && e.code === 'deleted' && e.field === null, 'deleted');
  }
  console.log('use.ts: ran, every answer as typed');
}
await main();  // a failure rejects: Node.js exits 1 with the error
