// The table page: joins with the invite token, speaks protocol version 1 over a websocket, and
// renders the board, the prompt's forms, the log, chat and the end screen. See docs/protocol.md.
"use strict";

const PROTOCOL_VERSION = 1;
const tableId = decodeURIComponent(location.pathname.split("/").pop());
const tokenKey = `tricolore:token:${tableId}`;
const unsentKey = `tricolore:unsent:${tableId}`;
const creatorKey = `tricolore:creator:${tableId}`;
const soundKey = "tricolore:sound";
/** Whether this browser shows every action as a form too (off unless chosen): a fallback to the board. */
const formsKey = "tricolore:forms";
/** Where this seat's draft waits across reloads (this tab only): keyed by table and seat; it also
 * names the prompt it answers, and is dropped once that prompt changes or the table acknowledges it. */
const draftKey = () => `tricolore:draft:${tableId}:${table.seat}`;

const table = {
  token: null, seat: null, game: null, title: "", view: {}, events: [], chat: [], prompt: null,
  seats: [], status: "", final: null, board: null, socket: null, windowEnds: null,
  bots_take_over: false, error: "", notice: "", forms: [], formsKey: null,
  draft: { type: null, values: {}, domains: {} }, // the decision being built on the board
  sending: null, actionsSeen: 0, // the bar's action on its way: {id, after: the action count that shows it}
  clocks: [], myTurn: false, invites: null, lifeNotice: "",
};

const ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth"];

/** This browser's own secret: the first browser to join with it holds the seat. Never in a URL. */
function device() {
  let secret = localStorage.getItem("tricolore:device");
  if (!secret) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    secret = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem("tricolore:device", secret);
  }
  return secret;
}

function newId() {
  return (crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`);
}

function names() {
  return table.seats.map((s, i) => s.name || `the ${ORDINALS[i] || "next"} seat`);
}

// -- joining ------------------------------------------------------------------------------------
async function start() {
  const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
  if (invite) {
    localStorage.setItem(tokenKey, invite);
    history.replaceState(null, "", location.pathname); // the invite leaves the address bar
  }
  table.token = localStorage.getItem(tokenKey);
  const take = new URLSearchParams(location.hash.slice(1)).get("take");
  if (take !== null) history.replaceState(null, "", location.pathname);
  const info = await (await fetch(`/api/tables/${encodeURIComponent(tableId)}`)).json();
  table.openToAll = !!info.open_to_all;
  if (!table.token) {
    if (take !== null && info.status === "waiting" && (info.open_seats || []).includes(Number(take))) return askName(Number(take));
    return connect();
  }
  if (invite && info.status === "waiting") return askName();
  await join("");
}

/** The name form: for the seat of an invite, or (`open` a seat number) an open seat of a table
 * open to all. */
function askName(open = null) {
  const input = h("input", { name: "name", maxlength: 40, placeholder: "your name", required: true, autofocus: true });
  const problem = h("p", { class: "error", role: "alert" });
  const form = h("form", { class: "card", "data-testid": "join-form", onsubmit: async (e) => {
    e.preventDefault();
    if (open === null) return join(input.value);
    problem.textContent = (await takeOpenSeat(open, input.value)) || "";
  } }, h("h2", {}, open === null ? "Take your seat" : `Take the ${ORDINALS[open] || "open"} seat`), h("label", {}, "Name ", input),
  h("button", { type: "submit" }, "Join the table"), problem);
  if (table.socket) { const old = table.socket; table.socket = null; old.close(); }
  document.getElementById("main").replaceChildren(form);
  ui.root = null;
}

/** Take an open seat of a table open to all; the seat's token is kept by this browser. Returns
 * the refusal's sentence, if any. */
async function takeOpenSeat(seat, name) {
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/seats/${seat}`, { method: "POST",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name, device: device() }) });
  const answer = await response.json();
  if (!response.ok) return answer.detail;
  localStorage.setItem(tokenKey, answer.token);
  table.token = answer.token;
  if (table.socket) { const old = table.socket; table.socket = null; old.close(); }
  ui.root = null;
  connect();
  return null;
}

async function join(name, move = false) {
  const response = await fetch("/api/join", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token: table.token, name, device: device(), move }) });
  if (response.status === 409) return askToMove((await response.json()).detail);
  if (!response.ok) {
    const detail = (await response.json()).detail;
    localStorage.removeItem(tokenKey);
    table.token = null;
    table.notice = `${detail} — watching as a spectator.`;
  }
  connect();
}

/** The seat is held by another browser, or a bot plays it since its person left: ask. */
function askToMove(detail) {
  const card = h("section", { class: "card", "data-testid": "move-seat" },
    h("h2", {}, "Your seat is elsewhere"), h("p", {}, detail),
    h("button", { type: "button", "data-testid": "move-here", onclick: () => join("", true) },
      detail.includes("bot") ? "Take my seat back from the bot" : "Move my seat to this browser"), " ",
    h("button", { type: "button", class: "small", onclick: () => { table.notice = "Watching as a spectator."; connect(); } }, "Just watch"));
  if (table.socket) { const old = table.socket; table.socket = null; old.close(); }
  document.getElementById("main").replaceChildren(card);
}

/** Take the seat here again: from another browser, or back from the bot. */
async function takeSeatHere() {
  const response = await fetch("/api/join", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token: table.token, name: "", device: device(), move: true }) });
  if (!response.ok) { table.lifeNotice = (await response.json()).detail; return renderTools(); }
  table.lifeNotice = "";
  if (table.socket) { const old = table.socket; table.socket = null; old.close(); }
  connect();
}

