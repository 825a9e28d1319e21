// support.mjs — what the node tests of tests/wasm/ share: the package loaded as a user loads
// it (through its package.json), the native CLI to compare with (ARBITER_CLI; null when absent),
// its JSON for the same request, and the shared corpora (ARBITER_SHARED_DATA or ../shared/data
// from the project root; null when absent, and the tests that need them skip).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const pkgDir = process.env.ARBITER_JS;
export const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
export const api = await import(pathToFileURL(join(pkgDir, pkg.exports['.'].node.import.default)).href);
export const arbiter = await api.load();
export const cli = process.env.ARBITER_CLI && existsSync(process.env.ARBITER_CLI) ? process.env.ARBITER_CLI : null;
const sharedPath = process.env.ARBITER_SHARED_DATA ?? join(root, '..', 'shared', 'data');
export const shared = existsSync(sharedPath) ? sharedPath : null;

/** The CLI's stdout parsed as JSON (it must succeed). */
export function cliJson(...args) {
  return JSON.parse(execFileSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 28 }));
}

/** The CLI run as it is: {status, stdout, stderr}. */
export function runCli(...args) {
  const r = spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The test vectors of RULES.md §7 as the Python tests replay them (tests/data/rules_vectors.json). */
export const vectors = JSON.parse(readFileSync(join(root, 'tests', 'data', 'rules_vectors.json'), 'utf8'));

/** A small random number generator, seeded: the same sample on every run. */
export function seeded(seed) {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}
