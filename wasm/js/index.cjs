// index.cjs — arbiter for CommonJS (`require('arbiter-chess')`): the package is an ES module (its
// WebAssembly loader is one), so load() here imports it and resolves to the same API; the
// ArbiterError class is on the loaded API (`arbiter.ArbiterError`) and on `require(…).errors()`.
'use strict';

let api = null;
const esm = () => (api ??= import('./node.mjs'));

/** Loads the module: the same API as the ES module's load(). */
async function load(options) {
  const m = await esm();
  const arbiter = await m.load(options);
  return Object.assign(Object.create(null), arbiter, { ArbiterError: m.ArbiterError });
}

module.exports = { load };
