// Let Them Eat Cake: offices, each player's Pawns, Medals, Generals and cards, the election under way,
// this round's cards and the Food Inspector's verdict.
"use strict";
Tricolore.registerBoard("let-them-eat-cake", {
  render(view, { names, h, renderValue, label }) {
    const office = (seat) => Object.entries(view.offices || {}).filter(([, s]) => s === seat).map(([o]) => h("span", { class: "badge blue" }, label(o)));
    const generals = (g) => g.pantry + g.starter;
    const players = names.map((name, seat) => h("div", { class: `player ${view.head === seat ? "active" : ""}` },
      h("h4", {}, h("span", { class: `badge ${view.colours[seat] === "red" ? "red" : ""}` }, view.colours[seat]), " ", name, " ", office(seat),
        view.guillotine === seat ? h("span", { class: "badge red" }, "on the Guillotine") : null),
      h("span", { class: "stat" }, `♟ Pawns ${view.pawns[seat]}`), h("span", { class: "stat" }, `🗳 votes ${view.votes[seat]}`),
      h("span", { class: "stat" }, `🎖 Medals ${view.medals[seat]}`), h("span", { class: "stat" }, `⚔ Generals ${generals(view.generals[seat])}`),
      h("div", { class: "muted" }, `cards: ${view.hand_cards[seat]} in hand, ${view.used_cards[seat]} used, ${view.stash_cards[seat]} in the stash`)));
    const e = view.election;
    const election = e ? h("div", {}, h("h3", {}, `Electing the ${e.title} (vote ${e.vote_number})`),
      h("p", {}, "Candidates: ", e.candidates.map((s) => names[s]).join(", ")),
      e.ballot ? h("p", {}, "Voted: ", e.ballot.seats.map((s) => `${names[s]} ${e.ballot.chosen.includes(s) ? "✓" : "…"}`).join(" · ")) : null,
      (e.tally || []).some((n) => n !== null) ? h("p", {}, "Tally: ", e.tally.map((n, s) => (n === null ? null : `${names[s]} ${n}`)).filter((t) => t !== null).join(", ")) : null,
      e.coup_by !== null ? h("p", {}, `Coup by ${names[e.coup_by]}`) : null,
      e.rigged_by && e.rigged_by.length ? h("p", {}, `Rigged by ${e.rigged_by.map((s) => names[s]).join(", ")}`) : null) : null;
    return h("div", { class: "board ltec" },
      h("p", {}, h("span", { class: "stat" }, `Round ${view.round}`), h("span", { class: "stat" }, `Phase: ${label(view.phase)}`),
        h("span", { class: "stat" }, `Pantry: ${view.pantry} cards`), h("span", { class: "stat" }, `Medals in the centre: ${view.centre_medals}`),
        h("span", { class: "stat" }, `Starter Generals: ${view.starter_generals_pile}`)),
      h("div", { class: "players" }, players), election,
      view.draw && view.draw.length ? h("div", {}, h("h3", {}, "This round's cards",
        view.inspection ? ` · the batch is ${view.inspection}` : ""), renderValue(view.draw)) : null,
      view.last_ballot ? h("details", {}, h("summary", {}, `Last ballot: ${label(view.last_ballot.office)}`),
        h("p", {}, "Cards: ", view.last_ballot.cards.map((c, s) => (c === null ? null : `${names[s]} → ${names[c]}`)).filter((t) => t !== null).join(", ")),
        h("p", {}, "Tally: ", view.last_ballot.tally.map((n, s) => (n === null ? null : `${names[s]} ${n}`)).filter((t) => t !== null).join(", "))) : null);
  },
});
