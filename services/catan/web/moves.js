// Catan's own move widget for the web table: a domestic trade offer, whose counts are open (the
// legal moves cannot list every offer).  The table imports this module and calls widgets().
const RESOURCES = ["brick", "lumber", "wool", "grain", "ore"];

const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
};

function side(prefix, title, max) {
  const box = el("fieldset", { className: "counts" }, el("legend", { textContent: title }));
  for (const r of RESOURCES) {
    const input = el("input", { type: "number", min: "0", max: String(max(r)), value: "0", id: `${prefix}-${r}`, name: r });
    box.append(el("label", { htmlFor: input.id, textContent: r }), input);
  }
  return box;
}

const read = (box) => Object.fromEntries(RESOURCES.map((r) => [r, Number(box.querySelector(`[name=${r}]`).value) || 0])
  .filter(([, n]) => n > 0));

/** The widgets for this seat now: an offer form while it may trade on its own turn. */
export function widgets({ view, legal, play }) {
  const mayTrade = legal.moves.some((m) => m.type === "end_turn") && !view.state.offer;
  if (!mayTrade) return [];
  const me = (view.state.seats || [])[view.you] || {};
  const hand = me.resources || {};
  const give = side("offer-give", "You give", (r) => hand[r] || 0);
  const get = side("offer-get", "You get", () => 19);
  const form = el("form", { className: "move-form", id: "form-offer_trade" },
    el("h3", { textContent: "Offer a trade to the other players" }), give, get,
    el("button", { type: "submit", textContent: "offer trade" }));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    play({ type: "offer_trade", give: read(give), get: read(get) });
  });
  return [form];
}
