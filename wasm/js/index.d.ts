// index.d.ts — the types of arbiter's JavaScript API (index.mjs). The answers are the JSON of the
// command line (`arbiter status|claim|dead --json`, `arbiter audit --format jsonl`; docs/json.md),
// typed here by their main keys.

/** A position or a game: a FEN, moves (SAN or UCI, from the FEN or the start), or PGN text. */
/** A piece, as chess.js names it. */
export type PieceSymbol = 'p' | 'n' | 'b' | 'r' | 'q' | 'k';

/** chess.js's verbose move. flags: n normal, b pawn two squares, e en passant, c capture, p promotion, k/q castling. */
export interface VerboseMove {
  color: 'w' | 'b';
  from: string;
  to: string;
  piece: PieceSymbol;
  captured?: PieceSymbol;
  promotion?: PieceSymbol;
  flags: string;
  san: string;
  lan: string;
  before: string;
  after: string;
}

/** A move: SAN ("Nf3") or UCI ("g1f3") text, or chess.js's move object. */
export type MoveInput = string | { from: string; to: string; promotion?: 'q' | 'r' | 'b' | 'n' };

export interface PositionRequest {
  fen?: string;
  moves?: string;
  pgn?: string;
  /** With pgn: the game (from 1) and the ply (default: the last). */
  game?: number;
  ply?: number;
}

/** The rule options of the CLI (docs/rules.md). */
export interface RuleOptions {
  rules?: string;
  time_category?: string;
  initial_position_counts?: boolean;
  counters_from_setup?: string;
  fifty_extensions?: string[];
  online_claims?: boolean;
  intended_mate_incorrect?: boolean;
}

export interface ClaimRequest extends PositionRequest, RuleOptions {
  kind: 'threefold' | 'fifty';
  /** The move written down before claiming (9.2.1 / 9.3.1), SAN or UCI. */
  intended?: string;
}

export interface DeadOptions {
  /** Positions to search at most. */
  limit?: number;
  /** The quick analysis only. */
  quick?: boolean;
}

/** `arbiter status --json`. */
export interface Status {
  fen: string;
  side_to_move: 'white' | 'black';
  ply: number;
  no_progress_plies: number;
  repetition: { count: number; plies: number[] };
  termination: Record<string, unknown> | null;
  claims: {
    threefold: { now: boolean; intended: string[] };
    fifty: { now: boolean; intended: string[] };
  };
  [key: string]: unknown;
}

/** `arbiter claim --json`. */
export interface ClaimVerdict {
  correct: boolean;
  [key: string]: unknown;
}

export type MateAbility = 'can_checkmate' | 'cannot_checkmate' | 'unknown';

/** `arbiter dead --json`. */
export interface DeadAnswer {
  fen: string;
  dead: boolean;
  white?: MateAbility;
  black?: MateAbility;
  [key: string]: unknown;
}

/** A request the library refused: `code` is stable (docs/json.md), `field` and `offset` say where. */
export class ArbiterError extends Error {
  readonly code: string;
  readonly field: string | null;
  readonly offset: number | null;
}

/** A position: a value made from a FEN (the start position without one); nothing to free. */
export interface Position {
  readonly fen: string;
  readonly turn: 'white' | 'black';
  legalMoves(notation?: 'san' | 'uci'): string[];
  isCheck(): boolean;
  /** The position after a move (SAN or UCI); throws an ArbiterError for an illegal one. */
  play(move: MoveInput): Position;
  /** Plays a move on this position itself; throws an ArbiterError for an illegal one. */
  push(move: MoveInput): { san: string; uci: string };
  /** The SAN and UCI of a move given either way. */
  move(move: MoveInput): { san: string; uci: string };
  san(move: string): string;
  uci(move: string): string;
  /** Leaf nodes of the legal move tree to `depth` plies (0 to 8). */
  perft(depth: number): number;
}

/** A game to open: a position (moves as an array or as --moves text) and the rule options. */
export interface GameOptions extends RuleOptions {
  fen?: string;
  moves?: string | string[];
  pgn?: string;
  game?: number;
  ply?: number;
}

/** A move played or taken back. */
export interface MovePlayed {
  san: string;
  uci: string;
  /** The FEN after it (after taking it back, for pop()). */
  fen: string;
  /** The game ply of the position now. */
  ply: number;
}

/**
 * A game under a rule set. Its record is held in the module's memory only while it is one of the
 * maxLiveGames used last (then rebuilt from its moves when used): no delete() is needed; delete()
 * or `using` frees it at once.
 */
