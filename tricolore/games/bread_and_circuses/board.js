// Bread and Circuses, drawn: the Riot Counter, each noble's place (Gold, Sabotage hand, the
// Disclosure card with its public icon and secret tile, the tile played and what it counts as),
// the count of Bread and Circus after the reveal, your own tiles and Sabotage cards with their
// rule text, and each binding deal as a promise by the tile spot of the noble it pays. A disclosure,
// a tile, a card, a target, a gift of Gold, a deal's tile are picked on the board and confirmed in
// the status bar; deals start from another noble's panel and are answered on their cards (offers).
// Rule texts: docs/games/bread-and-circuses.md.
"use strict";
{
const RULES = {
  riot: "The Riot Counter. Each round with no Bread or no Circus counted, the peasants riot and it moves one space. At five the game ends, and the richest noble wins.",
  disclosure: "The Disclosure card. During Negotiation a noble may put one tile face down on its Bread or Circus icon: the icon is public, the tile is secret and may be a lie. A disclosed tile is the tile played, and an honest disclosure earns 1 Gold. Never on Abstain.",
  bread: "Bread earns one Gold per Circus counted this round.",
  circus: "Circus earns one Gold per Bread counted this round.",
  abstain: "Abstain earns one Gold per Bread and per Circus when the mob is calm; in a riot it loses as many Gold as there are players (never below 0).",
  gold: "Gold. The game ends at the end of a round in which a noble has five times the number of players in Gold; the richest wins.",
  hand: "Sabotage cards held: how many, not which. Each card's timing says when it may be played: Negotiation, After Reveal or Scoring.",
  tile: "The tile played this round: placed face down during Play, shown at the Reveal.",
  counts: "The count after the reveal and every Sabotage effect: a riot if there is no Bread or no Circus.",
  first: "The first player: asked first in the After-Reveal and Scoring windows of Sabotage cards; the next player to the left is first next round.",
  purse: "Give Gold to another noble, at any time during Negotiation and the Sabotage windows.",
  deal: "Regulated bribery: a deal of N Gold if a player plays a tile, any tile but one, or discloses honestly, this round or next; binding once accepted and paid at that round's reveal.",
};
const TILE = { bread: "Bread", circus: "Circus", abstain: "Abstain" };
const TIMING = { negotiation: "Negotiation", after_reveal: "After Reveal", scoring: "Scoring" };
const CARD_RULES = {
  "Informant": ["negotiation", "Secretly look at the tile another player has placed on their Disclosure card."],
  "Public Accusation": ["negotiation", "A player with a disclosed tile takes it back and may not disclose again this round."],
  "Pickpocket": ["negotiation", "Take 1 Gold from another player."],
  "Forged Promise": ["negotiation", "This round you may disclose Abstain (beside your Disclosure card); honest if you play Abstain."],
  "Grain Hoarding": ["after_reveal", "One revealed Bread tile of another player counts as Abstain this round."],
  "Cancelled Games": ["after_reveal", "One revealed Circus tile of another player counts as Abstain this round."],
  "Secret Granary": ["after_reveal", "Your own revealed tile counts as Bread this round."],
  "Hired Acrobats": ["after_reveal", "Your own revealed tile counts as Circus this round."],
  "Charity Kitchen": ["after_reveal", "Add one Bread that belongs to nobody to the count this round."],
  "Street Players": ["after_reveal", "Add one Circus that belongs to nobody to the count this round."],
  "Exposed Lie": ["scoring", "Cancel one player's honest-disclosure bonus this round."],
  "Monopoly": ["scoring", "Your tile's payout (not the disclosure bonus) is doubled."],
  "Spoiled Supplies": ["scoring", "One other player's tile pays 0 Gold this round (their disclosure bonus still pays; an Abstain riot penalty still applies)."],
  "Bribed Magistrate": ["scoring", "If there is a riot, you do not pay the Abstain penalty this round."],
  "Rabble-Rouser": ["scoring", "If there is a riot this round, the Riot Counter advances by 2 instead of 1."],
  "Appease the Mob": ["scoring", "If there is a riot this round, the Riot Counter does not advance."],
};
/** The Sabotage cards that name another player (the rest name nobody: their target is always empty). */
const NAMES_A_PLAYER = new Set(["Informant", "Public Accusation", "Pickpocket", "Grain Hoarding", "Cancelled Games",
  "Exposed Lie", "Spoiled Supplies"]);
const ACTION_LABELS = {
  disclose: "Disclose", take_back: "Take back", play_sabotage: "Play Sabotage", ready: "Ready", withdraw_ready: "Not ready",
  play: "Place a tile", pass: "Pass", give_gold: "Give Gold", offer_deal: "Offer a deal", solicit_deal: "Ask for a deal",
  accept_deal: "Accept a deal", decline_deal: "Decline a deal", withdraw_deal: "Withdraw a deal",
};
const PARAM_LABELS = { tile: "tile", icon: "icon", card: "card", target: "player named", to: "player", gold: "Gold",
  condition: "condition", when: "round", deal: "deal" };
const CONDITION_WORDS = { play: "plays the tile", any_but: "any tile but that one", honest: "honestly (tile on the icon)" };

const { list, plural } = Kit;
const tileName = (t) => TILE[t] || "a tile";
const cardRule = (name) => {
  const rule = CARD_RULES[name];
  return rule ? `${name} (${TIMING[rule[0]]}): ${rule[1]}` : name;
};

/** Words in lines of at most `max` letters. */
function wrap(words, max) {
  const lines = [];
  for (const word of String(words).split(/\s+/)) {
    const last = lines.length ? lines[lines.length - 1] : null;
    if (last !== null && (last + " " + word).length <= max) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** A deal's terms in words, with names. */
function dealText(d, names) {
  const c = d.condition || {};
  const does = "play" in c ? `plays ${tileName(c.play)}` : "any_but" in c ? `plays any tile but ${tileName(c.any_but)}` : "discloses honestly";
  return `${names[d.payer]} pays ${names[d.payee]} ${d.amount} Gold if ${names[d.payee]} ${does} in round ${c.round}`;
}

// -- deals in the rulebook's words (Regulated Bribery), with the meaning of each rule term ----
const TERMS = {
  binding: "Regulated Bribery: once the other side accepts, neither can break the deal; the Gold moves by itself at that round's reveal if the promise is kept, and never otherwise",
  honest: "honest: a tile put face down on an icon of the Disclosure card, and the tile played is the one on that icon",
  reveal: "the Reveal: all tiles are turned face up, and the deals about that round are paid before any Sabotage card",
  next: "a promised future action: judged at the next round's reveal, and binding until then",
};
const term = (word, meaning) => (Kit.term ? Kit.term(word, meaning) : word);
const sentence = (...parts) => (Kit.sentence ? Kit.sentence(...parts) : parts.map((p) => (typeof p === "string" ? p : p.textContent)).join(""));

/** A deal's condition as {kind, tile}: from the view's stored condition or from a draft's values. */
function condition(c) {
  if ("condition" in c) return { kind: c.condition, tile: c.tile };
  return "play" in c ? { kind: "play", tile: c.play } : "any_but" in c ? { kind: "any_but", tile: c.any_but } : { kind: "honest", tile: null };
}

/** What the paid player must do: "plays Circus", "plays any tile but Abstain", "discloses honestly"
 * (with its meaning); `you` for the second person. */
function doesParts(c, you) {
  const s = you ? "" : "s";
  const tile = c.tile ? tileName(c.tile) : "… (pick a tile on the board)";
  if (c.kind === "honest") return [term(you ? "disclose honestly" : "discloses honestly", TERMS.honest)];
  if (c.kind === "any_but") return [`play${s} any tile but ${tile}`];
  if (c.kind === "play") return [`play${s} ${tile}`];
  return ["… (choose the condition)"];
}

/** The round a deal is judged in: "this round", "next round" (with its meaning), "round 4". */
function roundParts(r, view) {
  if (r === view.round) return ["this round"];
  if (r === view.round + 1) return [term("next round", TERMS.next), ` (round ${r})`];
  return [`in round ${r}`];
}

/** Who, as this seat reads it: "you" or the name. */
const whom = (s, seat, names, start = false) => (s === seat ? (start ? "You" : "you") : names[s]);

/** A deal of the view, as this seat reads it: "Danton offers you 3 Gold if you play Circus this
 * round" (an offer), "You ask Danton for 2 Gold if you …" (a solicitation). */
function dealParts(d, { names, seat, view }) {
  const c = condition(d.condition || {});
  const payee = d.payee === seat;
  const tail = [" if ", payee ? "you" : names[d.payee], " ", ...doesParts(c, payee), " ", ...roundParts(d.condition.round, view)];
  const by = whom(d.offered_by, seat, names, true);
  if (d.offered_by === d.payer) return [`${by} ${d.offered_by === seat ? "offer" : "offers"} ${whom(d.payee, seat, names)} ${d.amount} Gold`, ...tail];
  return [`${by} ${d.offered_by === seat ? "ask" : "asks"} ${whom(d.payer, seat, names)} for ${d.amount} Gold`, ...tail];
}

/** Where a deal stands, in a few words for its card. */
function dealStatus(d, { names, seat }) {
  const answerer = d.offered_by === d.payer ? d.payee : d.payer;
  switch (d.status) {
    case "offered": return answerer === seat ? "Waiting for your answer." : `Waiting for ${names[answerer]}'s answer.`;
    case "accepted": return sentence("Accepted: ", term("binding", TERMS.binding), ", paid at ", term("the reveal", TERMS.reveal), " if the promise is kept.");
    case "declined": return `Declined by ${whom(answerer, seat, names)}.`;
    case "withdrawn": return `Withdrawn by ${whom(d.offered_by, seat, names)}.`;
    case "paid": return `Paid: ${d.paid} Gold from ${whom(d.payer, seat, names)} to ${whom(d.payee, seat, names)}.`;
    case "lapsed": return bound.has(d.id) ? "Not kept: nothing paid." : "Lapsed unanswered when Negotiation ended.";
    default: return d.status;
  }
}

/** The Counter of a deal offered to `seat`: the same terms the other way round (the receiver of an
 * offer asks for Gold, the receiver of a solicitation offers it), declining the deal it answers. */
function counterDraft(d, view) {
  const c = condition(d.condition);
  const values = { to: d.offered_by, gold: d.amount, condition: c.kind, tile: c.tile, when: d.condition.round > view.round ? "next" : "this" };
  return { type: d.offered_by === d.payer ? "solicit_deal" : "offer_deal", values };
}

/** Whether a deal still concerns the table: open and binding ones always; the others while the
 * round they are about (or the last round, still drawn) is on the table. */
function dealShown(d, view) {
  if (d.status === "offered" || d.status === "accepted") return true;
  const r = d.condition.round;
  const revealed = Array.isArray(view.tiles);
  if (r === view.round) return true;
  if (!revealed && view.last_round && r === view.last_round.round) return true;
  return r === view.round + 1 && view.phase === "negotiation" && ["declined", "withdrawn"].includes(d.status);
}

/** One line per payout step of a round, for a seat. */
function payoutText(p) {
  const steps = [`${tileName(p.tile)}${p.counts_as !== p.tile ? ` as ${tileName(p.counts_as)}` : ""} ${p.tile_gold >= 0 ? "+" : ""}${p.tile_gold}`];
  if (p.honest_bonus) steps.push(`honest +${p.honest_bonus}`);
  if (p.riot_penalty) steps.push(`riot −${p.riot_penalty}`);
  return `${steps.join(", ")} = ${p.paid >= 0 ? "+" : ""}${p.paid}`;
}

/** What a promise asks, in the infinitive: "play Circus", "disclose honestly". */
function promiseText(c) {
  return "play" in c ? `play ${tileName(c.play)}` : "any_but" in c ? `play any tile but ${tileName(c.any_but)}` : "disclose honestly";
}

function describe(e, { names, seat = null, view = null }) {
  const who = (s) => (s === seat ? "You" : names[s]);
  const deal = view && e.deal !== undefined ? (view.deals || []).find((d) => d.id === e.deal) : null;
  if (e.kind === "deal_accepted") bound.add(e.deal);
  if (e.kind === "deal_settled") bound.add(e.id);
  switch (e.kind) {
    case "sabotage_dealt": return `${who(e.seat)} ${e.seat === seat ? "are" : "is"} dealt ${list(e.cards)}.`;
    case "round_started": return `Round ${e.round} begins; ${names[e.first_player]} is first. Riot Counter at ${e.riots}.`;
    case "disclosed": return `${who(e.seat)} ${e.seat === seat ? "put" : "puts"} a tile face down on the ${tileName(e.icon)} icon.`;
    case "disclosed_tile": return `Your disclosed tile is ${tileName(e.tile)}.`;
    case "disclosure_taken_back": return `${who(e.seat)} ${e.seat === seat ? "take" : "takes"} back the disclosed tile.`;
    case "ready": return `${who(e.seat)} ${e.seat === seat ? "are" : "is"} ready.`;
    case "ready_withdrawn": return `${who(e.seat)} ${e.seat === seat ? "are" : "is"} not ready after all.`;
    case "ready_cleared": return `${names[e.by]}'s change clears the ready of ${list(e.seats.map((s) => names[s]))}.`;
    case "gold_given": return `${names[e.giver]} gives ${names[e.receiver]} ${e.gold} Gold.`;
    case "deal_offered": return `${names[e.offered_by]} ${e.offered_by === e.payer ? "offers" : "asks for"} a deal: ${dealText(e, names)}.`;
    case "deal_accepted": return deal ? `${names[e.seat]} accepts the deal: ${dealText(deal, names)}; it is binding.` : `${names[e.seat]} accepts a deal.`;
    case "deal_declined": return deal ? `${names[e.seat]} declines the deal: ${dealText(deal, names)}.` : `${names[e.seat]} declines a deal.`;
    case "deal_withdrawn": return deal ? `${names[e.seat]} withdraws the deal: ${dealText(deal, names)}.` : `${names[e.seat]} withdraws a deal.`;
    case "deal_lapsed": return deal ? `The deal lapses: ${dealText(deal, names)}.` : "A deal lapses.";
    case "deal_settled": return e.status === "paid"
      ? `${names[e.payer]} pays ${names[e.payee]} ${e.paid} Gold: ${names[e.payee]} kept the promise to ${promiseText(e.condition)} in round ${e.condition.round}.`
      : `The promise of ${e.amount} Gold from ${names[e.payer]} to ${names[e.payee]} lapses: ${names[e.payee]} did not ${promiseText(e.condition)} in round ${e.condition.round}, so nothing is paid.`;
    case "negotiation_over": return `Negotiation is over${e.disclosed.length ? `; ${list(e.disclosed.map((s) => names[s]))} disclosed` : "; nobody disclosed"}.`;
    case "has_chosen": return `${who(e.seat)} ${e.seat === seat ? "place" : "places"} a tile face down.`;
    case "tiles_revealed": return `The tiles are revealed: ${e.tiles.map((t, s) => `${names[s]} ${tileName(t)}${e.honest[s] ? " (honest)" : ""}`).join(", ")}.`;
    case "sabotage_played": return `${who(e.seat)} ${e.seat === seat ? "play" : "plays"} ${e.card}${e.target === null || e.target === undefined ? "" : ` on ${names[e.target]}`}.`;
    case "informant_report": return `Your Informant sees ${names[e.target]}'s disclosed tile: ${tileName(e.tile)}.`;
    case "riot_check": return `${plural(e.breads, "Bread")} and ${e.circuses} Circus${e.circuses === 1 ? "" : "es"} counted: ${e.riot ? "the peasants riot!" : "the mob is calm."}`;
    case "round_scored": return `Round ${e.round} scored${e.riot ? `: a riot, the counter moves ${e.riot_advance}` : ""}. ${e.payouts.map((p, s) => `${names[s]} ${p.paid >= 0 ? "+" : ""}${p.paid}`).join(", ")}.`;
    case "tie_plays_on": return `The most Gold (${e.gold}) is shared: play continues until one noble alone is richest.`;
    case "game_over": return `The game is over (${e.reason === "riots" ? "five riots" : e.reason === "gold" ? "a noble reached the Gold to end" : "the last round"}): ${e.gold.map((g, s) => `${names[s]} ${g}`).join(", ")} Gold.`;
    default: return null;
  }
}

// -- the tiles, drawn --------------------------------------------------------------------------
/** A tile face up (a loaf, a striped tent, a crossed circle), face down, or empty, `s` units wide. */
function tileFace(K, kind, x, y, s, attrs = {}) {
  const body = [];
  const fill = kind === "bread" ? "#f6e3c2" : kind === "circus" ? "#e8eefc" : kind === "abstain" ? "#ececec" : kind === "down" ? "#5b4a2a" : "none";
  body.push(K.rect(0, 0, s, s, { rx: 8, fill, stroke: kind ? "#5b4a2a" : "#b9ad92", "stroke-width": 2, "stroke-dasharray": kind ? null : "4 3" }));
  const c = s / 2;
  if (kind === "bread") {
    body.push(K.path(`M${c - s * 0.32},${c + s * 0.1} C${c - s * 0.32},${c - s * 0.22} ${c + s * 0.32},${c - s * 0.22} ${c + s * 0.32},${c + s * 0.1} Z`,
      { fill: "#c98a3a", stroke: "#7a4e12", "stroke-width": 1.5 }));
    for (const dx of [-0.14, 0, 0.14]) body.push(K.line(c + s * dx - 3, c - s * 0.04, c + s * dx + 3, c - s * 0.12, { stroke: "#7a4e12", "stroke-width": 1.5 }));
  } else if (kind === "circus") {
    body.push(K.path(`M${c},${c - s * 0.3} L${c + s * 0.3},${c + s * 0.12} L${c - s * 0.3},${c + s * 0.12} Z`, { fill: "#c0392b", stroke: "#6e1a12", "stroke-width": 1.5 }));
    body.push(K.path(`M${c},${c - s * 0.3} L${c + s * 0.1},${c + s * 0.12} L${c - s * 0.1},${c + s * 0.12} Z`, { fill: "#fff" }));
    body.push(K.line(c, c - s * 0.3, c, c - s * 0.4, { stroke: "#1f3a93", "stroke-width": 2 }));
  } else if (kind === "abstain") {
    body.push(K.circle(c, c - s * 0.08, s * 0.2, { fill: "none", stroke: "#6b6b6b", "stroke-width": 2.5 }));
    body.push(K.line(c - s * 0.14, c + s * 0.06, c + s * 0.14, c - s * 0.22, { stroke: "#6b6b6b", "stroke-width": 2.5 }));
  } else if (kind === "down") {
    body.push(K.text(c, c, "?", { anchor: "middle", size: s * 0.45, fill: "#f6e3c2", "font-weight": 700 }));
  }
  if (kind && kind !== "down" && s >= 60) body.push(K.text(c, s - 11, TILE[kind], { anchor: "middle", size: 14, "font-weight": 700 }));
  return K.g({ transform: `translate(${x} ${y})`, ...attrs }, body);
}

/** The deals this page has seen accepted: a lapsed one among them was a broken promise, the
 * others lapsed unanswered (the view's status is "lapsed" for both). */
const bound = new Set();

/** Whether a settled deal's round is the one the board shows: this round once revealed, else the last. */
function settledShown(d, view) {
  const revealed = Array.isArray(view.tiles);
  if (d.status === "paid") return revealed ? d.condition.round === view.round : !!view.last_round && d.condition.round === view.last_round.round;
  // a lapse: a binding promise broken at the reveal (an unanswered offer that lapsed was never binding)
  return bound.has(d.id) && (revealed ? d.condition.round === view.round : !!view.last_round && d.condition.round === view.last_round.round);
}

/** How tall a promise is drawn in a place `w` wide: three lines, or four in a narrow place (a phone). */
const promiseHeight = (w) => (w >= 200 ? 52 : 68);

/** A promise by the paid player's tile spot: the tile it asks for, how much Gold, from whom, and
 * once settled, paid or struck out. */
function promiseNode(K, d, { names, seat, view }, x, y, w) {
  const c = condition(d.condition);
  const from = d.payer === seat ? "you" : names[d.payer];
  const when = d.condition.round === view.round ? "this round" : d.condition.round === view.round + 1 ? "next round" : `round ${d.condition.round}`;
  const what = c.kind === "honest" ? "if honest" : c.kind === "any_but" ? `if not ${tileName(c.tile)}` : `if ${tileName(c.tile)}`;
  const state = d.status === "paid" ? `paid ${d.paid} ✓` : d.status === "lapsed" ? "not kept" : when;
  const broken = d.status === "lapsed";
  const tall = promiseHeight(w);
  const lines = tall > 52 ? [[`${d.amount} Gold from`, true], [from, true], [what, false], [state, false]]
    : [[`${d.amount} Gold from ${from}`, true], [what, false], [state, false]];
  const node = K.g({ "data-key": `promise-${d.id}`, "data-status": d.status, transform: `translate(${x} ${y})` },
    K.rect(0, 0, w, tall, { rx: 6, fill: d.status === "paid" ? "#eef7ee" : broken ? "#f3f3f3" : "#fff8dc", stroke: "#8a6d00", "stroke-dasharray": broken ? "4 3" : null }),
    c.kind === "honest" ? K.text(16, 18, "✓", { anchor: "middle", size: 18, fill: "#1b7a3a", "font-weight": 700 }) : tileFace(K, c.tile, 3, 4, 28),
    c.kind === "any_but" ? K.line(5, 6, 29, 30, { stroke: "#c0392b", "stroke-width": 3 }) : null,
    lines.map(([words, bold], i) => K.label(36, 11 + i * 16, words, { max: w - 40, size: 14, "font-weight": bold ? 700 : 400 })),
    broken ? K.line(4, tall / 2, w - 4, tall / 2, { stroke: "#c0392b", "stroke-width": 2.5, "data-key": `struck-${d.id}` }) : null);
  const words = `${names[d.payer]} pays ${names[d.payee]} ${d.amount} Gold if ${names[d.payee]} ${doesParts(c, false).map((p) => (typeof p === "string" ? p : p.textContent)).join("")} ${when}`;
  const said = d.status === "paid" ? `${words}: paid ${d.paid} Gold.` : broken ? `${words}: the promise was not kept, nothing paid.`
    : `${words}: binding, paid at the reveal if the promise is kept.`;
  return K.tip(node, `${said} ${RULES.deal}`);
}

function render(view, ctx) {
  const { names, h, seat, kit: K = window.Kit } = ctx;
  const width = K.fit();
  const pad = 10;
  const choice = ctx.choice || ((node) => node);
  const start = ctx.start || ((node) => node);
  const drafting = ctx.draft ? ctx.draft.type : null;
  const you = view.you || null;
  const parts = [];
  for (const d of view.deals || []) if (d.status === "accepted") bound.add(d.id);
  const revealed = Array.isArray(view.tiles);
  const last = !revealed && view.last_round ? view.last_round : null;

  // -- the Riot Counter, the round, the Gold to end
  const phaseWords = { negotiation: "Negotiation", play: "Play", after_reveal: "Reveal: After-Reveal window", scoring: "Score: Scoring window", over: "The game is over" };
  parts.push(K.label(pad, 16, `Round ${view.round} · ${phaseWords[view.phase] || view.phase}`, { max: width - 2 * pad, size: 17, "font-weight": 700 }));
  const step = Math.min(46, (width - 2 * pad - 110) / 6);
  const riot = K.g({ "data-key": "riots", transform: `translate(${pad} 34)` },
    K.text(0, 22, "Riots", { size: 15, "font-weight": 700 }),
    [0, 1, 2, 3, 4, 5].map((n) => K.g({ transform: `translate(${52 + n * step} 0)` },
      K.rect(0, 0, step - 4, 44, { rx: 6, fill: n === 5 ? "#fde2df" : "#fffdf6", stroke: "#8b7d5c", "stroke-width": 1.5 }),
      n === Math.min(5, view.riots) ? null : K.text((step - 4) / 2, 22, n, { anchor: "middle", size: 15, fill: "#5b4a2a" }),
      n === Math.min(5, view.riots) ? K.g({ "data-key": "riot-chip" }, K.circle((step - 4) / 2, 22, Math.min(17, (step - 4) / 2 - 2), { fill: "#c0392b", stroke: "#6e1a12", "stroke-width": 2 }),
        K.text((step - 4) / 2, 23, view.riots, { anchor: "middle", size: 16, fill: "#fff", "font-weight": 700 })) : null)));
  parts.push(K.tip(riot, `${RULES.riot} It stands at ${view.riots}.`));
  let y = 92;
  parts.push(K.label(pad, y, `Gold to end: ${view.gold_to_end}${view.tie_break ? ` · most Gold shared since round ${view.tie_break.round}: play goes on` : ""}`,
    { max: width - 2 * pad, size: 15 }));
  y += 16;

  // -- the count, once the tiles are shown (or last round's, until this round's reveal)
  const counts = revealed ? view.counts : last ? last.counts : null;
  if (counts) {
    const isRiot = counts.breads === 0 || counts.circuses === 0;
    const extra = revealed && view.extra && (view.extra.bread || view.extra.circus)
      ? ` (${[view.extra.bread ? `+${view.extra.bread} Bread` : "", view.extra.circus ? `+${view.extra.circus} Circus` : ""].filter(Boolean).join(", ")} from Sabotage)` : "";
    const box = K.g({ "data-key": "counts", transform: `translate(${pad} ${y})` },
      K.rect(0, 0, width - 2 * pad, 50, { rx: 8, fill: isRiot ? "#fde2df" : "#eef7ee", stroke: "#8b7d5c" }),
      tileFace(K, "bread", 6, 7, 36), K.text(48, 26, counts.breads, { size: 20, "font-weight": 700 }),
      tileFace(K, "circus", 76, 7, 36), K.text(118, 26, counts.circuses, { size: 20, "font-weight": 700 }),
      isRiot ? K.icon("fire", 158, 25, 24) : null,
      K.label(isRiot ? 176 : 150, 26, `${last ? `Round ${last.round}: ` : ""}${isRiot ? "riot!" : "the mob is calm"}${extra}`, { max: width - 2 * pad - 186, size: 15, "font-weight": 700 }));
    parts.push(K.tip(box, RULES.counts));
    y += 60;
  }

  // -- a deal being drafted: the tile it names, picked on drawn tiles
  if (drafting === "offer_deal" || drafting === "solicit_deal") {
    const v = ctx.draft.values;
    const payee = drafting === "offer_deal" ? v.to : seat;
    const who = payee === seat ? "you" : payee === undefined ? "the paid noble" : names[payee];
    const kind = v.condition;
    const heading = kind === "honest" ? "The deal names no tile: an honest disclosure is the tile on the icon."
      : kind === "any_but" ? `The tile ${who} must not play:` : kind === "play" ? `The tile ${who} must play:`
        : "Choose the condition in the bar, then the tile here.";
    const strip = [K.label(0, 14, heading, { max: width - 2 * pad, size: 16, "font-weight": 700 })];
    if (kind === "play" || kind === "any_but") {
      ["bread", "circus", "abstain"].forEach((t, i) => {
        const node = tileFace(K, t, i * 74, 30, 64, { "data-key": `deal-tile-${t}` });
        if (kind === "any_but") node.appendChild(K.line(6, 6, 58, 58, { stroke: "#c0392b", "stroke-width": 4, "pointer-events": "none" }));
        strip.push(ctx.can(drafting, "tile", t) ? choice(node, drafting, "tile", t, kind === "any_but" ? `Any tile but ${TILE[t]}` : `${TILE[t]}`) : node);
      });
    }
    parts.push(K.tip(K.g({ "data-key": "deal-tile", transform: `translate(${pad} ${y})` }, strip), RULES.deal));
    y += kind === "play" || kind === "any_but" ? 104 : 30;
  }

  // -- each noble's place
  const pw = width < 520 ? Math.floor((width - 2 * pad - 10) / 2) : Math.min(230, Math.floor((width - 2 * pad - 10 * (names.length - 1)) / names.length));
  const perRow = Math.max(1, Math.floor((width - 2 * pad + 10) / (pw + 10)));
  // promises by the tile spot of the player they pay: binding ones, and those settled in the round shown
  const promises = names.map((_, s) => (view.deals || []).filter((d) => d.payee === s && (d.status === "accepted"
    || (["paid", "lapsed"].includes(d.status) && settledShown(d, view)))));
  const promiseTall = promiseHeight(pw - 16);
  const ph = 206 + Math.max(0, ...promises.map((list) => list.length)) * (promiseTall + 4);
  const targetKind = ["play_sabotage", "give_gold", "offer_deal", "solicit_deal"].includes(drafting) ? drafting : null;
  const targetParam = targetKind === "play_sabotage" ? "target" : "to";
  names.forEach((name, s) => {
    const x = pad + (s % perRow) * (pw + 10);
    const py = y + Math.floor(s / perRow) * (ph + 10);
    const colour = K.player(s, name).colour;
    const icon = view.disclosures[s];
    const mine = s === seat && you;
    const peek = you && you.informant ? you.informant[s] : null;
    const hiddenTile = revealed ? view.tiles[s] : mine ? you.disclosed_tile : peek; // a disclosed tile is the tile played: face up at the reveal
    const ts = Math.min(50, Math.floor((pw - 50) / 3));
    // the Disclosure card: two icons; a face-down tile on the one disclosed (yours face up to you)
    const slot = (which, sx) => {
      const on = icon === which;
      const node = K.g({ transform: `translate(${sx} 0)`, "data-key": `icon-${s}-${which}` },
        K.rect(0, 0, ts + 8, ts + 26, { rx: 6, fill: "#fffdf6", stroke: "#b9ad92" }),
        K.text((ts + 8) / 2, 11, TILE[which], { anchor: "middle", size: 14 }),
        on ? tileFace(K, hiddenTile || "down", 4, 22, ts) : tileFace(K, null, 4, 22, ts));
      if (mine && ctx.can && ctx.can("disclose", "icon", which)) {
        choice(node, "disclose", "icon", which, `Disclose on the ${TILE[which]} icon`);
      }
      return node;
    };
    const dcard = K.g({ "data-key": `disclosure-${s}`, transform: "translate(8 74)" },
      slot("bread", 0), slot("circus", ts + 12),
      icon === "abstain" ? K.text(2 * ts + 32, 40, "on Abstain", { size: 14 }) : null);
    K.tip(dcard, `${RULES.disclosure} ${icon ? `${name} has a tile on the ${TILE[icon]} icon${mine ? `: your ${tileName(you.disclosed_tile)}` : peek ? `: your Informant saw ${tileName(peek)}` : ""}.` : `${name} has disclosed nothing.`}`);
    if (mine && icon && ctx.offered && ctx.offered("take_back")) start(dcard, "take_back", "Take back your disclosed tile");
    // the tile played: face down once chosen, face up at the reveal
    const chosen = view.play && Array.isArray(view.play.chosen) ? view.play.chosen.includes(s) : false;
    const played = revealed ? view.tiles[s] : last ? last.tiles[s] : null;
    const countsAs = revealed ? view.counts_as[s] : last ? last.counts_as[s] : null;
    const sealed = mine && you.sealed_tile ? you.sealed_tile : null;
    const tileKind = played || sealed || (chosen || (view.phase === "play" && icon) ? "down" : null);
    const tileNode = K.g({ "data-key": `tile-${s}`, transform: `translate(${pw - ts - 8} 96)` },
      tileFace(K, tileKind, 0, 0, ts),
      K.label(ts / 2, ts + 14, played ? tileName(played) : sealed ? "sealed" : chosen ? "placed" : "no tile",
        { max: ts + 14, size: 14, anchor: "middle", "font-weight": played ? 700 : 400 }),
      played && (countsAs !== played || last) ? K.label(ts / 2, ts + 31, countsAs !== played ? `as ${tileName(countsAs)}` : `round ${last.round}`,
        { max: ts + 14, size: 14, anchor: "middle" }) : null);
    K.tip(tileNode, `${RULES.tile} ${played ? `${name} played ${tileName(played)}${countsAs !== played ? `, which counts as ${tileName(countsAs)}` : ""}${last ? ` in round ${last.round}` : ""}.` : ""}`);
    const placeNode = K.g({ transform: `translate(${x} ${py})`, "data-key": `place-${s}` },
      K.rect(0, 0, pw, ph, { rx: 8, fill: "#fffdf6", stroke: colour, "stroke-width": view.pending && view.pending.some((p) => p.seat === s) ? 4 : 2 }),
      K.rect(0, 0, pw, 6, { fill: colour }),
      K.mark(s, name, { x: 16, y: 24, r: 11 }),
      K.label(32, 25, `${name}${s === seat ? " (you)" : ""}`, { max: pw - 60, size: 16, "font-weight": 700, fill: colour }),
      view.first_player === s ? K.tip(K.g({ "data-key": `first-${s}` }, K.circle(pw - 16, 24, 11, { fill: "#1f3a93" }), K.text(pw - 16, 25, "1", { anchor: "middle", size: 14, fill: "#fff", "font-weight": 700 })), RULES.first) : null,
      K.tip(K.count("coin", view.gold[s], 8, 56, { size: 18, "data-key": `gold-${s}` }), `${RULES.gold} ${name} has ${view.gold[s]} Gold.`),
      K.tip(K.g({ transform: `translate(${pw / 2 + 10} 40)` }, K.rect(0, 0, 20, 28, { rx: 3, fill: "#1f3a93", stroke: "#fff" }),
        K.text(26, 15, `×${view.sabotage_cards[s]}`, { size: 16, "font-weight": 700 })), `${RULES.hand} ${name} holds ${plural(view.sabotage_cards[s], "card")}.`),
      dcard, tileNode,
      promises[s].map((d, i) => promiseNode(K, d, { names, seat, view }, 8, 204 + i * (promiseTall + 4), pw - 16)),
      view.phase === "negotiation" ? K.text(8, 194, view.ready[s] ? "✓ ready" : (view.barred || []).includes(s) ? "accused: may not disclose" : "negotiating…",
        { size: 14, fill: view.ready[s] ? "#1b7a3a" : "#555", "font-weight": view.ready[s] ? 700 : 400 }) : null);
    if (targetKind && ctx.can && ctx.can(targetKind, targetParam, s)) {
      const words = targetKind === "play_sabotage" ? `Name ${name}` : targetKind === "give_gold" ? `Give Gold to ${name}` : `A deal with ${name}`;
      choice(placeNode, targetKind, targetParam, s, words);
    }
    parts.push(placeNode);
  });
  y += Math.ceil(names.length / perRow) * (ph + 10) + 4;

  // -- your tiles and your Sabotage cards
  if (you) {
    parts.push(K.text(pad, y + 12, "Your tiles and cards", { size: 17, "font-weight": 700 }));
    y += 28;
    const ts = 64;
    ["bread", "circus", "abstain"].forEach((t, i) => {
      const node = tileFace(K, t, pad + i * (ts + 10), y, ts, { "data-key": `my-tile-${t}` });
      K.tip(node, RULES[t]);
      if (ctx.can && ctx.can("play", "tile", t)) choice(node, "play", "tile", t, `Play ${TILE[t]}`);
      else if (ctx.can && ctx.can("disclose", "tile", t)) choice(node, "disclose", "tile", t, `Disclose ${TILE[t]}`);
      parts.push(node);
    });
    if (ctx.can && ctx.can("disclose", "icon", "abstain")) { // Forged Promise: a disclosure beside the card, on Abstain
      const node = K.g({ "data-key": "icon-abstain", transform: `translate(${pad + 3 * (ts + 10)} ${y})` },
        K.rect(0, 0, ts + 20, ts, { rx: 8, fill: "#fffdf6", stroke: "#8b7d5c", "stroke-dasharray": "4 3" }),
        K.text((ts + 20) / 2, ts / 2 - 8, "on", { anchor: "middle", size: 14 }), K.text((ts + 20) / 2, ts / 2 + 10, "Abstain", { anchor: "middle", size: 14 }));
      parts.push(choice(K.tip(node, CARD_RULES["Forged Promise"][1]), "disclose", "icon", "abstain", "Disclose on Abstain (Forged Promise)"));
    }
    if (view.gold[seat] > 0 && ctx.offered && ctx.offered("give_gold")) {
      const px = Math.min(width - 120, pad + 3 * (ts + 10) + (ctx.can("disclose", "icon", "abstain") ? ts + 30 : 0));
      const purse = K.g({ "data-key": "purse", transform: `translate(${px} ${y})` },
        K.rect(0, 0, 110, ts, { rx: 8, fill: "#fff8dc", stroke: "#8a6d00" }), K.icon("coin", 22, ts / 2, 26), K.text(40, ts / 2 - 8, "Give", { size: 15, "font-weight": 700 }),
        K.text(40, ts / 2 + 12, "Gold", { size: 15, "font-weight": 700 }));
      parts.push(start(K.tip(purse, RULES.purse), "give_gold", "Give Gold to another noble"));
    }
    y += ts + 12;
    const cw = width < 520 ? width - 2 * pad : Math.min(300, Math.floor((width - 2 * pad - 20) / 3));
    const per = Math.max(1, Math.floor((width - 2 * pad + 10) / (cw + 10)));
    const chars = Math.floor((cw - 16) / (14 * 0.56));
    const hand = you.sabotage || [];
    if (!hand.length) { parts.push(K.text(pad, y + 10, "No Sabotage card left.", { size: 15 })); y += 28; }
    let rowTall = 0;
    hand.forEach((c, i) => {
      const [timing, effect] = CARD_RULES[c] || ["", ""];
      const lines = wrap(effect, chars);
      const ch = 50 + lines.length * 18;
      const cx = pad + (i % per) * (cw + 10);
      if (i % per === 0 && i) { y += rowTall + 10; rowTall = 0; }
      rowTall = Math.max(rowTall, ch);
      const node = K.g({ "data-key": `card-${c.replace(/\W+/g, "-")}`, transform: `translate(${cx} ${y})` },
        K.rect(0, 0, cw, ch, { rx: 8, fill: "#f3f0ff", stroke: "#1f3a93", "stroke-width": 2 }),
        K.label(10, 17, c, { max: cw - 20, size: 16, "font-weight": 700 }),
        K.text(10, 36, TIMING[timing] || "", { size: 14, fill: "#1f3a93", "font-style": "italic" }),
        lines.map((l, j) => K.text(10, 56 + j * 18, l, { size: 14 })));
      K.tip(node, cardRule(c));
      if (ctx.can && ctx.can("play_sabotage", "card", c)) choice(node, "play_sabotage", "card", c, `Play ${c}`);
      parts.push(node);
    });
    if (hand.length) y += rowTall + 10;
  }

  const played = (view.sabotage_played || []).filter((p) => p.round === view.round);
  const sabotageLine = played.length ? h("p", { "data-testid": "sabotage-played" }, h("b", {}, "Sabotage this round: "),
    played.map((p) => `${names[p.seat]} played ${p.card}${p.target === null || p.target === undefined ? "" : ` on ${names[p.target]}`}`).join("; "), ".") : null;
  const drawing = K.svg(width, y + 6, { "data-testid": "bread-table", "aria-label": `Round ${view.round}; the Riot Counter is at ${view.riots}` }, parts);
  return h("div", { class: "board bread" }, K.legend(names), drawing, sabotageLine);
}

Tricolore.registerBoard("bread-and-circuses", {
  render,
  describeEvent(event, ctx) {
    return describe(event, ctx) || describeEvent(event, ctx.names);
  },

  /** Parameters picked on the board: the tile and icon of a disclosure, the tile played, a
   * Sabotage card and the player it names, whom Gold or a deal goes to and the tile a deal names.
   * A deal's condition and round are the status bar's buttons; deals are answered on their cards. */
  choices() {
    return { disclose: ["tile", "icon"], play: ["tile"], play_sabotage: ["card", "target"], give_gold: ["to"],
      offer_deal: ["to", "tile"], solicit_deal: ["to", "tile"] };
  },

  /** On another noble's panel: offer them Gold for a promise, ask them for Gold, give them Gold. */
  dealStarters(other) {
    const terms = { to: other, condition: "play", when: "this" };
    return [
      { label: "Offer Gold…", type: "offer_deal", values: terms },
      { label: "Ask for Gold…", type: "solicit_deal", values: terms },
      { label: "Give Gold…", type: "give_gold", values: { to: other } },
    ];
  },

  /** A card per deal this seat is part of: offered to it (Accept, Decline, Counter), proposed by
   * it (Withdraw), binding, and those declined, withdrawn, paid or lapsed in the round shown. */
  offers(ctx) {
    const { view, seat } = ctx;
    return (view.deals || []).filter((d) => (d.payer === seat || d.payee === seat) && dealShown(d, view)).map((d) => {
      const answerer = d.offered_by === d.payer ? d.payee : d.payer;
      const buttons = [];
      if (d.status === "offered" && answerer === seat && ctx.offered("accept_deal")) {
        const counter = counterDraft(d, view);
        buttons.push({ label: "Accept", act: { type: "accept_deal", deal: d.id } },
          { label: "Decline", act: { type: "decline_deal", deal: d.id } },
          { label: "Counter…", testid: "offer-counter", draft: counter, also: { type: "decline_deal", deal: d.id } });
      }
      if (d.status === "offered" && d.offered_by === seat && ctx.offered("withdraw_deal")) {
        buttons.push({ label: "Withdraw", act: { type: "withdraw_deal", deal: d.id } });
      }
      return { key: `deal-${d.id}`, sentence: sentence(...dealParts(d, ctx), "."), status: dealStatus(d, ctx),
        from: d.offered_by, to: answerer, awaiting: d.status === "offered" && answerer === seat, buttons };
    });
  },

  actionLabel(kind) { return ACTION_LABELS[kind] || null; },
  paramLabel(kind, param) { return PARAM_LABELS[param] || null; },

  /** Declaring ready ends one's Negotiation for the round: asked once. */
  irreversible(kind, { view }) {
    if (kind !== "ready") return null;
    return `Declare yourself ready: you are done negotiating in round ${view.round}. Once every player is ready, Negotiation ends and the tiles are placed.`;
  },

  status(view, { names, seat, prompt }) {
    const waiting = (view.pending || []).filter((p) => p.seat !== seat).map((p) => names[p.seat]);
    const mine = prompt && prompt.actions && prompt.actions.length;
    if (view.phase === "over") {
      const result = view.result;
      if (!result) return "The game is over.";
      return `The game is over: ${Kit.winners(result, names, (n) => `${n} Gold`)}.`;
    }
    if (view.phase === "negotiation") {
      if (mine) {
        const kinds = prompt.actions.map((f) => f.type);
        if (kinds.length === 1) return `Round ${view.round}: someone changed the table; confirm that you are ready${waiting.length ? ` (waiting too for ${list(waiting)})` : ""}.`;
        return `Round ${view.round}, Negotiation: you may disclose a tile on your Disclosure card${kinds.includes("play_sabotage") ? ", play a Sabotage card" : ""}, then declare ready.`;
      }
      return waiting.length ? `Negotiation: waiting for ${list(waiting)} to be ready.` : "Negotiation.";
    }
    if (view.phase === "play") {
      if (mine) return "Choose your tile in secret: Bread, Circus or Abstain.";
      return `Waiting for ${list(waiting)} to place a tile face down.`;
    }
    const windowName = view.phase === "after_reveal" ? "After-Reveal" : "Scoring";
    if (mine) return `The ${windowName} window: play a Sabotage card or pass.`;
    return waiting.length ? `The ${windowName} window: ${list(waiting)} may play a Sabotage card or pass.` : "";
  },

  summary(kind, v, { names, view }) {
    const seatName = (s) => (s === undefined ? "…" : names[s]);
    switch (kind) {
      case "disclose": return `You put ${v.tile ? `your ${tileName(v.tile)} tile` : "a tile (choose one of your tiles)"} face down on the ${v.icon ? TILE[v.icon] : "… (choose an icon of your Disclosure card)"} icon.`;
      case "play": return v.tile ? `You place ${tileName(v.tile)} face down.` : "Choose one of your tiles.";
      case "play_sabotage": {
        if (!v.card) return "Choose one of your Sabotage cards.";
        const target = v.target === null || !NAMES_A_PLAYER.has(v.card) ? ""
          : v.target === undefined ? " on … (choose a player on the board)" : ` on ${names[v.target]}`;
        return `You play ${v.card}${target}: ${(CARD_RULES[v.card] || ["", ""])[1]}`;
      }
      case "give_gold": return `You give ${seatName(v.to)} ${v.gold || 0} Gold.`;
      case "offer_deal": case "solicit_deal": {
        const other = seatName(v.to);
        const c = { kind: v.condition, tile: v.tile };
        const round = v.when === "next" ? roundParts(view.round + 1, view) : v.when === "this" ? ["this round"] : ["… (choose the round)"];
        const head = kind === "offer_deal" ? [`You give ${other} ${v.gold || 0} Gold if ${other} `, ...doesParts(c, false)]
          : [`You ask ${other} for ${v.gold || 0} Gold if you `, ...doesParts(c, true)];
        return sentence(...head, " ", ...round, "; ", term("binding", TERMS.binding), ` once ${other} accepts, paid at `, term("the reveal", TERMS.reveal), ".");
      }
      case "take_back": return "You take back your disclosed tile.";
      default: return null;
    }
  },

  optionText(param, option, { names, view = {} }) {
    if (["target", "to"].includes(param)) return option === null ? "nobody" : names[option] || null;
    if (["tile", "icon"].includes(param)) return option === null ? "no tile" : TILE[option] || null;
    if (param === "condition") return CONDITION_WORDS[option] || null;
    if (param === "when") return option === "this" ? "this round" : option === "next" ? "next round" : null;
    if (param === "deal") {
      const d = (view.deals || []).find((x) => x.id === option);
      return d ? dealText(d, names) : null;
    }
    return null;
  },

  playerStats(seat, view) {
    const icon = view.disclosures && view.disclosures[seat];
    return ` · ${view.gold[seat]} Gold, ${plural(view.sabotage_cards[seat], "Sabotage card")}${icon ? `, a tile on ${TILE[icon]}` : ""}`;
  },

  secret(you, { h, names, seat, mine = true }) {
    const peeks = (you.informant || []).map((t, s) => (t ? `${names[s]}: ${tileName(t)}` : null)).filter(Boolean);
    return h("section", { class: "secret", "data-testid": "secret" },
      h("h3", {}, mine ? "Secret — only you see this" : `${names[seat]}'s secrets`),
      h("p", {}, "Sabotage cards: ", (you.sabotage || []).length ? "" : "none"),
      (you.sabotage || []).length ? h("ul", {}, you.sabotage.map((c) => h("li", { title: cardRule(c) }, h("b", {}, c), ` — ${TIMING[(CARD_RULES[c] || [])[0]] || ""}: ${(CARD_RULES[c] || ["", ""])[1]}`))) : null,
      you.disclosed_tile ? h("p", {}, `Disclosed tile: ${tileName(you.disclosed_tile)}`) : null,
      you.sealed_tile ? h("p", {}, `Tile placed face down: ${tileName(you.sealed_tile)}`) : null,
      peeks.length ? h("p", {}, `Your Informant saw: ${peeks.join(", ")}`) : null);
  },

  moment(e, ctx) {
    const names = ctx.names || [];
    const say = describe(e, { names, seat: ctx.seat, view: ctx.view });
    switch (e.kind) {
      case "tiles_revealed": return { select: "[data-key^=tile-]", say, ms: 600, keep: true };
      case "riot_check": return { select: "[data-key=counts]", say, ms: 500, shake: e.riot ? "[data-key=counts]" : null };
      case "round_scored": return { select: e.riot ? "[data-key=riots], [data-key^=gold-]" : "[data-key^=gold-]", say, ms: 600, shake: e.riot ? "[data-key=riot-chip]" : null, keep: true };
      case "sabotage_played": return { select: `[data-key=place-${e.seat}]${e.target === null || e.target === undefined ? "" : `, [data-key=place-${e.target}]`}`, say };
      case "disclosed": case "disclosure_taken_back": return { select: `[data-key=disclosure-${e.seat}]`, say };
      case "gold_given": return { select: `[data-key=gold-${e.receiver}]`, say, fly: [[`[data-key=gold-${e.giver}]`, `[data-key=gold-${e.receiver}]`]] };
      case "deal_accepted": return { select: `[data-key=promise-${e.deal}]`, say };
      case "deal_settled": return e.status === "paid"
        ? { select: `[data-key=promise-${e.id}], [data-key=gold-${e.payee}]`, say, ms: 700, fly: [[`[data-key=gold-${e.payer}]`, `[data-key=gold-${e.payee}]`]] }
        : { select: `[data-key=promise-${e.id}]`, say, ms: 700, shake: `[data-key=struck-${e.id}]` };
      case "game_over": return { select: "[data-key^=gold-]", say, ms: 600 };
      default: return null;
    }
  },

  /** The end: one column per noble, one row per round's payout, the end condition, final Gold. */
  scoreSheet(final, { names, h }) {
    const { result } = final;
    const seats = names.map((_, s) => s);
    const history = (final.views[0] && final.views[0].history) || [];
    const cell = (s, ...content) => h("td", { class: result.winners.includes(s) ? "winner" : "" }, ...content);
    const row = (title, rule, make) => h("tr", {}, h("th", { scope: "row", title: rule }, title), seats.map((s) => cell(s, make(s))));
    return h("div", { class: "scroll" }, h("table", { class: "grid score-sheet", "data-testid": "score-sheet" },
      h("thead", {}, h("tr", {}, h("th", {}, "step"), seats.map((s) => h("th", { class: result.winners.includes(s) ? "winner" : "" },
        result.winners.includes(s) ? "★ " : "", names[s], h("span", { class: "muted" }, botNote(final, s)))))),
      h("tbody", {},
        row("Start", "Each noble starts with as much Gold as there are players.", () => `${names.length} Gold`),
        history.map((r) => row(`Round ${r.round}${r.riot ? " (riot)" : ""}`,
          `${plural(r.breads, "Bread")} and ${r.circuses} Circus${r.circuses === 1 ? "" : "es"} counted. Bread earns the Circuses, Circus the Breads, Abstain both unless there is a riot (then it loses the number of players); an honest disclosure earns 1.`,
          (s) => payoutText(r.payouts[s]))),
        row("Honest disclosures", "Rounds in which the disclosed tile was the tile played.", (s) => String(result.breakdown[s].honest_disclosures)),
        row("Sabotage cards kept", "The cards left in hand at the end (secret until now).", (s) => {
          const you = final.views[s] && final.views[s].you;
          return you && you.sabotage && you.sabotage.length ? you.sabotage.join(", ") : "none";
        }),
        row("Gold", "The richest noble wins.", (s) => h("b", {}, `${result.scores[s]} Gold`)))));
  },
});
}
