// compat_program.mjs GAMES_JSON — a chess.js program, run unchanged by compat.test.mjs with chess.js and
// with arbiter-chess/compat (only the import line below differs): it replays games given as SAN
// lists and prints, one JSON line a ply, what chess.js users ask (FEN, SAN, the legal moves, the
// predicates), then each game's PGN, verbose history, headers, comments and a few board questions.
import { Chess } from 'chess.js';
import { readFileSync } from 'node:fs';

const games = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const out = [];
const state = (c) => ({
  fen: c.fen(), turn: c.turn(), moveNumber: c.moveNumber(), check: c.inCheck(), isCheck: c.isCheck(),
  mate: c.isCheckmate(), stalemate: c.isStalemate(), insufficient: c.isInsufficientMaterial(),
  threefold: c.isThreefoldRepetition(), fifty: c.isDrawByFiftyMoves(), draw: c.isDraw(), over: c.isGameOver(),
});
for (const [g, moves] of games.entries()) {
  const c = new Chess();
  c.setHeader('Event', `game ${g}`);
  moves.forEach((san, ply) => {
    const legal = c.moves();
    const mv = c.move(san);
    out.push(JSON.stringify({ g, ply, san: mv.san, lan: mv.lan, flags: mv.flags, piece: mv.piece, captured: mv.captured ?? null,
      promotion: mv.promotion ?? null, capture: mv.isCapture(), big: mv.isBigPawn(), ep: mv.isEnPassant(),
      k: mv.isKingsideCastle(), q: mv.isQueensideCastle(), promo: mv.isPromotion(), before: mv.before, after: mv.after,
      legal, ...state(c) }));
    if (ply === 10) c.setComment('after ten plies');
  });
  const last = c.history({ verbose: true }).at(-1);
  const verbose = c.moves({ verbose: true }).map((m) => `${m.san} ${m.lan} ${m.flags} ${m.after}`);
  out.push(JSON.stringify({ g, end: true, pgn: c.pgn(), pgn40: c.pgn({ maxWidth: 40, newline: '<br>' }), headers: c.getHeaders(),
    comments: c.getComments(), history: c.history(), last: last ? { ...last } : null, verbose,
    knights: c.moves({ piece: 'n' }), e2: c.moves({ square: 'e2' }), board: c.board(), ascii: c.ascii(),
    kings: [c.findPiece({ type: 'k', color: 'w' }), c.findPiece({ type: 'k', color: 'b' })],
    attacked: ['d4', 'e5', 'f7'].map((s) => [c.isAttacked(s, 'w'), c.attackers(s, 'b')]),
    castling: [c.getCastlingRights('w'), c.getCastlingRights('b')], colour: c.squareColor('e4'), get: c.get('e1') ?? null }));
  // Take back the whole game, then read it again from its own PGN.
  const undone = [];
  for (let mv = c.undo(); mv; mv = c.undo()) undone.push(mv.san);
  const d = new Chess();
  d.loadPgn(new Chess().pgn() && (() => { const e = new Chess(); for (const m of moves) e.move(m); return e.pgn(); })());
  out.push(JSON.stringify({ g, undone: undone.length, startFen: c.fen(), reread: d.history().length, rereadFen: d.fen() }));
}
console.log(out.join('\n'));
