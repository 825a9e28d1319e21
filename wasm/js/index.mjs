// index.mjs — arbiter in JavaScript: the draw rules of chess from the WebAssembly build of the
// library (arbiter_wasm.wasm, beside this file). Each call gives the same JSON as the command line (`arbiter status|claim|dead --json`)
// and the service; a refusal throws an ArbiterError carrying the library's code, field and byte.
//
//   import { load } from 'arbiter-chess';   // node.mjs under Node.js, this file in browsers
//   const arbiter = await load();
//   arbiter.status({ moves: 'Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8' }).claims?.threefold.now   // true
import createArbiterModule from './arbiter_wasm.mjs';
import { ArbiterError } from './errors.mjs';

export { ArbiterError };

// The Emscripten module is built for the web only (wasm/CMakeLists.txt): it sets no process
// handlers and writes no globals. This file uses no Node.js built-in, so that a bundler targeting
// browsers takes it as it is; under Node.js the package's entry is node.mjs (package.json's
// "node" condition), which reads the wasm bytes from disk and hands them to load().

const INITIAL_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

// The moves of a game as --moves takes them: an array of SAN/UCI moves, or one string.
const movesText = (moves) => (Array.isArray(moves) ? moves.join(' ') : moves);

// Arguments are checked, never coerced: a wrong type is the service's bad_field for the same key.
const typeName = (x) => (x === null ? 'null' : Number.isNaN(x) ? 'NaN' : Array.isArray(x) ? 'array' : typeof x === 'object'
  ? (x.constructor?.name ?? 'object') : typeof x);
function refuse(code, field, message) {
  throw new ArbiterError({ code, field, message });
}
function expectType(ok, field, expected, value) {
  if (!ok) refuse('bad_field', field, `${field}: expected ${expected}, got ${typeName(value)}`);
}
const isObject = (x) => typeof x === 'object' && x !== null && !Array.isArray(x);
// An option object of `method`: an object whose keys are all in `known` (as the service refuses
// an unknown key), returned as it is.
function checkedOptions(options, method, known) {
  expectType(isObject(options), 'options', `an object of options (${known.join(', ')})`, options);
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) refuse('bad_field', key, `${key}: not an option of ${method} (${known.join(', ')})`);
  }
  return options;
}
// A request object as the service takes it, with `moves` as an array joined as Game takes it.
function requestOf(request) {
  expectType(request === undefined || isObject(request), 'request', 'an object such as {moves, fen, rules}', request);
  const r = { ...request };
  if (Array.isArray(r.moves)) r.moves = movesText(r.moves);
  return r;
}
// A move as SAN or UCI text, or chess.js's {from, to, promotion}.
function moveText(move, field = 'move') {
  if (typeof move === 'string') return move;
  if (isObject(move) && typeof move.from === 'string' && typeof move.to === 'string') {
    expectType(move.promotion === undefined || typeof move.promotion === 'string', `${field}.promotion`,
      'a piece letter (q, r, b, n)', move.promotion);
    return move.from + move.to + (move.promotion ?? '');
  }
  return expectType(false, field, 'SAN or UCI text, or {from, to, promotion}', move);
}
// The bytes or text of a PGN for audit(): a string, a Uint8Array, an ArrayBuffer or a view.
function pgnInput(pgn) {
  if (typeof pgn === 'string' || pgn instanceof Uint8Array) return pgn;
  if (pgn instanceof ArrayBuffer) return new Uint8Array(pgn);
  if (ArrayBuffer.isView(pgn)) return new Uint8Array(pgn.buffer, pgn.byteOffset, pgn.byteLength);
  const hint = typeof Blob === 'function' && pgn instanceof Blob ? ' (a Blob or File: await auditAsync(blob))'
    : typeof Response === 'function' && pgn instanceof Response ? ' (a Response: await auditAsync(response))'
      : typeof ReadableStream === 'function' && pgn instanceof ReadableStream ? ' (a stream: await auditAsync(stream))' : '';
  return expectType(false, 'pgn', `PGN as a string, Uint8Array or ArrayBuffer${hint}`, pgn);
}

