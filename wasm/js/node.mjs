// node.mjs — the package under Node.js (package.json's "node" condition): index.mjs, whose load()
// is given the bytes of arbiter_wasm.wasm read from disk beside this file. Everything else is
// index.mjs's own; browsers and bundlers targeting them get index.mjs, which needs no Node.js
// built-in.
import { readFile } from 'node:fs/promises';
import { load as loadWith } from './index.mjs';

export * from './index.mjs';

/** Loads the module: `wasmBinary` or `wasmUrl` when given, else arbiter_wasm.wasm from beside this file. */
export async function load(options = {}) {
  if (typeof options !== 'object' || options === null || options.wasmBinary !== undefined || options.wasmUrl !== undefined) {
    return loadWith(options);  // checked there
  }
  return loadWith({ ...options, wasmBinary: await readFile(new URL('./arbiter_wasm.wasm', import.meta.url)) });
}
