// The server's HTTP and WebSocket API (docs/server.md), typed for the client.

import { wake } from "./redraw";

export interface OptionSpec {
  name: string;
  type: "int" | "float" | "bool" | "str";
  default: unknown;
  choices?: unknown[];
  min?: number;
  max?: number;
  help?: string;
  /** The name a newcomer reads on the form (the API keeps `name`). */
  label?: string;
  /** Bounds that follow another option's value (TowerBrix's card points per round follow the deck), as the engine
   * takes them: at most `max`, and none of `except` (totals the deck's cards cannot make). */
  bounds_by?: { option: string; values: Record<string, { max: number; except: number[] }> };
}

/** A named set of options the form fills in at one click. */
export interface Preset {
  name: string;
  label: string;
  help: string;
  options: Record<string, unknown>;
}

/** What the lobby tells a newcomer about a game (its card and its page). */
export interface About {
  title: string;
  tagline: string;
  minutes: string;
  description: string;
  picture: string;
  summary: { heading: string; paragraphs: string[] }[];
  presets: Preset[];
  /** The options shown at once; the others fold under "More options". */
  basic: string[];
}

export interface CatalogGame {
  name: string;
  players: [number, number];
  options: OptionSpec[];
  about?: About;
  /** Per level, how far above the level below the ladder study measured it ("about 240 Elo above medium"). */
  level_notes?: Record<string, string>;
  /** The computer levels this game offers (the catalog's "levels" but those that would not play it fairly). */
  levels?: string[];
}

export interface Catalog {
  games: CatalogGame[];
  levels: string[];
}

export interface SeatInfo {
  seat: number;
  /** "open": a human seat nobody has taken yet (listed in the lobby's open tables). */
  kind: "human" | "agent" | "open";
  name: string;
  level?: string;
  token?: string;
  invite?: string;
  connected?: boolean;
}

export interface GameSummary {
  id: string;
  game: string;
  options: Record<string, unknown>;
  status: "playing" | "over";
  created: string;
  updated: string;
  seats: SeatInfo[];
  moves: number;
  to_move: number | null;
  winners: number[];
  scores: number[];
  /** The side each seat plays for (one side: TowerBrix's team, or a solo game; absent from older servers). */
  teams?: number[];
  /** Whether its .kmk record is given now (not while a game with hidden cards or draws to come goes on). */
  record_ready?: boolean;
  /** Whether the creator chose the seed of the game's chance (the deal, the draws), so may know what is to come. */
  seed_chosen?: boolean;
}

/** A game in the lobby's open tables: anyone may take one of its free seats. */
export interface OpenTable {
  id: string;
  game: string;
  options: Record<string, unknown>;
  created: string;
  seats: SeatInfo[];
  free: number[];
  /** Whether the creator chose the seed of the game's chance (the deal, the draws), so may know what is to come. */
  seed_chosen?: boolean;
}

/** The `view` message: everything a game page shows (its own seat's view of the state). */
export interface ViewMessage {
  type: "view";
  game: string;
  id: string;
  seat: number | null;
  ply: number;
  to_move: number | null;
  /** The seats that may act now: [to_move] in turn-based play, every seat in TowerBrix with free turns. */
  actors?: number[];
  /** The seat that made each move. */
  movers?: (number | null)[];
  over: boolean;
  /** The seat that resigned (the game ended there: every other side won), or null. */
  resigned?: number | null;
  /** Whether this connection's seat may resign now (a person's seat in a game against others, still going). */
  may_resign?: boolean;
  scores: number[];
  winners: number[];
  /** The side each seat plays for (Kuzushi's teams; TowerBrix's one team); absent from older servers. */
  teams?: number[];
  view: any;
  legal: string[];
  history: string[];
  last: string | null;
  seats: SeatInfo[];
  undo: boolean;
  /** An imported record, only watched. */
  imported?: boolean;
  /** Whether the creator chose the seed of the game's chance (the deal, the draws), so may know what is to come. */
  seed_chosen?: boolean;
  /** Whether the game's .kmk record is given now (not while hidden cards or draws to come are at stake). */
  record_ready?: boolean;
  /** Whether the game allows gestures only (TowerBrix's challenge 3), and how many chat lines there are. */
  silent?: boolean;
  chat?: number;
  /** Whether this seat may ask for hints (against the computer, solo, or TowerBrix played together). */
  hints?: boolean;
  /** A running clock (TowerBrix's challenge 2): its limit and the seconds left when the view was sent. */
  clock?: { seconds: number; left: number } | null;
}

/** One line of the table's talk: a chat message or a signal. */
export interface ChatEntry {
  index: number;
  seat: number;
  kind: "text" | "signal";
  text: string;
  at: string | null;
  time: number;
}

/** The `chat` message: the whole chat on connect, then each new line. */
export interface ChatMessage {
  type: "chat";
  entries: ChatEntry[];
  silent: boolean;
}

/** The `rematch` message: the next game with the same seats, and this connection's way in (its seat's invite). */
/** The answer to "why can't I play this?": the rule the move breaks now, in the engine's words (or that it is legal). */
export interface WhyMessage {
  type: "why";
  move: string;
  legal: boolean;
  reason: string;
}

