// check.js — the ruling panel and the "check a claim" page, shared by the console (app.js, over the
// service's POST /api/v1/claim) and the claim checker that runs without a server
// (wasm/claim-checker, over the JavaScript API's claim()): both take the same request and get
// the same verdict. Needs el() (common.js).
"use strict";

function fmtClock(ms) {
  if (ms < 0) ms = 0;
  const s = Math.floor(ms / 1000), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  return (h ? h + ":" + two(m) : String(m)) + ":" + two(sec) + (ms < 10000 ? "." + Math.floor((ms % 1000) / 100) : "");
}
// The ruling of a claim (`arbiter claim --json`, the service's verdict): the verdict, the article,
// the reason, the boards of the positions counted and of the look-alikes (the move that led to
// each marked), the count of a 50-move claim and the penalty. `boardSrc(fen, {highlight})` is the
// image URL of a board.
const lastMove = (o) => (o.uci ? { highlight: [o.uci.slice(0, 2), o.uci.slice(2, 4)] } : {});
function rulingPanel(v, title, boardSrc) {
  if (!v) return el("div", { id: "ruling" });
  const ev = v.evidence || {};
  const boards = (ev.occurrences || []).map((o) => el("figure", { class: "occurrence" },
    el("img", { src: boardSrc(o.fen, lastMove(o)), alt: "position " + (o.move || "at the start") }),
    el("figcaption", {}, o.move ? (o.intended ? "after the intended " : "after ") + o.move : "at the start")));
  const lookalikes = (ev.not_counted || []).map((o) => el("figure", { class: "lookalike" },
    el("img", { src: boardSrc(o.fen, lastMove(o)), alt: "look-alike " + (o.move || "") }),
    el("figcaption", {}, (o.move ? "after " + o.move : "at the start") + ": " + o.why)));
  const p = v.penalty;
  return el("section", { id: "ruling", class: "ruling " + (v.correct ? "correct" : "incorrect"), "aria-live": "polite" },
    el("h2", {}, title || "Ruling"),
    el("div", { class: "verdict" }, (v.correct ? "Correct" : "Incorrect") + " — " + v.kind + " claim by " + v.claimant +
      (v.intended ? ", written move " + v.intended : "")),
    el("div", { class: "article" }, "Article " + v.article + (v.rules ? " (" + v.rules + ")" : "")),
    el("p", { class: "reason" }, v.reason),
    boards.length ? el("h3", {}, "The positions (" + boards.length + ")") : null,
    boards.length ? el("div", { class: "occurrences" }, boards) : null,
    lookalikes.length ? el("h3", {}, "Look the same but do not count") : null,
    lookalikes.length ? el("div", { class: "occurrences" }, lookalikes) : null,
    ev.required_plies !== undefined ? el("p", {}, "Count: " + ev.no_progress_plies + " of " + ev.required_plies + " plies") : null,
    p ? el("p", { class: "penalty" }, "Penalty (" + p.article + "): " + (p.added_ms ? fmtClock(p.added_ms) + " added to " + p.added_to : "") +
      (p.deducted_ms ? ", " + fmtClock(p.deducted_ms) + " taken from " + p.side : "") +
      (p.deducted_ms === null ? ", and time taken from " + p.side + " (how much depends on " + p.side + "'s clock)" : "")) : null);
}

