// index.d.ts — the types of arbiter's JavaScript API (index.mjs). The answers are the JSON of the
// command line (`arbiter status|claim|dead --json`, `arbiter audit --format jsonl`; docs/json.md),
// typed here by their main keys.

/** The rule-set ids (docs/rules.md); `ruleSets` lists them at run time. */
export type RuleSetId = 'fide-2023' | 'fide-2018' | 'fide-2014' | 'fide-2009' | 'fide-2005' | 'fide-online' | 'uscf' | 'iccf';

/**
 * The codes of the one list (face_core/error_codes.hpp, docs/json.md "Error codes") and the input's
 * codes for PGN bytes that are not text: every code an ArbiterError can carry (the journal's and the
 * HTTP server's are in the list too, for the other faces).
 */
export type ErrorCode =
  | 'bad_usage' | 'bad_input' | 'bad_value' | 'bad_field' | 'bad_json' | 'bad_fen' | 'bad_move' | 'illegal_move'
  | 'ambiguous_move' | 'game_over' | 'no_move' | 'bad_pgn' | 'no_such_game' | 'unknown_rule_set' | 'not_utf8'
  | 'line_too_long' | 'bad_square' | 'bad_state' | 'bad_request' | 'no_such_session' | 'deleted' | 'wasm_unavailable'
  | 'not_found' | 'method_not_allowed' | 'too_large' | 'uri_too_long' | 'http_error' | 'unauthorized' | 'forbidden'
  | 'too_many_attempts' | 'https_required' | 'broken_journal' | 'journal_busy' | 'conflict' | 'read_only' | 'io'
  | 'missing_file' | 'not_a_journal' | 'newer_format' | 'corrupt' | 'refused' | 'replay' | 'bad_path' | 'foreign_wal'
  | 'user_exists' | 'no_such_user' | 'bad_user' | 'source_unreadable' | 'too_many_streams' | 'out_of_memory'
  | 'internal'
  | 'cannot_open' | 'read_failed' | 'corrupt_zstd' | 'truncated_zstd' | 'corrupt_gzip' | 'truncated_gzip'
  | 'corrupt_bzip2' | 'truncated_bzip2' | 'not_text';

/** A piece, as chess.js names it. */
export type PieceSymbol = 'p' | 'n' | 'b' | 'r' | 'q' | 'k';

/** How boardSvg draws a board: from Black's side, squares marked, moves as arrows. */
export interface BoardOptions {
  flip?: boolean;
  /** Squares to mark, e.g. ["e2", "e4"]. */
  highlight?: string[];
  /** Moves to draw as arrows, e.g. ["g1f3"]. */
  arrow?: string[];
}

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

/** A position or a game: a FEN, moves (SAN or UCI, from the FEN or the start), or PGN text. */
export interface PositionRequest {
  fen?: string;
  /** SAN or UCI moves: one string ("e4 e5") or an array (["e4", "e5"]). */
  moves?: string | string[];
  pgn?: string;
  /** With pgn: the game (from 1) and the ply (default: the last). */
  game?: number;
  ply?: number;
}

/** The rule options of the CLI (docs/rules.md). */
export interface RuleOptions {
  rules?: RuleSetId | 'auto';
  time_category?: 'standard' | 'rapid' | 'blitz';
  initial_position_counts?: boolean;
  counters_from_setup?: 'trust_fen' | 'game_start';
  fifty_extensions?: string[];
  online_claims?: boolean;
  intended_mate_incorrect?: boolean;
}

export interface ClaimRequest extends PositionRequest, RuleOptions, TextOptions {
  kind: 'threefold' | 'fifty';
  /** The move written down before claiming (9.2.1 / 9.3.1), SAN or UCI. */
  intended?: string;
}

export interface DeadOptions {
  /** Positions to search at most. */
  limit?: number;
  /** The quick analysis only. */
  quick?: boolean;
  /** The sound fast check alone: cannot_checkmate only with a proof, unknown otherwise (not with quick). */
  fast?: boolean;
}

export type Side = 'white' | 'black';

/** An automatic ending (docs/json.md "object termination"): checkmate wins, every other kind draws. */
export type Termination = {
  /** The article that ends the game (5.1.1, 5.2.1, 5.2.2, 9.6.1, 9.6.2, …). */
  article: string;
  /** The game ply of the position that ends the game. */
  ply: number;
  /** The move that led to it ("4...Ng8"), or "start". */
  after: string;
} & (
  | { kind: 'checkmate'; result: '1-0' | '0-1' }
  | {
      kind: 'stalemate' | 'dead_position' | 'fivefold_repetition' | 'seventy_five_moves'
        | 'threefold_repetition' | 'fifty_moves';
      result: '1/2-1/2';
    }
);

/** A claim open to the side to move: correct now, or with one of these written moves (SAN). */
export interface OpenClaim {
  now: boolean;
  intended: string[];
}

