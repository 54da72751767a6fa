// The lobby: a quick match; a new game's form (seats, the game's rules as fields built from its
// options schema, the turn clock, listed or not); the server's games as a table (a status filter,
// pages, a join button on each open seat); and the games this browser created or joined.
import { api, botLevel, botName, botWords, config, lang, t } from "./common.js";

const seats = document.getElementById("seats");
const message = document.getElementById("message");
const progress = document.getElementById("progress");
const storeKey = `boardgames:${config.game}:games`;
const OPEN = "(open)";     // the seat kind "open": no strategy has this name
const CLOCKS = [30, 60, 120, 300, 600, 1800, 3600, 4 * 3600, 12 * 3600, 86400, 3 * 86400, 7 * 86400];
const STATUS_WORDS = { waiting: t("Waiting for players"), active: t("Being played"), finished: t("Finished"),
                       cancelled: t("Cancelled"), abandoned: t("Abandoned") };

function el(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function say(text) {
  message.textContent = text;
}

/** A number of seconds in words: "90" -> "1 minute 30 seconds". */
export function duration(seconds) {
  const parts = [];
  const units = [[86400, t("{n} day"), t("{n} days")], [3600, t("{n} hour"), t("{n} hours")],
                 [60, t("{n} minute"), t("{n} minutes")], [1, t("{n} second"), t("{n} seconds")]];
  for (const [size, one, many] of units) {
    const n = Math.floor(seconds / size);
    seconds -= n * size;
    if (n) parts.push((n === 1 ? one : many).replace("{n}", String(n)));
  }
  return parts.join(" ") || t("{n} seconds").replace("{n}", "0");
}

function when(ms) {
  return new Date(ms).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
}

// -- seats --------------------------------------------------------------------------------------
function seatRow(index) {
  const li = el("li", { className: "seat-row" });
  const name = el("input", { id: `seat-${index}-name`, name: `seat-${index}-name`, value: t("player {n}", { n: index + 1 }),
                             required: true, maxLength: 40 });
  const nameLabel = el("label", { htmlFor: name.id, textContent: t("Seat {n} name", { n: index }) });
  const kind = el("select", { id: `seat-${index}-kind`, name: `seat-${index}-kind` });
  kind.append(new Option(t("human"), ""));
  for (const bot of config.bots) kind.append(new Option(t("bot: {name} ({level})", { name: botName(bot.name), level: botLevel(bot.level) }), bot.name));
  kind.append(new Option(t("open: anyone may join"), OPEN));
  // Other seats start as the rule-of-thumb bot: a fair opponent that answers at once.
  const medium = config.bots.find((bot) => bot.level === "medium") || config.bots[0];
  if (index > 0 && medium) kind.value = medium.name;
  const kindLabel = el("label", { htmlFor: kind.id, textContent: t("played by") });
  // An open seat is named by whoever takes it.
  const showName = () => { name.disabled = kind.value === OPEN; };
  kind.addEventListener("change", showName);
  li.append(nameLabel, name, kindLabel, kind);
  return li;
}

function setSeatCount(n) {
  while (seats.children.length < n) seats.append(seatRow(seats.children.length));
  while (seats.children.length > n) seats.lastElementChild.remove();
  document.getElementById("add-seat").disabled = n >= config.max_players;
  document.getElementById("remove-seat").disabled = n <= config.min_players;
}

// -- the game's options, one field each ---------------------------------------------------------
const optionFields = new Map();     // option name -> {field, control, wrapper}

function optionField(field) {
  const id = `option-${field.name}`;
  const wrapper = el("div", { className: "lobby-field" });
  const hint = field.hint ? el("p", { id: `${id}-hint`, className: "hint", textContent: field.hint }) : null;
  let control;
  if (field.kind === "choice") {
    // "Elfengold: 6 rounds with gold..." -> the choice's name in the list, what it means under it.
    control = el("select", { id });
    for (const choice of field.choices) control.append(new Option(choiceName(choice), String(choice.value)));
    control.value = String(field.default);
    const meaning = el("p", { id: `${id}-meaning`, className: "hint" });
    const explain = () => {
      const label = field.choices.find((c) => String(c.value) === control.value)?.label || "";
      const rest = label.includes(": ") ? label.slice(label.indexOf(": ") + 2) : "";
      meaning.textContent = rest.charAt(0).toUpperCase() + rest.slice(1);
    };
    control.addEventListener("change", explain);
    explain();
    control.setAttribute("aria-describedby", meaning.id);
    wrapper.append(el("label", { htmlFor: id, textContent: field.label }), control, meaning);
  } else if (field.kind === "bool") {
    control = el("input", { id, type: "checkbox", checked: field.default });
    wrapper.classList.add("lobby-check");
    wrapper.append(control, el("label", { htmlFor: id, textContent: field.label }));
  } else {
    const bounds = field.min !== null && field.max !== null ? " " + t("({min} to {max})", { min: field.min, max: field.max })
      : field.min !== null ? " " + t("(at least {min})", { min: field.min })
        : field.max !== null ? " " + t("(at most {max})", { max: field.max }) : "";
    control = el("input", { id, type: "number", required: true, step: field.integer ? "1" : "any",
                            value: field.default ?? "" });
    if (field.min !== null) control.min = field.min;
    if (field.max !== null) control.max = field.max;
    wrapper.append(el("label", { htmlFor: id, textContent: field.label + bounds }), control);
  }
  if (hint) {
    control.setAttribute("aria-describedby", `${control.getAttribute("aria-describedby") || ""} ${hint.id}`.trim());
    wrapper.append(hint);
  }
  control.addEventListener("change", applyDependencies);
  optionFields.set(field.name, { field, control, wrapper });
  return wrapper;
}

function choiceName(choice) {
  return choice.label.split(": ")[0];
}

function optionValue({ field, control }) {
  if (field.kind === "bool") return control.checked;
  if (field.kind === "number") return Number(control.value);
  return field.choices.find((choice) => String(choice.value) === control.value).value;
}

/** Show a field only where it means something (Elfenland's wizards with Elfengold): a hidden one is not sent. */
function applyDependencies() {
  for (const entry of optionFields.values()) {
    const when = entry.field.applies_when || {};
    const applies = Object.entries(when).every(([other, values]) => {
      const prerequisite = optionFields.get(other);
      return !prerequisite || (!prerequisite.control.disabled && values.includes(optionValue(prerequisite)));
    });
    entry.wrapper.hidden = !applies;
    entry.control.disabled = !applies;
  }
}

function chosenOptions() {
  const options = {};
  for (const entry of optionFields.values()) {
    if (!entry.control.disabled) options[entry.field.name] = optionValue(entry);
  }
  return options;
}

/** A listed game's rules in words: the options that differ from the usual ones. */
function rulesInWords(options) {
  const words = [];
  for (const field of config.options) {
    const value = options?.[field.name];
    if (value === undefined || value === field.default) continue;
    if (field.kind === "bool") words.push(`${field.label}: ${value ? t("yes") : t("no")}`);
    else if (field.kind === "number") words.push(`${field.label}: ${value}`);
    else {
      const choice = field.choices.find((c) => c.value === value);
      words.push(`${field.label}: ${choice ? choiceName(choice) : value}`);
    }
  }
  return words;
}

// -- time: the turn clock, its bot, the hard bots' thinking time ---------------------------------
function fillTimeFields() {
  const clock = document.getElementById("turn-clock");
  clock.append(new Option(t("No limit"), ""));
  for (const seconds of CLOCKS.filter((s) => s <= config.clock.max_seconds)) {
    clock.append(new Option(duration(seconds), String(seconds)));
  }
  const fallback = document.getElementById("fallback-bot");
  for (const bot of config.bots) {
    const usual = bot.name === config.clock.fallback_bot ? t(", the usual one") : "";
    fallback.append(new Option(`${botName(bot.name)} (${botLevel(bot.level)}${usual})`, bot.name));
  }
  fallback.value = config.clock.fallback_bot;
  clock.addEventListener("change", () => {
    document.getElementById("fallback-field").hidden = !clock.value;
  });
  const budget = document.getElementById("bot-budget");
  const { min, max, default: usual } = config.budget_ms;
  Object.assign(budget, { min, max, placeholder: String(usual) });
  document.getElementById("bot-budget-label").textContent =
    t("Hard bots think for this many milliseconds a move ({min} to {max}; {usual} if left empty)", { min, max, usual });
}

// -- the games of this browser ------------------------------------------------------------------
function myGames() {
  try { return JSON.parse(localStorage.getItem(storeKey)) || []; } catch { return []; }
}

/** Keep a game this browser created or joined: {id, created, players: [{seat, name, bot, token}], host_token}
 * (the host token, with open seats, cancels the game while it waits). */
function remember(game) {
  localStorage.setItem(storeKey, JSON.stringify([game, ...myGames().filter((g) => g.id !== game.id)].slice(0, 50)));
}

function link(href, text) {
  return el("a", { href, textContent: text });
}

function linksFor(game) {
  const items = [];
  // The creator's table (the first seat with a token) also holds the host token that may cancel
  // the game while it waits for its open seats.
  let host = game.host_token ? `&host=${encodeURIComponent(game.host_token)}` : "";
  for (const p of game.players) {
    if (!p.token) continue;
    items.push([`/table/${game.id}#token=${encodeURIComponent(p.token)}${host}`, t("Seat {n} ({name}): your table", { n: p.seat, name: p.name })]);
    host = "";
  }
  items.push([`/table/${game.id}`, t("Watch")], [`/replay/${game.id}`, t("Replay")]);
  return items;
}

function showMyGames() {
  const list = document.getElementById("my-games");
  list.replaceChildren();
  for (const game of myGames()) {
    const li = el("li", {}, t("Game {id}, {when}: ", { id: game.id, when: when(game.created) }));
    for (const [href, text] of linksFor(game)) li.append(link(href, text), " ");
    list.append(li);
  }
  if (!list.children.length) list.append(el("li", { textContent: t("None yet.") }));
}

function openTable(gameId, seat, name, token) {
  remember({ id: gameId, created: Date.now(), players: [{ seat, name, bot: null, token }] });
  location.assign(`/table/${gameId}#token=${encodeURIComponent(token)}`);
}

function joinName() {
  const input = document.getElementById("join-name");
  const name = input.value.trim();
  if (!name) {
    say(t("Write the name to show at the table first."));
    input.focus();
  }
  return name;
}

// -- the server's games, a page at a time -------------------------------------------------------
const gameList = document.getElementById("game-list");
const gameTable = document.querySelector(".lobby-table");
const list = { cursors: [null], page: 0, next: null, asked: 0 };

function seatItem(game, p) {
  const li = el("li", { className: "lobby-seat" });
  if (p.open && p.reserved) {
    li.append(t("Seat {n}: kept for {name}", { n: p.seat, name: p.name }));
  } else if (p.open) {
    li.append(t("Seat {n}: open", { n: p.seat }) + " ");
    if (game.status === "waiting") {
      const button = el("button", { type: "button", textContent: t("Join seat {n}", { n: p.seat }) });
      button.addEventListener("click", () => join(game, p.seat));
      li.append(button);
    }
  } else {
    li.append(t("Seat {n}: {name}", { n: p.seat, name: p.name }));
    if (p.resigned) li.append(el("span", { className: "lobby-tag", textContent: t("resigned, {bot} plays", { bot: botWords(p.bot) }) }));
    else if (p.bot) li.append(el("span", { className: "lobby-tag", textContent: t("bot: {bot}", { bot: botWords(p.bot) }) }));
  }
  return li;
}

function cell(label, ...children) {
  // One box inside: on a phone the cell is a grid of its label and this.
  const td = el("td", {}, el("div", {}, ...children));
  td.dataset.label = label;
  return td;
}

function listedRow(game) {
  const tr = el("tr", { className: "listed-game" });
  tr.dataset.id = game.id;
  tr.dataset.status = game.status;
  const created = cell(t("Created"), when(game.created_at));
  if (game.seeded_by_client) {
    // Its creator chose the seed, so they can foresee every roll and hidden card: say so before anyone joins.
    created.append(" ", el("strong", { className: "seeded", textContent: t("seeded by its creator (predictable)"),
                                       title: t("Whoever chose the seed can predict every roll and hidden card.") }));
  }
  let status = STATUS_WORDS[game.status] || game.status;
  if (game.status === "active" && game.to_act.length) {
    status += t(": {names} to play", {
      names: game.to_act.map((s) => game.players.find((p) => p.seat === s)?.name ?? t("seat {n}", { n: s })).join(", ") });
  }
  const rules = rulesInWords(game.options);
  const links = [link(`/table/${game.id}`, t("Watch")), " ", link(`/replay/${game.id}`, t("Replay"))];
  const hosted = game.status === "waiting" && myGames().find((g) => g.id === game.id && g.host_token);
  if (hosted) {
    const button = el("button", { type: "button", className: "lobby-cancel", textContent: t("Cancel this game") });
    button.addEventListener("click", () => cancel(hosted));
    links.push(" ", button);
  }
  const rulesCell = rules.length ? el("ul", { className: "lobby-rules" }, ...rules.map((w) => el("li", { textContent: w })))
    : t("Usual rules");
  tr.append(
    created,
    cell(t("Status"), status),
    cell(t("Rules"), rulesCell),
    cell(t("Time for each turn"), game.turn_seconds ? duration(game.turn_seconds) : t("No limit")),
    cell(t("Seats"), el("ul", { className: "lobby-seats" }, ...game.players.map((p) => seatItem(game, p)))),
    cell(t("Last move"), game.moved_at ? when(game.moved_at) : t("None yet")),
    cell(t("Links"), ...links));
  return tr;
}

function listQuery(cursor) {
  const params = new URLSearchParams({ limit: document.getElementById("list-size").value });
  const status = document.getElementById("list-status").value;
  if (status) params.set("status", status);
  if (cursor) params.set("cursor", cursor);
  return `/games?${params}`;
}

async function showPage(page) {
  // Only the last question's answer is shown: a filter changed twice in a row may be answered out of order.
  const asked = ++list.asked;
  list.page = page;           // what a refresh asks for again, even before this answer comes
  gameTable.setAttribute("aria-busy", "true");
  try {
    const found = await api(listQuery(list.cursors[page]));
    if (asked !== list.asked) return;
    list.next = found.next;
    list.cursors[page + 1] = found.next;
    list.cursors.length = page + 2;
    gameList.replaceChildren(...found.games.map(listedRow));
    if (!found.games.length) {
      gameList.append(el("tr", {}, el("td", { colSpan: 7, textContent: t("No games here.") })));
    }
    document.getElementById("list-page").textContent = t("Page {n}", { n: page + 1 });
    document.getElementById("list-newer").disabled = page === 0;
    document.getElementById("list-older").disabled = !found.next;
  } catch (err) {
    if (asked === list.asked) say(err.message);
  } finally {
    if (asked === list.asked) gameTable.setAttribute("aria-busy", "false");
  }
}

function firstPage() {
  list.cursors = [null];
  return showPage(0);
}

async function join(game, seat) {
  say("");
  const name = joinName();
  if (!name) return;
  try {
    const taken = await api(`/games/${game.id}/seats/${seat}`, { method: "POST", body: { name } });
    openTable(game.id, seat, taken.name, taken.token);
  } catch (err) {
    say(err.message);
    showPage(list.page);
  }
}

async function cancel(game) {
  say("");
  if (!window.confirm(t("Cancel this game? Whoever took a seat loses it, and the game leaves the list."))) return;
  try {
    await api(`/games/${game.id}/cancel`, { method: "POST", token: game.host_token });
  } catch (err) {
    say(err.message);
  }
  showPage(list.page);
}

// -- quick match --------------------------------------------------------------------------------
// Reasons a seat seen free a moment ago is not free now: try the next one.
const GONE = new Set(["seat-taken", "seat-reserved", "game-not-waiting", "not-found", "stale-version"]);
const MAX_PAGES = 20;
// The table keeps itself fresh while it is looked at, but not under the pointer or the keyboard's focus
// (a row must not move away from a click).
const REFRESH_MS = 20_000;

/** The open seats of the listed waiting games, the longest-waiting game first (its lowest seat first);
 * not a seeded game (its creator can foresee it), nor one this browser already sits in. */
async function openSeats() {
  const mine = new Set(myGames().map((g) => g.id));
  const games = [];
  let cursor = null;
  for (let pages = 0; pages < MAX_PAGES; pages += 1) {
    const params = new URLSearchParams({ status: "waiting", limit: "100" });
    if (cursor) params.set("cursor", cursor);
    const found = await api(`/games?${params}`);
    games.push(...found.games);
    cursor = found.next;
    if (!cursor) break;
  }
  return games
    .filter((g) => g.status === "waiting" && !g.seeded_by_client && !mine.has(g.id))
    .sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1))
    .flatMap((g) => g.players.filter((p) => p.open && !p.reserved).slice(0, 1).map((p) => ({ game: g, seat: p.seat })));
}

