// The Book of Public Safety on a phone, for a Culottes table playing on paper.
// The arithmetic is tricolore/games/culottes/book.py's, line for line; the Book is kept in
// localStorage and exported / imported as the CSV `tricolore book` reads and writes.
"use strict";

const SANS_CULOTTE = "sans_culotte";
const PRIVILEGED = "privileged";
const BASTILLE = "Bastille";
const HEADER = ["voter", "citizen", "cakes", "side"];
const MAX_CAKES = 1e9; // far above any table's cakes; keeps every sum an exact number
const STORAGE_KEY = "tricolore-book";

class BookError extends Error {}

/** The nearest whole number to num/den (den > 0), halves rounded up, in exact arithmetic. */
function roundHalfUp(num, den) {
  const n = BigInt(num), d = BigInt(den); // num >= 0: BigInt division is then the floor
  return Number((2n * n + d) / (2n * d));
}

/** The verdict and rewards of a closing trial: book.py's close_trial.
 *  votes: [{voter, cakes, side}]; order: voting citizens from the current player's left. */
function closeTrial(votes, order) {
  const scales = {[SANS_CULOTTE]: new Map(), [PRIVILEGED]: new Map()};
  const position = new Map(order.map((v, i) => [v, i]));
  for (const vote of votes) {
    if (!(vote.side in scales)) throw new BookError(`a cake vote's side must be sans-culotte or privileged, not '${vote.side}'`);
    if (!Number.isInteger(vote.cakes) || vote.cakes < 1) throw new BookError(`a cake vote stakes at least 1 cake; ${vote.voter} voted ${vote.cakes}`);
    if (!position.has(vote.voter)) throw new BookError(`${vote.voter} voted in this trial but is missing from the seating order`);
    const scale = scales[vote.side];
    scale.set(vote.voter, (scale.get(vote.voter) || 0) + vote.cakes);
  }
  const sum = m => [...m.values()].reduce((a, b) => a + b, 0);
  const yes = sum(scales[SANS_CULOTTE]), no = sum(scales[PRIVILEGED]);
  const verdict = yes > no ? SANS_CULOTTE : PRIVILEGED;
  const winning = scales[verdict];
  const losing = scales[verdict === SANS_CULOTTE ? PRIVILEGED : SANS_CULOTTE];
  const w = Math.max(yes, no), lost = Math.min(yes, no);
  const bastilleVote = w - lost;
  const recipients = [...winning.entries()];
  if (bastilleVote) recipients.push([BASTILLE, bastilleVote]);
  recipients.sort((a, b) => (b[1] - a[1]) || ((a[0] !== BASTILLE) - (b[0] !== BASTILLE))
    || ((position.has(a[0]) ? position.get(a[0]) : -1) - (position.has(b[0]) ? position.get(b[0]) : -1)));
  const total = w + bastilleVote;
  let remaining = lost;
  const rewards = [];
  for (const [voter, weight] of recipients) {
    const give = Math.min(total ? roundHalfUp(BigInt(lost) * BigInt(weight), total) : 0, remaining);
    remaining -= give;
    rewards.push({voter, returned: voter === BASTILLE ? 0 : weight, reward: give,
                  share: total ? [lost * weight, total] : [0, 1]});
  }
  if (remaining) {
    const bastille = rewards.find(r => r.voter === BASTILLE);
    if (bastille) bastille.reward += remaining;
    else rewards.push({voter: BASTILLE, returned: 0, reward: remaining, share: [0, 1]});
  }
  const lostBy = [...losing.entries()].sort((a, b) => position.get(a[0]) - position.get(b[0]))
    .map(([voter, cakes]) => ({voter, cakes}));
  return {verdict, winning_cakes: w, lost_cakes: lost, bastille_vote: bastilleVote, rewards,
          leftover: remaining, lost: lostBy};
}

/** book.py's parse_side: the side a cell names, or null. */
function parseSide(text) {
  const t = String(text).trim().toLowerCase().replace(/-/g, "_").replace(/ /g, "_");
  if (["sans_culotte", "s", "sansculotte", "sans_cullotte"].includes(t)) return SANS_CULOTTE;
  if (["privileged", "p"].includes(t)) return PRIVILEGED;
  return null;
}

