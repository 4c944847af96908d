// The revolutionary trials (Culottes' tutorial), drawn: the accused in the dock with the
// statement, every citizen's place with their points and their hands in the two votes (a closed
// fist for "true", an open hand for "false"), the debate's arguments as speech bubbles, and the
// last verdict with the truth, the grabbers and each player's points. Designating the grabbers,
// noting the truth and voting are clicks on the board; words go in the status bar.
// Rule texts: docs/games/culottes-trials.md.
"use strict";
{
const RULES = {
  accused: "The trialed grabber: secretly designates the other grabbers (at most half the players in all, the accused included), then says something hard to guess but easy to check. The accused does not vote.",
  statement: "The statement: true or false, noted in secret by the accused before anyone votes, revealed when the trial closes.",
  fist: "A closed fist, the shape of a brioche: a vote that the statement is true.",
  hand: "An open hand, palm up: a vote that the statement is false.",
  firstVote: "The first vote is shown to everyone and does not count: it opens the debate.",
  secondVote: "The second vote counts. The majority decides; a tie counts as true.",
  debate: "The debate, between the two votes: each player may argue, or pass; it closes when everyone has passed since the last argument.",
  points: "Points: a right majority gives each revolutionary 1 point; a wrong one gives the accused 2 and every other grabber 1. Most points wins.",
  verdict: "The verdict: the truth and the grabbers are revealed, and the points are paid.",
  revolutionary: "Revolutionary: you win when the majority guesses right.",
  grabber: "Grabber: you win when the majority is wrong.",
  stop: "The tutorial stops whenever citizens want: when everyone has agreed, it ends after this trial.",
};
const ACTION_LABELS = { designate: "Designate the grabbers", state: "Make your statement", vote: "Vote", argue: "Argue", pass: "Pass",
  agree_end: "Stop after this trial" };
const PARAM_LABELS = { grabbers: "grabbers", statement: "statement", truth: "the truth", guess: "guess", text: "argument", agree: "stop" };
const PHASES = { designate: "the accused designates the grabbers", statement: "the statement", first_vote: "the first vote",
  debate: "the debate", second_vote: "the second vote", over: "the tutorial is over" };

const { list, plural } = Kit;
const tf = (b) => (b ? "true" : "false");
const roleName = (r) => (r === "grabber" ? "Grabber" : r === "revolutionary" ? "Revolutionary" : "");

/** Words in lines of at most `max` letters. */
function wrap(words, max) {
  const lines = [];
  for (const word of String(words).split(/\s+/)) {
    if (!word) continue;
    const last = lines.length ? lines[lines.length - 1] : null;
    if (last !== null && (last + " " + word).length <= max) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word.length > max ? `${word.slice(0, max - 1)}…` : word);
  }
  return lines.length ? lines : [""];
}

/** The points of a closed trial in words, each player by name. */
function payouts(t, names) {
  const won = names.map((n, s) => (t.points[s] ? `${n} +${t.points[s]}` : null)).filter(Boolean);
  return won.length ? won.join(", ") : "nobody scores";
}

function verdictText(t, names) {
  return `${names[t.accused]}'s statement was ${tf(t.truth)}; the majority said ${tf(t.majority)}, ${t.majority_right ? "rightly: the revolutionaries win" : "wrongly: the grabbers win"}` +
    ` (grabbers: ${list(t.grabbers.map((s) => names[s]))}). ${payouts(t, names)}.`;
}

function describe(e, { names, seat = null }) {
  switch (e.kind) {
    case "trial_started": return `Trial ${e.trial}: ${e.accused === seat ? "you are" : `${names[e.accused]} is`} the accused.`;
    case "your_role": return `You are whispered: ${roleName(e.role).toLowerCase()}.`;
    case "roles_whispered": return `${names[e.accused]} has whispered each player's role.`;
    case "statement": return `${names[e.accused]} says: “${e.statement}”`;
    case "truth_noted": return `You noted in secret that your statement is ${tf(e.truth)}.`;
    case "has_chosen": return `${e.seat === seat ? "You have" : `${names[e.seat]} has`} voted in secret.`;
    case "first_vote": return `First vote (it does not count): ${e.votes.map((v, s) => (v === null ? null : `${names[s]} ${tf(v)}`)).filter(Boolean).join(", ")}.`;
    case "argument": return `${names[e.seat]} argues: “${e.text}”`;
    case "debate_closed": return "The debate is closed: the second vote, the one that counts.";
    case "trial_closed": return `Verdict of trial ${e.trial}: ${verdictText(e, names)}`;
    case "agrees_to_end": return `${names[e.seat]} ${e.agree ? "agrees" : "no longer agrees"} to stop after this trial.`;
    case "game_over": return `The tutorial is over: ${e.points.map((p, s) => `${names[s]} ${plural(p, "point")}`).join(", ")}.`;
    default: return null;
  }
}

