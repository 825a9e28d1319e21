// console_test.mjs — the web console end to end in a real browser: headless Chromium (Debian
// `chromium`, launched by its path) driven by playwright-core (npm). Starts `arbiter serve` on
// 127.0.0.1 port 0, plays a short game by clicking, makes an incorrect claim (penalty, clocks),
// then a correct claim with a written move (three occurrence boards, the article), checks a claim
// on the "check a claim" page, and drops the stream to see the console catch up.
// Usage: node console_test.mjs ARBITER WORKDIR [SCREENSHOT_DIR]   (PLAYWRIGHT_CORE: its directory)
import fs from "node:fs";
import path from "node:path";
import { check, gamePage, openBrowser, startServer, stepper } from "./lib.mjs";

const [arbiter, work, shots = work] = process.argv.slice(2);
fs.mkdirSync(work, { recursive: true });
const journal = path.join(work, "console.journal");
for (const s of ["", "-wal", "-shm"]) fs.rmSync(journal + s, { force: true });

const timer = setTimeout(() => { console.log("FAIL timeout: the test took over 120 s"); process.exit(1); }, 120_000);
const { server, base } = await startServer(arbiter, ["--journal", journal]);
const api = async (method, p, body) => {
  const r = await fetch(base + "/api/v1" + p, { method, body: body && JSON.stringify(body) });
  return r.json();
};

const { browser, page, errors: consoleErrors } = await openBrowser({ width: 1200, height: 1000 });
const { step, failed } = stepper(page, shots, "failure-");
const { plies, clickMove } = gamePage(page);

