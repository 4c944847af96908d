// Culottes: the Bastille, each player's citizens with their cakes and Cockades, the Book of trials.
"use strict";
Tricolore.registerBoard("culottes", {
  render(view, { names, h, renderValue, label }) {
    const owners = names.map((name, seat) => h("div", { class: `player ${view.current_player === seat ? "active" : ""}` },
      h("h4", {}, name, view.agrees_to_end && view.agrees_to_end[seat] ? h("span", { class: "badge" }, "agrees to end") : null),
      h("div", {}, (view.citizens || []).filter((c) => c.owner === seat).map((c) => h("div", { class: "citizen" },
        h("b", {}, c.name), " ",
        h("span", { class: "stat" }, `🍰 ${c.cakes}`), h("span", { class: "stat" }, `🎗 ${c.cockades}`),
        c.bastille_cakes ? h("span", { class: "stat" }, `Bastille 🍰 ${c.bastille_cakes}`) : null,
        c.emigrated ? h("span", { class: "badge" }, "emigrated") : null,
        c.status !== "none" ? h("span", { class: "badge red" }, label(c.status)) : null,
        c.scales ? h("span", { class: "muted" }, ` scales: sans-culotte ${c.scales.sans_culotte} · privileged ${c.scales.privileged}`) : null)))));
    return h("div", { class: "board culottes" },
      h("p", {}, h("span", { class: "stat" }, `Turn ${view.turn}`), h("span", { class: "stat" }, `Phase: ${label(view.phase)}`),
        h("span", { class: "stat" }, `Step ${view.step}`), h("span", { class: "stat" }, `🏰 Bastille: ${view.bastille} cakes`),
        view.last_roll ? h("span", { class: "stat" }, `🎲 ${view.last_roll}`) : null),
      h("div", { class: "players" }, owners),
      view.book && view.book.length ? h("div", {}, h("h3", {}, "Book of Public Safety"), renderValue(view.book)) : null,
      view.role_choice ? h("div", {}, h("h3", {}, "Role choice"), renderValue(view.role_choice)) : null);
  },
});
