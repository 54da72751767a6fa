// Catan's own move widget for the web table: a domestic trade offer, whose counts are open (the
// legal moves cannot list every offer).  The table imports this module and calls widgets().
import { t, term } from "/web/common.js";

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
    box.append(el("label", { htmlFor: input.id, textContent: term(r) }), input);
  }
  return box;
}

const read = (box) => Object.fromEntries(RESOURCES.map((r) => [r, Number(box.querySelector(`[name=${r}]`).value) || 0])
  .filter(([, n]) => n > 0));

// A player's setting, kept in this browser: the bots' trade offers are declined without asking.
const DECLINE = "catan.decline-bot-offers";
const declining = () => { try { return localStorage.getItem(DECLINE) === "yes"; } catch { return false; } };

/** The legal "no" to a pending offer of a bot's, when this seat has to answer one. */
function botOfferAnswer(view, legal) {
  const offer = view.state.offer;
  const offerer = offer ? (view.players || [])[offer.seat] : null;
  return offerer && offerer.bot ? legal.moves.find((m) => m.type === "answer_trade" && m.accept === false) : undefined;
}

function declineSetting(view, legal, play) {
  const box = el("input", { type: "checkbox", id: "decline-bot-offers", checked: declining() });
  box.addEventListener("change", () => {
    try { localStorage.setItem(DECLINE, box.checked ? "yes" : "no"); } catch { /* private mode: this page only */ }
    const no = box.checked && botOfferAnswer(view, legal);
    if (no) play(no);
  });
  return el("p", { className: "setting" }, el("label", { htmlFor: box.id }, box, " " + t("Decline the bots' trade offers without asking")));
}

/** The widgets for this seat now: the setting that declines the bots' offers (answering the one
 * pending when it is on), and an offer form while it may trade on its own turn. */
export function widgets({ view, legal, play }) {
  const out = view.status === "finished" ? [] : [declineSetting(view, legal, play)];
  const no = declining() && botOfferAnswer(view, legal);
  if (no) setTimeout(() => play(no, { auto: true }), 0);      // once the table has shown this version
  const mayTrade = legal.moves.some((m) => m.type === "end_turn") && !view.state.offer;
  if (!mayTrade) return out;
  const me = (view.state.seats || [])[view.you] || {};
  const hand = me.resources || {};
  const give = side("offer-give", t("You give"), (r) => hand[r] || 0);
  const get = side("offer-get", t("You get"), () => 19);
  const form = el("form", { className: "move-form", id: "form-offer_trade" },
    el("h3", { textContent: t("Offer a trade to the other players") }), give, get,
    el("button", { type: "submit", textContent: t("offer trade") }));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    play({ type: "offer_trade", give: read(give), get: read(get) });
  });
  return [...out, form];
}