// The chunks of bytes of a Blob (a File), a Response or a ReadableStream of bytes as they are
// read, for auditAsync() and auditRecords(); any other input as audit() takes it, in one chunk. A
// failed Response (HTTP 404) is refused, not audited.
async function pgnChunks(pgn) {
  if (typeof Blob === 'function' && pgn instanceof Blob) return pgnChunks(pgn.stream());
  if (typeof Response === 'function' && pgn instanceof Response) {
    if (!pgn.ok) refuse('bad_input', 'pgn', `pgn: the response is HTTP ${pgn.status}${pgn.url ? ` (${pgn.url})` : ''}, not a PGN`);
    return pgn.body === null ? [] : pgnChunks(pgn.body);
  }
  if (typeof ReadableStream === 'function' && pgn instanceof ReadableStream) {
    return (async function* read() {
      const reader = pgn.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          yield pgnInput(value);
        }
      } finally {
        reader.releaseLock();
      }
    })();
  }
  return [pgnInput(pgn)];
}

// Where to get arbiter_wasm.wasm when a bundle did not keep it beside the module (the error's
// hint and docs/javascript.md, "Bundling").
const WASM_HINT = 'serve arbiter_wasm.wasm (node_modules/arbiter-chess/arbiter_wasm.wasm) beside the bundle, ' +
  'or say where it is: load({ wasmUrl }), or hand over its bytes: load({ wasmBinary })';

// The bytes of arbiter_wasm.wasm: fetched from `wasmUrl`, else from beside this module (serve the
// file beside index.mjs; bundlers follow `new URL(…, import.meta.url)` or put the file beside the
// bundle). Every failure is an ArbiterError wasm_unavailable naming the URL and what to do.
async function wasmBytes(wasmUrl) {
  let url;
  if (wasmUrl !== undefined) {
    expectType(typeof wasmUrl === 'string' || wasmUrl instanceof URL, 'wasmUrl', 'a URL (string or URL)', wasmUrl);
    try {
      url = new URL(wasmUrl, globalThis.location?.href);
    } catch {
      refuse('wasm_unavailable', 'wasmUrl', `wasmUrl: ${JSON.stringify(String(wasmUrl))} is not a URL`);
    }
  } else {
    const base = import.meta.url;
    if (typeof base !== 'string' || base === '') {
      refuse('wasm_unavailable', 'wasmUrl', 'arbiter: this module was bundled without import.meta.url (esbuild ' +
        "--format=iife or cjs), so it cannot find arbiter_wasm.wasm: bundle it as an ES module (--format=esm), or " +
        WASM_HINT);
    }
    url = new URL('./arbiter_wasm.wasm', base);
    if (url.protocol === 'file:' && typeof process === 'object' && typeof process.versions?.node === 'string') {
      refuse('wasm_unavailable', 'wasmUrl',
        "arbiter: under Node.js import 'arbiter-chess' (its node.mjs entry reads the wasm file), or pass load({ wasmBinary })");
    }
  }
  let response;
  try {
    response = await fetch(url);
  } catch (e) {
    refuse('wasm_unavailable', 'wasmUrl', `arbiter: cannot fetch ${url} (${e?.message ?? e}): ${WASM_HINT}`);
  }
  if (!response.ok) refuse('wasm_unavailable', 'wasmUrl', `arbiter: cannot fetch ${url}: HTTP ${response.status}: ${WASM_HINT}`);
  return new Uint8Array(await response.arrayBuffer());
}

// The Emscripten module on `wasmBinary`, quietly: what Emscripten would write to the console when
// the bytes do not compile goes into the ArbiterError instead.
async function instantiate(wasmBinary) {
  const said = [];
  try {
    return await createArbiterModule({ wasmBinary, print: (text) => said.push(text), printErr: (text) => said.push(text) });
  } catch (e) {
    const why = String(e?.message ?? e).replace(/^Aborted\((.*)\)$/s, '$1');
    refuse('wasm_unavailable', 'wasmBinary', `arbiter: the WebAssembly module did not start (${why}): ` +
      'the bytes are not the arbiter_wasm.wasm of this package version');
  }
  return null;
}

// ---- chess.js's vocabulary, computed from a FEN and the library's moves ----

