// The plug-in interface for a game's board view, and the one table where games register.

import type { ViewMessage } from "./api";

/** What the page gives a game module: its seat, whether it may move, and how to send a move. */
export interface GameContext {
  seat: number | null;
  interactive: boolean;
  playerCount: number;
  sendMove(move: string): void;
  /** A one-line hint for the status area (e.g. "no legal placement in this orientation"). */
  hint(text: string): void;
  /** The replay page shows the board: nobody is "watching" a game going on (the boards say nothing then). */
  replay?: boolean;
  /** Ask the server why a move cannot be played now (the answer shows on the page); absent in replays. */
  why?(move: string): void;
}

/** The part of a view message a board needs (the replay page builds these from the record). */
export type BoardUpdate = Pick<ViewMessage, "view" | "legal" | "last" | "to_move" | "over" | "seat" | "history" | "actors"> &
  Partial<Pick<ViewMessage, "clock" | "seats" | "movers">>;

/** What a finished game's reason may read besides the board: the result (a tie-break names it). */
export type EndUpdate = BoardUpdate & Partial<Pick<ViewMessage, "winners" | "scores" | "teams">>;

export interface GameModule {
  /** The game's name as in the catalog. */
  readonly name: string;
  /** A short help line: how to play with mouse and keys. */
  readonly help: string;
  mount(el: HTMLElement, ctx: GameContext): void;
  update(msg: BoardUpdate): void;
  /** What the player points at on the board now (a brick or a cell, as a signal's `at`), for "look here". */
  target?(): string | null;
  /** Show everyone where a seat pointed ("look here" at `at`) for a few seconds. */
  highlight?(at: string, seat: number): void;
  /** Why a finished game ended, in a few words the page adds to its result ("the grid is full"). */
  endReason?(msg: EndUpdate, name: (seat: number) => string): string | null;
  /** What the seat to move plays now, where the seat alone does not tell: "place colour 2 (green)" (Blokus 3D with
   * two colours each); the status says "Your turn: …" or "Waiting for ann to …". */
  turnNote?(msg: BoardUpdate): string | null;
  /** The colour of each move in the move list, where it is not the mover's seat colour (null: the seat's). */
  moveColours?(msg: BoardUpdate): (string | null)[];
  /** Show a move the Hint button suggested (select its piece or brick), where the board can do so cheaply. */
  suggest?(move: string): void;
  /** Keys the page forwards while no form field has focus; true if handled. */
  key?(event: KeyboardEvent): boolean;
  destroy(): void;
}

export type GameModuleFactory = () => GameModule;

const modules: Record<string, GameModuleFactory> = {};

export function registerGame(name: string, factory: GameModuleFactory): void {
  modules[name] = factory;
}

export function createGameModule(name: string): GameModule | null {
  const factory = modules[name];
  return factory ? factory() : null;
}

export function supportedGames(): string[] {
  return Object.keys(modules).sort();
}

/** Seat colours: the Okabe–Ito palette, distinguishable with the common colour-vision deficiencies. */
export const SEAT_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00"];

export function seatColour(seat: number): string {
  return SEAT_COLOURS[seat % SEAT_COLOURS.length];
}

/** A seat's swatch (its number on its colour): the number in white on the dark blue, in black on the light colours,
 * where white read 2.3:1 on orange and sky blue (at least 5:1 either way; WCAG asks 4.5:1 of a small text). */
export function swatchStyle(seat: number): string {
  const colour = seatColour(seat);
  return `background:${colour};color:${colour === "#0072B2" ? "#fff" : "#000"}`;
}

/** The names of the seat colours, in words (for a colour named in a sentence). */
const COLOUR_NAMES = ["blue", "orange", "green", "pink", "sky blue", "vermilion"];

export function colourName(seat: number): string {
  return COLOUR_NAMES[seat % COLOUR_NAMES.length];
}
