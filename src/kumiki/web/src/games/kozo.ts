// Kozo on a three.js turntable: the 3×3 base and its chimney, the tower of polycubes and balance cubes, the round's
// shared pool in a tray, and a two-step ghost (the polycube, then its balance cube) that only ever shows a move from
// the server's `legal` list. A fall is shown: the toppled tower tips over, with the judge's explanation.

import * as THREE from "three";
import type { BoardUpdate, EndUpdate, GameContext, GameModule } from "../module";
import { registerGame, seatColour, swatchStyle } from "../module";
import { capital, confirmWords, h, playerName, touchScreen } from "../dom";
import { hooks, pointedAt } from "../hooks";
import { type Cell, type GhostActions, cellText, columnTops, drawIcon, ghostButtons, ghostKey, lowered, nextFittingShape, orientations, outlineSegments, rotateShape, shapeKey, turnWords } from "../polycube";
import { wake } from "../redraw";
import { Stage, disposeGroup } from "../stage";

interface KozoPiece {
  piece: string;
  player: number;
  cells: Cell[];
}

interface KozoFall {
  round: number;
  player: number;
  step: number;
  move: string;
  explanation: string;
  moving: string[];
}

interface KozoView {
  round: number;
  rounds: number;
  to_move: number | null;
  pool: string[];
  required_size: number | null;
  pieces: KozoPiece[];
  balance_cubes: Cell[];
  points: number[][];
  falls: KozoFall[];
  fall: KozoFall | null;
  /** How each finished round ended (absent from older servers). */
  ends?: KozoEnd[];
  margin_deg: number;
}

/** A move parsed from its notation: `L4 0,0,0 0,1,0 1,0,0 2,0,0 + 2,0,1`. */
export interface KozoMove {
  text: string;
  piece: string;
  cells: Cell[];
  balance: Cell;
}

/** Where a polycube comes to rest, with every legal move (one per balance cube spot) that places it there. */
interface Placement {
  key: string;
  piece: string;
  cells: Cell[];
  shape: string;
  moves: KozoMove[];
}

export function parseKozoMove(text: string): KozoMove | null {
  const [head, tail] = text.split("+");
  if (tail === undefined) return null;
  const [piece, ...rest] = head.trim().split(/\s+/);
  const cell = (c: string) => c.split(",").map(Number) as Cell;
  return { text, piece, cells: rest.map(cell), balance: cell(tail.trim()) };
}

/** The legal moves grouped by placement (the server lists them by piece, then cells, then balance cube). */
function placements(legal: string[]): Placement[] {
  const byKey = new Map<string, Placement>();
  for (const text of legal) {
    const move = parseKozoMove(text);
    if (!move) continue;
    const key = `${move.piece} ${move.cells.map(cellText).join(" ")}`;
    let p = byKey.get(key);
    if (!p) {
      p = { key, piece: move.piece, cells: move.cells, shape: shapeKey(move.cells), moves: [] };
      byKey.set(key, p);
    }
    p.moves.push(move);
  }
  return [...byKey.values()];
}

/** Kozo's standard pool (docs/rules/kozo.md): the tray draws these before the server has sent a piece's cells. */
const STANDARD: Record<string, string> = {
  I2: "0,0,0 1,0,0",
  I3: "0,0,0 1,0,0 2,0,0",
  V3: "0,0,0 1,0,0 0,1,0",
  I4: "0,0,0 1,0,0 2,0,0 3,0,0",
  O4: "0,0,0 1,0,0 0,1,0 1,1,0",
  T4: "0,0,0 1,0,0 2,0,0 1,1,0",
  L4: "0,0,0 1,0,0 2,0,0 0,1,0",
  Z4: "0,0,0 1,0,0 1,1,0 2,1,0",
  P4: "0,0,0 1,0,0 0,1,0 0,0,1",
  A4: "0,0,0 1,0,0 0,1,0 1,0,1",
  B4: "0,0,0 1,0,0 1,1,0 0,0,1",
  U5: "0,0,0 1,0,0 2,0,0 0,1,0 2,1,0",
};
const KEYS = "1234567890-=";
const BALANCE = 0.57; // a balance cube's edge, in polycube cubes
const WOOD = "#f3ead8";
const FALL_SECONDS = 5;

type Step = "piece" | "balance";

/** A tower to draw: this round's polycubes in the order placed, the balance cubes, and the bodies a fall moves. */
interface TowerPicture {
  pieces: KozoPiece[];
  balances: Cell[];
  moving: Set<string>;
  last: KozoMove | null;
}

/** How a round ended (`to_json()["ends"]`, docs/rules/kozo.md): a fall, every polycube placed, or no legal
 * placement ("stuck"; `size` is the size drawn in the variant), with the polycubes placed and the tower's height. */
interface KozoEnd {
  round: number;
  how: "fall" | "placed" | "stuck";
  pieces: number;
  height: number;
  size: number | null;
}

const ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth"];
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
const ordinal = (n: number) => ORDINALS[n - 1] ?? `${n}th`;

/** How a round ended, in words that follow "it ended" ("when ann made the tower fall"). */
function endedHow(end: KozoEnd | undefined, fall: KozoFall | undefined, pool: string[], name: (seat: number) => string): string {
  if (fall) return `when ${name(fall.player)} made the tower fall`;
  const how = end?.how ?? (pool.length ? "stuck" : "placed");
  if (how === "placed") return "with every polycube placed";
  return end?.size ? `when the tile drawn was ${end.size} and no polycube of that size could be placed` : "when none of the polycubes left could be placed";
}

/** A solo game's score and what it was made of, round by round: its points, the polycubes placed and the tower's
 * height, and how the round ended (a fall costs the round's points: it says which polycube and how many). */