/** `arbiter status --json`. */
export interface Status {
  fen: string;
  side_to_move: Side;
  ply: number;
  no_progress_plies: number;
  repetition: { count: number; plies: number[] };
  /** The automatic ending the game reached, or null while it goes on. */
  termination: Termination | null;
  /** uscf: the draws a director may declare (14K). */
  director_may_declare: Termination[];
  /** The claims open to the side to move; null once the game has ended. */
  claims: { threefold: OpenClaim; fifty: OpenClaim } | null;
  can_checkmate: { white: 'yes' | 'no' | 'unknown'; black: 'yes' | 'no' | 'unknown' };
  rules: RuleSetId;
  plies_played: number;
}

/** A position cited as evidence (docs/json.md "object cited"); the start position has no move (null). */
export interface CitedPosition {
  ply: number;
  number: number | null;
  san: string | null;
  uci: string | null;
  /** Number and SAN as a scoresheet writes them: "5...Nb8". */
  move: string | null;
  /** The claim's written move, not yet played. */
  intended: boolean;
  fen: string;
}

/** A language of the texts a person reads (`languages`). */
export type LanguageCode = 'en' | 'fa' | 'ar';

/** How texts are written: a language of `languages` ("en" by default), moves with figurines (♘f3). */
export interface TextOptions {
  lang?: LanguageCode;
  figurines?: boolean;
}

/**
 * A text as data (docs/json.md, "object message"), the same in every language: its stable id and its
 * arguments (a number, verbatim text, a move as {move}, an article as {article}, a list as {list},
 * or another message).
 */
export interface Message {
  id: string;
  args: { [name: string]: number | string | { move: string } | { article: string } | { list: Message[] } | Message };
}

/** A position that looks the same but is not (9.2.2). */
export interface Lookalike extends CitedPosition {
  why: string;
  why_message: Message;
  castling_rights_differ: boolean;
  en_passant_differs: boolean;
}

interface VerdictBase {
  claimant: Side;
  /** The written move in SAN, or null. */
  intended: string | null;
  correct: boolean;
  /** The article that decides it (9.2.1, 9.3.2, …). */
  article: string;
  reason: string;
  reason_message: Message;
  /** An incorrect claim's penalty (9.5.3); null for a correct claim. */
  penalty: ClaimPenalty | null;
  rules: RuleSetId;
}

/** What an incorrect claim costs the claimant under the rule set (docs/json.md, "claim"). */
export interface ClaimPenalty {
  side: Side;
  added_to: Side;
  /** Time added to the opponent's clock, under the time category. */
  added_ms: number;
  /** Time taken from the claimant: null where it depends on the claimant's clock (FIDE 2005 9.5b). */
  deducted_ms: number | null;
  article: string;
}

/** `arbiter claim --json`: a threefold or a fifty-move ruling, told apart by `kind`. */
export type ClaimVerdict =
  | (VerdictBase & {
      kind: 'threefold';
      evidence: { count: number; occurrences: CitedPosition[]; not_counted: Lookalike[] };
    })
  | (VerdictBase & {
      kind: 'fifty';
      evidence: { no_progress_plies: number; required_plies: number; count_started: CitedPosition | null };
    });

export type MateAbility = 'can_checkmate' | 'cannot_checkmate' | 'unknown';

type PerSide<T> = { white: T | null; black: T | null };

/** `arbiter dead --json`: a side's answer is null when that side was not asked. */
export interface DeadAnswer {
  fen: string;
  /** Neither side can mate; null when not known (one side asked, or an unknown). */
  dead: boolean | null;
  white: MateAbility | null;
  black: MateAbility | null;
  can_checkmate: PerSide<'yes' | 'no' | 'unknown'>;
  /** How each answer was found: material, mating_line, blockade, … (docs/unwinnability.md). */
  proof: PerSide<string>;
  reason: PerSide<string>;
  nodes: PerSide<number>;
  /** A mating line (SAN) for each side that can mate. */
  helpmate: PerSide<string[]>;
}

/** A request the library refused: `code` is stable (docs/json.md), `field` and `offset` say where. */
export class ArbiterError extends Error {
  constructor(init: { code: ErrorCode; message: string; field?: string | null; offset?: number | null });
  readonly code: ErrorCode;
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
 * maxLiveGames used last (then restored from a snapshot when used): no delete() is needed; delete()
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
  claim(kind: 'threefold' | 'fifty', intended?: MoveInput | null, options?: TextOptions): ClaimVerdict;
  /** The moves played. */
  history(notation?: 'san' | 'uci' | { verbose?: false }): string[];
  /** chess.js's history({verbose: true}): each move played as move() returns it. */
  history(options: { verbose: true }): VerboseMove[];
  readonly fen: string;
  readonly startFen: string;
  /** The game ply of the current position. */
  readonly ply: number;
  /** The rule set's id. */
  readonly rules: RuleSetId;
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
  moves(options?: { verbose?: false; square?: string; piece?: PieceSymbol }): string[];
  moves(options: { verbose: true; square?: string; piece?: PieceSymbol }): VerboseMove[];
  /** chess.js's move(): plays a move, returning it verbose. */
  move(move: MoveInput): VerboseMove;
  /** chess.js's undo(): the last move taken back, verbose; null at the start. */
  undo(): VerboseMove | null;
  header(...keyValues: string[]): Record<string, string>;
  getHeaders(): Record<string, string>;
  /** maxWidth: wrap the movetext at this many characters (default 79, 0: one line); newline: the line end (default "\n"). */
  pgn(options?: { maxWidth?: number; newline?: string }): string;
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
  rules?: RuleSetId | 'auto';
  /** Empty or absent: from each game's tags. */
  time_category?: 'standard' | 'rapid' | 'blitz' | '';
  exact?: boolean;
  /** Finding types or kinds to keep, comma-separated lists. */
  only?: string[];
  /** TAG=VALUE: the games to audit. */
  select?: string[];
  /** The records' "file" (default "-"). */
  file?: string;
}

