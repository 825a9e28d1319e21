// compat.d.ts — the types of arbiter-chess/compat: chess.js 1.x's Chess class on arbiter
// (docs/javascript.md, "chess.js drop-in"); where the Laws differ, the doc comments say so.
export { ArbiterError } from './index.js';

export type Color = 'w' | 'b';
export type PieceSymbol = 'p' | 'n' | 'b' | 'r' | 'q' | 'k';
export type Square =
  | 'a8' | 'b8' | 'c8' | 'd8' | 'e8' | 'f8' | 'g8' | 'h8' | 'a7' | 'b7' | 'c7' | 'd7' | 'e7' | 'f7' | 'g7' | 'h7'
  | 'a6' | 'b6' | 'c6' | 'd6' | 'e6' | 'f6' | 'g6' | 'h6' | 'a5' | 'b5' | 'c5' | 'd5' | 'e5' | 'f5' | 'g5' | 'h5'
  | 'a4' | 'b4' | 'c4' | 'd4' | 'e4' | 'f4' | 'g4' | 'h4' | 'a3' | 'b3' | 'c3' | 'd3' | 'e3' | 'f3' | 'g3' | 'h3'
  | 'a2' | 'b2' | 'c2' | 'd2' | 'e2' | 'f2' | 'g2' | 'h2' | 'a1' | 'b1' | 'c1' | 'd1' | 'e1' | 'f1' | 'g1' | 'h1';
export type Piece = { color: Color; type: PieceSymbol };

export declare const WHITE: 'w';
export declare const BLACK: 'b';
export declare const PAWN: 'p';
export declare const KNIGHT: 'n';
export declare const BISHOP: 'b';
export declare const ROOK: 'r';
export declare const QUEEN: 'q';
export declare const KING: 'k';
export declare const DEFAULT_POSITION: string;
export declare const SQUARES: readonly Square[];
export declare const SEVEN_TAG_ROSTER: Readonly<Record<string, string>>;
export declare function validateFen(fen: string): { ok: boolean; error?: string };

export declare class Move {
  color: Color;
  from: Square;
  to: Square;
  piece: PieceSymbol;
  captured?: PieceSymbol;
  promotion?: PieceSymbol;
  flags: string;
  san: string;
  lan: string;
  before: string;
  after: string;
  isCapture(): boolean;
  isPromotion(): boolean;
  isEnPassant(): boolean;
  isKingsideCastle(): boolean;
  isQueensideCastle(): boolean;
  isBigPawn(): boolean;
}

export declare class Chess {
  constructor(fen?: string, options?: { skipValidation?: boolean });
  clear(options?: { preserveHeaders?: boolean }): void;
  load(fen: string, options?: { skipValidation?: boolean; preserveHeaders?: boolean }): void;
  loadPgn(pgn: string, options?: { strict?: boolean; newlineChar?: string }): void;
  reset(): void;
  fen(): string;
  turn(): Color;
  moveNumber(): number;
  /** The position's key under FIDE 9.2.3 (not chess.js's numbers): equal for the same position. */
  hash(): string;
  get(square: Square): Piece | undefined;
  put(piece: { type: PieceSymbol; color: Color }, square: Square): boolean;
  remove(square: Square): Piece | undefined;
  findPiece(piece: Piece): Square[];
  board(): ({ square: Square; type: PieceSymbol; color: Color } | null)[][];
  ascii(): string;
  squareColor(square: Square): 'light' | 'dark' | null;
  setTurn(color: Color): boolean;
  getCastlingRights(color: Color): { k: boolean; q: boolean };
  setCastlingRights(color: Color, rights: Partial<Record<'k' | 'q', boolean>>): boolean;
  moves(): string[];
  moves(options: { verbose: true; square?: Square | string; piece?: PieceSymbol }): Move[];
  moves(options: { verbose?: false; square?: Square | string; piece?: PieceSymbol }): string[];
  moves(options: { verbose?: boolean; square?: Square | string; piece?: PieceSymbol }): string[] | Move[];
  move(move: string | { from: string; to: string; promotion?: string }, options?: { strict?: boolean }): Move;
  undo(): Move | null;
  history(): string[];
  history(options: { verbose: true }): Move[];
  history(options: { verbose?: false }): string[];
  history(options: { verbose?: boolean }): string[] | Move[];
  perft(depth: number): number;
  isCheck(): boolean;
  inCheck(): boolean;
  isCheckmate(): boolean;
  isStalemate(): boolean;
  /** chess.js's meaning: too little material (isGameOver() also knows the Laws' dead positions). */
  isInsufficientMaterial(): boolean;
  /** The position has stood three times, the same under FIDE 9.2.3 (en passant counted only when legal). */
  isThreefoldRepetition(): boolean;
  /** 100 plies without a pawn move or capture and the last move did not mate: a 9.3 claim would be correct. */
  isDrawByFiftyMoves(): boolean;
  /** Drawn by the rules themselves: stalemate, dead position, fivefold repetition, 75 moves (threefold and 50 moves must be claimed). */
  isDraw(): boolean;
  /** Ended by itself: checkmate or an automatic draw (isDraw()). */
  isGameOver(): boolean;
  isAttacked(square: Square, attackedBy: Color): boolean;
  attackers(square: Square, attackedBy?: Color): Square[];
  /** @deprecated as in chess.js: use setHeader and getHeaders. */
  header(...args: string[]): Record<string, string | null>;
  setHeader(key: string, value: string): Record<string, string>;
  removeHeader(key: string): boolean;
  getHeaders(): Record<string, string>;
  getComment(): string | undefined;
  setComment(comment: string): void;
  removeComment(): string | undefined;
  deleteComment(): string | undefined;
  getComments(): { fen: string; comment: string }[];
  removeComments(): { fen: string; comment: string }[];
  deleteComments(): { fen: string; comment: string }[];
  pgn(options?: { newline?: string; maxWidth?: number }): string;
}
