// compat_core.mjs — chess.js 1.x's Chess class on arbiter's game record (docs/javascript.md,
// "chess.js drop-in"): the same methods, arguments, results and FEN/PGN strings, except where the
// Laws of Chess decide otherwise. The entries (compat.mjs, compat-node.mjs, compat.cjs) load the
// wasm and call compatApi(module, ArbiterError) once; compat_core.cjs is made from this file at
// build time (make_cjs.mjs), so this file imports nothing.
//
// Speed: the board lives in the wasm record (Module.Compat, wasm/bindings.cpp), which answers in
// plain text. move() resolves only the move played; every predicate reads one status bit mask,
// computed once per position and dropped on move, undo, load, put and remove.

export const WHITE = 'w';
export const BLACK = 'b';
export const PAWN = 'p';
export const KNIGHT = 'n';
export const BISHOP = 'b';
export const ROOK = 'r';
export const QUEEN = 'q';
export const KING = 'k';
export const DEFAULT_POSITION = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
export const SQUARES = Object.freeze([8, 7, 6, 5, 4, 3, 2, 1].flatMap((r) => [...'abcdefgh'].map((f) => f + r)));
export const SEVEN_TAG_ROSTER = Object.freeze({
  Event: '?', Site: '?', Date: '????.??.??', Round: '?', White: '?', Black: '?', Result: '*',
});
// The tags PGN names after the seven, in the order pgn() writes them when set.
const MORE_TAGS = ['WhiteTitle', 'BlackTitle', 'WhiteElo', 'BlackElo', 'WhiteUSCF', 'BlackUSCF', 'WhiteNA', 'BlackNA',
  'WhiteType', 'BlackType', 'EventDate', 'EventSponsor', 'Section', 'Stage', 'Board', 'Opening', 'Variation',
  'SubVariation', 'ECO', 'NIC', 'Time', 'UTCTime', 'UTCDate', 'TimeControl', 'SetUp', 'FEN', 'Termination',
  'Annotator', 'Mode', 'PlyCount'];
const newHeaders = () => {
  const h = { ...SEVEN_TAG_ROSTER };
  for (const k of MORE_TAGS) h[k] = null;
  return h;
};
const isSquare = (s) => typeof s === 'string' && s.length === 2 && s[0] >= 'a' && s[0] <= 'h' && s[1] >= '1' && s[1] <= '8';
const squareIndex = (s) => (8 - Number(s[1])) * 8 + (s.charCodeAt(0) - 97);  // a8 = 0 … h1 = 63

/** chess.js's FEN check: {ok, error} with chess.js's messages. */
export function validateFen(fen) {
  const fail = (error) => ({ ok: false, error: `Invalid FEN: ${error}` });
  const f = String(fen).split(/\s+/);
  if (f.length !== 6) return fail('must contain six space-delimited fields');
  const full = parseInt(f[5], 10);
  if (Number.isNaN(full) || full <= 0) return fail('move number must be a positive integer');
  const half = parseInt(f[4], 10);
  if (Number.isNaN(half) || half < 0) return fail('half move counter number must be a non-negative integer');
  if (!/^(-|[a-h][36])$/.test(f[3])) return fail('en-passant square is invalid');
  if (/[^kKqQ-]/.test(f[2])) return fail('castling availability is invalid');
  if (f[1] !== 'w' && f[1] !== 'b') return fail('side-to-move is invalid');
  const ranks = f[0].split('/');
  if (ranks.length !== 8) return fail("piece data does not contain 8 '/'-delimited rows");
  for (const rank of ranks) {
    let squares = 0;
    let digit = false;
    for (const ch of rank) {
      if (ch >= '0' && ch <= '9') {
        if (digit) return fail('piece data is invalid (consecutive number)');
        squares += Number(ch);
        digit = true;
      } else {
        if (!'prnbqkPRNBQK'.includes(ch)) return fail('piece data is invalid (invalid piece)');
        squares += 1;
        digit = false;
      }
    }
    if (squares !== 8) return fail('piece data is invalid (too many squares in rank)');
  }
  if ((f[3][1] === '3' && f[1] === 'w') || (f[3][1] === '6' && f[1] === 'b')) return fail('illegal en-passant square');
  for (const [letter, name] of [['K', 'white'], ['k', 'black']]) {
    const n = [...f[0]].filter((c) => c === letter).length;
    if (n === 0) return fail(`missing ${name} king`);
    if (n > 1) return fail(`too many ${name} kings`);
  }
  if ([...ranks[0] + ranks[7]].some((c) => c === 'p' || c === 'P')) return fail('some pawns are on the edge rows');
  return { ok: true };
}

