// app.js — the arbiter's console: sessions, a game page (board, clocks, scoresheet, one button per
// thing that can happen, the ruling with its positions) and "check a claim", over the JSON API of
// `arbiter serve` (docs/api.md). Plain JavaScript, no framework; updates arrive over the SSE stream.
"use strict";

const view = document.getElementById("view");
let leaveView = () => {};

// ---- helpers ---------------------------------------------------------------------------------
// The JSON API: the token asked for on a 401, refusals thrown as ApiError (common.js) with the
// server's message (403: the role needed; 429: the seconds to wait), shown where they happened.
async function api(method, path, body) {
  const r = await authFetch("/api/v1" + path, { method, body: body === undefined ? undefined : JSON.stringify(body) },
    body !== undefined);
  const text = await r.text();
  try { return JSON.parse(text); } catch (e) { return text; }
}
const boardUrl = (fen, opts = {}) => {
  const q = new URLSearchParams({ fen });
  if (opts.flip) q.set("flip", "1");
  if (opts.highlight && opts.highlight.length) q.set("highlight", opts.highlight.join(","));
  if (opts.arrow) q.set("arrow", opts.arrow);
  return "/board.svg?" + q.toString();
};
const squareName = (i) => "abcdefgh"[i % 8] + (Math.floor(i / 8) + 1);
function pieceAt(fen, sq) {
  const rows = fen.split(" ")[0].split("/");
  const rank = Math.floor(sq / 8), file = sq % 8;
  let f = 0;
  for (const ch of rows[7 - rank]) {
    if (/\d/.test(ch)) f += Number(ch);
    else { if (f === file) return ch; f++; }
  }
  return null;
}

// The rule-set ids, from the service (GET /api/v1/rule_sets: the library's own table), asked once.
let ruleSetIds = null;
async function ruleSets() {
  if (!ruleSetIds) ruleSetIds = (await api("GET", "/rule_sets")).rule_sets;
  return ruleSetIds;
}

// ---- sessions list and new game --------------------------------------------------------------
async function showSessions() {
  view.replaceChildren(el("h1", {}, "Sessions"), el("p", {}, "Loading…"));
  let list, sets;
  try { [list, sets] = await Promise.all([api("GET", "/sessions"), ruleSets()]); } catch (e) { view.append(el("p", { class: "error", role: "alert" }, e.message)); return; }
  const listErr = el("p", { class: "error", id: "sessions-error", role: "alert" });
  // Deleting a session is the chief's (DELETE /api/v1/sessions/ID): anyone else gets the
  // server's 403 message here. The journal keeps the deleted session's record and who deleted it.
  const remove = async (s, b) => {
    if (!confirm("Delete game #" + s.id + " (" + (s.white || "?") + " – " + (s.black || "?") + ")? It leaves every console and list.")) return;
    listErr.textContent = "";
    b.disabled = true;
    try {
      await api("DELETE", "/sessions/" + s.id);
      showSessions();
      refreshJournal();
    } catch (e) { listErr.textContent = e.message; b.disabled = false; }
  };
  const rows = list.map((s) => {
    const del = el("button", { type: "button", class: "small", "data-delete": s.id, "aria-label": "Delete game #" + s.id }, "Delete");
    del.addEventListener("click", () => remove(s, del));
    return el("tr", { "data-id": s.id },
      el("td", {}, el("a", { href: "#/game/" + s.id }, "#" + s.id)),
      el("td", {}, (s.white || "?") + " – " + (s.black || "?")),
      el("td", {}, s.section || ""), el("td", {}, s.board || ""),
      el("td", {}, s.status), el("td", {}, s.result || ""), el("td", {}, String(s.ply ?? "")), el("td", {}, s.rules || ""),
      el("td", { class: "actions-cell" }, del));
  });
  const table = list.length
    ? el("table", { id: "sessions" }, el("thead", {}, el("tr", {}, ["Game", "Players", "Section", "Board", "Status", "Result", "Ply", "Rules", ""].map((h) => el("th", {}, h)))), el("tbody", {}, rows))
    : el("p", { class: "muted" }, "No sessions in this journal yet.");
  const err = el("p", { class: "error", id: "new-game-error", role: "alert" });
  const form = el("form", { class: "grid", id: "new-game" },
    el("label", {}, "White", el("input", { name: "white", required: true, placeholder: "name" })),
    el("label", {}, "Black", el("input", { name: "black", required: true, placeholder: "name" })),
    el("label", {}, "Time control (PGN, seconds)", el("input", { name: "time_control", list: "tcs", placeholder: "5400+30" })),
    el("datalist", { id: "tcs" }, ["5400+30", "40/5400+30:1800+30", "900+10", "300+2", "180+2", "60"].map((v) => el("option", { value: v }))),
    el("label", {}, "Rule set", el("select", { name: "rules" }, sets.map((r) => el("option", { value: r }, r)))),
    el("label", {}, "Category", el("select", { name: "time_category" },
      el("option", { value: "" }, "from the time control"), ["standard", "rapid", "blitz"].map((c) => el("option", { value: c }, c)))),
    el("label", {}, "Event", el("input", { name: "event", placeholder: "?" })),
    el("label", {}, "Round", el("input", { name: "round", placeholder: "?" })),
    el("label", {}, "Section", el("input", { name: "section", placeholder: "e.g. Open A" })),
    el("label", {}, "Board", el("input", { name: "board", placeholder: "e.g. 12" })),
    el("button", { type: "submit", class: "primary" }, "Start the game"));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    err.textContent = "";
    const body = {};
    for (const [k, v] of new FormData(form).entries()) if (v.trim() !== "") body[k] = v.trim();
    try {
      const s = await api("POST", "/sessions", body);
      location.hash = "#/game/" + s.id;
    } catch (e) { err.textContent = e.message; }
  });
  view.replaceChildren(el("h1", {}, "Sessions"), listErr, table, el("h2", {}, "New game"), form, err);
}

