// index.d.ts — the types of arbiter's JavaScript API (index.mjs). The answers are the JSON of the
// command line (`arbiter status|claim|dead --json`, docs/json.md), typed here by their main keys.

/** A position or a game: a FEN, moves (SAN or UCI, from the FEN or the start), or PGN text. */
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
  play(move: string): Position;
  /** The SAN and UCI of a move given either way. */
  move(move: string): { san: string; uci: string };
  /** Leaf nodes of the legal move tree to `depth` plies (0 to 8). */
  perft(depth: number): number;
}

export interface Arbiter {
  readonly Position: new (fen?: string) => Position;
  readonly version: string;
  status(request: PositionRequest & RuleOptions): Status;
  claim(request: ClaimRequest): ClaimVerdict;
  dead(fen: string, side?: 'white' | 'black' | 'both', options?: DeadOptions): DeadAnswer;
}

/** Loads the module (the wasm is inside the package: nothing to fetch or serve). */
export function load(): Promise<Arbiter>;
