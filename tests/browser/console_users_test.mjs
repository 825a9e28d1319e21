// console_users_test.mjs — the console on a journal with users (issue 64), in headless Chromium
// driven by playwright-core: the token dialog (asked, refused, signed out), a viewer who reads the
// sessions but is told in words that creating or deleting a game is the chief's, the chief who
// creates a game with a section and a board and plays two moves, the History panel (each event,
// who entered it, when), the journal's head hash (changes after a move), and, after the journal
// is edited with SQLite while the server is stopped and served with --accept-broken-journal, the
// red banner on the console, the check-a-claim page and the hall page; 429 after 20 wrong tokens.
// Usage: node console_users_test.mjs ARBITER WORKDIR [SCREENSHOT_DIR]   (PLAYWRIGHT_CORE: its directory)
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { check, gamePage, openBrowser, startServer, stepper } from "./lib.mjs";

const [arbiter, work, shots = work] = process.argv.slice(2);
fs.mkdirSync(work, { recursive: true });
const journal = path.join(work, "users.journal");
for (const s of ["", "-wal", "-shm"]) fs.rmSync(journal + s, { force: true });

const timer = setTimeout(() => { console.log("FAIL timeout: the test took over 150 s"); process.exit(1); }, 150_000);
// The users, made with the CLI; each token is printed once.
const addUser = (name, role, ...more) =>
  JSON.parse(execFileSync(arbiter, ["users", "add", "--journal", journal, "--name", name, "--role", role, ...more, "--json"],
    { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 20_000 })).token;
const chief = addUser("Chief Arbiter", "chief");
const viewer = addUser("Screen", "viewer");
check(/^[0-9a-f]{64}$/.test(chief) && /^[0-9a-f]{64}$/.test(viewer), "users add --json gives 64 hex digits");

let { server, base } = await startServer(arbiter, ["--journal", journal]);
const stop = (s) => new Promise((resolve, reject) => {
  const t = setTimeout(() => reject(new Error("the server did not stop within 10 s")), 10_000);
  s.once("exit", () => { clearTimeout(t); resolve(); });
  s.kill("SIGTERM");
});
const api = async (method, p, body, tok = chief) => {
  const r = await fetch(base + "/api/v1" + p, { method, body: body && JSON.stringify(body),
    headers: tok ? { Authorization: "Bearer " + tok } : {} });
  return { status: r.status, body: await r.json() };
};
const first = await api("POST", "/sessions", { white: "Old", black: "Game", section: "Open B", board: "2" });
check(first.status === 201, "the chief creates a session through the API: " + JSON.stringify(first));

const { browser, page, errors } = await openBrowser({ width: 1200, height: 1000 });
page.setDefaultTimeout(15_000);
page.on("dialog", (d) => d.accept());  // confirm() of Delete
const { step, failed } = stepper(page, shots, "failure-users-");
const signIn = async (tok) => {
  await page.waitForSelector("#token-dialog[open]");
  await page.fill("#token-input", tok);
  await page.click("#token-form button[type=submit]");
  await page.waitForFunction(() => !document.getElementById("token-dialog").open);
};
const { plies, clickMove } = gamePage(page);
const head = () => page.getAttribute("#journal-head", "title");

await step("the token is asked for, a wrong one refused in words", async () => {
  await page.goto(base + "/");
  await page.waitForSelector("#token-dialog[open]");
  const text = await page.innerText("#token-dialog");
  check(/your token/.test(text) && /arbiter users add/.test(text) && /--token-file/.test(text), "the dialog says which token: " + text);
  check(await page.isHidden("#token-refused"), "no refusal before a token was sent");
  check(await page.isHidden("#sign-out"), "no Sign out without a token");
  await page.fill("#token-input", "f".repeat(64));
  await page.click("#token-form button[type=submit]");
  await page.waitForSelector("#token-dialog[open] #token-refused");  // asked again, saying why
  check(/refused this token \(revoked or wrong\)/.test(await page.innerText("#token-refused")), "revoked or wrong");
});

await step("a viewer reads the sessions, with section and board", async () => {
  await signIn(viewer);
  await page.waitForSelector("#sessions tbody tr");
  const cols = await page.innerText("#sessions thead");
  check(/Section/.test(cols) && /Board/.test(cols), "the Section and Board columns: " + cols);
  const row = await page.innerText("#sessions tbody tr[data-id='1']");
  check(/Old/.test(row) && /Open B/.test(row) && /\b2\b/.test(row), "the row: " + row);
  check(await page.isVisible("#sign-out"), "Sign out shown with a token");
  check(await page.evaluate(() => sessionStorage.getItem("arbiter-token")) === viewer, "the token kept for the tab");
});

