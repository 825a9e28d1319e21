// bundle_test.mjs DIST WORK SHOTS — an esbuild bundle of the package (wasm/bundle/check.sh) in
// headless Chromium: DIST (index.html, app.js, arbiter_wasm.wasm) served by a static server on
// 127.0.0.1; the app loads the wasm beside the bundle and answers as in Node. Prints "ok"/"FAIL"
// per step (run.sh).
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { check, openBrowser, stepper } from "./lib.mjs";

const [dist, , shots] = process.argv.slice(2);
const types = { ".wasm": "application/wasm", ".js": "text/javascript", ".html": "text/html" };
const server = http.createServer((req, res) => {
  const name = path.basename(decodeURIComponent(new URL(req.url, "http://x").pathname)) || "index.html";
  if (name === "favicon.ico") { res.writeHead(204); res.end(); return; }
  const file = path.join(dist, name);
  if (!fs.existsSync(file)) { res.writeHead(404); res.end(); return; }
  res.writeHead(200, { "Content-Type": types[path.extname(file)] || "application/octet-stream" });
  fs.createReadStream(file).pipe(res);
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${server.address().port}/`;

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