/** A closed fist (true) or an open hand (false), or a hidden vote, `s` units high. */
function handIcon(K, guess, x, y, s = 34) {
  if (guess === true) {
    return K.g({ transform: `translate(${x} ${y})` },
      K.rect(-s * 0.42, -s * 0.3, s * 0.84, s * 0.62, { rx: s * 0.25, fill: "#e9b97a", stroke: "#7a4e12", "stroke-width": 1.5 }),
      [-0.21, 0, 0.21].map((dx) => K.line(s * dx, -s * 0.3, s * dx, -s * 0.08, { stroke: "#7a4e12", "stroke-width": 1.3 })),
      K.rect(-s * 0.22, s * 0.3, s * 0.44, s * 0.2, { fill: "#e9b97a", stroke: "#7a4e12", "stroke-width": 1.5 }));
  }
  if (guess === false) {
    const fingers = [-0.3, -0.1, 0.1, 0.3].map((dx) => K.rect(s * dx - s * 0.08, -s * 0.5, s * 0.16, s * 0.42, { rx: s * 0.08, fill: "#f4d3a8", stroke: "#7a4e12", "stroke-width": 1.3 }));
    return K.g({ transform: `translate(${x} ${y})` }, fingers,
      K.rect(-s * 0.38, -s * 0.15, s * 0.76, s * 0.55, { rx: s * 0.18, fill: "#f4d3a8", stroke: "#7a4e12", "stroke-width": 1.5 }),
      K.path(`M${-s * 0.38},${0} L${-s * 0.55},${-s * 0.25}`, { stroke: "#7a4e12", "stroke-width": s * 0.14, "stroke-linecap": "round" }));
  }
  return K.g({ transform: `translate(${x} ${y})` },
    K.rect(-s * 0.42, -s * 0.45, s * 0.84, s * 0.9, { rx: 8, fill: guess === "sealed" ? "#5b4a2a" : "none", stroke: "#b9ad92", "stroke-dasharray": guess === "sealed" ? null : "4 3" }),
    guess === "sealed" ? K.text(0, 1, "?", { anchor: "middle", size: s * 0.5, fill: "#f6e3c2", "font-weight": 700 }) : null);
}