function soloSummary(msg: EndUpdate, view: KozoView, ends: KozoEnd[]): string {
  const you = msg.seat === 0;
  let next = 0; // each round's moves, from the history: one polycube placed per move
  const rounds = ends.map((end) => {
    const moves = msg.history.slice(next, next + end.pieces).map(parseKozoMove);
    next += end.pieces;
    const points = view.points[end.round]?.[0] ?? 0;
    const fall = view.falls.find((f) => f.round === end.round);
    const placed = !fall && end.how === "placed" ? `every polycube placed (${end.pieces})` : `${plural(end.pieces, "polycube")} placed`;
    const tower = end.pieces ? `${placed}, a tower ${plural(end.height, "cube")} high` : "no polycube placed";
    let how: string;
    if (fall) {
      const lost = moves.slice(0, -1).reduce((sum, m) => sum + (m?.cells.length ?? 0), 0);
      const piece = `the ${ordinal(end.pieces)}, ${fall.move.split(" ")[0]}`;
      const which = fall.step === 1 ? piece : `the balance cube of ${piece}`;
      const points = lost ? ` The round's ${plural(lost, "point")} ${lost === 1 ? "was" : "were"} lost` : "";
      how = `, then ${which}, made the tower fall: ${fall.explanation}.${points}`;
    } else if (end.how === "placed") how = "";
    else how = end.size ? `, then the tile drawn was ${end.size} and no polycube of that size could be placed` : ", then none of the polycubes left could be placed";
    return `Round ${end.round + 1}: ${plural(points, "point")} — ${tower}${how}`.replace(/\.$/, "") + ".";
  });
  const best = Math.max(...view.points.map((round) => round[0] ?? 0));
  const pool = [...view.pool, ...view.pieces.map((p) => p.piece)].sort().join(" ");
  const most = pool !== Object.keys(STANDARD).sort().join(" ") ? "" : view.rounds === 1 ? " (at most 45 points)" : " (at most 45 points a round)";
  const whose = you ? "your" : "the";
  const head = view.rounds === 1 ? `${whose} round${most}` : `the sum of ${whose} ${view.rounds} rounds${most}`;
  const tail = view.rounds > 1 && best > 0 ? `\nThe best round scored ${best}.` : "";
  return `${head}:\n${rounds.join("\n")}${tail}`;
}

/** Why a Kozo game ended, in the rulebook's terms (docs/rules/kozo.md, "Rounds and the end of the game"): the
 * rounds were played, how the last one ended, and the totals (the highest wins; a tie-break named when it decided).
 * A solo game's says what its score was made of, round by round. */
export function kozoEndReason(msg: EndUpdate, name: (seat: number) => string): string | null {
  const view = msg.view as KozoView;
  if (view.to_move !== null) return null; // not ended by the rules (a resignation says so itself)
  const last = view.rounds - 1;
  const ends = view.ends ?? [];
  const players = view.points[0]?.length ?? 0;
  if (players === 1 && ends.length === view.rounds) return soloSummary(msg, view, ends);
  const how = endedHow(ends.find((e) => e.round === last), view.falls.find((f) => f.round === last), view.pool, name);
  const said = view.rounds === 1 ? `after 1 round (it ended ${how})` : `after ${view.rounds} rounds (the last ended ${how})`;
  const totals = view.points.reduce((sum, round) => sum.map((t, seat) => t + (round[seat] ?? 0)), view.points[0]?.map(() => 0) ?? []);
  const scores = msg.scores ?? totals;
  const seats = scores.map((_, seat) => seat);
  let text = `${said}; the highest total wins: ${seats.map((seat) => `${name(seat)} ${scores[seat]}`).join(", ")}`;
  const top = Math.max(...scores);
  const tied = seats.filter((seat) => scores[seat] === top);
  if (tied.length > 1 && msg.winners?.length === 1) {
    // tiebreak "later_turn": of the tied players, the one whose last move in the last round came later; when none of
    // them moved in it (the last round's tower, left as it ended, names its movers), the lowest-numbered
    const moved = tied.some((seat) => view.pieces.some((p) => p.player === seat));
    const rule = moved ? "the later last move in the last round" : "none of them moved in the last round: the first seat of them";
    text += `; ${tied.map(name).join(" and ")} tied at ${top}: ${name(msg.winners[0])} wins the tie-break (${rule})`;
  }
  return text;
}

class KozoModule implements GameModule, GhostActions {
  readonly name = "kozo";
  readonly help =
    "Pick a piece in the tray (or keys 1–9, 0, -, =) and point at the tower: the ghost shows where it comes to rest " +
    "when lowered. Click (or Enter) to put it there, then click one of the outlined spots for its balance cube " +
    "(arrows choose, Enter places, Esc goes back). X Y Z turn the piece, O next orientation, Q E turn the table, " +
    "T top view. Drag to orbit, wheel to zoom.";
  private root!: HTMLElement;
  private ctx!: GameContext;
  private stage!: Stage;
  private tower = new THREE.Group();
  private ghost = new THREE.Group();
  private chimney!: THREE.Mesh;
  private tray!: HTMLElement;
  private info!: HTMLElement;
  private round!: HTMLElement;
  private table!: HTMLElement;
  private falls!: HTMLElement;
  private banner!: HTMLElement;
  private actions!: HTMLElement; // Place, Back, the turns and "Why not here?": for a seat, while the game goes on
  private msg: BoardUpdate | null = null;
  private view: KozoView | null = null;
  private previous: { view: KozoView; ply: number } | null = null;
  private places: Placement[] = [];
  private order: string[] = [];
  private shapes: Record<string, string> = { ...STANDARD };
  private learned = new Set<string>();
  private top = false;
  private shownHeight = 1;
  private selected: string | null = null;
  private shape: string | null = null;
  private step: Step = "piece";
  private choice: Placement | null = null;
  private spot: KozoMove | null = null;
  private pointer: [number, number] | null = null;
  private toppling: { pivot: THREE.Group; axis: THREE.Vector3; start: number; z: number } | null = null;
  private fallUntil = 0; // while a fall is shown, the tower drawn is the one that fell (ms, performance.now)
  private shownFall: KozoFall | null = null; // that fall: the round panel says its round ended, not the next one's turn
  private drawnPieces = 0; // the polycubes on the tower drawn now (for the tests)
  private drawnHeight = 1; // the height of the tower drawn now: the camera and the chimney's marker follow it
  private cube = new THREE.BoxGeometry(1, 1, 1);
  private small = new THREE.BoxGeometry(BALANCE, BALANCE, BALANCE);

