// index.mjs — arbiter in JavaScript: the draw rules of chess from the WebAssembly build of the
// library. Each call gives the same JSON as the command line (`arbiter status|claim|dead --json`)
// and the service; a refusal throws an ArbiterError carrying the library's code, field and byte.
//
//   import { load } from './index.mjs';
//   const arbiter = await load();
//   arbiter.status({ moves: 'Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8' }).threefold.now   // true
import createArbiterModule from './arbiter_wasm.mjs';

// Emscripten 3.1.6's ES module still reaches for CommonJS names when it runs under Node.js
// (`require`, `__dirname`); they are given to it here, and only under Node.
const node = typeof process === 'object' && typeof process.versions?.node === 'string';
if (node) {
  const { createRequire } = await import('node:module');
  globalThis.require ??= createRequire(import.meta.url);
  globalThis.__dirname ??= new URL('.', import.meta.url).pathname;
}

/** A request the library refused: `code` is stable (docs/json.md), `field` and `offset` say where. */
export class ArbiterError extends Error {
  constructor({ code, message, field, offset }) {
    super(message);
    this.name = 'ArbiterError';
    this.code = code;
    this.field = field ?? null;
    this.offset = offset ?? null;
  }
}

/** Loads the module (the wasm is inside this package: no fetch, no file to serve). */
export async function load() {
  const m = await createArbiterModule();
  const call = (what, request) => {
    const answer = JSON.parse(m.request(what, JSON.stringify(request ?? {})));
    if (answer.error) throw new ArbiterError(answer.error);
    return answer;
  };
  return {
    version: m.version(),
    /** The draw status of a position or game: {fen, moves, pgn, game, ply, rules, …}. */
    status: (request) => call('status', request),
    /** A claim (kind "threefold" or "fifty", an intended move or none) on a position or game. */
    claim: (request) => call('claim', request),
    /** Whether each side can still checkmate: side "white", "black" or "both" (the default). */
    dead: (fen, side = 'both', options = {}) => call('dead', { fen, side, ...options }),
    /** A position (the start position without a FEN): a value, nothing to free. */
    Position: class Position {
      constructor(fen) {
        const answer = call('moves', fen === undefined ? {} : { fen });
        this.fen = answer.fen;
        this.turn = answer.side_to_move;
        this.check = answer.check;
        this.moves = answer.moves;
      }
      /** The legal moves, in SAN ("Nf3") or in UCI ("g1f3"). */
      legalMoves(notation = 'san') { return this.moves.map((m) => m[notation]); }
      isCheck() { return this.check; }
      /** The position after a move (SAN or UCI); throws an ArbiterError for an illegal one. */
      play(move) { return new Position(call('play', { fen: this.fen, move }).fen); }
      /** The SAN and UCI of a move given either way. */
      move(move) { const { san, uci } = call('play', { fen: this.fen, move }); return { san, uci }; }
      /** Leaf nodes of the legal move tree to `depth` plies (0 to 8). */
      perft(depth) { return call('perft', { fen: this.fen, depth }).nodes; }
    },
  };
}
