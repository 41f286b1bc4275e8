// The fakeservice dashboard: draws /_fake/dashboard/state, follows /_fake/events (SSE)
// and acts through the control plane. URLs are relative to /_fake/ so the page works
// wherever the fake is mounted. No dependencies, no network beyond the fake itself.
"use strict";

const $ = (selector) => document.querySelector(selector);
const JOURNAL_ROWS = 200;
let refreshTimer = null;
let lastSeq = 0;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function chip(label, status, attrs) {
  return el("span", Object.assign({ class: `chip status-${status}`, title: status, "data-status": status }, attrs || {}), label);
}

async function call(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const text = await response.text();
  if (!response.ok) {
    let message = text;
    try { message = JSON.parse(text).error || JSON.parse(text).message || text; } catch (_) { /* text */ }
    throw new Error(`${method} ${path}: ${response.status} ${typeof message === "string" ? message : JSON.stringify(message)}`);
  }
  return text ? JSON.parse(text) : null;
}

function say(text) { $("#message").textContent = text || ""; }

async function act(method, path, body) {
  try {
    const answer = await call(method, path, body);
    say("");
    await refresh();
    return answer;
  } catch (error) {
    say(error.message);
    return null;
  }
}

// -- drawing ----------------------------------------------------------------------------
function cell(column, value) {
  if (Array.isArray(value)) {
    return el("td", { class: `col-${column}` }, ...value.map((item) => {
      const attrs = { "data-label": item.label };
      if (item.id !== undefined) {
        Object.assign(attrs, { "data-job-id": item.id, title: `${item.stage || ""} #${item.id}: ${item.status}`, onclick: () => { $("#job-id").value = item.id; } });
      }
      return chip(el("span", {}, item.label, el("span", { class: "state" }, item.status)), item.status, attrs);
    }));
  }
  if (column === "status" && value) return el("td", { class: "col-status" }, chip(value, value));
  return el("td", { class: `col-${column}` }, value === null || value === undefined ? "" : value);
}

function drawPanel(panel) {
  const head = el("tr", {}, ...panel.columns.map((c) => el("th", {}, c)));
  const rows = panel.rows.map((row) => el("tr", { "data-id": row.id }, ...panel.columns.map((c) => cell(c, row[c]))));
  const shown = panel.rows.length < panel.count ? `${panel.rows.length} newest of ${panel.count}` : `${panel.count}`;
  return el("div", { class: "panel", id: `panel-${panel.key}` },
    el("h2", {}, panel.title, " ", el("small", { class: "count" }, `(${shown})`)),
    el("table", {}, el("thead", {}, head), el("tbody", {}, ...rows)));
}

function drawRules(list, rules, kind) {
  list.replaceChildren(...rules.map((rule) => {
    const text = kind === "faults"
      ? `#${rule.id} ${rule.method} ${rule.path}${rule.status ? " → " + rule.status : ""}${rule.drop ? " drop" : ""}${rule.delay ? " +" + rule.delay + "s" : ""}`
      : `#${rule.id} ${rule.limit}/${rule.period}s ${rule.method} ${rule.path}`;
    return el("li", { "data-id": rule.id }, text, el("button", { type: "button", onclick: () => act("DELETE", `${kind}/${rule.id}`) }, "remove"));
  }));
}

function journalRow(entry, fresh) {
  return el("tr", { "data-seq": entry.seq, class: fresh ? "fresh" : "" },
    el("td", {}, entry.seq), el("td", {}, entry.time), el("td", {}, entry.method),
    el("td", {}, entry.path), el("td", {}, entry.user || ""),
    el("td", {}, chip(entry.status, entry.status < 400 ? "success" : "failed")));
}

function addJournal(entry, fresh) {
  if (entry.seq <= lastSeq) return;
  lastSeq = entry.seq;
  const body = $("#journal tbody");
  body.prepend(journalRow(entry, fresh));
  while (body.children.length > JOURNAL_ROWS) body.lastChild.remove();
  $("#journal-count").textContent = `(last #${entry.seq})`;
}

function draw(state) {
  $("#clock-now").textContent = state.clock.now;
  $("#clock-mode").textContent = state.clock.mode;
  const mode = $("#runner-mode");
  if (document.activeElement !== mode) mode.value = state.runner.mode;
  $("#panels").replaceChildren(...state.panels.map(drawPanel));
  drawRules($("#faults"), state.faults, "faults");
  drawRules($("#rate-limits"), state.rate_limits, "rate_limits");
  const journal = state.journal;
  if (journal.length && journal[journal.length - 1].seq < lastSeq) { // cleared or reset
    $("#journal tbody").replaceChildren();
    lastSeq = 0;
  }
  for (const entry of journal) addJournal(entry, false);
  document.body.dataset.loaded = "true";
}

async function refresh() {
  try { draw(await call("GET", "dashboard/state")); } catch (error) { say(error.message); }
}

function soon() {
  if (refreshTimer === null) refreshTimer = setTimeout(() => { refreshTimer = null; refresh(); }, 100);
}

// -- live updates -----------------------------------------------------------------------
function listen() {
  const source = new EventSource("events");
  const live = $("#live");
  source.onopen = () => { live.textContent = "live"; live.className = "live on"; refresh(); };
  source.onerror = () => { live.textContent = "reconnecting…"; live.className = "live off"; };
  source.addEventListener("journal", (event) => { addJournal(JSON.parse(event.data), true); soon(); });
  source.addEventListener("transition", () => soon());
}

// -- controls ---------------------------------------------------------------------------
function number(selector) {
  const value = $(selector).value;
  return value === "" ? undefined : Number(value);
}

function text(selector) {
  const value = $(selector).value.trim();
  return value === "" ? undefined : value;
}

function wire() {
  for (const button of document.querySelectorAll("#clock-form [data-seconds]")) {
    button.addEventListener("click", () => act("POST", "clock", { seconds: Number(button.dataset.seconds) }));
  }
  $("#clock-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const seconds = number("#clock-seconds");
    if (seconds !== undefined) act("POST", "clock", { seconds });
  });
  $("#runner-mode").addEventListener("change", () => act("POST", "ci/runner", { mode: $("#runner-mode").value }));
  $("#runner-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const id = number("#job-id");
    if (id === undefined) { say("which job? type its id or click it in a pipeline"); return; }
    act("POST", `ci/jobs/${id}/finish`, { status: $("#job-outcome").value, failure_reason: text("#job-reason") });
  });
  $("#fault-form").addEventListener("submit", (event) => {
    event.preventDefault();
    act("POST", "faults", {
      path: text("#fault-path"), method: text("#fault-method"), status: number("#fault-status"),
      delay: number("#fault-delay"), drop: $("#fault-drop").checked, times: number("#fault-times"),
    });
  });
  $("#limit-form").addEventListener("submit", (event) => {
    event.preventDefault();
    act("POST", "rate_limits", { limit: number("#limit-limit"), period: number("#limit-period"), path: text("#limit-path") });
  });
}

wire();
refresh();
listen();