  mount(root: HTMLElement, ctx: GameContext): void {
    this.root = root;
    this.ctx = ctx;
    root.classList.add("kozo-root");
    this.stage = new Stage({ className: "stage kozo-stage", fov: 40, sun: { position: [6, -4, 12], intensity: 1.7 }, distance: [4, 30] });
    this.banner = document.createElement("div");
    this.banner.className = "kozo-banner";
    this.banner.setAttribute("data-testid", "fall-banner");
    this.banner.setAttribute("role", "alert");
    this.banner.hidden = true;
    this.banner.addEventListener("click", () => this.endFall());
    this.stage.element.append(this.banner);

    const side = document.createElement("div");
    side.className = "side";
    const div = (testid: string, className: string) => h("div", { "data-testid": testid, class: className });
    this.round = div("kozo-round", "kozo-round");
    this.tray = div("tray", "tray kozo-tray");
    this.info = div("ghost-info", "ghost-info");
    this.table = div("kozo-points", "kozo-points");
    this.falls = div("kozo-falls", "kozo-falls");
    const buttons = this.stage.viewButtons((top) => this.setCamera(top));
    const place = h("button", { "data-testid": "kozo-place" }, "Place (Enter)");
    place.addEventListener("click", () => this.confirm());
    const back = h("button", { "data-testid": "kozo-back" }, "Back (Esc)");
    back.addEventListener("click", () => this.back());
    const why = h("button", { "data-testid": "why-here", title: "the rule that stops the chosen piece, in this orientation, where you point" }, "Why not here?");
    why.addEventListener("click", () => this.whyHere());
    this.actions = h("div", { class: "view-buttons" }, place, back, ghostButtons(this, false), why);
    this.actions.hidden = !ctx.interactive;
    side.append(this.round, buttons, this.info, this.tray, this.actions, this.table, this.falls); // the hint above the tray (as Blokus 3D)
    root.append(this.stage.element, side);

    this.stage.scene.add(this.baseMesh(), this.tower, this.ghost);
    this.chimney = new THREE.Mesh(
      new THREE.BoxGeometry(1, 1, 1),
      new THREE.MeshBasicMaterial({ color: 0xa3001b, transparent: true, opacity: 0.1, depthWrite: false }),
    );
    this.stage.scene.add(this.chimney);
    this.setCamera(false);

    const canvas = this.stage.canvas;
    canvas.addEventListener("pointermove", (e) => this.hover(e));
    this.stage.onClick((e) => {
      if (e.button === 0) this.click(e); // the right button goes back (below)
    });
    canvas.addEventListener("contextmenu", (e) => {
      if (this.step === "balance") {
        e.preventDefault();
        this.back();
      }
    });
    this.publish();
    this.stage.start(() => this.animateFall());
  }

  // ------------------------------------------------------------------ scene

  /** The wooden base: eight ring squares labelled with their x,y, and the chimney, a dark hole to keep clear. */
  private baseMesh(): THREE.Group {
    const group = new THREE.Group();
    const texture = document.createElement("canvas");
    texture.width = texture.height = 384;
    const g = texture.getContext("2d")!;
    g.fillStyle = "#b08a5e";
    g.fillRect(0, 0, 384, 384);
    for (let x = 0; x < 3; x++) {
      for (let y = 0; y < 3; y++) {
        const px = x * 128;
        const py = (2 - y) * 128;
        const chimney = x === 1 && y === 1;
        g.fillStyle = chimney ? "#2a1d14" : "#d9bf98";
        g.fillRect(px + 4, py + 4, 120, 120);
        g.fillStyle = chimney ? "#f0d0d0" : "#6b5237";
        g.font = chimney ? "bold 20px sans-serif" : "bold 30px sans-serif";
        g.textAlign = "center";
        g.fillText(chimney ? "chimney" : `${x},${y}`, px + 64, py + (chimney ? 60 : 74));
        if (chimney) g.fillText("keep clear", px + 64, py + 86);
      }
    }
    const top = new THREE.Mesh(new THREE.PlaneGeometry(3, 3), new THREE.MeshLambertMaterial({ map: new THREE.CanvasTexture(texture) }));
    top.position.set(1.5, 1.5, 0);
    const slab = new THREE.Mesh(new THREE.BoxGeometry(3.3, 3.3, 0.3), new THREE.MeshLambertMaterial({ color: "#8a6a45" }));
    slab.position.set(1.5, 1.5, -0.151);
    group.add(top, slab);
    // compass: x grows to the east, y to the north
    const arrow = (dir: THREE.Vector3, colour: number) => new THREE.ArrowHelper(dir, new THREE.Vector3(-0.45, -0.45, 0.01), 1.1, colour, 0.25, 0.15);
    group.add(arrow(new THREE.Vector3(1, 0, 0), 0xa3001b), arrow(new THREE.Vector3(0, 1, 0), 0x007a3d));
    return group;
  }

  private setCamera(top: boolean): void {
    this.top = top;
    const h = this.height();
    if (top) this.stage.aim([1.5, 1.499, h + 10], [1.5, 1.5, 0]); // a hair south of the axis: north is up on the screen
    else this.stage.aim([6.5, -5, h + 5], [1.5, 1.5, Math.max(0.5, h / 2)]);
  }

  /** Fit the view to the tower drawn (the one that fell, while a fall is shown): the camera and the chimney. */
  private frame(): void {
    this.follow();
    this.chimney.scale.set(0.98, 0.98, this.height() + 2);
    this.chimney.position.set(1.5, 1.5, (this.height() + 2) / 2);
  }

