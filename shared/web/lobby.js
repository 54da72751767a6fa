// The lobby: create a game (seats, options), show its links, list the server's games (GET /games) with a
// join button on each open seat, and the games this browser created or joined.
import { api, config } from "./common.js";

const seats = document.getElementById("seats");
const message = document.getElementById("message");
const storeKey = `boardgames:${config.game}:games`;
const OPEN = "(open)";     // the seat kind "open": no strategy has this name

function seatRow(index) {
  const li = document.createElement("li");
  li.className = "seat-row";
  const name = Object.assign(document.createElement("input"), {
    id: `seat-${index}-name`, name: `seat-${index}-name`, value: `player ${index + 1}`, required: true });
  const nameLabel = Object.assign(document.createElement("label"), { htmlFor: name.id, textContent: `Seat ${index} name` });
  const kind = Object.assign(document.createElement("select"), { id: `seat-${index}-kind`, name: `seat-${index}-kind` });
  kind.append(new Option("human", ""));
  for (const bot of config.bots) kind.append(new Option(`bot: ${bot.name} (${bot.level})`, bot.name));
  kind.append(new Option("open: anyone may join", OPEN));
  // Other seats start as the rule-of-thumb bot: a fair opponent that answers at once.
  const medium = config.bots.find((bot) => bot.level === "medium") || config.bots[0];
  if (index > 0 && medium) kind.value = medium.name;
  const kindLabel = Object.assign(document.createElement("label"), { htmlFor: kind.id, textContent: "played by" });
  li.append(nameLabel, name, kindLabel, kind);
  return li;
}

function setSeatCount(n) {
  while (seats.children.length < n) seats.append(seatRow(seats.children.length));
  while (seats.children.length > n) seats.lastElementChild.remove();
  document.getElementById("add-seat").disabled = n >= config.max_players;
  document.getElementById("remove-seat").disabled = n <= config.min_players;
}

function myGames() {
  try { return JSON.parse(localStorage.getItem(storeKey)) || []; } catch { return []; }
}

function link(href, text) {
  const a = Object.assign(document.createElement("a"), { href, textContent: text });
  return a;
}

function linksFor(game) {
  const items = [];
  // The creator's table (the first seat with a token) also holds the host token that may cancel
  // the game while it waits for its open seats.
  let host = game.host_token ? `&host=${encodeURIComponent(game.host_token)}` : "";
  for (const p of game.players) {
    if (!p.token) continue;
    items.push([`/table/${game.id}#token=${encodeURIComponent(p.token)}${host}`, `Seat ${p.seat} (${p.name}): your table`]);
    host = "";
  }
  items.push([`/table/${game.id}`, "Watch (spectator)"], [`/replay/${game.id}`, "Replay"]);
  return items;
}

function showMyGames() {
  const list = document.getElementById("my-games");
  list.replaceChildren();
  for (const game of myGames()) {
    const li = document.createElement("li");
    li.append(`${game.id} (${new Date(game.created).toLocaleString()}): `);
    for (const [href, text] of linksFor(game)) li.append(link(href, text), " ");
    list.append(li);
  }
  if (!list.children.length) list.append(Object.assign(document.createElement("li"), { textContent: "None yet." }));
}

function remember(game) {
  localStorage.setItem(storeKey, JSON.stringify([game, ...myGames()].slice(0, 50)));
}

// -- the server's list -----------------------------------------------------------------------
const gameList = document.getElementById("game-list");
const moreButton = document.getElementById("list-more");
let nextCursor = null;

function seatText(p) {
  if (p.open) return `seat ${p.seat}: open${p.reserved ? ` (kept for ${p.name})` : ""}`;
  return `seat ${p.seat}: ${p.name}${p.bot ? ` (${p.bot}${p.resigned ? ", resigned" : ""})` : ""}`;
}

async function join(game, seat) {
  message.textContent = "";
  try {
    const name = document.getElementById("join-name").value.trim();
    const taken = await api(`/games/${game.id}/seats/${seat}`, { method: "POST", body: { name } });
    remember({ id: game.id, created: Date.now(), players: [{ seat, name: taken.name, bot: null, token: taken.token }] });
    location.assign(`/table/${game.id}#token=${encodeURIComponent(taken.token)}`);
  } catch (err) {
    message.textContent = err.message;
    loadList(false);
  }
}

function listedItem(game) {
  const li = document.createElement("li");
  li.className = "listed-game";
  li.dataset.id = game.id;
  const moved = game.moved_at ? `, last move ${new Date(game.moved_at).toLocaleString()}` : "";
  li.append(`${game.id}: ${game.status}${moved}; ${game.players.map(seatText).join("; ")} `);
  for (const p of game.players) {
    if (p.open && !p.reserved) {
      const button = Object.assign(document.createElement("button"), { type: "button", textContent: `Join seat ${p.seat}` });
      button.addEventListener("click", () => join(game, p.seat));
      li.append(button, " ");
    }
  }
  li.append(link(`/table/${game.id}`, "Table"), " ", link(`/replay/${game.id}`, "Replay"));
  return li;
}

async function loadList(more) {
  const params = new URLSearchParams({ limit: "20" });
  const status = document.getElementById("list-status").value;
  if (status) params.set("status", status);
  if (more && nextCursor) params.set("cursor", nextCursor);
  try {
    const page = await api(`/games?${params}`);
    if (!more) gameList.replaceChildren();
    gameList.append(...page.games.map(listedItem));
    if (!gameList.children.length) gameList.append(Object.assign(document.createElement("li"), { textContent: "No games." }));
    nextCursor = page.next;
    moreButton.hidden = !nextCursor;
  } catch (err) {
    message.textContent = err.message;
  }
}

document.getElementById("list-status").addEventListener("change", () => loadList(false));
moreButton.addEventListener("click", () => loadList(true));
loadList(false);

document.getElementById("add-seat").addEventListener("click", () => setSeatCount(seats.children.length + 1));
document.getElementById("remove-seat").addEventListener("click", () => setSeatCount(seats.children.length - 1));
document.getElementById("options").value = JSON.stringify(config.default_options, null, 2);
setSeatCount(config.min_players);
showMyGames();

document.getElementById("create").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  message.textContent = "";
  let options;
  try {
    options = JSON.parse(document.getElementById("options").value || "{}");
  } catch (err) {
    message.textContent = `The options are not JSON: ${err.message}`;
    return;
  }
  const players = Array.from(seats.children, (li) => {
    const name = li.querySelector("input").value.trim();
    const bot = li.querySelector("select").value;
    if (bot === OPEN) return { open: true };
    return bot ? { name, bot } : { name };
  });
  try {
    const body = { players, options };
    const budget = document.getElementById("bot-budget").value;
    if (budget) body.bot_budget_ms = Number(budget);
    const created = await api("/games", { method: "POST", body });
    const game = { id: created.id, created: Date.now(), host_token: created.host_token,
                   players: created.players.map(({ seat, name, bot, token }) => ({ seat, name, bot, token })) };
    remember(game);
    document.getElementById("created-id").textContent = game.id;
    const ul = document.getElementById("created-links");
    ul.replaceChildren(...linksFor(game).map(([href, text]) => {
      const li = document.createElement("li");
      li.append(link(href, text));
      return li;
    }));
    document.getElementById("created").hidden = false;
    showMyGames();
    loadList(false);
  } catch (err) {
    message.textContent = err.message;
  }
});
