// app.mjs — a page's script as a browser app writes it, bundled by esbuild (check.sh) from the
// installed package with --platform=browser: it must need no Node.js built-in and load the wasm
// file put beside the bundle. Leaves its answers in window.result for bundle_test.mjs.
import { load, ArbiterError } from 'arbiter-chess';

const arbiter = await load();
const g = new arbiter.Game({ moves: ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1'] });
g.move({ from: 'f6', to: 'g8' });
let refused = null;
try {
  arbiter.status({ moves: 'e4 e5 Ke3' });
} catch (e) {
  refused = e instanceof ArbiterError ? `${e.code} ${e.field} ${e.offset}` : String(e);
}
window.result = { version: arbiter.version, threefold: g.canClaimThreefold(), history: g.history(), refused,
  perft: new arbiter.Position().perft(3) };
