// The replay page: step through a stored game's public views.

import { api, replayStates, setGameTitle, type Replay } from "../api";
import { h, modified, seatLabels, typing } from "../dom";
import { hooks } from "../hooks";
import { wake } from "../redraw";
import { createGameModule } from "../module";
import { gameResult } from "../result";
import { chatLine } from "./chat";

export async function replayPage(app: HTMLElement, id: string): Promise<void> {
  const error = h("p", { class: "error", "data-testid": "error", role: "alert" });
  app.append(error);
  let replay: Replay;
  try {
    // each position as its change from the one before: a long TowerBrix game's replay is some 2 MB, not 73 MB
    replay = await api<Replay>(`/api/games/${encodeURIComponent(id)}/replay?changes=1`);
    if (replay.changes) replay.states = replayStates(replay.changes); // an older server sends `states`
  } catch (e) {
    error.textContent = (e as Error).message;
    return;
  }
  const module = createGameModule(replay.game);
  if (!module) {
    error.textContent = `This client cannot show ${replay.game} yet.`;
    return;
  }
  const heading = h("h2", { "data-testid": "replay-heading" });
  setGameTitle(replay.game, "Replay: ", (title) => (heading.textContent = `Replay of ${title}`));
  const boardEl = h("div", { class: "board", "data-testid": "board-area" });
  const status = h("p", { class: "status", "data-testid": "status" });
  const over = h("div", { class: "game-over", "data-testid": "game-over", hidden: "" }); // at the last position
  const slider = h("input", { type: "range", min: "0", max: String(replay.moves.length), value: "0", "data-testid": "replay-slider", "aria-label": "move" });
  const buttons = h("div", { class: "replay-buttons" });
  const moves = h("ol", { class: "moves", "data-testid": "move-list" });
  // a symbol alone says nothing read aloud: each button is named in words for a screen reader
  const steps: [string, string, string, () => number][] = [
    ["⏮", "first", "first position", () => 0],
    ["◀", "prev", "previous move", () => ply - 1],
    ["▶", "next", "next move", () => ply + 1],
    ["⏭", "last", "last move", () => replay.moves.length],
  ];
  for (const [label, name, words, to] of steps) {
    const b = h("button", { "data-testid": `replay-${name}`, title: words, "aria-label": words }, label);
    b.addEventListener("click", () => show(to()));
    buttons.append(b);
  }

  const name = seatLabels(replay.players); // what the boards, the table talk and the result call each seat
  const said = h("ol", { class: "chat-list", "data-testid": "chat-list" },
    ...(replay.chat ?? []).map((entry) => chatLine(entry, name)));
  const talk = replay.chat && replay.chat.length ? [h("h3", {}, "Table talk"), said] : [];
  const panel = h("aside", { class: "panel" }, heading, status, buttons, slider, over, h("p", { class: "help" }, "Keys: ← → step, Home / End."), moves, ...talk);
  app.append(h("div", { class: "game-layout" }, boardEl, panel));
  module.mount(boardEl, { seat: null, interactive: false, replay: true, playerCount: replay.players.length, sendMove: () => {}, hint: () => {} });
  moves.append(...replay.moves.map((m, i) => {
    const li = h("li", {}, m);
    li.addEventListener("click", () => show(i + 1));
    return li;
  }));


  // the end of a finished game: its result and why it ended, in the game page's words (nothing while it goes on)
  const end = replay.moves.length;
  const finished = replay.over ?? ((replay.winners ?? []).length > 0 || replay.resigned != null); // older servers
  const result = finished
    ? gameResult({
      view: replay.states[end], legal: [], last: end ? replay.moves[end - 1] : null, to_move: null, over: true, seat: null,
      history: replay.moves, movers: replay.movers, actors: [], seats: replay.players, scores: replay.scores ?? [],
      winners: replay.winners ?? [], teams: replay.teams, resigned: replay.resigned ?? null,
    }, module, name)
    : null;

  let ply = 0;
  function show(k: number): void {
    ply = Math.max(0, Math.min(replay.moves.length, k));
    wake(); // the board draws the position at once, however the step came (a screen reader moves the slider without a key)
    slider.value = String(ply);
    module!.update({ view: replay.states[ply], legal: [], last: ply ? replay.moves[ply - 1] : null, to_move: null, over: false, seat: null, history: replay.moves.slice(0, ply), movers: replay.movers?.slice(0, ply), seats: replay.players });
    const atEnd = ply === end && result !== null;
    status.textContent = `Move ${ply} of ${end}${ply ? `: ${replay.moves[ply - 1]}` : ""}${atEnd ? ` — ${result.status}` : ""}`;
    const appears = atEnd && over.hidden;
    over.textContent = atEnd ? result.text : "";
    over.hidden = !atEnd;
    // under the buttons (they stay where they were): on a phone it may be below the screen, so it is brought up
    const box = over.getBoundingClientRect();
    if (appears && (box.top < 0 || box.bottom > window.innerHeight)) over.scrollIntoView({ block: "nearest", behavior: "smooth" });
    moves.querySelectorAll("li").forEach((li, i) => li.classList.toggle("last", i === ply - 1));
    hooks.ply = ply;
  }
  slider.addEventListener("input", () => show(Number(slider.value)));
  document.addEventListener("keydown", (event) => {
    if (typing(event) || modified(event)) return;
    const to: Record<string, number> = { ArrowRight: ply + 1, ArrowLeft: ply - 1, Home: 0, End: replay.moves.length };
    if (event.key in to) {
      show(to[event.key]);
      event.preventDefault();
    }
  });
  show(0);
}
