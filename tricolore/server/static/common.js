// Shared helpers of the browser client: building elements safely, and the board registry.
// Every text reaches the page through textContent, never innerHTML, so names and chat cannot
// inject markup or scripts.
"use strict";

const Tricolore = {
  boards: {},

  /** A board module: render(view, ctx) returns an element; ctx has names, seat and helpers. */
  registerBoard(game, board) {
    Tricolore.boards[game] = board;
  },

  /** Load /boards/<game>.js (the board.js in the game's package) once; resolves whether or not the game has its own board. */
  loadBoard(game) {
    if (Tricolore.boards[game]) return Promise.resolve(Tricolore.boards[game]);
    return new Promise((resolve) => {
      const script = document.createElement("script");
      script.src = `/boards/${encodeURIComponent(game)}.js`;
      script.onload = () => resolve(Tricolore.boards[game] || null);
      script.onerror = () => resolve(null);
      document.head.appendChild(script);
    });
  },
};

/** h("div", {class: "x", onclick: f}, "text", child) builds an element; strings become text. */
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) {
      el.addEventListener(key.slice(2), value);
      (el.__listeners = el.__listeners || []).push([key.slice(2), value]); // for Kit.patch
    }
    else if (key === "class") el.className = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** "first", "second"…: people are named, not numbered; before they have names, seats are ordinals. */
function ordinal(index) {
  const words = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth"];
  const word = words[index] || `${index + 1}th`;
  return word[0].toUpperCase() + word.slice(1);
}

/** A button that copies ``text`` and says so. */
function copyButton(text) {
  const button = h("button", { type: "button", class: "small copy", "data-copy": text, onclick: async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "Copied ✓";
    } catch {
      button.textContent = "Select and copy by hand";
    }
    setTimeout(() => { button.textContent = "Copy"; }, 2000);
  } }, "Copy");
  return button;
}

/** A readable label for a field name: "bastille_cakes" -> "bastille cakes". */
function label(name) {
  return String(name).replace(/_/g, " ");
}