await step("a viewer may not create or delete a game: the server's 403 in words", async () => {
  await page.fill("input[name=white]", "Vera");
  await page.fill("input[name=black]", "Walt");
  await page.click("#new-game button[type=submit]");
  await page.waitForFunction(() => document.querySelector("#new-game-error").textContent !== "");
  const msg = await page.innerText("#new-game-error");
  check(/chief role/.test(msg) && /Screen is a viewer/.test(msg), "the forbidden message: " + msg);
  check(await page.isHidden("#token-dialog"), "no token asked again on a 403");
  await page.click("#sessions button[data-delete='1']");
  await page.waitForFunction(() => document.querySelector("#sessions-error").textContent !== "");
  check(/chief role/.test(await page.innerText("#sessions-error")), "delete: the forbidden message");
  check((await api("GET", "/sessions")).body.length === 1, "nothing created or deleted");
  // An event: the game page's error line.
  await page.goto(base + "/#/game/1");
  await page.waitForSelector("#conn.live");
  await page.click("#sq-e2");
  await page.click("#sq-e4");
  await page.waitForFunction(() => document.querySelector("#error").textContent !== "");
  const ev = await page.innerText("#error");
  check(/arbiter role/.test(ev) && /Screen is a viewer/.test(ev), "an event refused: " + ev);
  check(await page.isHidden("#token-dialog"), "no token asked again on a 403");
  check((await api("GET", "/sessions/1")).body.events === 0, "nothing journaled");
});

let gameId = 0;
await step("sign out, then the chief creates a game with section and board", async () => {
  await page.goto(base + "/#/");
  await page.click("#sign-out");
  await signIn(chief);
  await page.waitForSelector("#new-game");
  await page.fill("input[name=white]", "Anna");
  await page.fill("input[name=black]", "Ben");
  await page.fill("input[name=time_control]", "5400+30");
  await page.fill("input[name=section]", "Open A");
  await page.fill("input[name=board]", "7");
  await page.click("#new-game button[type=submit]");
  await page.waitForURL(/#\/game\/\d+$/);
  gameId = Number(page.url().match(/(\d+)$/)[1]);
  await page.waitForSelector("#conn.live");
  await page.waitForFunction(() => document.querySelector("h1").innerText.includes("Open A, board 7"));
  const list = (await api("GET", "/sessions")).body.find((s) => s.id === gameId);
  check(list && list.section === "Open A" && list.board === "7", "the session's section and board: " + JSON.stringify(list));
});

await step("two moves: the History panel names who entered them, the head hash changes", async () => {
  await page.waitForSelector("#history[open] #history-created strong");
  check(/Created by Chief Arbiter/.test(await page.innerText("#history-created")), "the created-by line");
  await page.waitForSelector("#journal-foot:not([hidden])");
  const h0 = await head();
  await clickMove("e2", "e4");
  await page.waitForSelector("#history tr[data-seq='1']");
  await page.waitForFunction((h) => document.querySelector("#journal-head").title !== h, h0);
  const h1 = await head();
  await clickMove("e7", "e5");
  await page.waitForSelector("#history tr[data-seq='2']");
  await page.waitForFunction((h) => document.querySelector("#journal-head").title !== h, h1);
  const h2 = await head();
  check(/^[0-9a-f]{64}$/.test(h2), "the full head in the title: " + h2);
  check(await page.innerText("#journal-head") === h2.slice(0, 16), "its first 16 hex digits shown");
  check(h2 === (await api("GET", "/journal")).body.head, "the head of GET /api/v1/journal");
  const rows = await page.$$eval("#history tbody tr", (trs) => trs.map((tr) => ({
    type: tr.querySelector(".type").textContent, what: tr.querySelector(".what").textContent,
    by: tr.querySelector(".by").textContent, at: tr.querySelector(".when time")?.getAttribute("title") })));
  check(rows.length === 2, "two events: " + JSON.stringify(rows));
  check(rows[0].type === "move" && rows[0].what === "e2e4" && rows[1].what === "e7e5", "the moves as entered (clicks: UCI): " + JSON.stringify(rows));
  check(rows.every((r) => r.by === "Chief Arbiter"), "entered by the chief: " + JSON.stringify(rows));
  check(rows.every((r) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(r.at || "")), "the ISO time in a title: " + JSON.stringify(rows));
  check(/2 events/.test(await page.innerText("#history summary")), "the count in the summary");
  await page.locator("#history").scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, "console-history.png"), fullPage: true });
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  await page.click("#journal-copy");
  await page.waitForFunction(() => document.querySelector("#journal-copy").textContent !== "copy");
  check(await page.innerText("#journal-copy") === "copied", "the copy button: " + await page.innerText("#journal-copy"));
  check(await page.evaluate(() => navigator.clipboard.readText()) === h2, "the whole head copied");
});

