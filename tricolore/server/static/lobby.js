// The lobby: create a table (game, players, seats, options, clock), show its invite links, list tables.
"use strict";

let games = [];
const byId = (id) => document.getElementById(id);

async function loadGames() {
  games = await (await fetch("/api/games")).json();
  byId("game").replaceChildren(...games.map((g) => h("option", { value: g.name }, `${g.title} (${g.min_players}–${g.max_players})`)));
  byId("game").onchange = chooseGame;
  byId("players").oninput = () => { fieldError("players", ""); drawSeats(); };
  for (const id of ["window_seconds", "clock_seconds"]) byId(id).oninput = () => checkNumber(byId(id), id);
  chooseGame();
}

function game() {
  return games.find((g) => g.name === byId("game").value);
}

function chooseGame() {
  const g = game();
  byId("summary").textContent = g.summary;
  const players = byId("players");
  players.min = g.min_players;
  players.max = g.max_players;
  players.value = Math.min(Math.max(Number(players.value) || 4, g.min_players), g.max_players);
  drawSeats();
  byId("options").replaceChildren(...g.option_schema.map((option) => optionControl(option)));
  clearErrors();
}

// -- errors next to what caused them ------------------------------------------------------------
/** Show (or, with "", clear) the sentence under the field ``name``. */
function fieldError(name, text) {
  const el = document.querySelector(`[data-error-for="${CSS.escape(name)}"]`);
  if (el) el.textContent = text;
  return !text;
}

function clearErrors() {
  for (const el of document.querySelectorAll("[data-error-for]")) el.textContent = "";
  byId("create-error").textContent = "";
}

/** A number field's own check, as the person types: bounds from its min and max. */
function checkNumber(input, name) {
  const shown = { clock_seconds: "the turn clock", window_seconds: "the response window timer", players: "the number of players" }[name] || label(name.replace(/^option:/, ""));
  const what = shown[0].toUpperCase() + shown.slice(1);
  if (input.value === "" && input.dataset.nullable === "true") return fieldError(name, "");
  const n = Number(input.value);
  const low = input.min === "" ? -Infinity : Number(input.min);
  const high = input.max === "" ? Infinity : Number(input.max);
  if (input.value === "" || !Number.isInteger(n)) return fieldError(name, `${what} must be a whole number.`);
  if (n < low || n > high) return fieldError(name, `${what} must be from ${input.min} to ${input.max}.`);
  return fieldError(name, "");
}

/** Where a refusal from the server belongs: the option, seat or field its sentence names. */
function placeError(detail) {
  const text = String(detail);
  const option = game().option_schema.find((o) => text.includes(o.name));
  if (option) return fieldError(`option:${option.name}`, text);
  if (/clock/i.test(text)) return fieldError("clock_seconds", text);
  if (/window|timer/i.test(text)) return fieldError("window_seconds", text);
  if (/seat/i.test(text)) return fieldError("seats", text);
  if (/players/i.test(text)) return fieldError("players", text);
  byId("create-error").textContent = text;
  return false;
}

// -- options, as controls built from the game's option schema ----------------------------------
function optionControl(option) {
  const name = `option:${option.name}`;
  const changed = () => fieldError(name, "");
  let input;
  if (option.kind === "bool") {
    input = h("input", { type: "checkbox", "data-option": option.name, checked: option.default, onchange: changed });
  } else if (option.kind === "choice") {
    input = h("select", { "data-option": option.name, onchange: changed }, option.choices.map((c) => h("option", { value: c, selected: c === option.default }, c)));
  } else if (option.kind === "int" || option.kind === "number") {
    input = h("input", { type: "number", "data-option": option.name, min: option.min, max: option.max, step: option.kind === "int" ? 1 : "any",
      value: option.default === null ? "" : option.default, placeholder: option.nullable ? "rulebook's way" : null,
      "data-nullable": option.nullable ? "true" : "false", oninput: () => checkNumber(input, name) });
  } else if (option.kind === "seat") {
    input = h("select", { "data-option": option.name, onchange: changed }, h("option", { value: "" }, "the rulebook's way (at random)"),
      Array.from({ length: playerCount() }, (_, i) => h("option", { value: String(i) }, `${ordinal(i)} player`)));
  } else if (option.kind === "list") {
    input = h("input", { "data-option": option.name, value: (option.default || []).join(", "), placeholder: "numbers, separated by commas", oninput: changed });
  } else {
    input = h("input", { "data-option": option.name, value: option.default === null ? "" : option.default, oninput: changed });
  }
  const bounds = option.kind === "seat" ? "" : option.min !== undefined ? ` (${option.min}–${option.max}${option.nullable ? ", or empty" : ""})` : option.nullable && option.kind !== "bool" ? " (or empty)" : "";
  return h("div", { class: "option" },
    h("label", { class: option.kind === "bool" ? "inline" : "" }, `${label(option.name)}${bounds} `, input),
    h("span", { class: "muted option-help" }, option.help),
    h("span", { class: "field-error", "data-error-for": name, role: "alert" }));
}

