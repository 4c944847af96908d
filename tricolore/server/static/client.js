// The table page: joins with the invite token, speaks protocol version 1 over a websocket, and
// renders the board, the prompt's forms, the log, chat and the end screen. See docs/protocol.md.
"use strict";

const PROTOCOL_VERSION = 1;
const tableId = decodeURIComponent(location.pathname.split("/").pop());
const tokenKey = `tricolore:token:${tableId}`;
const unsentKey = `tricolore:unsent:${tableId}`;
const creatorKey = `tricolore:creator:${tableId}`;
const soundKey = "tricolore:sound";

const table = {
  token: null, seat: null, game: null, title: "", view: {}, events: [], chat: [], prompt: null,
  seats: [], status: "", final: null, board: null, socket: null, windowEnds: null,
  bots_take_over: false, error: "", notice: "", forms: [], formsKey: null,
  clocks: [], myTurn: false, invites: null, lifeNotice: "",
};

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
  return table.seats.map((s) => s.name || "an open seat");
}

// -- joining ------------------------------------------------------------------------------------
async function start() {
  const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
  if (invite) {
    localStorage.setItem(tokenKey, invite);
    history.replaceState(null, "", location.pathname); // the invite leaves the address bar
  }
  table.token = localStorage.getItem(tokenKey);
  if (!table.token) return connect();
  const info = await (await fetch(`/api/tables/${encodeURIComponent(tableId)}`)).json();
  if (invite && info.status === "waiting") return askName();
  await join("");
}

function askName() {
  const input = h("input", { name: "name", maxlength: 40, placeholder: "your name", required: true, autofocus: true });
  const form = h("form", { class: "card", "data-testid": "join-form", onsubmit: async (e) => { e.preventDefault(); await join(input.value); } },
    h("h2", {}, "Take your seat"), h("label", {}, "Name ", input), h("button", { type: "submit" }, "Join the table"));
  document.getElementById("main").replaceChildren(form);
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
  switch (message.type) {
    case "welcome":
      setConnection(true);
      Object.assign(table, { seat: message.seat, game: message.game, title: message.title, view: message.view, events: message.events, chat: message.chat, bots_take_over: message.bots_take_over });
      update(message);
      for (const pending of unsent()) table.socket.send(JSON.stringify(pending)); // applied once
      Tricolore.loadBoard(message.game).then((board) => { table.board = board; render(); });
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
      table.error = message.message;
      return renderError();
    case "chat":
      table.chat.push(message);
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
    onclick: () => { localStorage.setItem(soundKey, soundOn() ? "off" : "on"); renderTools(); } }, soundOn() ? "🔔 Sound on" : "🔕 Sound off");
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

// -- rendering ----------------------------------------------------------------------------------
function render() {
  const ctx = { names: names(), seat: table.seat, h, renderValue, label };
  const board = table.board ? table.board.render(table.view, ctx) : genericBoard(table.view);
  const you = table.seat === null ? null : secretPanel(table.view.you);
  // Forms being filled in survive updates that do not change what this seat may do.
  const p = table.prompt;
  const key = JSON.stringify([table.status, p && p.actions, p && p.free, p && p.window, !!table.windowEnds]);
  if (key !== table.formsKey) {
    table.formsKey = key;
    table.forms = [promptPanel(), freePanel()];
  }
  const main = h("div", { class: "layout" },
    h("div", { class: "column wide" },
      statusBar(), table.final ? endScreen(table.final, names()) : null,
      h("section", { class: "board-wrap", "data-testid": "board" }, board), you),
    h("div", { class: "column" }, table.forms, logPanel(), chat()));
  document.getElementById("main").replaceChildren(main);
  renderError();
  renderChat();
}