await step("the chief deletes a session", async () => {
  await page.goto(base + "/#/");
  await page.waitForSelector("#sessions button[data-delete='1']");
  const row = await page.innerText("#sessions tbody tr[data-id='" + gameId + "']");
  check(/Open A/.test(row) && /\b7\b/.test(row), "the new game's section and board in the list: " + row);
  await page.click("#sessions button[data-delete='1']");
  await page.waitForFunction(() => !document.querySelector("#sessions tr[data-id='1']"));
  check((await api("GET", "/sessions/1")).status === 404, "GET of the deleted session: 404");
});

await step("no page errors", async () => {
  // The browser logs each refused request (401, 403) itself: those were the test's own.
  const real = errors.filter((e) => !/Failed to load resource: the server responded with a status of 40[13]/.test(e));
  check(real.length === 0, "errors in the page: " + real.join(" | "));
});

await step("a journal edited outside arbiter: the red banner on every page", async () => {
  await stop(server);
  // One event's time changed behind the server's back (python3's sqlite3, else the sqlite3 CLI).
  const sql = `UPDATE events SET at_ms = at_ms + 1000 WHERE session_id = ${gameId} AND seq = 1`;
  let r = spawnSync("python3", ["-c", "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\nn = c.execute(sys.argv[2]).rowcount\nc.commit()\nprint(n)",
    journal, sql], { encoding: "utf8", timeout: 20_000 });
  if (r.error) r = spawnSync("sqlite3", [journal, sql + "; SELECT changes();"], { encoding: "utf8", timeout: 20_000 });
  check(!r.error && r.status === 0 && r.stdout.trim() === "1", "one row edited (python3 or sqlite3 needed): " + (r.error || r.stderr + r.stdout));
  ({ server, base } = await startServer(arbiter, ["--journal", journal, "--accept-broken-journal"]));
  const banner = async (p) => {
    await p.waitForSelector("#journal-banner:not([hidden])");
    // The health answer shows the banner first; the chain's problem follows from /api/v1/journal.
    await p.waitForFunction(() => /: /.test(document.getElementById("journal-banner").textContent)).catch(() => {});
    const text = await p.innerText("#journal-banner");
    check(/^This journal does not match its hash chain: .*changed.* — it may have been edited outside arbiter$/.test(text), "the banner: " + text);
    check(await p.getAttribute("#journal-banner", "role") === "alert", "role=alert");
  };
  await page.goto(base + "/");
  await signIn(chief);  // a new server: a new origin, a new tab's storage
  await page.waitForSelector("#sessions");
  await banner(page);
  await page.screenshot({ path: path.join(shots, "console-broken-journal.png") });
  await page.click("text=Check a claim");
  await page.waitForSelector("#check-form");
  await banner(page);
  const hall = await browser.newPage();
  try {
    hall.setDefaultTimeout(15_000);
    await hall.goto(base + "/hall.html");
    await hall.waitForSelector("#token-dialog[open]");
    await hall.fill("#token-input", viewer);
    await hall.click("#token-form button[type=submit]");
    await hall.waitForSelector("#sign-out");  // visible: a token is kept
    await banner(hall);
    await hall.waitForSelector("#journal-foot:not([hidden])");
    await hall.waitForSelector("#boards code");  // no --watch: said once
    await hall.screenshot({ path: path.join(shots, "hall-broken-journal.png") });
  } finally {
    await hall.close();
  }
});

await step("20 wrong tokens: 429 with the seconds to wait, said on the page", async () => {
  for (let i = 0; i < 20; i++) await api("GET", "/sessions", undefined, "0".repeat(64));
  const locked = await api("GET", "/sessions");
  check(locked.status === 429, "the 21st request: " + locked.status);
  await page.goto(base + "/#/");
  await page.reload();
  await page.waitForSelector("#view .error");
  const msg = await page.innerText("#view .error");
  check(/too many wrong tokens/.test(msg) && /retry in \d+ s/.test(msg), "the 429 message with its seconds: " + msg);
  check(await page.isHidden("#token-dialog"), "no token asked on a 429");
});

await browser.close();
await stop(server).catch(() => server.kill("SIGKILL"));
clearTimeout(timer);
console.log(`${failed()} failed`);
process.exit(failed() ? 1 : 0);
