// compat.cjs — chess.js's API on arbiter for CommonJS: `const { Chess } = require('arbiter-chess/compat')`.
// require() cannot wait, so the wasm is read and instantiated synchronously here (Emscripten's
// instantiateWasm hook with WebAssembly.Module/Instance: a few tens of milliseconds, once), with
// the CommonJS copies of the loader and of compat_core.mjs that the build makes (make_cjs.mjs).
'use strict';

const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const createArbiterModule = require('./arbiter_wasm.cjs');
const core = require('./compat_core.cjs');

// The CommonJS copy of the package's error class (errors.mjs): `instanceof` holds across both.
const { ArbiterError } = require('./errors.cjs');

const bytes = readFileSync(join(__dirname, 'arbiter_wasm.wasm'));
const wasm = {
  instantiateWasm(imports, receive) {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), imports);
    receive(instance);
    return instance.exports;
  },
};
createArbiterModule(wasm);
if (typeof wasm.Compat !== 'function') throw new Error('arbiter-chess/compat: the wasm did not start synchronously');

const { Chess, Move } = core.compatApi(wasm, ArbiterError);
const { WHITE, BLACK, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, DEFAULT_POSITION, SQUARES, SEVEN_TAG_ROSTER, validateFen } = core;
module.exports = {
  Chess, Move, ArbiterError, validateFen, WHITE, BLACK, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, DEFAULT_POSITION, SQUARES,
  SEVEN_TAG_ROSTER,
};
