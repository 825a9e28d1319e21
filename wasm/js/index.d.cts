// index.d.cts — the types of the CommonJS entry (index.cjs): load() resolves to the ES module's API;
// ArbiterError is there before loading.
import type { Arbiter, ArbiterError as ArbiterErrorClass, LoadOptions } from './index.js';

export declare const ArbiterError: typeof ArbiterErrorClass;
export declare function load(options?: LoadOptions): Promise<Arbiter & { ArbiterError: typeof ArbiterErrorClass }>;
