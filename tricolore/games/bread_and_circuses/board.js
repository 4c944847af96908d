// Bread and Circuses: Gold, disclosures, Sabotage, the sealed play and the Riot Counter.
"use strict";
Tricolore.registerBoard("bread-and-circuses", {
  render(view, { names, h, renderValue, label }) {
    // A deal's condition in words: what the paid player must do, and in which round.
    const breadTerms = (condition) => `${"play" in condition ? `play ${condition.play}`
      : "any_but" in condition ? `play any tile but ${condition.any_but}` : "disclose honestly"} in round ${condition.round}`;
    const deal = (d) => h("li", {}, `#${d.id}: ${names[d.payer]} pays ${names[d.payee]} ${d.amount} Gold if they ${breadTerms(d.condition)} `,
      h("span", { class: "muted" }, `(${d.offered_by === d.payer ? "offered" : "asked"} by ${names[d.offered_by]}; ${d.status}${d.status === "paid" ? ` ${d.paid}` : ""})`));
    // Last round's tiles and counts stay in view until this round's tiles are revealed.
    const last = view.last_round && !view.tiles ? view.last_round : null;
    const players = names.map((name, seat) => h("div", { class: `player ${view.first_player === seat ? "active" : ""}` },
      h("h4", {}, name, view.first_player === seat ? h("span", { class: "badge" }, "first") : null,
        view.ready && view.ready[seat] ? h("span", { class: "badge blue" }, "ready") : null),
      h("span", { class: "stat" }, `🪙 ${view.gold[seat]} Gold`), h("span", { class: "stat" }, `🃏 ${view.sabotage_cards[seat]} Sabotage`),
      h("div", {}, "Disclosure: ", view.disclosures[seat] ? h("span", { class: "badge gold" }, `tile on ${view.disclosures[seat]}`) : h("span", { class: "muted" }, "none")),
      view.tiles ? h("div", {}, "Played: ", h("b", {}, view.tiles[seat] === null ? "—" : label(view.tiles[seat]))) : null,
      last ? h("div", { class: "muted" }, `Round ${last.round}: ${label(last.tiles[seat])}`
        + (last.counts_as[seat] !== last.tiles[seat] ? ` (counted as ${label(last.counts_as[seat])})` : "")) : null));
    return h("div", { class: "board bread" },
      h("p", {}, h("span", { class: "stat" }, `Round ${view.round}`), h("span", { class: "stat" }, `Phase: ${label(view.phase)}`),
        h("span", { class: "stat" }, `🔥 Riots ${view.riots}`), h("span", { class: "stat" }, `Gold to end: ${view.gold_to_end}`),
        view.tie_break ? h("span", { class: "badge gold" }, `Tied since round ${view.tie_break.round}: the first round with one richest player ends the game`) : null),
      h("div", { class: "players" }, players),
      view.counts ? h("p", {}, "Counts: ", renderValue(view.counts)) : null,
      last ? h("p", {}, `Round ${last.round}: ${last.counts.breads} Bread, ${last.counts.circuses} Circus`,
        last.riot ? h("span", { class: "badge" }, `riot: the counter moved ${last.riot_advance}`) : " · no riot") : null,
      view.deals && view.deals.length ? h("div", {}, h("h3", {}, "Deals"), h("ul", {}, view.deals.map(deal))) : null,
      view.sabotage_played && view.sabotage_played.length ? h("details", {}, h("summary", {}, "Sabotage played"), renderValue(view.sabotage_played)) : null,
      view.history && view.history.length ? h("details", {}, h("summary", {}, "Earlier rounds"), renderValue(view.history)) : null);
  },
});