// ---- the game page ---------------------------------------------------------------------------
function showGame(id) {
  let players = { white: "White", black: "Black" };
  let state = null, receivedAt = 0, selected = null, flip = false, stopped = false, tick = null;
  const boardImg = el("img", { alt: "board" });
  const cells = el("div", { class: "cells" });
  const cellButtons = [];
  for (let i = 0; i < 64; i++) {
    const b = el("button", { type: "button" });
    b.addEventListener("click", () => clickSquare(Number(b.dataset.square)));
    cellButtons.push(b);
    cells.append(b);
  }
  const whiteClock = el("div", { class: "clock", id: "clock-white" });
  const blackClock = el("div", { class: "clock", id: "clock-black" });
  const title = el("h1", {}, "Game #" + id);
  const statusLine = el("p", { class: "status", id: "status" });
  const sheet = el("ol", { class: "scoresheet", id: "scoresheet" });
  const err = el("p", { class: "error", id: "error", role: "alert" });
  const san = el("input", { id: "san", placeholder: "SAN or UCI, e.g. Nf3", "aria-label": "move" });
  const side = el("select", { id: "side", "aria-label": "acting side" }, el("option", { value: "white" }, "White"), el("option", { value: "black" }, "Black"));
  const ruling = el("div", { id: "ruling" });
  const historyCount = el("span", {}, "");
  const historyCreated = el("p", { class: "muted", id: "history-created" });
  const historyBody = el("tbody");
  const historyErr = el("p", { class: "error" });
  const history = el("details", { class: "history", id: "history", open: true },
    el("summary", {}, "History", historyCount),
    historyCreated, historyErr,
    el("div", { class: "history-list" }, el("table", {},
      el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", { colspan: 2 }, "Event"), el("th", {}, "By"), el("th", {}, "When"))),
      historyBody)));
  const mustPlay = el("p", { id: "must-play", class: "status" });
  const buttons = {};
  const button = (key, label, fn) => {
    const b = el("button", { type: "button", id: "btn-" + key }, label);
    b.addEventListener("click", fn);
    buttons[key] = b;
    return b;
  };
  // Event times on the session's time line: the server's time of the state shown, plus the time
  // since it arrived (a game without a clock: after the last event this console sent).
  let lastSent = 0;
  const atMs = () => Math.max(lastSent, (state && state.clocks ? state.clocks.as_of_ms : lastSent) + (Date.now() - receivedAt));
  const send = async (e) => {
    err.textContent = "";
    try {
      lastSent = Math.round(atMs());
      const s = await api("POST", "/sessions/" + id + "/events", Object.assign({ at_ms: lastSent }, e));
      update(s);
    } catch (x) { err.textContent = x.message; }
  };
  const sideOf = () => side.value;
  const move = () => { if (san.value.trim()) { send({ type: "move", move: san.value.trim() }); san.value = ""; } };
  san.addEventListener("keydown", (e) => { if (e.key === "Enter") move(); });

  function clickSquare(sq) {
    if (!state || state.status !== "ongoing") return;
    if (selected === null) {
      const p = pieceAt(state.fen, sq);
      if (!p) return;
      selected = sq;
    } else if (selected === sq) {
      selected = null;
    } else {
      const from = selected, p = pieceAt(state.fen, from);
      selected = null;
      let uci = squareName(from) + squareName(sq);
      if ((p === "P" && sq >= 56) || (p === "p" && sq < 8)) uci += "q";
      send({ type: "move", move: uci });
    }
    drawBoard();
  }
  function drawBoard() {
    if (!state) return;
    boardImg.src = boardUrl(state.fen, { flip, highlight: selected === null ? [] : [squareName(selected)] });
    boardImg.alt = "board: " + state.fen;
    for (let i = 0; i < 64; i++) {
      const row = Math.floor(i / 8), col = i % 8;
      const sq = flip ? row * 8 + (7 - col) : (7 - row) * 8 + col;
      const b = cellButtons[i];
      b.dataset.square = sq;
      b.setAttribute("aria-label", squareName(sq));
      b.id = "sq-" + squareName(sq);
      b.classList.toggle("selected", sq === selected);
    }
  }
  function drawClocks() {
    const c = state && state.clocks;
    for (const [color, box] of [["white", whiteClock], ["black", blackClock]]) {
      if (!c) { box.textContent = color === "white" ? "White: no clock" : "Black: no clock"; continue; }
      let ms = c[color + "_ms"];
      const running = c.running === color && !c.paused && state.status === "ongoing";
      if (running) ms -= Date.now() - receivedAt;
      box.replaceChildren(el("small", {}, players[color] + (color === "white" ? " (White)" : " (Black)") + (c.paused ? " (paused)" : "")), fmtClock(ms));
      box.classList.toggle("running", running);
      box.classList.toggle("flag", ms <= 0 || c[color + "_flag"]);
    }
  }
  function enable(key, reason) {
    const b = buttons[key];
    b.disabled = !!reason;
    b.title = reason || "";
  }
  // Whether each button may be used now comes from the server: the state's "actions", which the
  // session computes from the Laws (null: allowed; else the refusal's code and reason). The
  // console adds only what it must know itself: a square selected, a move written.
  function drawButtons() {
    const a = state.actions || {};
    const why = (key) => a[key] ? a[key].message + " [" + a[key].code + "]" : null;
    const written = san.value.trim() ? null : "write the intended move in the move box first";
    enable("move", why("move"));
    enable("touch", why("touch") || (selected === null ? "select the touched piece on the board first" : null));
    for (const k of ["offer", "accept", "decline", "resign", "pause", "resume"]) enable(k, why(k));
    enable("claim3", why("claim_threefold"));
    enable("claim50", why("claim_fifty"));
    enable("claim3w", why("claim_threefold") || written);
    enable("claim50w", why("claim_fifty") || written);
    enable("illegal", why("illegal_move"));
    // A flag falls as the clock runs: the server's answer holds as of its last event, so a face
    // that reaches zero here enables the button (the server checks again when it is pressed).
    const c = state.clocks, live = (color) => c && c[color + "_ms"] - (c.running === color && !c.paused ? Date.now() - receivedAt : 0);
    const fallen = c && state.status === "ongoing" && (live("white") <= 0 || live("black") <= 0);
    enable("flag", a.flag && a.flag.code === "flag_not_fallen" && fallen ? null : why("flag"));
    if (state.claim_right_lost && !a.claim_threefold)
      for (const k of ["claim3", "claim50", "claim3w", "claim50w"]) buttons[k].title = "the right to claim was lost on this move (9.4): a claim now is not admissible";
  }
  function update(s) {
    if (state && s.events < state.events) return;  // an older state than the one shown
    state = s;
    receivedAt = Date.now();
    side.value = s.side_to_move || side.value;
    statusLine.textContent = s.status === "ongoing"
      ? (s.side_to_move === "white" ? "White" : "Black") + " to move" + (s.pending_offer ? " · " + s.pending_offer + " has offered a draw" : "") +
        (s.awaiting_press ? " · waiting for " + s.awaiting_press + " to press the clock" : "")
      : "Game over: " + s.result + (s.termination ? " — " + (s.termination.kind || "") + (s.termination.article ? " (" + s.termination.article + ")" : "") : "");
    mustPlay.textContent = s.must_play ? "Must play: " + (s.must_play.written || JSON.stringify(s.must_play)) : "";
    sheet.replaceChildren();
    for (let i = 0; i < s.moves.length; i += 2)
      sheet.append(el("li", {}, s.moves[i] + (s.moves[i + 1] ? "  " + s.moves[i + 1] : "")));
    document.getElementById("ruling")?.replaceWith(rulingPanel(s.last_verdict, undefined, boardUrl));
    drawBoard();
    drawClocks();
    drawButtons();
    scheduleHistory();
  }
  // The history (GET …/history): every journaled event with who entered it and when, fetched when
  // the page opens and after state updates, at most once a second; the journal's head with it.
  const eventWhat = (e) => {
    const parts = [];
    if (e.move) parts.push(e.move);
    if (e.kind) parts.push(e.kind);
    if (e.side) parts.push(e.side);
    if (e.intended) parts.push("written " + e.intended);
    if (e.square) parts.push(e.square);
    if (e.count !== undefined) parts.push(String(e.count));
    if (e.force) parts.push("force");
    return parts.join(" · ");
  };
  function drawHistory(h) {
    historyErr.textContent = "";
    const c = h.created || {};
    historyCreated.replaceChildren("Created by ", el("strong", {}, c.by || "—"), ", ", timeOf(c));
    historyCount.textContent = " (" + h.events.length + (h.events.length === 1 ? " event)" : " events)");
    historyBody.replaceChildren(...h.events.map((r) => el("tr", { "data-seq": r.seq, title: JSON.stringify(r.event) },
      el("td", {}, String(r.seq)), el("td", { class: "type" }, r.type), el("td", { class: "what" }, eventWhat(r.event || {})),
      el("td", { class: "by" }, r.by || "—"), el("td", { class: "when" }, timeOf(r)))));
  }
  let historyAt = 0, historyTimer = null, historyBusy = false, historyAgain = false;
  function scheduleHistory() {
    if (stopped || historyTimer) return;
    if (historyBusy) { historyAgain = true; return; }
    historyTimer = setTimeout(async () => {
      historyTimer = null;
      if (stopped) return;
      historyBusy = true;
      historyAt = Date.now();
      try { drawHistory(await api("GET", "/sessions/" + id + "/history")); } catch (e) { historyErr.textContent = "The history could not be read: " + e.message; }
      refreshJournal();
      historyBusy = false;
      if (historyAgain) { historyAgain = false; scheduleHistory(); }
    }, Math.max(0, historyAt + 1000 - Date.now()));
  }
  const controls = el("div", {},
    el("div", { class: "row" }, el("label", {}, "Acting side", side), el("label", {}, "Move (SAN)", san), button("move", "Move", move),
      button("flip", "Flip board", () => { flip = !flip; drawBoard(); })),
    el("div", { class: "actions" },
      button("touch", "Touched piece", () => send({ type: "touch", side: sideOf(), square: squareName(selected) })),
      button("offer", "Offer draw", () => send({ type: "offer", side: sideOf() })),
      button("accept", "Accept", () => send({ type: "accept", side: sideOf() })),
      button("decline", "Decline", () => send({ type: "decline", side: sideOf() }))),
    el("div", { class: "actions" },
      button("claim3", "Claim threefold now", () => send({ type: "claim", side: sideOf(), kind: "threefold" })),
      button("claim3w", "Claim threefold with the written move", () => { send({ type: "claim", side: sideOf(), kind: "threefold", intended: san.value.trim() }); san.value = ""; }),
      button("claim50", "Claim fifty now", () => send({ type: "claim", side: sideOf(), kind: "fifty" })),
      button("claim50w", "Claim fifty with the written move", () => { send({ type: "claim", side: sideOf(), kind: "fifty", intended: san.value.trim() }); san.value = ""; })),
    el("div", { class: "actions" },
      button("resign", "Resign", () => send({ type: "resign", side: sideOf() })),
      button("flag", "Flag fallen", () => send({ type: "flag", side: sideOf() })),
      button("pause", "Pause clock", () => send({ type: "pause" })),
      button("resume", "Resume clock", () => send({ type: "resume" })),
      button("illegal", "Illegal move completed", () => send({ type: "illegal_move", side: sideOf() }))),
    el("p", {}, el("a", { href: "/api/v1/sessions/" + id + "/pgn", id: "pgn-link" }, "Scoresheet as PGN")));
  san.addEventListener("input", () => state && drawButtons());
  view.replaceChildren(title, statusLine, err,
    el("div", { class: "game" },
      el("div", {}, el("div", { class: "clocks" }, whiteClock, blackClock), el("div", { class: "board", id: "board" }, boardImg, cells)),
      el("div", {}, controls, mustPlay, el("h2", {}, "Scoresheet"), sheet, ruling, history)));
  tick = setInterval(() => { if (state) { drawClocks(); if (state.actions && state.actions.flag) drawButtons(); } }, 200);

  // SSE over fetch (so that the token can be sent); on a drop, reconnect: the first message is
  // the current state, so the console catches up.
  const conn = document.getElementById("conn");
  let controller = null;
  async function listen() {
    while (!stopped) {
      controller = new AbortController();
      try {
        const r = await authFetch("/api/v1/sessions/" + id + "/stream", { signal: controller.signal });
        conn.textContent = "live"; conn.className = "conn live";
        await readEvents(r, (event, data) => { if (event === "state" && data) update(JSON.parse(data)); });
      } catch (e) {
        if (stopped) return;
        // No such session (or deleted), or a role that may not read: said, and no retry.
        if (e instanceof ApiError && (e.status === 404 || e.status === 403)) {
          err.textContent = e.message; conn.textContent = ""; conn.className = "conn"; return;
        }
        if (e instanceof ApiError && e.status === 429) err.textContent = e.message;
        if (e instanceof ApiError && e.retryAfter) { conn.textContent = "waiting " + e.retryAfter + " s…"; conn.className = "conn down"; await new Promise((res) => setTimeout(res, e.retryAfter * 1000)); continue; }
      }
      conn.textContent = "reconnecting…"; conn.className = "conn down";
      await new Promise((res) => setTimeout(res, 1000));
    }
  }
  listen();
  // The players' names are in the list (the state has none).
  api("GET", "/sessions").then((list) => {
    const me = list.find((x) => x.id === id);
    if (me) {
      players = { white: me.white, black: me.black };
      const where = [me.section, me.board ? "board " + me.board : ""].filter(Boolean).join(", ");
      title.textContent = "Game #" + id + ": " + me.white + " – " + me.black + (where ? " (" + where + ")" : "");
      if (state) drawClocks();
    }
  }).catch(() => {});
  // A test (and a curious arbiter) can drop the stream to see the catch-up.
  window.arbiterDropStream = () => controller && controller.abort();
  return () => { stopped = true; clearInterval(tick); clearTimeout(historyTimer); if (controller) controller.abort(); conn.textContent = ""; };
}

// ---- check a claim without a session (the form and the panel: check.js) ---------------------
// The rule sets come from the service (GET /api/v1/rule_sets), never from a list in the page.
async function showCheck() {
  try {
    const sets = await ruleSets();
    view.replaceChildren(...checkClaimView((body) => api("POST", "/claim", body), boardUrl, sets));
  } catch (e) {
    view.replaceChildren(el("p", { class: "error", role: "alert" }, "The rule sets could not be loaded: " + e.message));
  }
}

// ---- routing -----------------------------------------------------------------------------------
function routeView() {
  leaveView();
  leaveView = () => {};
  const h = location.hash || "#/";
  const m = h.match(/^#\/game\/(\d+)$/);
  refreshJournal();  // the game page refreshes it again with its history
  if (m) leaveView = showGame(Number(m[1]));
  else if (h === "#/check") showCheck();
  else showSessions();
}
window.addEventListener("hashchange", routeView);
initSignOut();
initJournal();
routeView();
