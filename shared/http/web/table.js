// A table: the board, players and scores, whose turn, one's hand, the log in words, and one's legal
// moves (clicked on the board, or from a list or a small form), live from the event feed.
import { api, boardSvg, botWords, config, dataWords, follow, gameId, gameWords, moveLabel, newKey, seatNames, showBoard, t, term,
         tokenFromFragment } from "./common.js";
import { renderMoves } from "./moveforms.js";

const id = gameId();
const token = tokenFromFragment();
// The host's token (#host=..., from the lobby or a rematch): it may cancel the game while it waits.
const host = new URLSearchParams(location.hash.slice(1)).get("host");
const $ = (name) => document.getElementById(name);
const message = $("message");
let legal = { version: 0, moves: [] };
let view = null;
let names = [];
let busy = false;
let picked = [];            // the places clicked so far, while more than one move names them all
let offeredAt = null;       // [kind, id] of the place whose moves the choice list offers
// Each legal move's label and its warning (what it costs that its player may not expect).
let labelOf = new Map();
let warningOf = new Map();
// The game's own move widgets (services/<game>/web/moves.js), if it brings any.
const widgets = config.has_widgets ? import("/web/game/moves.js").catch(() => null) : Promise.resolve(null);

$("game-id").textContent = id;
// The board takes the focus back when the place a keyboard user was on goes away (a redraw);
// the panels that scroll are reached by the keyboard too.
$("board").tabIndex = -1;
$("moves-title").tabIndex = -1;
$("log").tabIndex = 0;
$("replay-link").href = `/replay/${encodeURIComponent(id)}`;

function scoreOf(v, seat) {
  const scores = Array.isArray(v.state.scores) ? v.state.scores : Array.isArray(v.state.score) ? v.state.score
    : (v.result && v.result.scores) || null;
  if (scores && scores[seat] !== undefined && scores[seat] !== null) return scores[seat];
  const info = Array.isArray(v.state.seats) ? v.state.seats[seat] : null;
  if (info && typeof info === "object") {
    for (const k of ["points", "public_points", "score", "victory_points"]) if (info[k] !== undefined && info[k] !== null) return info[k];
  }
  return null;
}

/** A colour the server wrote for a swatch: hex digits only, so nothing else reaches the style. */
const hexColour = (c) => (typeof c === "string" && /^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/.test(c) ? c : null);

/** The game's panels (services/<game>/render.py panels(), shared/render/panels.py): titled boxes of
 * rows, each a label, a short text and things counted with a swatch; every word is the game's. */
function showPanels(panels) {
  const el = (tag, props = {}) => Object.assign(document.createElement(tag), props);
  $("panels").replaceChildren(...(panels || []).map((panel) => {
    const box = el("section", { className: "game-panel" });
    box.dataset.panel = panel.key;
    const title = el("h2", { textContent: panel.title, id: `panel-${panel.key}` });
    box.setAttribute("aria-labelledby", title.id);
    const list = el("dl", { className: "panel-rows" });
    for (const row of panel.rows) {
      const dt = el("dt");
      if (row.seat !== null && row.seat !== undefined) {
        dt.className = `seat-${row.seat}`;
        dt.append(el("span", { className: "swatch", ariaHidden: "true" }));
      }
      dt.append(row.label);
      const dd = el("dd");
      if (row.current) { dt.classList.add("current"); dd.classList.add("current"); }
      if (row.text) dd.append(el("span", { className: "row-text", textContent: row.text }));
      for (const item of row.items) {
        const chip = el("span", { className: "chip" });
        const colour = hexColour(item.colour);
        if (colour) {
          const swatch = el("span", { className: "swatch", ariaHidden: "true" });
          swatch.style.background = colour;
          chip.append(swatch);
        }
        chip.append(el("span", { className: "chip-label", textContent: item.label }));
        if (item.count !== null && item.count !== undefined) chip.append(el("b", { className: "chip-count", textContent: String(item.count) }));
        dd.append(chip);
      }
      list.append(dt, dd);
    }
    box.append(title, list);
    return box;
  }));
}

