// lib.mjs — what the browser tests share: headless Chromium from playwright-core (Debian chromium
// by its path), an `arbiter serve` on 127.0.0.1 port 0, a page that records its errors, and
// named steps that screenshot a failure.
import { spawn } from "node:child_process";
import http from "node:http";
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

const require = createRequire(import.meta.url);
const { chromium } = require(process.env.PLAYWRIGHT_CORE || "playwright-core");

/// Starts `arbiter serve ARGS --listen 127.0.0.1:0`; resolves to { server, base }.
export async function startServer(arbiter, args) {
  const server = spawn(arbiter, ["serve", ...args, "--listen", "127.0.0.1:0", "--threads", "64"],
    { stdio: ["ignore", "pipe", "inherit"] });
  const base = await new Promise((resolve, reject) => {
    let out = "";
    server.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/listening on (http:\/\/\S+)/);
      if (m) resolve(m[1]);
    });
    server.on("exit", (code) => reject(new Error("server exited " + code)));
  });
  return { server, base };
}

/// A static server of the files of `dir` (by base name) on 127.0.0.1 port 0, with `index` as the
/// page at "/"; resolves to { server, base }.
export async function serveDir(dir, index) {
  const types = { ".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
    ".html": "text/html", ".json": "application/json" };
  const server = http.createServer((req, res) => {
    const name = path.basename(decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (name === "favicon.ico") { res.writeHead(204); res.end(); return; }
    if (name === "" || name === "index.html") { res.writeHead(200, { "Content-Type": "text/html" }); res.end(index); return; }
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { "Content-Type": types[path.extname(file)] || "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, base: `http://127.0.0.1:${server.address().port}/` };
}

/// Chromium with one page; `errors` collects the page's console errors and exceptions.
export async function openBrowser(viewport) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: ["--no-sandbox"] });
  const page = await browser.newPage({ viewport });
  const errors = [];
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.on("pageerror", (e) => errors.push(e.message));
  return { browser, page, errors };
}

/// step(name, fn): runs fn, prints "ok NAME" or "FAIL NAME: why" (with a screenshot); failed() counts.
export function stepper(page, shots, prefix) {
  fs.mkdirSync(shots, { recursive: true });
  let failed = 0;
  const step = async (name, fn) => {
    const t = Date.now();
    try {
      await fn();
      console.log(`ok   ${name} ${((Date.now() - t) / 1000).toFixed(1)}s`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${name}: ${e.message}`);
      await page.screenshot({ path: path.join(shots, prefix + name.replace(/\W+/g, "_") + ".png") }).catch(() => {});
    }
  };
  return { step, failed: () => failed };
}

export function check(cond, what) {
  if (!cond) throw new Error(what);
}

// The console's game page: the plies on its scoresheet, and a move made by clicking two squares
// (waits until the scoresheet has one more ply).
export function gamePage(page) {
  const plies = async () => (await page.locator("#scoresheet").innerText()).split(/\s+/).filter(Boolean).length;
  async function clickMove(from, to) {
    const before = await plies();
    await page.click("#sq-" + from);
    await page.click("#sq-" + to);
    await page.waitForFunction((n) => document.querySelector("#scoresheet").innerText.split(/\s+/).filter(Boolean).length > n, before);
  }
  return { plies, clickMove };
}
