// The lobby: create a table (game, players, seats, options, clock), show its invite links, list tables.
"use strict";

/** Designed facts for each game's card: a small drawing, how it ends (from its rulebook), and "A short game". */
const GAME_CARDS = {
  culottes: { length: "Ends when the last citizen emigrates, or when all agree to end it.", short: { max_rounds: 6 },
    drawing: '<circle cx="32" cy="32" r="26" fill="#1f3a93"/><circle cx="32" cy="32" r="18" fill="#fff"/><circle cx="32" cy="32" r="10" fill="#c0392b"/>' },
  "culottes-trials": { length: "A few minutes: one trial per player.", short: { trials: 3 },
    drawing: '<rect x="10" y="40" width="44" height="8" fill="#6b4a2b"/><rect x="28" y="14" width="8" height="28" fill="#6b4a2b"/><rect x="16" y="8" width="32" height="10" rx="3" fill="#1f3a93"/>' },
  "let-them-eat-cake": { length: "Rounds until someone holds 40 Cakes, loses all their Pawns, or the Pantry Deck runs out.", short: { winning_cakes: 20 },
    drawing: '<rect x="12" y="30" width="40" height="20" rx="3" fill="#e8c07a"/><rect x="12" y="26" width="40" height="8" rx="3" fill="#fff" stroke="#c0392b"/><rect x="30" y="12" width="4" height="14" fill="#c0392b"/>' },
  revolution: { length: "Rounds of bids until every Influence Space is filled.", short: { max_rounds: 6 },
    drawing: '<polygon points="32,6 58,56 6,56" fill="#c0392b"/><rect x="24" y="36" width="16" height="20" fill="#fff"/><circle cx="32" cy="26" r="5" fill="#fff"/>' },
  "bread-and-circuses": { length: "About ten rounds: until someone has five Gold per player, or the Riot Counter reaches five.", short: { max_rounds: 5 },
    drawing: '<ellipse cx="22" cy="36" rx="16" ry="12" fill="#d9a441"/><circle cx="44" cy="30" r="14" fill="none" stroke="#1f3a93" stroke-width="5"/>' },
};

/** Each option in the rulebook's words; its one-line help comes from the option schema. */
const OPTION_LABELS = {
  regulated_bribery: "Regulated bribery", first_player: "First player", max_rounds: "End after this many rounds",
  starting_cakes: "Starting cakes", die_faces: "Faces of the revolutionary die",
  closing_faces: "Die faces that close a trial", cockade_price_sans_culotte: "Price of a cockade for a sans-culotte",
  cockade_price_privileged: "Price of a cockade for a privileged", citizen_sheets_per_player: "Citizen sheets per player",
  emigrants_get_bastille_cakes: "Emigrants still get Bastille cakes", final_verdicts: "Final verdicts by the Book",
  deals: "Bribes and alliances kept in escrow", trials: "Trials", first_accused: "First accused",
  arguments_per_debate: "Arguments per debate", first_head: "First Head of Committee", memory_mode: "Memory mode",
  winning_cakes: "Cakes that win", edition: "Edition",
};

/** The option's label: the rulebook's words, else its name read aloud. */
function optionLabel(name) {
  const text = OPTION_LABELS[name] || label(name);
  return text[0].toUpperCase() + text.slice(1);
}

/** Options the rulebook does not have (designed for simulations and timed tables) go under "More options". */
function forSimulations(option) {
  return /^Designed:|simulation/i.test(option.help || "");
}

let games = [];
const byId = (id) => document.getElementById(id);

async function loadGames() {
  games = await (await fetch("/api/games")).json();
  byId("game").replaceChildren(...games.map((g) => h("option", { value: g.name }, `${g.title} (${g.min_players}–${g.max_players})`)));
  byId("game").onchange = chooseGame;
  drawGameCards();
  byId("players").oninput = () => { fieldError("players", ""); drawSeats(); };
  for (const id of ["window_seconds", "clock_seconds"]) byId(id).oninput = () => checkNumber(byId(id), id);
  chooseGame();
}

function game() {
  return games.find((g) => g.name === byId("game").value);
}

