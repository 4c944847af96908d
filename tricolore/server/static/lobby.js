// The lobby: create a table (game, players, seats, options), show its invite links once, list tables.
"use strict";

let games = [];
const byId = (id) => document.getElementById(id);

async function loadGames() {
  games = await (await fetch("/api/games")).json();
  byId("game").replaceChildren(...games.map((g) => h("option", { value: g.name }, `${g.title} (${g.min_players}–${g.max_players})`)));
  byId("game").onchange = chooseGame;
  byId("players").oninput = drawSeats;
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
  byId("options").replaceChildren(...Object.entries(g.options).map(([name, value]) => optionInput(name, value)));
}

function optionInput(name, value) {
  let input;
  if (typeof value === "boolean") input = h("input", { type: "checkbox", "data-option": name, "data-kind": "bool", checked: value });
  else if (typeof value === "number") input = h("input", { type: "number", "data-option": name, "data-kind": "number", value });
  else input = h("input", { "data-option": name, "data-kind": "json", value: JSON.stringify(value), title: "JSON: null, a number, \"text\" or a list" });
  return h("label", { class: typeof value === "boolean" ? "inline" : "" }, `${label(name)} `, input, h("span", { class: "muted" }, ` default ${JSON.stringify(value)}`));
}

function drawSeats() {
  const g = game();
  const n = Math.min(Math.max(Number(byId("players").value) || g.min_players, g.min_players), g.max_players);
  const old = [...byId("seats").querySelectorAll("select")].map((s) => s.value);
  byId("seats").replaceChildren(...Array.from({ length: n }, (_, i) => h("label", { class: "seat" }, `Seat ${i} `,
    h("select", { name: `seat-${i}`, "data-seat": i }, h("option", { value: "open" }, "open (invite a person)"),
      g.strategies.map((s) => h("option", { value: s }, `bot: ${s}`))))));
  byId("seats").querySelectorAll("select").forEach((select, i) => {
    select.value = old[i] || (i === 0 ? "open" : g.strategies[g.strategies.length > 1 ? 1 : 0]);
  });
}

function readOptions() {
  const options = {};
  for (const input of byId("options").querySelectorAll("input")) {
    const name = input.dataset.option;
    const fallback = game().options[name];
    let value;
    if (input.dataset.kind === "bool") value = input.checked;
    else if (input.dataset.kind === "number") value = Number(input.value);
    else value = JSON.parse(input.value);
    if (JSON.stringify(value) !== JSON.stringify(fallback)) options[name] = value;
  }
  return options;
}

async function create(event) {
  event.preventDefault();
  byId("create-error").textContent = "";
  let options;
  try { options = readOptions(); } catch { byId("create-error").textContent = "An option's value is not valid JSON."; return; }
  const body = {
    game: game().name, players: Number(byId("players").value), options,
    seats: [...byId("seats").querySelectorAll("select")].map((s) => s.value),
    window_seconds: Number(byId("window_seconds").value), bots_take_over: byId("bots_take_over").checked,
  };
  const response = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const answer = await response.json();
  if (!response.ok) {
    byId("create-error").textContent = typeof answer.detail === "string" ? answer.detail : answer.detail.map((d) => d.msg).join("; ");
    return;
  }
  const link = (path) => new URL(path, location.href).href;
  const invites = Object.entries(answer.invites);
  byId("created").replaceChildren(h("div", { class: "invites", "data-testid": "invites" },
    h("h3", {}, "Table created"),
    invites.length ? h("p", {}, "Send each person their own link. The links are shown only now: copy them before leaving this page.") : h("p", {}, "Every seat is a bot: watch them play."),
    h("ul", {}, invites.map(([seat, path]) => h("li", {}, `Seat ${seat}: `, h("a", { href: path, "data-invite": seat }, link(path))))),
    h("p", {}, "Spectators: ", h("a", { href: answer.spectate, "data-testid": "spectate" }, link(answer.spectate)))));
  listTables();
}

async function listTables() {
  for (const [status, id] of [["waiting", "waiting"], ["playing", "playing"], ["over", "finished"]]) {
    const tables = await (await fetch(`/api/tables?status=${status}`)).json();
    byId(id).replaceChildren(...(tables.length ? tables.map((t) => h("li", {},
      h("a", { href: status === "over" ? `/replay/${t.table_id}` : `/table/${t.table_id}` }, `${t.title}, ${t.players} players`),
      h("span", { class: "muted" }, status === "waiting" ? ` — open seats: ${t.open_seats.join(", ")}` : ` — ${t.seats.map((s) => s.name || "open").join(", ")}`)))
      : [h("li", { class: "muted" }, "none")]));
  }
}

byId("new-table").addEventListener("submit", create);
byId("join-by-link").addEventListener("submit", (e) => { e.preventDefault(); location.href = byId("invite-link").value.trim(); });
loadGames();
listTables();
setInterval(listTables, 5000);
