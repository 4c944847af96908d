// Culottes, drawn: the Bastille and its reserve, the die, every trial on its scale with both pans,
// each player's citizen sheets (cakes, cockades, cap or scale, emigrated), the Book of Public
// Safety in sentences, and the deals held in escrow. A cake vote, a role, a donation are built on
// the board and confirmed in the status bar. Rule texts are the rulebook's (docs/games/culottes.md).
"use strict";
{
const RULES = {
  bastille: "The Bastille holds the strategic reserve of cakes. Donations go in; at the end of each turn it gives one cake to each citizen wearing a Phrygian cap (not a scale), from the player on the left, until it is empty.",
  die: "Step 4: after a cake vote the revolutionary die is rolled. A 5 or a 6 closes the trial voted on, and the verdict is issued (step 5).",
  sansCulottePan: "Put cakes on this pan to vote that the citizen is a sans-culotte. More cakes here than on the privileged pan when the trial closes: the citizen gets a Phrygian cap.",
  privilegedPan: "Put cakes on this pan to vote that the citizen is privileged. A tie or more cakes here when the trial closes: the verdict is privileged.",
  scale: "A justice scale: this citizen is on trial. Any citizen may cake-vote sans-culotte or privileged on them (step 4).",
  cap: "The Phrygian cap: a sans-culotte verdict. A capped citizen receives Bastille cakes at the end of each turn.",
  cockade: "Step 2: buy one cockade per turn. It costs 1 point at scoring for a sans-culotte, 3 for a privileged: a way to prove, or pretend, you are a sans-culotte.",
  cakes: "The cakes on this citizen's sheet.",
  emigrated: "Step 6: this citizen has emigrated; its turns pass until it cries “Vive la révolution!” at step 1.",
  revolutionary: "Revolutionary (R): you want sans-culottes to get the Bastille's cakes and the privileged none.",
  grabber: "Grabber (G): you do not care about the revolution; you want as many cakes as possible for your own citizens, puppets included.",
  book: "The Book of Public Safety: every cake vote is written here as a row: the voter, the citizen trialed, the cakes and the side. It settles each verdict's rewards.",
};
const KIND_WORDS = {
  vive_la_revolution: "cry “Vive la révolution!”", buy_cockade: "buy a cockade", donate: "donate to the Bastille",
  cake_vote: "cake-vote on a citizen", emigrate: "emigrate", pass: "pass", recruit: "recruit a new citizen", choose_role: "choose your role",
  agree_end: "agree to end the game",
};
const ACTION_LABELS = {
  vive_la_revolution: "Vive la révolution!", buy_cockade: "Buy a cockade", donate: "Donate", cake_vote: "Cake vote",
  emigrate: "Emigrate", pass: "Pass", recruit: "Recruit", choose_role: "Choose your role", give_cakes: "Give cakes",
  agree_end: "Agree to end",
};
const side = (s) => (s === "sans_culotte" ? "sans-culotte" : s === "privileged" ? "privileged" : String(s));
const roleName = (r) => (r === "revolutionary" ? "Revolutionary" : r === "grabber" ? "Grabber" : String(r));
const citizenOf = (view) => (id) => (id === "Bastille" ? "the Bastille" : ((view.citizens || [])[id] || {}).name || "a citizen");
const ownerOf = (view, names) => (id) => names[((view.citizens || [])[id] || {}).owner] || "someone";
const { list, plural } = Kit;
const dealById = (view, id) => (view.deals || []).find((d) => d.id === id);
const allianceById = (view, id) => (view.alliances || []).find((a) => a.id === id);

function bribeText(d, name) {
  return `${name(d.briber)} bribes ${name(d.voter)} to vote ${side(d.side)} on ${name(d.trial)}`;
}

/** The last verdict in words, with each voter's payout. */
function verdictText(c, name) {
  const payouts = (c.rewards || []).filter((r) => r.returned || r.reward).map((r) =>
    `${name(r.voter)} ${r.voter === "Bastille" ? `+${r.reward}` : `${r.returned} back${r.reward ? ` and ${r.reward} more` : ""}`}`);
  const losers = (c.lost || []).map((l) => `${name(l.voter)} loses ${plural(l.cakes, "cake")}`);
  return `${name(c.citizen)} is ${c.verdict === "sans_culotte" ? "a sans-culotte and gets a Phrygian cap" : "privileged"} ` +
    `(${plural(c.winning_cakes, "winning cake")} against ${c.lost_cakes})` +
    (payouts.length ? `; ${payouts.join(", ")}` : "") + (losers.length ? `; ${losers.join(", ")}` : "") + ".";
}

function describe(event, { names, view = {}, seat = null }) {
  const name = citizenOf(view);
  const e = event;
  switch (e.kind) {
    case "role_chosen": return `${e.seat === seat ? "You" : names[e.seat]} chose to play as a ${roleName(e.role)}.`;
    case "has_chosen": return `${names[e.seat]} has chosen a role in secret.`;
    case "citizens_named": return `The first citizens are ${list(e.names)}.`;
    case "turn_started": return `Turn ${e.turn}: ${names[e.seat]} plays.`;
    case "turn_ended": return `${names[e.seat]}'s turn ends.`;
    case "vive_la_revolution": return `${name(e.citizen)} cries “Vive la révolution!” and is back from emigration.`;
    case "cockade_bought": return `${name(e.citizen)} buys a cockade.`;
    case "donated": return `${name(e.citizen)} donates ${plural(e.cakes, "cake")} to the Bastille.`;
    case "cake_vote": return `${name(e.voter)} votes ${plural(e.cakes, "cake")} that ${name(e.citizen)} is ${e.side === "sans_culotte" ? "a sans-culotte" : "privileged"}.`;
    case "die_rolled": return `The die shows ${e.roll}${e.closes_trial ? ": the trial closes." : "."}`;
    case "trial_closed": return `Verdict: ${verdictText(e, name)}`;
    case "trial_abandoned": return `The trial of ${name(e.citizen)} is abandoned; the cakes of ${plural(e.returned, "vote")} go back.`;
    case "emigrated": return `${name(e.citizen)} emigrates.`;
    case "passed": return `${name(e.citizen)} passes.`;
    case "recruited": return `${names[e.seat]} recruits a new citizen, ${e.name}.`;
    case "recruit_nature": return `${name(e.citizen)}'s secret flap says ${side(e.nature)}${e.puppet ? " (a puppet: it counts as your first citizen's nature)" : ""}.`;
    case "bastille_distribution": return `The Bastille gives one cake each to ${list(e.citizens.map(name))}.`;
    case "agrees_to_end": return `${names[e.seat]} ${e.agree ? "agrees" : "no longer agrees"} to end the game.`;
    case "end_agreed": return "Everyone agrees to end the game: each citizen plays one last turn.";
    case "cakes_given": return `${name(e.giver)} gives ${plural(e.cakes, "cake")} to ${name(e.receiver)}.`;
    case "bribe_offered": return `${name(e.briber)} offers ${name(e.voter)} a bribe: vote ${side(e.side)} on ${name(e.trial)}; if that side loses, up to ${plural(e.cover, "lost cake")} back and ${e.reward} more (${e.deposit} held in escrow).`;
    case "bribe_accepted": { const d = dealById(view, e.deal); return `${name(e.voter)} accepts ${d ? `${name(d.briber)}'s bribe` : "a bribe"}.`; }
    case "bribe_declined": { const d = dealById(view, e.deal); return `${name(e.voter)} declines ${d ? `${name(d.briber)}'s bribe` : "a bribe"}; ${plural(e.returned, "cake")} go back.`; }
    case "bribe_withdrawn": return `${name(e.briber)} withdraws a bribe; ${plural(e.returned, "cake")} go back.`;
    case "bribe_lapsed": { const d = dealById(view, e.deal); return `${d ? bribeText(d, name).replace(" bribes ", "'s bribe to ").replace(" to vote", ": vote") : "A bribe"} lapses; ${plural(e.returned, "cake")} go back.`; }
    case "bribe_settled": return `${name(e.briber)}'s bribe to ${name(e.voter)} is settled: ${e.voted_like ? "it voted as promised" : "it did not vote as promised"}` +
      `${e.reimbursed || e.reward ? `, paid ${e.reimbursed} back and ${e.reward} more` : ""}; ${plural(e.returned, "cake")} back to the briber.`;
    case "alliance_founded": return `${name(e.founder)} founds an alliance voting ${side(e.side)} on ${name(e.trial)}.`;
    case "alliance_joined": { const a = allianceById(view, e.alliance); return `${name(e.citizen)} joins the alliance${a ? ` voting ${side(a.side)} on ${name(a.trial)}` : ""}.`; }
    case "alliance_dissolved": return `An alliance is dissolved; ${plural(e.returned, "cake")} go back.`;
    case "alliance_settled": return `The alliance voting ${side(e.side)} on ${name(e.trial)} is settled: loyal ${list(e.loyal.map(name)) || "none"}` +
      `${e.disloyal.length ? `, disloyal ${list(e.disloyal.map(name))}` : ""}; ${plural(e.forfeited, "cake")} forfeited.`;
    case "game_over": return `The game is over: ${e.reason}. Scores: ${e.scores.map((s, i) => `${names[i]} ${s}`).join(", ")}.`;
    default: return null;
  }
}

/** Lay sheets out in rows that fit the width. */
function grid(count, width, cell, gap) {
  const per = Math.max(1, Math.floor((width + gap) / (cell + gap)));
  return { per, rows: Math.ceil(count / per) };
}

/** A Phrygian cap: a red bonnet with its tip folded forward. */
function capIcon(K, x, y, s = 1) {
  return K.g({ transform: `translate(${x} ${y}) scale(${s})`, class: "cap" },
    K.path("M-14,10 C-16,-6 -6,-16 6,-14 C14,-12 16,-4 10,0 C8,2 12,6 14,10 Z", { fill: "#c0392b", stroke: "#6e1a12", "stroke-width": 1.5 }),
    K.rect(-15, 8, 30, 5, { rx: 2, fill: "#1f3a93" }),
    K.circle(0, 0, 2.5, { fill: "#fff" }));
}

/** A justice scale icon. */
function scaleIcon(K, x, y) {
  return K.g({ transform: `translate(${x} ${y})`, class: "scale-icon" },
    K.line(0, -12, 0, 12, { "stroke-width": 2 }), K.line(-13, -8, 13, -8, { "stroke-width": 2 }),
    K.path("M-19,2 L-13,-8 L-7,2 Z", { fill: "#e8d9a8", stroke: "#6b5a2a" }), K.path("M7,2 L13,-8 L19,2 Z", { fill: "#e8d9a8", stroke: "#6b5a2a" }),
    K.rect(-6, 11, 12, 3, { fill: "#6b5a2a" }));
}

function render(view, ctx) {
  const { names, h, kit: K = window.Kit } = ctx;
  const name = citizenOf(view);
  const width = K.fit();
  const citizens = view.citizens || [];
  const draftCitizen = ctx.picked ? ctx.picked("cake_vote", "citizen") : undefined;
  const choice = ctx.choice || ((node) => node);
  const start = ctx.start || ((node) => node);
  const parts = [];
  const pad = 10;

  // -- the table's centre: the Bastille, the die, the turn
  const top = K.g({});
  const bastille = K.g({ "data-key": "bastille", transform: `translate(${pad} 8)` },
    K.path("M0,100 L0,22 L10,22 L10,12 L22,12 L22,22 L38,22 L38,12 L50,12 L50,22 L66,22 L66,12 L78,12 L78,22 L88,22 L88,100 Z",
      { fill: "#c9b68f", stroke: "#5b4a2a", "stroke-width": 2 }),
    K.path("M34,100 L34,72 Q44,60 54,72 L54,100 Z", { fill: "#5b4a2a" }),
    K.count("cake", view.bastille, 18, 46, { size: 20 }),
    K.text(44, 116, "Bastille", { anchor: "middle", size: 15 }));
  K.tip(bastille, `${RULES.bastille} It holds ${plural(view.bastille, "cake")} now.`);
  top.appendChild(start(bastille, "donate", "Donate cakes to the Bastille"));
  const roll = view.last_roll;
  const closing = (view.options && view.options.closing_faces) || [5, 6];
  const die = K.g({ "data-key": "die", transform: `translate(${pad + 110} 30)` },
    K.rect(0, 0, 60, 60, { rx: 10, fill: roll && closing.includes(roll) ? "#fde2df" : "#fff", stroke: "#333", "stroke-width": 2 }),
    K.text(30, 31, roll ?? "–", { anchor: "middle", size: 30, "font-weight": 700 }),
    K.text(30, 76, roll ? "last roll" : "no roll yet", { anchor: "middle", size: 14 }));
  top.appendChild(K.tip(die, RULES.die));
  const current = view.current_citizen === null || view.current_citizen === undefined ? null : citizens[view.current_citizen];
  const phaseLine = view.phase === "roles" ? "Each player chooses a role in secret"
    : view.phase === "over" ? "The game is over"
      : `Turn ${view.turn}: ${names[view.current_player]}${current ? ` plays ${current.name}` : ""}${view.step ? `, step ${view.step}` : ""}`;
  const infoX = pad + 190;
  if (width - infoX > 260) {
    top.appendChild(K.label(infoX, 40, phaseLine, { max: width - infoX - pad, size: 16, "font-weight": 700 }));
    if (view.end_agreed) top.appendChild(K.text(infoX, 64, `Last turns: ${view.final_turns_left ?? ""}`.trim(), { size: 15 }));
    top.appendChild(K.label(infoX, view.end_agreed ? 88 : 64, `${plural(citizens.length, "citizen")} · ${plural((view.book || []).length, "row")} in the Book`, { max: width - infoX - pad, size: 15 }));
  }
  let y = 146;
  if (width - infoX <= 260) {
    top.appendChild(K.label(pad, y, phaseLine, { max: width - 2 * pad, size: 16, "font-weight": 700 }));
    y += 24;
  }
  parts.push(top);

  // -- the secret choice of role: two cards
  if (ctx.offered && ctx.offered("choose_role")) {
    y += 18;
    top.appendChild(K.text(pad, y, "Your role, in secret:", { size: 16, "font-weight": 700 }));
    y += 14;
    const w = Math.min(200, (width - 3 * pad) / 2);
    ["revolutionary", "grabber"].forEach((role, i) => {
      const c = K.card({ x: pad + i * (w + pad), y, w, h: 84, title: roleName(role), lines: [role === "revolutionary" ? "sans-culottes fed" : "cakes for me"],
        tip: RULES[role], fill: role === "revolutionary" ? "#eef2ff" : "#fff4e0", "data-key": `role-${role}` });
      parts.push(choice(c, "choose_role", "role", role, `Play as a ${roleName(role)}`));
    });
    y += 100;
  }

  // -- the trials: each citizen with a scale, and the citizen chosen for a new cake vote
  const trials = citizens.filter((c) => c.scales || (c.id === draftCitizen));
  if (trials.length) {
    parts.push(K.text(pad, y + 10, "Trials", { size: 17, "font-weight": 700 }));
    y += 24;
    const tw = 250;
    const th = 128;
    const { per } = grid(trials.length, width - 2 * pad, tw, 12);
    trials.forEach((c, i) => {
      const x = pad + (i % per) * (tw + 12);
      const ty = y + Math.floor(i / per) * (th + 10);
      const scales = c.scales || { sans_culotte: 0, privileged: 0 };
      const tilt = Math.max(-8, Math.min(8, (scales.privileged - scales.sans_culotte) * 2));
      const pan = (which, px, count) => {
        const picked = ctx.picked && ctx.picked("cake_vote", "side") === which && draftCitizen === c.id;
        const node = K.g({ "data-key": `pan-${c.id}-${which}`, class: "pan" },
          K.rect(px, 58 + (which === "sans_culotte" ? tilt : -tilt), 104, 52, { rx: 10, fill: which === "sans_culotte" ? "#e6ecff" : "#fde9e6", stroke: "#6b5a2a", "stroke-width": 2 }),
          K.text(px + 52, 74 + (which === "sans_culotte" ? tilt : -tilt), side(which), { anchor: "middle", size: 14 }),
          K.count("cake", count, px + 34, 96 + (which === "sans_culotte" ? tilt : -tilt), { size: 17 }));
        K.tip(node, which === "sans_culotte" ? RULES.sansCulottePan : RULES.privilegedPan);
        if (ctx.can && ctx.can("cake_vote", "citizen", c.id) && ctx.can("cake_vote", "side", which)) {
          K.choice(node, { value: which, label: `Vote that ${c.name} is ${side(which)}`, chosen: picked, onPick: () => ctx.pickMany("cake_vote", { citizen: c.id, side: which }) });
        }
        return node;
      };
      parts.push(K.g({ transform: `translate(${x} ${ty})`, "data-key": `scale-${c.id}` },
        K.rect(0, 0, tw, th, { rx: 8, fill: "#fffdf6", stroke: "#d8ccb0" }),
        K.text(tw / 2, 16, c.scales ? `Trial of ${c.name}` : `${c.name}: a new trial`, { anchor: "middle", size: 16, "font-weight": 700 }),
        K.tip(K.g({}, K.line(tw / 2, 30, tw / 2, 54, { "stroke-width": 3 }), K.line(tw / 2 - 70, 40 + tilt, tw / 2 + 70, 40 - tilt, { "stroke-width": 3 }),
          K.circle(tw / 2, 30, 5, { fill: "#6b5a2a" })), RULES.scale),
        pan("sans_culotte", 12, scales.sans_culotte), pan("privileged", tw - 116, scales.privileged)));
    });
    y += Math.ceil(trials.length / per) * (th + 10) + 4;
  }

  // -- each player's citizen sheets, one column per player
  const sw = width < 420 ? Math.floor((width - 2 * pad - 10) / 2) : 200;
  const sh = 112;
  const owners = names.map((player, seat) => ({ player, seat, own: citizens.filter((c) => c.owner === seat) })).filter((o) => o.own.length);
  const { per } = grid(owners.length, width - 2 * pad, sw, 10);
  for (let row = 0; row < owners.length; row += per) {
    y += 8;
    let tallest = 0;
    owners.slice(row, row + per).forEach(({ player, seat, own }, col) => {
      const x = pad + col * (sw + 10);
      const colour = K.player(seat, player).colour;
      const playing = view.current_player === seat && view.phase !== "roles" && view.phase !== "over";
      parts.push(K.g({ transform: `translate(${x} ${y})` }, K.mark(seat, player, { x: 10, y: 11, r: 10 }),
        K.label(26, 12, `${player}${playing ? " ▶" : ""}${view.agrees_to_end && view.agrees_to_end[seat] ? " · agrees to end" : ""}`,
          { max: sw - 28, size: 16, "font-weight": 700, fill: colour })));
      own.forEach((c, i) => {
        const cy = y + 28 + i * (sh + 8);
        const isCurrent = view.current_citizen === c.id;
        const flap = view.reveal ? view.reveal.citizens[c.id] : null; // every flap is turned at the end
        const sheet = K.g({ transform: `translate(${x} ${cy})`, "data-key": `citizen-${c.id}`, opacity: c.emigrated ? 0.6 : 1 },
          K.rect(0, 0, sw, sh, { rx: 6, fill: c.emigrated ? "#eee" : "#fffdf6", stroke: isCurrent ? "#c0392b" : colour, "stroke-width": isCurrent ? 4 : 2 }),
          K.rect(0, 0, sw, 6, { fill: colour }),
          K.label(10, 24, c.name, { max: sw - 48, size: 17, "font-weight": 700 }),
          K.tip(K.count("cake", c.cakes, 10, 52, { size: 17, "data-key": `cakes-${c.id}` }), `${RULES.cakes} ${c.name} has ${plural(c.cakes, "cake")}.`),
          isCurrent ? start(K.tip(K.count("cockade", c.cockades, sw / 2 + 4, 52, { size: 17, "data-key": "cockade" }), RULES.cockade), "buy_cockade", `${c.name} buys a cockade`)
            : K.tip(K.count("cockade", c.cockades, sw / 2 + 4, 52, { size: 17 }), RULES.cockade),
          K.text(10, 78, `${sw < 180 ? "Bastille" : "from the Bastille"}: ${c.bastille_cakes}`, { size: 14 }),
          flap ? K.label(10, 99, `flap: ${side(flap.nature)}${flap.puppet ? ", puppet" : ""}`, { max: sw - 20, size: 14, "font-weight": 700,
            fill: flap.nature === "sans_culotte" ? "#1f3a93" : "#c0392b", "data-key": `flap-${c.id}` })
            : c.emigrated ? K.tip(K.text(10, 99, "emigrated", { size: 14, "font-style": "italic" }), RULES.emigrated)
              : isCurrent ? K.text(10, 99, "▶ playing now", { size: 14, fill: "#c0392b", "font-weight": 700 }) : null,
          c.status === "cap" ? K.tip(capIcon(K, sw - 22, 26), RULES.cap) : null,
          c.status === "scale" ? K.tip(scaleIcon(K, sw - 22, 26), RULES.scale) : null);
        if (ctx.can && ctx.can("cake_vote", "citizen", c.id)) choice(sheet, "cake_vote", "citizen", c.id, `Cake-vote on ${c.name}`);
        parts.push(sheet);
      });
      tallest = Math.max(tallest, 28 + own.length * (sh + 8));
    });
    y += tallest;
  }
  const drawing = K.svg(width, y + 8, { "aria-label": `The table: the Bastille holds ${plural(view.bastille, "cake")}`, "data-testid": "culottes-table" }, parts);

  // -- the last verdict, the Book, the deals: readable lines
  const lastVerdict = (view.closings || []).filter((c) => c.verdict).slice(-1)[0];
  const verdict = lastVerdict ? h("p", { class: "verdict", "data-key": "verdict", "data-testid": "verdict" },
    h("b", {}, `Last verdict (turn ${lastVerdict.turn}): `), verdictText(lastVerdict, name)) : null;
  const verdicts = new Map((view.closings || []).map((c) => [c.closing, c]));
  const rows = (view.book || []).map((r) => {
    const closed = verdicts.get(r.closing);
    return h("li", { "data-row": r.row }, `Turn ${r.turn}: ${name(r.voter)} voted ${plural(r.cakes, "cake")} that ${name(r.citizen)} is ${r.side === "sans_culotte" ? "a sans-culotte" : "privileged"}`,
      h("span", { class: "muted" }, closed ? (closed.verdict ? ` — closed: ${side(closed.verdict)}` : " — abandoned") : " — trial open"));
  });
  const book = h("div", { class: "book", "data-testid": "book" },
    K.tip(h("h3", {}, "Book of Public Safety"), RULES.book),
    rows.length ? h("ol", { class: "book-rows" }, rows) : h("p", { class: "muted" }, "No cake vote yet."));
  const bribes = (view.deals || []).filter((d) => d.status === "offered" || d.status === "accepted");
  const alliances = (view.alliances || []).filter((a) => a.status === "open");
  const escrow = view.escrow || { cakes: 0, deposits: [] };
  const deposit = (e) => {
    const what = e.for === "bribe" ? dealById(view, e.id) : allianceById(view, e.id);
    const about = !what ? e.for : e.for === "bribe" ? `a bribe to ${name(what.voter)}` : `the alliance on ${name(what.trial)}`;
    return `${name(e.depositor)} ${e.cakes} for ${about}`;
  };
  const deals = bribes.length || alliances.length || escrow.cakes ? h("div", { class: "deals" },
    h("h3", {}, "Deals kept by the engine"),
    h("ul", {}, bribes.map((d) => h("li", {},
      `${d.status === "offered" ? "Offered" : "Accepted"}: ${bribeText(d, name)}; if that side loses, up to ${plural(d.cover, "lost cake")} back and ${d.reward} more`)),
    alliances.map((a) => h("li", {}, `Alliance voting ${side(a.side)} on ${name(a.trial)}: ${a.members.map((m) => name(m.citizen)).join(", ")}`))),
    h("p", {}, `Escrow holds ${plural(escrow.cakes, "cake")}` + (escrow.deposits.length ? ": " + escrow.deposits.map(deposit).join(", ") : ""))) : null;
  return h("div", { class: "board culottes" }, K.legend(names), drawing, verdict, deals, book,
    view.you && view.you.sealed_name ? h("p", { class: "muted" }, `Your first citizen's name, sealed with your role: ${view.you.sealed_name}`) : null);
}

Tricolore.registerBoard("culottes", {
  render,
  describeEvent(event, ctx) {
    return describe(event, ctx) || describeEvent(event, ctx.names);
  },

  /** The parameters chosen by clicking the board: a citizen and a side for a cake vote, a role. */
  choices() {
    return { cake_vote: ["citizen", "side"], choose_role: ["role"] };
  },

  actionLabel(type) {
    return ACTION_LABELS[type] || null;
  },

  /** Moves that cannot be taken back, asked once: emigrating, and a pass that gives up the rest of a
   * citizen's steps or ends the turn. */
  irreversible(type, { view }) {
    const citizen = (view.citizens || [])[view.current_citizen];
    const who = citizen ? citizen.name : "Your citizen";
    if (type === "emigrate") return `${who} emigrates: ${who}'s turns pass until ${who} cries “Vive la révolution!” at step 1. This cannot be taken back.`;
    if (type !== "pass") return null;
    if (view.phase === "recruit") return "Pass: you recruit nobody and your turn ends. This cannot be taken back.";
    return `Pass: ${who} is done for this turn and gives up the steps left. This cannot be taken back.`;
  },

  /** The status bar's sentence: who plays which citizen, and what they may do. */
  status(view, ctx) {
    const { names, seat, prompt } = ctx;
    const waiting = (view.pending || []).filter((p) => p.seat !== seat).map((p) => names[p.seat]);
    if (view.phase === "over") {
      const result = view.result;
      if (!result) return "The game is over.";
      return `The game is over: ${Kit.winners(result, names, (n) => plural(n, "point"))}.`;
    }
    if (view.phase === "roles") {
      if (prompt && prompt.actions.length) return "You must choose your role in secret: Revolutionary or Grabber.";
      return waiting.length ? `Waiting for ${list(waiting)} to choose a role in secret.` : "";
    }
    const citizen = (view.citizens || [])[view.current_citizen];
    if (prompt && prompt.actions.length) {
      const words = [...new Set(prompt.actions.map((f) => KIND_WORDS[f.type] || f.type))];
      const choices = words.length > 1 ? `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}` : words[0];
      return view.phase === "recruit" ? `You may ${choices}.` : `You play ${citizen ? citizen.name : "your citizen"}: ${choices}.`;
    }
    if (!waiting.length) return "";
    return `Waiting for ${list(waiting)}${citizen && view.phase === "turn" ? `, who plays ${citizen.name} (step ${view.step})` : ""}.`;
  },

  /** The draft of a decision in one sentence. */
  summary(type, values, { view }) {
    const name = citizenOf(view);
    const mine = (view.citizens || [])[view.current_citizen];
    const who = mine ? mine.name : "Your citizen";
    if (type === "cake_vote") {
      return `${who} votes ${values.cakes ? plural(values.cakes, "cake") : "… cakes"} that ${values.citizen === undefined ? "…" : name(values.citizen)} is ` +
        `${values.side === undefined ? "… (choose a pan)" : values.side === "sans_culotte" ? "a sans-culotte" : "privileged"}. Then the die is rolled.`;
    }
    if (type === "donate") return `${who} donates ${plural(values.cakes || 0, "cake")} to the Bastille.`;
    if (type === "choose_role") return values.role ? `You play as a ${roleName(values.role)}.` : "Choose a role card on the board.";
    if (type === "buy_cockade") return `${who} buys a cockade.`;
    return null;
  },

  /** A choice's option in words: sides and roles as the rulebook says them, deals by what they promise. */
  optionText(param, option, { view = {} }) {
    const name = citizenOf(view);
    if (param === "side") return side(option);
    if (param === "role") return roleName(option);
    if (param === "deal") {
      const d = (view.deals || []).find((x) => x.id === option);
      return d ? `${name(d.briber)}'s bribe to ${name(d.voter)}: vote ${side(d.side)} on ${name(d.trial)}` : null;
    }
    if (param === "alliance") {
      const a = (view.alliances || []).find((x) => x.id === option);
      return a ? `the alliance voting ${side(a.side)} on ${name(a.trial)} (${a.members.map((m) => name(m.citizen)).join(", ")})` : null;
    }
    return null;
  },

  /** The score sheet: one column per player, one row per scoring step, the winner marked. */
  scoreSheet(final, { names, h }) {
    const { result } = final;
    const seats = names.map((_, seat) => seat);
    const cell = (seat, ...content) => h("td", { class: result.winners.includes(seat) ? "winner" : "" }, ...content);
    const signed = (n) => (n > 0 ? `+${n}` : String(n));
    const citizenLine = (role, c) => {
      const parts = role === "grabber" ? [`${c.cakes} cakes − ${c.cakes - c.cakes_earned} given at the start`]
        : ["the Bastille cakes given to true sans-culottes less those given to true privileged"];
      if (c.cockade_cost) parts.push(`${c.cockades} cockade${c.cockades === 1 ? "" : "s"} −${c.cockade_cost}`);
      return h("li", { title: parts.join("; ") }, h("b", {}, c.name), ` (${side(c.nature)}${c.puppet ? ", puppet" : ""}): ${signed(c.score)}`);
    };
    const row = (title, rule, make) => h("tr", {}, h("th", { scope: "row", title: rule }, title), seats.map((seat) => cell(seat, make(result.breakdown[seat], seat))));
    return h("div", { class: "scroll" }, h("table", { class: "grid score-sheet", "data-testid": "score-sheet" },
      h("thead", {}, h("tr", {}, h("th", {}, "step"), seats.map((seat) => h("th", { class: result.winners.includes(seat) ? "winner" : "" },
        result.winners.includes(seat) ? "★ " : "", names[seat], h("span", { class: "muted" }, botNote(final, seat)))))),
      h("tbody", {},
        row("1. Role", "Natures and roles are revealed.", (b) => roleName(b.role)),
        row("Bastille cakes", "Steps 3 and 4: a revolutionary's citizen scores the Bastille cakes given to true sans-culottes, less those given to true privileged.",
          (b) => (b.role !== "revolutionary" ? "—" : `+${b.bastille_to_sans_culottes} to sans-culottes` + (b.bastille_to_privileged ? `, −${b.bastille_to_privileged} to privileged` : ""))),
        row("2–7. Citizens", "Step 2: a grabber's citizen scores its cakes less the starting cakes. Steps 6 and 7: each cockade costs 1 for a sans-culotte, 3 for a privileged.",
          (b) => h("ul", { class: "plain" }, b.citizens.map((c) => citizenLine(b.role, c)))),
        row("5. Recruits", "A revolutionary loses one point per citizen recruited.", (b) => (b.role === "revolutionary" ? (b.recruit_cost ? `−${b.recruit_cost}` : "0") : "—")),
        row("8. Combined", "A grabber scores the sum of their citizens, a revolutionary the best of theirs.", (b) => (b.combined === "sum" ? "the sum" : "the best")),
        row("Score", "Highest score wins; ties share the win.", (b) => h("b", {}, String(b.score))))));
  },

  /** Each player's public counters beside their name. */
  playerStats(seat, view) {
    const own = (view.citizens || []).filter((c) => c.owner === seat);
    return own.length ? ` · ${plural(own.length, "citizen")}, ${plural(own.reduce((n, c) => n + c.cakes, 0), "cake")}` : "";
  },

  /** Your secrets: your role, and each of your citizens' flaps by name. */
  secret(you, { h, view, names, seat, mine = true }) {
    const name = citizenOf(view);
    const flaps = Object.entries(you.citizens || {}).map(([id, flap]) => h("li", {},
      h("b", {}, name(Number(id))), `: ${side(flap.nature)}`, flap.puppet ? " (a puppet: it counts as the first citizen's nature)" : ""));
    return h("section", { class: "secret", "data-testid": "secret" },
      h("h3", {}, mine ? "Secret — only you see this" : `${names[seat]}'s secrets`),
      h("p", {}, mine ? "Your role: " : "Role: ", h("b", {}, you.role ? roleName(you.role) : "not chosen yet"), you.role && mine ? ` — ${RULES[you.role]}` : ""),
      h("p", {}, mine ? "Your citizens' secret flaps:" : "Secret flaps:"), h("ul", {}, flaps));
  },

  /** Reveals as moments: the die, the verdict with its payouts, votes, gifts to the Bastille. */
  moment(event, { view }) {
    const name = citizenOf(view);
    switch (event.kind) {
      case "die_rolled": return { select: "[data-key=die]", shake: "[data-key=die]", say: `The die shows ${event.roll}${event.closes_trial ? ": the trial closes!" : "."}` };
      case "trial_closed": return { select: `[data-key=verdict], [data-key=citizen-${event.citizen}]`, ms: 600, say: `Verdict: ${verdictText(event, name)}` };
      case "cake_vote": return { select: `[data-key=pan-${event.citizen}-${event.side}]`, say: describe(event, { names: [], view }),
        fly: [[`[data-key=citizen-${event.voter}]`, `[data-key=pan-${event.citizen}-${event.side}]`]] };
      case "donated": return { select: "[data-key=bastille]", say: describe(event, { names: [], view }), fly: [[`[data-key=citizen-${event.citizen}]`, "[data-key=bastille]"]] };
      case "bastille_distribution": return { select: ["[data-key=bastille]", ...event.citizens.map((c) => `[data-key=citizen-${c}]`)].join(", "),
        say: describe(event, { names: [], view }), fly: event.citizens.map((c) => ["[data-key=bastille]", `[data-key=citizen-${c}]`]) };
      case "cockade_bought": case "emigrated": case "vive_la_revolution":
        return { select: `[data-key=citizen-${event.citizen}]`, say: describe(event, { names: [], view }) };
      default: return null;
    }
  },
});
}
