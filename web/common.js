// common.js — what the console (app.js) and the hall page (hall.js) share: building elements,
// the access token (asked for once, kept for the tab; refusals 401, 403 and 429 said in words),
// reading a Server-Sent Events stream from a fetch answer (fetch rather than EventSource, so that
// the token can be sent), and the journal's head hash and broken-chain banner. The claim checker
// (wasm/claim-checker) includes this file too, with no server: nothing here runs on its own.
"use strict";

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "on") for (const [ev, fn] of Object.entries(v)) e.addEventListener(ev, fn);
    else if (k === "class") e.className = v;
    else if (v === true) e.setAttribute(k, "");
    else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

// ---- the token -------------------------------------------------------------------------------
// One token per tab (sessionStorage, never a cookie), sent as Authorization: Bearer.
const TOKEN_KEY = "arbiter-token";
const token = () => sessionStorage.getItem(TOKEN_KEY);
function headers(json) {
  const h = {};
  if (json) h["Content-Type"] = "application/json";
  if (token()) h["Authorization"] = "Bearer " + token();
  return h;
}
// Opens the token dialog (once: requests refused together share it); `refused` says that the
// token sent was refused (revoked or wrong). Resolves when the dialog is closed.
let tokenAsked = null;
function askToken(refused) {
  if (tokenAsked) return tokenAsked;
  const dialog = document.getElementById("token-dialog");
  const input = document.getElementById("token-input");
  const note = document.getElementById("token-refused");
  if (note) note.hidden = !refused;
  tokenAsked = new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      const t = input.value.trim();
      if (t) sessionStorage.setItem(TOKEN_KEY, t); else sessionStorage.removeItem(TOKEN_KEY);
      input.value = "";
      tokenAsked = null;
      drawSignOut();
      resolve();
    }, { once: true });
    dialog.showModal();
  });
  return tokenAsked;
}
// "Sign out" in the header while a token is kept: forgets it, and the page starts again.
function drawSignOut() {
  const a = document.getElementById("sign-out");
  if (a) a.hidden = !token();
}
function initSignOut() {
  const a = document.getElementById("sign-out");
  if (!a) return;
  a.addEventListener("click", (ev) => {
    ev.preventDefault();
    sessionStorage.removeItem(TOKEN_KEY);
    location.reload();
  });
  drawSignOut();
}

// A refused request: the server's message and code; `needs` (403: the role it needs) and
// `retryAfter` (429: seconds) when the server says them.
class ApiError extends Error {
  constructor(status, body, message) {
    super(message || (body && body.error ? body.error.message : "HTTP " + status));
    this.status = status;
    this.code = body && body.error ? body.error.code : "http_error";
    this.needs = body && body.needs;
  }
}
async function refusal(r) {
  const body = await r.json().catch(() => null);
  if (r.status !== 429) return new ApiError(r.status, body);
  const secs = Number(r.headers.get("Retry-After")) || null;
  const msg = (body && body.error ? body.error.message : "too many wrong tokens from this address") +
    (secs && !(body && body.error && body.error.message.includes(secs + " s")) ? " (retry in " + secs + " s)" : "");
  const e = new ApiError(429, body, msg);
  e.retryAfter = secs;
  return e;
}
// fetch with the token. 401: asks for the token (saying a token sent was refused) and tries again,
// three times at most; any other refusal (403 with the server's message, 429 with the seconds to
// wait) is thrown as an ApiError, never asked again. Notes a journal served broken.
async function authFetch(url, init = {}, json = false) {
  for (let attempt = 0; ; attempt++) {
    const sent = token();
    const r = await fetch(url, Object.assign({}, init, { headers: headers(json) }));
    if (r.headers.get("X-Arbiter-Journal") === "broken") showBroken(null);
    if (r.status === 401 && attempt < 3) { await askToken(!!sent); continue; }
    if (!r.ok) throw await refusal(r);
    return r;
  }
}

// Reads the SSE stream of the fetch answer `r` until it ends, calling onEvent(event, data) per message.
async function readEvents(r, onEvent) {
  const reader = r.body.getReader(), dec = new TextDecoder();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buf += dec.decode(value, { stream: true });
    let i;
    while ((i = buf.indexOf("\n\n")) >= 0) {
      const block = buf.slice(0, i); buf = buf.slice(i + 2);
      let event = "message", data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data += line.slice(5).trim();
      }
      onEvent(event, data);
    }
  }
}

// ---- the journal: its head hash (footer) and a broken chain (banner) ------------------------
// A local time for an ISO instant of the server's (`at`), in the browser's language and zone.
const localTime = new Intl.DateTimeFormat(undefined, { dateStyle: "short", timeStyle: "medium" });
function timeOf(x) {
  if (!x || !x.at) return el("span", { class: "muted" }, "—");
  return el("time", { datetime: x.at, title: x.at }, localTime.format(new Date(x.unix_ms ?? x.at)));
}
// The red banner of a journal that does not match its hash chain; `problem` null when only the
// health answer or a response's X-Arbiter-Journal header said so (then a known problem is kept).
let brokenProblem = null;
function showBroken(problem) {
  const b = document.getElementById("journal-banner");
  if (!b) return;
  if (problem) brokenProblem = problem;
  const text = "This journal does not match its hash chain" + (brokenProblem ? ": " + brokenProblem : "") +
    " — it may have been edited outside arbiter";
  if (b.hidden || b.textContent !== text) { b.textContent = text; b.hidden = false; }
}
function showHead(head) {
  const foot = document.getElementById("journal-foot"), code = document.getElementById("journal-head");
  if (!foot || !code || typeof head !== "string") return;
  code.textContent = head.slice(0, 16);
  code.title = head;
  foot.dataset.head = head;
  foot.hidden = false;
}
async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) { await navigator.clipboard.writeText(text); return; }
  // Plain http on the hall network is no secure context: the old way.
  const t = el("textarea", { readonly: true, class: "offscreen" }, text);
  document.body.append(t);
  t.select();
  const ok = document.execCommand("copy");
  t.remove();
  if (!ok) throw new Error("the browser refused to copy");
}
// The copy button and the health check, once a page; each page calls refreshJournal() itself.
function initJournal() {
  const copy = document.getElementById("journal-copy"), foot = document.getElementById("journal-foot");
  if (copy) copy.addEventListener("click", async () => {
    try { await copyText(foot.dataset.head || ""); copy.textContent = "copied"; } catch (e) { copy.textContent = "copy failed"; }
    setTimeout(() => { copy.textContent = "copy"; }, 1500);
  });
  // The health answer needs no token: a broken chain is told before anyone signs in.
  fetch("/api/v1/health").then((r) => r.json()).then((h) => { if (h.journal === "broken") showBroken(null); }).catch(() => {});
}
// GET /api/v1/journal: the head hash, and the chain's problem when it is broken. A refresh asked
// for while one runs is run after it.
let journalBusy = false, journalAgain = false;
async function refreshJournal() {
  if (journalBusy) { journalAgain = true; return; }
  journalBusy = true;
  try {
    const j = await (await authFetch("/api/v1/journal")).json();
    showHead(j.head);
    if (j.chain === "broken") showBroken(j.problem || null);
  } catch (e) {
    // not shown: the page's own requests say why in their place
  } finally {
    journalBusy = false;
    if (journalAgain) { journalAgain = false; refreshJournal(); }
  }
}