export interface Game {
  /** Plays a move (SAN or UCI); throws an ArbiterError (illegal_move, ambiguous_move, bad_move, game_over), the game unchanged. */
  push(move: MoveInput): MovePlayed;
  /** Takes back the last move; ArbiterError no_move at the start. */
  pop(): MovePlayed;
  /** `arbiter status --json`. */
  status(): Status;
  /** `arbiter claim KIND [--intended MOVE] --json`. */
  claim(kind: 'threefold' | 'fifty', intended?: MoveInput | null): ClaimVerdict;
  /** The moves played. */
  history(notation?: 'san' | 'uci'): string[];
  readonly fen: string;
  readonly startFen: string;
  /** The game ply of the current position. */
  readonly ply: number;
  /** The rule set's id. */
  readonly rules: string;
  /** The options the game was opened with. */
  readonly options: Readonly<GameOptions>;
  position(): Position;

  // chess.js's names (docs/javascript.md, "Beside chess.js"; the Laws where they differ).
  /** The game has ended by the rules themselves (checkmate, stalemate, dead position, fivefold, 75 moves). */
  isGameOver(): boolean;
  isCheckmate(): boolean;
  isStalemate(): boolean;
  /** Drawn by the rules themselves; a threefold or 50-move draw must be claimed. */
  isDraw(): boolean;
  /** Too little material to mate in chess.js's sense; isDeadPosition() is the Laws' rule (5.2.2). */
  isInsufficientMaterial(): boolean;
  isDeadPosition(): boolean;
  canClaimThreefold(): boolean;
  canClaimFifty(): boolean;
  inCheck(): boolean;
  isCheck(): boolean;
  turn(): 'w' | 'b';
  moveNumber(): number;
  moves(options?: { verbose?: false; square?: string }): string[];
  moves(options: { verbose: true; square?: string }): VerboseMove[];
  /** chess.js's move(): plays a move, returning it verbose. */
  move(move: MoveInput): VerboseMove;
  /** chess.js's undo(): the last move taken back, verbose; null at the start. */
  undo(): VerboseMove | null;
  header(...keyValues: string[]): Record<string, string>;
  getHeaders(): Record<string, string>;
  pgn(): string;
  board(): ({ square: string; type: PieceSymbol; color: 'w' | 'b' } | null)[][];
  ascii(): string;
  load(fen: string): void;
  reset(): void;
  clone(): Game;
  /** Frees the game's memory; any later call throws ArbiterError "deleted". */
  delete(): void;
  readonly deleted: boolean;
}

/** The options of `arbiter audit`, its rule options (RuleOptions) included. */
export interface AuditOptions extends Omit<RuleOptions, 'rules' | 'time_category'> {
  /** "auto" (the default: from each game's tags) or a rule-set id. */
  rules?: string;
  /** Empty or absent: from each game's tags. */
  time_category?: string;
  exact?: boolean;
  /** Finding types or kinds to keep, comma-separated lists. */
  only?: string[];
  /** TAG=VALUE: the games to audit. */
  select?: string[];
  /** The records' "file" (default "-"). */
  file?: string;
}

/** One record of `arbiter audit --format jsonl` (docs/audit.md). */
export interface AuditRecord {
  game: number;
  game_in_file: number;
  file: string;
  tags: Record<string, string>;
  rules: string;
  plies: number;
  findings: Record<string, unknown>[];
  errors: Record<string, unknown>[];
  [key: string]: unknown;
}

export interface Arbiter {
  readonly Position: new (fen?: string) => Position;
  readonly Game: new (options?: GameOptions) => Game;
  readonly version: string;
  /** The rule-set ids ("fide-2023", "fide-2018", …), the default first. */
  readonly ruleSets: readonly string[];
  /** The rule set used when none is given ("fide-2023"). */
  readonly defaultRules: string;
  status(request: PositionRequest & RuleOptions): Status;
  claim(request: ClaimRequest): ClaimVerdict;
  dead(fen: string, side?: 'white' | 'black' | 'both', options?: DeadOptions): DeadAnswer;
  /** The records of `arbiter audit --format jsonl` on a PGN text, or on its bytes. */
  audit(pgn: string | Uint8Array | ArrayBuffer | ArrayBufferView, options?: AuditOptions): AuditRecord[];
  /** The board of a position as SVG text (the console's /board.svg), White at the bottom unless flip. */
  boardSvg(fen: string, options?: { flip?: boolean }): string;
  /** The size of the module's memory in bytes. */
  memoryBytes(): number;
  /** How many games hold a record in the wasm heap now (at most maxLiveGames). */
  liveGames(): number;
  /** The most games holding a record at once; the others are rebuilt from their moves when used. */
  readonly maxLiveGames: number;
}

/**
 * Loads the module: reads arbiter_wasm.wasm from beside index.mjs (from disk under Node.js, by
 * fetch in a browser), or takes its bytes as `wasmBinary`.
 */
export function load(options?: { wasmBinary?: Uint8Array | ArrayBuffer }): Promise<Arbiter>;