/** CSV rows as Python's csv.reader (excel dialect) reads them: [[line, cells], ...]. */
function csvRows(text) {
  const rows = [];
  let i = 0, line = 0;
  const n = text.length;
  while (i < n) {
    const cells = [];
    let cell = "", inQuotes = false, started = false;
    for (;;) {
      if (i >= n) {
        if (inQuotes) throw new BookError(`line ${line + 1} is not readable CSV: unexpected end of data`);
        cells.push(cell); line += 1; break;
      }
      const c = text[i];
      if (inQuotes) {
        if (c === '"') {
          if (text[i + 1] === '"') { cell += '"'; i += 2; continue; }
          inQuotes = false; i += 1; continue;
        }
        if (c === "\n") line += 1;
        cell += c; i += 1; continue;
      }
      if (c === '"' && !started) { inQuotes = started = true; i += 1; continue; }
      if (c === ",") { cells.push(cell); cell = ""; started = false; i += 1; continue; }
      if (c === "\r" || c === "\n") {
        i += (c === "\r" && text[i + 1] === "\n") ? 2 : 1;
        line += 1;
        if (cells.length || started || cell) cells.push(cell);
        break;
      }
      cell += c; started = true; i += 1;
    }
    rows.push([line, cells]);
  }
  return rows;
}

/** A Python-style int() of a stripped cell: an optional sign and ASCII digits (underscores
 *  between digits allowed); null if it is not one. */
function wholeNumber(text) {
  return /^[+-]?\d+(_\d+)*$/.test(text) ? Number(text.replace(/_/g, "")) : null;
}

/** book.py's BookOfPublicSafety.from_csv: rows {voter, citizen, cakes, side, closed}. */
function parseCsv(text, source = "the Book") {
  const rows = csvRows(text);
  const header = (rows.length ? rows[0][1] : []).map(h => h.trim().toLowerCase());
  const extra = header.slice(4);
  if (header.slice(0, 4).join(",") !== HEADER.join(",") || !(extra.length === 0 || (extra.length === 1 && extra[0] === "closed")))
    throw new BookError(`${source} must start with the header voter,citizen,cakes,side (and optionally closed); found ${header.join(",") || "nothing"}`);
  const out = [];
  for (const [line, raw] of rows.slice(1)) {
    if (!raw.some(c => c.trim())) continue;
    if (raw.length > header.length) throw new BookError(`${source}, line ${line}: expected ${header.length} columns, found ${raw.length}`);
    const cells = raw.map(c => c.trim());
    while (cells.length < header.length) cells.push("");
    const [voter, citizen, cakesText, sideText] = cells;
    if (!voter || !citizen) throw new BookError(`${source}, line ${line}: the voter and the citizen must be named`);
    for (const name of [voter, citizen])
      if (name.toLowerCase() === BASTILLE.toLowerCase()) throw new BookError(`${source}, line ${line}: no citizen may be called ${BASTILLE}`);
    const cakes = wholeNumber(cakesText);
    if (cakes === null) throw new BookError(`${source}, line ${line}: cakes must be a whole number, not '${cakesText}'`);
    if (cakes < 1) throw new BookError(`${source}, line ${line}: a cake vote stakes at least 1 cake, not ${cakes}`);
    if (cakes > MAX_CAKES) throw new BookError(`${source}, line ${line}: a cake vote of ${cakesText} cakes is more than this page counts`);
    const side = parseSide(sideText);
    if (side === null) throw new BookError(`${source}, line ${line}: side must be sans-culotte or privileged, not '${sideText}'`);
    let closed = null;
    if (header.length === 5 && cells[4]) {
      closed = wholeNumber(cells[4]);
      if (closed === null) throw new BookError(`${source}, line ${line}: closed must be a closing number, not '${cells[4]}'`);
    }
    out.push({voter, citizen, cakes, side, closed});
  }
  return out;
}

