// Importing and loading the package changes nothing in the host (issue 46): no process handlers,
// no globals, no exit codes. Each check runs a small Node.js app twice, with and without the
// package loaded, and compares what the two do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { pkg, pkgDir } from './support.mjs';

const entry = pathToFileURL(join(pkgDir, pkg.exports['.'].node.import.default)).href;

// Runs `body` as an ES module, after importing and loading the package when `withPackage`.
function run(body, withPackage, nodeArgs = []) {
  const prologue = withPackage ? `const { load } = await import(${JSON.stringify(entry)}); await load();\n` : '';
  const r = spawnSync(process.execPath, [...nodeArgs, '--input-type=module', '-e', prologue + body],
    { encoding: 'utf8', timeout: 60_000 });
  // The process id and the stack frames differ from run to run (and the prologue adds a line).
  const stderr = r.stderr.replace(/\(node:\d+\)/g, '(node)').split('\n').filter((l) => !/^\s+at /.test(l)).join('\n');
  return { status: r.status, stdout: r.stdout, stderr };
}

test('an app\'s own unhandled rejection goes as it would without the package', () => {
  // Under --unhandled-rejections=warn, Node warns and goes on; the app's own handler sees it.
  const app = `process.on('unhandledRejection', (e) => console.log('handled', e.message));
Promise.reject(new Error('x'));
setTimeout(() => console.log('still running'), 50);`;
  for (const args of [['--unhandled-rejections=warn'], []]) {
    const without = run(app, false, args);
    const withIt = run(app, true, args);
    assert.deepEqual(withIt, without, `node ${args.join(' ')}`);
    assert.equal(withIt.status, 0);
    assert.match(withIt.stdout, /handled x\nstill running/);
  }
  // And with no handler of the app's: Node's own behaviour, exit code and message alike.
  const bare = 'Promise.reject(new Error("boom"));';
  const without = run(bare, false, ['--unhandled-rejections=warn']);
  const withIt = run(bare, true, ['--unhandled-rejections=warn']);
  assert.equal(withIt.status, without.status);
  assert.ok(withIt.stderr.length < 4096, 'no minified loader printed with the error');
});

test('an app\'s uncaught error exits as it would without the package, without the loader\'s source', () => {
  const app = 'setTimeout(() => { throw new Error("mine"); }, 10);';
  const without = run(app, false);
  const withIt = run(app, true);
  assert.equal(withIt.status, without.status);
  assert.equal(withIt.status, 1);
  assert.ok(withIt.stderr.includes('Error: mine') && withIt.stderr.length < 4096, withIt.stderr.slice(0, 300));
});

test('no globals and no process listeners are added', () => {
  const body = `const before = Object.keys(globalThis).sort();
const listeners = () => ['uncaughtException', 'unhandledRejection', 'exit'].map((e) => process.listenerCount(e));
const l0 = listeners();
const { load } = await import(${JSON.stringify(entry)});
const arbiter = await load();
arbiter.status({ moves: 'e4 e5' });
console.log(JSON.stringify({ same: JSON.stringify(Object.keys(globalThis).sort()) === JSON.stringify(before),
  added: Object.keys(globalThis).filter((k) => !before.includes(k)), listeners: listeners(), l0,
  require: typeof globalThis.require, dirname: typeof globalThis.__dirname }));`;
  const r = run(body, false);
  assert.equal(r.status, 0, r.stderr);
  const got = JSON.parse(r.stdout);
  assert.deepEqual(got.added, []);
  assert.ok(got.same);
  assert.deepEqual(got.listeners, got.l0);
  assert.equal(got.require, 'undefined');
  assert.equal(got.dirname, 'undefined');
});

test('require() and import give a module whose load() works (package.json\'s node conditions)', async () => {
  // The package as an app installs it: a node_modules/arbiter-chess folder with its files.
  const { mkdtempSync, mkdirSync, copyFileSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const app = mkdtempSync(join(tmpdir(), 'arbiter-cjs-'));
  try {
    const dir = join(app, 'node_modules', 'arbiter-chess');
    mkdirSync(dir, { recursive: true });
    for (const f of [...pkg.files, 'package.json']) copyFileSync(join(pkgDir, f), join(dir, f));
    writeFileSync(join(app, 'app.cjs'), `const { load } = require('arbiter-chess');
load().then((a) => {
  const g = new a.Game({ moves: 'Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8' });
  console.log(JSON.stringify({ claim: g.canClaimThreefold(), error: typeof a.ArbiterError }));
});`);
    const r = spawnSync(process.execPath, [join(app, 'app.cjs')], { encoding: 'utf8', cwd: app, timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { claim: true, error: 'function' });
    // import under Node.js: the "node" condition (node.mjs reads the wasm from disk).
    writeFileSync(join(app, 'app.mjs'), `import { load, ArbiterError } from 'arbiter-chess';
const a = await load();
console.log(JSON.stringify({ claim: a.status({ moves: 'Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8' }).claims.threefold.now, error: typeof ArbiterError }));`);
    const e = spawnSync(process.execPath, [join(app, 'app.mjs')], { encoding: 'utf8', cwd: app, timeout: 60_000 });
    assert.equal(e.status, 0, e.stderr);
    assert.deepEqual(JSON.parse(e.stdout), { claim: true, error: 'function' });
    // The browser entry under Node.js by its path: a clear word on what to import instead.
    writeFileSync(join(app, 'direct.mjs'), `import { load } from './node_modules/arbiter-chess/index.mjs';
try { await load(); console.log('loaded'); } catch (err) { console.log(err.message); }`);
    const d = spawnSync(process.execPath, [join(app, 'direct.mjs')], { encoding: 'utf8', cwd: app, timeout: 60_000 });
    assert.match(d.stdout, /under Node\.js import 'arbiter-chess'/);
  } finally {
    rmSync(app, { recursive: true, force: true });
  }
});