// -- the socket ---------------------------------------------------------------------------------
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(tableId)}`);
  table.socket = socket;
  socket.onopen = () => socket.send(JSON.stringify({ type: "hello", version: PROTOCOL_VERSION, token: table.token, device: device() }));
  socket.onmessage = (message) => receive(JSON.parse(message.data));
  socket.onclose = () => {
    if (table.socket === socket) setTimeout(connect, 1000);
    setConnection(false);
  };
}

function setConnection(up) {
  const el = document.getElementById("connection");
  if (el) el.textContent = up ? "connected" : "reconnecting…";
}

function unsent() {
  return JSON.parse(localStorage.getItem(unsentKey) || "[]");
}

function send(message) {
  if (message.type === "action") localStorage.setItem(unsentKey, JSON.stringify([...unsent(), message]));
  if (table.socket && table.socket.readyState === WebSocket.OPEN) table.socket.send(JSON.stringify(message));
}

const domainWaiters = new Map();

function askDomain(kind, param, chosen) {
  const id = newId();
  return new Promise((resolve) => {
    domainWaiters.set(id, resolve);
    send({ type: "domain", id, kind, param, chosen });
  });
}

function receive(message) {
  settleSending(message);
  switch (message.type) {
    case "welcome":
      setConnection(true);
      Object.assign(table, { seat: message.seat, game: message.game, title: message.title, view: message.view, events: message.events, chat: message.chat, bots_take_over: message.bots_take_over });
      update(message);
      restoreDraft();
      for (const pending of unsent()) table.socket.send(JSON.stringify(pending)); // applied once
      Tricolore.loadBoard(message.game).then((board) => { table.board = board; offerProposals(); restoreDraft(); render(); });
      return;
    case "update":
      for (const [key, value] of Object.entries(message.view_delta.set)) table.view[key] = value;
      for (const key of message.view_delta.unset) delete table.view[key];
      table.events.push(...message.events);
      update(message);
      return render();
    case "ack":
      localStorage.setItem(unsentKey, JSON.stringify(unsent().filter((m) => m.id !== message.id)));
      table.error = "";
      return;
    case "error":
      localStorage.setItem(unsentKey, JSON.stringify(unsent().filter((m) => m.id !== message.id)));
      if (domainWaiters.has(message.id)) { domainWaiters.get(message.id)(null); domainWaiters.delete(message.id); }
      if (message.refusedDraft) return; // its sentence is shown beside the draft it refused
      table.error = message.message;
      return renderError();
    case "chat":
      table.chat.push(message);
      if (message.terms) return render(); // a proposal or an answer changes the offer cards
      return renderChat();
    case "notice":  // the seat is gone (a bot plays it, or another browser), or the table is closed
      if (message.code !== "table_closed") table.seat = null;
      table.lifeNotice = message.message;
      renderTools();
      return render();
    case "domain":
      if (domainWaiters.has(message.id)) { domainWaiters.get(message.id)(message.domain); domainWaiters.delete(message.id); }
      return;
  }
}

function update(message) {
  table.status = message.status;
  table.seats = message.seats;
  table.prompt = message.prompt;
  table.final = message.final || null;
  const left = message.prompt && message.prompt.seconds_left;
  table.windowEnds = left === null || left === undefined ? null : Date.now() + left * 1000;
  table.clocks = (message.clocks || []).map((c) => ({ seat: c.seat, ends: Date.now() + c.seconds_left * 1000 }));
  whoseTurn();
  renderTools();
}

// -- whose turn: the tab's title and a short sound ----------------------------------------------
let audio = null;

function soundOn() {
  return localStorage.getItem(soundKey) !== "off";
}

/** Two short notes, generated: no sound file is needed. */
function chime() {
  document.body.dataset.chimes = String(Number(document.body.dataset.chimes || 0) + 1);
  if (!soundOn()) return;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try {
    audio = audio || new Context();
    const start = audio.currentTime;
    [660, 880].forEach((frequency, i) => {
      const at = start + i * 0.14;
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.type = "sine";
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.15, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.13);
      tone.connect(gain).connect(audio.destination);
      tone.start(at);
      tone.stop(at + 0.14);
    });
  } catch { /* a browser without sound: the title still tells */ }
}

function whoseTurn() {
  const mine = !!(table.prompt && table.prompt.actions.length && table.status === "playing");
  const name = table.title || table.game || "Tricolore";
  document.title = mine ? `● Your turn — ${name}` : `${name} — Tricolore`;
  if (mine && !table.myTurn) chime();
  table.myTurn = mine;
}

// -- the bar above the table: clocks, sound, the seat, the creator's tools ------------------------
function renderTools() {
  const bar = document.getElementById("tools");
  if (!bar) return;
  const n = names();
  const sound = h("button", { type: "button", class: "small", "data-testid": "sound", "aria-pressed": soundOn() ? "true" : "false",
    onclick: () => { localStorage.setItem(soundKey, soundOn() ? "off" : "on"); renderTools(); } }, soundOn() ? "Sound on" : "Sound off");
  const clocks = table.clocks.length ? h("span", { class: "clocks", "data-testid": "clocks" }, "Clock: ",
    table.clocks.map((c) => h("span", { class: "clock", "data-seat": c.seat, "data-ends": c.ends }, `${n[c.seat]} `, h("b", {}, "")))) : null;
  const lost = table.token && table.seat === null && table.status !== "over" && table.status !== "closed";
  const takeBack = lost ? h("button", { type: "button", "data-testid": "take-seat", onclick: takeSeatHere }, "Take my seat here") : null;
  const creator = localStorage.getItem(creatorKey);
  const tools = creator ? h("span", { class: "creator" },
    h("button", { type: "button", class: "small", "data-testid": "show-invites", onclick: showInvites }, "Invite links"), " ",
    table.status !== "over" && table.status !== "closed" ? h("button", { type: "button", class: "small danger", "data-testid": "close-table", onclick: closeTable }, "Close the table") : null) : null;
  const closed = table.status === "closed" ? h("span", { class: "notice", "data-testid": "closed" }, "This table is closed.") : null;
  bar.replaceChildren(h("div", { class: "tools-row" }, sound, clocks, takeBack, tools, closed),
    table.lifeNotice ? h("p", { class: "notice", "data-testid": "notice" }, table.lifeNotice) : "",
    table.invites ? inviteList(table.invites) : "");
  tickClocks();
}

function tickClocks() {
  for (const el of document.querySelectorAll("#tools .clock")) {
    const left = Math.max(0, Math.ceil((Number(el.dataset.ends) - Date.now()) / 1000));
    el.querySelector("b").textContent = `${left} s`;
  }
}

/** Invite links, each with a button that copies it. */
function inviteList(invites) {
  const link = (path) => new URL(path, location.href).href;
  return h("ul", { class: "invites", "data-testid": "invite-list" }, Object.entries(invites).map(([seat, path]) => h("li", {},
    `${table.seats[seat] && table.seats[seat].kind !== "open" ? table.seats[seat].name : ordinal(Number(seat)) + " player"}: `,
    h("input", { readonly: true, value: link(path), size: 40, "data-invite": seat, "aria-label": "invite link" }), " ",
    copyButton(link(path)))));
}

async function showInvites() {
  if (table.invites) { table.invites = null; return renderTools(); }
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/invites`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ creator: localStorage.getItem(creatorKey) }) });
  const answer = await response.json();
  if (!response.ok) { table.lifeNotice = answer.detail; return renderTools(); }
  table.invites = answer.invites;
  renderTools();
}