function render(view, ctx) {
  const { names, h, seat, kit: K = window.Kit } = ctx;
  const width = K.fit();
  const pad = 10;
  const choice = ctx.choice || ((node) => node);
  const start = ctx.start || ((node) => node);
  const you = view.you || null;
  const parts = [];
  const over = view.phase === "over";
  const accused = view.accused;

  parts.push(K.label(pad, 16, over ? `The tutorial is over after ${plural(view.history.length, "trial")}` : `Trial ${view.trial} of ${view.trials_total}: ${PHASES[view.phase] || view.phase}`,
    { max: width - 2 * pad, size: 17, "font-weight": 700 }));
  let y = 34;

  // -- the dock: the accused and the statement
  if (!over) {
    const chars = Math.floor((width - 2 * pad - 90) / (16 * 0.56));
    const lines = view.statement ? wrap(`“${view.statement}”`, chars) : [accused === seat ? "Your statement goes here." : "The statement is not made yet."];
    const dh = Math.max(84, 46 + lines.length * 20);
    const truth = you && you.truth !== undefined && you.truth !== null ? ` · noted ${tf(you.truth)}` : "";
    const dock = K.g({ "data-key": "dock", transform: `translate(${pad} ${y})` },
      K.rect(0, 0, width - 2 * pad, dh, { rx: 10, fill: "#f7efe0", stroke: "#8b7d5c", "stroke-width": 2 }),
      K.mark(accused, names[accused], { x: 34, y: 34, r: 20 }),
      K.text(34, 68, "accused", { anchor: "middle", size: 14, "font-style": "italic" }),
      K.label(70, 20, `${accused === seat ? "You are" : `${names[accused]} is`} on trial${truth}`, { max: width - 2 * pad - 80, size: 16, "font-weight": 700 }),
      K.g({ "data-key": "statement" }, lines.map((l, i) => K.text(70, 46 + i * 20, l, { size: 16, "font-style": view.statement ? "normal" : "italic", fill: view.statement ? "#1d1d1d" : "#666" }))));
    K.tip(dock, `${RULES.accused} ${RULES.statement}`);
    parts.push(dock);
    y += dh + 12;
  }

  // -- the accused's secret choice of the truth, and each voter's hands
  const cards = [];
  if (ctx.offered && ctx.offered("state")) cards.push(["state", "truth", "the truth"]);
  if (ctx.offered && ctx.offered("vote")) cards.push(["vote", "guess", "your vote"]);
  for (const [kind, param, words] of cards) {
    parts.push(K.label(pad, y + 10, kind === "state" ? "Note the truth in secret:" : `${view.phase === "first_vote" ? "First vote, not counted" : "Second vote, it counts"}: true or false?`,
      { max: width - 2 * pad, size: 16, "font-weight": 700 }));
    y += 24;
    const w = Math.min(180, (width - 3 * pad) / 2);
    [true, false].forEach((b, i) => {
      const node = K.g({ "data-key": `${kind}-${tf(b)}`, transform: `translate(${pad + i * (w + pad)} ${y})` },
        K.rect(0, 0, w, 84, { rx: 10, fill: b ? "#fff4e0" : "#eef2ff", stroke: "#8b7d5c", "stroke-width": 2 }),
        handIcon(K, b, 34, 42, 40), K.text(64, 32, tf(b), { size: 18, "font-weight": 700 }),
        K.text(64, 56, b ? "closed fist" : "open hand", { size: 14 }));
      K.tip(node, b ? RULES.fist : RULES.hand);
      parts.push(choice(node, kind, param, b, `${words}: ${tf(b)} (${b ? "closed fist" : "open hand"})`));
    });
    y += 96;
  }

  // -- every citizen's place: points, role (yours), the two votes
  const pw = width < 520 ? Math.floor((width - 2 * pad - 10) / 2) : Math.min(220, Math.floor((width - 2 * pad - 10 * (names.length - 1)) / names.length));
  const perRow = Math.max(1, Math.floor((width - 2 * pad + 10) / (pw + 10)));
  const ph = 146;
  const lastTrial = view.history.length ? view.history[view.history.length - 1] : null;
  const sealed = new Set(view.vote ? view.vote.chosen || [] : []);
  const waiting = new Set((view.pending || []).map((p) => p.seat));
  const designating = ctx.can && ctx.offered && ctx.offered("designate");
  const picked = ctx.picked ? ctx.picked("designate", "grabbers") || [] : [];
  names.forEach((name, s) => {
    const x = pad + (s % perRow) * (pw + 10);
    const py = y + Math.floor(s / perRow) * (ph + 10);
    const colour = K.player(s, name).colour;
    const isAccused = s === accused && !over;
    // the vote in progress: your own hand, or a face-down hand for whoever has voted
    const current = s === seat && you && you.vote !== undefined && you.vote !== null ? you.vote : sealed.has(s) ? "sealed" : null;
    const first = view.first_vote ? view.first_vote[s] : view.phase === "first_vote" ? current : null;
    const second = view.phase === "second_vote" ? current : null;
    const role = s === seat && you && you.role ? you.role : isAccused ? "grabber" : null;
    const marked = s !== seat && (picked.includes(s) || Boolean(you && you.grabbers && you.grabbers.includes(s)));
    const roleWords = role ? roleName(role) : marked ? "Grabber, named by you" : "";
    const node = K.g({ "data-key": `place-${s}`, transform: `translate(${x} ${py})` },
      K.rect(0, 0, pw, ph, { rx: 8, fill: isAccused ? "#f7efe0" : "#fffdf6", stroke: colour, "stroke-width": waiting.has(s) ? 4 : 2 }),
      K.rect(0, 0, pw, 6, { fill: colour }),
      K.mark(s, name, { x: 16, y: 24, r: 11 }),
      K.label(32, 25, `${name}${s === seat ? " (you)" : ""}`, { max: pw - 40, size: 16, "font-weight": 700, fill: colour }),
      K.tip(K.count("medal", view.points[s], 8, 54, { size: 17, "data-key": `points-${s}` }), `${RULES.points} ${name} has ${plural(view.points[s], "point")}.`),
      roleWords ? K.tip(K.label(8, ph - 12, roleWords, { max: pw - 16, size: 14, "font-weight": 700, fill: role === "grabber" || marked ? "#c0392b" : "#1f3a93" }),
        RULES[role || "grabber"]) : null,
      isAccused ? K.label(8, 100, "does not vote", { max: pw - 16, size: 14, "font-style": "italic" }) : [
        K.tip(K.g({ "data-key": `vote1-${s}` }, K.text(8, 86, "1st", { size: 14 }), handIcon(K, first, 52, 98, 30)), RULES.firstVote),
        K.tip(K.g({ "data-key": `vote2-${s}` }, K.text(pw / 2 + 2, 86, "2nd", { size: 14 }), handIcon(K, second, pw / 2 + 48, 98, 30)), RULES.secondVote)],
      view.agrees_to_end && view.agrees_to_end[s] ? K.text(pw - 8, 54, "stop ✓", { anchor: "end", size: 14 }) : null);
    if (designating && s !== seat && ctx.can("designate", "grabbers", s)) {
      choice(node, "designate", "grabbers", s, `${picked.includes(s) ? "Unname" : "Name"} ${name} a grabber`);
    }
    parts.push(node);
  });
  y += Math.ceil(names.length / perRow) * (ph + 10) + 4;

  // -- the debate: one bubble per argument
  if (view.arguments.length || view.phase === "debate") {
    parts.push(K.tip(K.text(pad, y + 10, "Debate", { size: 17, "font-weight": 700, "data-key": "debate" }), RULES.debate));
    y += 24;
    const chars = Math.floor((width - 2 * pad - 40) / (15 * 0.56));
    if (!view.arguments.length) { parts.push(K.text(pad, y + 8, "No argument yet.", { size: 15, "font-style": "italic" })); y += 24; }
    view.arguments.forEach((a, i) => {
      const lines = wrap(a.text, chars);
      const bh = 30 + lines.length * 19;
      parts.push(K.g({ "data-key": `argument-${i}`, transform: `translate(${pad} ${y})` },
        K.rect(30, 0, width - 2 * pad - 30, bh, { rx: 12, fill: "#fff", stroke: K.player(a.seat, names[a.seat]).colour, "stroke-width": 2 }),
        K.mark(a.seat, names[a.seat], { x: 12, y: 16, r: 11 }),
        K.label(42, 15, names[a.seat], { max: width - 2 * pad - 60, size: 14, "font-weight": 700, fill: K.player(a.seat, names[a.seat]).colour }),
        lines.map((l, j) => K.text(42, 36 + j * 19, l, { size: 15 }))));
      y += bh + 8;
    });
  }

  // -- the last verdict, with each player's points (two lines a player on a narrow screen)
  if (lastTrial) {
    const narrow = width < 520;
    const rowH = narrow ? 42 : 22;
    const vh = 76 + names.length * rowH;
    const right = lastTrial.majority_right;
    const inner = width - 2 * pad;
    const col = Math.max(100, Math.min(170, inner / 4));
    const roleOf = (s) => (s === lastTrial.accused ? "accused" : lastTrial.grabbers.includes(s) ? "grabber" : "revolutionary");
    const votesOf = (s) => (lastTrial.first_vote[s] === null ? "does not vote" : `voted ${tf(lastTrial.first_vote[s])} → ${tf(lastTrial.second_vote[s])}`);
    const verdict = K.g({ "data-key": "verdict", transform: `translate(${pad} ${y})` },
      K.rect(0, 0, inner, vh, { rx: 10, fill: right ? "#eef7ee" : "#fde9e6", stroke: "#8b7d5c", "stroke-width": 2 }),
      K.label(10, 18, `Trial ${lastTrial.trial}: the statement was ${tf(lastTrial.truth).toUpperCase()}`, { max: inner - 20, size: 16, "font-weight": 700 }),
      K.label(10, 42, `The majority said ${tf(lastTrial.majority)}: ${right ? "right" : "wrong"}`, { max: inner - 20, size: 15 }),
      K.text(10, 64, "player", { size: 14, "font-style": "italic" }),
      narrow ? null : [K.text(col, 64, "role", { size: 14, "font-style": "italic" }), K.text(2 * col, 64, "votes", { size: 14, "font-style": "italic" })],
      K.text(inner - 12, 64, "points", { anchor: "end", size: 14, "font-style": "italic" }),
      names.map((n, s) => {
        const ry = 64 + s * rowH + 22;
        const points = K.text(inner - 12, ry, lastTrial.points[s] ? `+${lastTrial.points[s]}` : "0", { anchor: "end", size: 15, "font-weight": 700 });
        const who = K.label(10, ry, n, { max: narrow ? inner - 70 : col - 16, size: 15, fill: K.player(s, n).colour, "font-weight": 700 });
        return K.g({ "data-key": `payout-${s}` }, who, points, narrow
          ? K.label(10, ry + 19, `${roleOf(s)}, ${votesOf(s)}`, { max: inner - 20, size: 14 })
          : [K.label(col, ry, roleOf(s), { max: col - 6, size: 14 }), K.label(2 * col, ry, votesOf(s), { max: inner - 2 * col - 60, size: 14 })]);
      }));
    parts.push(K.tip(verdict, `${RULES.verdict} ${RULES.points}`));
    y += vh + 8;
  }

  const stop = ctx.offered && ctx.offered("agree_end") && !over
    ? start(h("button", { type: "button", class: "secondary", "data-key": "stop", title: RULES.stop },
      view.agrees_to_end[seat] ? "Withdraw: do not stop after this trial" : "Agree to stop after this trial"), "agree_end", "Stop after this trial")
    : null;
  const drawing = K.svg(width, y + 6, { "data-testid": "trials-table", "aria-label": `Trial ${view.trial}: ${names[accused]} is accused` }, parts);
  return h("div", { class: "board trials" }, K.legend(names), drawing, stop ? h("p", {}, stop) : null);
}