/** The options that differ from their defaults, or null (with errors shown) if one is not valid. */
function readOptions() {
  const options = {};
  let valid = true;
  for (const option of game().option_schema) {
    const input = byId("options").querySelector(`[data-option="${CSS.escape(option.name)}"]`);
    const name = `option:${option.name}`;
    let value;
    if (option.kind === "bool") value = input.checked;
    else if (option.kind === "choice") value = input.value;
    else if (option.kind === "seat") value = input.value === "" ? null : Number(input.value);
    else if (option.kind === "int" || option.kind === "number") {
      if (!checkNumber(input, name)) { valid = false; continue; }
      value = input.value === "" ? null : Number(input.value);
    } else if (option.kind === "list") {
      const parts = input.value.split(",").map((p) => p.trim()).filter((p) => p !== "");
      if (parts.some((p) => !/^-?\d+$/.test(p))) { valid = fieldError(name, `${label(option.name)[0].toUpperCase()}${label(option.name).slice(1)} must list whole numbers, separated by commas.`); continue; }
      value = parts.map(Number);
    } else value = input.value === "" && option.nullable ? null : input.value;
    if (JSON.stringify(value) !== JSON.stringify(option.default)) options[option.name] = value;
  }
  return valid ? options : null;
}

// -- seats ----------------------------------------------------------------------------------------
/** One select per seat; the choices made are kept when the player count or the game changes. */
function playerCount() {
  const g = game();
  return Math.min(Math.max(Number(byId("players").value) || g.min_players, g.min_players), g.max_players);
}

/** Options that name a seat offer the table's seats: redrawn when the player count changes. */
function drawSeatOptions() {
  for (const option of game().option_schema.filter((o) => o.kind === "seat")) {
    const select = byId("options").querySelector(`[data-option="${CSS.escape(option.name)}"]`);
    if (!select) continue;
    const kept = select.value;
    select.replaceChildren(h("option", { value: "" }, "the rulebook's way (at random)"),
      ...Array.from({ length: playerCount() }, (_, i) => h("option", { value: String(i) }, `${ordinal(i)} player`)));
    select.value = Number(kept) < playerCount() ? kept : "";
  }
}

/** Each seat: a select (open, or a bot's strategy) and, under it, the chosen strategy's parameters.
 * The choices made, parameters included, are kept when the player count or the game changes. */
function drawSeats() {
  const g = game();
  const n = playerCount();
  drawSeatOptions();
  const old = [...byId("seats").querySelectorAll("select[data-seat]")].map((s, i) => ({ strategy: s.value, values: parameterValues(i) }));
  byId("seats").replaceChildren(...Array.from({ length: n }, (_, i) => h("div", { class: "seat" },
    h("label", {}, `${ordinal(i)} player `,
      h("select", { name: `seat-${i}`, "data-seat": i, onchange: () => { fieldError("seats", ""); drawParameters(i); } }, h("option", { value: "open" }, "open (invite a person)"),
        g.strategies.map((s) => h("option", { value: s }, `bot: ${s}`)))),
    h("div", { class: "seat-parameters", "data-seat-parameters": i }))));
  const fallback = g.strategies[g.strategies.length > 1 ? 1 : 0];
  byId("seats").querySelectorAll("select[data-seat]").forEach((select, i) => {
    const kept = old[i] && old[i].strategy;
    if (kept === "open" || g.strategies.includes(kept)) select.value = kept;
    else if (kept) select.value = g.strategies.includes("random") ? "random" : fallback; // a bot stays a bot
    else select.value = i === 0 ? "open" : fallback;
    drawParameters(i, old[i] && old[i].strategy === select.value ? old[i].values : {});
  });
}

/** The parameters of the strategy chosen for seat ``i``, as controls: a number input (with its
 * bounds and default), a checkbox or a select; ``values`` gives those already chosen. */
function drawParameters(i, values = {}) {
  const strategy = byId("seats").querySelector(`select[data-seat="${i}"]`).value;
  const parameters = (game().strategy_parameters || {})[strategy] || [];
  byId("seats").querySelector(`[data-seat-parameters="${i}"]`).replaceChildren(...parameters.map((p) => {
    const value = p.key in values ? values[p.key] : p.default;
    const attrs = { "data-parameter": p.key, title: p.doc, onchange: () => fieldError("seats", "") };
    let input;
    if (p.kind === "bool") input = h("input", { ...attrs, type: "checkbox", checked: value === true });
    else if (p.kind === "str") input = h("select", attrs, p.choices.map((c) => h("option", { value: c, selected: c === value }, c)));
    else input = h("input", { ...attrs, type: "number", min: p.low, max: p.high, step: p.kind === "int" ? 1 : "any", value, oninput: () => fieldError("seats", "") });
    const bounds = p.kind === "int" || p.kind === "float" ? ` (${p.low}–${p.high})` : "";
    return h("div", { class: "option" },
      h("label", { class: p.kind === "bool" ? "inline" : "" }, `${p.key.replaceAll("_", " ")}${bounds} `, input),
      h("span", { class: "muted option-help" }, p.doc));
  }));
}