async function closeTable() {
  if (!confirm("Close the table for everyone? It takes no more moves.")) return;
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/close`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ creator: localStorage.getItem(creatorKey) }) });
  if (!response.ok) { table.lifeNotice = (await response.json()).detail; renderTools(); }
}

// -- a decision sent from the status bar: the bar waits ("Sending…") until the table has applied it
// The draft behind it stays on the board until the table acknowledges it; a refusal brings it back
// with the refusal's sentence beside it.
function sendAction(action, also = null) {
  const id = newId();
  const draft = table.draft.type === action.type ? table.draft : null;
  if (draft) draft.error = "";
  table.sending = { id, after: null, draft, also };
  send({ type: "action", id, action });
}

/** A board's sentence as plain text, whether it is a string or a node built with Kit.term. */
function textOf(said) {
  if (said === null || said === undefined) return "";
  return typeof said === "string" ? said : said.textContent || "";
}

/** A proposal the engine does not keep: a private message to its `to`, its sentence as the text
 * and its values as the terms; the family's `also` (an engine action) follows it. */
function sendProposal(family, draft, sentence) {
  const values = { ...draft.values };
  const text = (sentence || actionTitle(family.type)).slice(0, 500);
  send({ type: "chat", text, to: values.to, terms: { kind: family.type, values } });
  const also = family.also ? family.also(values) : null;
  if (also) send({ type: "action", id: newId(), action: also });
  table.draft = takeStash();
  saveDraft();
}

/** Every proposal this seat sent or received, with the answers given to it. */
function proposals() {
  const found = [];
  const byNumber = new Map();
  for (const m of table.chat) {
    const terms = m.terms;
    if (!terms) continue;
    if (terms.kind) {
      const proposal = { number: m.number, from: m.from, to: m.to, kind: terms.kind, values: terms.values || {}, text: m.text, answers: [] };
      found.push(proposal);
      byNumber.set(m.number, proposal);
    } else if (byNumber.has(terms.answer)) byNumber.get(terms.answer).answers.push({ from: m.from, accepted: terms.accepted });
  }
  return found;
}

/** The bar's decision is busy from its Confirm until the update that follows the action's ack. */
function settleSending(message) {
  const sending = table.sending;
  if (message.type === "update" || message.type === "welcome") table.actionsSeen = message.actions;
  if (!sending) return;
  if (message.type === "error" && message.id === sending.id) {
    table.sending = null;
    if (sending.draft) message.refusedDraft = keepRefused(sending.draft, message.message);
  }
  if (message.type === "ack" && message.id === sending.id) {
    sending.after = message.number + 1;
    if (sending.draft && table.draft === sending.draft) table.draft = sending.draft.deal ? takeStash() : emptyDraft();
    if (sending.also) send({ type: "action", id: newId(), action: sending.also });
    saveDraft();
  }
  if (sending.after !== null && table.actionsSeen >= sending.after) table.sending = null;
  if (!table.sending && (message.type === "ack" || message.type === "error")) render(); // updates render anyway
}

// -- drafts: kept while unsent, brought back after a reload, never lost to a refusal ----------------
function emptyDraft() {
  return { type: null, values: {}, domains: {} };
}

/** The refused draft comes back with the refusal's sentence, if its kind is still offered; it then
 * answers the prompt as it is now. Returns whether the sentence is shown beside it. */
function keepRefused(draft, sentence) {
  const family = offeredFamily(draft.type);
  if (!family) return false;
  table.draft = { ...draft, family: JSON.stringify(family), error: sentence };
  saveDraft();
  return true;
}

function saveDraft() {
  if (table.seat === null) return;
  const d = table.draft;
  try {
    if (d.type) sessionStorage.setItem(draftKey(), JSON.stringify({ type: d.type, values: d.values, domains: d.domains, family: d.family, error: d.error || "", deal: !!d.deal, also: d.also || null }));
    else if (!table.sending || table.sending.after !== null) sessionStorage.removeItem(draftKey()); // kept only until acknowledged
  } catch { /* storage full or refused: the draft still lives on the page */ }
}

/** After a reload, the draft this seat was building, if it still answers the same prompt. */
function restoreDraft() {
  if (table.seat === null || table.draft.type) return;
  let stored = null;
  try { stored = JSON.parse(sessionStorage.getItem(draftKey()) || "null"); } catch { stored = null; }
  if (!stored || !stored.type) return;
  const family = offeredFamily(stored.type);
  if (family && JSON.stringify(family) === stored.family) table.draft = stored;
  else if (table.board) sessionStorage.removeItem(draftKey()); // a proposal's kind is known once the board is
}

// -- rendering ----------------------------------------------------------------------------------
// The page is built once; each update patches the status bar, the player panels, the board and the
// secret panel in place (Kit.patch), appends new log lines, and rebuilds the forms only when what
// this seat may do has changed. Open <details> and half-filled forms survive updates.
const ui = { root: null, parts: {}, logCount: 0, logKey: null, moment: "", momentTimer: null, shownEvents: 0 };

/** What a board's hooks receive: names, the seat, the builders, and the decision being drafted. */
function boardContext() {
  const draft = table.draft;
  const ctx = { names: names(), seat: table.seat, view: table.view, prompt: table.prompt, h, renderValue, label, kit: Kit,
    draft: { type: draft.type, values: { ...draft.values } } };
  /** The family of the prompt (or of the free actions) with this kind, if this seat may take it now. */
  ctx.offered = (type) => offeredFamily(type);
  /** The value picked so far for `param` of a draft of `type` (undefined if none). */
  ctx.picked = (type, param) => (draft.type === type ? draft.values[param] : undefined);
  /** Whether `value` may be picked for `param` of `type` now (it is in the parameter's domain). */
  ctx.can = (type, param, value) => canPick(type, param, value);
  /** Make `node` pick `value` for `param` of `type` when clicked; unchanged if that is not legal now. */
  ctx.choice = (node, type, param, value, text) => {
    if (!canPick(type, param, value)) return node;
    const family = offeredFamily(type);
    const domain = draftDomain(family, family.params.find((q) => q.name === param));
    if (domain.kind === "subset") { // a click adds the option to the set, or takes it out
      const now = draft.type === type ? draft.values[param] || [] : [];
      const member = now.some((o) => same(o, value));
      return Kit.choice(node, { value, label: text, chosen: member,
        onPick: () => pick(type, param, member ? now.filter((o) => !same(o, value)) : [...now, value]) });
    }
    return Kit.choice(node, { value, label: text, chosen: draft.type === type && same(draft.values[param], value),
      onPick: () => pick(type, param, value) });
  };
  /** Pick several parameters of `type` at once, e.g. a citizen and a side with one click on a pan. */
  ctx.pickMany = (type, values) => {
    for (const [param, value] of Object.entries(values)) {
      if (!(table.draft.type === type && same(table.draft.values[param], value))) pickQuietly(type, param, value);
    }
    fillDefaults();
    render();
  };
  /** Make `node` start a draft of `type` when clicked (its parameters then come from the board or the bar). */
  ctx.start = (node, type, text) => {
    if (!offeredFamily(type)) return node;
    return Kit.choice(node, { value: type, label: text, chosen: draft.type === type, onPick: () => startDraft(type) });
  };
  /** Start a deal of `type` with `values` filled in; the decision being built waits beside it. */
  ctx.startDeal = (type, values = {}, also = null) => startDeal(type, values, also);
  ctx.dealDraft = !!draft.deal;
  ctx.proposals = proposals();
  return ctx;
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function offeredFamily(type) {
  const p = table.prompt;
  if (!p || table.seat === null) return null;
  return p.actions.find((f) => f.type === type) || p.free.find((f) => f.type === type)
    || (table.proposalFamilies || []).find((f) => f.type === type) || null;
}

/** Whether a kind of draft is a proposal the engine does not keep (sent as a private message). */
function isProposal(type) {
  return (table.proposalFamilies || []).some((f) => f.type === type);
}

/** The domain of a parameter of the draft: given, fetched (dependent parameters), or not yet known. */
function draftDomain(family, param) {
  if (!param.depends) return param.domain;
  return table.draft.type === family.type ? table.draft.domains[param.name] || null : null;
}

function canPick(type, name, value) {
  const family = offeredFamily(type);
  const param = family && family.params.find((q) => q.name === name);
  if (!param) return false;
  const domain = draftDomain(family, param);
  if (!domain) return false;
  if (domain.kind === "choice" || domain.kind === "subset") return domain.options.some((o) => same(o, value));
  if (domain.kind === "amount") return Number.isInteger(value) && value >= domain.low && value <= domain.high;
  return true;
}

function newDraft(type) {
  return { type, values: {}, domains: {}, family: JSON.stringify(offeredFamily(type)) };
}

/** A deal started from a player's panel or an offer's card: the draft being built is set aside
 * (it comes back once the deal is sent, or on Cancel) and the deal's draft starts filled in. */
function startDeal(type, values = {}, also = null) {
  const family = offeredFamily(type);
  if (!family) return;
  if (table.draft.type && !table.draft.deal) table.stash = table.draft;
  table.draft = newDraft(type);
  table.draft.deal = true;
  table.draft.also = also;
  for (const param of family.params) {
    if (values[param.name] !== undefined) pickQuietly(type, param.name, values[param.name]);
  }
  fillDefaults();
  render();
  const bar = ui.parts.status && ui.parts.status.querySelector("[data-testid=decision]");
  if (bar && narrow.matches) bar.scrollIntoView({ block: "nearest" });
}

/** The draft set aside for a deal, if its kind is still offered; else nothing. */
function takeStash() {
  const kept = table.stash;
  table.stash = null;
  return kept && offeredFamily(kept.type) ? kept : emptyDraft();
}

function startDraft(type) {
  if (table.draft.type !== type) table.draft = newDraft(type);
  fillDefaults();
  render();
}

function pick(type, name, value) {
  pickQuietly(type, name, value);
  fillDefaults();
  render();
}

function pickQuietly(type, name, value) {
  if (table.draft.type !== type) table.draft = newDraft(type);
  const family = offeredFamily(type);
  table.draft.values[name] = value;
  // a later parameter whose domain depends on this one is asked again
  const at = family.params.findIndex((q) => q.name === name);
  for (const later of family.params.slice(at + 1)) {
    if (!later.depends) continue;
    // kept aside: the value comes back if the domain asked again still holds it
    if (table.draft.values[later.name] !== undefined) (table.draft.kept = table.draft.kept || {})[later.name] = table.draft.values[later.name];
    delete table.draft.values[later.name];
    delete table.draft.domains[later.name];
  }
}

/** Amounts start at their least; a dependent parameter's domain is asked for once the earlier ones are set. */
function fillDefaults() {
  const draft = table.draft;
  const family = offeredFamily(draft.type);
  if (!family) return;
  for (const [i, param] of family.params.entries()) {
    const domain = draftDomain(family, param);
    if (param.depends && !domain) {
      const earlier = family.params.slice(0, i);
      if (earlier.some((q) => !q.optional && draft.values[q.name] === undefined)) return;
      const chosen = Object.fromEntries(earlier.filter((q) => draft.values[q.name] !== undefined).map((q) => [q.name, draft.values[q.name]]));
      askDomain(family.type, param.name, chosen).then((answer) => {
        if (table.draft !== draft || !answer) return;
        draft.domains[param.name] = answer;
        const kept = draft.kept && draft.kept[param.name];
        if (kept !== undefined && inDomain(answer, kept)) draft.values[param.name] = kept;
        fillDefaults();
        render();
      });
      return;
    }
    if (domain && domain.kind === "amount" && draft.values[param.name] === undefined && !param.optional) draft.values[param.name] = domain.low;
    if (domain && domain.kind === "choice" && domain.options.length === 1 && !param.optional && draft.values[param.name] === undefined) {
      draft.values[param.name] = domain.options[0];
    }
  }
}

/** Whether `value` lies in `domain` (an amount's range, a choice's options). */
function inDomain(domain, value) {
  if (domain.kind === "amount") return Number.isInteger(value) && value >= domain.low && value <= domain.high;
  if (domain.kind === "choice") return domain.options.some((o) => same(o, value));
  return false;
}

function board() {
  return table.board || {};
}

function render() {
  const main = document.getElementById("main");
  if (!ui.root || !main.contains(ui.root)) {
    const part = (tag, attrs) => h(tag, attrs);
    ui.parts = { status: part("div"), offers: part("div"), players: part("div"), end: part("div"), board: part("section", { class: "board-wrap", "data-testid": "board" }),
      secret: part("div"), forms: part("div", { class: "forms", "data-testid": "forms", hidden: !formsShown() }), log: part("div"), chat: part("div") };
    for (const [name, node] of Object.entries(ui.parts)) node.classList.add(`part-${name}`);
    ui.root = h("div", { class: "layout" },
      h("div", { class: "column wide" }, ui.parts.status, ui.parts.offers, ui.parts.players, ui.parts.end, ui.parts.board, ui.parts.secret),
      h("div", { class: "column" }, formsSwitch(), ui.parts.forms, ui.parts.log, ui.parts.chat));
    main.replaceChildren(ui.root, chatToggle());
    ui.logKey = null;
    table.formsKey = null;
  }
  // A draft, and the forms being filled in, survive updates that do not change what this seat may do.
  const p = table.prompt;
  const key = JSON.stringify([table.status, p && p.actions, p && p.free, p && p.window, !!table.windowEnds, table.seat, !!table.board]);
  if (key !== table.formsKey) {
    table.formsKey = key;
    table.forms = [promptPanel(), freePanel()];
    ui.parts.forms.replaceChildren(...table.forms.filter(Boolean));
  }
  offerProposals();
  // A draft lasts while its kind of action is offered unchanged; a picked value no longer legal is dropped.
  const drafted = table.draft.type ? offeredFamily(table.draft.type) : null;
  // (a proposal outside the engine is kept while its kind is offered: its steppers clamp to the new limits)
  if (!table.sending && table.draft.type && drafted && isProposal(table.draft.type)) table.draft.family = JSON.stringify(drafted);
  if (!table.sending && table.draft.type && (!drafted || JSON.stringify(drafted) !== table.draft.family)) table.draft = table.draft.deal ? takeStash() : emptyDraft();
  saveDraft();
  const ctx = boardContext();
  place(ui.parts.status, statusBar(ctx));
  place(ui.parts.offers, offersPanel(ctx));
  place(ui.parts.players, playerPanels(ctx));
  place(ui.parts.end, table.final ? endScreen(table.final, names(), revealed(ctx),
    board().scoreSheet ? (final) => board().scoreSheet(final, ctx) : null) : h("div"));
  place(ui.parts.board, board().render ? board().render(table.view, ctx) : genericBoard(table.view));
  place(ui.parts.secret, table.seat === null || !table.view.you || table.final ? h("div")
    : secretRenderer(ctx)(table.view.you, table.seat, table.view));
  renderLog();
  if (!ui.parts.chat.firstChild) ui.parts.chat.replaceChildren(chat());
  else if (ui.parts.chat.firstChild !== chat()) ui.parts.chat.replaceChildren(chat());
  renderError();
  renderChat();
  playMoments(ctx);
  focusAsk();
  bringAskedIntoView();
}

function formsShown() {
  return localStorage.getItem(formsKey) === "on";
}

/** The switch that shows every action as a form as well (for a screen reader, or when the board
 * cannot show a choice); the choice is remembered by this browser. */
function formsSwitch() {
  const box = h("input", { type: "checkbox", "data-testid": "forms-switch", checked: formsShown(), onchange: (e) => {
    localStorage.setItem(formsKey, e.target.checked ? "on" : "off");
    ui.parts.forms.hidden = !e.target.checked;
  } });
  return h("label", { class: "forms-switch" }, box, "Show every action as a form");
}

const narrow = window.matchMedia("(max-width: 760px)");

/** On a phone, a new decision brings what it asks for (the first thing to click on the board, or
 * else the status bar's buttons) to the middle of the screen, once, and highlights it; the part
 * of the page that holds it comes right after the status bar. */
function bringAskedIntoView() {
  const p = table.prompt;
  const mine = p && p.actions.length > 0 && table.seat !== null && table.status === "playing";
  const key = mine ? JSON.stringify([p.actions, p.window]) : null;
  for (const part of [ui.parts.board, ui.parts.secret]) part.classList.toggle("asks", false);
  if (!mine) { ui.askedKey = null; return; }
  const target = ui.parts.board.querySelector("[data-choice]") || ui.parts.secret.querySelector("[data-choice]");
  if (target) (ui.parts.board.contains(target) ? ui.parts.board : ui.parts.secret).classList.add("asks");
  if (key === ui.askedKey || !narrow.matches) return;
  if (!target && !table.board) return; // the board is still loading: its choices come with it
  ui.askedKey = key;
  const at = document.activeElement;
  if (at && at.matches("input, textarea, select") && !ui.parts.status.contains(at)) return; // typing (chat): the page stays
  const shown = target || ui.parts.status.querySelector("[data-testid=decision]");
  if (!shown) return;
  shown.scrollIntoView({ block: "center" });
  Kit.moment([shown], 600);
  shown.classList.add("asked");
  setTimeout(() => shown.classList.remove("asked"), 2500);
}

/** A question before a move that cannot be taken back takes the keyboard's focus once. */
function focusAsk() {
  const ask = ui.parts.status.querySelector("[data-ask] [data-testid=confirm]");
  const key = ask ? table.draft.type : null;
  if (ask && ui.asked !== key) ask.focus();
  ui.asked = key;
}

document.addEventListener("keydown", (e) => {
  if (e.key !== "Escape" || !table.draft.type || table.sending) return;
  if (!ui.parts.status || !ui.parts.status.querySelector("[data-testid=decision][data-draft]")) return;
  const at = document.activeElement;
  if (at && at !== document.body && !ui.parts.status.contains(at) && !ui.parts.board.contains(at)) return; // typing elsewhere (chat)
  table.draft = emptyDraft();
  render();
});

/** Put `fresh` into `container`, patching what is there rather than replacing it. */
function place(container, fresh) {
  if (container.childNodes.length === 1 && fresh) Kit.patch(container.firstChild, fresh);
  else container.replaceChildren(...(fresh ? [fresh] : []));
}

/** How a seat's secrets are shown: the board's own panel, or every field of `you`. */
function secretRenderer(ctx) {
  return (you, seat, view) => {
    const own = board().secret ? board().secret(you, { ...ctx, seat, view: view || ctx.view, mine: seat === table.seat }) : null;
    return own || secretPanel(you, seat === table.seat ? null : `${names()[seat]}'s secrets`);
  };
}