/** The answer to the Hint button: the move suggested (null: none found) and one line saying why, for position `ply`. */
export interface HintMessage {
  type: "hint";
  ply: number;
  move: string | null;
  text: string;
}

export interface RematchMessage {
  type: "rematch";
  id: string;
  invite: string;
}

export interface ErrorMessage {
  type: "error";
  code: string;
  message: string;
  /** The request it answers where requests interleave: "hint" (a refused Hint, not a refused move). */
  about?: string;
}

export interface Replay {
  game: string;
  options: Record<string, unknown>;
  players: SeatInfo[];
  moves: string[];
  /** The public view after 0, 1, … moves (rebuilt by `replayStates` from `changes`, which the page asks for). */
  states: any[];
  /** Each position as its change from the one before (`?changes=1`): the fields set anew, the lists grown by
   * their new items (TowerBrix's evaluations, repeated in every position otherwise) and the fields gone. */
  changes?: ReplayChange[];
  /** The seat that made each move. */
  movers?: (number | null)[];
  /** The table's talk, as it was said during the game. */
  chat?: ChatEntry[];
  /** The seat that resigned after the last move, or null. */
  resigned?: number | null;
  /** The final scores, and the winners (empty while the game goes on). */
  scores?: number[];
  winners?: number[];
  /** The side each seat plays for, and whether the game is over (by its rules or a resignation). */
  teams?: number[];
  over?: boolean;
}

export interface ReplayChange {
  set?: Record<string, unknown>;
  append?: Record<string, unknown[]>;
  unset?: string[];
}

/** The positions of a replay asked for with `?changes=1`, each rebuilt from the one before (unchanged fields and
 * old list items are shared, never copied: a long TowerBrix game's positions would otherwise take hundreds of MB). */
export function replayStates(changes: ReplayChange[]): any[] {
  const states: any[] = [];
  let state: Record<string, unknown> = {};
  for (const change of changes) {
    state = { ...state, ...change.set };
    for (const [field, items] of Object.entries(change.append ?? {})) state[field] = (state[field] as unknown[]).concat(items);
    for (const field of change.unset ?? []) delete state[field];
    states.push(state);
  }
  return states;
}

/** Fetch JSON, turning the server's `{"error": ...}` answers into thrown Errors with that one line. */
export async function api<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(path, init);
  const text = await response.text();
  wake(); // the answer may change a board
  let body: any = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) {
    throw new Error(body?.error ?? `${response.status} ${response.statusText}`);
  }
  return body as T;
}

export function postJson<T>(path: string, data: unknown): Promise<T> {
  return api<T>(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(data) });
}

/** Close codes after which connecting again cannot help: a wrong token, no such game, a game these rules refuse. */
const FINAL_CLOSES = new Set([4403, 4404, 4409]);

/** One WebSocket per game page; reconnects with back-off and lets the server resend the full view. The back-off
 * starts again only once a view has arrived, so a server that accepts and then refuses (too many connections from
 * this address: 4429) is not asked again four times a second; a final refusal is not asked again at all. */
export class GameSocket {
  private ws: WebSocket | null = null;
  private closed = false;
  private delay = 250;

  constructor(
    private readonly url: string,
    private readonly onMessage: (msg: ViewMessage | ErrorMessage | ChatMessage | RematchMessage | WhyMessage | HintMessage) => void,
    private readonly onState: (connected: boolean, final: boolean) => void,
  ) {
    this.open();
  }

  private open(): void {
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => this.onState(true, false);
    ws.onmessage = (event) => {
      let msg: ViewMessage | ErrorMessage | ChatMessage | RematchMessage | WhyMessage | HintMessage;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return; /* a message we cannot read is ignored; the next view repairs the page */
      }
      if (msg.type === "view") this.delay = 250;
      wake();
      this.onMessage(msg);
    };
    ws.onclose = (event) => {
      if (FINAL_CLOSES.has(event.code)) this.closed = true;
      this.onState(false, this.closed);
      if (!this.closed) {
        setTimeout(() => this.open(), this.delay);
        this.delay = Math.min(this.delay * 2, 5000);
      }
    };
  }

  send(message: unknown): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  close(): void {
    this.closed = true;
    this.ws?.close();
  }
}

export function socketUrl(id: string, token: string | null): string {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  return `${scheme}://${location.host}/ws/games/${encodeURIComponent(id)}${query}`;
}

/** The page's title for a game of `game`: "Blokus 3D — Kumiki", `what` first ("Replay: "), so that a tab or a screen
 * reader tells which game the page shows (the catalog's title; the name itself until it comes, or if it does not). */
export function setGameTitle(game: string, what = "", onTitle?: (title: string) => void): void {
  const set = (title: string) => {
    document.title = `${what}${title} — Kumiki`;
    onTitle?.(title); // the page's own heading names the game alike ("Replay of TowerBrix", not of "towerbrix")
  };
  set(game);
  api<Catalog>("/api/catalog").then((catalog) => set(catalog.games.find((g) => g.name === game)?.about?.title ?? game), () => undefined);
}