// The "check a claim" page: its title, a note, the form and the result. `ask(request)` answers a
// claim request (the keys of docs/api.md: kind, rules, fen, moves or pgn, game, ply, intended) with
// the verdict, or throws an Error whose message is shown; it may return a promise.
// `reader`, when the page can read a paste itself (the claim checker, with the rules in the page):
//   games(pgn)        → [{game, label}], the games of a PGN, for the game picker;
//   moves(request)    → {start_ply, moves: [{san, uci}]}, the moves of a game ({fen, moves} or {pgn, game});
//   position(request) → the FEN at request.ply (the board shown before asking).
// Without it (the console) the game is a number to type, and there is no move list.
const looksLikeFen = (t) => /^\s*[1-8pnbrqkPNBRQK]+(\/[1-8pnbrqkPNBRQK]+){7}\s+[wb]\b/.test(t);
const looksLikePgn = (t) => /^\s*\[/.test(t) || /\d+\.\s*\S+/.test(t) && /(^|\s)(\*|1-0|0-1|1\/2-1\/2)\s*$|\{/.test(t);
function checkClaimView(ask, boardSrc, ruleSets, reader) {
  const field = (label, control, hint) => el("label", {}, label, control, hint ? el("small", { class: "muted" }, hint) : null);
  const text = el("textarea", { name: "text", rows: "6", placeholder: "1. Nf3 Nf6 2. Ng1 Ng8 …  (PGN or moves; empty: the FEN alone)" });
  const fen = el("input", { name: "fen", placeholder: "empty: the initial position", spellcheck: "false" });
  const game = reader ? el("select", { name: "game", disabled: true }, el("option", { value: "1" }, "the first game"))
    : el("input", { name: "game", inputmode: "numeric", placeholder: "1" });
  const ply = el("input", { name: "ply", inputmode: "numeric", placeholder: "the end" });
  const form = el("form", { class: "grid", id: "check-form" },
    el("label", { class: "wide" }, "PGN or moves", text),
    field("Start position (FEN, optional)", fen),
    field("Game (when several are pasted)", game),
    field("Ply (the position before the claim)", ply, reader ? "or click a move below" : "empty: the end of the game"),
    field("Claim", el("select", { name: "kind" }, el("option", { value: "threefold" }, "threefold (9.2)"), el("option", { value: "fifty" }, "fifty moves (9.3)"))),
    field("Written move (optional)", el("input", { name: "intended", placeholder: "e.g. Ng8" })),
    field("Rule set", el("select", { name: "rules" }, ruleSets.map((r) => el("option", { value: r }, r)))),
    el("button", { type: "submit", class: "primary" }, "Check the claim"));
  const note = el("p", { id: "check-read", class: "muted", "aria-live": "polite" });
  const moveList = el("ol", { id: "check-moves", class: "movelist" });
  const preview = el("figure", { id: "check-board", class: "preview" });
  const out = el("div", { id: "check-result" });
  let startPly = 0;

  // The request for what the form says now (without kind and intended; without the ply when
  // `withPly` is false); throws an Error in words.
  const source = (withPly = true) => {
    let t = text.value.trim(), f = fen.value.trim();
    if (!f && looksLikeFen(t)) { f = t; t = ""; }  // a FEN pasted into the game box
    const r = {};
    if (f) r.fen = f;
    if (t && (looksLikePgn(t) || t.includes("\n\n"))) {
      if (f) throw new Error("Give a FEN with moves, or a PGN (its own FEN tag says where it starts), not both.");
      r.pgn = t + "\n";
      r.game = Number(game.value || 1);
      if (!reader && !/^[1-9]\d*$/.test(game.value || "1")) throw new Error("Game: a game number from 1, found \u201c" + game.value + "\u201d.");
    } else if (t) r.moves = t;
    if (!r.fen && !r.pgn && !r.moves) throw new Error("Paste a game (PGN or moves) or give a FEN.");
    const p = ply.value.trim();
    if (withPly && p !== "") {
      if (!/^\d+$/.test(p)) throw new Error("Ply: a whole number of plies from the start (0, 1, 2 …), found \u201c" + p + "\u201d.");
      r.ply = Number(p);
      if (r.moves !== undefined) {  // a ply is of a game: the moves as a game from the start or the FEN
        r.pgn = (r.fen ? '[SetUp "1"]\n[FEN "' + r.fen + '"]\n\n' : "") + r.moves + " *\n";
        delete r.moves; delete r.fen;
      }
    }
    return r;
  };
  const showError = (where, e) => where.replaceChildren(el("p", { class: "error", role: "alert" }, e.message));

  // The claim checker: the games of the paste, the moves of the chosen one, the board at the ply.
  const markPly = () => {
    for (const b of moveList.querySelectorAll("button")) b.setAttribute("aria-pressed", String(b.dataset.ply === ply.value.trim()));
  };
  const showBoard = async () => {
    if (!reader) return;
    try {
      const r = source();
      const fenNow = await reader.position(r);
      const at = r.ply ?? null;
      const b = moveList.querySelector('button[data-ply="' + at + '"]') || (at === null ? moveList.querySelector("li:last-child button") : null);
      const uci = b ? b.dataset.uci : "";
      preview.replaceChildren(el("img", { src: boardSrc(fenNow, uci ? { highlight: [uci.slice(0, 2), uci.slice(2, 4)] } : {}), alt: "the position of the claim" }),
        el("figcaption", {}, b ? "after " + b.textContent : at === null || at === startPly ? "at the start" : "at ply " + at));
    } catch (e) { preview.replaceChildren(); }
  };
  const readMoves = async () => {
    const { start_ply, moves } = await reader.moves(source(false));
    startPly = start_ply;
    moveList.replaceChildren(...moves.map((mv, i) => {
      const at = start_ply + i + 1, before = at - 1;
      const label = Math.floor(before / 2) + 1 + (before % 2 ? "..." : ".") + mv.san;
      return el("li", {}, el("button", { type: "button", "data-ply": String(at), "data-uci": mv.uci, title: "the position after " + label,
        on: { click: () => { ply.value = String(at); markPly(); showBoard(); } } }, label));
    }));
    markPly();
    note.textContent = moves.length ? moves.length + " plies: click a move to claim in the position after it." : "No moves: the claim is on the start position.";
  };
  const readPaste = async () => {
    if (!reader) return;
    try {
      const t = text.value.trim();
      if (!t && !fen.value.trim()) { note.textContent = ""; moveList.replaceChildren(); preview.replaceChildren(); return; }
      if (t && !looksLikeFen(t) && (looksLikePgn(t) || t.includes("\n\n"))) {
        const games = await reader.games(t + "\n");
        const keep = game.value;
        game.replaceChildren(...games.map((g) => el("option", { value: String(g.game) }, g.label)));
        if (games.some((g) => String(g.game) === keep)) game.value = keep;
        game.disabled = games.length < 2;
        if (!games.length) throw new Error("No game was found in the paste.");
      } else {
        game.replaceChildren(el("option", { value: "1" }, "one game"));
        game.disabled = true;
      }
      await readMoves();
      await showBoard();
    } catch (e) {
      moveList.replaceChildren(); preview.replaceChildren();
      showError(note, e);
    }
  };
  let timer = null;
  const later = () => { clearTimeout(timer); timer = setTimeout(readPaste, 250); };
  if (reader) {
    text.addEventListener("input", later);
    fen.addEventListener("input", later);
    game.addEventListener("change", () => { ply.value = ""; readPaste(); });
    ply.addEventListener("input", () => { markPly(); showBoard(); });
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = new FormData(form);
    try {
      const body = { kind: f.get("kind"), rules: f.get("rules"), ...source() };
      if (f.get("intended").trim()) body.intended = f.get("intended").trim();
      out.replaceChildren(rulingPanel(await ask(body), "Ruling", boardSrc));
    } catch (e) { showError(out, e); }
  });
  return [el("h1", {}, "Check a claim"),
    el("p", { class: "muted" }, reader
      ? "Paste the game (PGN or moves) or give a FEN, choose the game and click the move after which the claim was made, add the written move, and see the ruling with its positions."
      : "Paste the game (PGN or moves) or give a FEN, give the ply and the written move, and see the ruling with its positions."),
    form, reader ? el("div", { class: "check-read" }, el("div", {}, note, moveList), preview) : null, out];
}