/** A seat's secrets on the end screen: told of them by name, as to everyone ("Marat's secrets"). */
function revealed(ctx) {
  return (you, seat, view) => (board().secret ? board().secret(you, { ...ctx, seat, view: view || ctx.view, mine: false }) : null);
}

/** The status bar: one sentence with names saying what happens and who is expected, and the
 * buttons of this seat's decision, so that on a phone the decision is on the first screen. */
function statusBar(ctx) {
  const n = names();
  const leave = table.seat !== null && table.bots_take_over && table.seats[table.seat]?.kind === "human" && table.status !== "over"
    ? h("button", { class: "small", onclick: () => { if (confirm("Leave the table? A bot takes over your seat.")) send({ type: "leave" }); } }, "Leave (a bot takes over)") : null;
  const mine = table.prompt && (table.prompt.actions.length > 0 || (table.draft.type && offeredFamily(table.draft.type)));
  const motion = h("input", { type: "checkbox", "data-testid": "motion", checked: Kit.motion(), onchange: (e) => Kit.setMotion(e.target.checked) });
  return h("section", { class: "status", "data-testid": "status", "data-busy": table.sending ? "" : null },
    h("h1", {}, table.title || table.game),
    h("p", { class: `sentence ${mine ? "yours" : ""}`, "data-testid": "status-sentence" }, statusSentence(ctx)),
    ui.moment && !table.final ? h("p", { class: "moment-line", "data-testid": "moment", role: "status" }, ui.moment) : null,
    table.sending ? h("p", { class: "muted", "data-testid": "sending" }, "Sending…") : mine ? decisionBar(ctx) : null,
    h("p", { class: "error", id: "status-error", role: "alert" }),
    h("div", { class: "status-tools" },
      h("span", {}, table.seat === null ? "You are watching (public view)." : ["You are ", Kit.who(table.seat, n[table.seat]), "."]),
      h("span", { class: "muted" }, `Table ${table.status}.`), h("span", { id: "connection", class: "muted" }, "connected"),
      h("label", {}, motion, "movement"),
      table.notice ? h("span", { class: "notice" }, table.notice) : null, leave),
    table.status === "over" ? h("p", {}, h("a", { href: `/replay/${encodeURIComponent(tableId)}` }, "Watch the replay"), " · ",
      h("a", { href: `/api/tables/${encodeURIComponent(tableId)}/record`, download: "" }, "Download the record (JSON)")) : null);
}

function joinNames(list) {
  return list.length <= 1 ? list.join("") : `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`;
}

