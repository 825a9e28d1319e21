// arbiter.audit() and Game on real games: the records of `arbiter audit --format jsonl` for the
// project's fixtures and, when the shared corpora are there (../shared/data), for every real
// corpus file; status and claims at a sampled ply of real games, as the CLI gives them for
// --pgn FILE --game N --ply K.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

import { arbiter, cli, cliJson, root, runCli, seeded, shared } from './support.mjs';

const noCli = cli ? false : 'no native arbiter (ARBITER_CLI)';
const realDir = shared ? join(shared, 'pgn', 'real') : null;
const realFiles = realDir ? readdirSync(realDir).filter((f) => f.endsWith('.pgn')).sort().map((f) => join(realDir, f)) : [];

/** audit() on a file's text against the CLI's lines on the file, under `options` and the same CLI flags. */
function sameAudit(path, options = {}, flags = []) {
  const { status, stdout, stderr } = runCli('audit', '--format', 'jsonl', '-q', ...flags, path);
  assert.ok(status === 0 && stdout, stderr);
  const want = stdout.split('\n').filter((l) => l).map((l) => JSON.parse(l));
  // The file's bytes as they are (a Uint8Array): a text in Latin-1 is audited as the CLI reads it.
  assert.deepEqual(arbiter.audit(readFileSync(path), { file: path, ...options }), want, path);
  return want.length;
}

test('audit(): the records of arbiter audit --format jsonl (fixtures)', { skip: noCli }, () => {
  for (const f of ['tests/data/audit/findings.pgn', 'tests/data/pgn/features.pgn', 'tests/data/pgn/features_crlf.pgn'])
    assert.ok(sameAudit(join(root, f)) > 0);
  const findings = join(root, 'tests/data/audit/findings.pgn');
  sameAudit(findings, { rules: 'uscf' }, ['--rules', 'uscf']);
  sameAudit(findings, { only: ['threefold,missed_automatic_draw'] }, ['--only', 'threefold,missed_automatic_draw']);
  sameAudit(findings, { select: ['Result=1/2-1/2'], time_category: 'rapid' },
    ['--select', 'Result=1/2-1/2', '--time-category', 'rapid']);
});

test('audit(): refusals', () => {
  assert.throws(() => arbiter.audit('', { rules: 'fide-1999' }), (e) => e.code === 'unknown_rule_set' && e.field === 'rules');
  assert.throws(() => arbiter.audit('', { only: ['no_such_thing'] }), (e) => e.code === 'bad_value' && e.field === 'only');
  assert.throws(() => arbiter.audit('', { colour: 1 }), (e) => e.code === 'bad_field' && e.field === 'colour');
  assert.deepEqual(arbiter.audit(''), []);
});

test('audit(): every real corpus file as the CLI audits it', { skip: noCli || (shared ? false : 'no shared corpora') }, () => {
  let games = 0;
  for (const f of realFiles) games += sameAudit(f);
  assert.ok(games > 3000, `${games} games`);
});

test('Game: status and claims at a sampled ply of real games, as the CLI', { skip: noCli || (shared ? false : 'no shared corpora') }, () => {
  const pick = seeded(31);
  let checked = 0;
  for (const path of realFiles) {
    const text = readFileSync(path, 'utf8');
    for (const rec of arbiter.audit(text)) {
      if (rec.errors.length || rec.game % 8 !== 1) continue;
      // Plies are counted from the game's first (its FEN's move number): the whole game says where.
      const whole = new arbiter.Game({ pgn: text, game: rec.game });
      const ply = whole.ply - whole.history().length + pick(whole.history().length + 1);
      whole.delete();
      const args = ['--pgn', path, '--game', String(rec.game), '--ply', String(ply)];
      const g = new arbiter.Game({ pgn: text, game: rec.game, ply });
      assert.deepEqual(g.status(), cliJson('status', '--json', ...args), `${path} game ${rec.game} ply ${ply}`);
      if (rec.game % 3 === 0) {
        const kind = rec.game % 2 ? 'threefold' : 'fifty';
        assert.deepEqual(g.claim(kind), cliJson('claim', kind, '--json', ...args), `${path} game ${rec.game} ${kind}`);
      }
      g.delete();
      ++checked;
    }
  }
  assert.ok(checked > 300, `${checked} plies`);
});

test('the audit takes the rule options as arbiter audit does', () => {
  const pgn = '[Event "x"]\n[Result "1/2-1/2"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n\n';
  const base = arbiter.audit(pgn, { rules: 'fide-2023' });
  const without = arbiter.audit(pgn, { rules: 'fide-2023', initial_position_counts: false });
  assert.notDeepEqual(base[0].findings, without[0].findings, 'the start position counted or not changes the threefold');
  assert.throws(() => arbiter.audit(pgn, { rules: 'fide-2023', online_claims: true }),
    (e) => e.code === 'bad_usage' && e.field === 'online_claims' && !e.message.includes('--'));
  assert.throws(() => arbiter.audit(pgn, { counters_from_setup: 'sometimes' }),
    (e) => e.code === 'bad_value' && e.field === 'counters_from_setup');
  if (cli) {
    const want = execFileSync(cli, ['audit', '--format', 'jsonl', '--rules', 'fide-2023', '--initial-position-counts', 'false', '-'],
      { input: pgn, encoding: 'utf8' }).trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(without.map((r) => r.findings), want.map((r) => r.findings));
  }
});
