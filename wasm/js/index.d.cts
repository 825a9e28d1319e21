// index.d.cts — the types of the CommonJS entry (index.cjs): load() resolves to the ES module's API.
import type { Arbiter, ArbiterError } from './index.js';

export declare function load(options?: { wasmBinary?: Uint8Array | ArrayBuffer }): Promise<Arbiter & { ArbiterError: typeof ArbiterError }>;