/** The sentence: the board's own words if it has them, else who is expected. */
function statusSentence(ctx) {
  const own = board().status ? board().status(table.view, ctx) : null;
  if (own) return own;
  const n = names();
  if (table.status === "waiting") return "Waiting for every seat to be taken…";
  if (table.final) return `The game is over: ${joinNames(table.final.result.winners.map((s) => n[s]))} ${table.final.result.winners.length > 1 ? "share the win" : "wins"}.`;
  const pending = table.view.pending || [];
  const mine = pending.find((p) => p.seat === table.seat);
  const others = pending.filter((p) => p.seat !== table.seat).map((p) => n[p.seat]);
  if (mine) {
    const helps = (table.prompt ? table.prompt.actions : []).map((f) => (f.help || label(f.type)).replace(/^Step \d+: /, "").toLowerCase());
    return `${mine.secret ? "Your secret choice: " : "You must "}${joinNames([...new Set(helps)]).replace(/ and ([^,]*)$/, " or $1")}.`;
  }
  return others.length ? `Waiting for ${joinNames(others)}.` : "";
}

/** A parameter's value in words: the domain's label, the board's words, or the value itself. */
function valueText(family, param, value) {
  const domain = draftDomain(family, param) || {};
  if (domain.kind === "choice" && domain.labels) {
    const i = domain.options.findIndex((o) => same(o, value));
    if (i >= 0) return domain.labels[i];
  }
  return optionText(value, param.name);
}

/** The board's words for a kind of action ("Cake vote"), or the kind's own. */
function actionTitle(type, ctx) {
  return board().actionLabel ? board().actionLabel(type, ctx) || label(type) : label(type);
}

function paramTitle(type, param, ctx) {
  return board().paramLabel ? board().paramLabel(type, param, ctx) || label(param) : label(param);
}

/** What the draft still lacks, in sentences ([] when it is complete): each parameter's own need,
 * then the board's (`complete(kind, values, ctx)`: a sentence while the move is incomplete). */
function draftProblems(family, ctx) {
  const draft = table.draft;
  const onBoard = board().choices ? board().choices(table.prompt, table.view, ctx) || {} : {};
  const problems = [];
  for (const param of family.params) {
    const domain = draftDomain(family, param);
    const value = draft.values[param.name];
    const name = paramTitle(family.type, param.name, ctx);
    const drawn = (onBoard[family.type] || []).includes(param.name);
    if (!domain) { if (!param.optional) problems.push(`Choose what comes before the ${name} first.`); continue; }
    if (param.optional || domain.kind === "amount") continue;
    if (domain.kind === "subset") {
      const n = (value || []).length;
      if (n < domain.min_size || n > domain.max_size) problems.push(`Pick ${domain.min_size === domain.max_size ? domain.min_size : `${domain.min_size} to ${domain.max_size}`} for the ${name}.`);
    } else if (value === undefined || (domain.kind === "text" && !String(value).trim())) {
      const verb = domain.kind === "choice" ? "Choose" : "Build";
      problems.push(domain.kind === "text" ? `Write the ${name}.` : drawn ? `${verb} the ${name} on the board.` : `Choose the ${name}.`);
    }
  }
  const own = problems.length || !board().complete ? null : board().complete(family.type, { ...draft.values }, ctx);
  if (own) problems.push(own);
  return problems;
}

/** Confirm: enabled only when the move is complete; otherwise greyed, and it says why. */
function confirmState(button, why, problems, asked) {
  const ready = problems.length === 0;
  button.disabled = !ready;
  button.setAttribute("aria-disabled", ready ? "false" : "true");
  button.title = ready ? (asked ? "Yes: send it now" : "Send this decision") : `Not yet: ${problems.join(" ")}`;
  why.textContent = ready ? "" : problems.join(" ");
}

/** The decision in the status bar: a button per kind of action, then the draft's summary,
 * its missing parts (steppers, choices the board does not draw), Confirm and Cancel. A move that
 * cannot be taken back (the board's `irreversible(kind, ctx)` says why) asks once before it is sent. */
function decisionBar(ctx) {
  const prompt = table.prompt;
  const draft = table.draft;
  const onBoard = board().choices ? board().choices(prompt, table.view, ctx) || {} : {};
  const family = draft.type ? offeredFamily(draft.type) : null;
  const irreversible = (type) => (board().irreversible ? board().irreversible(type, ctx) || null : null);
  if (!family) {
    if (!prompt.actions.length) return null;
    return h("div", { class: "decision", "data-testid": "decision" }, prompt.actions.map((f) => {
      const title = actionTitle(f.type, ctx);
      if (f.params.length === 0 && !irreversible(f.type)) {
        return h("button", { type: "button", class: f.type === "pass" ? "pass" : "", "data-action": f.type, title: f.help || "",
          onclick: () => { sendAction({ type: f.type }); render(); } }, title);
      }
      const asks = f.params.length === 0;
      return h("button", { type: "button", class: asks && f.type === "pass" ? "pass" : "secondary", "data-action": f.type, title: f.help || "",
        "aria-haspopup": asks ? "dialog" : null, onclick: () => startDraft(f.type) }, asks ? title : `${title}…`);
    }));
  }
  const rows = [];
  const parts = [];
  let formOnly = false;
  const why = h("span", { class: "why", "data-testid": "confirm-why", "aria-live": "polite" });
  const warning = family.params.length === 0 ? irreversible(family.type) : null;
  const confirmButton = h("button", { type: "button", "data-testid": "confirm", onclick: () => {
    if (draftProblems(family, boardContext()).length) return;
    if (isProposal(family.type)) sendProposal(family, draft, textOf(board().summary ? board().summary(family.type, { ...draft.values }, boardContext()) : null));
    else sendAction({ type: family.type, ...draft.values }, draft.also || null);
    render();
  } }, warning ? `Yes, ${actionTitle(family.type, ctx).toLowerCase()}` : "Confirm");
  // the bar on the page may be an earlier one patched to look like this one: change what is shown
  const refreshConfirm = () => {
    const shown = document.querySelector("[data-testid=confirm]");
    const said = document.querySelector("[data-testid=confirm-why]");
    if (shown && said) confirmState(shown, said, draftProblems(family, boardContext()), !!warning);
    saveDraft();
  };
  for (const param of family.params) {
    const domain = draftDomain(family, param);
    const value = draft.values[param.name];
    const name = paramTitle(family.type, param.name, ctx);
    if (!domain) { rows.push(h("span", { class: "muted" }, `${name}: choose the parts above first`)); continue; }
    if (domain.kind === "amount") {
      const asksAgain = family.params.slice(family.params.indexOf(param) + 1).some((q) => q.depends);
      rows.push(Kit.stepper({ value: value ?? domain.low, min: domain.low, max: domain.high, label: name, name: param.name,
        // a later parameter's range follows this amount (a bribe's cover follows its reward): ask it again
        onChange: (v) => { if (asksAgain) { pick(family.type, param.name, v); return; } draft.values[param.name] = v; refreshSummary(); refreshConfirm(); } }));
      if (value !== undefined) parts.push(`${name} ${value}`);
      continue;
    }
    if (domain.kind === "text") {
      rows.push(h("label", {}, `${name}${param.optional ? " (optional)" : ""} `, h("input", { type: "text", name: param.name, maxlength: domain.max_length,
        value: value ?? "", oninput: (e) => { const t = e.target.value.trim(); if (t) draft.values[param.name] = t; else delete draft.values[param.name]; refreshConfirm(); } })));
      continue;
    }
    if (domain.kind === "choice") {
      if (value !== undefined) parts.push(`${name}: ${valueText(family, param, value)}`);
      const drawn = (onBoard[family.type] || []).includes(param.name);
      if (drawn && value === undefined) rows.push(h("span", { class: "hint" }, `Choose the ${name} on the board.`));
      else if (!drawn) {
        rows.push(h("div", { class: "option-row" }, `${name}: `, domain.options.map((option) => h("button", { type: "button", class: "secondary",
          "aria-pressed": same(option, value) ? "true" : "false", onclick: () => pick(family.type, param.name, option) }, valueText(family, param, option)))));
      }
      continue;
    }
    if (domain.kind === "subset") {
      const chosen = value || [];
      parts.push(`${name}: ${chosen.length ? chosen.map((o) => optionText(o, param.name)).join(", ") : "none"}`);
      const toggle = (option) => {
        const now = draft.values[param.name] || [];
        const next = now.some((o) => same(o, option)) ? now.filter((o) => !same(o, option)) : [...now, option];
        pick(family.type, param.name, next);
      };
      rows.push(h("div", { class: "option-row" }, `${name} (${domain.min_size}–${domain.max_size}): `, domain.options.map((option) => h("button", { type: "button", class: "secondary",
        "aria-pressed": chosen.some((o) => same(o, option)) ? "true" : "false", onclick: () => toggle(option) }, optionText(option, param.name)))));
      if (value === undefined && domain.min_size === 0) draft.values[param.name] = [];
      continue;
    }
    if ((onBoard[family.type] || []).includes(param.name)) {  // a parameter of the game's own kind, built on the board
      if (value === undefined) rows.push(h("span", { class: "hint" }, `Build the ${name} on the board.`));
      continue;
    }
    rows.push(h("span", { class: "muted" }, `${name}: use its form (tick “Show every action as a form”).`));
    formOnly = true;
  }
  const problems = draftProblems(family, ctx);
  if (formOnly) problems.push("Use the form for this one: tick “Show every action as a form”.");
  confirmState(confirmButton, why, problems, !!warning);
  const summary = (board().summary ? board().summary(family.type, { ...draft.values }, ctx) : null) || warning;
  const title = actionTitle(family.type, ctx);
  function refreshSummary() {
    const el = document.querySelector("[data-testid=summary]");
    const again = board().summary ? board().summary(family.type, { ...draft.values }, boardContext()) : null;
    if (el && again) el.replaceChildren(again);
  }
  const cancel = () => { table.draft = draft.deal ? takeStash() : emptyDraft(); render(); };
  return h("div", { class: `decision${warning ? " ask" : ""}`, "data-testid": "decision", "data-draft": family.type, "data-ask": warning ? "" : null,
    role: warning ? "alertdialog" : null, "aria-label": warning ? title : null },
  h("p", { class: "summary", "data-testid": "summary" }, summary || `${title}${parts.length ? ": " + parts.join(", ") : ""}`),
  warning && summary !== warning ? h("p", { class: "warning", "data-testid": "ask-warning" }, warning) : null,
  draft.error ? h("p", { class: "error draft-error", "data-testid": "draft-error", role: "alert" }, `Not accepted: ${draft.error}`) : null,
  rows,
  confirmButton,
  h("button", { type: "button", class: "secondary", "data-testid": "cancel", onclick: cancel }, warning ? "Go back" : "Cancel"),
  why);
}

