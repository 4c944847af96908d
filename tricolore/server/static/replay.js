// The replay page: a finished table move by move, with every seat's secrets shown.
"use strict";

const replayId = decodeURIComponent(location.pathname.split("/").pop());
const replay = { number: 0, total: 0, board: null, step: null, timer: null };

async function loadStep(number) {
  const response = await fetch(`/api/tables/${encodeURIComponent(replayId)}/replay/${number}`);
  const step = await response.json();
  if (!response.ok) {
    document.getElementById("main").replaceChildren(h("p", { class: "error" }, step.detail));
    return;
  }
  replay.step = step;
  replay.number = step.number;
  replay.total = step.total;
  if (replay.board === null) replay.board = (await Tricolore.loadBoard(step.game)) || false;
  draw();
}

/** A seat's secrets drawn by the board, if it draws them. */
function secretOf(names) {
  if (!replay.board || !replay.board.secret) return null;
  return (you, seat, view) => {
    return replay.board.secret(you, { names, seat, view, h, renderValue, label, kit: Kit, mine: false });
  };
}

function draw() {
  const step = replay.step;
  const names = step.names;
  const ctx = { names, seat: null, h, renderValue, label };
  const board = replay.board ? replay.board.render(step.public, ctx) : genericBoard(step.public);
  const go = (n) => loadStep(Math.max(0, Math.min(replay.total, n)));
  const slider = h("input", { type: "range", min: 0, max: replay.total, value: replay.number, "aria-label": "move", onchange: (e) => go(Number(e.target.value)) });
  const play = h("button", { onclick: () => {
    if (replay.timer) { clearInterval(replay.timer); replay.timer = null; return draw(); }
    replay.timer = setInterval(() => (replay.number >= replay.total ? (clearInterval(replay.timer), replay.timer = null) : go(replay.number + 1)), 700);
    draw();
  } }, replay.timer ? "Pause" : "Play");
  const action = step.action ? `${names[step.action.seat]}: ${JSON.stringify(step.action.action)}` : "The table is set.";
  document.getElementById("main").replaceChildren(h("div", { class: "layout" },
    h("div", { class: "column wide" },
      h("section", { class: "status" }, h("h1", {}, "Replay"),
        h("p", { "data-testid": "replay-position" }, `Move ${replay.number} of ${replay.total}`),
        h("div", { class: "controls" }, h("button", { onclick: () => go(0) }, "⏮"), h("button", { onclick: () => go(replay.number - 1) }, "◀"),
          play, h("button", { onclick: () => go(replay.number + 1), "data-testid": "next" }, "▶"), h("button", { onclick: () => go(replay.total) }, "⏭"), slider),
        h("p", {}, h("a", { href: `/api/tables/${encodeURIComponent(replayId)}/record`, download: "" }, "Download the record (JSON)"), " — check it with ", h("code", {}, "tricolore replay --verify"))),
      step.result ? endScreen({ result: step.result, views: step.views }, names, secretOf(names)) : null,
      h("section", { class: "board-wrap", "data-testid": "board" }, board),
      h("section", { class: "reveal" }, h("h2", {}, "Every seat's secrets"), step.views.map((view, seat) => (view.you && replay.board && replay.board.secret
        ? secretOf(names)(view.you, seat, view) : secretPanel(view.you, `${names[seat]}'s secrets`))))),
    h("div", { class: "column" },
      h("section", {}, h("h2", {}, "This move"), h("p", {}, action),
        h("ol", { class: "log" }, step.events.map((e) => h("li", { class: e.to ? "private" : "" }, e.to ? `(private) to ${e.to.map((s) => names[s]).join(", ")}: ` : "", (replay.board && replay.board.describeEvent && replay.board.describeEvent(e, { names, seat: null, view: step.public })) || describeEvent(e, names))))))));
}

loadStep(0);
