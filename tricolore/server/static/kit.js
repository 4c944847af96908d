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

  /** Give a node its rule text: a <title> (read by screen readers, shown by the browser) and the
   * kit's own tooltip on hover and on a long press. */
  function tip(node, rule) {
    if (!rule) return node;
    node.setAttribute("data-tip", rule);
    if (node.namespaceURI === NS) node.insertBefore(el("title", {}, rule), node.firstChild);
    else node.title = rule;
    return node;
  }

  /** A counter: an icon and a number in a round token, e.g. token({x, y, icon: "🍰", value: 12}). */
  function token({ x, y, icon = "", value, r = 22, fill = "#fff", stroke = "#555", tip: rule, label, ...attrs }) {
    const node = g({ class: "kit-token", transform: `translate(${x} ${y})`, "aria-label": label || `${icon} ${value}`, ...attrs },
      circle(0, 0, r, { fill, stroke, "stroke-width": 2 }),
      icon ? text(0, -r * 0.38, icon, { anchor: "middle", size: r * 0.75 }) : null,
      text(0, icon ? r * 0.42 : 0, value, { anchor: "middle", size: r * (icon ? 0.8 : 1), "font-weight": 700 }));
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
    listen(node, "click", (e) => { e.preventDefault(); onPick(value); });
    listen(node, "keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onPick(value); }
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

  /** A moment: highlight `nodes` for `ms` (300–600) milliseconds; without motion, a steady outline. */
  function moment(nodes, ms = 500) {
    const list = [nodes].flat(Infinity).filter(Boolean);
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
    return node.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }],
      { duration: Math.max(300, Math.min(600, ms)), easing: "ease-out" });
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

  return { NS, el, svg, g, rect, circle, line, path, text, tip, token, card, player, mark, badge, who, legend,
    choice, stepper, fit, motion, setMotion, moment, move, patch, listen };
})();

window.Kit = Kit;
