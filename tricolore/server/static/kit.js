// The drawing kit every game's board uses: SVG shapes, tokens, cards, player marks, clickable
// choices, steppers, tooltips and short "moments". Everything is built with createElementNS and
// textContent (never innerHTML), so names typed by players cannot inject markup.
// The API is described in docs/adding-a-game.md, "Drawing a game's board".
"use strict";

const Kit = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const MOTION_KEY = "tricolore:motion";

  /** Attach attributes and listeners; listeners are remembered so that patch() can move them. */
  function setAttrs(el, attrs) {
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key.startsWith("on") && typeof value === "function") listen(el, key.slice(2), value);
      else if (key === "class") el.setAttribute("class", value);
      else el.setAttribute(key, value === true ? "" : String(value));
    }
  }

  /** addEventListener, remembered on the element (patch() carries listeners to the kept node). */
  function listen(el, type, handler) {
    el.addEventListener(type, handler);
    (el.__listeners = el.__listeners || []).push([type, handler]);
  }

  function append(el, children) {
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      el.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return el;
  }

  /** Any SVG element: el("polygon", {points: "…"}, ...children); strings become text. */
  function el(tag, attrs, ...children) {
    const node = document.createElementNS(NS, tag);
    setAttrs(node, attrs);
    return append(node, children);
  }

  /** The root: a drawing of width × height units that scales to the width of its container. */
  function svg(width, height, attrs, ...children) {
    return el("svg", { viewBox: `0 0 ${width} ${height}`, width: "100%", preserveAspectRatio: "xMidYMin meet",
      class: "kit", role: "img", ...attrs }, ...children);
  }
  const g = (attrs, ...children) => el("g", attrs, ...children);
  const rect = (x, y, w, h, attrs) => el("rect", { x, y, width: w, height: h, ...attrs });
  const circle = (cx, cy, r, attrs) => el("circle", { cx, cy, r, ...attrs });
  const line = (x1, y1, x2, y2, attrs) => el("line", { x1, y1, x2, y2, stroke: "currentColor", ...attrs });
  const path = (d, attrs) => el("path", { d, ...attrs });
  /** Text at (x, y); `anchor` is start, middle or end; size in drawing units (default 16). */
  const text = (x, y, content, attrs = {}) => {
    const { anchor = "start", size = 16, ...rest } = attrs;
    return el("text", { x, y, "text-anchor": anchor, "font-size": size, "dominant-baseline": "middle", ...rest }, String(content));
  };

  /** Text that fits `max` units of width: it shrinks down to `min` size (14), then ends in "…" with
   * the whole text as its tooltip. Widths are estimated (0.58 em a letter), so leave a margin. */
  function label(x, y, content, { max = 200, size = 16, min = 14, ...attrs } = {}) {
    const whole = String(content);
    const width = (n, s) => n * s * 0.58;
    let fitted = size;
    while (fitted > min && width(whole.length, fitted) > max) fitted -= 1;
    let shown = whole;
    if (width(shown.length, fitted) > max) shown = whole.slice(0, Math.max(1, Math.floor(max / (fitted * 0.58)) - 1)) + "…";
    const node = text(x, y, shown, { size: fitted, ...attrs });
    if (shown !== whole) node.appendChild(el("title", {}, whole));
    return node;
  }

  // Icons drawn here (no emoji: not every phone or browser has a font for them), centred on 0,0
  // and `size` units wide.
  const ICONS = {
    cake: (s) => [path(`M${-s / 2},${s / 6} L0,${-s / 3} L${s / 2},${s / 6} L${s / 2},${s / 2.4} L${-s / 2},${s / 2.4} Z`, { fill: "#f4d08a", stroke: "#8a5a00", "stroke-width": 1.2 }),
      path(`M${-s / 2},${s / 6} L0,${-s / 3} L${s / 2},${s / 6} Z`, { fill: "#fbeee0", stroke: "#8a5a00", "stroke-width": 1.2 }),
      circle(0, -s / 3, s / 9, { fill: "#c0392b" })],
    cockade: (s) => [circle(0, 0, s / 2, { fill: "#1f3a93" }), circle(0, 0, s / 3, { fill: "#fff" }), circle(0, 0, s / 6, { fill: "#c0392b" })],
    coin: (s) => [circle(0, 0, s / 2, { fill: "#e8c14a", stroke: "#8a6d00", "stroke-width": 1.5 }), circle(0, 0, s / 3.2, { fill: "none", stroke: "#8a6d00" })],
    medal: (s) => [path(`M${-s / 5},${-s / 2} L0,${-s / 10} L${s / 5},${-s / 2}`, { stroke: "#1f3a93", "stroke-width": s / 7, fill: "none" }),
      circle(0, s / 6, s / 3, { fill: "#e8c14a", stroke: "#8a6d00" })],
    fire: (s) => [path(`M0,${-s / 2} C${s / 2},${-s / 8} ${s / 2.5},${s / 2} 0,${s / 2} C${-s / 2.5},${s / 2} ${-s / 2},${-s / 8} 0,${-s / 2} Z`, { fill: "#e4572e" }),
      path(`M0,0 C${s / 5},${s / 8} ${s / 6},${s / 2.4} 0,${s / 2.4} C${-s / 6},${s / 2.4} ${-s / 5},${s / 8} 0,0 Z`, { fill: "#ffc93c" })],
    lock: (s) => [rect(-s / 2.6, -s / 12, s / 1.3, s / 2, { rx: 2, fill: "#6b6b6b" }),
      path(`M${-s / 4},${-s / 12} L${-s / 4},${-s / 4} A${s / 4},${s / 4} 0 0 1 ${s / 4},${-s / 4} L${s / 4},${-s / 12}`, { fill: "none", stroke: "#6b6b6b", "stroke-width": s / 10 })],
  };

  /** A drawn icon by name (cake, cockade, coin, medal, fire, lock) at (x, y), `size` units wide. */
  function icon(name, x, y, size = 18) {
    const draw = ICONS[name];
    return g({ class: `kit-icon kit-icon-${name}`, transform: `translate(${x} ${y})`, "aria-hidden": "true" }, draw ? draw(size) : text(0, 0, name, { anchor: "middle", size }));
  }

  /** An icon and a number side by side, e.g. count("cake", 12, x, y): the plainest counter. */
  function count(name, value, x, y, { size = 17, ...attrs } = {}) {
    const wide = size * (1.9 + 0.6 * String(value).length);
    return g({ class: "kit-count", ...attrs },
      rect(x - 4, y - 22, wide, 44, { rx: 8, fill: "transparent", stroke: "none", class: "kit-hit" }), // a 44-unit target when clickable
      icon(name, x + size / 2, y, size * 1.05), text(x + size * 1.3, y + 1, value, { size, "font-weight": 700 }));
  }

  /** Give a node its rule text: a <title> (read by screen readers, shown by the browser) and the
   * kit's own tooltip on hover and on a long press. */
  function tip(node, rule) {
    if (!rule) return node;
    node.setAttribute("data-tip", rule);
    if (node.namespaceURI === NS) node.insertBefore(el("title", {}, rule), node.firstChild);
    else node.setAttribute("aria-description", rule); // no title: the kit's tooltip shows it
    return node;
  }

  /** A counter: an icon (a name from icon(), or a short text) and a number in a round token,
   * e.g. token({x, y, icon: "cake", value: 12, tip: "rule text"}). */
  function token({ x, y, icon: symbol = "", value, r = 22, fill = "#fff", stroke = "#555", tip: rule, label: spoken, ...attrs }) {
    const node = g({ class: "kit-token", transform: `translate(${x} ${y})`, "aria-label": spoken || `${symbol} ${value}`, ...attrs },
      circle(0, 0, r, { fill, stroke, "stroke-width": 2 }),
      symbol ? (ICONS[symbol] ? icon(symbol, 0, -r * 0.4, r * 0.7) : text(0, -r * 0.38, symbol, { anchor: "middle", size: r * 0.75 })) : null,
      text(0, symbol ? r * 0.42 : 0, value, { anchor: "middle", size: r * (symbol ? 0.8 : 1), "font-weight": 700 }));
    return tip(node, rule);
  }

  /** A card: a titled rectangle with lines of text; its rule text is the tooltip. */
  function card({ x, y, w = 150, h = 90, title, lines = [], tip: rule, fill = "#fffdf6", stroke = "#8b7d5c", titleFill = "#1d1d1d", ...attrs }) {
    const node = g({ class: "kit-card", transform: `translate(${x} ${y})`, ...attrs },
      rect(0, 0, w, h, { rx: 8, fill, stroke, "stroke-width": 2, class: "kit-card-face" }),
      title ? text(w / 2, 18, title, { anchor: "middle", size: 17, "font-weight": 700, fill: titleFill }) : null,
      lines.map((l, i) => text(w / 2, 42 + i * 20, l, { anchor: "middle", size: 15 })));
    return tip(node, rule);
  }

  // Colours from Okabe and Ito's palette, told apart by colour-blind eyes; a shape and a letter
  // go beside each colour so that nobody needs the colour at all.
  const COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C6D1F",
    "#0072B2", "#D55E00", "#009E73", "#CC79A7"];
  const SHAPES = ["circle", "square", "triangle", "diamond", "star", "hexagon", "cross", "pentagon",
    "square", "triangle", "diamond", "circle"];

  /** A seat's colour, shape and letter (the first letter of its name). */
  function player(seat, name) {
    return { colour: COLOURS[seat % COLOURS.length], shape: SHAPES[seat % SHAPES.length],
      letter: (String(name || "").trim()[0] || "?").toUpperCase() };
  }

  function shapePath(shape, r) {
    const poly = (n, rot = -Math.PI / 2, radius = () => r) => Array.from({ length: n }, (_, i) => {
      const a = rot + (i * 2 * Math.PI) / n;
      return `${(Math.cos(a) * radius(i)).toFixed(1)},${(Math.sin(a) * radius(i)).toFixed(1)}`;
    }).join(" ");
    switch (shape) {
      case "square": return el("rect", { x: -r * 0.85, y: -r * 0.85, width: r * 1.7, height: r * 1.7 });
      case "triangle": return el("polygon", { points: poly(3, -Math.PI / 2, () => r * 1.15) });
      case "diamond": return el("polygon", { points: poly(4, 0) });
      case "star": return el("polygon", { points: poly(10, -Math.PI / 2, (i) => (i % 2 ? r * 0.55 : r * 1.1)) });
      case "hexagon": return el("polygon", { points: poly(6, 0) });
      case "pentagon": return el("polygon", { points: poly(5) });
      case "cross": return el("polygon", { points: "-3,-10 3,-10 3,-3 10,-3 10,3 3,3 3,10 -3,10 -3,3 -10,3 -10,-3 -3,-3"
        .split(" ").map((p) => p.split(",").map((v) => (Number(v) * r / 10).toFixed(1)).join(",")).join(" ") });
      default: return el("circle", { r });
    }
  }

  /** A seat's mark in SVG: its shape in its colour with its letter inside. */
  function mark(seat, name, { x = 0, y = 0, r = 11 } = {}) {
    const p = player(seat, name);
    const shape = shapePath(p.shape, r);
    shape.setAttribute("fill", p.colour);
    shape.setAttribute("stroke", "#fff");
    return g({ class: "kit-mark", transform: `translate(${x} ${y})`, "aria-hidden": "true" }, shape,
      text(0, 1, p.letter, { anchor: "middle", size: r * 1.1, fill: "#fff", "font-weight": 700 }));
  }

  /** A seat's mark as HTML (for panels, logs and sentences): a small inline SVG. */
  function badge(seat, name) {
    return svg(24, 24, { class: "kit-badge", width: 20, height: 20, role: null }, mark(seat, name, { x: 12, y: 12, r: 10 }));
  }

  /** A player's name in their colour with their mark beside it, as HTML. */
  function who(seat, name) {
    const span = document.createElement("span");
    span.className = "kit-who";
    span.style.color = player(seat, name).colour;
    append(span, [badge(seat, name), String(name)]);
    return span;
  }

  /** The legend of every player's colour, shape and name, as HTML. */
  function legend(names) {
    const list = document.createElement("ul");
    list.className = "kit-legend";
    names.forEach((name, seat) => list.appendChild(append(document.createElement("li"), [who(seat, name)])));
    return list;
  }

  /** Make a node a clickable choice: highlighted, reachable by Tab, picked by a click, Enter or
   * Space. `chosen` marks it as the current pick; `label` is what a screen reader says. */
  function choice(node, { value, label, chosen = false, onPick }) {
    node.setAttribute("data-choice", typeof value === "object" ? JSON.stringify(value) : String(value));
    node.setAttribute("role", "button");
    node.setAttribute("tabindex", "0");
    node.setAttribute("aria-pressed", chosen ? "true" : "false");
    if (label) node.setAttribute("aria-label", label);
    node.classList.add("kit-choice");
    if (chosen) node.classList.add("kit-chosen");
    // a choice inside another (a counter on a sheet) is picked alone
    listen(node, "click", (e) => { e.preventDefault(); e.stopPropagation(); onPick(value); });
    listen(node, "keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); onPick(value); }
    });
    return node;
  }

  /** An amount with − and + buttons (44 px targets), starting at `value`, kept within min..max. */
  function stepper({ value, min, max, label, onChange, name }) {
    const clamp = (n) => Math.max(min, Math.min(max, n));
    let current = clamp(value ?? min);
    const readout = append(document.createElement("output"), [String(current)]);
    readout.className = "kit-readout";
    const button = (sign, delta) => {
      const b = append(document.createElement("button"), [sign]);
      b.type = "button";
      b.className = "kit-step";
      b.setAttribute("aria-label", `${delta < 0 ? "fewer" : "more"} ${label || ""}`.trim());
      listen(b, "click", () => set(current + delta));
      return b;
    };
    const less = button("−", -1);
    const more = button("+", 1);
    const box = append(document.createElement("span"), [label ? append(document.createElement("span"), [label, " "]) : null,
      less, readout, more, append(document.createElement("span"), [` (${min}–${max})`])]);
    box.className = "kit-stepper";
    box.setAttribute("data-replace", "");
    if (name) box.setAttribute("data-stepper", name);
    function set(n) {
      current = clamp(n);
      readout.textContent = String(current);
      less.disabled = current <= min;
      more.disabled = current >= max;
      if (onChange) onChange(current);
    }
    less.disabled = current <= min;
    more.disabled = current >= max;
    return box;
  }

  /** The width to draw at, in drawing units that are screen pixels: the board's width, 320 to 960.
   * Drawing at this width keeps text at its size on a phone (a 16-unit text is about 16 px). */
  function fit() {
    const wrap = document.querySelector("[data-testid=board]") || document.body;
    const style = getComputedStyle(wrap);
    const inner = wrap.clientWidth - parseFloat(style.paddingLeft || 0) - parseFloat(style.paddingRight || 0);
    return Math.round(Math.max(320, Math.min(960, inner || window.innerWidth - 40)));
  }

  /** Whether movement is on: off when the system asks for reduced motion or the player turned it off. */
  function motion() {
    const stored = localStorage.getItem(MOTION_KEY);
    if (stored !== null) return stored === "on";
    return !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }

  function setMotion(on) {
    localStorage.setItem(MOTION_KEY, on ? "on" : "off");
  }

  /** A moment: highlight `nodes` (a node, an array or a NodeList) for `ms` (300–600) milliseconds; without motion, a steady outline. */
  function moment(nodes, ms = 500) {
    const flat = (x) => (!x ? [] : x instanceof Node ? [x] : typeof x[Symbol.iterator] === "function" ? [...x].flatMap(flat) : []);
    const list = flat(nodes); // a node, an array, a NodeList, or arrays of them
    const span = Math.max(300, Math.min(600, ms));
    for (const node of list) {
      node.classList.remove("kit-moment", "kit-moment-still");
      void node.getBoundingClientRect(); // restart the animation on a node already highlighted
      node.classList.add(motion() ? "kit-moment" : "kit-moment-still");
      setTimeout(() => node.classList.remove("kit-moment", "kit-moment-still"), motion() ? span : span * 3);
    }
    return list.length;
  }

  /** Move a node from (dx, dy) away back to where it is drawn, in `ms` milliseconds (none without motion). */
  function move(node, { dx = 0, dy = 0, ms = 450 } = {}) {
    if (!node || !motion() || !node.animate) return null;
    // the `translate` property composes with an SVG element's own transform attribute
    return node.animate([{ translate: `${dx}px ${dy}px` }, { translate: "0px 0px" }],
      { duration: Math.max(300, Math.min(600, ms)), easing: "ease-out" });
  }

  /** A piece flies from one element to another (a cake to the Bastille, a chip to a space): a small
   * disc drawn over the page for `ms` milliseconds, then gone. Nothing moves without motion. */
  function fly(from, to, { ms = 500, colour = "#d79b00" } = {}) {
    if (!from || !to || !motion()) return null;
    const a = from.getBoundingClientRect();
    const b = to.getBoundingClientRect();
    const piece = document.createElement("div");
    piece.className = "kit-piece";
    piece.style.background = colour;
    piece.style.left = `${a.left + a.width / 2 - 9 + window.scrollX}px`;
    piece.style.top = `${a.top + a.height / 2 - 9 + window.scrollY}px`;
    document.body.appendChild(piece);
    const run = piece.animate([{ translate: "0px 0px", opacity: 1 },
      { translate: `${b.left + b.width / 2 - (a.left + a.width / 2)}px ${b.top + b.height / 2 - (a.top + a.height / 2)}px`, opacity: 0.9 }],
    { duration: Math.max(300, Math.min(600, ms)), easing: "ease-in-out" });
    run.onfinish = () => piece.remove();
    return run;
  }

  // The tooltip: one floating box for every [data-tip] node, on hover and after a long press.
  let tipBox = null;
  let pressTimer = null;
  function showTip(target, x, y) {
    if (!tipBox) {
      tipBox = document.createElement("div");
      tipBox.className = "kit-tip";
      tipBox.setAttribute("role", "tooltip");
      document.body.appendChild(tipBox);
    }
    tipBox.textContent = target.getAttribute("data-tip");
    tipBox.style.display = "block";
    const width = Math.min(320, window.innerWidth - 16);
    tipBox.style.maxWidth = `${width}px`;
    tipBox.style.left = `${Math.max(8, Math.min(x + 12, window.innerWidth - width - 8)) + window.scrollX}px`;
    tipBox.style.top = `${y + 16 + window.scrollY}px`;
  }
  function hideTip() {
    if (tipBox) tipBox.style.display = "none";
    clearTimeout(pressTimer);
  }
  document.addEventListener("pointerover", (e) => {
    const target = e.target.closest && e.target.closest("[data-tip]");
    if (e.pointerType === "mouse" && target) showTip(target, e.clientX, e.clientY);
    else if (e.pointerType === "mouse") hideTip();
  });
  document.addEventListener("pointerdown", (e) => {
    hideTip();
    const target = e.target.closest && e.target.closest("[data-tip]");
    if (e.pointerType !== "mouse" && target) pressTimer = setTimeout(() => showTip(target, e.clientX, e.clientY), 500);
  });
  document.addEventListener("pointerup", () => clearTimeout(pressTimer));
  document.addEventListener("scroll", hideTip, { passive: true });

  /** Update `old` in place to look like `fresh`: changed attributes, texts and listeners only, so
   * that open <details>, focus, scroll positions and running highlights survive an update. */
  function patch(old, fresh) {
    if (old.nodeType !== fresh.nodeType || old.nodeName !== fresh.nodeName) { old.replaceWith(fresh); return fresh; }
    if (old.nodeType === Node.TEXT_NODE) {
      if (old.nodeValue !== fresh.nodeValue) old.nodeValue = fresh.nodeValue;
      return old;
    }
    // Nodes whose listeners hold other nodes (a stepper) are replaced whole.
    if (old.nodeType !== Node.ELEMENT_NODE || fresh.hasAttribute("data-replace")) { old.replaceWith(fresh); return fresh; }
    const keep = old.nodeName === "DETAILS" ? old.hasAttribute("open") : null;
    for (const attr of [...old.attributes]) {
      if (!fresh.hasAttribute(attr.name) && !(attr.name === "class" && /kit-moment/.test(attr.value))) old.removeAttribute(attr.name);
    }
    for (const attr of [...fresh.attributes]) {
      if (attr.name === "class") {
        const moments = [...old.classList].filter((c) => c.startsWith("kit-moment"));
        const wanted = [attr.value, ...moments].join(" ").trim();
        if (old.getAttribute("class") !== wanted) old.setAttribute("class", wanted);
      } else if (old.getAttribute(attr.name) !== attr.value) old.setAttribute(attr.name, attr.value);
    }
    if (keep !== null) { if (keep) old.setAttribute("open", ""); else old.removeAttribute("open"); }
    for (const [type, handler] of old.__listeners || []) old.removeEventListener(type, handler);
    old.__listeners = [];
    for (const [type, handler] of fresh.__listeners || []) listen(old, type, handler);
    const before = [...old.childNodes];
    const after = [...fresh.childNodes];
    after.forEach((child, i) => {
      if (i < before.length) patch(before[i], child);
      else old.appendChild(child);
    });
    for (const extra of before.slice(after.length)) extra.remove();
    return old;
  }

  // -- words ---------------------------------------------------------------------------------------
  /** "1 point", "3 points". */
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  /** "Ann", "Ann and Bob", "Ann, Bob and Cy". */
  const list = (items) => (items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`);
  /** Who won a finished game, for its last status line: "Ann wins with 12 points", "Ann and Bob
   * share the win with 9 Gold". `score` says a score in the game's words (n => `${n} Gold`). */
  const winners = (result, names, score) => {
    const who = result.winners.map((s) => names[s]);
    return `${list(who)} ${who.length > 1 ? "share the win" : "wins"} with ${score(result.scores[result.winners[0]])}`;
  };

  /** A rule term in a sentence, with its plain meaning: dotted underline, the meaning as its
   * tooltip (hover, or a long press on a phone) and as what a screen reader says after it. */
  function term(word, meaning) {
    const node = document.createElement("abbr");
    node.className = "term";
    node.title = meaning;
    node.tabIndex = 0;
    node.setAttribute("data-term", word);
    node.setAttribute("aria-label", `${word} (${meaning})`);
    node.textContent = word;
    return node;
  }

  /** A sentence made of strings and nodes (Kit.term), as one inline element. */
  function sentence(...parts) {
    const node = document.createElement("span");
    node.className = "sentence-parts";
    return append(node, parts);
  }

  return { NS, el, svg, g, rect, circle, line, path, text, label, icon, count, tip, token, card, player, mark, badge, who, legend,
    choice, stepper, fit, motion, setMotion, moment, move, fly, patch, listen, plural, list, winners, term, sentence };
})();

window.Kit = Kit;