await step("new game form", async () => {
  await page.goto(base + "/");
  await page.fill("input[name=white]", "Anna");
  await page.fill("input[name=black]", "Ben");
  await page.fill("input[name=time_control]", "300+2");
  await page.click("#new-game button[type=submit]");
  await page.waitForURL(/#\/game\/1$/);
  await page.waitForSelector("#conn.live");
  // The names come from the sessions list, fetched once the page is up.
  await page.waitForFunction(() => document.querySelector("h1").innerText.includes("Anna"), null, { timeout: 10000 }).catch(() => {});
  check((await page.innerText("h1")).includes("Anna"), "the game page names the players");
});

await step("play by clicking", async () => {
  for (const [f, t] of [["g1", "f3"], ["g8", "f6"], ["f3", "g1"], ["f6", "g8"], ["g1", "f3"], ["g8", "f6"]]) await clickMove(f, t);
  const sheet = await page.innerText("#scoresheet");
  check(/Nf3\s+Nf6[\s\S]*Ng1\s+Ng8[\s\S]*Nf3\s+Nf6/.test(sheet), "scoresheet: " + sheet);
  check(await page.isDisabled("#btn-accept"), "accept is disabled without an offer");
  check((await page.getAttribute("#btn-accept", "title")).includes("no draw offer"), "with the reason on hover");
});

await step("incorrect claim: penalty and clocks", async () => {
  const blackBefore = await page.innerText("#clock-black");
  await page.click("#btn-claim3");
  await page.waitForSelector("#ruling.incorrect");
  const ruling = await page.innerText("#ruling");
  check(/Incorrect/.test(ruling) && /9\.2\.2/.test(ruling), "ruling: " + ruling);
  check(/Penalty \(9\.5\.3\)/.test(ruling) && /added to black/.test(ruling), "penalty shown: " + ruling);
  const blackAfter = await page.innerText("#clock-black");
  check(/\b6:0\d/.test(blackAfter) && blackAfter !== blackBefore, "black's clock +1 min: " + blackBefore + " -> " + blackAfter);
  await page.screenshot({ path: path.join(shots, "console-incorrect-claim.png") });
  check(!(await page.isDisabled("#btn-resume")), "resume enabled: the clock was paused for the claim");
  await page.click("#btn-resume");
  await page.waitForFunction(() => !document.querySelector("#clock-white").innerText.includes("paused"));
});

await step("correct claim with a written move: three boards", async () => {
  await clickMove("f3", "g1");
  check(await page.isDisabled("#btn-claim3w"), "claim with a written move needs the move first");
  await page.fill("#san", "Ng8");
  await page.click("#btn-claim3w");
  await page.waitForSelector("#ruling.correct");
  const ruling = await page.innerText("#ruling");
  check(/Correct/.test(ruling) && /9\.2\.1/.test(ruling), "ruling: " + ruling);
  const boards = await page.locator("#ruling .occurrence img").count();
  check(boards === 3, "three occurrence boards, found " + boards);
  await page.waitForFunction(() => [...document.querySelectorAll("#ruling img")].every((i) => i.complete && i.naturalWidth > 0));
  check((await page.innerText("#status")).includes("1/2-1/2"), "the game is drawn");
  check(await page.isDisabled("#btn-resign"), "no resigning after the end");
  await page.screenshot({ path: path.join(shots, "console-correct-claim.png"), fullPage: true });
});

await step("check a claim page", async () => {
  await page.click("text=Check a claim");
  await page.fill("textarea[name=text]", "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 *");
  await page.fill("input[name=intended]", "Ng8");
  await page.click("#check-form button[type=submit]");
  await page.waitForSelector("#check-result .ruling.correct");
  check((await page.locator("#check-result .occurrence img").count()) === 3, "three boards");
  check((await page.innerText("#check-result")).includes("9.2.1"), "the article");
  const srcs = await page.$$eval("#check-result .occurrence img", (imgs) => imgs.map((i) => i.getAttribute("src")));
  check(!srcs[0].includes("highlight") && srcs[1].includes("highlight=f6%2Cg8"), "the last move marked: " + srcs.join(" "));
  await page.fill("input[name=game]", "x");
  await page.click("#check-form button[type=submit]");
  await page.waitForSelector("#check-result .error");
  check(/Game: a game number/.test(await page.innerText("#check-result")), "a bad game number in words");
  await page.fill("input[name=game]", "");
  await page.fill("input[name=intended]", "");
  await page.fill("input[name=ply]", "6");
  await page.click("#check-form button[type=submit]");
  await page.waitForSelector("#check-result .ruling.incorrect");
  await page.screenshot({ path: path.join(shots, "console-check-claim.png"), fullPage: true });
});

await step("reconnect and catch up", async () => {
  const s = await api("POST", "/sessions", { white: "Carla", black: "Dan" });
  await page.goto(base + "/#/game/" + s.id);
  await page.waitForSelector("#conn.live");
  const other = await browser.newPage();
  await other.goto(base + "/#/game/" + s.id);
  await other.waitForSelector("#conn.live");
  await page.evaluate(() => window.arbiterDropStream());
  await page.waitForSelector("#conn.down");
  // Events while this console is away, from the other console and from the API.
  await other.click("#sq-e2");
  await other.click("#sq-e4");
  await other.waitForFunction(() => document.querySelector("#scoresheet").innerText.includes("e4"));
  await api("POST", "/sessions/" + s.id + "/events", { type: "move", move: "e5", at_ms: 5000 });
  await page.waitForSelector("#conn.live");
  await page.waitForFunction(() => /e4\s+e5/.test(document.querySelector("#scoresheet").innerText));
  await other.waitForFunction(() => /e4\s+e5/.test(document.querySelector("#scoresheet").innerText));
  await other.close();
});

await step("buttons disabled with the server's reasons (the Laws, not the page)", async () => {
  // The event's regulations forbid offers before move 3 (9.1.1): the session says so in the
  // state's "actions", and the console disables Offer with that reason.
  const s = await api("POST", "/sessions", { white: "Eva", black: "Finn", no_offers_before: 3, rules: "fide-online" });
  check(s.actions && s.actions.offer && s.actions.offer.code === "offers_forbidden", "actions.offer: " + JSON.stringify(s.actions));
  await page.goto(base + "/#/game/" + s.id);
  await page.waitForSelector("#conn.live");
  await page.waitForFunction(() => document.querySelector("#btn-offer").disabled);
  check((await page.getAttribute("#btn-offer", "title")).includes("offers_forbidden"), "offer: the 9.1.1 reason");
  // Online play has no touch-move and no illegal moves to rule on: refused by the rule set.
  check(await page.isDisabled("#btn-illegal"), "illegal move disabled online");
  check((await page.getAttribute("#btn-illegal", "title")).includes("no_such_rule"), "with the rule set's reason");
  check(!(await page.isDisabled("#btn-resign")), "resign allowed");
  await api("POST", "/sessions/" + s.id + "/events", { type: "move", move: "e4", at_ms: 1000 });
  await api("POST", "/sessions/" + s.id + "/events", { type: "move", move: "e5", at_ms: 2000 });
  await api("POST", "/sessions/" + s.id + "/events", { type: "move", move: "Nf3", at_ms: 3000 });
  await api("POST", "/sessions/" + s.id + "/events", { type: "move", move: "Nc6", at_ms: 4000 });
  await api("POST", "/sessions/" + s.id + "/events", { type: "move", move: "Bb5", at_ms: 5000 });
  await page.waitForFunction(() => /Bb5/.test(document.querySelector("#scoresheet").innerText));
  check(await page.isDisabled("#btn-offer"), "White has made two moves: still no offer on its own");
  await api("POST", "/sessions/" + s.id + "/events", { type: "move", move: "a6", at_ms: 6000 });
  // White has made three moves: the session allows the offer, and the button follows.
  await page.waitForFunction(() => !document.querySelector("#btn-offer").disabled);
});

await step("no console errors", async () => {
  check(consoleErrors.length === 0, "errors in the page: " + consoleErrors.join(" | "));
});

await browser.close();
server.kill("SIGTERM");
clearTimeout(timer);
console.log(`${failed()} failed`);
process.exit(failed() ? 1 : 0);