function statusBar() {
  const n = names();
  const pending = table.view.pending || [];
  const secret = pending.some((p) => p.secret);
  const waiting = new Set(pending.map((p) => p.seat));
  const seats = table.seats.map((s, i) => h("li", { class: `${waiting.has(i) ? "to-act" : ""} ${i === table.seat ? "me" : ""}`, "data-seat": i },
    `${n[i]}${s.kind === "bot" ? " (bot)" : ""}${s.kind === "open" ? " (open seat)" : ""}`,
    secret ? h("span", { class: "chosen" }, waiting.has(i) ? " · choosing…" : " · has chosen ✓") : waiting.has(i) ? " · to act" : ""));
  const leave = table.seat !== null && table.bots_take_over && table.seats[table.seat]?.kind === "human" && table.status !== "over"
    ? h("button", { class: "small", onclick: () => { if (confirm("Leave the table? A bot takes over your seat.")) send({ type: "leave" }); } }, "Leave (a bot takes over)") : null;
  return h("section", { class: "status" },
    h("h1", {}, table.title || table.game),
    h("p", {}, table.seat === null ? "You are watching (public view)." : `You are ${n[table.seat]}.`, " ",
      h("span", { class: "muted" }, `Table ${table.status}. `), h("span", { id: "connection", class: "muted" }, "connected"),
      table.notice ? h("span", { class: "notice" }, " " + table.notice) : null),
    h("ul", { class: "seats" }, seats), leave,
    table.status === "over" ? h("p", {}, h("a", { href: `/replay/${encodeURIComponent(tableId)}` }, "Watch the replay"), " · ",
      h("a", { href: `/api/tables/${encodeURIComponent(tableId)}/record`, download: "" }, "Download the record (JSON)")) : null);
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
  const to = h("select", { name: "to", "aria-label": "to" }, h("option", { value: "" }, "everyone"),
    table.seats.map((s, i) => (i === table.seat ? null : h("option", { value: i }, `only ${names()[i]}`))));
  const text = h("input", { name: "text", maxlength: 500, placeholder: "say something", autocomplete: "off" });
  const form = h("form", { class: "chat-form", onsubmit: (e) => {
    e.preventDefault();
    if (!text.value.trim()) return;
    send({ type: "chat", text: text.value, to: to.value === "" ? null : Number(to.value) });
    text.value = "";
  } }, to, text, h("button", { type: "submit" }, "Send"));
  return h("section", {}, h("h2", {}, "Chat"), h("ol", { id: "chat", class: "chat", "data-testid": "chat" }), form);
}

function renderChat() {
  const list = document.getElementById("chat");
  if (!list) return;
  const n = names();
  list.replaceChildren(...table.chat.map((m) => h("li", { class: m.to === null ? "" : "private" },
    h("b", {}, n[m.from] || "someone"), m.to === null ? "" : ` → ${n[m.to]} (private)`, ": ", m.text)));
  list.scrollTop = list.scrollHeight;
}

function renderError() {
  const el = document.getElementById("error");
  if (el) el.textContent = table.error;
}

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
    case "bid":
      return bidWidget(param, domain);
    default: {
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

/** Revolution!'s bid: one space per chip, each currency only where the chart allows it. */
function bidWidget(param, domain) {
  const selects = [];
  const groups = Object.entries(domain.chips).filter(([, count]) => count > 0).map(([currency, count]) => h("fieldset", {},
    h("legend", {}, `${count} ${currency}`),
    Array.from({ length: count }, (_, i) => {
      const select = h("select", { "data-currency": currency, "aria-label": `${currency} chip ${i + 1}` }, h("option", { value: "" }, "space…"),
        domain.spaces.map((space) => (space.forbidden.includes(currency) ? null : h("option", { value: space.name }, space.name))));
      selects.push(select);
      return select;
    })));
  return { element: h("div", { class: "bid" }, groups), read: () => {
    const placement = {};
    for (const select of selects) {
      if (!select.value) return { error: "place every chip on a space" };
      const currency = select.dataset.currency;
      placement[select.value] = placement[select.value] || {};
      placement[select.value][currency] = (placement[select.value][currency] || 0) + 1;
    }
    if (Object.keys(placement).length > domain.max_spaces) return { error: `bid on at most ${domain.max_spaces} spaces` };
    for (const space of domain.spaces) {
      const gold = placement[space.name] && placement[space.name].gold;
      if (space.max_gold !== null && gold > space.max_gold) return { error: `at most ${space.max_gold} gold on ${space.name}` };
    }
    return { value: placement };
  } };
}

start();
