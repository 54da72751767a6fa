// A replay: step through every version; the board and the log up to it; and an audit mark.
import { api, boardSvg, canonical, config, gameId, gameWords, seatNames, showBoard, t } from "./common.js";

const id = gameId();
const $ = (name) => document.getElementById(name);
const path = `/games/${encodeURIComponent(id)}`;
let events = [];
let lines = [];             // each event in the game's words
let at = 1;

$("game-id").textContent = id;
$("table-link").href = `/table/${encodeURIComponent(id)}`;

async function allEvents() {
  const out = [];
  let status = "active";
  for (;;) {
    const page = await api(`${path}/events?after=${out.length}&limit=500`, { exact: true });
    status = page.status;
    out.push(...page.events);
    if (!page.events.length || out.length >= page.version) return { events: out, status };
  }
}

const bigints = (k, x) => (typeof x === "bigint" ? x.toString() : x);

async function sha256Hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Recompute the chain over the public log; the head, or the first event whose hash differs. */
async function chainHead(log) {
  let previous = "0".repeat(64);
  for (const record of log) {
    const { hash, ...body } = record;
    const computed = await sha256Hex(previous + canonical(body));
    if (computed !== hash) return { ok: false, seq: record.seq };
    previous = computed;
  }
  return { ok: true, head: previous };
}

async function audit(status) {
  const mark = $("audit");
  try {
    const server = await api(`${path}/audit`);
    if (status !== "finished" && status !== "abandoned") {   // an abandoned game's log is whole too
      mark.className = `audit ${server.ok ? "ok" : "bad"}`;
      mark.textContent = server.ok
        ? t("The game is running: the server's audit says OK at version {version}.", { version: server.version })
        : t("The game is running: the server's audit says NOT OK at version {version}.", { version: server.version });
      return;
    }
    const mine = await chainHead(events);
    const ok = mine.ok && server.head_hash === mine.head && events.length === server.version;
    mark.className = `audit ${ok ? "ok" : "bad"}`;
    mark.textContent = ok
      ? t("✔ Audit passed: this browser recomputed the hash chain of all {n} events and it ends at the server's head {head}…",
        { n: events.length, head: server.head_hash.slice(0, 12) })
      : mine.ok ? t("✘ Audit failed: the recomputed head {mine}… is not the server's {theirs}…",
        { mine: mine.head.slice(0, 12), theirs: String(server.head_hash).slice(0, 12) })
        : t("✘ Audit failed: event {seq}'s hash does not match its content.", { seq: mine.seq });
  } catch (err) {
    mark.className = "audit bad";
    mark.textContent = t("No audit: {reason}", { reason: err.message });
  }
}

async function go(version) {
  at = Math.max(1, Math.min(events.length, version));
  $("slider").value = String(at);
  $("at").textContent = String(at);
  // Each line links to its version: a click shows the board just after it.
  $("log").replaceChildren(...events.slice(0, at).map((e, i) => {
    const li = document.createElement("li");
    li.append(Object.assign(document.createElement("a"), { href: `?version=${e.seq}`, textContent: `${e.seq}. ${lines[i]}` }));
    return li;
  }));
  $("version-link").href = `?version=${at}`;
  $("version-link").textContent = t("Link to version {n}", { n: at });
  history.replaceState(null, "", `?version=${at}`);
  $("log").scrollTop = $("log").scrollHeight;
  const wanted = at;
  const svg = config.has_picture ? await boardSvg(id, wanted) : null;
  if (wanted === at) {
    showBoard($("board"), svg);
    $("board").dataset.version = String(wanted);     // which version the board shows (tests wait on it)
  }
}

async function main() {
  const loaded = await allEvents();
  events = loaded.events;
  const game = await api(path);
  lines = (await gameWords({ names: seatNames(game.players), events: JSON.parse(JSON.stringify(events, bigints)) })).events;
  $("slider").max = String(Math.max(1, events.length));
  $("last").textContent = String(events.length);
  $("slider").addEventListener("input", () => go(Number($("slider").value)));
  $("first").addEventListener("click", () => go(1));
  $("prev").addEventListener("click", () => go(at - 1));
  $("next").addEventListener("click", () => go(at + 1));
  $("end").addEventListener("click", () => go(events.length));
  $("log").addEventListener("click", (ev) => {
    const line = ev.target.closest("a[href^='?version=']");
    if (!line) return;
    ev.preventDefault();
    go(Number(new URLSearchParams(line.getAttribute("href")).get("version")));
  });
  // The arrow keys step, Home and End jump (the slider, when focused, steps by itself).
  document.addEventListener("keydown", (ev) => {
    if (ev.target === $("slider") || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 1, End: events.length }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    go(to);
  });
  const asked = Number(new URLSearchParams(location.search).get("version"));
  await go(Number.isInteger(asked) && asked > 0 ? asked : events.length);
  await audit(loaded.status);
}

main().catch((err) => { $("audit").className = "audit bad"; $("audit").textContent = err.message; });