/** The values of seat ``i``'s parameter controls, by key. */
function parameterValues(i) {
  const values = {};
  const box = byId("seats").querySelector(`[data-seat-parameters="${i}"]`);
  for (const input of box ? box.querySelectorAll("[data-parameter]") : []) {
    values[input.dataset.parameter] = input.type === "checkbox" ? input.checked : input.type === "number" ? (input.value === "" ? "" : Number(input.value)) : input.value;
  }
  return values;
}

/** Seat ``i`` as the server takes it: ``open``, ``name``, or ``name:key=value,...`` with the
 * parameters that differ from their defaults; null (with the error shown) if one is not valid. */
function seatText(i) {
  const strategy = byId("seats").querySelector(`select[data-seat="${i}"]`).value;
  const values = parameterValues(i);
  const changed = [];
  for (const p of (game().strategy_parameters || {})[strategy] || []) {
    const value = values[p.key];
    if (p.kind === "int" || p.kind === "float") {
      const where = `The ${ordinal(i).toLowerCase()} player's ${strategy} ${p.key.replaceAll("_", " ")}`;
      if (value === "" || !Number.isFinite(value) || (p.kind === "int" && !Number.isInteger(value))) {
        fieldError("seats", `${where} must be ${p.kind === "int" ? "a whole number" : "a number"}.`);
        return null;
      }
      if (value < p.low || value > p.high) {
        fieldError("seats", `${where} must be from ${p.low} to ${p.high}.`);
        return null;
      }
    }
    if (value !== p.default) changed.push(`${p.key}=${value}`);
  }
  return changed.length ? `${strategy}:${changed.join(",")}` : strategy;
}

// -- creating a table -------------------------------------------------------------------------------
async function create(event) {
  event.preventDefault();
  clearErrors();
  const options = readOptions();
  const clockOk = checkNumber(byId("clock_seconds"), "clock_seconds");
  const windowOk = checkNumber(byId("window_seconds"), "window_seconds");
  const seats = [...byId("seats").querySelectorAll("select[data-seat]")].map((_, i) => seatText(i));
  if (options === null || !clockOk || !windowOk || seats.includes(null)) return;
  const body = {
    game: game().name, players: Number(byId("players").value), options, seats,
    window_seconds: Number(byId("window_seconds").value), clock_seconds: Number(byId("clock_seconds").value),
    bots_take_over: byId("bots_take_over").checked,
  };
  const response = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const answer = await response.json();
  if (!response.ok) {
    placeError(typeof answer.detail === "string" ? answer.detail : "The table could not be created.");
    return;
  }
  localStorage.setItem(`tricolore:creator:${answer.table_id}`, answer.creator); // closes the table, shows the invites again
  const link = (path) => new URL(path, location.href).href;
  const invites = Object.entries(answer.invites);
  byId("created").replaceChildren(h("div", { class: "invites", "data-testid": "invites" },
    h("h3", {}, "Table created"),
    invites.length ? h("p", {}, "Send each person their own link. See them again on the table's page, from this browser.") : h("p", {}, "Every seat is a bot: watch them play."),
    h("ul", {}, invites.map(([seat, path]) => h("li", {}, `${ordinal(Number(seat))} player: `,
      h("a", { href: path, "data-invite": seat }, link(path)), " ", copyButton(link(path))))),
    h("p", {}, "Spectators: ", h("a", { href: answer.spectate, "data-testid": "spectate" }, link(answer.spectate)), " ", copyButton(link(answer.spectate)))));
  listTables();
}

async function listTables() {
  for (const [status, id] of [["waiting", "waiting"], ["playing", "playing"], ["over", "finished"], ["closed", "closed"]]) {
    const tables = await (await fetch(`/api/tables?status=${status}`)).json();
    byId(id).replaceChildren(...(tables.length ? tables.map((t) => h("li", { "data-table": t.table_id },
      h("a", { href: status === "over" ? `/replay/${t.table_id}` : `/table/${t.table_id}` }, `${t.title}, ${t.players} players`),
      h("span", { class: "muted" }, status === "waiting" ? ` — ${t.open_seats.length} open ${t.open_seats.length === 1 ? "seat" : "seats"}`
        : ` — ${t.seats.map((s) => (s.kind === "open" ? "an open seat" : s.name)).join(", ")}${status === "closed" ? " (closed)" : ""}`)))
      : [h("li", { class: "muted" }, "none")]));
  }
}

byId("new-table").addEventListener("submit", create);
byId("join-by-link").addEventListener("submit", (e) => { e.preventDefault(); location.href = byId("invite-link").value.trim(); });
loadGames();
listTables();
setInterval(listTables, 5000);
