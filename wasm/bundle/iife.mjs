// iife.mjs — the package bundled by esbuild in its default format for browsers, an IIFE script
// (check.sh), which has no import.meta.url: load() cannot know where the wasm is and must say so,
// as an ArbiterError wasm_unavailable that names the two ways out (an ES module bundle, or
// wasmUrl / wasmBinary), not "Invalid URL". Run under Node.js; exit code 0 when it does.
import { load, ArbiterError } from 'arbiter-chess';

load().then(
  () => {
    console.log('FAIL wasm.bundle: load() in an IIFE bundle found a wasm it cannot locate');
    process.exitCode = 1;
  },
  (e) => {
    const ok = e instanceof ArbiterError && e.code === 'wasm_unavailable' && e.message.includes('--format=esm') &&
      e.message.includes('wasmUrl') && e.message.includes('wasmBinary');
    console.log(ok ? 'wasm.bundle: an IIFE bundle is told how to find the wasm' : `FAIL wasm.bundle: iife: ${e?.code} ${e?.message}`);
    process.exitCode = ok ? 0 : 1;
  },
);