  /** Keep the tower in sight as it grows: aim at its middle, step back if it got taller (the angle is kept). */
  private follow(): void {
    const h = this.height();
    if (h === this.shownHeight) return;
    this.shownHeight = h;
    this.stage.reframe((target, offset) => {
      target.z = this.top ? 0 : Math.max(0.5, h / 2);
      offset.setLength(Math.max(offset.length(), 7 + 1.3 * h));
    });
  }

  private height(): number {
    return this.drawnHeight;
  }

  /** At every display frame: put a fall away after its time, and tip the toppling tower a little further; true while
   * it still moves, and once more for its last pose (the stage draws it: else the tower showed stopped short of where
   * it lands until the board's next idle frame, up to a second later). */
  private animateFall(): boolean {
    if (this.fallUntil && performance.now() > this.fallUntil) this.endFall();
    if (!this.toppling) return false;
    const t = Math.min(1, (performance.now() - this.toppling.start) / 1200);
    this.toppling.pivot.quaternion.setFromAxisAngle(this.toppling.axis, t * t * (Math.PI / 2.6));
    this.toppling.pivot.position.z = this.toppling.z - 0.6 * t * t;
    if (t >= 1) this.toppling = null; // it lies where it fell: this pose is drawn, and the animation is over
    return true;
  }

  // ------------------------------------------------------------------ updates

  endReason(msg: EndUpdate, name: (seat: number) => string): string | null {
    return kozoEndReason(msg, name);
  }

  update(msg: BoardUpdate): void {
    const view = msg.view as KozoView;
    const ply = msg.history.length;
    const before = this.previous && this.previous.ply === ply - 1 ? this.previous.view : null;
    const previousPly = this.previous?.ply ?? null;
    this.msg = msg;
    this.view = view;
    this.previous = { view, ply };
    this.actions.hidden = !this.ctx.interactive || msg.over; // nothing more is placed after the end
    if (!view.pieces.length || !this.order.length) this.order = [...view.pool, ...view.pieces.map((p) => p.piece).filter((p) => !view.pool.includes(p))];
    const keep = this.step === "balance" ? this.choice?.key : null;
    this.places = placements(msg.legal);
    for (const p of [...view.pieces, ...this.places]) this.learn(p.piece, shapeKey(p.cells));
    // a fresh position: keep the piece in hand only if it is still playable, and its placement only if still legal
    if (this.selected && !this.places.some((p) => p.piece === this.selected)) this.selected = null;
    this.choice = keep ? this.places.find((p) => p.key === keep) ?? null : null;
    this.step = this.choice ? "balance" : "piece";
    if (!this.selected) this.shape = null;

    const fall = view.fall;
    const fallNow = fall !== null && msg.last === fall.move;
    if (fallNow && view.to_move === null && fall.round === view.rounds - 1) {
      // the game ended with this fall: the toppled tower is the position, and stays
      this.fallUntil = 0;
      this.shownFall = null;
      this.drawTower({ pieces: view.pieces, balances: view.balance_cubes, moving: new Set(fall.moving), last: parseKozoMove(fall.move) });
      this.showBanner(fall, view.pieces);
    } else if (fallNow && before && before.falls.length === view.falls.length - 1) {
      // mid-game the base is cleared at once: rebuild the tower that fell from the position before the move
      const move = parseKozoMove(fall.move)!;
      const pieces = [...before.pieces, { piece: move.piece, player: fall.player, cells: move.cells }];
      const balances = fall.step === 2 ? [...before.balance_cubes, move.balance] : before.balance_cubes;
      this.fallUntil = performance.now() + FALL_SECONDS * 1000;
      this.shownFall = fall;
      this.drawTower({ pieces, balances, moving: new Set(fall.moving), last: move });
      this.showBanner(fall, pieces);
    } else if (this.fallUntil && "seats" in msg && previousPly !== null && ply >= previousPly && !msg.over) {
      // in a live game a reply came while a fall is shown (a computer answers at once): the fall stays its time
      // (not once the game is over: "round 2 starts on an empty base" would then be wrong, the end is shown at once)
    } else if (fallNow && previousPly === null) {
      // the page opened just after a fall: the tower is gone, but say what happened
      this.fallUntil = performance.now() + FALL_SECONDS * 1000;
      this.shownFall = fall;
      this.drawTower(this.currentPicture());
      this.showBanner(fall, null);
    } else {
      this.fallUntil = 0;
      this.shownFall = null;
      this.banner.hidden = true;
      this.drawTower(this.currentPicture());
    }
    this.frame();
    this.drawRound();
    this.drawPoints();
    this.drawTray();
    this.snap();
  }

  /** Remember a piece's shape for its tray icon: the standard drawing if it is that piece, else as the server sent it. */
  private learn(piece: string, shape: string): void {
    if (this.learned.has(piece)) return;
    this.learned.add(piece);
    const standard = STANDARD[piece];
    if (!standard || !orientations(standard).has(shape)) this.shapes[piece] = shape;
  }

  private currentPicture(): TowerPicture {
    const view = this.view!;
    const last = this.msg?.last ? parseKozoMove(this.msg.last) : null;
    return { pieces: view.pieces, balances: view.balance_cubes, moving: new Set(), last };
  }

  /** Stop showing a fall (after its time, or at the player's first action) and draw the current position. */
  private endFall(redraw = true): void {
    wake();
    const showing = this.fallUntil !== 0;
    this.fallUntil = 0;
    this.shownFall = null;
    if (!showing) return;
    this.toppling = null;
    if (redraw && this.view) {
      this.banner.hidden = true;
      this.drawTower(this.currentPicture()); // the new round's tower: the empty base, or what was played since
      this.frame();
      this.drawRound();
      this.snap();
    }
    this.publish();
  }