// A game that ended without a winner says how, instead of waiting for nobody.
const ENDED_WORDS = { cancelled: t("This game was cancelled."),
                      abandoned: t("This game was abandoned: nobody moved for too long.") };
const ended = (v) => v.status === "finished" || v.status in ENDED_WORDS;

function show(v, panels, scores) {
  const seat = v.you;
  $("who").textContent = seat === null ? t("You are watching (spectator).")
    : t("You are seat {seat} ({name}).", { seat, name: v.players[seat].name });
  if (v.status === "finished") {
    const winners = (v.result && v.result.winners) || [];
    $("turn").textContent = t("The game is over. Winner: {names}.",
      { names: winners.map((s) => v.players[s].name).join(", ") || t("none") });
  } else if (v.status in ENDED_WORDS) {
    $("turn").textContent = ENDED_WORDS[v.status];
  } else if (v.status === "waiting") {
    $("turn").textContent = t("Waiting for players to take the open seats.");
  } else {
    const others = v.to_act.filter((s) => s !== seat).map((s) => v.players[s].name);
    $("turn").textContent = v.to_act.includes(seat)
      ? (others.length ? t("Your turn (with {names}).", { names: others.join(", ") }) : t("Your turn."))
      : t("Waiting for {names}.", { names: others.join(", ") || t("nobody") });
  }
  $("turn").classList.toggle("yours", v.to_act.includes(seat) && !ended(v));
  $("seeded").hidden = !v.seeded_by_client;
  $("players").replaceChildren(...v.players.map((p) => {
    // The game's own words for the score ("7 VP", "5 towns"), else a number the view holds.
    const score = scores && scores[p.seat] ? scores[p.seat] : scoreOf(v, p.seat);
    const li = document.createElement("li");
    li.className = `seat-${p.seat}` + (v.to_act.includes(p.seat) ? " current" : "");
    li.append(Object.assign(document.createElement("span"), { className: "swatch", ariaHidden: "true" }),
      `${p.open ? t("open seat") : p.name}${p.seat === seat ? " " + t("(you)") : ""}${p.resigned ? " · " + t("resigned") : ""}${p.bot ? " · " + t("bot: {bot}", { bot: botWords(p.bot) }) : ""}`);
    const deadline = (v.deadlines || {})[String(p.seat)];
    if (deadline) {
      const clock = Object.assign(document.createElement("span"), { className: "clock" });
      clock.dataset.deadline = deadline;
      li.append(clock);
    }
    if (score !== null) li.append(Object.assign(document.createElement("b"), { className: "score", textContent: ` ${typeof score === "object" ? dataWords(score) ?? "" : score}` }));
    return li;
  }));
  showControls(v);
  tick();
  // The game's own panels: whose turn, one's own hand, the bank, the others' counts.
  showPanels(panels);
}

let shownVersion = -1;
async function showMoves(labels) {
  // Same version, same moves: keep the forms as they are (a refused move must not wipe them).
  if (legal.version === shownVersion && !ended(view)) return;
  shownVersion = legal.version;
  const box = $("moves");
  // A keyboard user who just played from the list stays by it: on its heading, not at the page's top.
  const hadFocus = box.contains(document.activeElement) || $("widgets").contains(document.activeElement);
  // An abandoned or cancelled game's state still has moves, but nobody can play them any more.
  if (!legal.moves.length || (view && ended(view))) {
    box.replaceChildren(Object.assign(document.createElement("p"), {
      textContent: !token ? t("Open your seat's link to play.") : view && ended(view) ? t("The game is over.")
        : t("None now: waiting for the others.") }));
  } else {
    box.replaceChildren(...renderMoves(legal.moves, labels, play));
  }
  const module = await widgets;
  const extra = module && token && view ? module.widgets({ view, legal, play }) : [];
  $("widgets").replaceChildren(...extra);
  if (hadFocus && !box.contains(document.activeElement)) $("moves-title").focus();
}

