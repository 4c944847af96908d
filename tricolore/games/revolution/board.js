// Revolution!: the chart of spaces, the seven areas and their markers, each player's support and chips,
// and who won each space in past rounds.
"use strict";
Tricolore.registerBoard("revolution", {
  render(view, { names, h, label }) {
    const chips = (c) => `${c.force || 0} Force · ${c.blackmail || 0} Blackmail · ${c.gold || 0} Gold`;
    const bidders = view.bids ? view.bids.seats.map((s) => `${names[s]} ${view.bids.chosen.includes(s) ? "has bid ✓" : "bidding…"}`).join(" · ") : "";
    const players = names.map((name, seat) => h("div", { class: "player" }, h("h4", {}, name),
      h("span", { class: "stat" }, `Support ${view.support[seat]}`), h("div", { class: "muted" }, chips(view.chips[seat]))));
    const areas = h("div", { class: "scroll" }, h("table", { class: "grid" },
      h("thead", {}, h("tr", {}, h("th", {}, "area"), h("th", {}, "spaces"), h("th", {}, "support"), names.map((n) => h("th", {}, n)))),
      h("tbody", {}, view.areas.map((a) => h("tr", {}, h("td", {}, a.name), h("td", {}, a.spaces), h("td", {}, a.support), a.markers.map((m) => h("td", {}, m)))))));
    const chart = h("div", { class: "scroll" }, h("table", { class: "grid" },
      h("thead", {}, h("tr", {}, h("th", {}, "space"), h("th", {}, "support"), h("th", {}, "chips"), h("th", {}, "area"), h("th", {}, "no"))),
      h("tbody", {}, (view.chart || []).map((s) => h("tr", {}, h("td", {}, s.name), h("td", {}, s.support),
        h("td", {}, Object.entries(s.chips).map(([c, n]) => `${n} ${c}`).join(", ")), h("td", {}, s.area || ""), h("td", {}, s.forbidden.join(", ")))))));
    const resolved = (view.resolved || []).filter((r) => r.winner !== null).map((r) => `${r.space}: ${names[r.winner]}`);
    const spaceNames = (view.chart || []).map((s) => s.name);
    const past = (view.past_rounds || []).slice().reverse().map((r) => h("li", {}, `Round ${r.round}: `,
      r.winners.map((w, i) => (w === null ? null : `${spaceNames[i]} ${names[w]}`)).filter((x) => x !== null).join(" · ") || "nobody won a space"));
    return h("div", { class: "board revolution" },
      h("p", {}, h("span", { class: "stat" }, `Round ${view.round}`), h("span", { class: "stat" }, `Phase: ${label(view.phase)}`),
        h("span", { class: "stat" }, `Edition: ${view.edition}`)),
      bidders ? h("p", {}, bidders) : null,
      h("div", { class: "players" }, players),
      h("h3", {}, "Areas"), areas,
      resolved.length ? h("p", {}, "Won this round: ", resolved.join(" · ")) : null,
      past.length ? h("details", {}, h("summary", {}, "Winners of past rounds"), h("ul", {}, past)) : null,
      h("details", {}, h("summary", {}, "The chart"), chart));
  },
});