/** Any JSON value as a compact element: tables for lists of objects, definition lists for objects. */
function renderValue(value, depth = 0) {
  if (value === null || value === undefined) return h("span", { class: "muted" }, "—");
  if (typeof value !== "object") return h("span", {}, String(value));
  if (Array.isArray(value)) {
    if (value.length === 0) return h("span", { class: "muted" }, "none");
    if (value.every((v) => v && typeof v === "object" && !Array.isArray(v)) && depth < 3) {
      const keys = [...new Set(value.flatMap((v) => Object.keys(v)))];
      return h("div", { class: "scroll" }, h("table", { class: "grid" },
        h("thead", {}, h("tr", {}, keys.map((k) => h("th", {}, label(k))))),
        h("tbody", {}, value.map((row) => h("tr", {}, keys.map((k) => h("td", {}, renderValue(row[k], depth + 1))))))));
    }
    if (value.every((v) => v === null || typeof v !== "object")) return h("span", {}, value.map((v) => (v === null ? "—" : String(v))).join(", "));
    return h("ol", { start: 0 }, value.map((v) => h("li", {}, renderValue(v, depth + 1))));
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return h("span", { class: "muted" }, "none");
  return h("dl", { class: "fields" }, entries.flatMap(([k, v]) => [h("dt", {}, label(k)), h("dd", {}, renderValue(v, depth + 1))]));
}

/** The generic board: every public field of the view, for a game without a board of its own. */
function genericBoard(view) {
  const skip = new Set(["game", "seat", "players", "you", "pending", "options"]);
  const shown = Object.fromEntries(Object.entries(view).filter(([k]) => !skip.has(k)));
  return h("section", { class: "board generic" }, renderValue(shown));
}

/** A one-line description of a log event: its kind and its fields. */
function describeEvent(event, names) {
  const parts = [];
  for (const [key, value] of Object.entries(event)) {
    if (key === "kind" || key === "to") continue;
    let shown = value;
    if (["seat", "by", "from", "to_seat", "winner", "target", "player"].includes(key) && Number.isInteger(value) && names[value]) shown = names[value];
    parts.push(`${label(key)}: ${typeof shown === "object" ? JSON.stringify(shown) : shown}`);
  }
  return `${label(event.kind)}${parts.length ? " — " + parts.join("; ") : ""}`;
}

/** The secret panel: what only this seat knows, clearly marked. */
function secretPanel(you, title) {
  return h("section", { class: "secret", "data-testid": "secret" },
    h("h3", {}, title || "Secret — only you see this"),
    renderValue(you));
}

/** Whether a seat's secrets hold anything: some value that is not null and not empty. */
function hasSecret(value) {
  if (value === null || value === undefined || value === "") return false;
  if (Array.isArray(value)) return value.some(hasSecret);
  if (typeof value === "object") return Object.values(value).some(hasSecret);
  return true;
}

/** "round 3", from where the server says a game stood ({word, number}). */
function gameMoment(at) {
  return at ? `${at.word} ${at.number}` : null;
}

/** Who played a seat other than its person, as people say it: "Camille is a bot (honest
 * discloser).", "A bot played for Marianne from round 3.", "A bot played for Marianne after they
 * left." `null` for a person who played to the end. */
function seatStory(final, names, seat) {
  const name = names[seat] || `the ${ordinal(seat).toLowerCase()} player`;
  const spans = (final.takeovers && final.takeovers[seat]) || [];
  if (spans.length) {
    const when = spans.map((span) => {
      const from = gameMoment(span.from);
      const until = gameMoment(span.until);
      if (!from) return until ? `after they left, until ${until}` : "after they left";
      if (!until) return `from ${from}`;
      return from === until ? `during ${from}` : `from ${from} to ${until}`;
    });
    return `A bot played for ${name} ${when.join(", then ")}.`;
  }
  const strategy = final.strategies && final.strategies[seat];
  return strategy ? `${name} is a bot (${label(String(strategy).split(":")[0]).replace(/-/g, " ")}).` : null;
}

/** Beside a name in a score sheet's heading: " (bot)" for a seat a bot held from the start ("" for a
 * person, and for a seat a bot took over: the end screen tells that in a sentence). */
function botNote(final, seat) {
  const took = final.takeovers && final.takeovers[seat] && final.takeovers[seat].length;
  return final.strategies && final.strategies[seat] && !took ? " (bot)" : "";
}

/** The end screen: ranking, each seat's score breakdown, who played for whom, and each secret
 * revealed once (a seat with none is not mentioned). `secret(you, seat, view)` may draw a seat's
 * secrets and `sheet(final)` the score sheet (a board's own). */
function endScreen(final, names, secret, sheet) {
  const result = final.result;
  const nameOf = (seat) => names[seat] || `${ordinal(seat)} player`;
  const rows = result.ranking.map((seat, place) => h("tr", { class: result.winners.includes(seat) ? "winner" : "" },
    h("td", {}, String(place + 1)), h("td", {}, nameOf(seat)),
    h("td", {}, String(result.scores[seat])), h("td", {}, renderValue(result.breakdown[seat]))));
  const winners = result.winners.map(nameOf).join(" and ");
  const own = sheet ? sheet(final) : null;
  const stories = names.map((_, seat) => seatStory(final, names, seat)).filter(Boolean);
  const secrets = final.views.map((view, seat) => [view, seat]).filter(([view]) => hasSecret(view.you));
  return h("section", { class: "end", "data-testid": "end-screen" },
    h("h2", {}, `Game over — ${winners} ${result.winners.length > 1 ? "share the win" : "wins"}`),
    own || h("div", { class: "scroll" }, h("table", { class: "grid" },
      h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "player"), h("th", {}, "score"), h("th", {}, "breakdown"))),
      h("tbody", {}, rows))),
    stories.length ? h("ul", { class: "stories", "data-testid": "who-played" }, stories.map((story) => h("li", {}, story))) : null,
    secrets.length ? h("h3", {}, "Every secret revealed") : null,
    secrets.length ? h("div", { class: "reveal", "data-testid": "secrets-revealed" }, secrets.map(([view, seat]) =>
      (secret && secret(view.you, seat, view)) || secretPanel(view.you, `${nameOf(seat)}'s secrets`))) : null);
}

window.Tricolore = Tricolore;
window.h = h;
window.ordinal = ordinal;
window.hasSecret = hasSecret;
window.botNote = botNote;
window.copyButton = copyButton;