  /** The fall's banner; `pieces` (the tower that fell, the falling piece last) tells the points lost. */
  private showBanner(fall: KozoFall, pieces: KozoPiece[] | null): void {
    // the points lost are the mover's pieces placed earlier in that round (the falling one never scored)
    const lost = pieces?.slice(0, -1).filter((p) => p.player === fall.player).reduce((s, p) => s + p.cells.length, 0);
    const who = this.playerName(fall.player);
    const what = fall.step === 1 ? "placing" : "putting the balance cube of";
    this.banner.hidden = false;
    this.banner.replaceChildren();
    const title = document.createElement("b");
    title.textContent = this.fallUntil ? `Round ${fall.round + 1} is over: the tower fell! ` : `The tower fell! `;
    this.banner.append(
      title,
      `${who} made it fall ${what} ${fall.move.split(" ")[0]}: ${fall.explanation}. ` +
        (lost === undefined ? `${who} loses the points of round ${fall.round + 1}.` : `${who} loses ${lost === 1 ? "1 point" : `${lost} points`} of round ${fall.round + 1}.`),
    );
    if (this.fallUntil) {
      const hint = document.createElement("small");
      hint.textContent = ` Round ${fall.round + 2} starts on an empty base (click to go on).`;
      this.banner.append(hint);
    }
  }

  private playerName(player: number): string {
    return playerName(this.msg?.seats, player, this.ctx.seat);
  }

  private material(colour: string, opacity = 1): THREE.MeshLambertMaterial {
    return new THREE.MeshLambertMaterial({
      color: colour,
      transparent: opacity < 1,
      opacity,
      polygonOffset: true, // push the faces back so the outlines drawn on their edges show
      polygonOffsetFactor: 1,
      polygonOffsetUnits: 1,
    });
  }

  /** Empty a group, freeing what its meshes and lines own (the shared cube geometries stay). */
  private clear(group: THREE.Group): void {
    disposeGroup(group, new Set([this.cube, this.small]));
  }

  private drawTower(picture: TowerPicture): void {
    this.clear(this.tower);
    this.toppling = null;
    this.drawnPieces = picture.pieces.length;
    this.drawnHeight = Math.max(1, ...picture.pieces.flatMap((p) => p.cells.map((c) => c[2] + 1)));
    const lastKey = picture.last ? `${picture.last.piece} ${picture.last.cells.map(cellText).join(" ")}` : null;
    const bodies = new Map<string, THREE.Object3D>();
    picture.pieces.forEach((p, i) => {
      const name = `${p.piece} #${i + 1}`;
      const group = new THREE.Group();
      group.name = name;
      const moving = picture.moving.has(name);
      const material = this.material(seatColour(p.player));
      for (const [x, y, z] of p.cells) {
        const mesh = new THREE.Mesh(this.cube, material);
        mesh.position.set(x + 0.5, y + 0.5, z + 0.5);
        group.add(mesh);
      }
      const isLast = lastKey === `${p.piece} ${p.cells.map(cellText).join(" ")}`;
      const outline = new THREE.BufferGeometry();
      outline.setAttribute("position", new THREE.Float32BufferAttribute(outlineSegments(p.cells), 3));
      group.add(new THREE.LineSegments(outline, new THREE.LineBasicMaterial({ color: moving ? 0xd00000 : isLast ? 0xff00ff : 0x1d2330 })));
      bodies.set(name, group);
      this.tower.add(group);
    });
    picture.balances.forEach((b, i) => {
      const name = `balance cube ${i + 1}`;
      const isLast = !!picture.last && cellText(picture.last.balance) === cellText(b) && i === picture.balances.length - 1;
      const mesh = this.balanceMesh(b, picture.moving.has(name) ? 0xd00000 : isLast ? 0xff00ff : 0x1d2330);
      mesh.name = name;
      bodies.set(name, mesh);
      this.tower.add(mesh);
    });
    if (picture.moving.size) this.topple([...picture.moving].map((n) => bodies.get(n)).filter((o): o is THREE.Object3D => !!o));
  }

  private balanceMesh([x, y, z]: Cell, edge: number, opacity = 1): THREE.Group {
    const group = new THREE.Group();
    const mesh = new THREE.Mesh(this.small, this.material(WOOD, opacity));
    const lines = new THREE.LineSegments(new THREE.EdgesGeometry(this.small), new THREE.LineBasicMaterial({ color: edge }));
    group.add(mesh, lines);
    group.position.set(x + 0.5, y + 0.5, z + BALANCE / 2);
    return group;
  }

  /** Tip the bodies that move over the edge they fall from: away from the base's centre, about their outer foot. */
  private topple(objects: THREE.Object3D[]): void {
    if (!objects.length) return;
    this.tower.updateMatrixWorld(true);
    const box = new THREE.Box3();
    for (const o of objects) box.expandByObject(o);
    const centre = box.getCenter(new THREE.Vector3());
    const dir = new THREE.Vector3(centre.x - 1.5, centre.y - 1.5, 0);
    if (dir.length() < 0.1) dir.set(1, 0, 0);
    dir.normalize();
    // the pivot: the bodies' lowest outer edge in that direction
    const reach = Math.max(...[box.min.x, box.max.x].flatMap((x) => [box.min.y, box.max.y].map((y) => (x - centre.x) * dir.x + (y - centre.y) * dir.y)));
    const pivot = new THREE.Group();
    pivot.position.set(centre.x + dir.x * reach, centre.y + dir.y * reach, box.min.z);
    this.tower.add(pivot);
    pivot.updateMatrixWorld(true);
    for (const o of objects) pivot.attach(o);
    this.toppling = { pivot, axis: new THREE.Vector3(-dir.y, dir.x, 0), start: performance.now(), z: box.min.z };
  }

