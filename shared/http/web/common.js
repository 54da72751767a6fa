// What the three pages share: the service's config, calls to the API, the log in words, the board.
export const config = JSON.parse(document.getElementById("config").textContent);

// The page's language ("en" or "fr", chosen by the server from ?lang=, the lang cookie or
// Accept-Language) and its words: English text -> translation (shared/text/locale/<lang>/web.json).
export const lang = config.lang || "en";
const catalog = config.words || {};

/** A word of the page in its language: t('{n} seats', { n: 3 }).  Keys are the English text,
 * written as plain string literals so tests/shared/test_i18n.py finds every one. */
export function t(key, params = {}) {
  const text = catalog[key] || key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** A word of the game's (a move's type, a field's name, a resource) in the page's language, from
 * the game's own catalog (config.terms); else the word as written, "_" read as a space. */
export function term(word) {
  const terms = config.terms || {};
  return terms[word] || String(word).replaceAll("_", " ");
}

/** The other language's name in itself: the switch's label. */
const AUTONYMS = { en: "English", fr: "Français" };

/** The switch between the two languages, in the page's header: kept in a cookie (the server reads
 * it for the next page) and localStorage, then the page reloads (keeping its #token fragment). */
function languageSwitch() {
  const nav = document.querySelector("header nav");
  if (!nav) return;
  const other = lang === "fr" ? "en" : "fr";
  const button = Object.assign(document.createElement("button"), {
    type: "button", id: "lang-switch", className: "lang-switch", textContent: AUTONYMS[other], lang: other });
  button.addEventListener("click", () => {
    document.cookie = `lang=${other}; path=/; max-age=31536000; SameSite=Lax`;
    try { localStorage.setItem("lang", other); } catch { /* private mode: the cookie still holds it */ }
    const url = new URL(location.href);
    if (url.searchParams.has("lang")) {       // a ?lang= link would choose again: drop it
      url.searchParams.delete("lang");
      location.replace(url.href);
    } else {
      location.reload();
    }
  });
  nav.append(" ", button);
}

// A choice kept in localStorage outlives a cleared cookie: give it back to the server.
try {
  const kept = localStorage.getItem("lang");
  if (!document.cookie.includes("lang=") && kept && kept !== lang && (kept === "en" || kept === "fr")
      && !new URLSearchParams(location.search).has("lang")) {
    document.cookie = `lang=${kept}; path=/; max-age=31536000; SameSite=Lax`;
    if (document.cookie.includes("lang=")) location.reload();     // never a loop without cookies
  }
} catch { /* no storage: the server's choice stands */ }
languageSwitch();

// The bots in words: each one's name (a strategy of the game's, shared/game/plugin.py) as a person
// says it, and its level; a bot this page does not know keeps its name.
const BOT_NAMES = { random: t("random"), greedy: t("greedy"), heuristic: t("heuristic"), planner: t("planner"),
                    expert: t("expert") };
const BOT_LEVELS = { easy: t("easy"), medium: t("medium"), hard: t("hard") };

/** A bot's name in the page's language ("greedy" -> "glouton"). */
export function botName(name) {
  return Object.hasOwn(BOT_NAMES, name) ? BOT_NAMES[name] : String(name);
}

/** A level in words ("medium" -> "moyen"). */
export function botLevel(level) {
  return Object.hasOwn(BOT_LEVELS, level) ? BOT_LEVELS[level] : String(level);
}

/** A bot as a seat shows it: its name and, when the game lists it, its level ("glouton (moyen)"). */
export function botWords(name) {
  const bot = (config.bots || []).find((b) => b.name === name);
  return bot ? t("{name} ({level})", { name: botName(name), level: botLevel(bot.level) }) : botName(name);
}

/** The game id from /table/<id> or /replay/<id>. */
export function gameId() {
  return decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
}

/** The seat's token, kept in the URL fragment (#token=...): a fragment is never sent to a server. */
export function tokenFromFragment() {
  return new URLSearchParams(location.hash.slice(1)).get("token");
}

// A refusal in the page's language, by the problem's reason (shared/play/problems.py): the API's
// detail stays in English for integrators.  A game's own rules (an illegal move's reason) come
// from the game's catalog (config.refusals, REFUSALS in services/<game>/render.py).
const PROBLEM_WORDS = {
  "stale-version": t("The game moved on meanwhile: look at the board again and play."),
  "not-your-turn": t("It is not your turn."),
  "game-over": t("The game is over."),
  "game-waiting": t("The game waits for players."),
  "game-cancelled": t("This game was cancelled."),
  "game-abandoned": t("This game was abandoned: nobody moved for too long."),
  "game-not-waiting": t("The game has started."),
  "game-not-finished": t("The game is not over."),
  "seat-taken": t("That seat is taken."),
  "seat-open": t("That seat is not taken."),
  "seat-not-found": t("There is no such seat."),
  "seat-reserved": t("That seat is kept for its previous player."),
  "seat-resigned": t("That seat resigned."),
  "not-host": t("Only the game's host can do that."),
  "not-your-seat": t("Your link does not act for that seat."),
  "unauthenticated": t("Open your seat's link to play."),
  "game-not-found": t("There is no such game."),
  "rate-limited": t("Too many requests: wait a moment and try again."),
  "too-many-games": t("Too many unfinished games from this address."),
  "capacity": t("Too many games are running: try again later."),
  "not-ready": t("The server is not ready: try again in a moment."),
  "seed-not-allowed": t("This server does not take a chosen seed."),
  "invalid-options": t("These options are not valid for this game."),
};

/** A problem in the page's language: its reason's words (the platform's, else the game's rule's),
 * else the detail as the API wrote it, said to be a refusal in the page's language when that is not
 * English (a reason newer than the page). */
export function problemWords(problem, status) {
  const kind = String(problem.type || "").split("/").pop();
  // A rule's refusal in English is the API's own detail (it names the very piece or card); in
  // another language, the game's sentence for its reason.
  const rule = lang !== "en" && kind === "illegal-move" && Object.hasOwn(config.refusals || {}, problem.reason)
    ? t("Not allowed: {detail}", { detail: config.refusals[problem.reason] }) : null;
  const known = PROBLEM_WORDS[problem.reason] || rule || PROBLEM_WORDS[kind];
  if (known) return known;
  const said = problem.detail || problem.title || `HTTP ${status}`;
  return lang === "en" ? said : t("Not allowed: {detail}", { detail: said });
}

export class ProblemError extends Error {
  constructor(status, problem) {
    super(problemWords(problem, status));
    this.status = status;
    this.problem = problem;
  }
}

/**
 * JSON.parse keeping every number as the server wrote it: an integer past 2^53 (a game's 63-bit
 * seed) becomes a BigInt, so canonical() below gives back the very text the server hashed.
 */
export function parseExact(text) {
  return JSON.parse(text, (key, value, context) => {
    if (typeof value !== "number" || !context || context.source === undefined) return value;
    if (/[.eE]/.test(context.source)) return new PyFloat(value);    // "3.0" must stay a float
    return Number.isSafeInteger(value) ? value : BigInt(context.source);
  });
}

/** A number the server wrote as a float. */
export class PyFloat {
  constructor(value) { this.value = value; }
  toJSON() { return this.value; }
  toString() { return String(this.value); }
}

/** A float as Python's repr() writes it (json.dumps does): "1.0", "1e-05", "1.5e+16". */
function pythonFloat(x) {
  const [mantissa, exp] = x.toExponential().split("e");
  const e = Number(exp);
  if (e < -4 || e >= 16) return `${mantissa}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  const fixed = Math.abs(x).toFixed(Math.max(0, (mantissa.replace(/^-?\d\.?/, "").length) - e));
  return (x < 0 ? "-" : "") + (fixed.includes(".") ? fixed : `${fixed}.0`);
}

/** The canonical JSON the server hashes (shared/log/eventstore.py): sorted keys, no spaces, non-ASCII kept. */
export function canonical(value) {
  if (typeof value === "bigint") return value.toString();
  if (value instanceof PyFloat) return pythonFloat(value.value);
  if (typeof value === "number") return Number.isSafeInteger(value) ? String(value) : pythonFloat(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** A JSON call to the API; a refusal throws a ProblemError carrying the problem's detail. */
export async function api(path, { token, method = "GET", body, headers = {}, exact = false } = {}) {
  const h = { Accept: "application/json", ...headers };
  if (token) h.Authorization = `Bearer ${token}`;
  if (body !== undefined) h["Content-Type"] = "application/json";
  const resp = await fetch(path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await resp.text();
  let data = null;
  try { data = text ? (exact ? parseExact(text) : JSON.parse(text)) : null; } catch { data = { detail: text }; }
  if (!resp.ok) throw new ProblemError(resp.status, data || {});
  return data;
}

/** A key for Idempotency-Key: letters, digits and dashes. */
export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return "web-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A value of the game's data in words, for when the game's own words are missing: numbers and
 * names as they are (names through the game's terms), a flat list or count of them as a list,
 * "2 brick, 1 wool"; anything deeper is left out (null), never shown as JSON. */
export function dataWords(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === "boolean") return v ? t("yes") : t("no");
  if (typeof v === "string") return term(v);
  if (typeof v !== "object" || v instanceof PyFloat || typeof v === "bigint") return String(v);
  const flat = (x) => x === null || typeof x !== "object" || x instanceof PyFloat;
  if (Array.isArray(v)) return v.every(flat) ? v.map((x) => dataWords(x) ?? "–").join(", ") || null : null;
  const entries = Object.entries(v);
  if (!entries.every(([, x]) => flat(x))) return null;
  const said = entries.filter(([, x]) => x !== 0 && x !== null)
    .map(([k, x]) => (typeof x === "number" ? `${x} ${term(k)}` : `${term(k)} ${dataWords(x)}`));
  return said.join(", ") || null;
}

/** A record's fields in words ("dice 2, 6; seat 1"), the ones dataWords can say. */
function fieldWords(fields, skip = []) {
  return Object.entries(fields || {}).filter(([k]) => !skip.includes(k))
    .map(([k, v]) => [k, dataWords(v)]).filter(([, said]) => said !== null)
    .map(([k, said]) => `${term(k)} ${said}`).join("; ");
}

/** One event in words when the game's own are missing: who (when a seat made it), its type and
 * its data through the game's terms, as the server's generic words do. */
export function eventLine(e) {
  const fields = fieldWords(e.data);
  const what = term(String(e.type).replace(/^platform\./, "")) + (fields ? ", " + fields : "");
  const line = e.cause && e.cause.kind === "move"
    ? t("{who}: {what}", { who: t("seat {n}", { n: e.cause.seat }), what }) : what;
  return `${e.seq}. ${line}`;
}

/** A move in words when the game's own are missing: its type and fields through the game's terms. */
export function moveLabel(move) {
  const rest = fieldWords(move, ["type"]);
  return rest ? t("{who}: {what}", { who: term(move.type), what: rest }) : term(move.type);
}

/** The board picture as SVG text to inline, in the page's language, or null when the service has none to give. */
export async function boardSvg(id, version) {
  const query = `?lang=${lang}` + (version ? `&version=${version}` : "");
  try {
    const resp = await fetch(`/games/${encodeURIComponent(id)}/board.svg${query}`);
    const type = resp.headers.get("Content-Type") || "";
    return resp.status === 200 && type.startsWith("image/svg+xml") ? await resp.text() : null;
  } catch {
    return null;
  }
}

/** Put the picture into ``box`` (parsed as SVG, so nothing in it runs), or a "no picture" note. */
export function showBoard(box, svgText) {
  box.replaceChildren();
  if (svgText) {
    const doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
    const svg = doc.documentElement;
    if (svg && svg.nodeName === "svg") {
      svg.querySelectorAll("script").forEach((s) => s.remove());
      box.append(document.importNode(svg, true));
      box.classList.remove("no-picture");
      return box.querySelector("svg");
    }
  }
  box.classList.add("no-picture");
  box.textContent = t("No picture of this board.");
  return null;
}

/**
 * Follow the log as Server-Sent Events read with fetch() (EventSource cannot send Authorization),
 * resuming after the last event seen when the connection drops.  onEvent gets each event once.
 */
export function follow(id, token, onEvent, { onEnd } = {}) {
  let last = 0;
  let stopped = false;
  const controller = new AbortController();
  async function once() {
    const headers = { Accept: "text/event-stream" };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (last) headers["Last-Event-ID"] = String(last);
    const resp = await fetch(`/games/${encodeURIComponent(id)}/events`, { headers, signal: controller.signal });
    if (resp.status === 204) return true;             // finished, and we have every event
    if (!resp.ok) throw new ProblemError(resp.status, await resp.json().catch(() => ({})));
    const reader = resp.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return false;
      buffer += value.replaceAll("\r\n", "\n");
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const message = { data: [] };
        for (const line of block.split("\n")) {
          if (!line || line.startsWith(":")) continue;
          const i = line.indexOf(":");
          const name = i < 0 ? line : line.slice(0, i);
          const val = i < 0 ? "" : line.slice(i + 1).replace(/^ /, "");
          if (name === "data") message.data.push(val); else message[name] = val;
        }
        if (message.event === "end") { if (onEnd) onEnd(); return true; }
        if (!message.data.length) continue;
        const e = JSON.parse(message.data.join("\n"));
        if (e.seq > last) { last = e.seq; onEvent(e); }
      }
    }
  }
  (async () => {
    while (!stopped) {
      try {
        if (await once()) return;
      } catch (err) {
        if (stopped) return;
        if (err instanceof ProblemError && err.status < 500 && err.status !== 429) return;
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();
  return () => { stopped = true; controller.abort(); };
}

/** One name per seat, as the game's words take them. */
export function seatNames(players) {
  return (players || []).map((p) => p.name || t("seat {n}", { n: p.seat }));
}

/**
 * The game's own words (services/<game>/render.py, through POST /web/words) for events, moves
 * and a view: {events: [line], moves: [label], warnings: [text or null], summary, scores, panels}.  Long lists go in pieces; if the
 * server cannot answer, the generic lines below stand in, so the page never goes blank.
 */
export async function gameWords({ names = [], events = [], moves = [], view } = {}) {
  const out = { events: [], moves: [], warnings: [], summary: null, scores: null, panels: null };
  const piece = 200;
  try {
    for (let i = 0; i < Math.max(events.length, moves.length, 1); i += piece) {
      const body = { lang, names, events: events.slice(i, i + piece), moves: moves.slice(i, i + piece) };
      if (i === 0 && view) body.view = view;
      const got = await api("/web/words", { method: "POST", body });
      out.events.push(...got.events);
      out.moves.push(...got.moves);
      out.warnings.push(...(got.warnings || got.moves.map(() => null)));
      if (got.summary !== undefined) { out.summary = got.summary; out.scores = got.scores; out.panels = got.panels || null; }
    }
  } catch {
    return { events: events.map((e) => eventLine(e).replace(/^\d+\. /, "")), moves: moves.map(moveLabel),
             warnings: moves.map(() => null), summary: null, scores: null, panels: null };
  }
  return out;
}