/** Does a move's field hold a place's attribute?  A plain value equals it, a list holds it, and
 * an attribute that is a list itself ("c3r4 c4r4") is held exactly by a list field. */
function holds(value, attribute) {
  if (value === undefined || value === null || attribute === null) return false;
  const wanted = attribute.split(" ");
  if (!Array.isArray(value)) return wanted.length === 1 && String(value) === attribute;
  const have = value.map(String);
  if (wanted.length === 1) return have.includes(attribute);
  return have.length === wanted.length && wanted.every((x) => have.includes(x)) && have.every((x) => wanted.includes(x));
}

/** Does the move name this place in a field of the place's own kind (the game's config.places)? */
function names_(move, place) {
  const ways = (config.places || {})[place.getAttribute("data-kind")] || [];
  return ways.some((way) => (!way.types.length || way.types.includes(move.type))
    && Object.entries(way.fields).every(([field, attribute]) => holds(move[field], place.getAttribute(`data-${attribute}`))));
}

/** The words every label of a choice starts with, up to a word's end, and what each says after them:
 * a choice of ways to travel one road says "travel along road 42 (...) using" once, and each button
 * only its cards.  ["", labels] when they share less than a few words. */
function sharedStart(labels) {
  if (labels.length < 2) return ["", labels];
  const first = labels[0];
  let end = 0;
  while (end < first.length && labels.every((label) => label[end] === first[end])) end += 1;
  const cut = first.lastIndexOf(" ", end - 1);
  if (cut < SHARED_START_MIN) return ["", labels];
  return [first.slice(0, cut), labels.map((label) => label.slice(cut + 1))];
}

// The shortest shared start worth saying once (shorter ones stay in each button).
const SHARED_START_MIN = 12;

/** A move's button: ``text`` on it (the label, or what it says after the choice's shared start), the
 * whole label as its accessible name. */
function moveButton(move, label, text = label) {
  const button = Object.assign(document.createElement("button"), { type: "button", textContent: text });
  if (text !== label) button.setAttribute("aria-label", label);
  button.addEventListener("click", () => { $("choice").hidden = true; picked = []; play(move); });
  const li = document.createElement("li");
  li.append(button);
  return li;
}

// The most moves a board's choice lists at once while another click can narrow them.
const CHOICE_LIMIT = 40;

/** Does a place not clicked yet name some of these moves but not all?  Then clicking it narrows them. */
function aPlaceNarrows(moves) {
  return [...$("board").querySelectorAll("[data-kind][data-id]")].some((place) => {
    if (picked.includes(place)) return false;
    const named = moves.filter((m) => names_(m, place)).length;
    return named > 0 && named < moves.length;
  });
}

async function placeClicked(place) {
  $("choice").hidden = true;
  message.textContent = "";
  const kind = place.getAttribute("data-kind");
  const placeId = place.getAttribute("data-id");
  let matching = legal.moves.filter((m) => picked.every((p) => names_(m, p)) && names_(m, place));
  if (!matching.length && picked.length) {          // a fresh start from this place
    picked = [];
    matching = legal.moves.filter((m) => names_(m, place));
  }
  if (!matching.length) {
    message.textContent = t("No move of yours names {kind} {id} now.", { kind: term(kind), id: placeId });
    return;
  }
  picked.push(place);
  for (const p of $("board").querySelectorAll(".picked")) p.classList.remove("picked");
  if (matching.length === 1) { picked = []; return play(matching[0]); }
  // A long choice shows its first moves and asks for another click, but only where a click can
  // narrow it: a road travelled with many hands of cards is named by no other place, so every way
  // is listed.
  const cut = matching.length > CHOICE_LIMIT && aPlaceNarrows(matching);
  const offered = cut ? matching.slice(0, CHOICE_LIMIT) : matching;
  const labels = (await gameWords({ names, moves: offered, view })).moves;
  const [start, rests] = sharedStart(labels);
  $("choice").querySelector("p").textContent = (cut
    ? t("{n} moves name {places}: click another place to narrow them, or choose:",
      { n: matching.length, places: picked.map((p) => p.getAttribute("data-id")).join(" + ") })
    : t("Which move?")) + (start ? ` ${start} …` : "");
  picked.forEach((p) => p.classList.add("picked"));
  $("choice-list").replaceChildren(...offered.map((m, i) => moveButton(m, labels[i], rests[i])));
  $("choice").hidden = false;
  offeredAt = [kind, placeId];
  $("choice-list").querySelector("button").focus();
}

