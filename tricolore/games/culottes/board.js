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
  agree_end: "Agree to end", offer_bribe: "Bribe", accept_bribe: "Accept a bribe", decline_bribe: "Decline a bribe",
  withdraw_bribe: "Withdraw a bribe", found_alliance: "Found an alliance", join_alliance: "Join an alliance", counter_bribe: "Counter-offer",
};
const side = (s) => (s === "sans_culotte" ? "sans-culotte" : s === "privileged" ? "privileged" : String(s));
const roleName = (r) => (r === "revolutionary" ? "Revolutionary" : r === "grabber" ? "Grabber" : String(r));
const citizenOf = (view) => (id) => (id === "Bastille" ? "the Bastille" : ((view.citizens || [])[id] || {}).name || "a citizen");
const ownerOf = (view, names) => (id) => names[((view.citizens || [])[id] || {}).owner] || "someone";
const { list, plural } = Kit;
const dealById = (view, id) => (view.deals || []).find((d) => d.id === id);
const allianceById = (view, id) => (view.alliances || []).find((a) => a.id === id);

// Rule terms of the deals, each with its plain meaning (drawn with Kit.term: a dotted word whose
// tooltip and spoken label say it).
const TERMS = {
  bribe: "a P+ε bribe (P plus epsilon): if the bribed citizen votes the briber's side and that side loses, the briber makes good its lost cakes and adds a reward",
  escrow: "cakes the engine holds until the trial closes, then pays out by the deal's terms",
  cover: "the lost cakes paid back: the bribed citizen's cakes on that side, at most this many",
  reward: "the ε (epsilon): cakes paid on top of the lost cakes",
  alliance: "its members deposit 1 cake each and vote its side; who votes the other side forfeits the deposit to the loyal members",
  deposit: "1 cake held in escrow: back to a member who keeps the promise or does not vote, lost by one who votes the other side",
};
const term = (word, key) => Kit.term(word, TERMS[key]);
const PARAM_LABELS = {
  offer_bribe: { from: "briber", voter: "citizen bribed", reward: "reward (cakes on top)", cover: "lost cakes paid back, at most" },
  counter_bribe: { to: "briber's player", deal: "bribe", reward: "reward (cakes on top)", cover: "lost cakes paid back, at most" },
  found_alliance: { from: "founder" },
  join_alliance: { citizen: "member" },
  give_cakes: { from: "giver", to: "receiver" },
};

/** The Book row that opened a deal's trial tells whether that trial is still open, or was closed
 * at the latest verdict (what players still want to see of a deal). */
function dealTrialState(view, opened) {
  const row = (view.book || [])[opened - 1];
  if (!row || row.closing === null || row.closing === undefined) return "open";
  const last = Math.max(0, ...(view.closings || []).map((c) => c.closing));
  return row.closing === last ? "just closed" : "old";
}

/** A bribe's promise in the rulebook's words, its rule terms explained: "Robespierre bribes Danton to
 * vote privileged on Marat: if privileged loses, Danton gets back up to 5 lost cakes and 2 more." */
function bribePromise(b, name) {
  const briber = b.briber === undefined ? "Your citizen" : name(b.briber);
  const voter = b.voter === undefined ? "… (the citizen bribed)" : name(b.voter);
  const trial = b.trial === undefined ? "… (choose a pan of a trial)" : name(b.trial);
  const s = b.side === undefined ? "…" : side(b.side);
  return [briber, " ", term("bribes", "bribe"), ` ${voter} to vote ${s} on ${trial}: if ${s} loses, ${voter} gets back `,
    term(`up to ${plural(b.cover ?? 0, "lost cake")}`, "cover"), " and ", term(`${b.reward ?? 0} more`, "reward"), "."];
}

/** The escrow of a bribe: what the briber puts in now (a draft), what it holds (an offer in
 * force), or what it held (one answered or settled). */
function bribeEscrow(b, name, now) {
  const cakes = plural((b.reward ?? 0) + (b.cover ?? 0), "cake");
  if (now) return [` ${b.briber === undefined ? "Your citizen" : name(b.briber)} puts ${cakes} in `, term("escrow", "escrow"), " now."];
  const held = b.status === "offered" || b.status === "accepted";
  return [` ${cakes} ${held ? "held" : "were held"} in `, term("escrow", "escrow"), "."];
}

