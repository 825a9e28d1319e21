// hall.js — the hall page of `arbiter serve --watch`: every board followed by the hall monitor as a
// small SVG with players, move, clocks and badges; the alerts newest first with an acknowledge
// button; a board's alerts and evidence on a click. Updates over the SSE stream /api/v1/watch/stream.
"use strict";

const boardsEl = document.getElementById("boards");
const alertsEl = document.getElementById("alerts");
const detailEl = document.getElementById("detail");
const conn = document.getElementById("conn");
const errorEl = document.getElementById("hall-error");
let hall = null;
let selected = null;

const clock = (ms) => {
  if (ms === null) return "–";
  const s = Math.floor(ms / 1000);
  return Math.floor(s / 3600) + ":" + String(Math.floor(s / 60) % 60).padStart(2, "0") + ":" + String(s % 60).padStart(2, "0");
};
const boardUrl = (fen) => "/board.svg?" + new URLSearchParams({ fen });
const LABELS = {
  game_over: "game over", approaching_seventy_five: "75 moves near", claimable: "claimable",
  flag_unwinnable: "flag: draw", flag: "flag", result_mismatch: "result", feed_error: "feed error", correction: "correction",
  feed_stale: "feed stale", feed_gone: "feed gone",
};

function drawBoards() {
  const open = new Map();
  for (const a of hall.alerts) if (!a.acknowledged) open.set(a.board, (open.get(a.board) || []).concat(a));
  boardsEl.replaceChildren(...hall.boards.map((b) => {
    const counts = new Map();
    for (const a of open.get(b.board) || []) counts.set(a.type, (counts.get(a.type) || 0) + 1);
    const badges = [...counts].map(([t, n]) => el("span", { class: "badge " + t }, (LABELS[t] || t) + (n > 1 ? " ×" + n : "")));
    return el("button", { class: "tile" + (b.ended ? " ended" : "") + (b.board === selected ? " selected" : ""),
      "data-board": b.board, on: { click: () => { selected = b.board; draw(); } } },
      el("strong", {}, b.board),
      b.fen ? el("img", { src: boardUrl(b.fen), alt: "board " + b.board, width: 120, height: 120 }) : el("div", { class: "noboard" }),
      el("span", { class: "players" }, b.white + " – " + b.black),
      el("span", { class: "muted" }, (b.move || "start") + " · " + clock(b.clocks.white) + " / " + clock(b.clocks.black)),
      el("span", { class: "badges" }, badges));
  }));
  if (!hall.boards.length) boardsEl.replaceChildren(el("p", { class: "muted" }, "No board read yet."));
}

function alertItem(a) {
  const ack = el("button", { class: "ack", disabled: a.acknowledged,
    on: { click: async () => {
      ack.disabled = true;
      errorEl.textContent = "";
      // An acknowledgement is an arbiter's: a viewer gets the server's 403 message above.
      try {
        await authFetch("/api/v1/watch/ack", { method: "POST",
          body: JSON.stringify({ board: a.board, type: a.type, kind: a.kind, ply: a.ply }) }, true);
      } catch (e) { errorEl.textContent = e.message; ack.disabled = false; }
    } } }, a.acknowledged ? "Acknowledged" : "Acknowledge");
  return el("li", { class: "alert " + a.type + (a.acknowledged ? " acked" : ""), "data-type": a.type, "data-board": a.board },
    el("div", {}, el("strong", {}, "Board " + a.board), " ", el("span", { class: "badge " + a.type }, LABELS[a.type] || a.type),
      " ", a.kind, a.move ? " — " + a.move : "", a.article ? " (" + a.article + ")" : ""),
    el("div", {}, a.detail), ack);
}

async function drawDetail() {
  const b = hall.boards.find((x) => x.board === selected);
  if (!b) { detailEl.hidden = true; return; }
  let d;
  try { d = await (await authFetch("/api/v1/watch/board?" + new URLSearchParams({ id: b.board }))).json(); } catch (e) { errorEl.textContent = e.message; return; }
  if (selected !== b.board) return;
  detailEl.hidden = false;
  detailEl.replaceChildren(
    el("h2", {}, "Board " + b.board + ": " + b.white + " – " + b.black),
    b.fen ? el("img", { src: boardUrl(b.fen), alt: "board " + b.board, width: 320, height: 320 }) : "",
    el("p", {}, "Round " + b.round + ", " + b.plies + " plies" + (b.move ? ", last " + b.move : "") +
      ", clocks " + clock(b.clocks.white) + " / " + clock(b.clocks.black) + (b.ended ? ", over: " + b.ended : "")),
    el("h2", {}, "Its alerts and their evidence"),
    d.alerts.length ? el("ul", { class: "evidence-list" }, d.alerts.map((a) => el("li", { "data-type": a.type },
      (LABELS[a.type] || a.type) + " " + a.kind + " at ply " + a.ply + (a.move ? " (" + a.move + ")" : "") + ": " + a.detail,
      el("div", { class: "occurrences" }, a.evidence.map((e) => el("figure", {},
        el("img", { src: boardUrl(e.fen), alt: "ply " + e.ply, width: 120, height: 120 }),
        el("figcaption", {}, (e.move ? "after " + e.move : "start") + " (ply " + e.ply + ")"))))))) : el("p", { class: "muted" }, "None."),
    el("button", { on: { click: () => { selected = null; draw(); } } }, "Close"));
}

function draw() {
  if (!hall) return;
  drawBoards();
  alertsEl.replaceChildren(...hall.alerts.map(alertItem));
  if (!hall.alerts.length) alertsEl.replaceChildren(el("li", { class: "muted" }, "No alert."));
  drawDetail();
}

// The hall's stream; on a drop, reconnect (the first message is the whole hall again). 401: the
// token asked for (common.js); 403: said, and no retry; 429: said, and tried again when the
// server says; a server without --watch (404): said once.
let connects = 0;
async function listen() {
  for (;;) {
    let wait = 1000;
    try {
      const r = await authFetch("/api/v1/watch/stream");
      errorEl.textContent = "";
      conn.textContent = "live"; conn.className = "conn live";
      if (connects++) refreshJournal();  // after a drop: the journal may have moved on
      await readEvents(r, (event, data) => { if (event === "hall" && data) { hall = JSON.parse(data); draw(); } });
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) {
        boardsEl.replaceChildren(el("p", {}, "This server follows no feed: start it with ",
          el("code", {}, "arbiter serve --journal FILE --watch SOURCE…"), " (docs/watch.md)."));
        alertsEl.replaceChildren();
        conn.textContent = ""; conn.className = "conn";
        return;
      }
      if (e instanceof ApiError) errorEl.textContent = e.message;
      if (e instanceof ApiError && e.status === 403) { conn.textContent = ""; conn.className = "conn"; return; }
      if (e instanceof ApiError && e.retryAfter) wait = e.retryAfter * 1000;
    }
    conn.textContent = wait > 1000 ? "waiting " + wait / 1000 + " s…" : "reconnecting…"; conn.className = "conn down";
    await new Promise((res) => setTimeout(res, wait));
  }
}
initSignOut();
initJournal();
refreshJournal();
listen();
