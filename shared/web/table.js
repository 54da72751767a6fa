// A table: the board, players, whose turn, one's hand, the log, and one's legal moves, live.
import { api, boardSvg, config, eventLine, follow, gameId, moveLabel, newKey, showBoard, tokenFromFragment } from "./common.js";

const id = gameId();
const token = tokenFromFragment();
const $ = (name) => document.getElementById(name);
const message = $("message");
let legal = { version: 0, moves: [] };
let busy = false;

$("game-id").textContent = id;
$("replay-link").href = `/replay/${encodeURIComponent(id)}`;

function show(view) {
  const seat = view.you;
  $("who").textContent = seat === null ? "You are watching (spectator)." : `You are seat ${seat} (${view.players[seat].name}).`;
  if (view.status === "finished") {
    const winners = (view.result && view.result.winners) || [];
    $("turn").textContent = `The game is over. Winner: ${winners.map((s) => view.players[s].name).join(", ") || "none"}.`;
  } else {
    const names = view.to_act.map((s) => (s === seat ? "you" : view.players[s].name));
    $("turn").textContent = `To act: ${names.join(", ")} (version ${view.version}).`;
  }
  const scores = Array.isArray(view.state.scores) ? view.state.scores : (view.result && view.result.scores) || null;
  $("players").replaceChildren(...view.players.map((p) => {
    const li = document.createElement("li");
    const score = scores && scores[p.seat] !== undefined ? `: ${typeof scores[p.seat] === "object" ? JSON.stringify(scores[p.seat]) : scores[p.seat]}` : "";
    li.textContent = `${p.name}${p.bot ? ` (bot ${p.bot})` : ""}${score}`;
    if (view.to_act.includes(p.seat)) li.className = "current";
    return li;
  }));
  // One's own hand: the view's fields about "you", else the whole view of the state.
  const own = Object.fromEntries(Object.entries(view.state).filter(([k]) => /^(your|you_|hand|own)/.test(k)));
  $("hand").textContent = seat === null ? "(a spectator has none)"
    : Object.keys(own).length ? JSON.stringify(own, null, 1) : "(in the whole view below)";
  $("view").textContent = JSON.stringify(view.state);
}

function showMoves() {
  $("moves").replaceChildren(...legal.moves.map((move) => {
    const li = document.createElement("li");
    const button = Object.assign(document.createElement("button"), { type: "button", textContent: moveLabel(move) });
    button.addEventListener("click", () => play(move));
    li.append(button);
    return li;
  }));
  if (!legal.moves.length) {
    $("moves").append(Object.assign(document.createElement("li"), {
      textContent: token ? "None now." : "Open your seat's link to play." }));
  }
}

/** Does the move name this place (any field equal to its id, or a list holding it)? */
function names(move, placeId) {
  return Object.entries(move).some(([k, v]) => k !== "type" &&
    (String(v) === placeId || (Array.isArray(v) && v.some((x) => String(x) === placeId))));
}

function placeClicked(place) {
  $("choice").hidden = true;
  const placeId = place.getAttribute("data-id");
  const kind = place.getAttribute("data-kind");
  const matching = legal.moves.filter((m) => names(m, placeId));
  if (matching.length === 1) return play(matching[0]);
  if (!matching.length) {
    message.textContent = `No move of yours names ${kind} ${placeId} now.`;
    return;
  }
  $("choice-list").replaceChildren(...matching.map((move) => {
    const li = document.createElement("li");
    const button = Object.assign(document.createElement("button"), { type: "button", textContent: moveLabel(move) });
    button.addEventListener("click", () => { $("choice").hidden = true; play(move); });
    li.append(button);
    return li;
  }));
  $("choice").hidden = false;
  $("choice-list").querySelector("button").focus();
}

async function play(move) {
  if (busy) return;
  busy = true;
  message.textContent = "";
  try {
    await api(`/games/${encodeURIComponent(id)}/moves`, {
      method: "POST", token, body: move, headers: { "If-Match": `"${legal.version}"`, "Idempotency-Key": newKey() } });
  } catch (err) {
    message.textContent = err.message;
  } finally {
    busy = false;
  }
  refresh();
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
        const [view, moves, svg] = await Promise.all([
          api(path, { token }),
          token ? api(`${path}/legal-moves`, { token }) : Promise.resolve({ version: 0, moves: [] }),
          config.has_picture ? boardSvg(id) : Promise.resolve(null)]);
        show(view);
        legal = moves;
        showMoves();
        const drawn = showBoard($("board"), svg);
        if (drawn) {
          for (const place of drawn.querySelectorAll("[data-kind][data-id]")) {
            place.setAttribute("tabindex", "0");
            place.setAttribute("role", "button");
            place.setAttribute("aria-label", `${place.getAttribute("data-kind")} ${place.getAttribute("data-id")}`);
          }
        }
      } catch (err) {
        message.textContent = err.message;
      }
    } while (again);
    refreshing = null;
  })();
  return refreshing;
}

$("board").addEventListener("click", (ev) => {
  const place = ev.target.closest && ev.target.closest("[data-kind][data-id]");
  if (place) placeClicked(place);
});
$("board").addEventListener("keydown", (ev) => {
  const place = ev.target.closest && ev.target.closest("[data-kind][data-id]");
  if (place && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); placeClicked(place); }
});

refresh();
follow(id, token, (e) => {
  const li = document.createElement("li");
  li.textContent = eventLine(e);
  $("log").append(li);
  li.scrollIntoView({ block: "nearest" });
  refresh();
});