Tricolore.registerBoard("culottes-trials", {
  render,
  describeEvent(event, ctx) {
    return describe(event, ctx) || describeEvent(event, ctx.names);
  },

  /** Parameters picked on the board: the grabbers (places), the truth and the vote (hands). */
  choices() {
    return { designate: ["grabbers"], state: ["truth"], vote: ["guess"] };
  },
  actionLabel(kind) { return ACTION_LABELS[kind] || null; },
  /** A pass while an argument may still be made gives up the last word: asked once. */
  irreversible(kind, ctx) {
    if (kind !== "pass" || !ctx.offered("argue")) return null;
    return "Pass: you make no argument before the second vote. This cannot be taken back.";
  },
  paramLabel(kind, param) { return PARAM_LABELS[param] || null; },

  status(view, { names, seat, prompt }) {
    const waiting = (view.pending || []).filter((p) => p.seat !== seat).map((p) => names[p.seat]);
    const mine = prompt && prompt.actions && prompt.actions.length;
    const accused = names[view.accused];
    if (view.phase === "over") {
      const r = view.result;
      return r ? `The tutorial is over: ${Kit.winners(r, names, (n) => plural(n, "point"))}.` : "The tutorial is over.";
    }
    switch (view.phase) {
      case "designate":
        return mine ? `You are the accused: click the places of up to ${plural(view.max_grabbers - 1, "other player")} to name them grabbers in secret (or nobody), then Confirm.`
          : `Waiting for ${accused}, the accused, to whisper each player's role.`;
      case "statement":
        return mine ? "Say something hard to guess but easy to check, and note in secret whether it is true."
          : `Waiting for ${accused}'s statement.`;
      case "first_vote": case "second_vote": {
        const which = view.phase === "first_vote" ? "First vote (it does not count)" : "Second vote (it counts)";
        return mine ? `${which}: is ${accused}'s statement true (closed fist) or false (open hand)?` : `${which}: waiting for ${list(waiting)} to vote.`;
      }
      case "debate":
        return mine ? "The debate: argue for your vote, or pass." : `The debate: waiting for ${list(waiting)} to argue or pass.`;
      default: return null;
    }
  },

  summary(kind, v, { names, view }) {
    switch (kind) {
      case "designate": {
        const g = v.grabbers || [];
        return g.length ? `You name ${list(g.map((s) => names[s]))} grabber${g.length > 1 ? "s" : ""}; everyone else is whispered revolutionary.` : "You name no other grabber: everyone else is whispered revolutionary.";
      }
      case "state": return `You state your words and note in secret that they are ${v.truth === undefined ? "… (choose true or false on the board)" : tf(v.truth)}.`;
      case "vote": return v.guess === undefined ? "Choose a hand on the board." : `You vote ${tf(v.guess)} (${v.guess ? "closed fist" : "open hand"}) on ${names[view.accused]}'s statement.`;
      case "argue": return "You argue before the second vote.";
      case "agree_end": return v.agree === undefined ? "Stop after this trial?" : v.agree ? "You agree to stop after this trial." : "You withdraw your agreement to stop.";
      default: return null;
    }
  },

  optionText(param, option, { names }) {
    if (param === "grabbers") return names[option] || null;
    if (param === "truth" || param === "guess") return option ? "true (closed fist)" : "false (open hand)";
    if (param === "agree") return option ? "agree to stop" : "do not stop";
    return null;
  },

  /** In a vote the accused takes no part: "does not vote", never "has chosen". */
  sitsOut(seat, view) {
    return view.vote && !(view.vote.seats || []).includes(seat) ? "does not vote" : null;
  },

  playerStats(seat, view) {
    return ` · ${plural(view.points[seat], "point")}${view.accused === seat && view.phase !== "over" ? ", accused" : ""}`;
  },

  secret(you, { h, names, seat, mine = true }) {
    return h("section", { class: "secret", "data-testid": "secret" },
      h("h3", {}, mine ? "Secret — only you see this" : `${names[seat]}'s secrets`),
      h("p", {}, "Your role this trial: ", h("b", {}, you.role ? roleName(you.role) : "not whispered yet"), you.role ? ` — ${RULES[you.role]}` : ""),
      you.grabbers ? h("p", {}, `The grabbers you named: ${list(you.grabbers.filter((s) => s !== seat).map((s) => names[s])) || "nobody else"}.`) : null,
      you.truth !== undefined && you.truth !== null ? h("p", {}, `Your statement is ${tf(you.truth)}.`) : null,
      you.vote !== undefined && you.vote !== null ? h("p", {}, `Your sealed vote: ${tf(you.vote)}.`) : null);
  },

  moment(e, ctx) {
    const say = describe(e, { names: ctx.names || [], seat: ctx.seat });
    switch (e.kind) {
      case "statement": return { select: "[data-key=dock]", say };
      case "first_vote": return { select: "[data-key^=vote1-]", say, ms: 600, keep: true };
      case "argument": return { select: `[data-key=place-${e.seat}]`, say };
      case "trial_closed": return { select: ["[data-key=verdict]", ...e.points.map((p, s) => (p ? `[data-key=points-${s}]` : null)).filter(Boolean)].join(", "),
        say, ms: 600, shake: "[data-key=verdict]", keep: true };
      case "game_over": return { select: "[data-key^=points-]", say, ms: 600 };
      default: return null;
    }
  },

  /** One column per player, one row per trial (role and points), the total; the winner marked. */
  scoreSheet(final, { names, h }) {
    const { result } = final;
    const seats = names.map((_, s) => s);
    const history = (final.views[0] && final.views[0].history) || [];
    const cell = (s, ...content) => h("td", { class: result.winners.includes(s) ? "winner" : "" }, ...content);
    return h("div", { class: "scroll" }, h("table", { class: "grid score-sheet", "data-testid": "score-sheet" },
      h("thead", {}, h("tr", {}, h("th", {}, "trial"), seats.map((s) => h("th", { class: result.winners.includes(s) ? "winner" : "" },
        result.winners.includes(s) ? "★ " : "", names[s], h("span", { class: "muted" }, botNote(final, s)))))),
      h("tbody", {},
        history.map((t) => h("tr", {}, h("th", { scope: "row", title: `“${t.statement}” was ${tf(t.truth)}; the majority said ${tf(t.majority)}. ${RULES.points}` },
          `Trial ${t.trial}: ${t.majority_right ? "right" : "wrong"}`),
        seats.map((s) => cell(s, `${s === t.accused ? "accused" : t.grabbers.includes(s) ? "grabber" : "revolutionary"}${t.first_vote[s] === null ? "" : `, voted ${tf(t.second_vote[s])}`}: ${t.points[s] ? `+${t.points[s]}` : "0"}`)))),
        h("tr", {}, h("th", { scope: "row", title: "Most points wins; ties share the win." }, "Points"), seats.map((s) => cell(s, h("b", {}, String(result.scores[s]))))))));
  },
});
}
