// claim_checker_test.mjs BUILD_WASM WORK SHOTS — the JavaScript package in headless Chromium: the
// package (BUILD_WASM/js) loads in a page served by a static server on 127.0.0.1 and answers as
// in Node; claim-checker.html, opened from a file:// URL with no server at all, rules a correct
// and an incorrect claim with their occurrence boards (the last move marked), picks one of
// several pasted games, sets the ply from its clickable move list, takes a FEN, and refuses a
// bad ply in words. Prints "ok"/"FAIL" per step (run.sh); screenshots go to SHOTS.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { check, openBrowser, serveDir, stepper } from "./lib.mjs";

const [wasmDir, work, shots] = process.argv.slice(2);
const pkgDir = path.join(wasmDir, "js");
fs.mkdirSync(work, { recursive: true });

// A static server of the package and of one test page, on loopback only.
const page0 = `<!doctype html><meta charset="utf-8"><title>package</title><script type="module">
import { load, ArbiterError } from "./index.mjs";
const arbiter = await load();
const s = arbiter.status({ moves: "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8" });
const g = new arbiter.Game({ moves: ["e4", "e5"] });
let refused = null;
try { g.push("Ke3"); } catch (e) { refused = e instanceof ArbiterError ? e.code : "other"; }
window.result = { version: arbiter.version, count: s.repetition.count, claimable: s.claims.threefold.now,
  history: g.history(), refused, perft: new arbiter.Position().perft(3) };
g.delete();
</script>`;
const { server, base } = await serveDir(pkgDir, page0);