/** A finding of the audit (docs/audit.md). */
export interface Finding {
  type: 'missed_automatic_draw' | 'result_contradicts_position' | 'timeout_unwinnable' | 'claimable' | 'result_inconsistent';
  /** The ending, "flag", the claim, or "tag_vs_marker". */
  kind: string;
  ply: number;
  side: Side | null;
  article: string;
  detail: string;
  /** claimable: the positions that offered the claim, how many went unused, the first. */
  chances: number | null;
  unused: number | null;
  first_ply: number | null;
  /** claimable with a written move: the move to write. */
  first_move: string | null;
}

/** What the PGN reader found, where (codes in docs/pgn.md). */
export interface PgnError {
  line: number;
  column: number;
  offset: number;
  code: string;
  message: string;
}

/** One record of `arbiter audit --format jsonl` (docs/audit.md). */
export interface AuditRecord {
  game: number;
  game_in_file: number;
  file: string;
  tags: Record<string, string>;
  rules: RuleSetId;
  time_category: string;
  plies: number;
  result: string | null;
  result_marker: string | null;
  result_tag: string | null;
  findings: Finding[];
  errors: PgnError[];
  warnings: PgnError[];
}

export interface Arbiter {
  readonly Position: new (fen?: string) => Position;
  readonly Game: new (options?: GameOptions) => Game;
  readonly version: string;
  /** The languages of the texts a person reads, English first. */
  readonly languages: readonly { code: LanguageCode; name: string; rtl: boolean }[];
  /** The rule-set ids ("fide-2023", "fide-2018", …), the default first. */
  readonly ruleSets: readonly RuleSetId[];
  /** The rule set used when none is given ("fide-2023"). */
  readonly defaultRules: RuleSetId;
  /** Any operation of the core by name (the service's POST /api/v1/NAME): the same JSON answer. */
  request(operation: 'status' | 'claim' | 'dead' | 'moves' | 'play' | 'perft', request?: object): unknown;
  status(request: PositionRequest & RuleOptions): Status;
  claim(request: ClaimRequest): ClaimVerdict;
  dead(fen: string, side?: 'white' | 'black' | 'both', options?: DeadOptions): DeadAnswer;
  /** The records of `arbiter audit --format jsonl` on a PGN text, or on its bytes. */
  audit(pgn: string | Uint8Array | ArrayBuffer | ArrayBufferView, options?: AuditOptions): AuditRecord[];
  /** audit() on a Blob or File, a fetch Response or a ReadableStream of bytes (read as they arrive), or on what audit() takes. */
  auditAsync(pgn: AuditSource, options?: AuditOptions): Promise<AuditRecord[]>;
  /** The same records one at a time as they are made: `for await (const r of arbiter.auditRecords(file))`. */
  auditRecords(pgn: AuditSource, options?: AuditOptions): AsyncGenerator<AuditRecord, void, undefined>;
  /** The board of a position as SVG text (the console's /board.svg), White at the bottom unless flip. */
  boardSvg(fen: string, options?: BoardOptions): string;
  /** The size of the module's memory in bytes. */
  memoryBytes(): number;
  /** How many games hold a record in the wasm heap now (at most maxLiveGames). */
  liveGames(): number;
  /** The most games holding a record at once (load()'s option); the others keep a snapshot and are restored from it when used. */
  readonly maxLiveGames: number;
}

/** What auditAsync() and auditRecords() read. */
export type AuditSource = string | Uint8Array | ArrayBuffer | ArrayBufferView | Blob | Response | ReadableStream<Uint8Array | string>;

/** load()'s options; any other key is refused (bad_field). */
export interface LoadOptions {
  /** The bytes of arbiter_wasm.wasm, when the page has them already. */
  wasmBinary?: Uint8Array | ArrayBuffer;
  /** Where to fetch arbiter_wasm.wasm (default: beside index.mjs; a bundle built as an IIFE has no such place). */
  wasmUrl?: string | URL;
  /** How many Games keep their record in the wasm heap at once (default 64; Infinity: all). */
  maxLiveGames?: number;
}

/**
 * Loads the module: reads arbiter_wasm.wasm from beside index.mjs (from disk under Node.js, by
 * fetch in a browser), from `wasmUrl`, or takes its bytes as `wasmBinary`. A wasm that cannot be
 * fetched or does not start rejects with ArbiterError `wasm_unavailable`.
 */
export function load(options?: LoadOptions): Promise<Arbiter>;