/** A CSV cell as Python's csv.writer writes it (quoted only when it must be). */
function csvCell(value) {
  const s = String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** book.py's to_csv: the Book with the closed column. */
function toCsv(rows) {
  const lines = [[...HEADER, "closed"].join(",")];
  for (const r of rows)
    lines.push([r.voter, r.citizen, r.cakes, r.side.replace("_", "-"), r.closed === null ? "" : r.closed].map(csvCell).join(","));
  return lines.join("\n") + "\n";
}

/** The voting citizens from the current player's left, the current player's citizens last.
 *  seating: [{name, player}] clockwise; a citizen without a player is a player of its own. */
function seatingOrder(seating, voter) {
  const player = e => e.player || e.name;
  const me = seating.find(e => e.name === voter);
  const current = me ? player(me) : voter;
  let last = -1;
  seating.forEach((e, i) => { if (player(e) === current) last = i; });
  const others = [], mine = [];
  for (let k = 1; k <= seating.length; k++) {
    const e = seating[(last + k) % seating.length];
    if (player(e) !== current) others.push(e.name);
  }
  for (const e of seating) if (player(e) === current) mine.push(e.name);
  if (!seating.some(e => e.name === voter)) mine.push(voter);
  return [...others, ...mine];
}

/** Replays the keeper's lines into the Book: its rows, its closings and the open trials.
 *  Lines: {kind: "vote", voter, citizen, cakes, side}, {kind: "roll", die, order} (order set
 *  when a 5 or 6 closed the trial) and {kind: "row", ...} for rows read from a CSV. */
function replay(lines) {
  const rows = [], closings = [];
  let count = 0, lastVote = null;
  for (const line of lines) {
    if (line.kind === "row") {
      rows.push({voter: line.voter, citizen: line.citizen, cakes: line.cakes, side: line.side, closed: line.closed});
      if (line.closed !== null) count = Math.max(count, line.closed);
      lastVote = null;
    } else if (line.kind === "vote") {
      lastVote = {voter: line.voter, citizen: line.citizen, cakes: line.cakes, side: line.side, closed: null, die: null};
      rows.push(lastVote);
    } else if (line.kind === "roll" && lastVote) {
      lastVote.die = line.die;
      if (line.order) {
        const open = rows.filter(r => r.citizen === lastVote.citizen && r.closed === null);
        const closing = closeTrial(open.map(r => ({voter: r.voter, cakes: r.cakes, side: r.side})), line.order);
        count += 1;
        for (const r of open) r.closed = count;
        closings.push({number: count, citizen: lastVote.citizen, die: line.die, order: line.order, ...closing});
      }
      lastVote = null;
    }
  }
  return {rows, closings, closingCount: count};
}

function openTrials(rows) {
  const trials = new Map();
  for (const r of rows) {
    if (r.closed !== null) continue;
    const t = trials.get(r.citizen) || {[SANS_CULOTTE]: 0, [PRIVILEGED]: 0, votes: 0};
    t[r.side] += r.cakes; t.votes += 1;
    trials.set(r.citizen, t);
  }
  return trials;
}

const sideWords = side => side === SANS_CULOTTE ? "sans-culotte" : "privileged";
const cakesWord = n => `${n} cake${n === 1 ? "" : "s"}`;

/** A closing in the rulebook's words: [verdict, Bastille, rewards..., losses..., leftover]. */
function closingSentences(c) {
  const out = [];
  const other = c.verdict === SANS_CULOTTE ? c.lost_cakes : c.winning_cakes;
  const sc = c.verdict === SANS_CULOTTE ? c.winning_cakes : c.lost_cakes;
  out.push(c.verdict === SANS_CULOTTE
    ? `Verdict: sans-culotte, because there are more cakes on the sans-culotte scale (${sc}) than on the privileged scale (${other}). ${c.citizen} is given a Phrygian cap.`
    : `Verdict: privileged, because there are ${sc === other ? "an equal number of cakes on each scale" : "less cakes on the sans-culotte scale"} (${sc} sans-culotte, ${other} privileged). ${c.citizen} is said to be a privileged.`);
  out.push(`${c.winning_cakes} winning cakes, ${c.lost_cakes} lost cakes: the Bastille is considered to have voted ${sideWords(c.verdict)} with ${c.winning_cakes} − ${c.lost_cakes} = ${cakesWord(c.bastille_vote)}.`);
  return out;
}

// -- the page ---------------------------------------------------------------------------------
function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) || "null");
    if (saved && Array.isArray(saved.lines) && Array.isArray(saved.seating)) return saved;
  } catch (_e) { /* a damaged Book starts afresh */ }
  return {lines: [], seating: []};
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) node.append(c);
  return node;
}

