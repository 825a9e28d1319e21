// hall_test.mjs — the hall page of `arbiter serve --watch` in headless Chromium (Debian chromium,
// driven by playwright-core): a feed file grows while the page is open, and the alerts (a
// fivefold, a feed error) appear without a reload, newest first; a board tile shows its badge; an
// acknowledgement sticks; a click on a board shows its alerts with their evidence; a server
// started without --watch says on its hall page (linked from the console) that it follows no feed.
// Usage: node hall_test.mjs ARBITER WORKDIR [SCREENSHOT_DIR]   (PLAYWRIGHT_CORE: its directory)
import fs from "node:fs";
import path from "node:path";
import { check, openBrowser, startServer, stepper } from "./lib.mjs";

const [arbiter, work, shots = work] = process.argv.slice(2);
fs.mkdirSync(work, { recursive: true });
const journal = path.join(work, "hall.journal");
const feed = path.join(work, "round.pgn");
for (const f of [journal, journal + "-wal", journal + "-shm", feed]) fs.rmSync(f, { force: true });

const timer = setTimeout(() => { console.log("FAIL timeout: the test took over 120 s"); process.exit(1); }, 120_000);
const game = (board, moves, result = "*") =>
  `[Event "Hall"]\n[Round "1"]\n[Board "${board}"]\n[White "W${board}"]\n[Black "B${board}"]\n[Result "${result}"]\n\n${moves} ${result}\n\n`;
const write = (text) => { fs.writeFileSync(feed + ".tmp", text); fs.renameSync(feed + ".tmp", feed); };
write(game(1, "1. Nf3 Nf6 2. Ng1 Ng8") + game(2, "1. e4 e5"));

const { server, base } = await startServer(arbiter, ["--journal", journal, "--watch", feed, "--watch-interval-ms", "100"]);
const { browser, page, errors: pageErrors } = await openBrowser({ width: 1200, height: 900 });
const { step, failed } = stepper(page, shots, "failure-hall-");
let loads = 0;
page.on("load", () => loads++);

await step("the hall page shows the boards", async () => {
  await page.goto(base + "/hall.html");
  await page.waitForSelector("#conn.live");
  await page.waitForSelector(".tile[data-board='1.2'] img");
  check(await page.locator(".tile").count() === 2, "two board tiles");
  check(await page.locator(".alert[data-type]").count() === 0, "no alert yet");
});

await step("alerts appear without a reload, newest first", async () => {
  const before = loads;
  write(game(1, "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8") + game(2, "1. e4 e5"));
  await page.waitForSelector(".alert[data-type=game_over][data-board='1.1']");
  write(game(1, "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8") + game(2, "1. e4 e5 2. Ke3"));
  await page.waitForSelector(".alert[data-type=feed_error][data-board='1.2']");
  check(loads === before, "the page was not reloaded");
  const first = await page.locator("#alerts .alert").first().getAttribute("data-type");
  check(first === "feed_error", "the newest alert first, got " + first);
  const text = await page.innerText(".alert[data-type=game_over]");
  check(/fivefold/.test(text) && /9\.6/.test(text), "the fivefold alert: " + text);
  check(await page.locator(".tile[data-board='1.1'] .badge.game_over").count() === 1, "the board tile has its badge");
  await page.screenshot({ path: path.join(shots, "hall.png") });
});

await step("acknowledge", async () => {
  await page.click(".alert[data-type=game_over] button.ack");
  await page.waitForSelector(".alert.acked[data-type=game_over]");
  await page.waitForFunction(() => !document.querySelector(".tile[data-board='1.1'] .badge.game_over"));
  const r = await (await fetch(base + "/api/v1/watch")).json();
  check(r.alerts.find((a) => a.type === "game_over").acknowledged === true, "acknowledged in the API");
});

await step("a board's evidence on a click", async () => {
  await page.click(".tile[data-board='1.1']");
  await page.waitForSelector("#detail:not([hidden]) img");
  const text = await page.innerText("#detail");
  check(/stood at the start, after 2\.\.\.Ng8, 4\.\.\.Ng8, 6\.\.\.Ng8, 8\.\.\.Ng8/.test(text),
    "the occurrences of the repetition, as moves: " + text);
  await page.waitForFunction(() => document.querySelectorAll("#detail li[data-type=game_over] figure img").length === 5);
  const caption = await page.innerText("#detail li[data-type=game_over] .occurrences");
  check(/start \(ply 0\)[\s\S]*after 8\.\.\.Ng8 \(ply 16\)/.test(caption), "the five occurrence boards: " + caption);
  await page.screenshot({ path: path.join(shots, "hall-board.png") });
});

await step("no page errors", async () => {
  check(pageErrors.length === 0, "errors in the page: " + pageErrors.join(" | "));
});

// (after the check for page errors: the browser logs the 404 of the stream as one)
await step("a server without --watch says its hall follows no feed", async () => {
  const plain = path.join(work, "plain.journal");
  for (const f of [plain, plain + "-wal", plain + "-shm"]) fs.rmSync(f, { force: true });
  const other = await startServer(arbiter, ["--journal", plain]);
  try {
    await page.goto(other.base + "/");
    await page.click("nav a[href='/hall.html']");
    await page.waitForSelector("#boards code");
    const text = await page.innerText("#boards");
    check(/follows no feed/.test(text) && /--watch/.test(text), "the hall without a feed: " + text);
    check(!(await page.locator("#conn.down").count()), "no reconnection loop");
  } finally {
    other.server.kill("SIGTERM");
  }
});

await browser.close();
server.kill("SIGTERM");
clearTimeout(timer);
console.log(`${failed()} failed`);
process.exit(failed() ? 1 : 0);