// The board of a FEN as 8 ranks (8th first) of 8 squares: {square, type, color} or null (chess.js's board()).
function boardOf(fen) {
  return fen.split(' ')[0].split('/').map((row, r) => {
    const out = [];
    for (const ch of row) {
      if (ch >= '1' && ch <= '8') {
        for (let k = 0; k < Number(ch); ++k) out.push(null);
      } else {
        const square = 'abcdefgh'[out.length] + (8 - r);
        out.push({ square, type: ch.toLowerCase(), color: ch === ch.toLowerCase() ? 'b' : 'w' });
      }
    }
    return out;
  });
}
// chess.js's verbose move from the face core's verbose "moves" answer (piece, captured,
// promotion, flags and after come from there).
function verboseMove(fen, mv) {
  const m = { color: fen.split(' ')[1], from: mv.uci.slice(0, 2), to: mv.uci.slice(2, 4), piece: mv.piece, san: mv.san,
    lan: mv.uci, before: fen, after: mv.after, flags: mv.flags };
  if (mv.captured) m.captured = mv.captured;
  if (mv.promotion) m.promotion = mv.promotion;
  return m;
}

// load()'s options, checked as every option object is.
function loadOptions(options) {
  expectType(isObject(options), 'options', 'an object such as {wasmBinary, wasmUrl, maxLiveGames}', options);
  const { wasmBinary, wasmUrl, maxLiveGames = 64, ...other } = options;
  for (const key of Object.keys(other)) {
    refuse('bad_field', key, `${key}: not an option of load (wasmBinary, wasmUrl, maxLiveGames)`);
  }
  expectType(wasmBinary === undefined || wasmBinary instanceof Uint8Array || wasmBinary instanceof ArrayBuffer,
    'wasmBinary', 'the bytes of arbiter_wasm.wasm (Uint8Array or ArrayBuffer)', wasmBinary);
  expectType(maxLiveGames === Infinity || (Number.isInteger(maxLiveGames) && maxLiveGames >= 1), 'maxLiveGames',
    'a whole number of games, 1 or more (or Infinity)', maxLiveGames);
  if (wasmBinary !== undefined && wasmUrl !== undefined) {
    refuse('bad_usage', 'wasmUrl', 'wasmUrl: give the wasm file\'s URL or its bytes (wasmBinary), not both');
  }
  return { wasmBinary, wasmUrl, maxLiveGames };
}

// The pieces audit() feeds the wasm: about a megabyte each, a string cut between UTF-16 code
// units that are not a surrogate pair, bytes anywhere (the stream cuts at game boundaries).
const FEED = 1 << 20;
function* pieces(input) {
  for (let at = 0; at < input.length;) {
    let end = Math.min(at + FEED, input.length);
    if (typeof input === 'string' && end < input.length && (input.charCodeAt(end) & 0xfc00) === 0xdc00) end += 1;
    yield typeof input === 'string' ? input.slice(at, end) : input.subarray(at, end);
    at = end;
  }
}

/**
 * Loads the module. `wasmBinary`: the bytes of arbiter_wasm.wasm when the page has them already
 * (the claim checker carries them inside itself); `wasmUrl`: where to fetch them (by default from
 * beside this file); `maxLiveGames`: how many Games keep their record in the wasm heap.
 */