  private drawRound(): void {
    const view = this.view!;
    this.round.replaceChildren();
    const line = (text: string, testid?: string) => {
      const p = document.createElement("div");
      p.textContent = text;
      if (testid) p.setAttribute("data-testid", testid);
      this.round.append(p);
      return p;
    };
    const fall = this.shownFall;
    if (fall) {
      // the tower drawn is the one that fell: its round is over, the next one's turn comes once it is put away
      line(`Round ${fall.round + 1} of ${view.rounds} is over: ${this.playerName(fall.player)} made the tower fall.`);
      line(`Round ${fall.round + 2} starts on an empty base.`, "kozo-next-round");
      return;
    }
    const ended = view.to_move === null; // by the rules (the last round played), else by a resignation
    const over = ended || !!this.msg?.over;
    line(ended ? `Game over after ${view.rounds} round${view.rounds > 1 ? "s" : ""}.` : over ? `Game over in round ${view.round + 1} of ${view.rounds}.` : `Round ${view.round + 1} of ${view.rounds}`);
    const toppled = view.falls.find((f) => f.round === view.round - 1);
    if (toppled && !over) line(`A new tower: round ${view.round} ended when ${this.playerName(toppled.player)} made it fall.`, "kozo-new-round");
    if (!over) {
      const turn = line("", "kozo-turn");
      const tag = document.createElement("span");
      tag.className = "swatch";
      tag.style.cssText = swatchStyle(view.to_move!);
      tag.textContent = String(view.to_move);
      turn.append(tag, ` ${this.playerName(view.to_move!)} to move`);
    }
    if (view.pieces.length && !over) {
      const margin = line(`Tilt margin: ${view.margin_deg.toFixed(1)}°`, "kozo-margin");
      margin.title = "How far the base could be tilted, in the worst direction, before this tower would give way.";
    }
    if (view.required_size !== null) line(`The tile drawn is ${view.required_size}: play a piece of that size.`, "kozo-required");
  }

  /** Each round's points per player; a round someone toppled is marked on their score. */
  private drawPoints(): void {
    const view = this.view!;
    const players = view.points[0]?.length ?? 0;
    const table = document.createElement("table");
    table.className = "scores";
    const head = document.createElement("tr");
    head.innerHTML = "<th>round</th>";
    for (let p = 0; p < players; p++) {
      const th = document.createElement("th");
      th.innerHTML = `<span class="swatch" style="${swatchStyle(p)}">${p}</span>`;
      th.title = this.playerName(p);
      head.append(th);
    }
    table.append(head);
    view.points.forEach((round, r) => {
      const row = document.createElement("tr");
      row.innerHTML = `<td>${r + 1}</td>`;
      round.forEach((points, p) => {
        const td = document.createElement("td");
        const fell = view.falls.some((f) => f.round === r && f.player === p);
        td.textContent = fell ? `${points} ✗` : String(points);
        if (fell) td.title = "made the tower fall: lost this round's points";
        row.append(td);
      });
      table.append(row);
    });
    this.table.replaceChildren(table);
    this.falls.replaceChildren();
    for (const f of view.falls) {
      const item = document.createElement("div");
      item.textContent = `Round ${f.round + 1}: ${this.playerName(f.player)} made the tower fall (${f.step === 1 ? "the polycube" : "the balance cube"} of ${f.move.split(" ")[0]}): ${f.explanation}.`;
      this.falls.append(item);
    }
  }

  private drawTray(): void {
    const view = this.view!;
    this.tray.replaceChildren();
    const mine = this.places.length > 0 && this.ctx.interactive;
    const label = document.createElement("div");
    label.className = "small";
    const solo = this.ctx.playerCount === 1; // one player: nobody shares the pool
    label.textContent = mine ? (solo ? "Your pieces (the round's pool):" : "Your pieces (the round's pool, shared):") : solo ? "The round's pool:" : "The round's pool (shared by everyone):";
    this.tray.append(label);
    const colour = seatColour(view.to_move ?? this.ctx.seat ?? 0);
    for (const piece of this.order) {
      const index = view.pool.indexOf(piece);
      const placed = index < 0;
      const usable = !placed && this.places.some((p) => p.piece === piece);
      const b = document.createElement("button");
      b.setAttribute("data-testid", `piece-${piece}`);
      b.disabled = !usable || !this.ctx.interactive;
      if (placed) b.classList.add("placed");
      if (piece === this.selected) b.classList.add("selected");
      const icon = document.createElement("canvas");
      icon.width = 44;
      icon.height = 36;
      const shape = this.shapes[piece];
      if (shape) drawIcon(icon, shape.split(" ").map((c) => c.split(",").map(Number) as Cell), placed ? "#9aa0aa" : colour);
      const size = shape ? shape.split(" ").length : 0;
      const name = document.createElement("span");
      name.textContent = piece;
      b.append(icon, name);
      const key = index >= 0 && index < KEYS.length ? ` (key ${KEYS[index]})` : "";
      b.title = placed ? `${piece} is on the tower` : `${piece}: ${size} cubes, ${size} points${usable ? key : ""}`;
      b.addEventListener("click", () => this.select(piece));
      this.tray.append(b);
    }
  }

  // ------------------------------------------------------------------ choosing a move

  private select(piece: string | null): void {
    this.endFall();
    if (piece) this.ctx.hint(""); // "pick a piece first" is answered (as in Blokus 3D)
    this.selected = piece;
    this.step = "piece";
    this.choice = null;
    const options = this.places.filter((p) => p.piece === piece);
    this.shape = options.length ? options[0].shape : null;
    this.drawTray();
    this.snap();
  }

  private hover(e: PointerEvent): void {
    this.pointer = [e.clientX, e.clientY];
    this.snap();
  }

  private centre(cells: Cell[]): [number, number, number] {
    const n = cells.length;
    return [0, 1, 2].map((i) => cells.reduce((s, c) => s + c[i] + 0.5, 0) / n) as [number, number, number];
  }

  /** The candidate nearest the pointer on the screen (the first one when the pointer has not been on the board). */
  private nearest<T>(items: T[], at: (item: T) => [number, number, number]): T | null {
    if (!this.pointer) return items[0] ?? null;
    let best: T | null = null;
    let distance = Infinity;
    for (const item of items) {
      const [sx, sy] = this.stage.project(...at(item));
      const d = (sx - this.pointer[0]) ** 2 + (sy - this.pointer[1]) ** 2;
      if (d < distance) {
        distance = d;
        best = item;
      }
    }
    return best;
  }

