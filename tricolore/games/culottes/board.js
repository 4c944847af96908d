// Culottes: the Bastille, each player's citizens with their cakes and Cockades, the Book of trials
// and their verdicts.
"use strict";
{
const genericEvent = describeEvent; // common.js's log line, which names seats
const citizenOf = (view) => (id) => ((view.citizens || [])[id] || {}).name || `citizen ${id}`;
const side = (s) => String(s).replace("_", "-");
// Event fields that hold citizen ids (the generic log names only seats).
const CITIZEN_FIELDS = new Set(["citizen", "voter", "briber", "trial", "founder", "giver", "receiver"]);
const CITIZEN_LISTS = new Set(["citizens", "loyal", "disloyal", "idle"]);

Tricolore.registerBoard("culottes", {
  /** A log line with citizens by name. */
  describeEvent(event, { names, view = {} }) {
    const citizenName = citizenOf(view);
    const named = Object.fromEntries(Object.entries(event).map(([key, value]) => {
      if (CITIZEN_FIELDS.has(key) && Number.isInteger(value)) return [key, citizenName(value)];
      if (CITIZEN_LISTS.has(key) && Array.isArray(value) && value.every(Number.isInteger)) return [key, value.map(citizenName).join(", ")];
      return [key, value];
    }));
    return genericEvent(named, names);
  },

  /** A bribe or an alliance in a form's choice, by what it promises rather than by its number. */
  optionText(param, option, { view = {} }) {
    const citizenName = citizenOf(view);
    if (param === "deal") {
      const d = (view.deals || [])[option];
      return d ? `bribe ${d.id}: ${citizenName(d.briber)} to ${citizenName(d.voter)}, vote ${side(d.side)} on ${citizenName(d.trial)}` : null;
    }
    if (param === "alliance") {
      const a = (view.alliances || [])[option];
      return a ? `alliance ${a.id}: vote ${side(a.side)} on ${citizenName(a.trial)}` : null;
    }
    return null;
  },

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
    const citizenName = citizenOf(view);
    const verdicts = (view.closings || []).filter((c) => c.verdict).slice(-5);
    const bribes = (view.deals || []).filter((d) => d.status === "offered" || d.status === "accepted");
    const alliances = (view.alliances || []).filter((a) => a.status === "open");
    const escrow = view.escrow || { cakes: 0, deposits: [] };
    const deals = bribes.length || alliances.length || escrow.cakes ? h("div", { class: "deals" },
      h("h3", {}, "Deals kept by the engine"),
      h("ul", {}, bribes.map((d) => h("li", {},
        `Bribe ${d.id} (${d.status}): ${citizenName(d.briber)} to ${citizenName(d.voter)}, vote ${side(d.side)} on ` +
        `${citizenName(d.trial)}; if that side loses, up to ${d.cover} lost cakes back and ${d.reward} more`)),
        alliances.map((a) => h("li", {}, `Alliance ${a.id} in the trial of ${citizenName(a.trial)}: members vote ` +
          `${side(a.side)}: ${a.members.map((m) => citizenName(m.citizen)).join(", ")}`))),
      h("p", {}, `🔒 Escrow holds ${escrow.cakes} cakes` + (escrow.deposits.length ? ": " +
        escrow.deposits.map((e) => `${citizenName(e.depositor)} ${e.cakes} for ${e.for} ${e.id}`).join(", ") : ""))) : null;
    return h("div", { class: "board culottes" },
      h("p", {}, h("span", { class: "stat" }, `Turn ${view.turn}`), h("span", { class: "stat" }, `Phase: ${label(view.phase)}`),
        h("span", { class: "stat" }, `Step ${view.step}`), h("span", { class: "stat" }, `🏰 Bastille: ${view.bastille} cakes`),
        view.last_roll ? h("span", { class: "stat" }, `🎲 ${view.last_roll}`) : null),
      h("div", { class: "players" }, owners),
      deals,
      view.book && view.book.length ? h("div", {}, h("h3", {}, "Book of Public Safety"), renderValue(view.book.map((r) => ({ ...r, voter: citizenName(r.voter), citizen: citizenName(r.citizen) })))) : null,
      verdicts.length ? h("div", {}, h("h3", {}, "Verdicts"), h("ul", {}, verdicts.map((c) => h("li", {},
        `${citizenName(c.citizen)}: ${label(c.verdict)} (${c.winning_cakes} against ${c.lost_cakes}, turn ${c.turn})`)))) : null,
      view.role_choice ? h("div", {}, h("h3", {}, "Role choice"), renderValue(view.role_choice)) : null,
      view.you && view.you.sealed_name ? h("p", { class: "muted" }, `Your first citizen's name, sealed with your role: ${view.you.sealed_name}`) : null);
  },
});
}