/** One card per game: its drawing, players, length and sentence; a click chooses it. */
function drawGameCards() {
  byId("game-cards").replaceChildren(...games.map((g) => {
    const card = GAME_CARDS[g.name] || {};
    const drawing = h("span", { class: "game-drawing", "aria-hidden": "true" });
    drawing.innerHTML = `<svg viewBox="0 0 64 64" width="56" height="56">${card.drawing || ""}</svg>`; // designed constants above
    return h("button", { type: "button", class: "game-card", "data-game-card": g.name, "aria-pressed": "false",
      onclick: () => { byId("game").value = g.name; chooseGame(); } },
      drawing, h("span", { class: "game-text" }, h("strong", {}, g.title),
        h("span", { class: "game-players" }, `${g.min_players} to ${g.max_players} players`),
        card.length ? h("span", { class: "game-length" }, card.length) : null,
        h("span", { class: "game-sentence" }, g.summary)));
  }));
}

function chooseGame() {
  const g = game();
  byId("summary").textContent = g.summary;
  for (const card of document.querySelectorAll("[data-game-card]")) card.setAttribute("aria-pressed", String(card.dataset.gameCard === g.name));
  byId("preset-short").disabled = !(GAME_CARDS[g.name] && GAME_CARDS[g.name].short);
  const players = byId("players");
  players.min = g.min_players;
  players.max = g.max_players;
  players.value = Math.min(Math.max(Number(players.value) || 4, g.min_players), g.max_players);
  drawSeats();
  const more = g.option_schema.filter(forSimulations);
  byId("options").replaceChildren(...g.option_schema.filter((o) => !forSimulations(o)).map((option) => optionControl(option)),
    more.length ? h("details", { class: "more-options", "data-testid": "more-options" }, h("summary", {}, "More options"), more.map((option) => optionControl(option))) : null);
  clearErrors();
}

/** Fill the options with a preset: the rulebook's defaults, with ``values`` on top. */
function applyPreset(values) {
  for (const option of game().option_schema) {
    const input = byId("options").querySelector(`[data-option="${CSS.escape(option.name)}"]`);
    if (!input) continue;
    const value = option.name in values ? values[option.name] : option.default;
    if (option.kind === "bool") input.checked = value === true;
    else if (option.kind === "list") input.value = (value || []).join(", ");
    else input.value = value === null ? "" : String(value);
    if (option.name in values && forSimulations(option)) input.closest("details").open = true;
  }
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
    h("label", { class: option.kind === "bool" ? "inline" : "" }, `${optionLabel(option.name)}${bounds} `, input),
    h("span", { class: "muted option-help" }, String(option.help || "").replace(/\bNone\b/g, "Empty")),
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
  const sit = event.submitter && event.submitter.dataset.testid === "create-and-sit";
  const name = byId("creator-name").value.trim();
  if (sit && !name) { fieldError("creator-name", "Write your name to take the first seat."); byId("creator-name").focus(); return; }
  if (sit) byId("seats").querySelector("select[data-seat='0']").value = "open";
  const options = readOptions();
  const clockOk = checkNumber(byId("clock_seconds"), "clock_seconds");
  const windowOk = checkNumber(byId("window_seconds"), "window_seconds");
  const seats = [...byId("seats").querySelectorAll("select[data-seat]")].map((_, i) => seatText(i));
  if (options === null || !clockOk || !windowOk || seats.includes(null)) return;
  const body = {
    game: game().name, players: Number(byId("players").value), options, seats,
    window_seconds: Number(byId("window_seconds").value), clock_seconds: Number(byId("clock_seconds").value),
    bots_take_over: byId("bots_take_over").checked, open_to_all: byId("open_to_all").checked,
  };
  const response = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const answer = await response.json();
  if (!response.ok) {
    placeError(typeof answer.detail === "string" ? answer.detail : "The table could not be created.");
    return;
  }
  localStorage.setItem(`tricolore:creator:${answer.table_id}`, answer.creator); // closes the table, shows the invites again
  if (sit) return takeFirstSeat(answer, name);
  const link = (path) => new URL(path, location.href).href;
  const invites = Object.entries(answer.invites);
  byId("created").replaceChildren(h("div", { class: "invites", "data-testid": "invites" },
    h("h3", {}, "Table created"),
    invites.length ? h("p", {}, "Send each person their own link. See them again on the table's page, from this browser.") : h("p", {}, "Every seat is a bot: watch them play."),
    h("ul", {}, invites.map(([seat, path]) => h("li", {}, `${ordinal(Number(seat))} player: `,
      h("a", { href: path, "data-invite": seat }, link(path)), " ", copyButton(link(path)), " ", shareButton(link(path))))),
    h("p", {}, "Spectators: ", h("a", { href: answer.spectate, "data-testid": "spectate" }, link(answer.spectate)), " ", copyButton(link(answer.spectate)))));
  byId("created").scrollIntoView({ block: "center" });
  listTables();
}

