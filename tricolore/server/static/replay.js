// The replay page: a finished table move by move, with every seat's secrets shown. Each move reads
// as the game's own sentences (the board's log lines), with names; the board is drawn at each step.
"use strict";

const replayId = decodeURIComponent(location.pathname.split("/").pop());
const replay = { number: 0, total: 0, board: null, step: null, timer: null, root: null, loading: null };

async function loadStep(number) {
  const asked = Math.max(0, Math.min(replay.total || number, number));
  replay.loading = asked;
  const response = await fetch(`/api/tables/${encodeURIComponent(replayId)}/replay/${asked}`);
  const step = await response.json();
  if (!response.ok) {
    stop();
    document.getElementById("main").replaceChildren(h("p", { class: "error" }, step.detail));
    replay.root = null;
    return;
  }
  if (replay.loading !== asked) return; // a later step was asked for meanwhile
  replay.step = step;
  replay.number = step.number;
  replay.total = step.total;
  if (replay.board === null) replay.board = (await Tricolore.loadBoard(step.game)) || false;
  draw();
}

/** What the board's hooks receive in the replay: names, no seat, nothing to click. */
function context(step) {
  return { names: step.names, seat: null, view: step.public, prompt: null, h, renderValue, label, kit: Kit };
}

/** A seat's secrets: the board's own panel (as told to everyone), else every field. */
function secretOf(step) {
  return (you, seat, view) => {
    const own = replay.board && replay.board.secret ? replay.board.secret(you, { ...context(step), seat, view, mine: false }) : null;
    return own || secretPanel(you, `${step.names[seat]}'s secrets`);
  };
}

/** An event in the game's words: the board's sentence, else the generic line. */
function sentence(event, step) {
  const own = replay.board && replay.board.describeEvent ? replay.board.describeEvent(event, context(step)) : null;
  return own || describeEvent(event, step.names);
}

/** Who moved, in words: "Marat's move", and what kind of move (the board's name for it) when no
 * sentence of the game tells it. */
function mover(step) {
  if (!step.action) return "The table is set.";
  const whose = `${step.names[step.action.seat]}'s move`;
  if (step.events.length) return `${whose}:`;
  const kind = step.action.action && step.action.action.type;
  const words = (replay.board && replay.board.actionLabel && replay.board.actionLabel(kind, context(step))) || label(kind || "move");
  return `${whose}: ${words}.`;
}

function stop() {
  if (replay.timer) clearInterval(replay.timer);
  replay.timer = null;
}

function go(n) {
  return loadStep(Math.max(0, Math.min(replay.total, n)));
}

function togglePlay() {
  if (replay.timer) { stop(); return draw(); }
  if (replay.number >= replay.total) go(0);
  replay.timer = setInterval(() => {
    if (replay.number >= replay.total) { stop(); draw(); } else go(replay.number + 1);
  }, 900);
  return draw();
}

function controls() {
  const button = (text, spoken, onclick, attrs = {}) => h("button", { type: "button", class: "step", "aria-label": spoken, title: spoken, onclick, ...attrs }, text);
  const slider = h("input", { type: "range", min: 0, max: replay.total, value: replay.number, "aria-label": "move",
    oninput: (e) => go(Number(e.target.value)) });
  return h("div", { class: "controls replay-controls", "data-testid": "replay-controls" },
    button("|◀", "first move", () => go(0), { disabled: replay.number === 0 }),
    button("◀", "previous move", () => go(replay.number - 1), { disabled: replay.number === 0, "data-testid": "previous" }),
    button(replay.timer ? "Pause" : "Play", replay.timer ? "pause" : "play the moves", togglePlay, { "data-testid": "play" }),
    button("▶", "next move", () => go(replay.number + 1), { disabled: replay.number >= replay.total, "data-testid": "next" }),
    button("▶|", "last move", () => go(replay.total), { disabled: replay.number >= replay.total }),
    slider);
}

function draw() {
  const step = replay.step;
  const names = step.names;
  const ctx = context(step);
  const board = replay.board ? replay.board.render(step.public, ctx) : genericBoard(step.public);
  const lines = step.events.map((e) => h("li", { class: e.to ? "private" : "" },
    e.to ? `(only ${Kit.list(e.to.map((s) => names[s]))} saw this) ` : "", sentence(e, step)));
  const secrets = step.views.map((view, seat) => [view, seat]).filter(([view]) => hasSecret(view.you));
  const fresh = h("div", { class: "layout replay" },
    h("div", { class: "column wide" },
      h("section", { class: "status", "data-testid": "status" }, h("h1", {}, "Replay"),
        h("p", { "data-testid": "replay-position" }, `Move ${replay.number} of ${replay.total}`),
        controls(),
        h("div", { class: "this-move", "data-testid": "this-move", "aria-live": "polite" },
          h("p", { class: "sentence" }, mover(step)),
          lines.length ? h("ul", { class: "log" }, lines) : null)),
      step.result ? endScreen({ result: step.result, views: step.views, strategies: step.strategies, takeovers: step.takeovers },
        names, secretOf(step), replay.board && replay.board.scoreSheet ? (final) => replay.board.scoreSheet(final, ctx) : null) : null,
      h("section", { class: "board-wrap", "data-testid": "board" }, board),
      // the end screen reveals every secret at the last move; before it they are shown here
      !step.result && secrets.length ? h("section", { class: "reveal" }, h("h2", {}, "Every secret so far"),
        secrets.map(([view, seat]) => secretOf(step)(view.you, seat, view))) : null),
    h("div", { class: "column" },
      h("section", {}, h("p", {}, h("a", { href: `/api/tables/${encodeURIComponent(replayId)}/record`, download: "" }, "Download the record (JSON)"),
        " — check it with ", h("code", {}, "tricolore replay --verify")))));
  const main = document.getElementById("main");
  if (replay.root && main.contains(replay.root)) replay.root = Kit.patch(replay.root, fresh);
  else { replay.root = fresh; main.replaceChildren(fresh); }
  // a slider the reader has dragged no longer follows its attribute: set where it stands
  const slider = replay.root.querySelector("[data-testid=replay-controls] input[type=range]");
  if (slider) slider.value = String(replay.number);
}

document.addEventListener("keydown", (e) => {
  if (!replay.step || (e.target && /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName) && e.target.type !== "range")) return;
  if (e.key === "ArrowRight") { e.preventDefault(); go(replay.number + 1); }
  if (e.key === "ArrowLeft") { e.preventDefault(); go(replay.number - 1); }
});

loadStep(0);