const { browser, page, errors } = await openBrowser({ width: 1100, height: 1000 });
const { step, failed } = stepper(page, shots, "claim_checker_");
try {
  await step("the package loads in a page and answers", async () => {
    await page.goto(base);
    await page.waitForFunction(() => window.result, null, { timeout: 30000 });
    const r = await page.evaluate(() => window.result);
    const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8"));
    check(r.version === pkg.version, "version " + r.version);
    check(r.count === 3 && r.claimable === true, "status " + JSON.stringify(r));
    check(JSON.stringify(r.history) === '["e4","e5"]' && r.refused === "illegal_move", "game " + JSON.stringify(r));
    check(r.perft === 8902, "perft " + r.perft);
  });

  const checker = pathToFileURL(path.join(wasmDir, "claim-checker.html")).href;
  await step("claim-checker.html opens from a file:// URL", async () => {
    check(checker.startsWith("file://"), checker);
    await page.goto(checker);
    await page.waitForSelector("body[data-ready]", { timeout: 30000 });
    check(await page.isVisible("#check-form"), "the form is there");
  });

  const ask = async (text, kind, intended, ply, fen) => {
    await page.fill("#check-form textarea[name=text]", text);
    await page.fill("#check-form input[name=fen]", fen ?? "");
    await page.fill("#check-form input[name=ply]", ply ?? "");
    await page.selectOption("#check-form select[name=kind]", kind);
    await page.fill("#check-form input[name=intended]", intended ?? "");
    await page.click("#check-form button[type=submit]");
    await page.waitForSelector("#check-result #ruling, #check-result .error", { timeout: 10000 });
    return page.innerText("#check-result");
  };

  await step("a correct threefold claim with the written move, its three boards", async () => {
    const text = await ask("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1", "threefold", "Ng8");
    check(/Correct/.test(text) && /9\.2\.1/.test(text), "ruling: " + text);
    const boards = await page.$$eval("#check-result .occurrence img", (imgs) => imgs.map((i) => [i.src.slice(0, 18), i.naturalWidth]));
    check(boards.length === 3 && boards.every(([src, w]) => src === "data:image/svg+xml" && w > 0), "boards " + JSON.stringify(boards));
    // The move that led to each position is marked on its board (f6 and g8 after ...Ng8); the start has none.
    const marked = await page.$$eval("#check-result .occurrence img", (imgs) => imgs.map((i) => decodeURIComponent(i.src)));
    const sq = (svg) => (svg.match(/fill="#9bc700"/g) || []).length;
    check(sq(marked[0]) === 0 && sq(marked[1]) === 2 && sq(marked[2]) === 2, "last-move marks " + marked.map(sq));
    const width = await page.$eval("#check-result .occurrence img", (i) => i.getBoundingClientRect().width);
    check(width >= 240, "board width " + width);
    await page.screenshot({ path: path.join(shots, "claim_checker_correct.png"), fullPage: true });
  });

  await step("an incorrect claim: the position stood twice", async () => {
    const text = await ask("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1", "threefold", "Nc6");
    check(/Incorrect/.test(text) && /9\.2/.test(text), "ruling: " + text);
    // The penalty of an incorrect claim (9.5.3): two minutes to the opponent in a standard game.
    check(/Penalty \(9\.5\.3\): 2:00 added to white/.test(text), "penalty: " + text);
    await page.screenshot({ path: path.join(shots, "claim_checker_incorrect.png"), fullPage: true });
  });

  await step("a PGN at a ply, and a refusal shown as an error", async () => {
    const pgn = '[Event "x"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *';
    check(/Correct/.test(await ask(pgn, "threefold", "", "8")), "at ply 8");
    check(/Incorrect/.test(await ask(pgn, "threefold", "", "6")), "at ply 6");
    const err = await ask("1. e4 e5 2. Ke3", "threefold", "");
    check(/illegal/i.test(err), "error: " + err);
  });

  await step("a bad ply is refused in words, not ignored", async () => {
    const err = await ask("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1", "threefold", "", "abc");
    check(/Ply: a whole number/.test(err) && !/Correct|Incorrect/.test(err), "error: " + err);
  });

  await step("a FEN in its box, and a FEN pasted as the game", async () => {
    const fen = "8/8/4k3/8/8/3K4/8/7R w - - 99 80";
    const fifty = await ask("", "fifty", "", "", fen);
    check(/Incorrect/.test(fifty), "fifty now at 99: " + fifty);
    const intended = await ask("", "fifty", "Rh2", "", fen);
    check(/Correct/.test(intended) && /9\.3/.test(intended), "fifty with Rh2: " + intended);
    const pasted = await ask(fen, "fifty", "Rh2", "");
    check(/Correct/.test(pasted), "the FEN pasted in the game box: " + pasted);
    const withMoves = await ask("Kd4 Kd6", "fifty", "", "", "8/8/4k3/8/8/3K4/8/7R w - - 98 80");
    check(/Correct/.test(withMoves), "FEN and moves: " + withMoves);
  });

  await step("several games: the picker, the move list, a click sets the ply", async () => {
    const two = '[White "Ann"]\n[Black "Bob"]\n\n1. e4 e5 *\n\n[White "Cy"]\n[Black "Dee"]\n[Event "Open"]\n\n' +
      "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 *\n";
    await page.fill("#check-form input[name=fen]", "");
    await page.fill("#check-form input[name=ply]", "");
    await page.fill("#check-form textarea[name=text]", two);
    await page.waitForFunction(() => document.querySelectorAll("#check-form select[name=game] option").length === 2, null, { timeout: 10000 });
    const labels = await page.$$eval("#check-form select[name=game] option", (os) => os.map((o) => o.textContent));
    check(/Ann .* Bob/.test(labels[0]) && /Cy .* Dee, Open/.test(labels[1]), "labels " + JSON.stringify(labels));
    check(await page.$$eval("#check-moves button", (bs) => bs.length) === 2, "game 1's two moves listed");
    await page.selectOption("#check-form select[name=game]", "2");
    await page.waitForFunction(() => document.querySelectorAll("#check-moves button").length === 9, null, { timeout: 10000 });
    await page.click('#check-moves button[data-ply="8"]');
    check(await page.inputValue("#check-form input[name=ply]") === "8", "ply set by the click");
    check(await page.getAttribute('#check-moves button[data-ply="8"]', "aria-pressed") === "true", "the move is marked");
    await page.waitForSelector("#check-board img", { timeout: 10000 });
    check(/after 4\.\.\.Ng8/.test(await page.innerText("#check-board")), "the board of the claim");
    await page.selectOption("#check-form select[name=kind]", "threefold");
    await page.fill("#check-form input[name=intended]", "");
    await page.click("#check-form button[type=submit]");
    await page.waitForSelector("#check-result #ruling", { timeout: 10000 });
    const text = await page.innerText("#check-result");
    check(/Correct/.test(text) && /after 4\.\.\.Ng8/.test(text), "game 2 at ply 8: " + text);
    await page.screenshot({ path: path.join(shots, "claim_checker_games.png"), fullPage: true });
    await page.click('#check-moves button[data-ply="6"]');
    await page.click("#check-form button[type=submit]");
    await page.waitForFunction(() => /Incorrect/.test(document.querySelector("#check-result").innerText), null, { timeout: 10000 });
  });

  await step("a paste that is not a game is said in words under the box", async () => {
    await page.fill("#check-form textarea[name=text]", "1. e4 e5 2. Ke3 *");
    await page.waitForSelector("#check-read .error", { timeout: 10000 });
    check(/Ke3/.test(await page.innerText("#check-read")), "read error: " + await page.innerText("#check-read"));
  });

  await step("no errors on the pages", async () => {
    check(errors.length === 0, "page errors: " + errors.join(" | "));
  });
} finally {
  await browser.close();
  server.close();
}
if (failed()) process.exit(1);
console.log("claim checker: all steps passed");