/** Share a link the device's own way where it has one, else copy it. */
function shareButton(url) {
  const button = h("button", { type: "button", class: "small share", onclick: async () => {
    if (navigator.share) {
      try { await navigator.share({ title: "A seat at a Tricolore table", url }); } catch { /* the person closed the share sheet */ }
    } else button.previousElementSibling.click(); // the copy button next to it
  } }, "Share");
  return button;
}

/** The creator takes the first seat under ``name`` and goes to the table; the other invites wait there. */
async function takeFirstSeat(answer, name) {
  const token = new URLSearchParams(answer.invites["0"].split("#")[1]).get("invite");
  const response = await fetch("/api/join", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token, name, device: seatDevice(), move: false }) });
  if (!response.ok) { byId("create-error").textContent = (await response.json()).detail; return; }
  localStorage.setItem(`tricolore:token:${answer.table_id}`, token);
  location.href = `/table/${encodeURIComponent(answer.table_id)}`;
}

/** This browser's own secret, as the table page keeps it (the first browser to join holds the seat). */
function seatDevice() {
  let secret = localStorage.getItem("tricolore:device");
  if (!secret) {
    secret = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem("tricolore:device", secret);
  }
  return secret;
}

async function listTables() {
  for (const [status, id] of [["waiting", "waiting"], ["playing", "playing"], ["over", "finished"], ["closed", "closed"]]) {
    const tables = await (await fetch(`/api/tables?status=${status}`)).json();
    const invites = status === "waiting" ? await ownInvites(tables) : {};
    byId(id).replaceChildren(...(tables.length ? tables.map((t) => h("li", { "data-table": t.table_id },
      h("a", { href: status === "over" ? `/replay/${t.table_id}` : `/table/${t.table_id}` }, `${t.title}, ${t.players} players`),
      h("span", { class: "muted" }, status === "waiting" ? ` — ${t.open_seats.length} open ${t.open_seats.length === 1 ? "seat" : "seats"}`
        : ` — ${t.seats.map((s) => (s.kind === "open" ? "an open seat" : s.name)).join(", ")}${status === "closed" ? " (closed)" : ""}`),
      invites[t.table_id] ? h("span", { class: "open-seats" }, t.open_seats.filter((seat) => invites[t.table_id][String(seat)]).map((seat) =>
        h("a", { class: "join-seat", href: invites[t.table_id][String(seat)], "data-join-seat": seat }, `Join as the ${ordinal(seat).toLowerCase()} player`)))
        : t.open_to_all && status === "waiting" ? h("span", { class: "open-seats" }, t.open_seats.map((seat) =>
          h("a", { class: "join-seat", href: `/table/${encodeURIComponent(t.table_id)}#take=${seat}`, "data-take-seat": seat }, `Take the ${ordinal(seat).toLowerCase()} seat`))) : null))
      : [h("li", { class: "muted" }, "none")]));
  }
}

/** The invites of the waiting tables this browser created, by table: its own seats to join. */
async function ownInvites(tables) {
  const found = {};
  for (const t of tables) {
    const creator = localStorage.getItem(`tricolore:creator:${t.table_id}`);
    if (!creator) continue;
    const response = await fetch(`/api/tables/${encodeURIComponent(t.table_id)}/invites`, { method: "POST",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify({ creator }) });
    if (response.ok) found[t.table_id] = (await response.json()).invites;
  }
  return found;
}

byId("new-table").addEventListener("submit", create);
byId("creator-name").value = localStorage.getItem("tricolore:name") || "";
byId("creator-name").addEventListener("input", () => { fieldError("creator-name", ""); localStorage.setItem("tricolore:name", byId("creator-name").value.trim()); });
byId("preset-rulebook").addEventListener("click", () => applyPreset({}));
byId("preset-short").addEventListener("click", () => applyPreset((GAME_CARDS[game().name] || {}).short || {}));
byId("join-by-link").addEventListener("submit", (e) => { e.preventDefault(); location.href = byId("invite-link").value.trim(); });
loadGames();
listTables();
setInterval(listTables, 5000);
