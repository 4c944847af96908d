// The revolutionary trials (Culottes' tutorial): the accused, the statement, the debate and the votes.
"use strict";
Tricolore.registerBoard("culottes-trials", {
  render(view, { names, h, renderValue }) {
    return h("div", { class: "board trials" },
      h("p", {}, h("span", { class: "stat" }, `Trial ${view.trial} of ${view.trials_total}`), h("span", { class: "stat" }, `Phase: ${view.phase}`)),
      view.accused !== null && view.accused !== undefined ? h("p", {}, h("b", {}, `${names[view.accused]} is accused`), view.statement ? ` and says: “${view.statement}”` : "") : null,
      view.first_vote ? h("p", {}, "First vote: ", view.first_vote.map((v, s) => (v === null ? null : `${names[s]} ${v ? "believes" : "doubts"}`)).filter((t) => t !== null).join(", ")) : null,
      h("h3", {}, "Debate"),
      h("ol", {}, (view.arguments || []).map((a) => h("li", {}, h("b", {}, names[a.seat]), ": ", a.text))),
      h("h3", {}, "Points"),
      h("div", { class: "players" }, names.map((name, seat) => h("div", { class: "player" }, h("h4", {}, name), `${view.points[seat]} points`))),
      view.history && view.history.length ? h("details", {}, h("summary", {}, "Earlier trials"), renderValue(view.history)) : null);
  },
});
