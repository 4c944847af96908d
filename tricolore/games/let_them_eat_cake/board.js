// Let Them Eat Cake, drawn: the Committee's offices and who holds each, the Guillotine with the
// Pawn on it, the Pantry, the Medals in the centre and the starter Generals, the Secretary's cards
// with the Food Inspector's stamp, each player's Pawns, Medals, Generals and ballot card, and, for
// you alone, your hand of Voting cards and your Cake cards. A vote is a click on a card in your
// hand; a candidate or a player is a click on their panel; the Generals' uses are buttons on your
// Generals. Rule texts are the rulebook's (docs/games/let-them-eat-cake.md).
"use strict";
{
const OFFICES = ["head", "enemy", "operator", "secretary", "inspector"];
const TITLES = { head: "Head of Committee", enemy: "Enemy of the Revolution", operator: "Guillotine Operator",
  secretary: "Secretary", inspector: "Food Inspector" };
const TITLE_LINES = { head: ["Head of", "Committee"], enemy: ["Enemy of the", "Revolution"], operator: ["Guillotine", "Operator"],
  secretary: ["Secretary"], inspector: ["Food", "Inspector"] };
const RULES = {
  head: "Head of Committee: elected first every round. The new Head takes a Medal from the centre, then must award a Medal from the centre to a player or remove one from a player. The Head breaks every tied vote.",
  enemy: "Enemy of the Revolution: the player with the fewest Medals (a vote among them if tied) sends a Pawn to the Guillotine. The unique holder of most Generals is never the Enemy.",
  operator: "Guillotine Operator: elected by a vote in which the Enemy has one vote less. Executes the Pawn on the Guillotine (its owner regains three Medals and takes a starter General) or grants mercy and loses a Medal.",
  secretary: "Secretary: draws one Pantry card per player, face up, and places one in front of every player.",
  inspector: "Food Inspector: declares the batch safe (everyone keeps their card) or unsafe (every Cake card goes to the bottom of the Pantry, Generals are kept, and the Inspector loses a Medal).",
  guillotine: "The Guillotine: the Enemy of the Revolution's Pawn waits here for the Guillotine Operator. Executed, it is dead: its owner has one vote less for the rest of the game but regains three Medals and a starter General. A player who loses all their Pawns is killed and the game ends.",
  pantry: "The Pantry deck: Cake cards worth 1 to 14 and Generals, face down. The Secretary draws one card per player each round; the game ends when it cannot give every player a card.",
  centre: "The Medals of Honour in the centre of the table. Medals gained come from here and Medals lost go back here; when there are none, nobody gains any.",
  starterGenerals: "The face-up pile of starter Generals: an executed Pawn's owner takes one. When the pile has run out, that player is out of luck.",
  pawns: "Pawns: your supporters on the Committee. Your Voting card counts once per Pawn (less the one on the Guillotine). Pawns are never traded; lose them all and you are killed.",
  medals: "Medals of Honour: whoever has the fewest is the Enemy of the Revolution. Medals may be traded at any time.",
  generals: "Generals, kept face up. 1 General: allege vote rigging after a vote (a new vote at once). 2 Generals: seize one of the Secretary's cards. 3 Generals: a coup before a vote (you name the winner). Each use also costs a Medal. The unique holder of most Generals is never the Enemy.",
  coup: "A coup: spend 3 Generals and a Medal just before the vote and decide who wins, without anyone voting.",
  rigging: "Allege vote rigging: spend 1 General and a Medal at the end of a vote. Its result is ignored and a new vote happens at once; the cards played stay played.",
  seize: "Seize cake: spend 2 Generals and a Medal after the Secretary's draw and place one of the cards in front of yourself. It is still subject to the Food Inspector.",
  hand: "Your hand of Voting cards, one per other player's colour (two each with 3 or 4 players). Play one face down in every vote; played cards come back only when your hand is empty.",
  used: "Your used Voting cards, face down: they come back into your hand when every card has been played.",
  stash: "Your stash of Cake cards, face down: nobody else knows its value. More than 40 cakes at a round's end wins.",
  draw: "The Secretary's cards, face up: one per player. The Food Inspector then declares the batch safe or unsafe.",
  safe: "Safe: everyone keeps the card in front of them (Cake into the stash, a General face up).",
  unsafe: "Unsafe: every Cake card goes to the bottom of the Pantry; Generals are kept; the Food Inspector loses a Medal.",
  donate: "“Let them eat cake!”: put this round's Cake card at the bottom of the Pantry and take one Medal directly from another player.",
  ballot: "The Voting card this player played, revealed with everyone's at the same time. It counts once per Pawn not on the Guillotine.",
  end: "At the end of every round: if a stash holds more than 40 cakes, the game ends. It also ends at once when a player is killed, or when the Pantry cannot give every player a card. The living player with the most Cake wins; ties go to most Pawns, then most Generals.",
};
const ACTION_LABELS = { vote: "Vote", coup: "Coup", allege_rigging: "Allege rigging", seize: "Seize cake", pass: "Pass",
  break_tie: "Break the tie", award_medal: "Award a Medal", remove_medal: "Remove a Medal", execute: "Execute",
  mercy: "Mercy", deal: "Deal a card", inspect: "Inspect the batch", donate: "Let them eat cake!",
  give_medals: "Give Medals", give_generals: "Give Generals", give_cakes: "Give Cake cards", propose_trade: "Propose a trade" };
const PARAM_LABELS = { candidate: "Voting card", winner: "winner", to: "player", from: "player", card: "card",
  safe: "verdict", take_from: "player to take a Medal from", medals: "Medals", generals: "Generals", cards: "Cake cards",
  give_medals: "Medals you give", give_generals: "Generals you give", give_cakes: "Cake cards you give",
  ask_medals: "Medals you ask for", ask_generals: "Generals you ask for", ask_cakes: "Cake cards you ask for" };
const END_REASONS = { cake: "a stash holds the winning cakes", death: "a player was killed", pantry: "the Pantry cannot give every player a card",
  rounds: "the last round was played" };

const PHASE_WORDS = { head_medal: "the new Head of Committee moves a Medal", guillotine: "the Guillotine Operator decides",
  seize: "the Secretary's draw: Generals may seize a card", deal: "the Secretary deals the cards", inspect: "the Food Inspector inspects the batch",
  donate: "donations: “Let them eat cake!”" };
const { list, plural } = Kit;
const cardName = (value) => (value === 0 ? "a General" : `Cake ${value}`);
const generalsOf = (view, seat) => (view.generals && view.generals[seat] ? view.generals[seat].pantry + view.generals[seat].starter : 0);
const title = (office) => TITLES[office] || String(office);
const nameOf = (names, seat) => (seat === null || seat === undefined ? "nobody" : names[seat] || "a player");

/** A Pawn: a round head on a flared body. `state` is alive, guillotine or dead. */
function pawn(K, x, y, colour, state = "alive", s = 1) {
  const dead = state === "dead";
  const fill = dead ? "#bdbdbd" : state === "guillotine" ? "#fff" : colour;
  return K.g({ transform: `translate(${x} ${y}) scale(${s})`, class: `pawn pawn-${state}` },
    K.path("M-9,12 L-6,0 L6,0 L9,12 Z", { fill, stroke: dead ? "#888" : colour, "stroke-width": 2, "stroke-dasharray": state === "guillotine" ? "3 2" : null }),
    K.circle(0, -5, 6, { fill, stroke: dead ? "#888" : colour, "stroke-width": 2 }),
    dead ? K.path("M-9,-12 L9,12 M9,-12 L-9,12", { stroke: "#c0392b", "stroke-width": 2.5 }) : null);
}

/** A General: a bicorne hat over a small cockade. */
function bicorne(K, x, y, s = 1) {
  return K.g({ transform: `translate(${x} ${y}) scale(${s})`, class: "bicorne", "aria-hidden": "true" },
    K.path("M-14,5 Q-12,-9 0,-9 Q12,-9 14,5 Q0,0 -14,5 Z", { fill: "#1d1d1d" }),
    K.circle(0, -3, 3.2, { fill: "#1f3a93" }), K.circle(0, -3, 2, { fill: "#fff" }), K.circle(0, -3, 1, { fill: "#c0392b" }));
}

/** A face-down card: the tricolour back. */
function cardBack(K, x, y, w, h, attrs = {}) {
  return K.g({ transform: `translate(${x} ${y})`, ...attrs },
    K.rect(0, 0, w, h, { rx: 6, fill: "#fff", stroke: "#8b7d5c", "stroke-width": 2 }),
    K.rect(4, 4, (w - 8) / 3, h - 8, { fill: "#1f3a93" }), K.rect(4 + (2 * (w - 8)) / 3, 4, (w - 8) / 3, h - 8, { fill: "#c0392b" }));
}

/** A button drawn on the board: a rounded rectangle with words, at least 44 units tall. */
function button(K, x, y, w, words, attrs = {}) {
  return K.g({ transform: `translate(${x} ${y})`, class: "ltec-button", ...attrs },
    K.rect(0, 0, w, 44, { rx: 8, fill: "#fff6d6", stroke: "#8a5a00", "stroke-width": 2 }),
    K.label(w / 2, 23, words, { anchor: "middle", max: w - 10, size: 15, "font-weight": 700 }));
}

/** What a click on a player's panel picks now, if anything: [kind, param]. */
function panelPick(ctx, seat) {
  if (!ctx.can) return null;
  const drafting = ctx.draft && ctx.draft.type;
  const picks = [["break_tie", "winner"], ["deal", "to"], ["donate", "take_from"]];
  if (drafting === "coup") picks.unshift(["coup", "winner"]);
  return picks.find(([kind, param]) => ctx.can(kind, param, seat)) || null;
}

// -- trading: gifts and proposed trades. The rulebook: "Agreements of all kinds are possible, but
// never binding", so a trade is a proposal sent privately; each side then gives its part as a gift.
const GOODS = ["medals", "generals", "cakes"];
const GIFT_KIND = { medals: "give_medals", generals: "give_generals", cakes: "give_cakes" };
const GOOD_WORDS = { medals: ["Medal", "Medals"], generals: ["General", "Generals"], cakes: ["Cake card", "Cake cards"] };
const GOOD_MEANINGS = {
  medals: "Medal of Honour: whoever has the fewest is the Enemy of the Revolution and sends a Pawn to the Guillotine",
  generals: "General: kept face up and spent on a coup, on alleging vote rigging or on seizing cake; the unique holder of most is never the Enemy",
  cakes: "Cake card: a card of a stash worth 1 to 14 cakes; only the two traders see its value",
};
const GIFT_TYPES = ["give_medals", "give_generals", "give_cakes"];
const NEVER_BINDING = "never binding: each side gives its part";

/** How many of a good `seat` holds, as the table shows it. */
function holding(view, seat, good) {
  if (good === "medals") return (view.medals || [])[seat] || 0;
  if (good === "generals") return generalsOf(view, seat);
  return (view.stash_cards || [])[seat] || 0;
}

/** A trade's two sides: what its proposer gives and what it asks, by good. */
function tradeSides(values) {
  const side = (prefix) => Object.fromEntries(GOODS.map((g) => [g, Number(values[`${prefix}_${g}`]) || 0]));
  return { give: side("give"), ask: side("ask") };
}

const emptySide = (side) => GOODS.every((g) => !side[g]);

/** "1 Medal and 2 Generals" as parts of a sentence: each good a rule term when `terms`. */
function goodsWords(side, terms) {
  const items = GOODS.filter((g) => side[g]).map((g) => {
    const word = GOOD_WORDS[g][side[g] === 1 ? 0 : 1];
    return [`${side[g]} `, terms && Kit.term ? Kit.term(word, GOOD_MEANINGS[g]) : word];
  });
  const out = [];
  items.forEach((item, i) => {
    if (i > 0) out.push(i === items.length - 1 ? " and " : ", ");
    out.push(...item);
  });
  return out;
}

const goodsText = (side) => goodsWords(side, false).join("");

/** The parts of a trade sentence after the giver's words: "1 Medal for 2 Generals". */
function tradeWords(sides, terms) {
  if (emptySide(sides.ask)) return [...goodsWords(sides.give, terms), ", asking nothing in return"];
  if (emptySide(sides.give)) return ["nothing, asking for ", ...goodsWords(sides.ask, terms)];
  return [...goodsWords(sides.give, terms), " for ", ...goodsWords(sides.ask, terms)];
}

/** Parts of a sentence as a node with rule terms if the page has them, else as plain text. */
function sentenceOf(parts) {
  return Kit.sentence ? Kit.sentence(...parts) : parts.map((p) => (typeof p === "string" ? p : p.textContent)).join("");
}

/** The proposal family of a trade, built like any draft: the player it goes to, then steppers. */
function tradeFamily(ctx) {
  const { view, names, seat } = ctx;
  if (seat === null || seat === undefined || !view || view.phase === "over" || !names) return null;
  const others = names.map((_, s) => s).filter((s) => s !== seat);
  const most = (good) => Math.max(0, ...others.map((s) => holding(view, s, good)));
  const params = [{ name: "to", domain: { kind: "choice", options: others, labels: others.map((s) => names[s]) } }];
  // a good nobody on that side holds gets no stepper
  for (const g of GOODS) if (holding(view, seat, g)) params.push({ name: `give_${g}`, domain: { kind: "amount", low: 0, high: holding(view, seat, g) } });
  for (const g of GOODS) if (most(g)) params.push({ name: `ask_${g}`, domain: { kind: "amount", low: 0, high: most(g) } });
  return { type: "propose_trade", help: "Propose a trade of Medals, Generals and Cake cards (never binding)", params };
}

/** Every trade this seat sent or received, oldest first, with where it stands:
 * `state` pending, accepted, declined or countered; `given` what each side has given of its part. */
function trades(ctx) {
  const view = ctx.view || {};
  const proposals = (ctx.proposals || []).filter((p) => p.kind === "propose_trade");
  // gifts the table has seen between each pair, shared out over the accepted trades, oldest first
  const pool = {};
  for (const g of view.gifts || []) pool[`${g.giver}>${g.receiver}`] = { medals: g.medals, generals: g.generals, cakes: g.cake_cards };
  return proposals.map((p, i) => {
    const sides = tradeSides(p.values || {});
    const answer = (p.answers || []).filter((a) => a.from === p.to).pop();
    const countered = !answer && proposals.slice(i + 1).some((q) => q.from === p.to && q.to === p.from);
    const state = answer ? (answer.accepted ? "accepted" : "declined") : countered ? "countered" : "pending";
    const take = (giver, receiver, part) => {
      const there = pool[`${giver}>${receiver}`] || { medals: 0, generals: 0, cakes: 0 };
      return Object.fromEntries(GOODS.map((g) => {
        const n = state === "accepted" ? Math.min(there[g], part[g]) : 0;
        there[g] -= n;
        return [g, n];
      }));
    };
    const given = { proposer: take(p.from, p.to, sides.give), receiver: take(p.to, p.from, sides.ask) };
    const owing = (part, done) => Object.fromEntries(GOODS.map((g) => [g, part[g] - done[g]]));
    const left = { proposer: owing(sides.give, given.proposer), receiver: owing(sides.ask, given.receiver) };
    const settled = state === "accepted" && emptySide(left.proposer) && emptySide(left.receiver);
    return { ...p, sides, state: settled ? "settled" : state, given, left };
  });
}

/** The gift that gives (part of) what `owed` still holds to `to`, as a draft: one good at a time. */
function giftDraft(ctx, to, owed, good) {
  const kind = GIFT_KIND[good];
  const family = ctx.offered ? ctx.offered(kind) : null;
  if (!family || !owed[good]) return null;
  if (good === "cakes") return { type: kind, values: { to } };
  const have = holding(ctx.view, ctx.seat, good);
  return { type: kind, values: { to, [good]: Math.max(1, Math.min(owed[good], have)) } };
}

/** Buttons that open the gifts of this seat's part, filled in. */
function giveButtons(ctx, to, owed) {
  return GOODS.filter((g) => owed[g] > 0).map((g) => {
    const draft = giftDraft(ctx, to, owed, g);
    return draft ? { label: `Give ${goodsText({ medals: 0, generals: 0, cakes: 0, [g]: owed[g] })}`, testid: `offer-give-${g}`, draft } : null;
  }).filter(Boolean);
}

/** What each side has given, in a sentence from this seat's side. */
function givenWords(t, me, names) {
  const mine = t.from === me ? "proposer" : "receiver";
  const theirs = mine === "proposer" ? "receiver" : "proposer";
  const other = names[t.from === me ? t.to : t.from];
  const said = (who, done, left) => {
    if (emptySide(done) && emptySide(left)) return `${who} ${who === "You" ? "owe" : "owes"} nothing`;
    if (emptySide(left)) return `${who} ${who === "You" ? "have" : "has"} given all of ${who === "You" ? "your" : "their"} part (${goodsText(done)})`;
    if (emptySide(done)) return `${who} ${who === "You" ? "have" : "has"} not given ${goodsText(left)} yet`;
    return `${who} ${who === "You" ? "have" : "has"} given ${goodsText(done)}, ${goodsText(left)} still to come`;
  };
  return `${said(other, t.given[theirs], t.left[theirs])}; ${said("You", t.given[mine], t.left[mine]).replace(/^You owe/, "you owe").replace(/^You/, "you")}.`;
}

/** The offer cards: trades sent and received, with what to do about each. */
function offers(ctx) {
  const { names, seat } = ctx;
  if (seat === null || seat === undefined) return [];
  const all = trades(ctx);
  const open = all.filter((t) => t.state === "pending" || t.state === "accepted");
  const closed = all.filter((t) => !open.includes(t)).slice(-3);
  return all.filter((t) => open.includes(t) || closed.includes(t)).map((t) => {
    const sent = t.from === seat;
    const other = sent ? t.to : t.from;
    const head = sent ? [`You offer ${names[t.to]} `] : [`${names[t.from]} offers you `];
    const sentence = sentenceOf([...head, ...tradeWords(t.sides, true), ` — ${NEVER_BINDING}.`]);
    const buttons = [];
    let status = "";
    const myPart = sent ? t.left.proposer : t.left.receiver;
    if (t.state === "pending") {
      status = sent ? `Waiting for ${names[t.to]}'s answer.` : "Your answer?";
      if (!sent) {
        const first = giveButtons(ctx, other, t.left.receiver)[0];
        buttons.push({ label: "Accept", testid: "offer-accept", answer: { proposal: t.number, accepted: true }, ...(first ? { draft: first.draft } : {}) });
        buttons.push({ label: "Decline", testid: "offer-decline", answer: { proposal: t.number, accepted: false } });
        if (ctx.offered && ctx.offered("propose_trade")) {
          const values = { to: t.from };
          for (const g of GOODS) {
            values[`give_${g}`] = Math.min(t.sides.ask[g], holding(ctx.view, seat, g));
            values[`ask_${g}`] = t.sides.give[g];
          }
          buttons.push({ label: "Counter…", testid: "offer-counter", draft: { type: "propose_trade", values } });
        }
      }
    } else if (t.state === "accepted") {
      status = `${sent ? `${names[t.to]} accepts` : "You accepted"}. ${givenWords(t, seat, names)}`;
      buttons.push(...giveButtons(ctx, other, myPart));
    } else if (t.state === "settled") {
      status = `Settled: both parts given. ${givenWords(t, seat, names)}`;
    } else if (t.state === "declined") {
      status = sent ? `${names[t.to]} declines.` : "You declined.";
    } else {
      status = sent ? `${names[t.to]} answers with a counter-offer.` : "You answered with a counter-offer.";
    }
    return { key: `trade-${t.number}`, sentence, status, from: t.from, to: t.to, awaiting: !sent && t.state === "pending", buttons };
  });
}

/** The buttons on another player's panel that start a deal with them. */
function dealStarters(seat, ctx) {
  const to = { to: seat };
  return [
    { label: "Propose a trade…", type: "propose_trade", values: { ...to } },
    { label: "Give Medals…", type: "give_medals", values: { ...to, medals: 1 } },
    { label: "Give Generals…", type: "give_generals", values: { ...to, generals: 1 } },
    { label: "Give Cake cards…", type: "give_cakes", values: { ...to } },
  ].filter((s) => !ctx.offered || ctx.offered(s.type));
}

/** The trade's summary above Confirm: one sentence in the rulebook's words. */
function tradeSummary(values, ctx) {
  const { names } = ctx;
  const sides = tradeSides(values);
  const who = values.to === undefined ? "… (choose a player)" : names[values.to];
  if (emptySide(sides.give) && emptySide(sides.ask)) return `You propose a trade to ${who}: set what you give and what you ask with the steppers.`;
  return sentenceOf([`You offer ${who} `, ...tradeWords(sides, true), ` — ${NEVER_BINDING}.`]);
}

/** A gift's summary: what goes to whom, and whether it is your part of an accepted trade. */
function giftSummary(type, values, ctx) {
  const { names, view } = ctx;
  const who = values.to === undefined ? "… (choose a player)" : names[values.to];
  const good = { give_medals: "medals", give_generals: "generals", give_cakes: "cakes" }[type];
  let what;
  if (good === "cakes") {
    const stash = (view.you || {}).stash || [];
    const cards = values.cards || [];
    if (!cards.length) return `You give ${who} Cake cards: click them in your stash, on the board.`;
    what = [...goodsWords({ medals: 0, generals: 0, cakes: cards.length }, true), ` (${list(cards.map((i) => `Cake ${stash[i]}`))}; only you two see their values)`];
  } else {
    what = goodsWords({ medals: 0, generals: 0, cakes: 0, [good]: values[good] || 1 }, true);
  }
  const part = trades(ctx).some((t) => t.state === "accepted" && (t.from === ctx.seat ? t.to : t.from) === values.to
    && (t.from === ctx.seat ? t.left.proposer : t.left.receiver)[good] > 0);
  return sentenceOf([`You give ${who} `, ...what, part ? ", your part of the trade." : "."]);
}

/** What a trade still lacks before it can be sent (null when it is complete). */
function tradeProblem(values, { view, names }) {
  const sides = tradeSides(values);
  if (emptySide(sides.give) && emptySide(sides.ask)) return "Put something on either side of the trade.";
  if (values.to === undefined) return null;
  for (const g of GOODS) {
    if (sides.ask[g] > holding(view, values.to, g)) return `${names[values.to]} has only ${goodsText({ medals: 0, generals: 0, cakes: 0, [g]: holding(view, values.to, g) }) || `no ${GOOD_WORDS[g][1]}`}.`;
  }
  return null;
}

/** For each other player, the trades with them still to be given, for their panel on the board. */
function owedLines(ctx) {
  const lines = {};
  for (const t of trades(ctx)) {
    if (t.state !== "accepted") continue;
    const sent = t.from === ctx.seat;
    const other = sent ? t.to : t.from;
    const theirs = sent ? t.left.receiver : t.left.proposer;
    const mine = sent ? t.left.proposer : t.left.receiver;
    const words = [];
    if (!emptySide(theirs)) words.push(`Owes you ${goodsText(theirs)}`);
    if (!emptySide(mine)) words.push(`${words.length ? "you" : "You"} owe ${goodsText(mine)}`);
    if (words.length) lines[other] = words.join("; ");
  }
  return lines;
}

function render(view, ctx) {
  const { names, h, kit: K = window.Kit } = ctx;
  const width = K.fit();
  const pad = 10;
  const parts = [];
  const me = ctx.seat;
  const colourOf = (seat) => K.player(seat, names[seat]).colour;
  const election = view.election;
  const over = view.phase === "over";
  let y = 8;

  // -- the centre of the table: the Guillotine, the Pantry, the Medals, the starter Generals
  const victim = view.guillotine;
  const gx = pad;
  const gs = width < 400 ? 0.88 : 1; // a phone: a smaller Guillotine leaves room for the Pantry, the Medals and the Generals
  const guillotine = K.g({ "data-key": "guillotine", transform: `translate(${gx} ${y}) scale(${gs})` },
    K.rect(0, 0, 120, 150, { rx: 8, fill: "#f6efe0", stroke: "#d8ccb0" }),
    K.rect(28, 14, 8, 112, { fill: "#7a5230" }), K.rect(84, 14, 8, 112, { fill: "#7a5230" }),
    K.rect(22, 8, 76, 10, { rx: 2, fill: "#5b3a1e" }),
    K.path("M36,26 L84,26 L84,40 L36,52 Z", { fill: "#c9ced6", stroke: "#555", "stroke-width": 1.5 }),
    K.line(60, 18, 60, 26, { stroke: "#555", "stroke-width": 2 }),
    K.rect(36, 92, 48, 12, { fill: "#5b3a1e" }), K.circle(60, 98, 6, { fill: "#f6efe0", stroke: "#5b3a1e" }),
    K.rect(16, 126, 88, 8, { rx: 2, fill: "#5b3a1e" }),
    victim !== null && victim !== undefined ? K.g({ "data-key": "guillotine-pawn" }, pawn(K, 60, 78, colourOf(victim), "alive", 1.2)) : null,
    K.text(60, 143, "Guillotine", { anchor: "middle", size: 14, "font-weight": 700 }));
  K.tip(guillotine, victim !== null && victim !== undefined ? `${RULES.guillotine} ${names[victim]}'s Pawn is on it now.` : `${RULES.guillotine} It is empty now.`);
  parts.push(guillotine);
  let x = gx + Math.round(120 * gs) + 8;
  const pantry = K.g({ "data-key": "pantry", transform: `translate(${x} ${y})` },
    cardBack(K, 6, 4, 62, 84), cardBack(K, 2, 0, 62, 84),
    K.rect(8, 30, 50, 26, { rx: 4, fill: "#fff" }), K.text(33, 44, view.pantry, { anchor: "middle", size: 18, "font-weight": 700 }),
    K.text(34, 104, "Pantry", { anchor: "middle", size: 14, "font-weight": 700 }));
  parts.push(K.tip(pantry, `${RULES.pantry} ${plural(view.pantry, "card")} left.`));
  x += 72;
  const centre = K.g({ "data-key": "centre-medals", transform: `translate(${x} ${y})` },
    K.rect(0, 0, 64, 88, { rx: 8, fill: "#fff", stroke: "#8b7d5c", "stroke-width": 2 }),
    K.icon("medal", 32, 30, 30), K.text(32, 66, view.centre_medals, { anchor: "middle", size: 18, "font-weight": 700 }),
    K.text(32, 104, "Medals", { anchor: "middle", size: 14, "font-weight": 700 }));
  parts.push(K.tip(centre, `${RULES.centre} ${plural(view.centre_medals, "Medal")} there now.`));
  x += 70;
  let centreBottom = y + 112;
  let gy = y;
  if (x + 64 > width - pad) { x = gx + Math.round(120 * gs) + 8; gy = y + 120; centreBottom = y + 232; } // a narrow table: the pile goes below
  const pile = K.g({ "data-key": "starter-generals", transform: `translate(${x} ${gy})` },
    K.rect(0, 0, 64, 88, { rx: 8, fill: "#eef2ff", stroke: "#1f3a93", "stroke-width": 2 }),
    bicorne(K, 32, 32, 1.2), K.text(32, 66, view.starter_generals_pile, { anchor: "middle", size: 18, "font-weight": 700 }),
    K.text(32, 104, "Generals", { anchor: "middle", size: 14, "font-weight": 700 }));
  parts.push(K.tip(pile, `${RULES.starterGenerals} ${plural(view.starter_generals_pile, "starter General")} left.`));
  y = Math.max(centreBottom, y + Math.round(150 * gs) + 8);
  // the Operator's decision, under the Guillotine
  if (ctx.start && (ctx.offered("execute") || ctx.offered("mercy"))) {
    parts.push(ctx.start(K.tip(button(K, gx, y, 96, "Execute", { "data-key": "execute" }), "The Pawn on the Guillotine dies; its owner regains three Medals and a starter General."), "execute", "Execute the Pawn"));
    parts.push(ctx.start(K.tip(button(K, gx + 104, y, 96, "Mercy", { "data-key": "mercy" }), "The Pawn goes back to its owner; you lose a Medal."), "mercy", "Grant mercy"));
    y += 52;
  }
  // the round and the end check
  const step = PHASE_WORDS[view.phase] || (election ? `electing the ${election.title}${election.vote_number > 1 ? ` (vote ${election.vote_number})` : ""}` : "");
  const roundLine = over ? `The game is over: ${END_REASONS[view.end_reason] || "it has ended"}.` : `Round ${view.round}${step ? ` · ${step}` : ""}`;
  parts.push(K.label(pad, y + 10, roundLine, { max: width - 2 * pad, size: 16, "font-weight": 700, "data-key": "round-line" }));
  const check = K.label(pad, y + 32, `End of round check: more than ${(view.options && view.options.winning_cakes) || 40} cakes in a stash ends the game.`,
    { max: width - 2 * pad, size: 14, fill: "#6b6b6b", "data-key": "end-check" });
  parts.push(K.tip(check, RULES.end));
  y += 48;

  // -- the offices of the Committee, in the order they are elected
  const ow = Math.max(104, Math.min(170, Math.floor((width - 2 * pad - 4 * 8) / 5)));
  const perRow = Math.max(1, Math.floor((width - 2 * pad + 8) / (ow + 8)));
  OFFICES.forEach((office, i) => {
    const holder = office === "head" ? view.head : (view.offices || {})[office];
    const electing = election && election.office === office && !over;
    const ox = pad + (i % perRow) * (ow + 8);
    const oy = y + Math.floor(i / perRow) * 96;
    const lines = TITLE_LINES[office];
    const node = K.g({ "data-key": `office-${office}`, transform: `translate(${ox} ${oy})` },
      K.rect(0, 0, ow, 88, { rx: 8, fill: office === "enemy" ? "#fde9e6" : office === "head" ? "#fff1c2" : "#fffdf6",
        stroke: electing ? "#c0392b" : "#8b7d5c", "stroke-width": electing ? 4 : 2 }),
      lines.map((l, j) => K.label(ow / 2, 16 + j * 17 + (lines.length === 1 ? 8 : 0), l, { anchor: "middle", max: ow - 4, size: 15, "font-weight": 700 })),
      holder !== null && holder !== undefined
        ? [K.mark(holder, names[holder], { x: 16, y: 68, r: 10 }), K.label(30, 68, names[holder], { max: ow - 36, size: 15, fill: colourOf(holder), "font-weight": 700 })]
        : K.text(ow / 2, 68, electing ? "voting…" : "—", { anchor: "middle", size: 14, fill: "#6b6b6b" }));
    parts.push(K.tip(node, `${RULES[office]}${holder !== null && holder !== undefined ? ` Held by ${names[holder]}.` : ""}`));
  });
  y += Math.ceil(OFFICES.length / perRow) * 96 + 4;

  // -- the Secretary's cards, the seizing and dealing, and the Food Inspector's stamp
  const draw = view.draw || [];
  if (draw.length) {
    parts.push(K.text(pad, y + 10, "The Secretary's cards", { size: 16, "font-weight": 700 }));
    y += 22;
    const cw = 96;
    const ch = 110;
    const per = Math.max(1, Math.floor((width - 2 * pad + 8) / (cw + 8)));
    const picking = ctx.draft && ctx.draft.type === "seize" ? "seize" : "deal";
    draw.forEach((c, i) => {
      const cx = pad + (i % per) * (cw + 8);
      const cy = y + Math.floor(i / per) * (ch + 8);
      const general = c.value === 0;
      const node = K.g({ "data-key": `drawn-${c.card}`, transform: `translate(${cx} ${cy})` },
        K.rect(0, 0, cw, ch, { rx: 8, fill: general ? "#eef2ff" : "#fffaf0", stroke: "#8b7d5c", "stroke-width": 2 }),
        general ? bicorne(K, cw / 2, 28, 1.3) : K.icon("cake", cw / 2, 28, 30),
        K.text(cw / 2, 56, general ? "General" : `${c.value}`, { anchor: "middle", size: general ? 15 : 22, "font-weight": 700 }),
        c.to !== null && c.to !== undefined
          ? [K.mark(c.to, names[c.to], { x: 14, y: 84, r: 9 }), K.label(27, 84, names[c.to], { max: cw - 30, size: 14, fill: colourOf(c.to), "font-weight": 700 })]
          : K.text(cw / 2, 84, "on the table", { anchor: "middle", size: 14, fill: "#6b6b6b" }),
        c.seized ? K.text(cw / 2, 101, "seized", { anchor: "middle", size: 14, "font-style": "italic", fill: "#c0392b" }) : null);
      K.tip(node, `${general ? "A General: kept face up beside the Pawns, even if the batch is unsafe." : `A Cake card worth ${c.value} cakes.`}${c.to !== null && c.to !== undefined ? ` In front of ${names[c.to]}.` : ""}`);
      const words = picking === "seize" ? `Seize ${cardName(c.value)}` : `Deal ${cardName(c.value)}`;
      parts.push(ctx.choice ? ctx.choice(node, picking, "card", c.card, words) : node);
    });
    const rows = Math.ceil(draw.length / per);
    y += rows * (ch + 8);
    // the stamp: the verdict, or the Inspector's two choices
    if (view.inspection) {
      const safe = view.inspection === "safe";
      parts.push(K.tip(K.g({ "data-key": "stamp", transform: `translate(${pad} ${y})` },
        K.rect(0, 0, 150, 44, { rx: 6, fill: "none", stroke: safe ? "#009E73" : "#c0392b", "stroke-width": 3 }),
        K.text(75, 23, safe ? "SAFE" : "UNSAFE", { anchor: "middle", size: 20, "font-weight": 700, fill: safe ? "#006b4f" : "#c0392b", "letter-spacing": 3 })),
      safe ? RULES.safe : RULES.unsafe));
      y += 52;
    } else if (ctx.can && ctx.can("inspect", "safe", true)) {
      [[true, "Safe"], [false, "Unsafe"]].forEach(([value, words], i) => {
        const stamp = K.g({ "data-key": `inspect-${value ? "safe" : "unsafe"}`, transform: `translate(${pad + i * 130} ${y})` },
          K.rect(0, 0, 120, 44, { rx: 6, fill: "#fff", stroke: value ? "#009E73" : "#c0392b", "stroke-width": 3 }),
          K.text(60, 23, words.toUpperCase(), { anchor: "middle", size: 18, "font-weight": 700, fill: value ? "#006b4f" : "#c0392b" }));
        K.tip(stamp, value ? RULES.safe : RULES.unsafe);
        parts.push(ctx.choice(stamp, "inspect", "safe", value, `Declare the batch ${words.toLowerCase()}`));
      });
      y += 52;
    }
  }

  // -- each player's panel: Pawns, Medals, Generals, the ballot card
  const pw = width < 560 ? Math.floor((width - 2 * pad - 10) / 2) : Math.min(260, Math.floor((width - 2 * pad - 20) / 3));
  const per = Math.max(1, Math.floor((width - 2 * pad + 10) / (pw + 10)));
  const revealed = election && (election.cards || []).some((c) => c !== null) ? election.cards
    : !election || !election.ballot ? (view.last_ballot && view.last_ballot.cards) || null : null;
  const tally = election && (election.tally || []).some((n) => n !== null) ? election.tally : null;
  const sealed = election && election.ballot ? election.ballot : null;
  const headMedal = ctx.offered && (ctx.offered("award_medal") || ctx.offered("remove_medal"));
  const generalUse = ctx.offered ? ["coup", "allege_rigging", "seize"].find((k) => ctx.offered(k)) : null;
  const owed = owedLines(ctx);
  const heights = [];
  const panelTops = [];
  names.forEach((player, seat) => {
    const col = seat % per;
    const row = Math.floor(seat / per);
    const px = pad + col * (pw + 10);
    if (col === 0) { panelTops[row] = row === 0 ? y + 4 : panelTops[row - 1] + heights[row - 1] + 10; }
    const py = panelTops[row];
    const colour = colourOf(seat);
    const inner = [];
    let ly = 0;
    const held = [...(view.head === seat ? ["Head"] : []), ...OFFICES.filter((o) => o !== "head" && (view.offices || {})[o] === seat)
      .map((o) => ({ enemy: "Enemy", operator: "Operator", secretary: "Secretary", inspector: "Inspector" }[o]))];
    const dead = view.dead === seat;
    inner.push(K.mark(seat, player, { x: 14, y: 16, r: 10 }),
      K.label(30, 16, `${player}${dead ? " (killed)" : ""}`, { max: pw - 36, size: 16, "font-weight": 700, fill: colour }));
    ly = 34;
    inner.push(K.label(10, ly + 4, `${(view.colours || [])[seat] || ""} character`, { max: pw - 20, size: 14, fill: "#6b6b6b" }));
    ly += 22;
    if (held.length) {
      inner.push(K.label(10, ly + 4, held.join(", "), { max: pw - 20, size: 14, "font-weight": 700, "data-key": `held-${seat}` }));
      ly += 22;
    }
    // Pawns: alive, on the Guillotine, dead
    const alive = view.pawns[seat];
    const onBlock = view.guillotine === seat ? 1 : 0;
    const pawns = [];
    for (let i = 0; i < 3; i++) {
      const state = i < alive - onBlock ? "alive" : i < alive ? "guillotine" : "dead";
      pawns.push(pawn(K, 18 + i * 24, ly + 16, colour, state));
    }
    inner.push(K.tip(K.g({ "data-key": `pawns-${seat}` }, K.rect(2, ly, 80, 34, { fill: "transparent" }), pawns),
      `${RULES.pawns} ${player} has ${plural(alive, "Pawn")}${onBlock ? ", one of them on the Guillotine" : ""}.`));
    inner.push(K.text(pw - 10, ly + 16, plural(view.votes[seat], "vote"), { anchor: "end", size: 15, "font-weight": 700 }));
    ly += 40;
    // Medals, with the new Head's award and removal
    inner.push(K.tip(K.count("medal", view.medals[seat], 8, ly + 22, { size: 18, "data-key": `medals-${seat}` }), `${RULES.medals} ${player} has ${plural(view.medals[seat], "Medal")}.`));
    if (headMedal && ctx.choice) {
      if (ctx.can("award_medal", "to", seat)) {
        inner.push(ctx.choice(K.tip(button(K, pw - 100, ly, 44, "+1", { "data-key": `award-${seat}` }), `Award ${player} a Medal from the centre.`), "award_medal", "to", seat, `Award ${player} a Medal`));
      }
      if (ctx.can("remove_medal", "from", seat)) {
        inner.push(ctx.choice(K.tip(button(K, pw - 52, ly, 44, "−1", { "data-key": `remove-${seat}` }), `Remove a Medal from ${player} to the centre.`), "remove_medal", "from", seat, `Remove a Medal from ${player}`));
      }
    }
    ly += 48;
    // Generals, with their uses as buttons on your own
    const generals = generalsOf(view, seat);
    inner.push(K.tip(K.g({ "data-key": `generals-${seat}` }, K.rect(4, ly, 80, 40, { rx: 8, fill: "transparent" }), bicorne(K, 22, ly + 22, 1),
      K.text(42, ly + 22, generals, { size: 18, "font-weight": 700 })), `${RULES.generals} ${player} has ${plural(generals, "General")}.`));
    ly += 44;
    if (seat === me && generalUse && ctx.start) {
      const words = { coup: "Coup (3 Generals)", allege_rigging: "Allege rigging (1)", seize: "Seize cake (2)" }[generalUse];
      const rule = { coup: RULES.coup, allege_rigging: RULES.rigging, seize: RULES.seize }[generalUse];
      inner.push(ctx.start(K.tip(button(K, 6, ly, pw - 12, words, { "data-key": `general-${generalUse}` }), rule), generalUse, words));
      ly += 50;
    }
    // the ballot card: face down while sealed, flipped once revealed
    if (sealed && sealed.seats.includes(seat)) {
      const chose = sealed.chosen.includes(seat);
      inner.push(chose ? cardBack(K, 8, ly, 30, 40, { "data-key": `ballot-${seat}` }) : K.rect(8, ly, 30, 40, { rx: 5, fill: "none", stroke: "#bbb", "stroke-dasharray": "4 3" }),
        K.label(46, ly + 20, chose ? "has voted" : "choosing…", { max: pw - 56, size: 14, fill: "#6b6b6b" }));
      ly += 46;
    } else if (revealed && revealed[seat] !== null && revealed[seat] !== undefined) {
      const target = revealed[seat];
      const flipped = K.g({ "data-key": `ballot-${seat}` },
        K.rect(8, ly, pw - 16, 40, { rx: 5, fill: "#fff", stroke: colourOf(target), "stroke-width": 2.5 }),
        K.text(16, ly + 20, "voted", { size: 14, fill: "#6b6b6b" }), K.mark(target, names[target], { x: 72, y: ly + 20, r: 9 }),
        K.label(86, ly + 20, names[target], { max: pw - 100, size: 15, "font-weight": 700, fill: colourOf(target) }));
      inner.push(K.tip(flipped, `${RULES.ballot} ${player} played ${names[target]}'s card.`));
      ly += 46;
    }
    if (tally && tally[seat] !== null && tally[seat] !== undefined) {
      const won = election.winner === seat;
      inner.push(K.text(10, ly + 12, `${plural(tally[seat], "vote")} for ${player}${won ? " ✓" : ""}`, { size: 15, "font-weight": 700, fill: won ? "#006b4f" : "#1d1d1d", "data-key": `tally-${seat}` }));
      ly += 26;
    }
    inner.push(K.label(10, ly + 10, `Hand ${view.hand_cards[seat]}, used ${view.used_cards[seat]}`, { max: pw - 20, size: 14, fill: "#6b6b6b" }),
      K.label(10, ly + 30, `Stash: ${plural(view.stash_cards[seat], "card")}`, { max: pw - 20, size: 14, fill: "#6b6b6b", "data-key": `stash-count-${seat}` }));
    ly += 46;
    if (owed[seat]) { // an accepted trade not yet given in full: never binding, so only a reminder
      inner.push(K.tip(K.label(10, ly + 8, owed[seat], { max: pw - 20, size: 13, "font-weight": 700, fill: "#8a5a00", "data-key": `trade-${seat}` }),
        `An accepted trade: ${owed[seat]}. Agreements are never binding: each side gives its part as a gift, or does not.`));
      ly += 24;
    }
    const expected = (view.pending || []).some((p) => p.seat === seat);
    const panel = K.g({ transform: `translate(${px} ${py})`, "data-key": `player-${seat}` },
      K.rect(0, 0, pw, ly, { rx: 8, fill: dead ? "#eee" : "#fffdf6", stroke: expected ? "#c0392b" : colour, "stroke-width": expected ? 4 : 2 }),
      K.rect(0, 0, pw, 5, { fill: colour }), inner);
    const pick = panelPick(ctx, seat);
    if (pick) {
      const [kind, param] = pick;
      const words = { break_tie: `Choose ${player}`, deal: `Deal to ${player}`, donate: `Take a Medal from ${player}`, coup: `${player} wins by your coup` }[kind];
      ctx.choice(panel, kind, param, seat, words);
    }
    parts.push(panel);
    if (col === 0) heights[row] = ly;
    else heights[row] = Math.max(heights[row], ly);
  });
  const rows = Math.ceil(names.length / per);
  y = rows ? panelTops[rows - 1] + heights[rows - 1] + 10 : y;

  // -- yours only: your hand of Voting cards, your used pile, your Cake cards
  const you = view.you;
  if (you && me !== null && me !== undefined && !over) {
    const start = y;
    y += 8;
    const secret = [];
    secret.push(K.text(pad + 10, y + 12, "Yours only (secret)", { size: 16, "font-weight": 700, fill: "#8a5a00" }));
    y += 26;
    secret.push(K.tip(K.text(pad + 10, y + 8, `Voting cards: ${plural(you.hand.length, "card")} in hand, ${you.used.length} used`, { size: 14 }), RULES.hand));
    y += 20;
    const vw = 76;
    const vh = 84;
    const perHand = Math.max(1, Math.floor((width - 2 * pad - 20 + 8) / (vw + 8)));
    you.hand.forEach((target, i) => {
      const vx = pad + 10 + (i % perHand) * (vw + 8);
      const vy = y + Math.floor(i / perHand) * (vh + 8);
      const node = K.g({ "data-key": `vote-card-${i}`, "data-target": names[target], transform: `translate(${vx} ${vy})` },
        K.rect(0, 0, vw, vh, { rx: 6, fill: "#fff", stroke: colourOf(target), "stroke-width": 3 }),
        K.rect(0, 0, vw, 10, { fill: colourOf(target) }),
        K.mark(target, names[target], { x: vw / 2, y: 34, r: 13 }),
        K.label(vw / 2, 66, names[target], { anchor: "middle", max: vw - 8, size: 14, "font-weight": 700 }));
      K.tip(node, `A Voting card for ${names[target]} (${(view.colours || [])[target] || ""}). ${RULES.hand}`);
      secret.push(ctx.choice ? ctx.choice(node, "vote", "candidate", target, `Vote for ${names[target]}`) : node);
    });
    y += Math.ceil(you.hand.length / perHand) * (vh + 8);
    if (you.sealed_vote !== null && you.sealed_vote !== undefined) {
      secret.push(K.label(pad + 10, y + 8, `Played face down: ${names[you.sealed_vote]}`, { max: width - 2 * pad - 20, size: 14, "font-weight": 700 }));
      y += 22;
    }
    y += 6;
    secret.push(K.tip(K.text(pad + 10, y + 8, `Your stash: ${plural(you.cakes, "cake")} in ${plural(you.stash.length, "Cake card")}`, { size: 14, "font-weight": 700, "data-key": "stash-total" }), RULES.stash));
    y += 20;
    const kw = 56;
    const kh = 64;
    const perStash = Math.max(1, Math.floor((width - 2 * pad - 20 + 6) / (kw + 6)));
    const received = you.received;
    let thisRound = received && received.in_stash ? you.stash.lastIndexOf(received.value) : -1;
    you.stash.forEach((value, i) => {
      const sx = pad + 10 + (i % perStash) * (kw + 6);
      const sy = y + Math.floor(i / perStash) * (kh + 6);
      const fresh = i === thisRound;
      const card = K.tip(K.g({ "data-key": `stash-${i}`, transform: `translate(${sx} ${sy})` },
        K.rect(0, 0, kw, kh, { rx: 6, fill: "#fffaf0", stroke: fresh ? "#c0392b" : "#8a5a00", "stroke-width": fresh ? 3 : 1.5 }),
        K.icon("cake", kw / 2, 20, 22), K.text(kw / 2, 48, value, { anchor: "middle", size: 18, "font-weight": 700 })),
      `A Cake card worth ${value}${fresh ? ", received this round" : ""}. ${RULES.stash}`);
      // while a gift of Cake cards is drafted, a click on a card puts it in the gift or takes it out
      secret.push(ctx.draft && ctx.draft.type === "give_cakes" && ctx.choice ? ctx.choice(card, "give_cakes", "cards", i, `Give Cake ${value}`) : card);
    });
    y += Math.max(1, Math.ceil(you.stash.length / perStash)) * (kh + 6);
    if (ctx.start && ctx.offered("donate")) {
      const bw = Math.min(260, width - 2 * pad - 20);
      secret.push(ctx.start(K.tip(button(K, pad + 10, y + 4, bw, "Let them eat cake!", { "data-key": "donate" }), RULES.donate), "donate", "Donate this round's Cake card"));
      y += 52;
      if (ctx.can("donate", "take_from", null) && ctx.picked("donate", "take_from") === undefined && ctx.draft.type === "donate") {
        secret.push(ctx.choice(K.tip(button(K, pad + 10, y + 4, bw, "Take no Medal", { "data-key": "take-nobody" }), "Donate without taking a Medal."), "donate", "take_from", null, "Take no Medal"));
        y += 52;
      }
    }
    y += 8;
    parts.push(K.g({ "data-key": "yours", class: "secret-area" },
      K.rect(pad, start, width - 2 * pad, y - start, { rx: 8, fill: "#fff7e6", stroke: "#d79b00", "stroke-width": 2, "stroke-dasharray": "6 4" }), secret));
    y += 6;
  }
  const drawing = K.svg(width, y + 6, { "aria-label": `Let Them Eat Cake, round ${view.round}`, "data-testid": "ltec-table" }, parts);
  return h("div", { class: "board ltec" }, K.legend(names), drawing);
}

/** One sentence per event, with names. */
function describe(e, { names, seat = null }) {
  const n = (s) => (s === seat && seat !== null ? "You" : nameOf(names, s));
  const obj = (s) => (s === seat && seat !== null ? "you" : nameOf(names, s));
  switch (e.kind) {
    case "game_started": return `The Committee of Public Safety meets; ${nameOf(names, e.head)} holds the Head of Committee token.`;
    case "starter_cakes": return `${n(e.seat)} ${e.seat === seat ? "receive" : "receives"} two starter Cakes${e.cakes ? ` (${e.cakes.join(" and ")})` : ""}.`;
    case "round_started": return `Round ${e.round} begins with the vote for a Head of Committee.`;
    case "election_opened": return `The vote for the ${title(e.office)} opens: ${e.office === "enemy" ? `${list(e.candidates.map(obj))} may be named` : "every player may be elected"}.`;
    case "has_chosen": return `${n(e.seat)} ${e.seat === seat ? "have" : "has"} played a Voting card face down.`;
    case "hand_refreshed": return `${n(e.seat)} ${e.seat === seat ? "take" : "takes"} back every played Voting card.`;
    case "ballot_revealed": {
      const cards = (e.cards || []).map((c, s) => (c === null ? null : `${nameOf(names, s)} for ${nameOf(names, c)}`)).filter(Boolean);
      const tally = (e.tally || []).map((t, s) => (t === null ? null : `${nameOf(names, s)} ${t}`)).filter(Boolean);
      return `The Voting cards for the ${title(e.office)} are revealed${cards.length ? `: ${cards.join(", ")}` : ""}. Votes: ${tally.join(", ")}.`;
    }
    case "tie_broken": return `The Head of Committee, ${nameOf(names, e.head)}, breaks the tie for the ${title(e.office)}: ${nameOf(names, e.winner)}.`;
    case "vote_result": return `${nameOf(names, e.winner)} wins the vote for the ${title(e.office)}.`;
    case "elected": return `${nameOf(names, e.seat)} is the ${title(e.office)}${e.by_vote ? "" : " by a coup"}.`;
    case "unity_rule": return e.lost_medal.length ? `Unity! ${list(e.lost_medal.map((s) => nameOf(names, s)))} did not vote with the majority and ${e.lost_medal.length > 1 ? "lose" : "loses"} a Medal.` : "Unity! Everyone who could voted with the majority.";
    case "head_medal": return e.gained ? `${nameOf(names, e.head)} takes a Medal from the centre as the new Head.` : `The centre has no Medal for the new Head, ${nameOf(names, e.head)}.`;
    case "medal_awarded": return `${nameOf(names, e.head)} awards ${nameOf(names, e.seat)} a Medal from the centre.`;
    case "medal_removed": return `${nameOf(names, e.head)} removes a Medal from ${nameOf(names, e.seat)}.`;
    case "enemy_candidates": return `${e.immune !== null && e.immune !== undefined ? `${nameOf(names, e.immune)} has the army's backing and is safe. ` : ""}Fewest Medals (${e.medals}): ${list(e.candidates.map((s) => nameOf(names, s)))}.`;
    case "enemy_of_the_revolution": return `${nameOf(names, e.seat)} is the Enemy of the Revolution and sends a Pawn to the Guillotine.`;
    case "executed": return e.pawns === 0 ? `${nameOf(names, e.operator)} executes ${nameOf(names, e.seat)}'s last Pawn: ${nameOf(names, e.seat)} is killed.`
      : `${nameOf(names, e.operator)} executes ${nameOf(names, e.seat)}'s Pawn; ${nameOf(names, e.seat)} regains ${plural(e.medals, "Medal")}${e.general ? " and a starter General" : ""}.`;
    case "mercy": return `${nameOf(names, e.operator)} grants mercy: ${nameOf(names, e.seat)}'s Pawn goes back${e.medal ? `, and ${nameOf(names, e.operator)} loses a Medal` : ""}.`;
    case "pantry_drawn": return `The Secretary, ${nameOf(names, e.secretary)}, draws ${list(e.cards.map((c) => (c === "General" ? "a General" : c)))}.`;
    case "card_dealt": return `The Secretary places ${cardName(e.value)} in front of ${nameOf(names, e.receiver)}.`;
    case "cake_seized": return `${nameOf(names, e.seat)} seizes ${cardName(e.value)} with two Generals.`;
    case "generals_spent": return `${nameOf(names, e.seat)} spends ${plural(e.generals, "General")}${e.medal ? " and a Medal" : ""} on ${{ coup: "a coup", rigging: "alleging vote rigging", seize: "seizing cake" }[e.use] || e.use}.`;
    case "coup": return `Coup! ${nameOf(names, e.seat)} names ${nameOf(names, e.winner)} the ${title(e.office)} without a vote.`;
    case "vote_rigging_alleged": return `${nameOf(names, e.seat)} alleges the vote for the ${title(e.office)} was rigged: a new vote is held.`;
    case "batch_inspected": return `The Food Inspector, ${nameOf(names, e.inspector)}, declares the batch ${e.safe ? "safe: everyone keeps their card" : `unsafe: the Cake goes back to the Pantry${e.medal ? ` and ${nameOf(names, e.inspector)} loses a Medal` : ""}`}.`;
    case "let_them_eat_cake": return `“Let them eat cake!” ${nameOf(names, e.seat)} donates Cake ${e.value} to the people${e.took_medal_from !== null && e.took_medal_from !== undefined ? ` and takes a Medal from ${nameOf(names, e.took_medal_from)}` : ""}.`;
    case "medals_given": return `${nameOf(names, e.giver)} gives ${nameOf(names, e.receiver)} ${plural(e.medals, "Medal")}.`;
    case "generals_given": return `${nameOf(names, e.giver)} gives ${nameOf(names, e.receiver)} ${plural(e.generals, "General")}.`;
    case "cakes_given": return `${nameOf(names, e.giver)} gives ${nameOf(names, e.receiver)} ${plural(e.cards, "Cake card")}.`;
    case "cake_values_given": return `The Cake cards ${nameOf(names, e.giver)} gave ${nameOf(names, e.receiver)} are worth ${list(e.values.map(String))}.`;
    case "game_over": return `The game is over: ${END_REASONS[e.reason] || e.reason}. ${e.winners && e.winners.length ? `${list(e.winners.map((s) => nameOf(names, s)))} ${e.winners.length > 1 ? "share the win" : "wins"}.` : ""}`.trim();
    default: return null;
  }
}

const WINDOW_WORDS = {
  coup: (t) => `stage a coup before the vote for the ${t} (3 Generals and a Medal), or pass`,
  rigging: (t) => `allege that the vote for the ${t} was rigged (1 General and a Medal), or accept it`,
  seize: () => "seize one of the Secretary's cards (2 Generals and a Medal), or pass",
  donate: () => "cry “Let them eat cake!” and donate this round's Cake card, or keep it",
};

function status(view, ctx) {
  const { names, seat } = ctx;
  const pending = view.pending || [];
  const mine = seat !== null && seat !== undefined && pending.some((p) => p.seat === seat);
  const others = pending.filter((p) => p.seat !== seat).map((p) => names[p.seat]);
  const election = view.election;
  const t = election ? election.title : "";
  if (view.phase === "over") {
    const result = view.result;
    if (!result) return "The game is over.";
    return `The game is over (${END_REASONS[view.end_reason] || "ended"}): ${Kit.winners(result, names, (n) => plural(n, "cake"))}.`;
  }
  const operator = (view.offices || {}).operator;
  const secretary = (view.offices || {}).secretary;
  const inspector = (view.offices || {}).inspector;
  switch (view.phase) {
    case "ballot": return mine ? `Vote for the ${t}: click a Voting card in your hand.` : `Waiting for ${list(others)} to vote for the ${t}.`;
    case "tie": return mine ? `The vote for the ${t} is tied: as Head of Committee, click the player who wins.` : `The Head of Committee, ${names[view.head]}, is breaking the tie for the ${t}.`;
    case "head_medal": return mine ? "As the new Head of Committee, award a Medal from the centre (+1) or remove one from a player (−1)." : `The new Head of Committee, ${names[view.head]}, is moving a Medal.`;
    case "guillotine": return mine ? `As Guillotine Operator, execute ${names[view.guillotine]}'s Pawn or grant mercy.` : `The Guillotine Operator, ${names[operator]}, decides the fate of ${names[view.guillotine]}'s Pawn.`;
    case "deal": return mine ? "As Secretary, click a card, then the player who receives it." : `The Secretary, ${names[secretary]}, is dealing the cards.`;
    case "inspect": return mine ? "As Food Inspector, stamp the batch safe or unsafe." : `The Food Inspector, ${names[inspector]}, is inspecting the batch.`;
    default: {
      const words = WINDOW_WORDS[view.phase];
      if (words && mine) return `You may ${words(t)}.`;
      if (words && others.length) return `Waiting for ${list(others)}, who may ${words(t)}.`;
      return others.length ? `Waiting for ${list(others)}.` : "";
    }
  }
}

function summary(type, values, { view, names }) {
  const nm = (s) => (s === undefined ? "…" : nameOf(names, s));
  const drawn = (i) => { const c = (view.draw || []).find((d) => d.card === i); return c ? cardName(c.value) : "… (click a card)"; };
  switch (type) {
    case "vote": return `You play your Voting card for ${nm(values.candidate)}, face down, for the ${view.election ? view.election.title : "vote"}.`;
    case "coup": return `Coup: you spend 3 Generals and a Medal; ${values.winner === undefined ? "… (click the winner's panel)" : nm(values.winner)} is the ${view.election ? view.election.title : "winner"} without a vote.`;
    case "allege_rigging": return `You spend a General and a Medal: the vote for the ${view.election ? view.election.title : "office"} is ignored and held again.`;
    case "seize": return `You spend 2 Generals and a Medal to seize ${values.card === undefined ? "… (click a card)" : drawn(values.card)}.`;
    case "break_tie": return `As Head of Committee, you choose ${nm(values.winner)} as the ${view.election ? view.election.title : "winner"}.`;
    case "award_medal": return `You award ${nm(values.to)} a Medal from the centre.`;
    case "remove_medal": return `You remove a Medal from ${nm(values.from)} to the centre.`;
    case "execute": return `You execute ${nm(view.guillotine)}'s Pawn.`;
    case "mercy": return `You grant ${nm(view.guillotine)}'s Pawn mercy and lose a Medal.`;
    case "deal": return `You place ${values.card === undefined ? "… (click a card)" : drawn(values.card)} in front of ${values.to === undefined ? "… (click a player)" : nm(values.to)}.`;
    case "inspect": return values.safe === undefined ? "Stamp the batch safe or unsafe." : `You declare the batch ${values.safe ? "safe" : "unsafe"}.`;
    case "donate": {
      const card = view.you && view.you.received ? `Cake ${view.you.received.value}` : "this round's Cake card";
      const take = values.take_from === undefined ? "… (click a player's panel)" : values.take_from === null ? "no Medal" : `a Medal from ${nm(values.take_from)}`;
      return `“Let them eat cake!” You donate ${card} and take ${take}.`;
    }
    default: return null;
  }
}

function moment(e, { names, view }) {
  const say = describe(e, { names });
  switch (e.kind) {
    case "ballot_revealed": return { select: "[data-key^=ballot-], [data-key^=tally-]", ms: 600, say, keep: true };
    case "vote_result": case "tie_broken": return { select: `[data-key=player-${e.winner}]`, say };
    case "elected": return { select: `[data-key=office-${e.office}], [data-key=player-${e.seat}]`, ms: 600, say };
    case "coup": return { select: `[data-key=office-${e.office}], [data-key=generals-${e.seat}]`, shake: `[data-key=player-${e.seat}]`, ms: 600, say };
    case "vote_rigging_alleged": return { select: `[data-key=generals-${e.seat}]`, shake: `[data-key=generals-${e.seat}]`, say };
    case "enemy_of_the_revolution": return { select: "[data-key=guillotine], [data-key=office-enemy]", fly: [[`[data-key=pawns-${e.seat}]`, "[data-key=guillotine]"]], say };
    case "executed": return { select: "[data-key=guillotine]", shake: "[data-key=guillotine]", ms: 600, say, keep: true,
      fly: e.medals ? [["[data-key=centre-medals]", `[data-key=player-${e.seat}]`]] : [] };
    case "mercy": return { select: `[data-key=player-${e.seat}]`, fly: [["[data-key=guillotine]", `[data-key=pawns-${e.seat}]`]], say };
    case "medal_awarded": return { select: `[data-key=medals-${e.seat}]`, fly: [["[data-key=centre-medals]", `[data-key=medals-${e.seat}]`]], say };
    case "medal_removed": return { select: "[data-key=centre-medals]", fly: [[`[data-key=medals-${e.seat}]`, "[data-key=centre-medals]"]], say };
    case "unity_rule": return e.lost_medal.length ? { select: e.lost_medal.map((s) => `[data-key=medals-${s}]`).join(", "), say } : null;
    case "pantry_drawn": return { select: "[data-key^=drawn-]", fly: [["[data-key=pantry]", "[data-key^=drawn-]"]], say };
    case "card_dealt": return { select: `[data-key=drawn-${e.card}]`, fly: [[`[data-key=drawn-${e.card}]`, `[data-key=player-${e.receiver}]`]], say };
    case "cake_seized": return { select: `[data-key=drawn-${e.card}]`, shake: `[data-key=drawn-${e.card}]`, say };
    case "batch_inspected": return { select: "[data-key=stamp], [data-key^=drawn-]", shake: "[data-key=stamp]", ms: 600, say };
    case "let_them_eat_cake": return { select: `[data-key=player-${e.seat}]`, fly: [[`[data-key=player-${e.seat}]`, "[data-key=pantry]"]], ms: 600, say };
    case "medals_given": return { select: `[data-key=medals-${e.receiver}]`, fly: [[`[data-key=medals-${e.giver}]`, `[data-key=medals-${e.receiver}]`]], say };
    case "generals_given": return { select: `[data-key=generals-${e.receiver}]`, fly: [[`[data-key=generals-${e.giver}]`, `[data-key=generals-${e.receiver}]`]], say };
    case "cakes_given": return { select: `[data-key=stash-count-${e.receiver}]`, fly: [[`[data-key=stash-count-${e.giver}]`, `[data-key=stash-count-${e.receiver}]`]], say };
    case "round_started": return e.round > 1 ? { select: "[data-key=end-check]", say: `End of round ${e.round - 1}: no stash holds enough cakes to end the game. Round ${e.round} begins.` } : null;
    case "game_over": return { select: "[data-key^=player-]", ms: 600, say };
    default: return null;
  }
}

function scoreSheet(final, { names, h }) {
  const { result } = final;
  const seats = names.map((_, seat) => seat);
  const cell = (seat, ...content) => h("td", { class: result.winners.includes(seat) ? "winner" : "" }, ...content);
  const row = (label, rule, make) => h("tr", {}, h("th", { scope: "row", title: rule }, label), seats.map((seat) => cell(seat, make(result.breakdown[seat], seat))));
  const place = (seat) => result.ranking.indexOf(seat) + 1;
  return h("div", { class: "scroll" }, h("table", { class: "grid score-sheet", "data-testid": "score-sheet" },
    h("thead", {}, h("tr", {}, h("th", {}, "step"), seats.map((seat) => h("th", { class: result.winners.includes(seat) ? "winner" : "" },
      result.winners.includes(seat) ? "★ " : "", names[seat], h("span", { class: "muted" }, botNote(final, seat)))))),
    h("tbody", {},
      row("1. Alive", "Only a living player can win: a player whose last Pawn was executed is killed.", (b) => (b.alive ? "alive" : "killed")),
      row("2. Cake cards", "Every stash, revealed.", (b) => (b.cake_cards.length ? b.cake_cards.join(" + ") : "none")),
      row("Cakes", "The living player with the most Cake wins.", (b) => h("b", {}, String(b.cakes))),
      row("3. Pawns", "A tie in Cake goes to the player with most Pawns.", (b) => String(b.pawns)),
      row("4. Generals", "Still tied: most Generals wins.", (b) => String(b.generals)),
      row("Medals", "Medals of Honour do not score.", (b) => String(b.medals)),
      row("Place", "Ties after every step share the win.", (b, seat) => (b.winner ? "★ wins" : String(place(seat)))))));
}

Tricolore.registerBoard("let-them-eat-cake", {
  render,
  describeEvent(event, ctx) {
    return describe(event, ctx) || describeEvent(event, ctx.names);
  },
  /** Parameters picked on the board: cards in the hand and on the table, players' panels, the stamps. */
  choices() {
    return { vote: ["candidate"], coup: ["winner"], seize: ["card"], break_tie: ["winner"], award_medal: ["to"],
      remove_medal: ["from"], deal: ["card", "to"], inspect: ["safe"], donate: ["take_from"], give_cakes: ["cards"] };
  },
  dealStarters,
  offers,
  /** Trades are proposals the engine does not keep: the rulebook says they are never binding. */
  proposalFamilies(ctx) {
    const family = tradeFamily(ctx);
    return family ? [family] : [];
  },
  complete(type, values, ctx) {
    return type === "propose_trade" ? tradeProblem(values, ctx) : null;
  },
  actionLabel(type) { return ACTION_LABELS[type] || null; },
  paramLabel(type, param) {
    if (param === "to" && type === "propose_trade") return "trade with";
    if (param === "to" && GIFT_TYPES.includes(type)) return "give to";
    return PARAM_LABELS[param] || null;
  },
  /** The Guillotine Operator's decision cannot be taken back: asked once. */
  irreversible(type, { names, view }) {
    const owner = names[view.guillotine] || "the condemned player";
    if (type === "execute") return `Execute ${owner}'s Pawn: it dies. This cannot be taken back.`;
    if (type === "mercy") return `Grant mercy: ${owner}'s Pawn goes back and you lose a Medal. This cannot be taken back.`;
    return null;
  },
  status,
  summary(type, values, ctx) {
    if (type === "propose_trade") return tradeSummary(values, ctx);
    if (GIFT_TYPES.includes(type)) {
      const said = giftSummary(type, values, ctx);
      // a sentence with rule terms is a node only where the page shows nodes above Confirm
      return ctx.startDeal || typeof said === "string" ? said : said.textContent;
    }
    return summary(type, values, ctx);
  },
  optionText(param, option, { names = [], view = {} }) {
    if (option === null && param === "take_from") return "nobody";
    if (["candidate", "winner", "to", "from", "take_from"].includes(param) && Number.isInteger(option)) return names[option] || null;
    if (param === "card" && Number.isInteger(option)) { const c = (view.draw || []).find((d) => d.card === option); return c ? cardName(c.value) : null; }
    if (param === "safe") return option ? "safe" : "unsafe";
    if (param === "cards" && Number.isInteger(option)) { // a Cake card of your stash, by its value
      const value = ((view.you || {}).stash || [])[option];
      return value === undefined ? null : cardName(value);
    }
    return null;
  },
  playerStats(seat, view) {
    return ` · ${plural(view.pawns[seat], "Pawn")}, ${plural(view.medals[seat], "Medal")}`;
  },
  /** Your secrets: the board draws your hand and your stash, so the panel says only which Voting
   * cards you have played face down; at the end, every player's stash. */
  secret(you, { h, names, seat, view, mine = true }) {
    if (mine && view && view.phase !== "over") {
      return h("section", { class: "secret", "data-testid": "secret" },
        h("h3", {}, "Secret — only you see this"),
        h("p", {}, "Your hand of Voting cards and your stash are drawn on the board, under “Yours only”."),
        h("p", {}, `Played, face down: ${you.used.map((s) => names[s]).join(", ") || "none"}`));
    }
    return h("section", { class: "secret", "data-testid": "secret" },
      h("h3", {}, mine ? "Secret — only you see this" : `${names[seat]}'s secrets`),
      h("p", {}, `Stash: ${plural(you.cakes, "cake")}`, you.stash.length ? ` (${you.stash.join(" + ")})` : ""),
      h("p", {}, `Voting cards in hand: ${you.hand.map((s) => names[s]).join(", ") || "none"}`),
      h("p", {}, `Played, face down: ${you.used.map((s) => names[s]).join(", ") || "none"}`));
  },
  moment,
  scoreSheet,
});
}
