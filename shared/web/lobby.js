// The lobby: create a game (seats, options), show its links, list the games this browser created.
import { api, config } from "./common.js";

const seats = document.getElementById("seats");
const message = document.getElementById("message");
const storeKey = `boardgames:${config.game}:games`;

function seatRow(index) {
  const li = document.createElement("li");
  li.className = "seat-row";
  const name = Object.assign(document.createElement("input"), {
    id: `seat-${index}-name`, name: `seat-${index}-name`, value: `player ${index + 1}`, required: true });
  const nameLabel = Object.assign(document.createElement("label"), { htmlFor: name.id, textContent: `Seat ${index} name` });
  const kind = Object.assign(document.createElement("select"), { id: `seat-${index}-kind`, name: `seat-${index}-kind` });
  kind.append(new Option("human", ""));
  for (const bot of config.strategies) kind.append(new Option(`bot: ${bot}`, bot));
  if (index > 0 && config.strategies.length) kind.value = config.strategies[0];
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
  for (const p of game.players) {
    if (p.token) items.push([`/table/${game.id}#token=${encodeURIComponent(p.token)}`, `Seat ${p.seat} (${p.name}): your table`]);
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
    return bot ? { name, bot } : { name };
  });
  try {
    const created = await api("/games", { method: "POST", body: { players, options } });
    const game = { id: created.id, created: Date.now(),
                   players: created.players.map(({ seat, name, bot, token }) => ({ seat, name, bot, token })) };
    localStorage.setItem(storeKey, JSON.stringify([game, ...myGames()].slice(0, 50)));
    document.getElementById("created-id").textContent = game.id;
    const ul = document.getElementById("created-links");
    ul.replaceChildren(...linksFor(game).map(([href, text]) => {
      const li = document.createElement("li");
      li.append(link(href, text));
      return li;
    }));
    document.getElementById("created").hidden = false;
    showMyGames();
  } catch (err) {
    message.textContent = err.message;
  }
});