  /** Step 1: the legal placement of the piece in hand, in this orientation, nearest the pointer. Step 2: the spot. */
  private snap(): void {
    if (this.step === "piece") {
      this.spot = null;
      this.choice = this.nearest(this.orientationPlaces(), (p) => this.centre(p.cells));
    } else if (this.choice) {
      this.spot = this.nearest(this.choice.moves, (m) => [m.balance[0] + 0.5, m.balance[1] + 0.5, m.balance[2] + BALANCE / 2]);
    }
    this.drawGhost();
  }

  private orientationPlaces(): Placement[] {
    return this.places.filter((p) => p.piece === this.selected && p.shape === this.shape);
  }

  private drawGhost(): void {
    this.clear(this.ghost);
    const colour = seatColour(this.view?.to_move ?? this.ctx.seat ?? 0);
    if (this.choice && !this.fallUntil) {
      const opacity = this.step === "balance" ? 0.8 : 0.5;
      const material = this.material(colour, opacity);
      for (const [x, y, z] of this.choice.cells) {
        const mesh = new THREE.Mesh(this.cube, material);
        mesh.position.set(x + 0.5, y + 0.5, z + 0.5);
        this.ghost.add(mesh);
      }
      const outline = new THREE.BufferGeometry();
      outline.setAttribute("position", new THREE.Float32BufferAttribute(outlineSegments(this.choice.cells), 3));
      this.ghost.add(new THREE.LineSegments(outline, new THREE.LineBasicMaterial({ color: 0xd55e00 })));
      this.ghost.add(this.dropLines(this.choice.cells));
      if (this.step === "balance") {
        for (const move of this.choice.moves) {
          const chosen = move === this.spot;
          this.ghost.add(this.balanceMesh(move.balance, chosen ? 0xd55e00 : 0x5b6375, chosen ? 0.95 : 0.25));
        }
      }
      // the ghost's lines show through the tower (x-ray), so a place behind it can still be seen and chosen
      this.ghost.traverse((o) => {
        if (!(o instanceof THREE.LineSegments)) return;
        (o.material as THREE.Material).depthTest = false;
        o.renderOrder = 1;
      });
    }
    this.drawInfo();
    this.publish();
  }

  /** Dashed lines under each column of the ghost down to what it would hang over: the piece is lowered straight down. */
  private dropLines(cells: Cell[]): THREE.LineSegments {
    const tops = new Map<string, number>();
    for (const p of this.view?.pieces ?? []) for (const [x, y, z] of p.cells) tops.set(`${x},${y}`, Math.max(tops.get(`${x},${y}`) ?? 0, z + 1));
    const lowest = new Map<string, Cell>();
    for (const c of cells) {
      const key = `${c[0]},${c[1]}`;
      if (!lowest.has(key) || lowest.get(key)![2] > c[2]) lowest.set(key, c);
    }
    const points: number[] = [];
    for (const [key, [x, y, z]] of lowest) {
      const floor = tops.get(key) ?? 0;
      if (z > floor) points.push(x + 0.5, y + 0.5, z, x + 0.5, y + 0.5, floor);
    }
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute("position", new THREE.Float32BufferAttribute(points, 3));
    const lines = new THREE.LineSegments(geometry, new THREE.LineDashedMaterial({ color: 0xd55e00, dashSize: 0.12, gapSize: 0.08 }));
    lines.computeLineDistances();
    return lines;
  }

  private drawInfo(): void {
    const over = !!this.msg?.over;
    const count = this.orientationPlaces().length;
    let text: string;
    if (!this.ctx.interactive) text = over || this.ctx.replay ? "" : "You are watching.";
    else if (!this.places.length) text = over ? "" : "Waiting for the other player…";
    else if (!this.selected) text = "Your turn: pick a piece from the tray (or a key 1–9, 0, -, =).";
    else if (this.step === "balance" && this.choice)
      text = this.spot
        ? `${this.spot.text} — now the balance cube: ${touchScreen()
          ? `tap a spot (${this.choice.moves.length} here; ◀ ▶ choose), Place places, Back goes back.` // no keys on a phone
          : `click a spot (${this.choice.moves.length} here; arrows choose), Enter places, Esc goes back.`}`
        : "Choose a spot for the balance cube.";
    else if (this.choice)
      text = `${this.choice.key} — rests at level ${Math.min(...this.choice.cells.map((c) => c[2]))}. ${capital(confirmWords())} to put it here (${count} places in this orientation), then place its balance cube.`;
    else text = `${this.selected}: no legal place in this orientation — turn it with ${turnWords()}.`;
    this.info.textContent = text;
  }

  private publish(): void {
    hooks.kozo = {
      selected: this.selected,
      shape: this.shape,
      step: this.step,
      ghost: this.choice?.key ?? null,
      move: this.step === "balance" ? this.spot?.text ?? null : null,
      spots: this.step === "balance" && this.choice ? this.choice.moves.map((m) => m.text) : [],
      falling: this.fallUntil !== 0,
      drawn: this.drawnPieces,
      pool: this.view?.pool ?? [],
      project: (x: number, y: number, z: number) => this.stage.project(x, y, z),
    };
  }

  private click(e: PointerEvent): void {
    this.pointer = [e.clientX, e.clientY]; // a tap points too (a touch screen has no hover), for "look here"
    if (this.fallUntil) {
      this.endFall(); // the first click only puts the fall away, so nothing is placed on a tower not seen
      return;
    }
    if (!this.ctx.interactive) return;
    if (this.msg?.over) return this.ctx.hint("The game is over.");
    if (!this.places.length) return this.ctx.hint("It is not your turn: wait for the other player's move.");
    const before = this.step === "piece" ? this.choice : this.spot;
    this.snap();
    const after = this.step === "piece" ? this.choice : this.spot;
    // a touch has no hover: the first tap shows the ghost, a second tap on the same place confirms it
    if (e.pointerType === "mouse" || before === after) this.confirm();
  }