/** One panel per player: name in their colour beside their mark, the board's counters, and who is expected. */
function playerPanels(ctx) {
  const n = names();
  const pending = table.view.pending || [];
  const secret = pending.some((p) => p.secret);
  const waiting = new Set(pending.map((p) => p.seat));
  return h("section", { class: "panels" }, h("ul", { class: "seats", "data-testid": "players" }, table.seats.map((s, i) => h("li", {
    class: `${waiting.has(i) ? "to-act" : ""} ${i === table.seat ? "me" : ""}`, "data-seat": i,
    title: waiting.has(i) ? `${n[i]} is expected` : "" },
  Kit.who(i, n[i]), s.kind === "bot" ? " (bot)" : "", s.kind === "open" ? " (open seat)" : "",
  s.kind === "open" && table.seat === null && !table.token && table.openToAll && table.status === "waiting"
    ? h("button", { type: "button", class: "small", "data-testid": "take-open-seat", onclick: () => askName(i) }, "Take this seat") : null,
  board().playerStats ? h("span", { class: "muted" }, board().playerStats(i, table.view, ctx) || "") : null,
  secretMark(i, secret, waiting, ctx), panelActions(i, ctx)))));
}

/** On another player's panel: the deals this seat may start with them, and the chat with them. */
function panelActions(seat, ctx) {
  if (table.seat === null || seat === table.seat || table.final) return null;
  const playing = table.status === "playing";
  // a bot answers no proposal the engine does not keep: those are offered to people only
  const person = table.seats[seat] && table.seats[seat].kind !== "bot";
  const starters = playing && board().dealStarters ? (board().dealStarters(seat, ctx) || [])
    .filter((s) => offeredFamily(s.type) && (person || !isProposal(s.type))) : [];
  const unread = unreadIn(String(seat));
  return h("span", { class: "panel-actions" },
    starters.map((s) => h("button", { type: "button", class: "small secondary", "data-testid": `deal-${s.type}`, title: (offeredFamily(s.type) || {}).help || "",
      onclick: () => startDeal(s.type, s.values || {}, s.also || null) }, s.label)),
    h("button", { type: "button", class: "small secondary chat-with", "data-testid": "chat-with", "aria-label": `Chat with ${names()[seat]}${unread ? `, ${unread} unread` : ""}`,
      onclick: () => openConversation(String(seat)) }, "Chat", unread ? h("span", { class: "unread", "data-testid": "unread" }, String(unread)) : null));
}

/** The families a board proposes outside the engine (trades, counter-offers), while this seat plays. */
function offerProposals() {
  const playing = table.status === "playing" && table.seat !== null && table.prompt;
  table.proposalFamilies = [];
  if (playing && board().proposalFamilies) table.proposalFamilies = board().proposalFamilies(boardContext()) || [];
}

/** The offers and deals the board shows as cards under the status bar: Accept, Decline, Counter… */
function offersPanel(ctx) {
  const cards = table.seat !== null && !table.final && board().offers ? board().offers(ctx) || [] : [];
  if (!cards.length) return h("div");
  const n = names();
  const awaiting = cards.filter((c) => c.awaiting).length;
  const slug = (text) => String(text).toLowerCase().replace(/[^a-z]+/g, "-").replace(/^-|-$/g, "");
  return h("section", { class: "offers", "data-testid": "offers", "aria-label": "Offers and deals" },
    h("h2", {}, "Offers and deals", awaiting ? h("span", { class: "unread", "data-testid": "offers-awaiting" }, `${awaiting} to answer`) : null),
    h("ul", {}, cards.map((c) => h("li", { class: `offer${c.awaiting ? " awaiting" : ""}`, "data-testid": "offer", "data-key": c.key },
      c.from !== null && c.from !== undefined && c.from !== table.seat ? h("span", { class: "offer-from" }, Kit.who(c.from, n[c.from])) : null,
      h("p", { class: "offer-sentence" }, c.sentence),
      c.status ? h("p", { class: "offer-status muted", "data-testid": "offer-status" }, c.status) : null,
      (c.buttons || []).length ? h("div", { class: "offer-buttons" }, c.buttons.map((b) => h("button", { type: "button",
        class: /^(decline|withdraw|no\b|counter)/i.test(b.label) ? "secondary" : "",
        "data-testid": b.testid || `offer-${slug(b.label)}`, disabled: table.sending ? true : null,
        onclick: () => pressCard(b) }, b.label))) : null))));
}

/** A card's button: answer a proposal, send an action, open a builder filled in (or all three). */
function pressCard(button) {
  if (table.sending) return;
  if (button.answer) {
    const asked = proposals().find((p) => p.number === button.answer.proposal);
    if (asked) {
      send({ type: "chat", to: asked.from, text: button.answer.accepted ? "I accept your proposal." : "I decline your proposal.",
        terms: { answer: asked.number, accepted: !!button.answer.accepted } });
    }
  }
  if (button.act) sendAction(button.act, button.also && !button.draft ? button.also : null);
  if (button.draft) startDeal(button.draft.type, button.draft.values || {}, button.also || button.draft.also || null);
  else render();
}

/** Beside a player in a secret move: choosing, has chosen, or (the board says) takes no part in it. */
function secretMark(seat, secret, waiting, ctx) {
  const out = secret && !waiting.has(seat) && board().sitsOut ? board().sitsOut(seat, table.view, ctx) : null;
  if (out) return h("span", { class: "chosen sits-out", "data-testid": "sits-out" }, ` · ${out}`);
  if (secret) return h("span", { class: "chosen" }, waiting.has(seat) ? " · choosing…" : " · has chosen ✓");
  return waiting.has(seat) ? " · to act" : "";
}

/** The log: one sentence per event, the raw data behind each line's toggle; new lines are appended. */
function renderLog() {
  const key = JSON.stringify([!!table.board, table.seat, names()]);
  if (key !== ui.logKey) {
    ui.logKey = key;
    ui.logCount = 0;
    ui.logList = h("ol", { class: "log", "data-testid": "log" });
    ui.parts.log.replaceChildren(h("section", {}, h("h2", {}, "Log ", h("span", { class: "muted raw-toggle" }, "(tap a line for its data)")), ui.logList));
  }
  const n = names();
  const fresh = table.events.slice(Math.max(ui.logCount, table.events.length - 200));
  for (const e of fresh) {
    const text = (board().describeEvent && board().describeEvent(e, { names: n, seat: table.seat, view: table.view, kit: Kit })) || describeEvent(e, n);
    const { to, ...data } = e;
    ui.logList.appendChild(h("li", { class: to ? "private" : "" }, h("details", {},
      h("summary", {}, to ? "(private) " : "", text), h("code", {}, JSON.stringify(data)))));
  }
  ui.logCount = table.events.length;
  while (ui.logList.childElementCount > 200) ui.logList.firstChild.remove();
  if (fresh.length) ui.logList.scrollTop = ui.logList.scrollHeight;
}

