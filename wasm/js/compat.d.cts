// compat.d.cts — the types of require('arbiter-chess/compat'): the same as the ES module's.
export * from './compat.js';