export async function load(options = {}) {
  const { wasmBinary, wasmUrl, maxLiveGames } = loadOptions(options);
  const m = await instantiate(wasmBinary ?? (await wasmBytes(wasmUrl)));
  const parse = (text) => {
    const answer = JSON.parse(text);
    if (answer.error) throw new ArbiterError(answer.error);
    return answer;
  };
  // A PGN text of 64 kB or more goes over as UTF-8 bytes, staged beside the request (m.stage), not
  // inside its JSON: `open(request)` then answers with it as the request's "pgn".
  const encoder = new TextEncoder();
  const staging = (request, open, openStaged) => {
    if (!isObject(request) || typeof request.pgn !== 'string' || request.pgn.length < 1 << 16) {
      return open(JSON.stringify(request ?? {}));
    }
    const { pgn, ...rest } = request;
    if (typeof pgn.isWellFormed === 'function' && !pgn.isWellFormed()) {
      refuse('not_utf8', 'pgn', 'pgn: the text holds a lone UTF-16 surrogate, which is no character');
    }
    const bytes = encoder.encode(pgn);
    m.stage(bytes.length).set(bytes);
    return openStaged(JSON.stringify(rest));
  };
  const call = (what, request) => parse(staging(request, (text) => m.request(what, text),
    (text) => m.requestStaged(what, text)));
  // A notation ('san' or 'uci'), checked by the core's table of options as in every face.
  const notationOf = (notation) => {
    expectType(typeof notation === 'string', 'notation', "'san' or 'uci'", notation);
    parse(m.checkOption('notation', notation));
    return notation;
  };

  // A Game's record lives in the wasm heap, but only while it is one of the `maxLiveGames` games
  // used last: a game the pool gives back keeps a snapshot of its record (a copy of its memory,
  // GameRecord::snapshot) in JavaScript and is restored from it when next used, without replaying
  // a move, so that games dropped without delete() never hold more than that many records
  // (chess.js users never call delete()). delete() (or `using`) frees at once.
  const live = new Map();  // Game -> its #evict function, in the order of last use (LRU first)
  const keepLive = (game, evict) => {
    live.delete(game);
    live.set(game, evict);
    if (live.size > maxLiveGames) {
      const [oldest, giveBack] = live.entries().next().value;
      live.delete(oldest);
      giveBack();
    }
  };

  /** A position (the start position without a FEN): a value, nothing to free. */
  class Position {
    constructor(fen) {
      expectType(fen === undefined || typeof fen === 'string', 'fen', 'a FEN string (or nothing: the start)', fen);
      if (fen === '') refuse('bad_fen', 'fen', 'fen: empty: give a FEN, or nothing for the start position');
      this.#set(call('moves', fen === undefined ? {} : { fen }));
    }
    #set(answer) {
      this.fen = answer.fen;
      this.turn = answer.side_to_move;
      this.check = answer.check;
      this.moves = answer.moves;
    }
    /** The legal moves, in SAN ("Nf3") or in UCI ("g1f3"). */
    legalMoves(notation = 'san') { notationOf(notation); return this.moves.map((mv) => mv[notation]); }
    isCheck() { return this.check; }
    /** The position after a move (SAN or UCI); throws an ArbiterError for an illegal one. */
    play(move) { return new Position(call('play', { fen: this.fen, move: moveText(move) }).fen); }
    /** Plays a move on this position: {san, uci}. Throws an ArbiterError for an illegal one. */
    push(move) {
      const { fen, san, uci } = call('play', { fen: this.fen, move: moveText(move) });
      this.#set(call('moves', { fen }));
      return { san, uci };
    }
    /** The SAN and UCI of a move given either way. */
    move(move) { const { san, uci } = call('play', { fen: this.fen, move: moveText(move) }); return { san, uci }; }
    san(move) { return this.move(move).san; }
    uci(move) { return this.move(move).uci; }
    /** Leaf nodes of the legal move tree to `depth` plies (0 to the core's most, 8; bad_value past it). */
    perft(depth) {
      expectType(Number.isInteger(depth), 'depth', 'an integer number of plies', depth);
      return call('perft', { fen: this.fen, depth }).nodes;
    }
  }

  /**
   * A game under a rule set: {fen, moves, pgn, game, ply, rules, and the rule options}. Its
   * record lives in wasm memory: call delete() when done with it.
   */
  class Game {
    #handle = null;
    #deleted = false;
    #options;
    #rules;      // the rule options, to rebuild the record
    #start;      // the start position's FEN
    #uci = [];   // the moves played, in UCI
    #headers = {};  // the PGN tags (header(), pgn())
    #snapshot = null;  // the record while the pool has given it back (a Uint8Array)
    constructor(options = {}) {
      const request = requestOf(options);
      const handle = Game.#open(request);
      this.#options = Object.freeze({ ...options, moves: undefined });
      const { fen, moves, pgn, game, ply, ...rules } = request;
      const state = parse(handle.state());
      this.#rules = { ...rules, rules: state.rules };  // "auto" (a PGN's tags) resolved once
      this.#start = state.start_fen;
      this.#uci = parse(handle.history()).uci;
      this.#adopt(handle);
      // The tags of the PGN game read (header(), getHeaders(), pgn()); the games before it are
      // only scanned.
      if (pgn !== undefined) this.#headers = parse(handle.tags());
    }
    static #open(request) {
      const handle = new m.Game();
      const answer = staging(request, (text) => handle.open(text), (text) => handle.openStaged(text));
      if (answer !== '') {
        handle.delete();
        parse(answer);
      }
      return handle;
    }
    #adopt(handle) {
      this.#handle = handle;
      keepLive(this, () => {
        this.#snapshot = this.#handle.snapshot().slice();
        this.#handle.delete();
        this.#handle = null;
      });
    }
    #live() {
      if (this.#deleted) throw new ArbiterError({ code: 'deleted', message: 'this Game was deleted' });
      if (!this.#handle) {
        const handle = new m.Game();
        handle.buffer(this.#snapshot.length).set(this.#snapshot);
        const answer = handle.restore();
        if (answer !== '') {
          handle.delete();
          parse(answer);
        }
        this.#snapshot = null;
        this.#adopt(handle);
      } else {
        keepLive(this, live.get(this));
      }
      return this.#handle;
    }
    /** Plays a move (SAN, UCI or {from, to, promotion}): {san, uci, fen, ply}. Throws an ArbiterError, the game unchanged. */
    push(move) {
      const played = parse(this.#live().push(moveText(move)));
      this.#uci.push(played.uci);
      return played;
    }
    /** Takes back the last move: {san, uci, fen, ply}. */
    pop() {
      const taken = parse(this.#live().pop());
      this.#uci.pop();
      return taken;
    }
    /** `arbiter status --json` on the current position. */
    status() { return parse(this.#live().status()); }
    /**
     * `arbiter claim --json`: kind "threefold" or "fifty", the written move (SAN/UCI) or none;
     * options {lang, figurines}: its texts (reason, each why) in a language of `languages`
     * ("en" by default), moves in them with figurines. reason_message is the same in every language.
     */
    claim(kind, intended, options = {}) {
      expectType(typeof kind === 'string', 'kind', "'threefold' or 'fifty'", kind);
      const style = checkedOptions(options, 'claim', ['lang', 'figurines']);
      return parse(this.#live().claim(kind, intended == null ? '' : moveText(intended, 'intended'),
        JSON.stringify(style)));
    }
    /** The moves played: SAN, "uci", or chess.js's `{verbose: true}` (the verbose moves, as move() returns them). */
    history(notation = 'san') {
      if (isObject(notation)) {
        const { verbose = false } = checkedOptions(notation, 'history', ['verbose']);
        expectType(typeof verbose === 'boolean', 'verbose', 'true or false', verbose);
        if (!verbose) return this.history('san');
        let fen = this.startFen;
        return this.#uci.map((uci) => {
          const mv = this.#verbose(fen, uci);
          fen = mv.after;
          return mv;
        });
      }
      return parse(this.#live().history())[notationOf(notation)];
    }
    get fen() { return parse(this.#live().state()).fen; }
    get startFen() { this.#live(); return this.#start; }
    /** The game ply of the current position (0 at the start of a game from the initial position). */
    get ply() { return parse(this.#live().state()).ply; }
    /** The rule set's id ("fide-2023", …). */
    get rules() { return parse(this.#live().state()).rules; }
    /** The options the game was made with. */
    get options() { return this.#options; }
    /** The current position, as a Position. */
    position() { return new Position(this.fen); }

    // ---- chess.js's names (docs/javascript.md, "Beside chess.js": where the Laws differ) ----
    #status() { return this.status(); }
    /** The game has ended: checkmate, stalemate, dead position, fivefold, 75 moves (automatic endings). */
    isGameOver() { return this.#status().termination !== null; }
    isCheckmate() { return this.#status().termination?.kind === 'checkmate'; }
    isStalemate() { return this.#status().termination?.kind === 'stalemate'; }
    /** The game is drawn by the rules themselves (stalemate, dead position, fivefold, 75 moves): a
     * threefold or 50-move draw must be claimed (canClaimThreefold, canClaimFifty). */
    isDraw() { return this.#status().termination?.result === '1/2-1/2'; }
    /** Too little material to mate, in chess.js's sense; isDeadPosition() is the Laws' rule. */
    isInsufficientMaterial() {
      const { white, black } = call('moves', { fen: this.fen }).insufficient_material;
      return white && black;
    }
    /** No sequence of legal moves can mate (5.2.2): the game has ended in a dead position. */
    isDeadPosition() { return this.#status().termination?.kind === 'dead_position'; }
    /** A threefold claim would be correct now or with a written move (9.2). */
    canClaimThreefold() {
      const c = this.#status().claims?.threefold;
      return Boolean(c && (c.now || c.intended.length));
    }
    /** A 50-move claim would be correct now or with a written move (9.3). */
    canClaimFifty() {
      const c = this.#status().claims?.fifty;
      return Boolean(c && (c.now || c.intended.length));
    }
    inCheck() { return this.position().check; }
    isCheck() { return this.inCheck(); }
    /** 'w' or 'b', as chess.js. */
    turn() { return this.fen.split(' ')[1]; }
    /** The full-move number of the current position. */
    moveNumber() { return Number(this.fen.split(' ')[5]); }
    /** The legal moves: SAN, or chess.js's verbose objects; `square` keeps those from one square, `piece` one kind. */
    moves(options = {}) {
      const { verbose = false, square, piece } = checkedOptions(options, 'moves', ['verbose', 'square', 'piece']);
      expectType(typeof verbose === 'boolean', 'verbose', 'true or false', verbose);
      expectType(square === undefined || (typeof square === 'string' && /^[a-h][1-8]$/.test(square)), 'square',
        'a square such as "e2"', square);
      expectType(piece === undefined || (typeof piece === 'string' && /^[pnbrqk]$/.test(piece)), 'piece',
        "a piece letter: 'p', 'n', 'b', 'r', 'q' or 'k'", piece);
      const fen = this.fen;
      let list = call('moves', { fen, verbose: verbose || piece !== undefined }).moves;
      if (square !== undefined) list = list.filter((mv) => mv.uci.startsWith(square));
      if (piece !== undefined) list = list.filter((mv) => mv.piece === piece);
      if (!verbose) return list.map((mv) => mv.san);
      return list.map((mv) => verboseMove(fen, mv));
    }
    /** chess.js's move(): push a move (text or {from, to, promotion}), returning the verbose move. */
    move(move) {
      const before = this.fen;
      const played = this.push(move);
      return this.#verbose(before, played.uci);
    }
    // The verbose move `uci` of the position `fen`, as the face core describes it.
    #verbose(fen, uci) { return verboseMove(fen, call('moves', { fen, verbose: true }).moves.find((mv) => mv.uci === uci)); }
    /** chess.js's undo(): takes back the last move, returning it verbose; null at the start. */
    undo() {
      if (this.#uci.length === 0) return null;
      const taken = this.pop();
      return this.#verbose(this.fen, taken.uci);
    }
    /** The PGN tags of the game: chess.js's header(key, value, …) sets them and returns them all. */
    header(...pairs) {
      pairs.forEach((x, i) => expectType(typeof x === 'string', i % 2 ? 'value' : 'key', 'a string', x));
      if (pairs.length % 2) refuse('bad_usage', 'value', `header: a value for every key (${JSON.stringify(pairs.at(-1))} has none)`);
      for (let i = 0; i < pairs.length; i += 2) this.#headers[pairs[i]] = pairs[i + 1];
      return { ...this.#headers };
    }
    getHeaders() { return { ...this.#headers }; }
    /** The game as PGN: its tags (Result as the game stands), the moves, the result; `maxWidth`
     * (default 79, 0: one line) and `newline` (default "\\n") as chess.js takes them. */
    pgn(options = {}) {
      const { maxWidth = 79, newline = '\n' } = checkedOptions(options, 'pgn', ['maxWidth', 'newline']);
      expectType(Number.isInteger(maxWidth) && maxWidth >= 0, 'maxWidth', 'a whole number of characters (0: no wrapping)', maxWidth);
      expectType(typeof newline === 'string', 'newline', 'a string', newline);
      const t = this.#status().termination;
      const result = t ? t.result : (this.#headers.Result ?? '*');
      const tags = { Event: '?', Site: '?', Date: '????.??.??', Round: '?', White: '?', Black: '?', ...this.#headers, Result: result };
      if (this.#start !== INITIAL_FEN) Object.assign(tags, { SetUp: '1', FEN: this.#start });
      // Written by the core (LiveGame::pgn: the one PGN wrapper, as the CLI's and the service's).
      return parse(this.#live().pgn(JSON.stringify({ tags: Object.entries(tags), result, width: maxWidth, newline })));
    }
    /** The board: 8 ranks, the 8th first, of {square, type, color} or null (chess.js's board()). */
    board() { return boardOf(this.fen); }
    /** The board as text, as chess.js's ascii(). */
    ascii() {
      const rows = this.board().map((rank, r) => ` ${8 - r} |` + rank.map((p) =>
        (p ? (p.color === 'w' ? p.type.toUpperCase() : p.type) : '.')).map((c) => ` ${c} `).join('') + '|');
      return ['   +------------------------+', ...rows, '   +------------------------+',
        '     a  b  c  d  e  f  g  h'].join('\n') + '\n';
    }
    /** Starts again from `fen` (chess.js's load()), with the same rule options; the tags stay. */
    load(fen) {
      expectType(typeof fen === 'string', 'fen', 'a FEN string', fen);
      this.#replace(Game.#open({ ...this.#rules, fen }));
    }
    /** Back to the initial position, no moves (chess.js's reset()). */
    reset() { this.#replace(Game.#open({ ...this.#rules, fen: INITIAL_FEN })); this.#headers = {}; }
    /** An independent copy: the same start, moves, rule options and tags. */
    clone() {
      const copy = new Game({ ...this.#rules, fen: this.#start, moves: [...this.#uci] });
      copy.header(...Object.entries(this.#headers).flat());
      return copy;
    }
    #replace(handle) {
      this.#live();
      this.#handle.delete();
      const state = parse(handle.state());
      this.#start = state.start_fen;
      this.#uci = [];
      this.#handle = null;
      live.delete(this);
      this.#adopt(handle);
    }

    /** Frees the game's wasm memory at once; the Game cannot be used after it. Safe to call twice. */
    delete() {
      if (this.#deleted) return;
      this.#deleted = true;
      live.delete(this);
      if (this.#handle) this.#handle.delete();
      this.#handle = null;
    }
    get deleted() { return this.#deleted; }
  }
  if (typeof Symbol.dispose === 'symbol') Game.prototype[Symbol.dispose] = function dispose() { this.delete(); };

  // The audit as the wasm streams it (AuditStream): the input fed a megabyte at a time, each
  // piece's records handed to `take` as they are made; the heap never holds the whole input.
  const auditStream = (options) => {
    expectType(isObject(options), 'options', 'an object such as {rules, exact}', options);
    const stream = new m.AuditStream();
    const answer = stream.open(JSON.stringify(options));
    if (answer !== '') {
      stream.delete();
      parse(answer);
    }
    const records = (text) => {
      if (text.startsWith('{"error"')) parse(text);
      return text === '' ? [] : text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));
    };
    return {
      feed: (bytes) => records(stream.feed(bytes)),
      finish: () => records(stream.finish()),
      delete: () => stream.delete(),
    };
  };
  const audit = (pgn, options = {}) => {
    const input = pgnInput(pgn);
    const stream = auditStream(options);
    try {
      const out = [];
      for (const piece of pieces(input)) for (const r of stream.feed(piece)) out.push(r);
      for (const r of stream.finish()) out.push(r);
      return out;
    } finally {
      stream.delete();
    }
  };
  // The records of a Blob, a Response or a ReadableStream as their bytes arrive, or of anything
  // audit() takes.
  async function* auditRecords(pgn, options = {}) {
    const stream = auditStream(options);
    try {
      const chunks = await pgnChunks(pgn);
      for await (const chunk of chunks) {
        for (const piece of pieces(chunk)) yield* stream.feed(piece);
      }
      yield* stream.finish();
    } finally {
      stream.delete();
    }
  }
  const ruleSets = JSON.parse(m.ruleSets());
  return {
    version: m.version(),
    /** The languages of the texts a person reads: [{code, name, rtl}], English first. */
    languages: Object.freeze(JSON.parse(m.languages()).map((l) => Object.freeze(l))),
    /** The rule-set ids, the default first ("fide-2023", …), from the library's own table. */
    ruleSets: Object.freeze(ruleSets.rule_sets),
    /** The rule set used when none is given. */
    defaultRules: ruleSets.default,
    /**
     * Any operation of the core by its name, as the service's POST /api/v1/NAME and Python's
     * request() take it: status, claim, dead, moves, play, perft; the same JSON answer.
     */
    request: (operation, request) => {
      expectType(typeof operation === 'string', 'operation', "an operation's name such as 'status'", operation);
      return call(operation, requestOf(request));
    },
    /** The draw status of a position or game: {fen, moves, pgn, game, ply, rules, …}. */
    status: (request) => call('status', requestOf(request)),
    /** A claim (kind "threefold" or "fifty", an intended move or none) on a position or game. */
    claim: (request) => call('claim', requestOf(request)),
    /** Whether each side can still checkmate: side "white", "black" or "both" (the default). */
    dead: (fen, side = 'both', options = {}) => {
      expectType(typeof fen === 'string', 'fen', 'a FEN string', fen);
      expectType(isObject(options), 'options', 'an object such as {limit, quick, fast}', options);
      return call('dead', { fen, side, ...options });
    },
    /**
     * The records of `arbiter audit --format jsonl` on a PGN text (a string, or its bytes as a
     * Uint8Array: a file in Latin-1 is read as the CLI reads it); options: {rules,
     * time_category, exact, only, select, file}.
     */
    audit,
    /**
     * audit() on a Blob or File (`<input type=file>`), a fetch Response or a ReadableStream of
     * bytes, read first; or anything audit() takes. Resolves to the same records.
     */
    auditAsync: async (pgn, options = {}) => {
      const out = [];
      for await (const r of auditRecords(pgn, options)) out.push(r);
      return out;
    },
    /**
     * The same records one at a time, as they are made (`for await (const r of
     * arbiter.auditRecords(file))`): a file of any size is read a megabyte at a time.
     */
    auditRecords,
    /**
     * The board of a position as an SVG image (text), White at the bottom unless `flip`;
     * `highlight`: squares to mark (["e2", "e4"]), `arrow`: moves to draw (["g1f3"]).
     */
    boardSvg: (fen, options = {}) => {
      expectType(typeof fen === 'string', 'fen', 'a FEN string', fen);
      expectType(isObject(options), 'options', 'an object such as {flip, highlight, arrow}', options);
      const { flip = false, highlight = [], arrow = [], ...other } = options;
      for (const key of Object.keys(other)) refuse('bad_field', key, `${key}: not an option of boardSvg (flip, highlight, arrow)`);
      expectType(typeof flip === 'boolean', 'flip', 'true or false', flip);
      const squares = (list, key) => {
        expectType(Array.isArray(list) && list.every((x) => typeof x === 'string'), key, 'an array of squares such as ["e2", "e4"]', list);
        return list.join(',');
      };
      const svg = m.board(fen, flip, squares(highlight, 'highlight'), squares(arrow, 'arrow'));
      if (svg.startsWith('{"error"')) parse(svg);
      return svg;
    },
    Position,
    Game,
    /** Heap size of the wasm memory in bytes (for checking that memory is given back). */
    memoryBytes: () => m.HEAP8.length,
    /** How many games hold a record in the wasm heap now (at most maxLiveGames). */
    liveGames: () => live.size,
    /** The most games that hold a record in the wasm heap at once (load()'s option; default 64);
     * the others keep a snapshot in JavaScript and are restored from it when used. */
    maxLiveGames,
  };
}
