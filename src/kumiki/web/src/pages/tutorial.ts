// Learn to play: a short guided game against the computer, one step at a time (place a piece, see a rule refuse a
// move and say why, see the score). A game's page starts it; the game page shows the steps when the link asks for
// them (?tutorial=1) and moves on as the player does what a step says.

import { postJson, type SeatInfo } from "../api";
import { h } from "../dom";

/** What the player has done so far in the tutorial's game. */
export interface Progress {
  myMoves: number;
  refused: number; // moves the server refused, and "why" answers that said a move is not legal
  over: boolean;
}

interface Step {
  text: string;
  done(p: Progress): boolean;
}

interface Tutorial {
  /** The tutorial's game: the player's seat, the computer's, small options so it ends in a few minutes. */
  seats: Record<string, unknown>[];
  options: Record<string, unknown>;
  steps: Step[];
}

const refused = (p: Progress) => p.refused > 0;
const moves = (n: number) => (p: Progress) => p.myMoves >= n;
const never = () => false;

const TUTORIALS: Record<string, Tutorial> = {
  kuzushi: {
    seats: [{ kind: "agent", level: "random" }, { kind: "human", name: "you" }],
    // 10 tiles: with a random opponent every game gives you at least the three moves step 3 asks for (with 6, half ended sooner)
    options: { size: 4, tiles: 10 },
    steps: [
      { text: "You are seat 1 and move first. Place a BASE next to the CITY (C): click an empty cell marked ·.", done: moves(1) },
      { text: "Rules refuse a move that breaks them, and say why. Click a cell far from every tile, or type B 3,3 in the box “Why can't I play…” below and press Why not?", done: refused },
      { text: "Each BASE plants your FLAGS on the empty cells around it where you have the most BASEs next to them, and knocks other flags off. Play two more BASEs and watch the flags change.", done: moves(3) },
      { text: "The score is your tiles on the table (the table below). The game ends when the square is full or someone runs out of tiles. Play on to the end, or start a real game.", done: never },
    ],
  },
  blokus3d: {
    seats: [{ kind: "human", name: "you" }, { kind: "agent", level: "random" }],
    options: {},
    steps: [
      { text: "Pick a piece in your tray, point at the structure: the ghost shows where it can go. Click to place it (on a phone: tap, then tap the same place again).", done: moves(1) },
      { text: "Pick another piece, point outside the outline and press “Why not here?”: the rule that stops it is shown.", done: refused },
      { text: "Every later piece must touch your own colour by a face (edges do not count). Place another piece.", done: moves(2) },
      { text: "At the end each column whose top cube is your colour is a point, and each piece left in your tray is a point lost. Play on, or start a real game.", done: never },
    ],
  },
  kozo: {
    seats: [{ kind: "human", name: "you" }, { kind: "agent", level: "random" }],
    // three rounds: a fall ends a round, and a newcomer's first piece (or the random computer's reply) often topples
    // the tower; round 3 is the newcomer's to open, so step 3's second turn always comes (with one round it often did not)
    options: { rounds: 3 },
    steps: [
      { text: "Pick a piece, point at the tower and click: it is lowered straight down. Then click a spot on top of a column for the small balance cube.", done: moves(1) },
      { text: "Nothing may go over the chimney in the middle. Type a move over it in the box “Why can't I play…” (for example I2 1,1,0 1,2,0 + 1,2,1) and press Why not?", done: refused },
      { text: "Your piece's cubes are your points for the round — unless the tower falls on your turn: then you lose them all. Play another turn.", done: moves(2) },
      { text: "The most points after the last round wins. Play on, or start a real game.", done: never },
    ],
  },
  towerbrix: {
    seats: [{ kind: "human", name: "you" }],
    options: { players: 1, mode: "solo", difficulty: "easy", rounds: 1 },
    steps: [
      { text: "Your cards (beside the tower) say what the tower must meet. Pick a brick, choose how it lies, and click the table to put it down (on a phone: tap, then tap the same place again).", done: moves(1) },
      { text: "Not every brick may be used: the green deck leaves the gray one out. Type G z 0,0 in the box “Why can't I play…” and press Why not?", done: refused },
      { text: "Build until every card shows ✓ — all eight coloured bricks, touching, standing — then press OK (thumbs-up) to have it judged.", done: (p) => p.over || p.myMoves >= 12 },
      { text: "A tower that stands and meets every card scores the cards' points, plus bonuses for height and few bricks on the table. Play on, or start a real game.", done: never },
    ],
  },
};

/** Start the tutorial of `game`: a new game against the computer, opened with the steps shown. */
export async function startTutorial(game: string): Promise<void> {
  const tutorial = TUTORIALS[game];
  const created = await postJson<{ seats: SeatInfo[] }>("/api/games", { game, options: tutorial.options, seats: tutorial.seats });
  const mine = created.seats.find((s) => s.invite);
  if (mine?.invite) location.href = `${mine.invite}&tutorial=1`;
}

export function hasTutorial(game: string): boolean {
  return game in TUTORIALS;
}

/** The steps box of the game page: `update` (what a view shows) and `refused` (a move refused, or asked about and not
 * legal) move it on as the player progresses. */
export function tutorialBox(game: string): { element: HTMLElement; update(change: Partial<Progress>): void; refused(): void } {
  const steps = TUTORIALS[game]?.steps ?? [];
  const text = h("p", { "data-testid": "tutorial-step" });
  const count = h("b", {});
  const next = h("button", { type: "button", "data-testid": "tutorial-next" }, "Next step");
  const real = h("a", { href: `/play/${game}`, class: "button", "data-testid": "tutorial-done" }, "Play a real game");
  const element = h("section", { class: "tutorial", "data-testid": "tutorial" }, h("h3", {}, "Learn to play ", count), text, next, " ", real);
  let at = 0;
  const progress: Progress = { myMoves: 0, refused: 0, over: false };
  const show = () => {
    count.textContent = `— step ${at + 1} of ${steps.length}`;
    text.textContent = steps[at]?.text ?? "";
    next.hidden = at >= steps.length - 1;
    element.setAttribute("data-step", String(at + 1));
  };
  const advance = () => {
    while (at < steps.length - 1 && steps[at].done(progress)) at += 1;
    show();
  };
  next.addEventListener("click", () => {
    at = Math.min(at + 1, steps.length - 1);
    show();
  });
  show();
  return {
    element,
    update(change: Partial<Progress>) {
      Object.assign(progress, change);
      advance();
    },
    refused() {
      progress.refused += 1;
      advance();
    },
  };
}
