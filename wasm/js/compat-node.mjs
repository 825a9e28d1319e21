// compat-node.mjs — chess.js's API on arbiter under Node.js (package.json's "./compat" node
// import): `import { Chess } from 'arbiter-chess/compat'`; the import reads and compiles the wasm
// beside this file (top-level await), nothing else to set up. docs/javascript.md, "chess.js drop-in".
import { readFile } from 'node:fs/promises';
import createArbiterModule from './arbiter_wasm.mjs';
import { ArbiterError } from './index.mjs';
import { compatApi } from './compat_core.mjs';

export { ArbiterError };
export { WHITE, BLACK, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, DEFAULT_POSITION, SQUARES, SEVEN_TAG_ROSTER, validateFen } from './compat_core.mjs';

const module = await createArbiterModule({ wasmBinary: await readFile(new URL('./arbiter_wasm.wasm', import.meta.url)) });

export const { Chess, Move } = compatApi(module, ArbiterError);
