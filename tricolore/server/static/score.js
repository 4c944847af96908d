// A scoring helper for a table counting by hand at the end: numbers read off the board per
// player, scored by the engine's own scoring (POST /api/score/<game>).
"use strict";

(async function scorePage() {
  const game = location.pathname.split("/").pop();
  const $ = id => document.getElementById(id);
  const form = await (await fetch(`/api/score/${game}`)).json();
  const table = {};
  let players = form.min_players;
  const names = [];
  const values = [];
  for (const t of form.table) table[t.key] = Array.isArray(t.choices) ? t.choices[0][0] : null;
  $("title").textContent = `${form.title}: scoring at the end`;
  document.title = `Tricolore — ${form.title}, scoring`;

  const shown = r => !r.edition || table.edition === r.edition;
  const name = s => names[s] || `Player ${s + 1}`;

  function readings() {
    const out = {...table, players: []};
    for (let s = 0; s < players; s++) {
      const p = {};
      for (const r of form.per_player) {
        if (!shown(r)) continue;
        const path = r.key.split(".");
        let node = p;
        for (const k of path.slice(0, -1)) node = node[k] = node[k] || {};
        node[path[path.length - 1]] = values[s][r.key];
      }
      out.players.push(p);
    }
    return out;
  }

  function describe(b) {
    if (game === "revolution") {
      const areas = Object.entries(b.areas).map(([a, n]) => `${a} ${n}`).join(", ");
      return `track ${b.track}` + (areas ? `; areas won: ${areas}` : "; no area won")
        + (b.leftover_chips ? `; chips held ${b.leftover_chips}` : "");
    }
    if (game === "let-them-eat-cake")
      return `${b.alive ? "alive" : "guillotined"}; ${b.cakes} cake, ${b.pawns} Pawns, ${b.generals} Generals`;
    return `${b.gold} Gold`;
  }

  // What ranks a player: the score, and in Let Them Eat Cake life, then cake, Pawns, Generals.
  const standing = (answer, s) => {
    const b = answer.breakdown[s];
    return game === "let-them-eat-cake" ? [b.alive, b.cakes, b.pawns, b.generals].join() : String(answer.scores[s]);
  };

  let asked = 0;
  async function score() {
    const mine = ++asked;
    const response = await fetch(`/api/score/${game}`, {method: "POST", headers: {"Content-Type": "application/json"},
                                                         body: JSON.stringify(readings())});
    const answer = await response.json();
    if (mine !== asked) return; // a later reading is being scored
    if (!response.ok) { $("score-error").textContent = answer.detail; $("result").replaceChildren(); $("winners").textContent = ""; return; }
    $("score-error").textContent = "";
    const rows = [];
    let rank = 0;
    answer.ranking.forEach((s, i) => {
      const prev = answer.ranking[i - 1];
      const tied = prev !== undefined && standing(answer, prev) === standing(answer, s);
      if (!tied) rank = i + 1;
      const tr = document.createElement("tr");
      tr.dataset.seat = s; tr.dataset.rank = rank; tr.dataset.score = answer.scores[s];
      if (answer.winners.includes(s)) tr.className = "winner";
      for (const text of [String(rank), name(s), String(answer.scores[s]), describe(answer.breakdown[s])]) {
        const td = document.createElement("td"); td.textContent = text; tr.append(td);
      }
      rows.push(tr);
    });
    $("result").replaceChildren(...rows);
    const winners = answer.winners.map(name);
    $("winners").dataset.winners = answer.winners.join(",");
    $("winners").textContent = winners.length === 1 ? `${winners[0]} wins.`
      : game === "bread-and-circuses" ? `${winners.join(" and ")} tie for the most Gold: play continues until only one player has the greatest amount of Gold.`
      : `${winners.join(" and ")} share the win.`;
  }

  function stepper(label, get, set, max, attrs) {
    const row = document.createElement("div"); row.className = "reading";
    const span = document.createElement("span"); span.textContent = label;
    const out = document.createElement("input"); out.type = "number"; out.inputMode = "numeric";
    out.min = "0"; out.max = String(max); out.value = get(); out.setAttribute("aria-label", label);
    out.addEventListener("change", () => {
      const typed = Math.trunc(Number(out.value));
      set(Number.isFinite(typed) ? Math.min(max, Math.max(0, typed)) : 0); out.value = get(); score();
    });
    const minus = document.createElement("button"); minus.type = "button"; minus.textContent = "−";
    const plus = document.createElement("button"); plus.type = "button"; plus.textContent = "+";
    minus.setAttribute("aria-label", `${label}: one less`); plus.setAttribute("aria-label", `${label}: one more`);
    Object.assign(row.dataset, attrs);
    minus.addEventListener("click", () => { set(Math.max(0, get() - 1)); out.value = get(); score(); });
    plus.addEventListener("click", () => { set(Math.min(max, get() + 1)); out.value = get(); score(); });
    row.append(span, minus, out, plus);
    return row;
  }

  function render() {
    $("players").textContent = players;
    while (values.length < players) values.push(Object.fromEntries(form.per_player.map(r => [r.key, 0])));
    const choices = form.table.map(t => {
      const label = document.createElement("label"); label.textContent = `${t.label} `;
      const select = document.createElement("select"); select.dataset.table = t.key;
      const options = t.choices === "seat-or-none" ? [["", "nobody"], ...[...Array(players).keys()].map(s => [String(s), name(s)])] : t.choices;
      for (const [value, text] of options) {
        const o = document.createElement("option"); o.value = value; o.textContent = text; select.append(o);
      }
      select.value = table[t.key] === null ? "" : String(table[t.key]);
      select.addEventListener("change", () => {
        table[t.key] = t.choices === "seat-or-none" ? (select.value === "" ? null : Number(select.value)) : select.value;
        render();
      });
      label.append(select);
      return label;
    });
    $("table-choices").replaceChildren(...choices);
    const cards = [];
    for (let s = 0; s < players; s++) {
      const card = document.createElement("section"); card.className = "player"; card.dataset.player = s;
      const input = document.createElement("input"); input.type = "text"; input.placeholder = `Player ${s + 1}`;
      input.value = names[s] || ""; input.setAttribute("aria-label", `Player ${s + 1}'s name`);
      input.addEventListener("change", () => { names[s] = input.value.trim(); render(); });
      card.append(input);
      for (const r of form.per_player) if (shown(r))
        card.append(stepper(r.label, () => values[s][r.key], v => { values[s][r.key] = v; }, r.max, {reading: r.key}));
      cards.push(card);
    }
    $("player-readings").replaceChildren(...cards);
    score();
  }

  $("players-minus").addEventListener("click", () => {
    players = Math.max(form.min_players, players - 1);
    if (table.dead !== undefined && table.dead !== null && table.dead >= players) table.dead = null;
    render();
  });
  $("players-plus").addEventListener("click", () => { players = Math.min(form.max_players, players + 1); render(); });
  render();
})();