/** The move's warning: known with the legal moves, else asked of the game's words (a move made in a form). */
async function warningFor(move) {
  if (warningOf.has(move)) return warningOf.get(move);
  try {
    return (await api("/web/words", { method: "POST", body: { moves: [move], view } })).warnings[0] || null;
  } catch {
    return null;                              // the server still refuses a move the rules forbid
  }
}

/** Ask first ("Play it" or "Cancel"): resolves true to go ahead. */
function ask(title, text) {
  const dialog = $("confirm");
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = text;
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true }));
}

/** Ask before a costly move: resolves true to play it. */
function confirmMove(move, warning) {
  return ask(`${labelOf.get(move) || moveLabel(move)}?`, warning);
}

// -- the game's controls: leave or cancel while it waits, resign while it runs, a rematch once over --

const gamePath = `/games/${encodeURIComponent(id)}`;

async function control(action) {
  message.textContent = "";
  try {
    await action();
  } catch (err) {
    message.textContent = err.message;
  }
  refresh();
}

const CONTROLS = {
  leave: [t("Leave this seat"), t("Leave this seat?"), t("The seat opens again for anyone to take, and this link stops playing it."),
    async () => {
      await api(`${gamePath}/seats/${view.you}`, { method: "DELETE", token });
      location.assign(`/table/${encodeURIComponent(id)}`);      // a spectator's table now
    }],
  cancel: [t("Cancel the game"), t("Cancel the game?"), t("Nobody can join or play it afterwards."),
    () => api(`${gamePath}/cancel`, { method: "POST", token: host })],
  resign: [t("Resign"), t("Resign?"), t("The game's bot plays your seat to the end, and this link then only watches."),
    () => api(`${gamePath}/resign`, { method: "POST", token })],
  rematch: [t("Rematch"), null, null, async () => {
    const next = await api(`${gamePath}/rematch`, { method: "POST", token });
    // Take one's seat in the next game with this game's token; whoever asked first may cancel it.
    const seat = await api(`/games/${encodeURIComponent(next.id)}/seats/${view.you}`, { method: "POST", token });
    const hosting = !view.rematch ? `&host=${encodeURIComponent(token)}` : "";
    location.assign(`/table/${encodeURIComponent(next.id)}#token=${encodeURIComponent(seat.token)}${hosting}`);
  }],
};

function controlButton(name, v) {
  const [label, title, text, action] = CONTROLS[name];
  const button = Object.assign(document.createElement("button"), {
    type: "button", textContent: name === "rematch" && v.rematch ? t("Join the rematch") : label });
  button.dataset.control = name;
  button.addEventListener("click", async () => {
    if (title && !(await ask(title, text))) return;
    control(action);
  });
  return button;
}

function showControls(v) {
  const me = v.you !== null && v.you !== undefined ? v.players[v.you] : null;
  const shown = [];
  if (token && me && v.status === "waiting") shown.push("leave");
  if (host && v.status === "waiting") shown.push("cancel");
  if (token && me && v.status === "active" && !me.resigned) shown.push("resign");
  if (token && me && v.status === "finished" && !me.resigned) shown.push("rematch");
  $("controls").replaceChildren(...shown.map((n) => controlButton(n, v)));
}

// -- turn clocks: a countdown beside each seat with a deadline; a warning before the fallback bot acts --

