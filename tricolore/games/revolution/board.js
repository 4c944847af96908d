// Revolution!, drawn: the Bidding Chart with the chips placed on it, the seven areas of the town with
// each player's Influence Markers, the support track, and each player's chips. A bid is built on
// the chart: tap a chip of your supply (Force, Blackmail or Gold), then a space (or its +) to put
// one there, − to take one back; the whole bid is shown before it is confirmed. After the reveal,
// every bid is on the chart and each space's winner is marked; the Spy, the Apothecary and a
// Remove 1 Influence card are played by clicking markers in the areas.
// Rule texts are the rulebook's (docs/games/revolution.md).
"use strict";
{
const CURRENCIES = ["force", "blackmail", "gold"];
const TITLE = { force: "Force", blackmail: "Blackmail", gold: "Gold" };
// The rulebook's chips: red Force, black Blackmail, yellow Gold; a letter on each for colour-blind eyes.
const CHIP = { force: { fill: "#c0392b", ink: "#fff", letter: "F" }, blackmail: { fill: "#222", ink: "#fff", letter: "B" },
  gold: { fill: "#f1c40f", ink: "#3a2a00", letter: "G" } };
const RULES = {
  force: "Force (red) is the strongest currency: one Force chip beats any number of Blackmail and Gold chips.",
  blackmail: "Blackmail (black): one Blackmail chip beats any number of Gold chips.",
  gold: "Gold (yellow), the weakest currency. A player who starts a round with fewer than five chips takes Gold up to five.",
  bidding: "Bidding: place all your chips behind the shield, on at most six spaces of the Bidding Chart, respecting each space's limits (Force may not be used to obtain the Spy). Several chips may share a space.",
  control: "Determining control: Force beats any Blackmail and Gold, Blackmail any Gold; at each level more chips win, and weaker currencies break ties. A tie gives the space to nobody. Losing chips go back to their owners; winning chips are paid to the supply.",
  track: "The support track: support is won on the Bidding Chart and from cards during the game; at the end each area's support goes to the player with most markers there. Most support wins.",
  area: "An Influence Area: at the end, the player with the most Influence Markers here wins its support (a plurality is enough; a tie awards nobody). The game ends in the round all Influence Spaces are filled.",
  spy: "The Spy: replace a previously placed opponent's Influence Marker, anywhere, with one of yours. The Spy never fills an empty space.",
  apothecary: "The Apothecary: switch any two previously placed Influence Markers of different players, your own included, if you wish.",
  card: "Card: not a contest. Each Gold placed here (at most three) draws a card: Support 1, 3 or 5, 1 Force, 1 Blackmail, 4 Gold, or Remove 1 Influence (remove an opponent's marker from any occupied area; nobody takes the space).",
  printer: "The Printer: incendiary pamphlets bring 10 support on the track.",
  remove: "Remove 1 Influence: remove an opponent's Influence Marker from any occupied area of the board. You may not put a marker of yours in its place: that is the Spy's privilege.",
};
const KIND_WORDS = { bid: "place your bid", spy: "use the Spy", swap: "use the Apothecary", decline: "decline", remove_influence: "remove an opponent's marker" };
const ACTION_LABELS = { bid: "Bid on the chart", spy: "Use the Spy", swap: "Swap two markers", decline: "Decline", remove_influence: "Remove 1 Influence" };
const PARAM_LABELS = { placement: "bid", area: "area", victim: "marker", first_area: "first area", first_owner: "first marker",
  second_area: "second area", second_owner: "second marker" };

// A text in a colour of its own (the stylesheet's ink is for texts without one).
const ink = (colour) => ({ fill: colour });
const slug = (name) => String(name).toLowerCase().replace(/[^a-z0-9]+/g, "-");
const { list, plural } = Kit;
const chipsText = (chips) => CURRENCIES.filter((c) => chips && chips[c]).map((c) => `${chips[c]} ${TITLE[c]}`).join(", ") || "nothing";
const placed = (placement) => CURRENCIES.map((c) => Object.values(placement || {}).reduce((n, chips) => n + (chips[c] || 0), 0));
const spacesUsed = (placement) => Object.values(placement || {}).filter((chips) => CURRENCIES.some((c) => chips[c])).length;

/** What a space gives, in words. */
function benefits(space) {
  const parts = [];
  if (space.support) parts.push(`★ ${space.support}`);
  const chips = chipsText(space.chips);
  if (chips !== "nothing") parts.push(chips);
  return parts.join(", ");
}

function placeWords(space) {
  if (space.area) return `marker: ${space.area}`;
  if (space.special === "spy") return "replace a marker";
  if (space.special === "apothecary") return "swap two markers";
  if (space.special === "card") return "card per Gold, max 3";
  return "";
}

function limitWords(space) {
  const allowed = CURRENCIES.filter((c) => !space.forbidden.includes(c));
  if (allowed.length === 3) return "any chip";
  if (allowed.length === 1) return `${TITLE[allowed[0]]} only`;
  return `no ${space.forbidden.map((c) => TITLE[c]).join(" or ")}`;
}

/** A space's rule text, for its tooltip. */
function spaceRule(space) {
  const own = space.special ? RULES[space.special] : space.name === "Printer" ? RULES.printer : "";
  const gives = [benefits(space).replace("★ ", "").replace(/^(\d+)/, "$1 support"), space.area ? `an Influence Marker in the ${space.area}` : ""].filter(Boolean).join(" and ");
  const limit = space.forbidden.length ? ` ${space.forbidden.map((c) => TITLE[c]).join(" and ")} may not be bid here.` : " Any currency may be bid here.";
  return `${space.name}: ${own ? `${own} ` : ""}${gives ? `The winner takes ${gives}.` : ""}${limit}${space.special === "card" ? "" : ` ${RULES.control}`}`.trim();
}

/** A chip of the rulebook's colour with its letter. */
function chip(K, currency, x, y, r = 11, attrs = {}) {
  const c = CHIP[currency];
  return K.g({ transform: `translate(${x} ${y})`, "aria-hidden": "true", ...attrs }, K.circle(0, 0, r, { fill: c.fill, stroke: "#fff", "stroke-width": 1.5 }),
    K.circle(0, 0, r * 0.72, { fill: "none", stroke: c.ink, "stroke-opacity": 0.35 }),
    K.text(0, 1, c.letter, { anchor: "middle", size: Math.max(11, r * 1.05), ...ink(c.ink), "font-weight": 700 }));
}

/** Chips in a row: a disc and its number per currency; returns the group and its width. */
function chipRow(K, chips, x, y, r = 10) {
  const parts = [];
  let dx = 0;
  for (const c of CURRENCIES) {
    if (!chips || !chips[c]) continue;
    parts.push(chip(K, c, x + dx + r, y, r), K.text(x + dx + 2 * r + 3, y + 1, chips[c], { size: 15, "font-weight": 700 }));
    dx += 2 * r + 6 + 9 * String(chips[c]).length + 6;
  }
  return { node: K.g({}, parts), width: dx };
}

/** The bid this seat is building: its domain, what is placed, what is left, and what may go where. */
function bidDraft(ctx) {
  const family = ctx.offered ? ctx.offered("bid") : null;
  if (!family) return null;
  const domain = family.params.find((p) => p.name === "placement").domain;
  const placement = ctx.picked("bid", "placement") || {};
  const done = placed(placement);
  const left = Object.fromEntries(CURRENCIES.map((c, i) => [c, (domain.chips[c] || 0) - done[i]]));
  const used = spacesUsed(placement);
  const rules = Object.fromEntries(domain.spaces.map((s) => [s.name, s]));
  const canAdd = (space, currency) => {
    const rule = rules[space];
    if (!rule || left[currency] <= 0 || rule.forbidden.includes(currency)) return false;
    const here = (placement[space] || {})[currency] || 0;
    if (currency === "gold" && rule.max_gold !== null && here >= rule.max_gold) return false;
    return used < domain.max_spaces || spacesUsed({ [space]: placement[space] || {} }) > 0;
  };
  const change = (space, currency, delta) => {
    const next = JSON.parse(JSON.stringify(placement));
    const chips = next[space] || {};
    chips[currency] = (chips[currency] || 0) + delta;
    if (chips[currency] <= 0) delete chips[currency];
    if (Object.keys(chips).length) next[space] = chips; else delete next[space];
    return next;
  };
  const complete = CURRENCIES.every((c) => left[c] === 0) && used <= domain.max_spaces;
  return { domain, placement, left, used, canAdd, change, complete };
}

// The currency armed in the supply: a tap on a space puts one chip of it there. Kept between renders.
// `manual`: the player tapped a currency with none left, to take chips of it back.
const armed = { currency: null, manual: false, round: null };

function armedCurrency(draft, round) {
  if (armed.round !== round) Object.assign(armed, { currency: null, manual: false, round }); // a new round: the strongest first
  if (armed.currency && (draft.left[armed.currency] > 0 || armed.manual)) return armed.currency;
  const next = CURRENCIES.find((c) => draft.left[c] > 0);
  if (next) Object.assign(armed, { currency: next, manual: false });
  return armed.currency || "gold";
}

/** The bid in one sentence: each space and its chips, then what is left to place. */
function bidSentence(placement, left, chart) {
  const order = (chart || []).map((s) => s.name);
  const spaces = Object.keys(placement || {}).sort((a, b) => order.indexOf(a) - order.indexOf(b));
  const parts = spaces.map((s) => `${s} ${chipsText(placement[s])}`);
  const remaining = left ? CURRENCIES.filter((c) => left[c] > 0).map((c) => `${left[c]} ${TITLE[c]}`) : [];
  return `${parts.length ? parts.join(" · ") : "No chip placed yet"}` +
    (left ? (remaining.length ? ` — still to place: ${list(remaining)}.` : ` — every chip placed, on ${plural(spaces.length, "space")}.`) : ".");
}

/** Who may be picked for a marker decision now: {kind, params} for a click on `seat`'s marker in `area`. */
function markerPick(view, ctx, area) {
  const markers = area.markers;
  const me = ctx.seat;
  if (ctx.offered && ctx.offered("spy")) {
    return (seat) => (seat !== me && markers[seat] > 0 && ctx.can("spy", "area", area.name) ? { kind: "spy", values: { area: area.name, victim: seat } } : null);
  }
  if (ctx.offered && ctx.offered("remove_influence")) {
    return (seat) => (seat !== me && markers[seat] > 0 && ctx.can("remove_influence", "area", area.name)
      ? { kind: "remove_influence", values: { area: area.name, victim: seat } } : null);
  }
  if (ctx.offered && ctx.offered("swap")) {
    const first = ctx.picked("swap", "first_owner");
    const second = ctx.picked("swap", "second_owner");
    return (seat) => {
      if (!(markers[seat] > 0)) return null;
      if (first === undefined || (second !== undefined && seat === first)) {
        return ctx.can("swap", "first_area", area.name) ? { kind: "swap", values: { first_area: area.name, first_owner: seat } } : null;
      }
      if (seat === first) return { kind: "swap", values: { first_area: area.name, first_owner: seat } };
      return { kind: "swap", values: { second_area: area.name, second_owner: seat } };
    };
  }
  return () => null;
}

function describe(e, { names, seat = null }) {
  const who = (s) => (s === seat && seat !== null ? "You" : names[s]);
  switch (e.kind) {
    case "round_started": return `Round ${e.round} begins. Chips in hand: ${e.chips.map((c, s) => `${names[s]} ${chipsText(c)}`).join("; ")}.`;
    case "topped_up": return `${who(e.seat)} ${e.seat === seat ? "take" : "takes"} ${plural(e.gold, "Gold chip")} to start the round with five chips.`;
    case "has_chosen": return `${who(e.seat)} ${e.seat === seat ? "have" : "has"} placed a bid behind the shield.`;
    case "bids_revealed": return `The shields come down: ${e.bids.map((b, s) => `${names[s]} bids ${b ? Object.entries(b).map(([sp, c]) => `${chipsText(c)} on the ${sp}`).join(", ") : "nothing"}`).join("; ")}.`;
    case "space_resolved": return e.winner !== null ? `${who(e.winner)} ${e.winner === seat ? "win" : "wins"} the ${e.space}.`
      : e.tie ? `The bids on the ${e.space} tie: nobody wins it this round.` : `Nobody bid on the ${e.space}.`;
    case "influence_placed": return `${who(e.seat)} ${e.seat === seat ? "place" : "places"} an Influence Marker in the ${e.area}.`;
    case "area_full": return `The ${e.area} is full: ${names[e.seat]} places no marker there but keeps the other benefits.`;
    case "no_markers_left": return `${names[e.seat]} has no Influence Marker left to place.`;
    case "card_drawn": return `${who(e.seat)} ${e.seat === seat ? "draw" : "draws"} a card: ${e.title}.`;
    case "deck_reshuffled": return `The deck ran out: the discard pile is shuffled into a new deck of ${plural(e.cards, "card")}.`;
    case "spy": return `The Spy: ${names[e.seat]} replaces ${names[e.victim]}'s marker in the ${e.area} with one of their own.`;
    case "apothecary": return `The Apothecary: ${names[e.seat]} swaps ${names[e.first_owner]}'s marker in the ${e.first_area} with ${names[e.second_owner]}'s in the ${e.second_area}.`;
    case "declined": return `${names[e.seat]} does not use the ${e.power === "spy" ? "Spy" : "Apothecary"}.`;
    case "influence_removed": return `Remove 1 Influence: ${names[e.seat]} removes ${names[e.victim]}'s marker from the ${e.area}.`;
    case "round_resolved": return `Round ${e.round} is resolved. Support: ${e.support.map((n, s) => `${names[s]} ${n}`).join(", ")}.`;
    case "game_over": {
      const areas = Object.entries(e.areas).map(([a, s]) => `the ${a} ${s === null ? "tied" : `to ${names[s]}`}`);
      return `The game is over${e.reason === "board_full" ? ": every Influence Space is filled" : " after the last round"}. Areas: ${areas.join(", ")}. Final support: ${e.scores.map((n, s) => `${names[s]} ${n}`).join(", ")}.`;
    }
    default: return null;
  }
}

function render(view, ctx) {
  const { names, h, kit: K = window.Kit } = ctx;
  const width = K.fit();
  const pad = 8;
  const chart = view.chart || [];
  const draft = view.phase === "bid" ? bidDraft(ctx) : null;
  const sealed = view.you && view.you.sealed_bid;
  const currency = draft ? armedCurrency(draft, view.round) : null;
  const resolvedBy = Object.fromEntries((view.resolved || []).map((r) => [r.space, r]));
  const showBids = view.phase !== "bid" && view.revealed;
  const blocks = [];

  // -- the players: support, chips in hand, whether they have bid
  const rowH = 50;
  const players = names.map((name, seat) => {
    const y = seat * rowH;
    const colour = K.player(seat, name).colour;
    const bidding = view.bids && view.bids.seats.includes(seat);
    const state = bidding ? (view.bids.chosen.includes(seat) ? "has bid ✓" : "bidding…") : view.decider === seat ? "deciding…" : "";
    const nameW = Math.max(110, Math.min(200, width - 2 * pad - 212));
    const parts = [K.rect(0, y + 3, width - 2 * pad, rowH - 6, { rx: 8, fill: seat === ctx.seat ? "#f3f6ff" : "#fffdf6", stroke: colour, "stroke-width": 2 }),
      K.mark(seat, name, { x: 20, y: y + rowH / 2, r: 11 }),
      K.label(38, y + rowH / 2 - (state ? 8 : 0), name, { max: nameW - 46, size: 16, "font-weight": 700, ...ink(colour) })];
    if (state) parts.push(K.text(38, y + rowH / 2 + 11, state, { size: 14 }));
    let x = nameW;
    parts.push(K.tip(K.g({}, K.text(x, y + rowH / 2, `★ ${view.support[seat]}`, { size: 16, "font-weight": 700 })), `${name} has ${view.support[seat]} support on the track. ${RULES.track}`));
    x += 58;
    for (const c of CURRENCIES) {
      const n = (view.chips[seat] || {})[c] || 0;
      parts.push(K.tip(K.g({ "data-key": `held-${seat}-${c}` }, chip(K, c, x + 11, y + rowH / 2, 11), K.text(x + 26, y + rowH / 2 + 1, n, { size: 16, "font-weight": 700 })),
        `${name} holds ${n} ${TITLE[c]}. ${RULES[c]}`));
      x += 48;
    }
    return K.g({ "data-key": `player-${seat}` }, parts);
  });
  blocks.push(h("h3", {}, "Players"), K.svg(width, names.length * rowH + 4, { "aria-label": "Each player's support and chips", "data-testid": "revolution-players" },
    K.g({ transform: `translate(${pad} 0)` }, players)));

  // -- the support track
  const top = Math.max(50, ...view.support.map((s) => Math.ceil((s + 1) / 10) * 10));
  const x0 = pad + 14;
  const x1 = width - pad - 14;
  const at = (s) => x0 + ((x1 - x0) * s) / top;
  const ticks = [];
  const step = top > 100 ? 20 : 10;
  for (let s = 0; s <= top; s += step) ticks.push(K.line(at(s), 38, at(s), 46, { stroke: "#8b7d5c" }), K.text(at(s), 58, s, { anchor: "middle", size: 14, ...ink("#5b4a2a") }));
  const stacked = {};
  const pawns = names.map((name, seat) => {
    const key = Math.round(at(view.support[seat]) / 16);
    const level = stacked[key] = (stacked[key] || 0) + 1;
    return K.tip(K.g({ "data-key": `support-${seat}` }, K.mark(seat, name, { x: at(view.support[seat]), y: 38 - level * 15, r: 8 })), `${name}: ${view.support[seat]} support`);
  });
  const lift = Math.max(0, Math.max(...Object.values(stacked), 1) * 15 - 24); // room for the highest pawn
  blocks.push(h("h3", {}, "Support track"), K.svg(width, lift + 66, { "aria-label": "The support track", "data-testid": "revolution-track" },
    K.g({ transform: `translate(0 ${lift})` },
      K.tip(K.rect(x0 - 6, 40, x1 - x0 + 12, 4, { fill: "#8b7d5c", "data-key": "track" }), RULES.track), ticks, pawns)));

  // -- the supply behind the shield, while this seat bids: tap a chip, then a space
  if (draft) {
    const tokens = CURRENCIES.map((c, i) => {
      const held = draft.domain.chips[c] || 0;
      const x = pad + 34 + i * 100;
      const node = K.g({ "data-key": `supply-${c}`, class: "supply" }, K.rect(x - 30, 4, 92, 60, { rx: 10, fill: "#fff", stroke: "#8b7d5c", "stroke-width": 2 }),
        chip(K, c, x, 34, 20), K.text(x + 26, 26, draft.left[c], { size: 18, "font-weight": 700 }), K.text(x + 26, 48, `of ${held}`, { size: 14 }));
      K.tip(node, `${RULES[c]} ${draft.left[c]} of your ${held} ${TITLE[c]} left to place. Tap it, then tap the spaces to place them.`);
      if (held === 0) return node;
      return K.choice(node, { value: c, label: `Place ${TITLE[c]} (${draft.left[c]} left)`, chosen: c === currency,
        onPick: () => { Object.assign(armed, { currency: c, manual: draft.left[c] === 0 }); ctx.pickMany("bid", { placement: draft.placement }); } });
    });
    const summary = bidSentence(draft.placement, draft.left, chart);
    blocks.push(h("div", { class: "bid-panel", "data-testid": "bid-panel", title: RULES.bidding },
      h("h3", {}, "Your bid, behind the shield"),
      h("p", { class: "muted" }, `Tap a chip, then tap spaces to place it there (+ adds, − takes back). At most ${draft.domain.max_spaces} spaces; every chip must be placed.`),
      K.svg(Math.max(width, 320), 70, { "aria-label": "Your chips to place", "data-testid": "revolution-supply" }, tokens),
      h("p", { class: "summary", "data-testid": "bid-summary" }, `${summary} Spaces used: ${draft.used} of ${draft.domain.max_spaces}.`),
      h("p", {}, h("button", { type: "button", "data-testid": "bid-confirm", disabled: draft.complete ? null : true,
        "aria-disabled": draft.complete ? "false" : "true",
        title: draft.complete ? "Send this bid: it stays secret until every player has bid"
          : `Not yet: place every chip first (${list(CURRENCIES.filter((c) => draft.left[c] > 0).map((c) => `${draft.left[c]} ${TITLE[c]}`))} still to place).`,
        onclick: () => confirmBid(draft.placement) }, "Confirm bid"), " ",
      h("button", { type: "button", class: "secondary", "data-testid": "bid-clear", disabled: draft.used ? null : true,
        title: draft.used ? "Take every chip back to your supply" : "No chip is on the chart yet",
        onclick: () => ctx.pickMany("bid", { placement: {} }) }, "Take back every chip"))));
  } else if (sealed) {
    blocks.push(h("p", { class: "muted", "data-testid": "bid-summary" }, `Your sealed bid: ${bidSentence(sealed, null, chart)} The shields come down when everyone has bid.`));
  }

  // -- the Bidding Chart
  const cols = width >= 760 ? 4 : width >= 520 ? 3 : 2;
  const gap = 8;
  const cw = (width - 2 * pad - (cols - 1) * gap) / cols;
  // the latest bids stay on the chart until the next reveal, faded once a new round's bidding begins
  const revealed = view.revealed || null;
  const bidders = (name) => (revealed ? names.map((_, seat) => ((revealed[seat] || {})[name] ? seat : null)).filter((s) => s !== null) : []);
  const bidRows = Math.max(0, ...chart.map((s) => bidders(s.name).length));
  const resolving = view.phase !== "bid" && !!revealed;
  const bidsH = revealed ? bidRows * 18 + (resolving ? 18 : 0) + 6 : 0;
  const ch = 86 + bidsH + (draft || sealed ? 70 : 8);
  const spaces = chart.map((space, i) => {
    const x = pad + (i % cols) * (cw + gap);
    const y = Math.floor(i / cols) * (ch + gap);
    const result = resolvedBy[space.name];
    const winner = result ? result.winner : null;
    const colour = winner !== null ? K.player(winner, names[winner]).colour : "#8b7d5c";
    const parts = [K.rect(0, 0, cw, ch, { rx: 8, fill: winner !== null ? "#fff4d1" : "#fffdf6", stroke: colour, "stroke-width": winner !== null ? 4 : 2, class: "space-face" }),
      K.label(10, 17, space.name, { max: cw - (winner !== null ? 44 : 16), size: 17, "font-weight": 700 })];
    if (winner !== null) parts.push(K.tip(K.g({}, K.mark(winner, names[winner], { x: cw - 18, y: 17, r: 11 })), `${names[winner]} won the ${space.name}`));
    parts.push(K.label(10, 38, benefits(space) || (space.special === "card" ? "cards" : "—"), { max: cw - 16, size: 15 }),
      K.label(10, 57, placeWords(space) || " ", { max: cw - 16, size: 14, ...ink("#5b4a2a") }),
      K.label(10, 76, limitWords(space), { max: cw - 16, size: 14, ...ink(space.forbidden.length ? "#a93226" : "#1e6b3a"), "font-weight": 700 }));
    if (revealed) {
      const bids = bidders(space.name);
      const done = chart.indexOf(space) < (view.phase === "over" || view.phase === "bid" || !view.next_space ? chart.length : view.next_space);
      bids.forEach((seat, k) => {
        const yy = 96 + k * 18;
        const row = chipRow(K, revealed[seat][space.name], 26, yy, 7);
        parts.push(K.g({ "data-key": `bid-${slug(space.name)}-${seat}`, "font-weight": seat === winner ? 700 : 400, opacity: resolving ? 1 : 0.7 },
          K.mark(seat, names[seat], { x: 14, y: yy, r: 7 }), row.node,
          seat === winner ? K.text(32 + row.width, yy + 1, "★ wins", { size: 14, "font-weight": 700 }) : null));
      });
      const after = 96 + bids.length * 18;
      if (resolving && !bids.length) parts.push(K.text(10, 96, "no bid", { size: 14, ...ink("#777") }));
      else if (resolving && space.special !== "card" && winner === null && result) parts.push(K.text(10, after, "tie: nobody wins", { size: 14, ...ink("#a93226") }));
      else if (resolving && space.special !== "card" && !done) parts.push(K.text(10, after, "to be resolved", { size: 14, ...ink("#777") }));
    }
    if (draft || sealed) {
      const mine = (draft ? draft.placement : sealed)[space.name] || {};
      const row = chipRow(K, mine, 10, ch - 26, 9);
      if (draft) {
        const add = draft.canAdd(space.name, currency);
        // − takes back the armed currency if it is here, else the weakest chip here
        const back = mine[currency] ? currency : [...CURRENCIES].reverse().find((c) => mine[c]);
        const button = (sign, key, enabled, shown) => K.g({ "data-key": `${key}-${slug(space.name)}`, class: enabled ? "" : "disabled", opacity: enabled ? 1 : 0.35 },
          K.rect(key === "minus" ? 6 : cw - 50, ch - 48, 44, 44, { rx: 8, fill: "#fff", stroke: "#555", "stroke-width": 1.5 }),
          K.text(key === "minus" ? 28 : cw - 28, ch - 26, sign, { anchor: "middle", size: 24, "font-weight": 700 }),
          chip(K, shown, key === "minus" ? 44 : cw - 12, ch - 42, 7));
        const minus = button("−", "minus", !!back, back || currency);
        const plus = button("+", "plus", add, currency);
        if (back) ctx.choice(minus, "bid", "placement", draft.change(space.name, back, -1), `Take one ${TITLE[back]} back from the ${space.name}`);
        if (add) ctx.choice(plus, "bid", "placement", draft.change(space.name, currency, 1), `One more ${TITLE[currency]} on the ${space.name}`);
        // the chips placed here sit between − and +, or above them when they do not fit there
        const fits = row.width <= cw - 112;
        parts.push(minus, plus, K.g({ transform: fits ? `translate(${(cw - row.width) / 2 - 10} 0)` : "translate(0 -32)", "data-key": `placed-${slug(space.name)}` }, row.node));
      } else {
        parts.push(row.width ? row.node : K.text(10, ch - 26, "—", { size: 14, ...ink("#777") }),
          K.text(cw - 10, ch - 26, "sealed", { anchor: "end", size: 14, ...ink("#777"), "font-style": "italic" }));
      }
    }
    const node = K.g({ transform: `translate(${x} ${y})`, "data-key": `space-${slug(space.name)}`, "data-space": space.name }, parts);
    K.tip(node, spaceRule(space));
    if (draft && draft.canAdd(space.name, currency)) {
      ctx.choice(node, "bid", "placement", draft.change(space.name, currency, 1), `Place one ${TITLE[currency]} on the ${space.name}`);
    }
    return node;
  });
  const rows = Math.ceil(chart.length / cols);
  blocks.push(h("h3", {}, "The Bidding Chart"), K.svg(width, rows * (ch + gap), { "aria-label": "The Bidding Chart", "data-testid": "revolution-chart" }, spaces));

  // -- the seven areas and their Influence Markers
  const acols = width >= 760 ? 4 : 2;
  const aw = (width - 2 * pad - (acols - 1) * gap) / acols;
  const per = Math.max(3, Math.floor((aw - 12) / 44));
  const most = Math.max(...view.areas.map((a) => a.spaces));
  const ah = 70 + Math.ceil(most / per) * 44;
  const deciding = view.areas.map((area) => markerPick(view, ctx, area));
  const areaKinds = ["spy", "remove_influence"].filter((k) => ctx.offered && ctx.offered(k));
  const areas = view.areas.map((area, i) => {
    const x = pad + (i % acols) * (aw + gap);
    const y = Math.floor(i / acols) * (ah + gap);
    const counts = area.markers;
    const best = Math.max(...counts);
    const leaders = counts.map((n, s) => (n === best && n > 0 ? s : null)).filter((s) => s !== null);
    const filled = counts.reduce((a, b) => a + b, 0);
    const leads = !leaders.length ? "empty" : leaders.length > 1 ? `tied: ${list(leaders.map((s) => names[s]))}` : `${view.phase === "over" ? "won by" : "led by"} ${names[leaders[0]]}`;
    const parts = [K.rect(0, 0, aw, ah, { rx: 8, fill: "#f7f1e1", stroke: leaders.length === 1 ? K.player(leaders[0], names[leaders[0]]).colour : "#8b7d5c", "stroke-width": leaders.length === 1 ? 3 : 2, class: "area-face" }),
      K.label(10, 17, area.name, { max: aw - 70, size: 17, "font-weight": 700 }),
      K.text(aw - 10, 17, `★ ${area.support}`, { anchor: "end", size: 15, "font-weight": 700 }),
      K.label(10, 38, `${filled} of ${area.spaces} filled`, { max: aw - 16, size: 14 }),
      K.label(10, 57, leads, { max: aw - 16, size: 14, "font-weight": 700 })];
    const owners = counts.flatMap((n, s) => Array(n).fill(s));
    const empty = []; // in a group of their own: a clickable area outlines only its first shape
    for (let k = 0; k < area.spaces; k++) {
      const sx = 8 + (k % per) * 44 + 22;
      const sy = 70 + Math.floor(k / per) * 44 + 22;
      const seat = owners[k];
      if (seat === undefined) {
        empty.push(K.circle(sx, sy, 15, { fill: "none", stroke: "#b3a57f", "stroke-dasharray": "3 3" }));
        continue;
      }
      const marker = K.g({ "data-key": `marker-${slug(area.name)}-${seat}-${k}`, "data-marker": `${slug(area.name)}-${seat}` },
        K.rect(sx - 22, sy - 22, 44, 44, { rx: 8, fill: "transparent", stroke: "none" }),
        K.mark(seat, names[seat], { x: sx, y: sy, r: 15 }));
      K.tip(marker, `${names[seat]}'s Influence Marker in the ${area.name}`);
      const pick = deciding[i](seat);
      if (pick) {
        const chosen = Object.entries(pick.values).every(([p, v]) => ctx.picked(pick.kind, p) === v);
        const words = pick.kind === "spy" ? `Replace ${names[seat]}'s marker in the ${area.name} with yours`
          : pick.kind === "remove_influence" ? `Remove ${names[seat]}'s marker from the ${area.name}`
            : `Swap ${names[seat]}'s marker in the ${area.name}`;
        K.choice(marker, { value: `${area.name}:${names[seat]}`, label: words, chosen, onPick: () => ctx.pickMany(pick.kind, pick.values) });
      }
      parts.push(marker);
    }
    parts.push(K.g({ class: "free-spaces" }, empty));
    const node = K.g({ transform: `translate(${x} ${y})`, "data-key": `area-${slug(area.name)}` }, parts);
    K.tip(node, `The ${area.name}: ${area.spaces} Influence Spaces, ${area.support} support to its winner. ${RULES.area}`);
    for (const kind of areaKinds) ctx.choice(node, kind, "area", area.name, `Choose the ${area.name}`);
    return node;
  });
  blocks.push(h("h3", {}, "The town: seven areas"), K.svg(width, Math.ceil(view.areas.length / acols) * (ah + gap), { "aria-label": "The seven areas", "data-testid": "revolution-areas" }, areas));

  // -- cards, and the rounds gone by
  const drawn = (view.drawn || []).map((d) => `${names[d.seat]}: ${titleOf(d.card)}`);
  if (chart.some((s) => s.special === "card")) {
    blocks.push(h("p", { "data-key": "cards", title: RULES.card }, h("b", {}, "Cards: "), `${plural(view.deck, "card")} in the deck, ${view.discard.length} discarded.`,
      drawn.length ? ` Drawn this round: ${drawn.join(" · ")}.` : ""));
  }
  const past = (view.past_rounds || []).slice().reverse().map((r) => h("li", {}, `Round ${r.round}: `,
    r.winners.map((w, i) => (w === null ? null : `${chart[i].name} ${names[w]}`)).filter(Boolean).join(" · ") || "nobody won a space",
    r.cards.length ? `; cards: ${r.cards.map((d) => `${names[d.seat]} ${titleOf(d.card)}`).join(", ")}` : ""));
  if (past.length) blocks.push(h("details", {}, h("summary", {}, "Winners of past rounds"), h("ul", {}, past)));
  return h("div", { class: "board revolution", "data-testid": "revolution-table" },
    h("p", {}, h("span", { class: "stat" }, `Round ${view.round}`), " ", h("span", { class: "stat" }, phaseWords(view, names)),
      " ", h("span", { class: "muted" }, view.edition === "sjg" ? "Published edition" : "Seed edition")),
    K.legend(names), blocks);
}

const CARD_TITLES = { support_1: "Support 1", support_3: "Support 3", support_5: "Support 5", force_1: "1 Force", blackmail_1: "1 Blackmail",
  gold_4: "4 Gold", remove_influence: "Remove 1 Influence" };
const titleOf = (card) => CARD_TITLES[card] || String(card);

function phaseWords(view, names) {
  switch (view.phase) {
    case "bid": return "Bidding behind the shields";
    case "spy": return `The Spy: ${names[view.decider]} decides`;
    case "apothecary": return `The Apothecary: ${names[view.decider]} decides`;
    case "remove": return `Remove 1 Influence: ${names[view.decider]} decides`;
    case "over": return "The game is over";
    default: return "Resolving the chart";
  }
}

/** Sends the bid built on the chart through the table page's own channel (the status bar's Confirm
 * cannot send a parameter of the game's own kind). */
function confirmBid(placement) {
  if (typeof window.sendAction !== "function") return;
  window.sendAction({ type: "bid", placement });
  if (typeof window.render === "function") window.render();
}

/** The bid as a form (the action bar's fallback to the chart): one space per chip, each currency
 * only where the chart allows it. */
function bidWidget(param, domain, h) {
  const selects = [];
  const groups = Object.entries(domain.chips).filter(([, count]) => count > 0).map(([currency, count]) => h("fieldset", {},
    h("legend", {}, `${count} ${currency}`),
    Array.from({ length: count }, (_, i) => {
      const select = h("select", { "data-currency": currency, "aria-label": `${currency} chip ${i + 1}` }, h("option", { value: "" }, "space…"),
        domain.spaces.map((space) => (space.forbidden.includes(currency) ? null : h("option", { value: space.name }, space.name))));
      selects.push(select);
      return select;
    })));
  return { element: h("div", { class: "bid" }, groups), read: () => {
    const placement = {};
    for (const select of selects) {
      if (!select.value) return { error: "place every chip on a space" };
      const currency = select.dataset.currency;
      placement[select.value] = placement[select.value] || {};
      placement[select.value][currency] = (placement[select.value][currency] || 0) + 1;
    }
    if (Object.keys(placement).length > domain.max_spaces) return { error: `bid on at most ${domain.max_spaces} spaces` };
    for (const space of domain.spaces) {
      const gold = placement[space.name] && placement[space.name].gold;
      if (space.max_gold !== null && gold > space.max_gold) return { error: `at most ${space.max_gold} gold on ${space.name}` };
    }
    return { value: placement };
  } };
}

Tricolore.registerBoard("revolution", {
  widget(param, domain, { h }) {
    return domain.kind === "bid" ? bidWidget(param, domain, h) : null;
  },
  render,
  describeEvent(event, ctx) {
    return describe(event, ctx) || describeEvent(event, ctx.names);
  },

  /** The parameters picked on the board: the bid on the chart, markers in the areas. */
  choices() {
    return { bid: ["placement"], spy: ["area", "victim"], remove_influence: ["area", "victim"],
      swap: ["first_area", "first_owner", "second_area", "second_owner"] };
  },

  actionLabel(type) {
    return ACTION_LABELS[type] || null;
  },

  /** A bid is complete when every chip is placed, on at most the spaces allowed. */
  complete(type, values, ctx) {
    const family = type === "bid" && ctx.offered ? ctx.offered("bid") : null;
    if (!family) return null;
    const domain = family.params.find((p) => p.name === "placement").domain;
    const done = placed(values.placement);
    const left = CURRENCIES.map((c, i) => [c, (domain.chips[c] || 0) - done[i]]).filter(([, n]) => n > 0);
    if (left.length) return `Place every chip first: ${list(left.map(([c, n]) => `${n} ${TITLE[c]}`))} still to place.`;
    if (spacesUsed(values.placement) > domain.max_spaces) return `Bid on at most ${domain.max_spaces} spaces.`;
    return null;
  },

  /** Declining the Spy or the Apothecary cannot be taken back: asked once. */
  irreversible(type, { view }) {
    if (type !== "decline") return null;
    if (view.phase === "spy") return "Decline the Spy: you replace no marker this round. This cannot be taken back.";
    if (view.phase === "apothecary") return "Decline the Apothecary: you swap no markers this round. This cannot be taken back.";
    return null;
  },

  paramLabel(type, param) {
    return PARAM_LABELS[param] || null;
  },

  /** The status bar's sentence: who is expected, and for what. */
  status(view, ctx) {
    const { names, seat, prompt } = ctx;
    const waiting = (view.pending || []).filter((p) => p.seat !== seat).map((p) => names[p.seat]);
    if (view.phase === "over") {
      const result = view.result;
      if (!result) return "The game is over.";
      return `The game is over: ${Kit.winners(result, names, (n) => `${n} support`)}.`;
    }
    const mine = prompt && prompt.actions.length;
    if (view.phase === "bid") {
      if (mine) {
        const draft = bidDraft(ctx);
        const left = draft ? CURRENCIES.filter((c) => draft.left[c] > 0).map((c) => `${draft.left[c]} ${TITLE[c]}`) : [];
        return left.length ? `Round ${view.round}: you must place all your chips behind the shield — ${list(left)} to place.`
          : `Round ${view.round}: every chip is placed — confirm your bid.`;
      }
      return waiting.length ? `Waiting for ${list(waiting)} to bid behind the shield.` : "";
    }
    const power = { spy: "the Spy", apothecary: "the Apothecary", remove: "a Remove 1 Influence card" }[view.phase];
    if (power && mine) {
      if (view.phase === "spy") return "You won the Spy: click an opponent's marker to replace it with yours, or decline.";
      if (view.phase === "apothecary") return "You won the Apothecary: click two markers of different players to swap them, or decline.";
      return "You drew Remove 1 Influence: click an opponent's marker to remove it.";
    }
    if (power && view.decider !== null) return `Waiting for ${names[view.decider]} to use ${power}.`;
    return waiting.length ? `Waiting for ${list(waiting)}.` : "";
  },

  /** The draft in one sentence. */
  summary(type, values, { names, view }) {
    if (type === "bid") {
      const placement = values.placement || {};
      return `Your bid: ${bidSentence(placement, null, view.chart)} Build it on the chart and confirm it there.`;
    }
    const marker = (area, owner) => (area === undefined ? "…" : owner === undefined ? `a marker in the ${area}` : `${names[owner]}'s marker in the ${area}`);
    if (type === "spy") return `The Spy replaces ${marker(values.area, values.victim)} with yours.`;
    if (type === "remove_influence") return `Remove ${marker(values.area, values.victim)}.`;
    if (type === "swap") return `The Apothecary swaps ${marker(values.first_area, values.first_owner)} with ${marker(values.second_area, values.second_owner)}.`;
    return null;
  },

  /** Players by name in the markers' menus. */
  optionText(param, option, { names }) {
    if (["victim", "first_owner", "second_owner"].includes(param)) return names[option] ?? null;
    return null;
  },

  /** The score sheet: the track, each area won, leftover chips, the total; the winner marked. */
  scoreSheet(final, { names, h, view }) {
    const { result } = final;
    const seats = names.map((_, seat) => seat);
    const cell = (seat, ...content) => h("td", { class: result.winners.includes(seat) ? "winner" : "" }, ...content);
    const row = (title, rule, make) => h("tr", {}, h("th", { scope: "row", title: rule }, title), seats.map((seat) => cell(seat, make(result.breakdown[seat], seat))));
    const areas = (view.areas || []).map((a) => a.name);
    return h("div", { class: "scroll" }, h("table", { class: "grid score-sheet", "data-testid": "score-sheet" },
      h("thead", {}, h("tr", {}, h("th", {}, "step"), seats.map((seat) => h("th", { class: result.winners.includes(seat) ? "winner" : "" },
        result.winners.includes(seat) ? "★ " : "", names[seat], h("span", { class: "muted" }, botNote(final, seat)))))),
      h("tbody", {},
        row("Support track", RULES.track, (b) => String(b.track)),
        areas.map((a) => row(`${a}`, `The ${a}: its support goes to the player with most markers there; a tie awards nobody.`,
          (b) => (b.areas[a] ? `+${b.areas[a]}` : "—"))),
        view.edition === "sjg" ? row("Leftover chips", "Published edition: each chip still held scores Force 5, Blackmail 3, Gold 1.", (b) => `+${b.leftover_chips}`) : null,
        row("Markers placed", "Influence Markers on the board at the end.", (b) => String(b.markers)),
        row("Total support", "The player with the highest total support wins; equal totals share the win.", (b) => h("b", {}, String(b.score))))));
  },

  /** Each player's public counters beside their name. */
  playerStats(seat, view) {
    return ` · ★ ${view.support[seat]} · ${chipsText(view.chips[seat])}`;
  },

  /** Your secret: the bid behind your shield. */
  secret(you, { h, names, seat, view, mine = true }) {
    if (!you.sealed_bid) return h("section", { class: "secret", "data-testid": "secret" }, h("h3", {}, mine ? "Behind your shield" : `${names[seat]}'s shield`),
      h("p", { class: "muted" }, view.phase === "bid" ? "No bid placed yet this round." : "Nothing: every bid is on the chart."));
    return h("section", { class: "secret", "data-testid": "secret" }, h("h3", {}, mine ? "Behind your shield — only you see this" : `${names[seat]}'s shield`),
      h("p", {}, `Sealed bid: ${bidSentence(you.sealed_bid, null, view.chart)}`));
  },

  /** Reveals as moments: the shields come down with each space's winner, markers, the Spy, the
   * Apothecary, Remove 1 Influence, the end. */
  moment(event, { names, view }) {
    switch (event.kind) {
      case "bids_revealed": {
        const won = (view.resolved || []).filter((r) => r.winner !== null);
        const by = names.map((n, s) => [n, won.filter((r) => r.winner === s).map((r) => r.space)]).filter(([, w]) => w.length);
        return { select: won.length ? won.map((r) => `[data-key=space-${slug(r.space)}]`).join(", ") : "[data-key^=space-]", ms: 600, keep: true,
          say: `The shields come down! ${by.length ? by.map(([n, w]) => `${n} wins the ${list(w)}`).join("; ") : "Nobody wins a space yet"}.` };
      }
      case "spy": return { select: `[data-key=area-${slug(event.area)}]`, say: describe(event, { names }) };
      case "influence_removed": return { select: `[data-key=area-${slug(event.area)}]`, shake: `[data-key=area-${slug(event.area)}]`, say: describe(event, { names }) };
      case "apothecary": return { select: `[data-key=area-${slug(event.first_area)}], [data-key=area-${slug(event.second_area)}]`, say: describe(event, { names }) };
      case "round_resolved": return { select: "[data-key^=support-]" }; // the reveal's sentence stays up
      case "game_over": return { select: "[data-key^=area-]", ms: 600, say: describe(event, { names }) };
      default: return null;
    }
  },
});
}