/** Reveals play as moments, one after another: the board says which of its elements an event
 * concerns, a sentence, and what moves. A long burst keeps its first two moments, its last two and
 * every headline (a moment the board marks `keep`: a reveal, a verdict, a round's score). The
 * sentence in the bar always ends on the latest event the board has words for: moments of an
 * earlier update still waiting are dropped, since the table has moved past them, except its
 * headlines, which nobody should miss because the bots answered quickly. */
const MOMENT_HEADLINES_KEPT = 4;

function playMoments(ctx) {
  const events = table.events.slice(ui.shownEvents);
  const first = ui.shownEvents === 0;
  ui.shownEvents = table.events.length;
  if (first || !board().moment || events.length === 0) return; // the welcome's history is not replayed
  // a long burst keeps its first two moments (the reveal that starts it) and its last two
  let queued = events.map((e) => board().moment(e, ctx)).filter(Boolean);
  if (queued.length > 4) queued = queued.filter((m, i) => i < 2 || i >= queued.length - 2 || m.keep);
  queued = [...(ui.moments || []).filter((m) => m.keep).slice(-MOMENT_HEADLINES_KEPT), ...queued];
  const latest = latestSentence(events, ctx);
  const last = queued.filter((m) => m.say).pop();
  if (latest && (!last || last.say !== latest)) queued.push({ say: latest });
  ui.moments = queued;
  if (!ui.momentPlaying) nextMoment();
}

/** The board's sentence for the latest of `events` it words (null if it words none of them). */
function latestSentence(events, ctx) {
  if (!board().describeEvent) return null;
  for (const e of [...events].reverse()) {
    const text = board().describeEvent(e, { ...ctx, names: names(), seat: table.seat, view: table.view, kit: Kit });
    if (text) return text;
  }
  return null;
}

function nextMoment() {
  const m = (ui.moments || []).shift();
  ui.momentPlaying = !!m;
  if (!m) return;
  const nodes = m.select ? [...ui.parts.board.querySelectorAll(m.select)] : [];
  Kit.moment(nodes, m.ms || 500);
  for (const [from, to] of m.fly || []) Kit.fly(ui.parts.board.querySelector(from), ui.parts.board.querySelector(to), { ms: m.ms || 500 });
  if (m.shake) Kit.move(ui.parts.board.querySelector(m.shake), { dx: 0, dy: -14, ms: 400 });
  if (m.say) {
    ui.moment = m.say;
    const line = ui.parts.status.querySelector("[data-testid=moment]");
    if (line) line.textContent = m.say;
    else place(ui.parts.status, statusBar(boardContext()));
    clearTimeout(ui.momentTimer);
    ui.momentTimer = setTimeout(() => { ui.moment = ""; place(ui.parts.status, statusBar(boardContext())); }, 6000);
  }
  // a sentence alone (no piece to watch) follows at once; the last one stays
  setTimeout(nextMoment, !m.select && !m.fly && !m.shake ? 0 : Kit.motion() ? 700 : 300);
}

function promptPanel() {
  const prompt = table.prompt;
  if (!prompt || prompt.actions.length === 0) {
    if (table.status === "waiting") return h("section", { class: "prompt" }, h("p", {}, "Waiting for every seat to be taken…"));
    return table.seat === null || table.status === "over" ? null : h("section", { class: "prompt" }, h("p", { class: "muted" }, "Nothing to decide right now."));
  }
  return h("section", { class: "prompt", "data-testid": "prompt" },
    h("h2", {}, prompt.secret ? "Your secret choice" : prompt.window ? `Response window: ${label(prompt.window)}` : "Your move"),
    prompt.secret ? h("p", { class: "muted" }, "Others see only that you have chosen, not what.") : null,
    table.windowEnds ? h("p", { class: "countdown", id: "countdown" }, "") : null,
    prompt.actions.map((family) => actionForm(family)),
    h("p", { class: "error", id: "error", role: "alert" }));
}

function freePanel() {
  const prompt = table.prompt;
  if (!prompt || prompt.free.length === 0) return null;
  return h("section", { class: "free" }, h("h2", {}, "Any time"), prompt.free.map((family) => actionForm(family)));
}

function logPanel() {
  const n = names();
  const items = table.events.slice(-200).map((e) => {
    const text = table.board && table.board.describeEvent ? table.board.describeEvent(e, { names: n, seat: table.seat, view: table.view }) : describeEvent(e, n);
    return h("li", { class: e.to ? "private" : "" }, e.to ? "(private) " : "", text);
  });
  const list = h("ol", { class: "log", "data-testid": "log" }, items);
  setTimeout(() => { list.scrollTop = list.scrollHeight; });
  return h("section", {}, h("h2", {}, "Log"), list);
}

// -- chat: a conversation with everyone and one with each player, unread counts, a drawer on a phone
const readKey = `tricolore:read:${tableId}`;

/** The conversation a message belongs to, for this seat: "all", or the other player's seat. */
function conversationOf(message) {
  if (message.to === null || message.to === undefined) return "all";
  return String(message.from === table.seat ? message.to : message.from);
}

function readMarks() {
  try { return JSON.parse(localStorage.getItem(`${readKey}:${table.seat}`) || "{}"); } catch { return {}; }
}

/** Messages from others in a conversation that this seat has not seen there yet. */
function unreadIn(conversation) {
  if (table.seat === null) return 0;
  const seen = readMarks()[conversation] || 0;
  return table.chat.filter((m) => m.from !== table.seat && m.number > seen && conversationOf(m) === conversation).length;
}

function unreadTotal() {
  return ["all", ...names().map((_, i) => String(i))].reduce((n, c) => n + unreadIn(c), 0);
}

/** Whether the chat can be read now: always beside the table on a desktop, in its drawer on a phone. */
function chatInView() {
  return !narrow.matches || document.body.classList.contains("chat-open");
}

function markRead() {
  if (table.seat === null || !chatInView()) return;
  const conversation = table.conversation || "all";
  const last = table.chat.filter((m) => conversationOf(m) === conversation).reduce((n, m) => Math.max(n, m.number || 0), 0);
  const marks = readMarks();
  if ((marks[conversation] || 0) >= last) return;
  marks[conversation] = last;
  try { localStorage.setItem(`${readKey}:${table.seat}`, JSON.stringify(marks)); } catch { /* the counts then stay */ }
}

/** Open the conversation with a player (or "all"): on a phone the drawer opens with it. */
function openConversation(conversation) {
  table.conversation = conversation;
  if (narrow.matches) setDrawer(true);
  renderChat();
  const input = ui.parts.chat.querySelector("input[name=text]");
  if (input && !narrow.matches) input.focus({ preventScroll: false });
}

/** The phone's chat drawer: it covers the lower half at most, so the decision above stays in view. */
function setDrawer(open) {
  document.body.classList.toggle("chat-open", open);
  if (open && ui.parts.status) ui.parts.status.scrollIntoView({ block: "start" });
  renderChat();
}

/** The phone's button that opens the chat, with a badge of unread messages and offers to answer. */
function chatToggle() {
  return h("button", { type: "button", class: "chat-toggle", id: "chat-toggle", "data-testid": "chat-toggle", "aria-controls": "chat-drawer",
    onclick: () => setDrawer(!document.body.classList.contains("chat-open")) }, "Chat", h("span", { class: "unread", id: "chat-badge", hidden: true }));
}

function chat() {
  const key = JSON.stringify([names(), table.seat]);
  if (key !== table.chatKey) {
    table.chatKey = key;
    table.chatNode = chatPanel();
  }
  return table.chatNode;
}

function chatPanel() {
  if (table.seat === null) return h("section", {}, h("h2", {}, "Chat"), h("ol", { id: "chat", class: "chat" }));
  const text = h("input", { name: "text", maxlength: 500, placeholder: "say something", autocomplete: "off", "aria-label": "message" });
  const form = h("form", { class: "chat-form", onsubmit: (e) => {
    e.preventDefault();
    if (!text.value.trim()) return;
    const to = table.conversation && table.conversation !== "all" ? Number(table.conversation) : null;
    send({ type: "chat", text: text.value, to });
    text.value = "";
  } }, text, h("button", { type: "submit" }, "Send"));
  return h("section", { id: "chat-drawer", class: "chat-drawer" },
    h("div", { class: "chat-head" }, h("h2", {}, "Chat"),
      h("button", { type: "button", class: "small secondary drawer-close", "data-testid": "chat-close", onclick: () => setDrawer(false) }, "Close")),
    h("div", { class: "conversations", role: "tablist", id: "conversations", "aria-label": "Conversations" }),
    h("p", { class: "muted chat-to", id: "chat-to" }),
    h("ol", { id: "chat", class: "chat", "data-testid": "chat" }), form);
}

