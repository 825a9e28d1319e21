// errors.mjs — the one error class of the package: what every refusal throws, importable before
// load() from every entry (`import { ArbiterError } from 'arbiter-chess'`, and
// `require('arbiter-chess').ArbiterError` through errors.cjs, which the build makes from this file).
// The ES and the CommonJS copies are two classes, so `instanceof` looks at a mark both set.
const mark = Symbol.for('arbiter-chess.ArbiterError');

/** A request the library refused: `code` is stable (docs/json.md), `field` and `offset` say where. */
export class ArbiterError extends Error {
  constructor({ code, message, field, offset }) {
    super(message);
    this.name = 'ArbiterError';
    this.code = code;
    this.field = field ?? null;
    this.offset = offset ?? null;
    Object.defineProperty(this, mark, { value: true });
  }

  /** True for an ArbiterError from either copy of the package (ES module or CommonJS). */
  static [Symbol.hasInstance](x) {
    return typeof x === 'object' && x !== null && x[mark] === true;
  }
}
