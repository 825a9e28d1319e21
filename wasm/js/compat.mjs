// compat.mjs — chess.js's API on arbiter, for browsers and bundlers (package.json's "./compat"
// default): `import { Chess } from 'arbiter-chess/compat'` is all the set-up. The wasm is fetched
// from beside this module by the import itself (top-level await); Node.js gets compat-node.mjs.
import createArbiterModule from './arbiter_wasm.mjs';
import { ArbiterError } from './index.mjs';
import { compatApi } from './compat_core.mjs';

export { ArbiterError };
export { WHITE, BLACK, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, DEFAULT_POSITION, SQUARES, SEVEN_TAG_ROSTER, validateFen } from './compat_core.mjs';

const url = new URL('./arbiter_wasm.wasm', import.meta.url);
const response = await fetch(url);
if (!response.ok) {
  throw new ArbiterError({ code: 'wasm_unavailable', field: 'wasmUrl', message: `arbiter-chess/compat: cannot fetch ${url}: ` +
    `HTTP ${response.status}: serve arbiter_wasm.wasm (node_modules/arbiter-chess/arbiter_wasm.wasm) beside the bundle` });
}
const module = await createArbiterModule({ wasmBinary: new Uint8Array(await response.arrayBuffer()) });

export const { Chess, Move } = compatApi(module, ArbiterError);