function renderChat() {
  const list = document.getElementById("chat");
  if (!list) return;
  const n = names();
  const conversation = table.seat === null ? "all" : table.conversation || "all";
  markRead();
  const tabs = document.getElementById("conversations");
  if (tabs) {
    const all = ["all", ...n.map((_, i) => String(i)).filter((i) => Number(i) !== table.seat)];
    tabs.replaceChildren(...all.map((c) => {
      const unread = unreadIn(c);
      return h("button", { type: "button", role: "tab", class: "conversation", "aria-selected": c === conversation ? "true" : "false",
        "data-testid": "conversation", "data-conversation": c, onclick: () => openConversation(c) },
      c === "all" ? "Everyone" : n[Number(c)], unread ? h("span", { class: "unread", "data-testid": "unread" }, String(unread)) : null);
    }));
  }
  const to = document.getElementById("chat-to");
  if (to) to.textContent = conversation === "all" ? "Everyone at the table reads this conversation." : `Only you and ${n[Number(conversation)]} read this conversation.`;
  const shown = table.chat.filter((m) => table.seat === null || conversationOf(m) === conversation);
  list.replaceChildren(...shown.map((m) => h("li", { class: m.to === null ? "" : "private" },
    h("b", {}, m.from === table.seat ? "You" : n[m.from] || "someone"), m.terms && m.terms.kind ? " (proposal)" : "", ": ", m.text)));
  list.scrollTop = list.scrollHeight;
  const badge = document.getElementById("chat-badge");
  if (badge) {
    const count = unreadTotal() + document.querySelectorAll("[data-testid=offer].awaiting").length;
    badge.hidden = count === 0;
    badge.textContent = String(count);
    badge.setAttribute("data-testid", "chat-badge");
  }
  for (const button of document.querySelectorAll("[data-testid=players] .chat-with")) {
    const seat = button.closest("[data-seat]").getAttribute("data-seat");
    const unread = unreadIn(seat);
    const mark = button.querySelector(".unread");
    if (unread && !mark) button.appendChild(h("span", { class: "unread", "data-testid": "unread" }, String(unread)));
    else if (mark && unread) mark.textContent = String(unread);
    else if (mark) mark.remove();
  }
}

function renderError() {
  for (const id of ["error", "status-error"]) {
    const el = document.getElementById(id);
    if (el) el.textContent = table.error;
  }
}

let resizeTimer = null;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => { if (ui.root) render(); }, 200);
});

setInterval(() => {
  tickClocks();
  const el = document.getElementById("countdown");
  if (!el || !table.windowEnds) return;
  const left = Math.max(0, Math.ceil((table.windowEnds - Date.now()) / 1000));
  const then = table.prompt && table.prompt.kinds.includes("pass") ? "you pass" : "a bot decides for you";
  el.textContent = `${left} s left to decide; if you do not, ${then}.`;
}, 250);

// -- forms for exactly the legal actions ---------------------------------------------------------
function actionForm(family) {
  const rows = family.params.map((param) => ({ param, row: h("div", { class: "param" }), read: null }));
  const message = h("p", { class: "error" });
  const button = h("button", { type: "submit", "data-testid": `act-${family.type}` }, label(family.type));
  const form = h("form", { class: "action", "data-kind": family.type, onsubmit: (e) => {
    e.preventDefault();
    const action = { type: family.type };
    for (const { param, read } of rows) {
      const value = read ? read() : { error: `choose ${label(param.name)} first` };
      if (value.omit) continue;
      if (value.error) { message.textContent = value.error; return; }
      action[param.name] = value.value;
    }
    message.textContent = "";
    send({ type: "action", id: newId(), action });
  } }, h("p", { class: "help" }, family.help || ""), rows.map((r) => r.row), button, message);

  async function fill(index) {
    for (let i = index; i < rows.length; i++) {
      const entry = rows[i];
      if (!entry.param.depends && entry.read) continue; // only later dependent fields follow a change
      let domain = entry.param.domain;
      if (entry.param.depends) {
        const chosen = {};
        let ready = true;
        for (const prior of rows.slice(0, i)) {
          const v = prior.read ? prior.read() : { error: "" };
          if (v.error) { ready = false; break; }
          if (!v.omit) chosen[prior.param.name] = v.value;
        }
        if (!ready) { entry.read = null; entry.row.replaceChildren(h("span", { class: "muted" }, `${label(entry.param.name)}: choose the fields above first`)); continue; }
        domain = await askDomain(family.type, entry.param.name, chosen);
        if (!domain) { entry.read = null; entry.row.replaceChildren(h("span", { class: "muted" }, `${label(entry.param.name)}: not available`)); continue; }
      }
      const widget = makeWidget(entry.param, domain, () => fill(i + 1));
      entry.read = widget.read;
      entry.row.replaceChildren(widget.element);
    }
  }
  fill(0);
  return form;
}

/** An input for one parameter; read() gives {value} or {error} (checked here, again on the server). */
function makeWidget(param, domain, changed) {
  const name = label(param.name);
  const optional = param.optional;
  switch (domain.kind) {
    case "choice": {
      const select = h("select", { name: param.name, onchange: changed },
        optional || domain.options.length > 1 ? h("option", { value: "" }, optional ? "(leave out)" : `choose ${name}…`) : null,
        domain.options.map((option, i) => h("option", { value: String(i) }, domain.labels ? domain.labels[i] : optionText(option, param.name))));
      return { element: h("label", {}, `${name} `, select), read: () => {
        if (select.value === "") return optional ? { omit: true } : { error: `choose ${name}` };
        return { value: domain.options[Number(select.value)] };
      } };
    }
    case "amount": {
      const input = h("input", { type: "number", name: param.name, min: domain.low, max: domain.high, step: 1, value: domain.low, oninput: changed });
      return { element: h("label", {}, `${name} (${domain.low}–${domain.high}) `, input), read: () => {
        if (input.value === "" && optional) return { omit: true };
        const n = Number(input.value);
        if (!Number.isInteger(n) || n < domain.low || n > domain.high) return { error: `${name} must be a whole number from ${domain.low} to ${domain.high}` };
        return { value: n };
      } };
    }
    case "text": {
      const input = h("input", { name: param.name, maxlength: domain.max_length, oninput: changed });
      return { element: h("label", {}, `${name} `, input), read: () => {
        const text = input.value.trim();
        if (!text) return optional ? { omit: true } : { error: `write ${name}` };
        if (text.length > domain.max_length) return { error: `${name} has at most ${domain.max_length} characters` };
        return { value: text };
      } };
    }
    case "subset": {
      const boxes = domain.options.map((option, i) => h("input", { type: "checkbox", value: String(i), onchange: changed }));
      return { element: h("fieldset", {}, h("legend", {}, `${name} (${domain.min_size}–${domain.max_size})`), boxes.map((box, i) => h("label", { class: "inline" }, box, optionText(domain.options[i], param.name)))), read: () => {
        const picked = boxes.filter((b) => b.checked).map((b) => domain.options[Number(b.value)]);
        if (picked.length < domain.min_size || picked.length > domain.max_size) return { error: `pick ${domain.min_size} to ${domain.max_size} for ${name}` };
        return { value: picked };
      } };
    }
    default: {
      const own = board().widget ? board().widget(param, domain, boardContext()) : null; // a domain of the game's own
      if (own) return own;
      const area = h("textarea", { name: param.name, rows: 2, placeholder: "JSON" });
      return { element: h("label", {}, `${name} (JSON) `, area), read: () => {
        try { return { value: JSON.parse(area.value) }; } catch { return { error: `${name} must be JSON` }; }
      } };
    }
  }
}

/** How a choice's option reads: the board's words for it (a deal by what it promises), if it has any. */
function optionText(option, param) {
  const own = table.board && table.board.optionText ? table.board.optionText(param, option, { names: names(), view: table.view }) : null;
  if (own) return own;
  if (option === null) return "nobody";
  if (option === true) return "yes";
  if (option === false) return "no";
  return typeof option === "object" ? JSON.stringify(option) : String(option);
}

start();