  /** Enter, a click or the Place button: put the piece where the ghost is, then the balance cube (sends the move). */
  confirm(): void {
    this.endFall();
    if (!this.ctx.interactive || !this.places.length) return;
    if (this.step === "piece") {
      if (!this.selected) return this.ctx.hint("Pick a piece from the tray first (keys 1–9, 0, -, =).");
      if (!this.choice)
        return this.ctx.hint(`${this.selected} has no legal place in this orientation: turn it with ${turnWords()}.`);
      this.ctx.hint("");
      this.step = "balance";
      this.snap();
    } else if (this.spot) {
      this.ctx.sendMove(this.spot.text);
    }
  }

  back(): void {
    if (this.step === "balance") {
      this.step = "piece";
      this.snap();
    } else this.select(null);
  }

  toggleTopView(): void {
    this.setCamera(!this.top);
  }

  /** "Why not here?": the chosen piece in this orientation over the pointed column, lowered onto the polycubes
   * there, with its balance cube on its highest cube; the engine names the first rule it breaks. */
  whyHere(): void {
    const view = this.msg?.view as KozoView | undefined;
    const at = this.target();
    const shape = this.shape ?? (this.selected ? this.shapes[this.selected] : null);
    if (!this.selected || !shape || !view || !at || !this.ctx.why) {
      this.ctx.hint("Pick a piece, point at a column of the tower, then ask why it cannot go there.");
      return;
    }
    const [px, py] = at.split(",").map(Number);
    const placed = lowered(shape, px, py, columnTops(view.pieces.flatMap((p) => p.cells)));
    const high = placed.reduce((a, b) => (b[2] > a[2] ? b : a));
    const text = `${this.selected} ${placed.map(cellText).join(" ")}`;
    if (this.msg?.legal.some((m) => m.startsWith(`${text} + `))) {
      this.ctx.hint(`${text}: the piece can go here — now choose a spot for the balance cube.`);
      return;
    }
    this.ctx.why(`${text} + ${high[0]},${high[1]},${high[2] + 1}`);
  }

  /** "Look here": the column under the pointer, "x,y": of the cube pointed at (the tower seen from the side), else
   * of the base. */
  target(): string | null {
    const at = this.pointer;
    if (!at) return null;
    const hit = this.stage.ray(...at).intersectObjects(this.tower.children, true).find((h) => h.face);
    let cell: string | null;
    if (hit && hit.face) {
      const normal = hit.face.normal.clone().transformDirection(hit.object.matrixWorld);
      cell = `${Math.floor(hit.point.x - normal.x * 0.01)},${Math.floor(hit.point.y - normal.y * 0.01)}`; // inside the cube
    } else cell = this.stage.cellAt(...at);
    const [x, y] = (cell ?? "").split(",").map(Number);
    return cell && x >= 0 && x <= 2 && y >= 0 && y <= 2 ? cell : null;
  }

  /** A marker in the seat's colour over the column pointed at, for four seconds. */
  highlight(at: string, seat: number): void {
    const [x, y] = at.split(",").map(Number);
    const view = this.msg?.view as KozoView | undefined;
    if (!view || !Number.isInteger(x) || !Number.isInteger(y)) return;
    const top = columnTops([...view.pieces.flatMap((p) => p.cells), ...view.balance_cubes]).get(at) ?? 0;
    this.stage.mark(new THREE.Vector3(x + 0.5, y + 0.5, top + 0.6), seatColour(seat));
    pointedAt(at);
  }

  rotate(axis: "x" | "y" | "z"): void {
    if (!this.selected) return;
    this.step = "piece";
    this.shape = rotateShape(this.shape ?? this.shapes[this.selected] ?? "0,0,0", axis);
    this.snap();
  }

  nextOrientation(): void {
    const shape = nextFittingShape(this.places, this.selected, this.shape);
    if (!shape) return;
    this.step = "piece";
    this.shape = shape;
    this.snap();
  }

  /** Arrows: the next place in this orientation (step 1) or the next balance cube spot (step 2). */
  nextPlace(stepBy: number): void {
    const items: (Placement | KozoMove)[] = this.step === "piece" ? this.orientationPlaces() : this.choice?.moves ?? [];
    if (!items.length) return;
    const current = this.step === "piece" ? this.choice : this.spot;
    const i = current ? items.indexOf(current) : -1;
    const chosen = items[(i + stepBy + items.length) % items.length];
    if (this.step === "piece") this.choice = chosen as Placement;
    else this.spot = chosen as KozoMove;
    // keep the choice when the pointer is still: aim the pointer at it
    const cells = this.step === "piece" ? (chosen as Placement).cells : [(chosen as KozoMove).balance];
    this.pointer = this.stage.project(...this.centre(cells));
    this.drawGhost();
  }

  suggest(move: string): void {
    const piece = move.split(" ")[0];
    if (this.places.some((p) => p.piece === piece)) this.select(piece);
  }

  key(event: KeyboardEvent): boolean {
    const k = event.key.toLowerCase();
    if (this.fallUntil && k !== "q" && k !== "e" && k !== "t") this.endFall();
    if (ghostKey(event, this)) return true;
    if (k === "q" || k === "e") this.stage.turnTable(k === "q" ? -1 : 1);
    else if (k === "backspace") this.back();
    else if (this.view && KEYS.includes(event.key) && event.key.length === 1) {
      const piece = this.view.pool[KEYS.indexOf(event.key)];
      if (piece && this.places.some((p) => p.piece === piece)) this.select(piece);
      else if (piece) this.ctx.hint(!this.ctx.interactive ? "You are watching." : this.msg?.over ? "The game is over."
        : this.places.length ? `${piece} has no legal place now.` : "It is not your turn: wait for the other player's move.");
    } else return false;
    return true;
  }

  destroy(): void {
    this.stage.dispose();
    this.root.replaceChildren();
  }
}

registerGame("kozo", () => new KozoModule());