async function quickMatch() {
  say("");
  const name = joinName();
  if (!name) return;
  const button = document.getElementById("quick-match");
  button.disabled = true;
  progress.textContent = t("Looking for an open seat…");
  try {
    for (const { game, seat } of await openSeats()) {
      try {
        const taken = await api(`/games/${game.id}/seats/${seat}`, { method: "POST", body: { name } });
        progress.textContent = t("Found one: opening the table…");
        openTable(game.id, seat, taken.name, taken.token);
        return;
      } catch (err) {
        if (!GONE.has(err.problem?.reason)) throw err;
      }
    }
    progress.textContent = t("No open seat: starting a game that waits for players…");
    const players = [{ name }];
    while (players.length < config.min_players) players.push({ open: true });
    const created = await api("/games", { method: "POST", body: { players } });
    remember({ id: created.id, created: Date.now(), host_token: created.host_token,
               players: created.players.map(({ seat, name: n, bot, token }) => ({ seat, name: n, bot, token })) });
    location.assign(`/table/${created.id}#token=${encodeURIComponent(created.players[0].token)}`);
  } catch (err) {
    progress.textContent = "";
    say(err.message);
    button.disabled = false;
  }
}

// -- a new game ---------------------------------------------------------------------------------
async function createGame(ev) {
  ev.preventDefault();
  say("");
  const players = Array.from(seats.children, (li) => {
    const name = li.querySelector("input").value.trim();
    const bot = li.querySelector("select").value;
    if (bot === OPEN) return { open: true };
    return bot ? { name, bot } : { name };
  });
  const body = { players, options: chosenOptions(), listed: document.getElementById("listed").checked };
  const clock = document.getElementById("turn-clock").value;
  if (clock) {
    body.turn_seconds = Number(clock);
    body.fallback_bot = document.getElementById("fallback-bot").value;
  }
  const budget = document.getElementById("bot-budget").value;
  if (budget) body.bot_budget_ms = Number(budget);
  try {
    const created = await api("/games", { method: "POST", body });
    const game = { id: created.id, created: Date.now(), host_token: created.host_token,
                   players: created.players.map(({ seat, name, bot, token }) => ({ seat, name, bot, token })) };
    remember(game);
    document.getElementById("created-links").replaceChildren(
      ...linksFor(game).map(([href, text]) => el("li", {}, link(href, text))));
    document.getElementById("created").hidden = false;
    showMyGames();
    firstPage();
  } catch (err) {
    say(err.message);
  }
}

// -- start ----------------------------------------------------------------------------------------
const optionsBox = document.getElementById("options");
optionsBox.append(...config.options.map(optionField));
document.getElementById("rules").hidden = config.options.length === 0;
applyDependencies();
fillTimeFields();
setSeatCount(config.min_players);
showMyGames();

document.getElementById("add-seat").addEventListener("click", () => setSeatCount(seats.children.length + 1));
document.getElementById("remove-seat").addEventListener("click", () => setSeatCount(seats.children.length - 1));
document.getElementById("create").addEventListener("submit", createGame);
document.getElementById("quick-match").addEventListener("click", quickMatch);
document.getElementById("list-status").addEventListener("change", firstPage);
document.getElementById("list-size").addEventListener("change", firstPage);
document.getElementById("list-refresh").addEventListener("click", () => showPage(list.page));
document.getElementById("list-newer").addEventListener("click", () => showPage(list.page - 1));
document.getElementById("list-older").addEventListener("click", () => showPage(list.page + 1));
firstPage();
setInterval(() => {
  const busy = gameTable.matches(":hover") || gameTable.contains(document.activeElement);
  if (document.visibilityState === "visible" && !busy) showPage(list.page);
}, REFRESH_MS);
