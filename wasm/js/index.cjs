// index.cjs — arbiter for CommonJS (`require('arbiter-chess')`): the package is an ES module (its
// WebAssembly loader is one), so load() here imports it and resolves to the same API. The
// ArbiterError class is here before anything is loaded (`require('arbiter-chess').ArbiterError`)
// and on the loaded API; `instanceof` holds for the errors of either copy (errors.mjs).
'use strict';

const { ArbiterError } = require('./errors.cjs');

let api = null;
const esm = () => (api ??= import('./node.mjs'));

/** Loads the module: the same API as the ES module's load(). */
async function load(options) {
  const m = await esm();
  const arbiter = await m.load(options);
  return Object.assign(Object.create(null), arbiter, { ArbiterError: m.ArbiterError });
}

module.exports = { load, ArbiterError };
