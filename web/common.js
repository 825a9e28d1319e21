// common.js — what the console (app.js) and the hall page (hall.js) share: building elements,
// the access token (asked for once, kept for the tab), and reading a Server-Sent Events stream
// from a fetch answer (fetch rather than EventSource, so that the token can be sent).
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
const token = () => sessionStorage.getItem("arbiter-token");
function headers(json) {
  const h = {};
  if (json) h["Content-Type"] = "application/json";
  if (token()) h["Authorization"] = "Bearer " + token();
  return h;
}
async function askToken() {
  const dialog = document.getElementById("token-dialog");
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      sessionStorage.setItem("arbiter-token", document.getElementById("token-input").value.trim());
      resolve();
    }, { once: true });
    dialog.showModal();
  });
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
