// bundle_test.mjs DIST WORK SHOTS — an esbuild bundle of the package (wasm/bundle/check.sh) in
// headless Chromium: DIST (index.html, app.js, arbiter_wasm.wasm) served by a static server on
// 127.0.0.1; the app loads the wasm beside the bundle and answers as in Node. Prints "ok"/"FAIL"
// per step (run.sh).
import fs from "node:fs";
import path from "node:path";
import { check, openBrowser, serveDir, stepper } from "./lib.mjs";

const [dist, , shots] = process.argv.slice(2);
const { server, base } = await serveDir(dist, fs.readFileSync(path.join(dist, "index.html"), "utf8"));

const { browser, page, errors } = await openBrowser({ width: 800, height: 600 });
const { step, failed } = stepper(page, shots, "bundle_");
try {
  await step("the esbuild bundle loads its wasm and answers", async () => {
    await page.goto(base);
    await page.waitForFunction(() => window.result, null, { timeout: 30000 });
    const r = await page.evaluate(() => window.result);
    check(typeof r.version === "string" && r.version.length > 0, "version " + r.version);
    check(r.threefold === true && r.history.length === 8 && r.history[7] === "Ng8", "game " + JSON.stringify(r));
    check(r.refused === "illegal_move moves 6", "refusal " + r.refused);
    check(r.perft === 8902, "perft " + r.perft);
  });
  await step("no errors on the page", async () => {
    check(errors.length === 0, "page errors: " + errors.join(" | "));
  });
} finally {
  await browser.close();
  server.close();
}
if (failed()) process.exit(1);
console.log("bundle: all steps passed");
