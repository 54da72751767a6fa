// The legal moves as buttons, or as a small form when a move type has many: one control per field
// of the move, built from the values the legal moves hold (a choice, counts per name, a multiset).

import { t, term } from "./common.js";

const FORM_FROM = 7;          // a type with more legal moves than this gets a form, not a row of buttons
const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
};
const key = (v) => JSON.stringify(v);
const isCounts = (v) => v && typeof v === "object" && !Array.isArray(v) && Object.values(v).every((n) => Number.isInteger(n));
const isMultiset = (v) => Array.isArray(v) && v.every((x) => typeof x === "string" || typeof x === "number");
// A move's type, a field's name or a value in the game's words (its catalog's terms), else as written.
const words = (s) => term(String(s));
/** A field's value in short words: lists joined, objects as "key value" without the empty parts. */
function short(v) {
  if (v === null || v === undefined) return t("none");
  if (Array.isArray(v)) return v.length ? v.map(short).join(v.some((x) => x && typeof x === "object") ? "; " : ", ") : t("none");
  if (typeof v === "object") {
    return Object.entries(v).filter(([, x]) => x !== null && x !== false && !(Array.isArray(x) && !x.length))
      .map(([k, x]) => (x === true ? words(k) : `${words(k)} ${short(x)}`)).join(", ");
  }
  return words(v);
}

/** How each field of these moves is chosen: "choice", "counts" or "multiset", with its values. */
function fieldsOf(moves) {
  const names = [...new Set(moves.flatMap((m) => Object.keys(m).filter((k) => k !== "type")))];
  return names.map((name) => {
    const values = moves.map((m) => m[name]);
    if (values.every(isCounts)) {
      const keys = [...new Set(values.flatMap((v) => Object.keys(v)))];
      return { name, kind: "counts", keys, max: Object.fromEntries(keys.map((k) => [k, Math.max(...values.map((v) => v[k] || 0))])) };
    }
    const items = [...new Set(values.filter(Array.isArray).flat())];
    // A few kinds of cards in any number (travel cards, cards to keep): a count per kind.
    if (values.every(isMultiset) && values.some((v) => v.length > 1) && items.length <= 12) {
      const most = (v, x) => v.filter((y) => y === x).length;
      return { name, kind: "multiset", keys: items, max: Object.fromEntries(items.map((x) => [x, Math.max(...values.map((v) => most(v, x)))])) };
    }
    const distinct = [...new Map(values.map((v) => [key(v), v])).values()];
    return { name, kind: "choice", values: distinct };
  });
}

/** Does the legal move ``m`` hold the value chosen for field ``f``? */
function matches(f, m, chosen) {
  const v = m[f.name];
  if (f.kind === "choice") return key(v) === chosen;
  if (f.kind === "counts") return f.keys.every((k) => (v[k] || 0) === (chosen[k] || 0));
  const count = (list, x) => list.filter((y) => y === x).length;
  return Array.isArray(v) && v.length === f.keys.reduce((n, x) => n + (chosen[x] || 0), 0)
    && f.keys.every((x) => count(v, x) === (chosen[x] || 0));
}

function countInputs(prefix, f) {
  // Each at most once (the pegs of a band...): a checkbox each, else a number each.
  const once = f.keys.every((k) => f.max[k] <= 1);
  const box = el("fieldset", { className: once ? "counts once" : "counts" }, el("legend", { textContent: words(f.name) }));
  for (const k of f.keys) {
    if (once) {
      box.append(el("label", {}, el("input", { type: "checkbox", id: `${prefix}-${f.name}-${k}`, name: k }), words(k)));
      continue;
    }
    const input = el("input", { type: "number", min: "0", max: String(f.max[k]), value: "0", id: `${prefix}-${f.name}-${k}`, name: k });
    box.append(el("label", { htmlFor: input.id, textContent: words(k) }), input);
  }
  return box;
}

const countOf = (input) => (input.type === "checkbox" ? Number(input.checked) : Number(input.value) || 0);

/** A form for the legal moves of one type; ``play`` gets the legal move chosen (or, if the
 * choice is none of them, the move as filled in: the server's refusal then says why). */
function moveForm(type, moves, play) {
  const prefix = `form-${type}`;
  const form = el("form", { className: "move-form", id: prefix });
  form.append(el("h3", { textContent: t("{move} ({n} choices)", { move: words(type), n: moves.length }) }));
  const fields = fieldsOf(moves);
  const controls = fields.map((f) => {
    if (f.kind === "choice") {
      const select = el("select", { id: `${prefix}-${f.name}`, name: f.name });
      for (const v of f.values) select.append(new Option(short(v), key(v)));
      form.append(el("label", { htmlFor: select.id, textContent: words(f.name) }), select);
      return { f, read: () => select.value, select };
    }
    const box = countInputs(prefix, f);
    form.append(box);
    return { f, read: () => Object.fromEntries(f.keys.map((k) => [k, countOf(box.querySelector(`[name="${CSS.escape(String(k))}"]`))])) };
  });
  // Keep the choices consistent: an option no legal move pairs with the other choices is greyed.
  const narrow = () => {
    for (const c of controls.filter((c) => c.select)) {
      const others = controls.filter((o) => o !== c);
      for (const option of c.select.options) {
        option.disabled = !moves.some((m) => matches(c.f, m, option.value) && others.every((o) => matches(o.f, m, o.read())));
      }
    }
  };
  form.addEventListener("change", narrow);
  narrow();
  form.append(el("button", { type: "submit", textContent: words(type) }));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const chosen = Object.fromEntries(controls.map((c) => [c.f.name, c.read()]));
    const legal = moves.find((m) => controls.every((c) => matches(c.f, m, chosen[c.f.name])));
    if (legal) return play(legal);
    const move = { type };
    for (const c of controls) {
      const v = chosen[c.f.name];
      if (c.f.kind === "choice") move[c.f.name] = JSON.parse(v);
      else if (c.f.kind === "counts") move[c.f.name] = v;
      else move[c.f.name] = c.f.keys.flatMap((x) => Array(v[x] || 0).fill(x));
    }
    return play(move);
  });
  return form;
}

/** The moves as buttons (labels in the game's words) and forms; ``play(move)`` makes one. */
export function renderMoves(moves, labels, play) {
  const byType = new Map();
  moves.forEach((m, i) => {
    if (!byType.has(m.type)) byType.set(m.type, []);
    byType.get(m.type).push([m, labels[i]]);
  });
  const buttons = el("ul", { className: "moves" });
  const forms = [];
  for (const [type, list] of byType) {
    if (list.length >= FORM_FROM) {
      forms.push(moveForm(type, list.map(([m]) => m), play));
      continue;
    }
    for (const [m, label] of list) {
      const button = el("button", { type: "button", textContent: label });
      button.dataset.moveType = m.type;
      button.addEventListener("click", () => play(m));
      buttons.append(el("li", {}, button));
    }
  }
  return [buttons, ...forms];
}