// SAN without its first "=" and without a trailing check sign and annotation, as chess.js compares moves.
const strippedSan = (san) => san.replace(/=/, '').replace(/[+#]?[?!]*$/, '');

// The board of a FEN's placement: 64 squares, a8 first, of {type, color} or null.
function squaresOf(placement) {
  const out = [];
  for (const ch of placement) {
    if (ch === '/') continue;
    if (ch >= '1' && ch <= '8') for (let k = 0; k < Number(ch); ++k) out.push(null);
    else out.push({ type: ch.toLowerCase(), color: ch === ch.toLowerCase() ? 'b' : 'w' });
  }
  return out;
}
function placementOf(squares) {
  let text = '';
  for (let r = 0; r < 8; ++r) {
    let empty = 0;
    for (let f = 0; f < 8; ++f) {
      const p = squares[r * 8 + f];
      if (!p) { ++empty; continue; }
      if (empty) { text += empty; empty = 0; }
      text += p.color === 'w' ? p.type.toUpperCase() : p.type.toLowerCase();
    }
    if (empty) text += empty;
    if (r < 7) text += '/';
  }
  return text;
}

// chess.js's isInsufficientMaterial on a board (for boards the record cannot hold).
function insufficientOn(squares) {
  let pieces = 0, minors = 0, onlyBishops = true;
  const colours = new Set();
  squares.forEach((p, i) => {
    if (!p) return;
    ++pieces;
    if (p.type === 'b' || p.type === 'n') ++minors;
    if (p.type === 'b') colours.add(((i >> 3) + (i & 7)) % 2);
    else if (p.type !== 'k') onlyBishops = false;
  });
  return pieces === 2 || (pieces === 3 && minors === 1) || (onlyBishops && colours.size <= 1 && pieces > 2);
}

/** The chess.js API on the module `m` (Emscripten's, with Module.Compat), errors as `ArbiterError`. */
export function compatApi(m, ArbiterError) {
  const refuse = (message, code = 'illegal_move', field = 'move') => {
    throw new ArbiterError({ code, message, field });
  };

  /** A move as chess.js describes it (its verbose move), with isCapture() and its kin. */
  class Move {
    constructor(color, from, to, piece, captured, promotion, flags, san, lan, before, after) {
      this.color = color;
      this.from = from;
      this.to = to;
      this.piece = piece;
      this.captured = captured;
      this.promotion = promotion;
      this.flags = flags;
      this.san = san;
      this.lan = lan;
      this.before = before;
      this.after = after;
    }
    isCapture() { return this.flags.includes('c'); }
    isPromotion() { return this.flags.includes('p'); }
    isEnPassant() { return this.flags.includes('e'); }
    isKingsideCastle() { return this.flags.includes('k'); }
    isQueensideCastle() { return this.flags.includes('q'); }
    isBigPawn() { return this.flags.includes('b'); }
  }
  // A Move from the record's "san|lan|flags|piece|captured[|after]" and the FEN before it.
  const moveOf = (text, before, after) => {
    const [san, lan, flags, piece, captured, fenAfter] = text.split('|');
    return new Move(before.charCodeAt(before.indexOf(' ') + 1) === 98 ? 'b' : 'w', lan.slice(0, 2), lan.slice(2, 4),
      piece, captured || undefined, lan[4], flags, san, lan, before, after ?? fenAfter);
  };
  const copyOf = (mv) => new Move(mv.color, mv.from, mv.to, mv.piece, mv.captured, mv.promotion, mv.flags, mv.san,
    mv.lan, mv.before, mv.after);

  // The records live in the wasm heap only while their game is one of the `maxLive` used last
  // (chess.js programs never free a game): one given back keeps a snapshot of its record in
  // JavaScript (a copy of its memory) and is restored from it, without replaying a move.
  const maxLive = 64;
  const live = new Map();  // Chess -> its give-back function, least recently used first
  const touch = (game, giveBack) => {
    live.delete(game);
    live.set(game, giveBack);
    if (live.size > maxLive) {
      const [oldest, release] = live.entries().next().value;
      live.delete(oldest);
      release();
    }
  };

  class Chess {
    #record = null;       // the wasm record (null: given back to the pool, or no legal position)
    #snapshot = null;     // the record while given back (a Uint8Array)
    #invalid = null;      // why the board is no chess position the record can hold (put, clear)
    #start = DEFAULT_POSITION;   // the FEN the game started from
    #fen = DEFAULT_POSITION;     // the current FEN, as chess.js writes it
    #history = [];        // the moves played, as Move objects
    #status = -1;         // the current position's status bits (Compat::status), -1 unknown
    #header = newHeaders();
    #comments = {};       // FEN -> comment
    #squares = null;      // the current board (squaresOf), null until asked

    constructor(fen = DEFAULT_POSITION, { skipValidation = false } = {}) {
      this.load(fen, { skipValidation });
    }

    // ---- the record ----
    #live() {
      if (this.#invalid !== null) return null;
      if (this.#record === null) {
        const r = new m.Compat();
        if (this.#snapshot !== null) r.buffer(this.#snapshot.length).set(this.#snapshot);
        if (this.#snapshot === null || !r.restore()) {
          r.load(this.#start);
          for (const mv of this.#history) r.move(mv.lan, false);
        }
        this.#snapshot = null;
        this.#record = r;
      }
      if (live.get(this) === undefined) touch(this, () => this.#giveBack());
      else if (live.size > 1) { const f = live.get(this); live.delete(this); live.set(this, f); }
      return this.#record;
    }
    #giveBack() {
      if (this.#record) {
        this.#snapshot = this.#record.snapshot().slice();
        this.#record.delete();
      }
      this.#record = null;
    }
    #changed(fen) {
      this.#fen = fen;
      this.#status = -1;
      this.#squares = null;
    }
    #statusBits() {
      if (this.#status < 0) {
        const r = this.#live();
        this.#status = r ? r.status() : 2 | (insufficientOn(this.#board()) ? 4 : 0);
      }
      return this.#status;
    }
    #board() { return (this.#squares ??= squaresOf(this.#fen.slice(0, this.#fen.indexOf(' ')))); }
    // Starts the game afresh at `fen` (already checked by chess.js's rules), or keeps the board as
    // one the record cannot hold (a board being set up with put()).
    #restart(fen, { board = false } = {}) {
      this.#snapshot = null;  // the game given back, if it was, is not the one to restore
      const r = this.#record ?? new m.Compat();
      const why = r.load(fen);
      if (why) {
        if (!board) {
          if (!this.#record) r.delete();
          refuse(`Invalid FEN: ${why.slice(1)}`, 'bad_fen', 'fen');
        }
        if (this.#record) { this.#record.delete(); this.#record = null; }
        else r.delete();
        live.delete(this);
        this.#invalid = why.slice(1);
        this.#start = fen;
        this.#history = [];
        this.#changed(fen);
        return;
      }
      this.#record = r;
      this.#invalid = null;
      this.#start = fen;
      this.#history = [];
      this.#changed(r.fen());
      touch(this, () => this.#giveBack());
    }
    #updateSetup(fen) {
      if (this.#history.length > 0) return;
      const set = fen !== DEFAULT_POSITION;
      this.#header.SetUp = set ? '1' : null;
      this.#header.FEN = set ? fen : null;
    }

    // ---- positions ----
    clear({ preserveHeaders = false } = {}) {
      if (!preserveHeaders) this.#header = newHeaders();
      this.#header.SetUp = null;
      this.#header.FEN = null;
      this.#comments = {};
      this.#restart('8/8/8/8/8/8/8/8 w - - 0 1', { board: true });
    }
    load(fen, { skipValidation = false, preserveHeaders = false } = {}) {
      if (typeof fen !== 'string') refuse(`Invalid FEN: expected a string, got ${fen === null ? 'null' : typeof fen}`, 'bad_fen', 'fen');
      let tokens = fen.split(/\s+/);
      if (tokens.length >= 2 && tokens.length < 6) fen = tokens.concat(['-', '-', '0', '1'].slice(-(6 - tokens.length))).join(' ');
      if (!skipValidation) {
        const { ok, error } = validateFen(fen);
        if (!ok) refuse(error, 'bad_fen', 'fen');
      }
      tokens = fen.split(/\s+/);
      if (!preserveHeaders) this.#header = newHeaders();
      this.#header.SetUp = null;
      this.#header.FEN = null;
      this.#comments = {};
      this.#restart(tokens.join(' '), { board: skipValidation });
      this.#updateSetup(fen);
    }
    reset() { this.load(DEFAULT_POSITION); }
    fen() { return this.#fen; }
    turn() { return this.#fen[this.#fen.indexOf(' ') + 1]; }
    moveNumber() { return Number(this.#fen.slice(this.#fen.lastIndexOf(' ') + 1)); }
    hash() { const r = this.#live(); return r ? r.hash() : '0'; }

    get(square) { return isSquare(square) ? (this.#board()[squareIndex(square)] ?? undefined) && { ...this.#board()[squareIndex(square)] } : undefined; }
    board() {
      const b = this.#board();
      return [0, 1, 2, 3, 4, 5, 6, 7].map((r) => b.slice(r * 8, r * 8 + 8).map((p, f) => (p ? { square: SQUARES[r * 8 + f], type: p.type, color: p.color } : null)));
    }
    findPiece(piece) {
      const b = this.#board();
      return SQUARES.filter((_, i) => b[i] && b[i].color === piece?.color && b[i].type === piece?.type);
    }
    squareColor(square) {
      if (!isSquare(square)) return null;
      const i = squareIndex(square);
      return ((i >> 3) + (i & 7)) % 2 === 0 ? 'light' : 'dark';
    }
    ascii() {
      const b = this.#board();
      let s = '   +------------------------+\n';
      for (let r = 0; r < 8; ++r) {
        s += ` ${8 - r} |`;
        for (let f = 0; f < 8; ++f) {
          const p = b[r * 8 + f];
          s += ` ${p ? (p.color === 'w' ? p.type.toUpperCase() : p.type.toLowerCase()) : '.'} `;
        }
        s += '|\n';
      }
      return s + '   +------------------------+\n     a  b  c  d  e  f  g  h';
    }

    // Board editing: the edited position starts the game afresh (docs/javascript.md).
    #edit(squares, turn, castling, ep, half, full) {
      const fields = this.#fen.split(' ');
      const fen = [placementOf(squares), turn ?? fields[1], castling ?? fields[2], ep ?? fields[3], half ?? fields[4], full ?? fields[5]].join(' ');
      this.#restart(fen, { board: true });
      this.#updateSetup(this.#fen);
    }
    // chess.js drops castling rights whose king or rook is not at home, and an en passant square
    // no pawn could take on.
    #tidy(squares, castling, ep, turn) {
      const at = (s) => squares[squareIndex(s)];
      const is = (s, type, color) => at(s)?.type === type && at(s)?.color === color;
      let c = '';
      for (const [letter, king, rook, color] of [['K', 'e1', 'h1', 'w'], ['Q', 'e1', 'a1', 'w'], ['k', 'e8', 'h8', 'b'], ['q', 'e8', 'a8', 'b']]) {
        if (castling.includes(letter) && is(king, 'k', color) && is(rook, 'r', color)) c += letter;
      }
      if (ep !== '-') {
        const up = turn === 'w' ? 1 : -1;
        const file = ep.charCodeAt(0), rank = Number(ep[1]);
        const pawnSq = ep[0] + (rank - up), startSq = ep[0] + (rank + up);
        const them = turn === 'w' ? 'b' : 'w';
        const side = [file - 1, file + 1].filter((x) => x >= 97 && x <= 104).map((x) => String.fromCharCode(x) + (rank - up));
        if (at(startSq) || at(ep) || !is(pawnSq, 'p', them) || !side.some((s) => is(s, 'p', turn))) ep = '-';
      }
      return [c || '-', ep];
    }
    put(piece, square) {
      const { type, color } = piece ?? {};
      if (typeof type !== 'string' || !'pnbrqk'.includes(type.toLowerCase()) || type.length !== 1) return false;
      if (!isSquare(square)) return false;
      const squares = [...this.#board()];
      const i = squareIndex(square);
      if (type === 'k' && squares.some((p, j) => p && p.type === 'k' && p.color === color && j !== i)) return false;
      squares[i] = { type, color };
      const f = this.#fen.split(' ');
      const [castling, ep] = this.#tidy(squares, f[2], f[3], f[1]);
      this.#edit(squares, undefined, castling, ep);
      return true;
    }
    remove(square) {
      if (!isSquare(square)) return undefined;
      const squares = [...this.#board()];
      const piece = squares[squareIndex(square)] ?? undefined;
      squares[squareIndex(square)] = null;
      const f = this.#fen.split(' ');
      const [castling, ep] = this.#tidy(squares, f[2], f[3], f[1]);
      this.#edit(squares, undefined, castling, ep);
      return piece && { ...piece };
    }
    setTurn(color) {
      const f = this.#fen.split(' ');
      if (f[1] === color) return false;
      if (this.inCheck()) refuse('Null move not allowed when in check');
      this.#edit(this.#board(), f[1] === 'w' ? 'b' : 'w', undefined, '-', String(Number(f[4]) + 1),
        String(Number(f[5]) + (f[1] === 'b' ? 1 : 0)));
      return true;
    }
    getCastlingRights(color) {
      const c = this.#fen.split(' ')[2];
      return { k: c.includes(color === 'w' ? 'K' : 'k'), q: c.includes(color === 'w' ? 'Q' : 'q') };
    }
    setCastlingRights(color, rights) {
      const f = this.#fen.split(' ');
      let c = f[2] === '-' ? '' : f[2];
      for (const side of ['k', 'q']) {
        if (rights?.[side] === undefined) continue;
        const letter = color === 'w' ? side.toUpperCase() : side;
        c = c.replace(letter, '');
        if (rights[side]) c += letter;
      }
      c = ['K', 'Q', 'k', 'q'].filter((x) => c.includes(x)).join('');
      const [castling] = this.#tidy(this.#board(), c, '-', f[1]);
      if (castling !== f[2]) this.#edit(this.#board(), undefined, castling);
      const now = this.getCastlingRights(color);
      return (rights?.k === undefined || rights.k === now.k) && (rights?.q === undefined || rights.q === now.q);
    }

    // ---- moves ----
    #list(after, square = '', piece = '') {
      const r = this.#live();
      if (!r) return [];
      const text = r.moves(after, square, piece);
      return text === '' ? [] : text.slice(0, -1).split('\n');
    }
    moves({ verbose = false, square = undefined, piece = undefined } = {}) {
      let sq = '';
      if (square) {
        sq = String(square).toLowerCase();
        if (!isSquare(sq)) return [];
      }
      const pc = piece ? String(piece).toLowerCase() : '';
      if (pc && (pc.length !== 1 || !'pnbrqk'.includes(pc))) return [];
      const lines = this.#list(verbose, sq, pc);
      // chess.js writes the SAN of moves from one square knowing only those moves: no disambiguation.
      if (!verbose) return lines.map((line) => (sq ? line.slice(0, line.indexOf('|')).replace(/^([NBRQK])[a-h]?[1-8]?(?=x?[a-h][1-8])/, '$1') : line.slice(0, line.indexOf('|'))));
      return lines.map((line) => moveOf(line, this.#fen));
    }
    // chess.js's permissive reading of a move that is not SAN: "Pe2-e4", "Nge7", "Qf3xf7", "exd5" without x…
    #permissive(text) {
      let clean = strippedSan(text);
      if (clean === '0-0') clean = 'O-O';
      else if (clean === '0-0-0') clean = 'O-O-O';
      const infer = (san) => {
        const c = san.charAt(0);
        if (c >= 'a' && c <= 'h') return /[a-h]\d.*[a-h]\d/.test(san) ? undefined : 'p';
        return c.toLowerCase() === 'o' ? 'k' : c.toLowerCase();
      };
      const all = this.#list(false).map((line) => line.split('|'));
      const of = (pc) => all.filter(([, , , p]) => pc === undefined || p === pc);
      const inferred = infer(clean);
      for (const mv of of(inferred)) if (clean === strippedSan(mv[0])) return mv;
      let match = clean.match(/([pnbrqkPNBRQK])?([a-h][1-8])x?-?([a-h][1-8])([qrbnQRBN])?/) ??
        clean.match(/([pnbrqkPNBRQK])?([a-h]?[1-8]?)x?-?([a-h][1-8])([qrbnQRBN])?/);
      if (!match) return null;
      const [, piece, from, to, promotion] = match;
      if (!to) return null;
      const loose = from && from.length === 1;
      for (const mv of of(piece ? piece.toLowerCase() : inferred)) {
        const [san, lan, , p] = mv;
        const pieceOk = !piece || piece.toLowerCase() === p;
        const promoOk = !promotion || promotion.toLowerCase() === lan[4];
        if (!from) {
          if (clean === strippedSan(san).replace('x', '')) return mv;
        } else if (pieceOk && lan.slice(0, 2) === from && lan.slice(2, 4) === to && promoOk) {
          return mv;
        } else if (loose && pieceOk && lan.slice(2, 4) === to && (from === lan[0] || from === lan[1]) && promoOk) {
          return mv;
        }
      }
      return null;
    }
    move(move, { strict = false } = {}) {
      const r = this.#live();
      const before = this.#fen;
      let played = '!';
      if (r && typeof move === 'string') {
        if (move !== '--') played = r.move(move, strict);
        if (played[0] === '!' && !strict && move !== '--') {
          const mv = this.#permissive(move);
          if (mv) played = r.move(mv[1], false);
        }
      } else if (r && typeof move === 'object' && move !== null) {
        const { from, to, promotion } = move;
        if (typeof from === 'string' && typeof to === 'string') {
          played = r.moveFromTo(from, to, typeof promotion === 'string' ? promotion : '');
        }
      }
      if (played[0] === '!') {
        if (move === null || move === '--') refuse('Invalid move: null moves are not moves under the Laws (arbiter)', 'bad_move');
        refuse(`Invalid move: ${typeof move === 'string' ? move : JSON.stringify(move)}`);
      }
      const mv = moveOf(played, before);
      this.#history.push(mv);
      this.#changed(mv.after);
      return copyOf(mv);
    }
    undo() {
      if (this.#history.length === 0) return null;
      const r = this.#live();
      r.undo();
      const mv = this.#history.pop();
      this.#changed(mv.before);
      return mv;
    }
    history({ verbose = false } = {}) {
      return verbose ? this.#history.map(copyOf) : this.#history.map((mv) => mv.san);
    }
    perft(depth) {
      const r = this.#live();
      if (!r) return 0;
      if (!(depth > 1)) return this.#list(false).length;
      return r.perft(depth);
    }

    // ---- the game's state (one status per position) ----
    isCheck() { return (this.#statusBits() & 1) !== 0; }
    inCheck() { return (this.#statusBits() & 1) !== 0; }
    isCheckmate() { return (this.#statusBits() & 3) === 3; }
    isStalemate() { return (this.#statusBits() & 3) === 2; }
    /** chess.js's meaning: too little material on the board (the Laws' dead position is wider). */
    isInsufficientMaterial() { return (this.#statusBits() & 4) !== 0; }
    /** The position has stood three times, positions the same as FIDE 9.2.3 says (a claim would be correct). */
    isThreefoldRepetition() { return (this.#statusBits() & 8) !== 0; }
    /** 100 plies without a pawn move or capture, and the last move did not mate (9.3, 5.1.1). */
    isDrawByFiftyMoves() { const s = this.#statusBits(); return (s & 16) !== 0 && (s & 3) !== 3; }
    /** The game is drawn by the rules themselves: stalemate, dead position, fivefold, 75 moves (9.6, 5.2). */
    isDraw() { const t = this.#statusBits() >> 8; return t >= 2; }
    /** The game has ended by itself: checkmate or an automatic draw (a threefold or 50-move draw must be claimed). */
    isGameOver() { return (this.#statusBits() >> 8) !== 0; }
    isAttacked(square, attackedBy) { return this.attackers(square, attackedBy).length > 0; }
    attackers(square, attackedBy) {
      const r = this.#live();
      if (!r || !isSquare(square)) return [];
      const text = r.attackers(square, attackedBy ?? this.turn());
      return text === '' ? [] : text.trim().split(' ');
    }

    // ---- tags ----
    header(...args) {
      for (let i = 0; i < args.length; i += 2) {
        if (typeof args[i] === 'string' && typeof args[i + 1] === 'string') this.#header[args[i]] = args[i + 1];
      }
      return this.#header;
    }
    setHeader(key, value) {
      this.#header[key] = value ?? SEVEN_TAG_ROSTER[key] ?? null;
      return this.getHeaders();
    }
    removeHeader(key) {
      if (!(key in this.#header)) return false;
      this.#header[key] = SEVEN_TAG_ROSTER[key] || null;
      return true;
    }
    getHeaders() {
      const out = {};
      for (const [k, v] of Object.entries(this.#header)) if (v !== null) out[k] = v;
      return out;
    }

    // ---- comments, kept by the FEN of the position they follow ----
    #positions() { return [this.#history[0]?.before ?? this.#fen, ...this.#history.map((mv) => mv.after)]; }
    #prune() {
      const kept = {};
      for (const fen of this.#positions()) if (fen in this.#comments && !(fen in kept)) kept[fen] = this.#comments[fen];
      this.#comments = kept;
    }
    getComment() { return this.#comments[this.#fen]; }
    setComment(comment) { this.#comments[this.#fen] = String(comment).replace('{', '[').replace('}', ']'); }
    removeComment() { const c = this.#comments[this.#fen]; delete this.#comments[this.#fen]; return c; }
    deleteComment() { return this.removeComment(); }
    getComments() { this.#prune(); return Object.keys(this.#comments).map((fen) => ({ fen, comment: this.#comments[fen] })); }
    removeComments() {
      this.#prune();
      const out = Object.keys(this.#comments).map((fen) => ({ fen, comment: this.#comments[fen] }));
      this.#comments = {};
      return out;
    }
    deleteComments() { return this.removeComments(); }

    // ---- PGN ----
    pgn({ newline = '\n', maxWidth = 0 } = {}) {
      const out = [];
      for (const [k, v] of Object.entries(this.#header)) if (v) out.push(`[${k} "${v}"]${newline}`);
      if (Object.keys(this.#header).length && this.#history.length) out.push(newline);
      const withComment = (text, fen) => {
        const c = this.#comments[fen];
        return c === undefined ? text : `${text}${text.length ? ' ' : ''}{${c}}`;
      };
      const words = [];
      if (this.#history.length === 0) words.push(withComment('', this.#fen));
      let text = '';
      this.#history.forEach((mv, i) => {
        text = withComment(text, mv.before);
        const number = mv.before.slice(mv.before.lastIndexOf(' ') + 1);
        if (i === 0 && mv.color === 'b') {
          text = text ? `${text} ${number}. ...` : `${number}. ...`;
        } else if (mv.color === 'w') {
          if (text.length) words.push(text);
          text = `${number}.`;
        }
        text += ` ${mv.san}`;
      });
      if (text.length) words.push(withComment(text, this.#fen));
      words.push(this.#header.Result || '*');
      if (maxWidth === 0) return out.join('') + words.join(' ');

      // Lines of at most maxWidth characters where a word allows; a comment may be broken at its spaces.
      const dropSpace = () => {
        if (out.length && out[out.length - 1] === ' ') { out.pop(); return true; }
        return false;
      };
      let width = 0;
      words.forEach((word, i) => {
        if (width + word.length > maxWidth && word.includes('{')) {
          for (const token of word.split(' ')) {
            if (!token) continue;
            if (width + token.length > maxWidth) {
              while (dropSpace()) --width;
              out.push(newline);
              width = 0;
            }
            out.push(token, ' ');
            width += token.length + 1;
          }
          if (dropSpace()) --width;
          return;
        }
        if (width + word.length > maxWidth && i !== 0) {
          if (out[out.length - 1] === ' ') out.pop();
          out.push(newline);
          width = 0;
        } else if (i !== 0) {
          out.push(' ');
          ++width;
        }
        out.push(word);
        width += word.length;
      });
      return out.join('');
    }
    loadPgn(pgn, { strict = false, newlineChar = '\r?\n' } = {}) {
      if (typeof pgn !== 'string') refuse('Invalid PGN: expected a string', 'bad_pgn', 'pgn');
      if (newlineChar !== '\r?\n') pgn = pgn.replace(new RegExp(newlineChar, 'g'), '\n');
      const game = readPgn(pgn, refuse);
      this.reset();
      let fen = '';
      for (const [key, value] of game.tags) {
        if (key.toLowerCase() === 'fen') fen = value;
        this.header(key, value);
      }
      const tags = Object.fromEntries(game.tags);
      if (!strict) {
        if (fen) this.load(fen, { preserveHeaders: true });
      } else if (tags.SetUp === '1') {
        if (!('FEN' in tags)) refuse('Invalid PGN: FEN tag must be supplied with SetUp tag', 'bad_pgn', 'pgn');
        this.load(tags.FEN, { preserveHeaders: true });
      }
      if (game.comments[0] !== undefined) this.#comments[this.#fen] = game.comments[0];
      game.moves.forEach((san, i) => {
        try {
          this.move(san, { strict });
        } catch (e) {
          if (!(e instanceof ArbiterError)) throw e;
          refuse(`Invalid move in PGN: ${san}`, 'illegal_move', 'pgn');
        }
        if (game.comments[i + 1] !== undefined) this.#comments[this.#fen] = game.comments[i + 1];
      });
      if (game.result && Object.keys(this.#header).length && this.#header.Result !== game.result) this.setHeader('Result', game.result);
    }
  }

  return { Chess, Move };
}

// One game of PGN as chess.js reads it: its tags (in order), the main line's SAN, the comment
// after each position (index 0: before the first move), and the result; variations are skipped.
function readPgn(text, refuse) {
  const fail = (what, at) => refuse(`Invalid PGN: ${what} at byte ${at}`, 'bad_pgn', 'pgn');
  let i = 0;
  const n = text.length;
  const space = () => { while (i < n && ' \t\r\n'.includes(text[i])) ++i; };
  const tags = [];
  for (;;) {
    space();
    if (text[i] !== '[') break;
    const m = /^\[[ \t\r\n]*([a-zA-Z]+)[ \t\r\n]*"([^"]*)"[ \t\r\n]*\]/.exec(text.slice(i, i + 100000));
    if (!m) fail('a tag that does not read', i);
    tags.push([m[1], m[2]]);
    i += m[0].length;
  }
  const moves = [];
  const comments = [];
  let result;
  const comment = () => {
    if (text[i] === '{') {
      const end = text.indexOf('}', i);
      if (end < 0) fail('a comment without its }', i);
      const c = text.slice(i + 1, end).replace(/[\r\n]+/g, ' ');
      i = end + 1;
      return c;
    }
    const end = text.slice(i).search(/[\r\n]|$/);
    const c = text.slice(i + 1, i + end).trim();
    i += end;
    return c;
  };
  let depth = 0;
  for (;;) {
    space();
    if (i >= n) break;
    const ch = text[i];
    if (ch === '{' || ch === ';') {
      const c = comment();
      if (depth === 0) comments[moves.length] = c;
      continue;
    }
    if (ch === '(') { ++depth; ++i; continue; }
    if (ch === ')') { if (depth === 0) fail('an unmatched )', i); --depth; ++i; continue; }
    if (ch === '$') { const m = /^\$[0-9]+/.exec(text.slice(i)); if (!m) fail('a NAG that does not read', i); i += m[0].length; continue; }
    const rest = text.slice(i, i + 64);
    const marker = /^(1-0|0-1|1\/2-1\/2|\*)/.exec(rest);
    if (marker && depth === 0 && !/^(0-0)/.test(rest)) {
      result = marker[1];
      i += marker[1].length;
      space();
      if (text[i] === '{' || text[i] === ';') comments[moves.length] = comment();
      space();
      if (i < n) fail('text after the result', i);
      break;
    }
    const number = /^[0-9]*\.[ \t\r\n]*\.*/.exec(rest);
    if (number && number[0].length) { i += number[0].length; continue; }
    const san = /^(O-O-O|O-O|0-0-0|0-0|[a-zA-Z][a-zA-Z1-8\-=]+)[+#]?([!?]{1,2})?/.exec(rest);
    if (!san) fail(`'${rest.slice(0, 10)}' is not a move`, i);
    if (depth === 0) moves.push(san[0].replace(/[!?]+$/, ''));
    i += san[0].length;
  }
  if (depth !== 0) fail('a variation without its )', i);
  return { tags, moves, comments, result };
}
