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
// the reason, the boards of the positions counted and of the look-alikes, the count of a 50-move
// claim and the penalty. `boardSrc(fen)` is the image URL of a board.
function rulingPanel(v, title, boardSrc) {
  if (!v) return el("div", { id: "ruling" });
  const ev = v.evidence || {};
  const boards = (ev.occurrences || []).map((o) => el("figure", { class: "occurrence" },
    el("img", { src: boardSrc(o.fen), alt: "position " + (o.move || "at the start") }),
    el("figcaption", {}, o.move ? (o.intended ? "after the intended " : "after ") + o.move : "at the start")));
  const lookalikes = (ev.not_counted || []).map((o) => el("figure", { class: "lookalike" },
    el("img", { src: boardSrc(o.fen), alt: "look-alike " + (o.move || "") }),
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
      (p.deducted_ms ? ", " + fmtClock(p.deducted_ms) + " taken from " + p.side : "")) : null);
}

// The "check a claim" page: its title, a note, the form and the result. `ask(request)` answers a
// claim request (the keys of docs/api.md: kind, rules, pgn or moves, ply, intended) with the
// verdict, or throws an Error whose message is shown; it may return a promise.
function checkClaimView(ask, boardSrc, ruleSets) {
  const form = el("form", { class: "grid", id: "check-form" },
    el("label", {}, "PGN or moves", el("textarea", { name: "text", rows: "6", required: true, placeholder: "1. Nf3 Nf6 2. Ng1 Ng8 …" })),
    el("label", {}, "Ply (the position before the claim; empty: the end)", el("input", { name: "ply", inputmode: "numeric" })),
    el("label", {}, "Claim", el("select", { name: "kind" }, el("option", { value: "threefold" }, "threefold (9.2)"), el("option", { value: "fifty" }, "fifty moves (9.3)"))),
    el("label", {}, "Written move (optional)", el("input", { name: "intended", placeholder: "e.g. Ng8" })),
    el("label", {}, "Rule set", el("select", { name: "rules" }, ruleSets.map((r) => el("option", { value: r }, r)))),
    el("button", { type: "submit", class: "primary" }, "Check the claim"));
  const out = el("div", { id: "check-result" });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = new FormData(form);
    const text = f.get("text").trim();
    const body = { kind: f.get("kind"), rules: f.get("rules") };
    const pgn = /^\s*\[/.test(text) || /\d+\.\s*\S+\s+\S+/.test(text) && /[*]|1-0|0-1|1\/2-1\/2|\{/.test(text);
    if (/^\s*\[/.test(text) || pgn) body.pgn = text + "\n"; else body.moves = text;
    if (f.get("ply") !== "") {
      if (!body.pgn) { body.pgn = text + " *\n"; delete body.moves; }
      body.ply = Number(f.get("ply"));
    }
    if (f.get("intended")) body.intended = f.get("intended").trim();
    try {
      out.replaceChildren(rulingPanel(await ask(body), "Ruling", boardSrc));
    } catch (e) { out.replaceChildren(el("p", { class: "error", role: "alert" }, e.message)); }
  });
  return [el("h1", {}, "Check a claim"),
    el("p", { class: "muted" }, "Paste the game (PGN or moves), pick the position and the written move, and see the ruling with its positions."),
    form, out];
}