function bribeText(d, name) {
  return `${name(d.briber)} bribes ${name(d.voter)} to vote ${side(d.side)} on ${name(d.trial)}`;
}

/** A counter-offer's terms: "Robespierre's bribe to Danton: Danton votes privileged on Marat if,
 * when privileged loses, Danton gets back up to 6 lost cakes and 3 more (9 cakes in escrow)." */
function counterTerms(d, { reward = 0, cover = 0 }, name) {
  const voter = name(d.voter);
  return [`${name(d.briber)}'s `, term("bribe", "bribe"), ` to ${voter}: ${voter} votes ${side(d.side)} on ${name(d.trial)} if, when ${side(d.side)} loses, ${voter} gets back `,
    term(`up to ${plural(cover, "lost cake")}`, "cover"), " and ", term(`${reward} more`, "reward"), ` (${plural(reward + cover, "cake")} in `, term("escrow", "escrow"), ")."];
}

/** A deal being drafted in one sentence, its rule terms explained (a node), or null. */
function dealSummary(type, values, { view, names, seat }) {
  const name = citizenOf(view);
  const who = (id, fallback) => (id === undefined ? fallback : name(id));
  if (type === "offer_bribe") {
    return Kit.sentence(...bribePromise({ ...values, briber: values.from }, name), ...bribeEscrow({ ...values, briber: values.from }, name, true));
  }
  if (type === "counter_bribe") {
    const d = dealById(view, values.deal);
    if (!d) return null;
    return Kit.sentence(`${names[seat]} counters `, ...counterTerms(d, values, name),
      ` The bribe offered now (up to ${plural(d.cover, "lost cake")} and ${d.reward} more) is declined.`);
  }
  if (type === "found_alliance") {
    return Kit.sentence(`${who(values.from, "Your citizen")} founds an `, term("alliance", "alliance"),
      ` voting ${values.side === undefined ? "…" : side(values.side)} on ${who(values.trial, "… (choose a pan of a trial)")} and puts a 1-cake `,
      term("deposit", "deposit"), " in ", term("escrow", "escrow"), ".");
  }
  if (type === "join_alliance") {
    const a = allianceById(view, values.alliance);
    return Kit.sentence(`${who(values.citizen, "Your citizen")} joins the `, term("alliance", "alliance"),
      a ? ` voting ${side(a.side)} on ${name(a.trial)}` : "", " and puts a 1-cake ", term("deposit", "deposit"), " in ", term("escrow", "escrow"), ".");
  }
  if (type === "give_cakes") {
    return `${who(values.from, "Your citizen")} gives ${plural(values.cakes ?? 0, "cake")} to ${who(values.to, "… (choose a citizen)")}: a gift, kept whatever happens.`;
  }
  return null;
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
    case "bribe_offered": return `${name(e.briber)} offers ${name(e.voter)} a bribe: vote ${side(e.side)} on ${name(e.trial)}; if that side loses, up to ${plural(e.cover, "lost cake")} back and ${e.reward} more (${plural(e.deposit, "cake")} held in escrow: kept by the table until the trial closes).`;
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

/** Where a trial's escrow is drawn: its scale card while the trial is open, else the strongbox
 * (drawn after every scale, so the first match is the scale while there is one). */
const escrowAt = (trial) => `[data-key=scale-${trial}], [data-key=escrow]`;

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
  const drafting = ctx.draft ? ctx.draft.type : null;
  const dealOnPans = ctx.can && (drafting === "offer_bribe" || drafting === "found_alliance") ? drafting : null;
  const deposits = (what, id) => (view.escrow ? view.escrow.deposits : []).filter((e) => e.for === what && e.id === id);
  /** A deal in force on its trial's scale card: the bribe's escrow, or the alliance's members and deposits. */
  const dealLine = (deal, x, dy, w) => {
    if (deal.members) {
      const held = deposits("alliance", deal.id);
      const members = deal.members.map((m) => `${name(m.citizen)} ${plural((held.find((e) => e.depositor === m.citizen) || { cakes: 0 }).cakes, "cake")}`);
      const node = K.g({ "data-key": `alliance-${deal.id}`, class: "deal-line" },
        K.rect(x, dy - 9, w, 18, { rx: 4, fill: deal.side === "sans_culotte" ? "#e6ecff" : "#fde9e6", stroke: "#6b5a2a", "stroke-dasharray": "3 2" }),
        K.count("cake", held.reduce((n, e) => n + e.cakes, 0), x + 12, dy, { size: 14 }),
        K.label(x + 42, dy, `Alliance ${side(deal.side)}: ${deal.members.map((m) => name(m.citizen)).join(", ")}`, { max: w - 46, size: 14, min: 11 }));
      K.tip(node, `The alliance voting ${side(deal.side)} on ${name(deal.trial)}: ${TERMS.alliance}. Members and their deposits in escrow (${TERMS.escrow}): ${members.join(", ")}.`);
      return ctx.choice ? ctx.choice(node, "join_alliance", "alliance", deal.id, `Join the alliance voting ${side(deal.side)} on ${name(deal.trial)}`) : node;
    }
    const node = K.g({ "data-key": `escrow-bribe-${deal.id}`, class: "deal-line" },
      K.rect(x, dy - 9, w, 18, { rx: 4, fill: "#fff1c2", stroke: "#8c6d1f", "stroke-dasharray": deal.status === "offered" ? "3 2" : null }),
      K.count("cake", deal.deposit, x + 12, dy, { size: 14 }),
      K.label(x + 44, dy, `${name(deal.briber)} → ${name(deal.voter)} (${deal.status})`, { max: w - 50, size: 14, min: 11 }));
    return K.tip(node, `${bribeText(deal, name)}; if ${side(deal.side)} loses, up to ${plural(deal.cover, "lost cake")} back and ${deal.reward} more. ` +
      `${name(deal.briber)}'s ${plural(deal.deposit, "cake")} are in escrow: ${TERMS.escrow}.`);
  };

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
  // the escrow: a strongbox beside the die; drawn last (see below) so that a moment's selector
  // "[data-key=scale-N], [data-key=escrow]" finds a trial's scale first while it is drawn
  const escrow = view.escrow || { cakes: 0, deposits: [] };
  const dealsOn = !!(view.options && view.options.deals);
  const strongbox = dealsOn ? K.tip(K.g({ "data-key": "escrow", transform: `translate(${pad + 196} 30)` },
    K.rect(0, 10, 72, 50, { rx: 6, fill: "#8c6d1f", stroke: "#4a3a10", "stroke-width": 2 }),
    K.path("M0,22 Q36,-4 72,22", { fill: "#a88632", stroke: "#4a3a10", "stroke-width": 2 }),
    K.rect(30, 26, 12, 12, { rx: 2, fill: "#e8d9a8", stroke: "#4a3a10" }),
    K.text(36, 54, String(escrow.cakes), { anchor: "middle", size: 14, fill: "#fff", "font-weight": 700, "data-key": "escrow-cakes" }),
    K.text(36, 76, "escrow", { anchor: "middle", size: 14 })),
  `Escrow: ${TERMS.escrow}. It holds ${plural(escrow.cakes, "cake")} now.`) : null;
  const infoX = pad + (dealsOn ? 285 : 190);
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
    const inForce = (c) => [...(view.deals || []).filter((d) => d.trial === c.id && (d.status === "offered" || d.status === "accepted")),
      ...(view.alliances || []).filter((a) => a.trial === c.id && a.status === "open")];
    const most = Math.max(0, ...trials.map((c) => inForce(c).length));
    const th = 128 + (most ? 8 + most * 20 : 0);
    const tw = most ? Math.min(360, width - 2 * pad) : 250; // room for a deal's line
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
        if (dealOnPans && ctx.can(dealOnPans, "trial", c.id) && ctx.can(dealOnPans, "side", which)) {
          const chosen = ctx.picked(dealOnPans, "trial") === c.id && ctx.picked(dealOnPans, "side") === which;
          K.choice(node, { value: which, label: `${dealOnPans === "offer_bribe" ? "Bribe to vote" : "An alliance voting"} ${side(which)} on ${c.name}`,
            chosen, onPick: () => ctx.pickMany(dealOnPans, { trial: c.id, side: which }) });
        } else if (ctx.can && ctx.can("cake_vote", "citizen", c.id) && ctx.can("cake_vote", "side", which)) {
          K.choice(node, { value: which, label: `Vote that ${c.name} is ${side(which)}`, chosen: picked, onPick: () => ctx.pickMany("cake_vote", { citizen: c.id, side: which }) });
        }
        return node;
      };
      parts.push(K.g({ transform: `translate(${x} ${ty})`, "data-key": `scale-${c.id}` },
        K.rect(0, 0, tw, th, { rx: 8, fill: "#fffdf6", stroke: "#d8ccb0" }),
        K.text(tw / 2, 16, c.scales ? `Trial of ${c.name}` : `${c.name}: a new trial`, { anchor: "middle", size: 16, "font-weight": 700 }),
        K.tip(K.g({}, K.line(tw / 2, 30, tw / 2, 54, { "stroke-width": 3 }), K.line(tw / 2 - 70, 40 + tilt, tw / 2 + 70, 40 - tilt, { "stroke-width": 3 }),
          K.circle(tw / 2, 30, 5, { fill: "#6b5a2a" })), RULES.scale),
        pan("sans_culotte", 12, scales.sans_culotte), pan("privileged", tw - 116, scales.privileged),
        inForce(c).map((deal, k) => dealLine(deal, 8, 136 + k * 20, tw - 16))));
    });
    y += Math.ceil(trials.length / per) * (th + 10) + 4;
  }

  // -- each player's citizen sheets, one column per player; a deal being drafted picks its citizens
  // here: one of yours pays (or joins), another player's is bribed (or receives)
  const SHEET_PARAMS = { offer_bribe: [["from", "pays the bribe"], ["voter", "is bribed"]], found_alliance: [["from", "founds the alliance"]],
    join_alliance: [["citizen", "joins the alliance"]], give_cakes: [["from", "gives the cakes"], ["to", "receives the cakes"]] };
  const sheetPick = (c) => {
    if (!ctx.can || !SHEET_PARAMS[drafting]) return null;
    const found = SHEET_PARAMS[drafting].find(([param]) => ctx.can(drafting, param, c.id));
    return found ? { param: found[0], text: `${c.name} ${found[1]}` } : null;
  };
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
        const bribed = (view.deals || []).filter((d) => d.voter === c.id && d.status === "accepted");
        if (bribed.length) {
          sheet.appendChild(K.tip(K.g({ "data-key": `bribed-${c.id}`, class: "bribe-mark" },
            K.rect(sw - 64, 88, 58, 20, { rx: 10, fill: "#fff1c2", stroke: "#8c6d1f" }),
            K.text(sw - 35, 98, bribed.length > 1 ? `bribed ×${bribed.length}` : "bribed", { anchor: "middle", size: 13, "font-weight": 700 })),
          `${bribed.map((d) => `${bribeText(d, name)}; if that side loses, up to ${plural(d.cover, "lost cake")} back and ${d.reward} more`).join(". ")}. ` +
            "Accepted: the promise binds until the trial closes."));
        }
        const dealPick = sheetPick(c);
        if (dealPick) choice(sheet, drafting, dealPick.param, c.id, dealPick.text);
        else if (ctx.can && ctx.can("cake_vote", "citizen", c.id)) choice(sheet, "cake_vote", "citizen", c.id, `Cake-vote on ${c.name}`);
        parts.push(sheet);
      });
      tallest = Math.max(tallest, 28 + own.length * (sh + 8));
    });
    y += tallest;
  }
  if (strongbox) parts.push(strongbox);
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
  const deposit = (e) => {
    const what = e.for === "bribe" ? dealById(view, e.id) : allianceById(view, e.id);
    const about = !what ? e.for : e.for === "bribe" ? `a bribe to ${name(what.voter)}` : `the alliance on ${name(what.trial)}`;
    return `${name(e.depositor)} ${e.cakes} for ${about}`;
  };
  // one readable line per deal in force (the drawing's words shrink on a phone)
  const deals = bribes.length || alliances.length || escrow.cakes ? h("div", { class: "deals", "data-testid": "deals" },
    h("h3", {}, "Deals held in ", term("escrow", "escrow")),
    h("ul", {}, bribes.map((d) => h("li", {},
      `${d.status === "offered" ? "Offered" : "Accepted"}: ${bribeText(d, name)}; if that side loses, up to ${plural(d.cover, "lost cake")} back and ${d.reward} more`)),
    alliances.map((a) => h("li", {}, `Alliance voting ${side(a.side)} on ${name(a.trial)}: ${a.members.map((m) => name(m.citizen)).join(", ")}`))),
    h("p", {}, term("Escrow", "escrow"), ` holds ${plural(escrow.cakes, "cake")}` + (escrow.deposits.length ? ": " + escrow.deposits.map(deposit).join(", ") : ""))) : null;
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
    return { cake_vote: ["citizen", "side"], choose_role: ["role"], offer_bribe: ["from", "trial", "voter", "side"],
      found_alliance: ["trial", "side", "from"], join_alliance: ["alliance", "citizen"], give_cakes: ["from", "to"],
      counter_bribe: ["to", "deal"] };
  },

  /** A deal's parameters in players' words (the steppers' labels and the hints). */
  paramLabel(type, param) {
    return (PARAM_LABELS[type] || {})[param] || null;
  },

  /** Buttons on another player's panel: bribe one of their citizens, propose an alliance, give cakes. */
  dealStarters(seat, ctx) {
    const theirs = (ctx.view.citizens || []).filter((c) => c.owner === seat);
    const starters = theirs.filter((c) => ctx.can("offer_bribe", "voter", c.id))
      .map((c) => ({ label: `Bribe ${c.name}…`, type: "offer_bribe", values: { voter: c.id } }));
    starters.push({ label: "Propose an alliance…", type: "found_alliance", values: {} });
    const receivers = theirs.filter((c) => ctx.can("give_cakes", "to", c.id));
    if (receivers.length) starters.push({ label: "Give cakes…", type: "give_cakes", values: receivers.length === 1 ? { to: receivers[0].id } : {} });
    return starters;
  },

  /** A counter-offer to a bribe: the bribed side asks the briber for other terms. The engine does not
   * keep it (it is a private message with its terms); sending it declines the bribe it answers, so
   * the briber's deposit comes back for a new offer. */
  proposalFamilies(ctx) {
    const { view, names, seat } = ctx;
    const name = citizenOf(view);
    const open = (view.deals || []).filter((d) => d.status === "offered" && d.payee === seat);
    if (!open.length) return [];
    const payers = [...new Set(open.map((d) => d.payer))];
    const most = Math.max(...open.map((d) => ((view.citizens || [])[d.briber] || { cakes: 0 }).cakes + d.deposit - 1));
    return [{ type: "counter_bribe", help: "Ask the briber for other terms; the bribe offered now is declined",
      params: [
        { name: "to", domain: { kind: "choice", options: payers, labels: payers.map((p) => names[p]) } },
        { name: "deal", domain: { kind: "choice", options: open.map((d) => d.id), labels: open.map((d) => `${name(d.briber)}'s bribe to ${name(d.voter)}`) } },
        { name: "reward", domain: { kind: "amount", low: 1, high: Math.max(1, most) } },
        { name: "cover", domain: { kind: "amount", low: 1, high: Math.max(1, most) } }],
      also: (values) => ({ type: "decline_bribe", deal: values.deal }) }];
  },

  /** What a deal still lacks beyond its parameters: the briber's cakes for reward and lost cakes together. */
  complete(type, values, { view }) {
    const name = citizenOf(view);
    if (type === "offer_bribe" && values.from !== undefined && values.reward !== undefined && values.cover !== undefined) {
      const c = (view.citizens || [])[values.from];
      if (c && values.reward + values.cover > c.cakes) return `${c.name} has ${plural(c.cakes, "cake")} for the reward and the lost cakes together.`;
    }
    if (type === "counter_bribe" && values.deal !== undefined) {
      const d = dealById(view, values.deal);
      if (!d) return "That bribe is no longer offered.";
      if (values.to !== d.payer) return `The counter-offer goes to the player of ${name(d.briber)}, who offered the bribe.`;
      const c = (view.citizens || [])[d.briber];
      const budget = (c ? c.cakes : 0) + d.deposit;
      if ((values.reward ?? 0) + (values.cover ?? 0) > budget) return `${name(d.briber)} has ${plural(budget, "cake")} for the reward and the lost cakes together.`;
    }
    return null;
  },

  /** Offers as cards under the status bar: bribes to answer (Accept, Decline, Counter), bribes to
   * withdraw, counter-offers to answer, deals in force and just settled, alliances to join. */
  offers(ctx) {
    const { view, names, seat } = ctx;
    const name = citizenOf(view);
    const cards = [];
    const relevant = (opened) => dealTrialState(view, opened) !== "old";
    const answerable = ctx.offered("accept_bribe") ? ctx.offered("accept_bribe").params[0].domain.options : [];
    const withdrawable = ctx.offered("withdraw_bribe") ? ctx.offered("withdraw_bribe").params[0].domain.options : [];
    for (const d of view.deals || []) {
      const mine = d.payer === seat || d.payee === seat;
      if (!relevant(d.opened_row) || (!mine && d.status !== "accepted")) continue;
      const closed = dealTrialState(view, d.opened_row) !== "open";
      const status = {
        offered: d.payee === seat ? "for you to answer" : `waiting for ${names[d.payee]}`,
        accepted: "accepted: it binds both until the trial closes",
        declined: "declined: the deposit went back",
        withdrawn: "withdrawn: the deposit went back",
        paid: `settled: ${name(d.voter)} was paid ${plural(d.paid, "cake")}, the rest went back`,
        lapsed: closed ? "settled: nothing was owed, the deposit went back" : "lapsed: the deposit went back",
      }[d.status] || d.status;
      const buttons = [];
      if (d.status === "offered" && answerable.includes(d.id)) {
        buttons.push({ label: "Accept", testid: "accept-bribe", act: { type: "accept_bribe", deal: d.id } },
          { label: "Decline", testid: "decline-bribe", act: { type: "decline_bribe", deal: d.id } },
          { label: "Counter…", testid: "counter-bribe", draft: { type: "counter_bribe", values: { to: d.payer, deal: d.id, reward: d.reward, cover: d.cover } } });
      }
      if (d.status === "offered" && withdrawable.includes(d.id)) buttons.push({ label: "Withdraw", testid: "withdraw-bribe", act: { type: "withdraw_bribe", deal: d.id } });
      cards.push({ key: `bribe-${d.id}`, sentence: Kit.sentence(...bribePromise(d, name), ...bribeEscrow(d, name, false)), status,
        from: d.payer, to: d.payee, awaiting: d.status === "offered" && d.payee === seat, buttons });
    }
    for (const p of ctx.proposals || []) {
      if (p.kind !== "counter_bribe") continue;
      const d = dealById(view, p.values.deal);
      if (!d || !relevant(d.opened_row)) continue;
      const answer = (p.answers || []).find((a) => a.from === p.to);
      const asked = p.to === seat;
      const status = answer ? (answer.accepted ? `${asked ? "you" : names[p.to]} offered these terms` : `${asked ? "you" : names[p.to]} said no`)
        : asked ? "for you to answer" : `waiting for ${names[p.to]}`;
      const buttons = asked && !answer ? [
        { label: "Offer these terms", testid: "offer-these-terms", answer: { proposal: p.number, accepted: true },
          draft: { type: "offer_bribe", values: { from: d.briber, trial: d.trial, voter: d.voter, side: d.side, reward: p.values.reward, cover: p.values.cover } } },
        { label: "No", testid: "refuse-counter", answer: { proposal: p.number, accepted: false } }] : [];
      cards.push({ key: `proposal-${p.number}`, status, from: p.from, to: p.to, awaiting: asked && !answer, buttons,
        sentence: Kit.sentence(`${p.from === seat ? "You" : names[p.from]} counter${p.from === seat ? "" : "s"} `, ...counterTerms(d, p.values, name),
          ` The first offer (up to ${plural(d.cover, "lost cake")} and ${d.reward} more) is declined.`) });
    }
    const joinable = ctx.offered("join_alliance") ? ctx.offered("join_alliance").params[0].domain.options : [];
    for (const a of view.alliances || []) {
      if (!relevant(a.opened_row) || a.status === "dissolved") continue;
      const members = a.members.map((m) => name(m.citizen));
      const buttons = joinable.includes(a.id) ? [{ label: "Join…", testid: "join-alliance", draft: { type: "join_alliance", values: { alliance: a.id } } }] : [];
      cards.push({ key: `alliance-${a.id}`, from: ((view.citizens || [])[a.founder] || {}).owner ?? null, to: null, awaiting: false, buttons,
        status: a.status === "open" ? "open: its members vote its side until the trial closes" : "settled when the trial closed",
        sentence: Kit.sentence(`${name(a.founder)}'s `, term("alliance", "alliance"), ` voting ${side(a.side)} on ${name(a.trial)}: ${list(members)}, each `,
          a.status === "open" ? "with a 1-cake " : "having put a 1-cake ", term("deposit", "deposit"), " in ", term("escrow", "escrow"), ".") });
    }
    return cards;
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
  summary(type, values, ctx) {
    const { view } = ctx;
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
    return dealSummary(type, values, ctx);
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
      case "trial_closed": return { select: `[data-key=verdict], [data-key=citizen-${event.citizen}]`, ms: 600, say: `Verdict: ${verdictText(event, name)}`, keep: true };
      case "cake_vote": return { select: `[data-key=pan-${event.citizen}-${event.side}]`, say: describe(event, { names: [], view }),
        fly: [[`[data-key=citizen-${event.voter}]`, `[data-key=pan-${event.citizen}-${event.side}]`]] };
      case "donated": return { select: "[data-key=bastille]", say: describe(event, { names: [], view }), fly: [[`[data-key=citizen-${event.citizen}]`, "[data-key=bastille]"]] };
      case "bastille_distribution": return { select: ["[data-key=bastille]", ...event.citizens.map((c) => `[data-key=citizen-${c}]`)].join(", "),
        say: describe(event, { names: [], view }), fly: event.citizens.map((c) => ["[data-key=bastille]", `[data-key=citizen-${c}]`]) };
      case "bribe_offered": return { select: `[data-key=escrow-bribe-${event.deal}]`, say: describe(event, { names: [], view }),
        fly: [[`[data-key=citizen-${event.briber}]`, escrowAt(event.trial)]] };
      case "bribe_accepted": return { select: `[data-key=bribed-${event.voter}], [data-key=escrow-bribe-${event.deal}]`, say: describe(event, { names: [], view }) };
      case "bribe_declined": case "bribe_withdrawn": case "bribe_lapsed": {
        const d = dealById(view, event.deal);
        if (!d) return null;
        return { select: `[data-key=citizen-${d.briber}]`, say: describe(event, { names: [], view }),
          fly: event.returned ? [[escrowAt(d.trial), `[data-key=citizen-${d.briber}]`]] : [] };
      }
      case "bribe_settled": {
        const d = dealById(view, event.deal);
        const fly = [];
        if (event.reimbursed + event.reward) fly.push([escrowAt(d ? d.trial : -1), `[data-key=citizen-${event.voter}]`]);
        if (event.returned) fly.push([escrowAt(d ? d.trial : -1), `[data-key=citizen-${event.briber}]`]);
        return { select: `[data-key=citizen-${event.voter}], [data-key=citizen-${event.briber}]`, say: describe(event, { names: [], view }), fly, ms: 600 };
      }
      case "alliance_founded": return { select: `[data-key=scale-${event.trial}]`, say: describe(event, { names: [], view }) };
      case "alliance_joined": {
        const a = allianceById(view, event.alliance);
        return { select: `[data-key=alliance-${event.alliance}]`, say: describe(event, { names: [], view }),
          fly: [[`[data-key=citizen-${event.citizen}]`, a ? escrowAt(a.trial) : "[data-key=escrow]"]] };
      }
      case "alliance_settled": case "alliance_dissolved": {
        const a = allianceById(view, event.alliance);
        const paid = a ? a.members.map((m) => m.citizen).filter((c) => !(event.disloyal || []).includes(c)) : [];
        return { select: paid.map((c) => `[data-key=citizen-${c}]`).join(", ") || "[data-key=escrow]", say: describe(event, { names: [], view }),
          fly: paid.map((c) => [escrowAt(a.trial), `[data-key=citizen-${c}]`]), ms: 600 };
      }
      case "cakes_given": return { select: `[data-key=citizen-${event.receiver}]`, say: describe(event, { names: [], view }),
        fly: [[`[data-key=citizen-${event.giver}]`, `[data-key=citizen-${event.receiver}]`]] };
      case "cockade_bought": case "emigrated": case "vive_la_revolution":
        return { select: `[data-key=citizen-${event.citizen}]`, say: describe(event, { names: [], view }) };
      default: return null;
    }
  },
});
}