function startPage() {
  let book = load();
  const draft = {cakes: 1, side: null};
  const $ = id => document.getElementById(id);
  const say = (text, bad = false) => { $("message").textContent = text; $("message").className = bad ? "error" : "muted"; };

  function save() { localStorage.setItem(STORAGE_KEY, JSON.stringify(book)); }
  function names() { return book.seating.map(e => e.name); }
  function seat(name) { if (!names().includes(name)) book.seating.push({name, player: ""}); }
  function state() { return replay(book.lines); }

  function checkName(text, what) {
    const name = text.trim();
    if (!name) throw new BookError(`choose or type the ${what}`);
    if (name.toLowerCase() === BASTILLE.toLowerCase()) throw new BookError(`no citizen may be called ${BASTILLE}`);
    return name;
  }

  function writeVote() {
    try {
      const voter = checkName($("voter").value, "voting citizen");
      const citizen = checkName($("citizen").value, "citizen on trial");
      if (!draft.side) throw new BookError("choose the side: sans-culotte or privileged");
      seat(voter); seat(citizen);
      book.lines.push({kind: "vote", voter, citizen, cakes: draft.cakes, side: draft.side});
      save();
      say(`Written: “${voter}, ${citizen}, ${draft.cakes}, ${sideWords(draft.side)}”. Roll the revolutionary dice.`);
      draft.side = null; draft.cakes = 1;
      render();
    } catch (e) {
      if (!(e instanceof BookError)) throw e;
      say(e.message.charAt(0).toUpperCase() + e.message.slice(1) + ".", true);
    }
  }

  function roll(die) {
    const lastVote = [...book.lines].reverse().find(l => l.kind === "vote");
    const order = die >= 5 ? seatingOrder(book.seating, lastVote.voter) : null;
    book.lines.push({kind: "roll", die, order});
    save();
    say(die >= 5 ? `A ${die}: the trial of ${lastVote.citizen} is closed and a verdict is issued.`
                 : `A ${die}: the trial of ${lastVote.citizen} goes on.`);
    render();
  }

  function undo() {
    const line = book.lines.pop();
    save();
    say(line ? "The last line is undone." : "The Book is empty.");
    render();
  }

  function chooser(id, label) {
    const box = $(`${id}-names`);
    box.replaceChildren(...names().map(n => el("button", {type: "button", class: "name" + ($(id).value === n ? " chosen" : ""),
      "data-name": n, "aria-pressed": String($(id).value === n), text: n,
      onclick: () => { $(id).value = n; render(); }})));
    box.setAttribute("aria-label", label);
  }

  function render() {
    const {rows, closings} = state();
    chooser("voter", "Voting citizens already in the Book");
    chooser("citizen", "Citizens already in the Book");
    $("cakes").textContent = String(draft.cakes);
    for (const b of document.querySelectorAll("[data-side]")) b.setAttribute("aria-pressed", String(b.dataset.side === draft.side));
    const last = book.lines[book.lines.length - 1];
    const awaiting = last && last.kind === "vote";
    $("dice").hidden = !awaiting;
    if (awaiting) $("dice-for").textContent = `${last.voter} voted on ${last.citizen}: what did the dice show?`;

    const trials = openTrials(rows);
    $("open-trials").replaceChildren(...[...trials.entries()].map(([citizen, t]) =>
      el("li", {"data-open-trial": citizen, text: `${citizen}: ${t[SANS_CULOTTE]} sans-culotte, ${t[PRIVILEGED]} privileged (${t.votes} vote${t.votes === 1 ? "" : "s"})`})));
    $("no-open-trials").hidden = trials.size > 0;

    $("book-rows").replaceChildren(...rows.map((r, i) => el("tr", {"data-row": i + 1, "data-closed": r.closed === null ? null : r.closed, class: r.closed === null ? "" : "closed"},
      el("td", {text: String(i + 1)}), el("td", {text: r.voter}), el("td", {text: r.citizen}),
      el("td", {text: String(r.cakes)}), el("td", {text: sideWords(r.side)}),
      el("td", {text: r.die ? String(r.die) : ""}),
      el("td", {text: r.closed === null ? "" : `closed (${r.closed})`}))));

    $("closings").replaceChildren(...closings.slice().reverse().map(c => {
      const [verdict, bastille] = closingSentences(c);
      return el("article", {class: "closing", "data-closing": c.number, "data-citizen": c.citizen, "data-verdict": c.verdict,
        "data-winning": c.winning_cakes, "data-lost": c.lost_cakes, "data-bastille-vote": c.bastille_vote, "data-leftover": c.leftover},
        el("h3", {text: `Closing ${c.number}: the trial of ${c.citizen} (dice: ${c.die})`}),
        el("p", {class: "verdict", text: verdict}), el("p", {text: bastille}),
        el("p", {class: "muted", text: `Rewarded in this order (from the left of ${c.order[c.order.length - 1]}'s player): ${c.order.join(", ")}.`}),
        el("ol", {class: "rewards"}, ...c.rewards.map(r => el("li", {"data-voter": r.voter, "data-returned": r.returned, "data-reward": r.reward,
          text: r.voter === BASTILLE ? `The Bastille gets ${cakesWord(r.reward)}${c.leftover ? ` (including ${cakesWord(c.leftover)} left after the last winner)` : ""}.`
            : `${r.voter} gets ${cakesWord(r.returned)} back and wins ${cakesWord(r.reward)}.`}))),
        el("ul", {class: "losses"}, ...c.lost.map(l => el("li", {"data-lost-voter": l.voter, "data-cakes": l.cakes, text: `${l.voter} loses ${cakesWord(l.cakes)}.`}))));
    }));

    $("seating").replaceChildren(...book.seating.map((e, i) => el("li", {"data-seat": e.name},
      el("span", {class: "seat-name", text: e.name}),
      el("input", {"aria-label": `${e.name}'s player`, placeholder: "player", value: e.player, "data-player-of": e.name,
        onchange: ev => { e.player = ev.target.value.trim(); save(); }}),
      el("button", {type: "button", class: "step", "aria-label": `Move ${e.name} up`, disabled: i === 0,
        onclick: () => { book.seating.splice(i - 1, 0, book.seating.splice(i, 1)[0]); save(); render(); }, text: "↑"}),
      el("button", {type: "button", class: "step", "aria-label": `Move ${e.name} down`, disabled: i === book.seating.length - 1,
        onclick: () => { book.seating.splice(i + 1, 0, book.seating.splice(i, 1)[0]); save(); render(); }, text: "↓"}))));
    $("undo").disabled = book.lines.length === 0;
    $("csv").value = toCsv(rows);
  }

  function importCsv(text, source) {
    try {
      const rows = parseCsv(text, source);
      book = {lines: rows.map(r => ({kind: "row", ...r})), seating: []};
      for (const r of rows) { seat(r.voter); seat(r.citizen); }
      save();
      say(`Read ${rows.length} row${rows.length === 1 ? "" : "s"} from ${source}.`);
      render();
    } catch (e) {
      if (!(e instanceof BookError)) throw e;
      say(e.message.charAt(0).toUpperCase() + e.message.slice(1) + ".", true);
    }
  }

  $("cakes-minus").addEventListener("click", () => { draft.cakes = Math.max(1, draft.cakes - 1); render(); });
  $("cakes-plus").addEventListener("click", () => { draft.cakes = Math.min(MAX_CAKES, draft.cakes + 1); render(); });
  for (const b of document.querySelectorAll("[data-side]")) b.addEventListener("click", () => { draft.side = b.dataset.side; render(); });
  for (const id of ["voter", "citizen"]) $(id).addEventListener("input", render);
  $("write").addEventListener("click", writeVote);
  for (const b of document.querySelectorAll("[data-die]")) b.addEventListener("click", () => roll(Number(b.dataset.die)));
  $("undo").addEventListener("click", undo);
  $("export").addEventListener("click", () => {
    const url = URL.createObjectURL(new Blob([toCsv(state().rows)], {type: "text/csv"}));
    const a = el("a", {href: url, download: "book.csv"});
    document.body.append(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
  $("import-file").addEventListener("change", async ev => {
    const file = ev.target.files[0];
    if (file) importCsv(await file.text(), file.name);
    ev.target.value = "";
  });
  $("import-text").addEventListener("click", () => importCsv($("csv").value, "the pasted Book"));
  $("new-book").addEventListener("click", () => {
    if (!confirm("Start a new Book? Export this one first if you want to keep it.")) return;
    book = {lines: [], seating: []}; save(); say("A new Book."); render();
  });
  render();
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/book-sw.js").catch(() => {});
}

window.TricoloreBook = {closeTrial, parseCsv, toCsv, csvRows, parseSide, replay, seatingOrder, roundHalfUp, BookError};
if (document.getElementById("book-page")) startPage();