/** Seconds before one's deadline from which the page warns: a third of the clock, at most 15. */
const warnFrom = () => Math.min(15, ((view && view.turn_seconds) || 0) / 3);

function tick() {
  const now = Date.now();
  for (const clock of $("players").querySelectorAll(".clock[data-deadline]")) {
    const left = Math.max(0, Math.ceil((Date.parse(clock.dataset.deadline) - now) / 1000));
    clock.textContent = t("{time} left", { time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` });
    clock.setAttribute("aria-label", t("{n} seconds left", { n: left }));
  }
  const mine = view && view.you !== null && view.status === "active" && (view.deadlines || {})[String(view.you)];
  const left = mine ? (Date.parse(mine) - now) / 1000 : Infinity;
  const warn = $("clock-warning");
  warn.hidden = !(token && left <= warnFrom());
  if (!warn.hidden) {
    warn.textContent = left > 0 ? t("Hurry: in {n} s your turn clock runs out and a bot plays for you.", { n: Math.ceil(left) })
      : t("Your turn clock ran out: a bot plays for you.");
  }
}
setInterval(tick, 1000);

// A move the page makes by itself (the game's widget: a "no" to a bot's offer) that came while
// another was on its way: made after it, else it would be lost (the moves of that version are not
// shown again, so nothing would ask for it again).
let queued = null;

/** Make a move (``auto``: the page's own, not a click: queued while another is on its way, and
 * its refusal, a version that moved on meanwhile, is no news for the player). */
async function play(move, { auto = false } = {}) {
  if (busy) {
    if (auto) queued = move;
    return;
  }
  busy = true;
  message.textContent = "";
  try {
    const warning = await warningFor(move);
    if (warning && !(await confirmMove(move, warning))) return;
    await api(`/games/${encodeURIComponent(id)}/moves`, {
      method: "POST", token, body: move, headers: { "If-Match": `"${legal.version}"`, "Idempotency-Key": newKey() } });
  } catch (err) {
    if (!auto) message.textContent = err.message;        // the problem's detail
  } finally {
    busy = false;
  }
  if (queued) {
    const next = queued;
    queued = null;
    return play(next, { auto: true });
  }
  refresh();
}

/** Every legal move, page after page: a seat hoarding Elastium cards may have thousands, and a
 * place must glow for each of them.  A page of another version (a move landed meanwhile) starts
 * over: 409 stale-version. */
async function allLegalMoves(path) {
  for (;;) {
    const first = await api(`${path}/legal-moves?limit=5000`, { token });
    const moves = [...first.moves];
    let page = first;
    try {
      while (page.next) {
        page = await api(`${path}/legal-moves?limit=5000&cursor=${encodeURIComponent(page.next)}`, { token });
        moves.push(...page.moves);
      }
    } catch (err) {
      if (err.status === 409) continue;
      throw err;
    }
    return { ...first, moves, next: null };
  }
}

let refreshing = null;
let again = false;
/** Fetch the view, the legal moves and the board; calls while one runs fold into one more. */
async function refresh() {
  if (refreshing) { again = true; return refreshing; }
  refreshing = (async () => {
    do {
      again = false;
      try {
        const path = `/games/${encodeURIComponent(id)}`;
        const [v, moves, svg] = await Promise.all([
          api(path, { token }),
          token ? allLegalMoves(path) : Promise.resolve({ version: 0, moves: [] }),
          config.has_picture ? boardSvg(id) : Promise.resolve(null)]);
        // The view and the moves of one version, or the moves' words (an offer's terms...) would
        // describe another: a move that landed between the two reads means reading again.
        if (token && v.version !== moves.version) {
          again = true;
          continue;
        }
        view = v;
        names = seatNames(v.players);
        legal = moves;
        picked = [];
        const words = await gameWords({ names, view: v, moves: moves.moves.length <= 300 ? moves.moves : [] });
        const labels = moves.moves.map((m, i) => words.moves[i] || moveLabel(m));
        labelOf = new Map(moves.moves.map((m, i) => [m, labels[i]]));
        warningOf = new Map(words.moves.length ? moves.moves.map((m, i) => [m, words.warnings[i] || null]) : []);
        show(v, words.panels, words.scores);
        await showMoves(labels);
        // A keyboard user's place on the board survives the redraw (the same place, else the first
        // playable one, else the board itself), so Tab never starts over from the top after a move.
        const focused = $("board").contains(document.activeElement) ? document.activeElement : null;
        const was = focused && focused.getAttribute("data-kind")
          ? [focused.getAttribute("data-kind"), focused.getAttribute("data-id")] : null;
        const drawn = showBoard($("board"), svg);
        zoomed(drawn);
        if (drawn) {
          // Its places are controls: a group of buttons, not one picture.
          drawn.setAttribute("role", "group");
          const playable = new Set();
          for (const place of drawn.querySelectorAll("[data-kind][data-id]")) {
            const live = legal.moves.some((m) => names_(m, place));
            if (!live) continue;
            // The Tab key visits only the places a move can be made at (an Elastium board has hundreds);
            // the picture's own title names the place ("road 13: ..."), else its kind and id.
            const title = place.querySelector(":scope > title");
            place.setAttribute("tabindex", "0");
            place.setAttribute("role", "button");
            place.setAttribute("aria-label", title && title.textContent.trim()
              ? title.textContent.trim() : `${place.getAttribute("data-kind")} ${place.getAttribute("data-id")}`);
            place.classList.add("playable");
            playable.add(place);
          }
          drawn.classList.toggle("has-playable", playable.size > 0);
          if (focused) {
            const same = was && [...playable].find((p) => p.getAttribute("data-kind") === was[0] && p.getAttribute("data-id") === was[1]);
            (same || playable.values().next().value || $("board")).focus();
          }
        } else if (focused) {
          $("board").focus();
        }
        // Which version the moves and the board now shown are of (a test waits for it before it clicks).
        $("moves").dataset.version = String(legal.version);
      } catch (err) {
        message.textContent = err.message;
      }
    } while (again);
    refreshing = null;
  })();
  return refreshing;
}

// -- zoom and pan: a phone's finger is wider than Elastium's pegs or Elfenland's labels, so the board
// zooms (the buttons, or two fingers) and a zoomed board pans (one finger, or the mouse) by a CSS
// transform on the picture; the zoom outlives the redraws after each move. --

const zoom = { scale: 1, x: 0, y: 0 };
const MAX_ZOOM = 6;
let picture = null;

function applyZoom() {
  const box = $("board");
  box.classList.toggle("zoomed", zoom.scale > 1);
  $("zoom-out").disabled = $("zoom-fit").disabled = zoom.scale <= 1;
  $("zoom-in").disabled = zoom.scale >= MAX_ZOOM;
  if (!picture) return;
  // The picture always covers its frame: no panning past its edges.
  const w = box.clientWidth, h = box.clientHeight;
  zoom.x = Math.min(0, Math.max(w - w * zoom.scale, zoom.x));
  zoom.y = Math.min(0, Math.max(h - h * zoom.scale, zoom.y));
  picture.style.transformOrigin = "0 0";
  picture.style.transform = zoom.scale > 1 ? `translate(${zoom.x}px, ${zoom.y}px) scale(${zoom.scale})` : "";
}

/** Zoom by ``factor`` about the point (cx, cy) of the frame, which stays under the finger. */
function zoomAt(factor, cx, cy) {
  const scale = Math.min(MAX_ZOOM, Math.max(1, zoom.scale * factor));
  const k = scale / zoom.scale;
  zoom.x = cx - (cx - zoom.x) * k;
  zoom.y = cy - (cy - zoom.y) * k;
  zoom.scale = scale;
  applyZoom();
}

function zoomed(svg) {
  picture = svg;
  $("zoom").hidden = !svg;
  applyZoom();
}

const frameCentre = () => [$("board").clientWidth / 2, $("board").clientHeight / 2];
$("zoom-in").addEventListener("click", () => zoomAt(1.6, ...frameCentre()));
$("zoom-out").addEventListener("click", () => zoomAt(1 / 1.6, ...frameCentre()));
$("zoom-fit").addEventListener("click", () => { zoom.scale = 1; zoom.x = zoom.y = 0; applyZoom(); });

const pointers = new Map();     // pointerId -> its last position in the frame
let dragged = false;            // moved far enough since the first finger went down: not a tap
const inFrame = (ev) => {
  const r = $("board").getBoundingClientRect();
  return { x: ev.clientX - r.left, y: ev.clientY - r.top };
};
$("board").addEventListener("pointerdown", (ev) => {
  if (!pointers.size) dragged = false;
  pointers.set(ev.pointerId, { ...inFrame(ev), startX: ev.clientX, startY: ev.clientY });
});
$("board").addEventListener("pointermove", (ev) => {
  const was = pointers.get(ev.pointerId);
  if (!was) return;
  const now = inFrame(ev);
  if (Math.hypot(ev.clientX - was.startX, ev.clientY - was.startY) > 8) dragged = true;
  if (pointers.size === 2) {
    const [other] = [...pointers.entries()].filter(([id]) => id !== ev.pointerId).map(([, p]) => p);
    const before = Math.hypot(was.x - other.x, was.y - other.y);
    const after = Math.hypot(now.x - other.x, now.y - other.y);
    if (before > 0) zoomAt(after / before, (now.x + other.x) / 2, (now.y + other.y) / 2);
  } else if (pointers.size === 1 && zoom.scale > 1 && dragged) {
    zoom.x += now.x - was.x;
    zoom.y += now.y - was.y;
    applyZoom();
  }
  pointers.set(ev.pointerId, { ...was, ...now });
});
for (const end of ["pointerup", "pointercancel", "pointerleave"]) {
  $("board").addEventListener(end, (ev) => pointers.delete(ev.pointerId));
}
// A drag or a pinch is not a click on the place it ended on.
$("board").addEventListener("click", (ev) => {
  if (dragged) { ev.stopImmediatePropagation(); ev.preventDefault(); dragged = false; }
}, true);
window.addEventListener("resize", applyZoom);

$("board").addEventListener("click", (ev) => {
  const place = ev.target.closest && ev.target.closest("[data-kind][data-id]");
  if (place) placeClicked(place);
});
$("board").addEventListener("keydown", (ev) => {
  const place = ev.target.closest && ev.target.closest("[data-kind][data-id]");
  if (place && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); placeClicked(place); }
  if (ev.key === "Escape") { picked = []; $("choice").hidden = true; }
});
// Escape in the list of moves a place offers closes it and goes back to the place (the same
// place of a board drawn again meanwhile).
$("choice").addEventListener("keydown", (ev) => {
  if (ev.key !== "Escape") return;
  picked = [];
  $("choice").hidden = true;
  for (const p of $("board").querySelectorAll(".picked")) p.classList.remove("picked");
  const back = offeredAt && [...$("board").querySelectorAll(".playable")].find(
    (p) => p.getAttribute("data-kind") === offeredAt[0] && p.getAttribute("data-id") === offeredAt[1]);
  (back || $("board")).focus();
});

// The log in words: events come one by one from the feed; their words in batches, in order.
let pending = [];
let writing = Promise.resolve();
function logEvents() {
  const batch = pending;
  pending = [];
  writing = writing.then(async () => {
    const lines = (await gameWords({ names, events: batch })).events;
    const items = batch.map((e, i) => Object.assign(document.createElement("li"), { textContent: `${e.seq}. ${lines[i]}` }));
    $("log").append(...items);
    $("log").scrollTop = $("log").scrollHeight;
  });
}

refresh().then(() => follow(id, token, (e) => {
  if (!pending.length) setTimeout(logEvents, 30);
  pending.push(e);
  refresh();
}));
