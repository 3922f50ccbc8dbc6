// TowerBrix on a three.js table: the team's tower of bricks (each labelled with its id, so no colour has to be told
// apart), a half-unit grid, the box's sides as a height guide, the maps of challenges 11 and 14, and a ghost brick
// that shows where a brick comes to rest when lowered (computed here exactly as the engine's `bricks.place` does).
// Every move is checked here against the engine's rules before it is sent. The side panel shows the seat's own cards
// with the thumbs-up helper's ✓/✗, the team, the round, and each evaluation with every card revealed. A finished
// game's table (cleared by the rules after each evaluation) shows the last tower judged, labelled so.

import * as THREE from "three";
import type { BoardUpdate, GameContext, GameModule } from "../module";
import { registerGame, seatColour, swatchStyle } from "../module";
import { capital, confirmWords, h, playerName, touchScreen } from "../dom";
import { hooks, pointedAt } from "../hooks";
import { wake } from "../redraw";
import { Stage, disposeGroup } from "../stage";

type Axis = "x" | "y" | "z";
type Box = [number, number, number, number, number, number];

interface Brick {
  id: string;
  colour: string;
  axis: Axis;
  box: Box;
}

interface CardFace {
  id: string;
  deck: string;
  points: number;
  text: string;
  rule: string;
}

interface Evaluation {
  round: number;
  attempt: number;
  moves: number;
  total: number | null;
  bricks: Brick[];
  cards: { id: string; player: number; points: number; text?: string; holds: boolean }[];
  waived: string | null;
  problems: string[];
  margin_deg: number;
  success: boolean;
  bonus: number;
  points: number;
}

interface TowerBrixView {
  mode: string;
  challenge: number | null;
  deck: string;
  round: number;
  rounds: number;
  attempt: number;
  attempts_used: number;
  total: number | null;
  cards_dealt: number;
  bricks: Brick[];
  hands: (string[] | null)[];
  hand_sizes: number[];
  /** The points on the back of each player's cards (2 or 3), which everyone sees; absent from older servers. */
  hand_points?: number[][];
  oks: number[];
  edits: number;
  to_move: number | null;
  round_points: number[];
  round_success: boolean[];
  score: number;
  evaluations: Evaluation[];
  blind: number | null;
  verdict: string | null;
  challenge_rule?: string;
  /** Challenges 11 and 14: the map laid on the table (kumiki.games.towerbrix.modes.GroundMap.to_json). */
  map?: GroundMap;
  cards?: Record<string, CardFace>;
  holds?: Record<string, boolean>;
  bricks_hidden?: boolean;
  /** Challenges 9 and 13: "vote" when the team picks the card to waive; the votes so far, seat -> "seat.place". */
  waive?: string;
  votes?: Record<string, string>;
}

interface GroundMap {
  name: string;
  area: number[];
  foundations: number[][];
}

/** The web lobby plays TowerBrix with the standard bricks, grid and box (docs/server.md): the geometry is fixed here. */
const SIZE: [number, number, number] = [2, 1, 1]; // long, wide, thick
const GRID = 0.5;
const BOX_SHORT = 6;
const BOX_LONG = 9;
const FAR = 1000;
const TOL = 1e-9;
const BRICK_IDS = ["Y1", "Y2", "P1", "P2", "R1", "R2", "B1", "B2", "G"];
const COLOURS: Record<string, { name: string; fill: string; ink: string }> = {
  Y: { name: "yellow", fill: "#F0E442", ink: "#1d2330" },
  P: { name: "purple", fill: "#8B5AA8", ink: "#ffffff" },
  R: { name: "red", fill: "#C8312B", ink: "#ffffff" },
  B: { name: "blue", fill: "#1F6FC0", ink: "#ffffff" },
  G: { name: "gray", fill: "#9AA0A8", ink: "#1d2330" },
};
const EVALUATION_SECONDS = 8;

/** The box of a brick with its long side along `axis` and its minimum corner at x, y, z (bricks.brick_box). */
export function brickBox(axis: Axis, x: number, y: number, z: number): Box {
  const [long, wide, thick] = SIZE;
  const [dx, dy, dz] = axis === "x" ? [long, wide, thick] : axis === "y" ? [wide, long, thick] : [wide, thick, long];
  return [x, y, z, x + dx, y + dy, z + dz];
}

function overlap(a0: number, a1: number, b0: number, b1: number): number {
  return Math.min(a1, b1) - Math.max(a0, b0);
}

function footprintsOverlap(a: Box, b: Box): boolean {
  return overlap(a[0], a[3], b[0], b[3]) > TOL && overlap(a[1], a[4], b[1], b[4]) > TOL;
}

/** Where a brick comes to rest when lowered straight down (bricks.place): its own old place is ignored. */
export function placeBrick(bricks: Brick[], id: string, axis: Axis, x: number, y: number): Brick {
  const box = brickBox(axis, x, y, 0);
  let z = 0;
  for (const other of bricks) if (other.id !== id && footprintsOverlap(box, other.box)) z = Math.max(z, other.box[5]);
  return { id, colour: COLOURS[id[0]].name, axis, box: brickBox(axis, x, y, z) };
}

/** The two bricks share a face with area > 0 (bricks.touching). */
function touching(p: Box, q: Box): boolean {
  const gaps = [0, 1, 2].map((i) => overlap(p[i], p[i + 3], q[i], q[i + 3]));
  return [0, 1, 2].some((axis) => Math.abs(gaps[axis]) <= TOL && gaps.every((g, i) => i === axis || g > TOL));
}

/** Whether the bricks make one group by shared faces (bricks.connected; an edge or a corner is not enough). */
function allConnected(boxes: Box[]): boolean {
  if (boxes.length < 2) return true;
  const reached = new Set([0]);
  const todo = [0];
  while (todo.length) {
    const i = todo.pop()!;
    boxes.forEach((box, j) => {
      if (!reached.has(j) && touching(boxes[i], box)) {
        reached.add(j);
        todo.push(j);
      }
    });
  }
  return reached.size === boxes.length;
}

function restsOn(a: Box, b: Box): boolean {
  return Math.abs(a[2] - b[5]) <= TOL && footprintsOverlap(a, b);
}

/** The notation of a placement; whole numbers print without a decimal point, as the engine writes them. */
export function placeText(id: string, axis: Axis, x: number, y: number): string {
  return `${id} ${axis} ${x},${y}`;
}

function snap(v: number): number {
  return Math.round(v / GRID) * GRID + 0; // + 0: no "-0"
}

/** A hand's backs in words: " (3 + 2 points)"; nothing where unknown. */
function backs(points: number[] | undefined): string {
  return points && points.length ? ` (${points.join(" + ")} points)` : "";
}

class TowerBrixModule implements GameModule {
  readonly name = "towerbrix";
  readonly help =
    "Pick a brick in the tray (or keys 1–9), choose its axis with X, Y (lying) or Z (standing), and point at the " +
    "table or the tower: the ghost shows where it comes to rest when lowered. Click (or Enter) to place it; the " +
    "arrows move the ghost by half a unit. Pick a brick in the tower and press Delete to take it away. K (or the " +
    "thumbs-up button) says ok. Q E turn the table, T top view; drag to orbit, wheel to zoom.";
  private root!: HTMLElement;
  private ctx!: GameContext;
  private stage!: Stage;
  private tower = new THREE.Group();
  private ghost = new THREE.Group();
  private mapGroup = new THREE.Group();
  private guide!: THREE.Group;
  private guideLabels: THREE.Sprite[] = [];
  private bonusMarks: THREE.Object3D[] = []; // the +1 and +3 heights: no bonus counts in a challenge, so not drawn there
  private framed: [number, number, number] = [1, 1, 1]; // the centre (x, y) and height the camera is aimed at
  private tray!: HTMLElement;
  private info!: HTMLElement;
  private roundBox!: HTMLElement;
  private clockLine: HTMLElement | null = null;
  private clockDeadline: number | null = null; // performance.now() when the build's time runs out
  private clockTimer: number | undefined;
  private cardsBox!: HTMLElement;
  private teamBox!: HTMLElement;
  private evalBox!: HTMLElement;
  private banner!: HTMLElement;
  private lastLabel!: HTMLElement; // over a finished game's table: the tower drawn is the last one judged
  private okButton!: HTMLButtonElement;
  private controls: HTMLElement[] = []; // the axes, ok and take away: for a seat, while the game goes on
  private okArmedUntil = 0; // an ok on an unfinished tower, or with one's own cards ✗, asks once more (see sayOk)
  private removeButton!: HTMLButtonElement;
  private msg: BoardUpdate | null = null;
  private view: TowerBrixView | null = null;
  private selected: string | null = null;
  private axis: Axis = "x";
  private corner: [number, number] | null = null;
  private lastPointer: [number, number] | null = null;
  private pointed: string[] = []; // what seats point at now ("look here"), for a few seconds
  private ghostBrick: Brick | null = null;
  private top = false;
  private shownMap: string | null = null;
  private faces = new Map<string, CardFace>();
  private evaluationsSeen: number | null = null;
  private showingUntil = 0; // while an evaluation is shown, the tower drawn is the one evaluated (performance.now ms)
  private textures = new Map<string, THREE.CanvasTexture>();

  mount(root: HTMLElement, ctx: GameContext): void {
    this.root = root;
    this.ctx = ctx;
    root.classList.add("towerbrix-root");
    this.stage = new Stage({ className: "stage towerbrix-stage", fov: 40, sun: { position: [8, -6, 16], intensity: 1.7 }, distance: [4, 60] });
    this.banner = h("div", { class: "towerbrix-banner", "data-testid": "evaluation-banner", role: "alert", hidden: "" });
    this.banner.addEventListener("click", () => this.endEvaluation());
    this.lastLabel = h("div", { class: "towerbrix-last", "data-testid": "last-tower", hidden: "" });
    this.stage.element.append(this.banner, this.lastLabel);

    this.roundBox = h("div", { class: "towerbrix-round", "data-testid": "towerbrix-round" });
    this.tray = h("div", { class: "tray towerbrix-tray", "data-testid": "tray" });
    this.info = h("div", { class: "ghost-info", "data-testid": "ghost-info" });
    this.cardsBox = h("div", { class: "towerbrix-cards", "data-testid": "my-cards" });
    this.teamBox = h("div", { class: "towerbrix-team", "data-testid": "team" });
    this.evalBox = h("div", { class: "towerbrix-evals", "data-testid": "evaluations" });
    const axes = h("div", { class: "view-buttons towerbrix-axes" });
    for (const axis of ["x", "y", "z"] as Axis[]) {
      const b = h("button", { "data-axis": axis, "data-testid": `axis-${axis}`, title: axis === "z" ? "standing (Z)" : `lying along ${axis} (${axis.toUpperCase()})` }, axis === "z" ? "Z standing" : `${axis.toUpperCase()} lying`);
      b.addEventListener("click", () => this.setAxis(axis));
      axes.append(b);
    }
    this.okButton = h("button", { "data-testid": "ok-button", class: "ok-button", title: "my cards are met: thumbs up (K)" }, "👍 ok (K)");
    this.okButton.addEventListener("click", () => this.sayOk());
    this.removeButton = h("button", { "data-testid": "remove-button", title: "take the chosen brick away (Delete)" }, "Take away (Del)");
    this.removeButton.addEventListener("click", () => this.remove());
    const actions = h("div", { class: "view-buttons" }, this.okButton, this.removeButton);
    this.controls = [axes, actions];
    actions.hidden = axes.hidden = !ctx.interactive;
    const views = this.stage.viewButtons((top) => this.setCamera(top));
    const side = h("div", { class: "side" }, this.roundBox, this.cardsBox, this.info, this.tray, axes, actions, this.teamBox, views, this.evalBox); // the hint above the tray (as Blokus 3D)
    root.append(this.stage.element, side);

    this.stage.scene.add(this.tableMesh(), this.heightGuide(), this.mapGroup, this.tower, this.ghost);
    this.setCamera(false);
    const canvas = this.stage.canvas;
    canvas.addEventListener("pointermove", (e) => {
      this.lastPointer = [e.clientX, e.clientY];
      this.hover(e);
    });
    canvas.addEventListener("pointerleave", () => {
      if (this.selected) this.drawGhost();
    });
    this.stage.onClick((e) => {
      this.lastPointer = [e.clientX, e.clientY]; // a tap points too (a touch screen has no hover)
      if (e.button === 0) this.click(e);
    });
    this.publish();
    this.stage.start(() => {
      if (this.showingUntil && performance.now() > this.showingUntil) this.endEvaluation();
    });
  }

  // ------------------------------------------------------------------ scene

  /** The table with a grid of half units (every whole unit darker) and the x and y arrows at the origin. */
  private tableMesh(): THREE.Group {
    const group = new THREE.Group();
    const table = new THREE.Mesh(new THREE.PlaneGeometry(40, 40), new THREE.MeshLambertMaterial({ color: "#e4d5bb" }));
    table.position.set(3, 3, -0.002);
    table.name = "table";
    group.add(table);
    const lines = (step: number, colour: number, z: number) => {
      const points: number[] = [];
      for (let v = -17; v <= 23 + TOL; v += step) points.push(v, -17, z, v, 23, z, -17, v, z, 23, v, z);
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute("position", new THREE.Float32BufferAttribute(points, 3));
      return new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({ color: colour, transparent: true, opacity: 0.55 }));
    };
    group.add(lines(GRID, 0xc9b793, 0), lines(1, 0x9c8560, 0.001));
    const arrow = (dir: THREE.Vector3, colour: number) => new THREE.ArrowHelper(dir, new THREE.Vector3(0, 0, 0.01), 1.5, colour, 0.3, 0.18);
    group.add(arrow(new THREE.Vector3(1, 0, 0), 0xa3001b), arrow(new THREE.Vector3(0, 1, 0), 0x007a3d));
    group.add(this.label("x", [1.8, -0.2, 0.05], 0.45), this.label("y", [-0.2, 1.8, 0.05], 0.45));
    return group;
  }

  /** The box's two sides stood on end beside the table's origin: a tower taller than one scores +1, than the other +3. */
  private heightGuide(): THREE.Group {
    const group = new THREE.Group();
    const pole = new THREE.Mesh(new THREE.BoxGeometry(0.12, 0.12, BOX_LONG + 0.6), new THREE.MeshLambertMaterial({ color: "#5b6375" }));
    pole.position.set(0, 0, (BOX_LONG + 0.6) / 2);
    group.add(pole);
    // short labels, so they fit beside the pole on a phone's narrow board too (the ticks count the heights)
    for (const [height, text] of [[BOX_SHORT, `+1: taller than ${BOX_SHORT}`], [BOX_LONG, `+3: taller than ${BOX_LONG}`]] as [number, string][]) {
      const ring = new THREE.Mesh(new THREE.BoxGeometry(0.7, 0.7, 0.06), new THREE.MeshLambertMaterial({ color: height === BOX_LONG ? "#D55E00" : "#E69F00" }));
      ring.position.set(0, 0, height);
      const label = this.label(text, [0.45, 0, height], 0.5, false);
      label.center.set(0, 0.5); // to the right of the pole
      this.guideLabels.push(label);
      this.bonusMarks.push(ring, label);
      group.add(ring, label);
    }
    for (let z = 1; z <= BOX_LONG; z++) {
      const tick = new THREE.Mesh(new THREE.BoxGeometry(0.35, 0.04, 0.04), new THREE.MeshBasicMaterial({ color: "#1d2330" }));
      tick.position.set(0.15, 0, z);
      group.add(tick);
    }
    group.name = "height guide";
    this.guide = group;
    return group;
  }

  /** A text label that always faces the camera; `hidden` false: it shows through the bricks. */
  private label(text: string, at: THREE.Vector3Tuple, height: number, hidden = true): THREE.Sprite {
    const canvas = document.createElement("canvas");
    const g = canvas.getContext("2d")!;
    g.font = "bold 40px sans-serif";
    canvas.width = Math.ceil(g.measureText(text).width) + 16;
    canvas.height = 52;
    g.font = "bold 40px sans-serif";
    g.fillStyle = "#ffffffcc";
    g.fillRect(0, 0, canvas.width, canvas.height);
    g.fillStyle = "#1d2330";
    g.textBaseline = "middle";
    g.fillText(text, 8, 27);
    const sprite = new THREE.Sprite(new THREE.SpriteMaterial({ map: new THREE.CanvasTexture(canvas), depthTest: hidden }));
    sprite.scale.set((height * canvas.width) / canvas.height, height, 1);
    sprite.position.set(...at);
    sprite.renderOrder = 2;
    return sprite;
  }

  /** Challenges 11 and 14: the map laid on the table, its land (where bricks may touch the table) and its water. */
  private drawMap(map: GroundMap | undefined): void {
    const key = map ? JSON.stringify(map) : "";
    if (key === this.shownMap) return;
    this.shownMap = key;
    disposeGroup(this.mapGroup);
    if (!map) return;
    const rect = ([x0, y0, x1, y1]: number[], colour: string, z: number) => {
      const mesh = new THREE.Mesh(new THREE.PlaneGeometry(x1 - x0, y1 - y0), new THREE.MeshLambertMaterial({ color: colour }));
      mesh.position.set((x0 + x1) / 2, (y0 + y1) / 2, z);
      return mesh;
    };
    this.mapGroup.add(rect(map.area, map.name === "river" ? "#7fb2d9" : "#8fa86a", 0.003));
    for (const land of map.foundations) this.mapGroup.add(rect(land, "#b9b9b9", 0.005));
    const [x0, y0, x1, y1] = map.area;
    const first = map.foundations[0];
    this.mapGroup.add(this.label(map.name, [(x0 + x1) / 2, y0 - 0.6, 0.05], 0.5), this.label("land", [(first[0] + first[2]) / 2, y1 + 0.6, 0.05], 0.45));
  }

  private setCamera(top: boolean): void {
    this.top = top;
    const [cx, cy, h] = this.framed;
    if (top) this.stage.aim([cx, cy - 0.001, 16 + 1.5 * h], [cx, cy, 0]);
    else this.stage.aim([cx + 12, cy - 11, 8 + h], [cx, cy, Math.max(4, h / 2)]);
  }

  /** Keep the tower (and a challenge's map) in sight as it changes, and the height guide beside it. */
  private follow(bricks: Brick[]): void {
    const boxes = bricks.map((b) => b.box);
    const map = this.view?.map;
    if (map) boxes.push([map.area[0], map.area[1], 0, map.area[2], map.area[3], 0]);
    if (!boxes.length) boxes.push([0, 0, 0, 2, 2, 1]);
    const lo = [0, 1].map((i) => Math.min(...boxes.map((b) => b[i])));
    const hi = [3, 4, 5].map((i) => Math.max(...boxes.map((b) => b[i])));
    this.guide.position.set(lo[0] - 1.5, hi[1] + 1.5, 0); // behind the tower on the left, as the camera first looks
    const framed: [number, number, number] = [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, hi[2]];
    if (framed.every((v, i) => Math.abs(v - this.framed[i]) < 0.75)) return;
    const moved = framed.slice(0, 2).some((v, i) => Math.abs(v - this.framed[i]) >= 0.75);
    this.framed = framed;
    const span = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2]);
    this.stage.reframe((target, offset) => {
      if (moved) target.set(framed[0], framed[1], target.z);
      target.z = this.top ? 0 : Math.max(4, framed[2] / 2);
      offset.setLength(Math.max(offset.length(), 12 + 1.3 * span));
    });
  }

  /** A canvas texture showing a brick's id, for a face `w` by `h` units (so the id is not stretched). */
  private faceTexture(id: string, w: number, h: number): THREE.CanvasTexture {
    const key = `${id} ${w} ${h}`;
    let texture = this.textures.get(key);
    if (texture) return texture;
    const colour = COLOURS[id[0]];
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(64 * w);
    canvas.height = Math.round(64 * h);
    const g = canvas.getContext("2d")!;
    g.fillStyle = colour.fill;
    g.fillRect(0, 0, canvas.width, canvas.height);
    g.strokeStyle = "#00000055";
    g.lineWidth = 4;
    g.strokeRect(2, 2, canvas.width - 4, canvas.height - 4);
    g.fillStyle = colour.ink;
    g.font = "bold 30px sans-serif";
    g.textAlign = "center";
    g.textBaseline = "middle";
    g.fillText(id, canvas.width / 2, canvas.height / 2 + 1);
    texture = new THREE.CanvasTexture(canvas);
    texture.colorSpace = THREE.SRGBColorSpace;
    this.textures.set(key, texture);
    return texture;
  }

  /** A brick's box with its id on every face; `edge` is the outline's colour (magenta: the last brick placed). */
  private brickMesh(brick: Brick, opacity = 1, edge: THREE.ColorRepresentation = 0x1d2330): THREE.Group {
    const [x0, y0, z0, x1, y1, z1] = brick.box;
    const [dx, dy, dz] = [x1 - x0, y1 - y0, z1 - z0];
    const group = new THREE.Group();
    const geometry = new THREE.BoxGeometry(dx, dy, dz);
    // faces in BoxGeometry's order: +x, -x, +y, -y, +z, -z
    const sizes: [number, number][] = [[dy, dz], [dy, dz], [dx, dz], [dx, dz], [dx, dy], [dx, dy]];
    const materials = sizes.map(
      ([w, hh]) =>
        new THREE.MeshLambertMaterial({ map: this.faceTexture(brick.id, w, hh), transparent: opacity < 1, opacity, polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1 }),
    );
    const mesh = new THREE.Mesh(geometry, materials);
    mesh.userData.brick = brick.id;
    const edges = new THREE.LineSegments(new THREE.EdgesGeometry(geometry), new THREE.LineBasicMaterial({ color: edge }));
    group.add(mesh, edges);
    group.position.set((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2);
    group.name = brick.id;
    return group;
  }

  private drawTower(bricks: Brick[], last: string | null): void {
    disposeGroup(this.tower);
    const moved = last && !last.startsWith("-") && last !== "ok" && !last.startsWith("waive") ? last.split(" ")[0] : null;
    // the brick just placed is outlined in the colour of the seat that placed it (magenta when nobody is known)
    const by = last ? this.msg?.movers?.at(-1) : undefined;
    const mark: THREE.ColorRepresentation = by !== undefined && by !== null ? seatColour(by) : 0xff00ff;
    for (const brick of bricks) {
      const group = this.brickMesh(brick, 1, brick.id === this.selected ? 0xd55e00 : brick.id === moved ? mark : 0x1d2330);
      this.tower.add(group);
    }
  }

  // ------------------------------------------------------------------ updates

  update(msg: BoardUpdate): void {
    const view = msg.view as TowerBrixView;
    this.msg = msg;
    this.view = view;
    for (const controls of this.controls) controls.hidden = !this.ctx.interactive || msg.over; // no building after the end
    for (const mark of this.bonusMarks) mark.visible = view.mode !== "challenge"; // the pole's ticks still measure
    this.clockDeadline = msg.clock ? performance.now() + msg.clock.left * 1000 : null;
    for (const [id, face] of Object.entries(view.cards ?? {})) this.faces.set(id, face);
    if (this.selected && !this.canPick(this.selected)) this.selected = null;
    this.drawMap(view.map);
    const evaluations = view.evaluations.length;
    const fresh = this.evaluationsSeen !== null && evaluations > this.evaluationsSeen;
    if (this.evaluationsSeen !== null && evaluations < this.evaluationsSeen) {
      this.showingUntil = 0; // a replay stepped back before the evaluation shown
      this.banner.hidden = true;
    }
    this.evaluationsSeen = evaluations;
    if (fresh) {
      // the table is cleared after an evaluation: keep showing the tower that was judged for a while (at the end of
      // the game, until a click)
      this.showingUntil = msg.over ? Infinity : performance.now() + EVALUATION_SECONDS * 1000;
      this.showEvaluation(view.evaluations[evaluations - 1]);
    } else if (!this.showingUntil) {
      this.drawTower(this.tableBricks(), this.lastJudged() ? null : msg.last);
    }
    this.drawLastLabel();
    this.follow(this.showingUntil ? view.evaluations[evaluations - 1].bricks : this.tableBricks());
    this.drawRound();
    this.drawCards();
    this.drawTeam();
    this.drawEvaluations();
    this.drawTray();
    this.drawGhost();
  }

  private showEvaluation(e: Evaluation): void {
    this.drawTower(e.bricks, null);
    this.banner.hidden = false;
    this.banner.replaceChildren(
      h("b", {}, e.success ? "The tower meets every card! " : "Not this time. "),
      `Round ${e.round}, attempt ${e.attempt}: ${e.cards.filter((c) => c.holds).length} of ${e.cards.length} cards hold` +
        (e.problems.length ? `; ${e.problems.join("; ")}` : "") +
        `. ${e.points} point${e.points === 1 ? "" : "s"}${e.bonus ? ` (bonus ${e.bonus})` : ""}. `,
      h("small", {}, "This is the tower judged (click to go on)."),
    );
  }

  private endEvaluation(): void {
    if (!this.showingUntil) return;
    wake();
    this.showingUntil = 0;
    this.banner.hidden = true;
    if (this.view) this.drawTower(this.tableBricks(), this.lastJudged() ? null : this.msg?.last ?? null);
    this.drawLastLabel();
    this.drawGhost();
  }

  /** A finished game's table is empty (the rules clear it after each evaluation): its last evaluation, whose tower
   * the table shows instead; null while the game goes on, or when a game ended (a resignation) with bricks on it. */
  private lastJudged(): Evaluation | null {
    const v = this.view;
    if (!v || v.bricks.length || !(this.msg?.over || v.to_move === null)) return null; // to_move null: the replay's end
    return v.evaluations.at(-1) ?? null;
  }

  /** The bricks the table shows when no evaluation is being shown: the tower on it, or a finished game's last judged. */
  private tableBricks(): Brick[] {
    return this.lastJudged()?.bricks ?? this.view?.bricks ?? [];
  }

  private drawLastLabel(): void {
    const e = this.lastJudged();
    this.lastLabel.hidden = !e || !!this.showingUntil;
    this.lastLabel.textContent = e
      ? `Last tower judged: round ${e.round}, attempt ${e.attempt} — ${e.success ? "success" : "failed"}, ${e.points} point${e.points === 1 ? "" : "s"}`
      : "";
  }

  private playerName(player: number): string {
    return playerName(this.msg?.seats, player, this.ctx.seat);
  }

  private swatch(player: number): HTMLElement {
    return h("span", { class: "swatch", style: swatchStyle(player) }, String(player));
  }

  private drawRound(): void {
    const v = this.view!;
    const over = v.to_move === null;
    const lines: (string | HTMLElement)[] = [];
    const mode = v.mode === "challenge" ? `Challenge ${v.challenge}` : v.mode === "intro" ? "Intro variant" : v.mode === "solo" ? "Solo game" : "Base game";
    lines.push(h("div", {}, h("b", {}, mode), ` · ${v.deck} deck`));
    if (over) lines.push(h("div", { "data-testid": "towerbrix-final" }, `Game over. Score ${v.score}.`));
    else
      lines.push(
        h("div", { "data-testid": "towerbrix-progress" }, `Round ${v.round} of ${v.rounds} · attempt ${v.attempt}` + (v.total !== null ? ` · cards worth ${v.total}` : ` · ${v.cards_dealt} cards`)),
        h("div", { "data-testid": "towerbrix-edits" }, `Edits this attempt: ${v.edits} · bricks on the table: ${v.bricks_hidden ? "unseen (blind luck)" : v.bricks.length}`),
      );
    lines.push(h("div", { "data-testid": "towerbrix-score" }, `Score: ${v.score}` + (v.round_points.length ? ` (rounds: ${v.round_points.map((p, i) => `${p}${v.round_success[i] ? "" : " ✗"}`).join(", ")})` : "")));
    if (v.verdict) lines.push(h("div", { class: "towerbrix-verdict", "data-testid": "towerbrix-verdict" }, `“${v.verdict}”`));
    if (v.challenge_rule) lines.push(h("div", { class: "small" }, `Challenge rule: ${v.challenge_rule}.`));
    this.clockLine = null;
    if (this.clockDeadline !== null && !over) {
      this.clockLine = h("div", { class: "towerbrix-clock", "data-testid": "towerbrix-clock" });
      lines.push(this.clockLine);
      this.tickClock();
    }
    window.clearInterval(this.clockTimer);
    if (this.clockLine) this.clockTimer = window.setInterval(() => this.tickClock(), 250);
    if (v.bricks_hidden) lines.push(h("div", { class: "small" }, "Blind luck: you do not see the tower and only say ok; your cards must still hold."));
    this.roundBox.replaceChildren(...lines);
  }

  /** Challenge 2: the seconds left for this build (the server plays "time" when they run out). */
  private tickClock(): void {
    if (!this.clockLine || this.clockDeadline === null) return;
    const left = Math.max(0, Math.ceil((this.clockDeadline - performance.now()) / 1000));
    this.clockLine.textContent = `⏱ ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left to build`;
    this.clockLine.classList.toggle("towerbrix-clock-low", left <= 20);
  }

  private drawCards(): void {
    const v = this.view!;
    const seat = this.ctx.seat;
    const box = this.cardsBox;
    box.replaceChildren();
    const faceUp = v.mode === "solo";
    const ids = seat !== null ? v.hands[seat] ?? [] : faceUp ? v.hands.flatMap((hand) => hand ?? []) : [];
    if (seat === null && !faceUp) {
      box.append(h("div", { class: "small" }, `The players' cards are secret (${v.hand_sizes.join(" + ")} cards dealt).`));
      return;
    }
    box.append(h("h3", {}, faceUp ? "The cards (face up)" : "Your cards (secret)"));
    if (!ids.length) box.append(h("div", { class: "small" }, v.to_move === null ? "No cards: the game is over." : "No cards."));
    const list = h("ul", { class: "card-list" });
    for (const id of ids) {
      const face = v.cards?.[id] ?? this.faces.get(id);
      const holds = v.holds?.[id];
      const mark = holds === undefined ? "" : holds ? "✓" : "✗";
      const item = h("li", { "data-testid": `card-${id}`, class: holds === undefined ? "" : holds ? "holds" : "fails" },
        h("span", { class: "mark", "aria-label": holds === undefined ? "" : holds ? "holds" : "does not hold", "data-testid": `holds-${id}` }, mark),
        h("b", {}, ` ${id} `), `(${face?.points ?? "?"}) `, face?.text ?? "");
      if (face) item.title = `rule: ${face.rule}`;
      list.append(item);
    }
    box.append(list);
    if (v.holds && ids.length) {
      const all = ids.every((id) => v.holds![id]);
      // the helper checks the bricks in use: on a tower still missing bricks a ✓ means "so far", and no ok yet
      const unfinished = this.unfinished();
      const summary = unfinished
        ? `${all ? "Your cards hold on the bricks placed so far" : "Not all your cards hold yet"}; the tower is not finished (${unfinished}).`
        : all ? "All your cards hold now: say ok (👍)." : "Not all your cards hold yet.";
      box.append(h("div", { class: "small", "data-testid": "holds-summary" }, summary));
    }
    if ((v.challenge === 9 || v.challenge === 13) && v.waive === "vote") box.append(this.waivePicker(v, seat));
  }

  /** Challenges 9 and 13: the team votes for the one card that need not hold. Each player sees the text of their
   * own cards only; the others' are named face down ("seat 2, card 1"). The card the majority votes for is waived. */
  private waivePicker(v: TowerBrixView, seat: number | null): HTMLElement {
    const box = h("div", { class: "waive", "data-testid": "waive-picker" }, h("h3", {}, "The card to waive (vote)"));
    const votes = v.votes ?? {};
    v.hand_sizes.forEach((size, owner) => {
      for (let k = 1; k <= size; k++) {
        const handle = `${owner}.${k}`;
        const id = owner === seat ? v.hands[owner]?.[k - 1] : undefined;
        const back = v.hand_points?.[owner]?.[k - 1];
        const label = owner === seat ? `one of mine: ${id ?? `card ${k}`}` : `${this.playerName(owner)}'s card ${k} (face down${back ? `, ${back} points` : ""})`;
        const voters = Object.entries(votes).filter(([, h]) => h === handle).map(([voter]) => this.playerName(Number(voter)));
        const button = h("button", { type: "button", "data-testid": `waive-${owner}-${k}`, class: votes[String(seat)] === handle ? "selected" : "" }, label);
        button.disabled = seat === null || !this.ctx.interactive || votes[String(seat)] === handle;
        button.addEventListener("click", () => this.ctx.sendMove(`waive ${handle}`));
        box.append(h("div", {}, button, voters.length ? ` ← ${voters.join(", ")}` : ""));
      }
    });
    box.append(h("div", { class: "small" }, "The card more than half of you vote for is waived; it is shown at the evaluation."));
    return box;
  }

  private drawTeam(): void {
    const v = this.view!;
    const unfinished = this.unfinished();
    const rows = v.hand_sizes.map((size, p) => {
      const ok = v.oks.includes(p);
      // an ok on a tower that cannot pass yet is a pass: that seat waits for the builder, it approves nothing
      const shown = !ok ? "" : unfinished ? "⏳ waiting" : "👍 ok";
      const title = !ok ? "" : unfinished ? "passed: the tower is not finished, so this ok approves nothing yet" : "said ok since the last edit";
      return h("tr", { class: p === v.to_move ? "to-move" : "", "data-testid": `team-${p}` },
        h("td", {}, this.swatch(p)),
        h("td", {}, this.playerName(p) + (p === v.blind ? " (blind)" : "")),
        h("td", { "data-testid": `hand-${p}`, title: "the points on the cards' backs, which everyone sees" }, `${size} card${size === 1 ? "" : "s"}${backs(v.hand_points?.[p])}`),
        h("td", { "data-testid": `ok-${p}`, title }, shown));
    });
    this.teamBox.replaceChildren(h("table", { class: "scores" }, h("tr", {}, h("th", {}), h("th", {}, "team"), h("th", {}, "hand"), h("th", {}, "ok")), ...rows));
  }

  private drawEvaluations(): void {
    const v = this.view!;
    this.evalBox.replaceChildren();
    if (!v.evaluations.length) return;
    this.evalBox.append(h("h3", {}, "Evaluations"));
    [...v.evaluations].reverse().forEach((e, k) => {
      const cards = h("ul", { class: "card-list" });
      for (const c of e.cards) {
        const face = this.faces.get(c.id);
        const waived = e.waived === c.id;
        cards.append(h("li", { class: c.holds ? "holds" : "fails" }, h("span", { class: "mark" }, c.holds ? "✓" : waived ? "–" : "✗"), h("b", {}, ` ${c.id} `),
          `(${c.points}) `, this.swatch(c.player), ` ${c.text ?? face?.text ?? ""}${waived ? " (waived)" : ""}`));
      }
      const item = h("details", { "data-testid": `evaluation-${v.evaluations.length - 1 - k}` },
        h("summary", {}, `${e.success ? "✓" : "✗"} Round ${e.round}, attempt ${e.attempt}: ${e.success ? "success" : "failed"}, ${e.points} point${e.points === 1 ? "" : "s"}`),
        cards,
        ...(e.problems.length ? [h("div", { class: "small" }, `Tower: ${e.problems.join("; ")}.`)] : []),
        h("div", { class: "small" }, `Bonus ${e.bonus} · tilt margin ${e.margin_deg}° · ${e.bricks.length} bricks`));
      if (k === 0) item.open = true;
      this.evalBox.append(item);
    });
  }

  // ------------------------------------------------------------------ choosing a move

  private myTurn(): boolean {
    const msg = this.msg;
    const actors = msg?.actors ?? (msg?.to_move === null || msg?.to_move === undefined ? [] : [msg.to_move]);
    const seat = this.ctx.seat;
    // with free turns every seat is among the actors: anyone may edit at any moment
    return this.ctx.interactive && !!msg && !msg.over && seat !== null && actors.includes(seat) && msg.legal.length > 0;
  }

  private usable(): string[] {
    return BRICK_IDS.filter((id) => id !== "G" || this.view?.deck !== "green");
  }

  private blind(): boolean {
    return this.view !== null && this.view.blind !== null && this.view.blind === this.ctx.seat;
  }

  private canPick(id: string): boolean {
    return this.usable().includes(id) && !this.blind();
  }

  private drawTray(): void {
    const v = this.view!;
    this.tray.replaceChildren(h("div", { class: "small" }, this.ctx.interactive ? "Bricks (keys 1–9):" : "Bricks:"));
    const onTable = new Set(v.bricks.map((b) => b.id));
    this.usable().forEach((id, i) => {
      const colour = COLOURS[id[0]];
      const b = h("button", { "data-testid": `brick-${id}`, title: `${id}: ${colour.name}${onTable.has(id) ? ", in the tower (place it again to move it)" : ""} (key ${i + 1})` },
        h("span", { class: "brick-chip", style: `background:${colour.fill};color:${colour.ink}` }, id));
      if (onTable.has(id)) b.classList.add("placed");
      if (id === this.selected) b.classList.add("selected");
      b.disabled = !this.ctx.interactive || this.blind() || !!this.msg?.over;
      b.addEventListener("click", () => this.select(id === this.selected ? null : id));
      this.tray.append(b);
    });
    for (const b of this.root.querySelectorAll<HTMLButtonElement>("[data-axis]")) b.classList.toggle("selected", b.getAttribute("data-axis") === this.axis);
  }

  select(id: string | null): void {
    this.endEvaluation();
    this.selected = id;
    if (id) {
      const placed = this.view?.bricks.find((b) => b.id === id);
      if (placed) this.axis = placed.axis;
      if (!this.corner) this.corner = this.startCorner(id);
    }
    this.drawTower(this.tableBricks(), this.lastJudged() ? null : this.msg?.last ?? null);
    this.drawTray();
    this.drawGhost();
  }

  /** Where the ghost starts without a pointer: the first place the server lists for a brick of that colour and axis. */
  private startCorner(id: string): [number, number] {
    for (const text of this.msg?.legal ?? []) {
      const [brick, axis, corner] = text.split(" ");
      if (corner && brick[0] === id[0] && axis === this.axis) {
        const [x, y] = corner.split(",").map(Number);
        return [x, y];
      }
    }
    return [0, 0];
  }

  setAxis(axis: Axis): void {
    this.axis = axis;
    this.drawTray();
    this.drawGhost();
  }

  private hover(e: PointerEvent): void {
    if (!this.selected || this.showingUntil) return;
    const corner = this.cornerAt(e.clientX, e.clientY);
    if (corner) {
      this.corner = corner;
      this.drawGhost();
    }
  }

  /** The brick's corner for a pointer: the brick centred on the point of the tower or table under it (beside the
   * face pointed at, when that is a side of a brick), on the grid. */
  private cornerAt(clientX: number, clientY: number): [number, number] | null {
    const ray = this.stage.ray(clientX, clientY);
    const [dx, dy] = brickBox(this.axis, 0, 0, 0).slice(3);
    const meshes: THREE.Object3D[] = [];
    this.tower.traverse((o) => {
      if (o instanceof THREE.Mesh && o.userData.brick && o.userData.brick !== this.selected) meshes.push(o);
    });
    const hit = ray.intersectObjects(meshes, false)[0];
    let cx: number;
    let cy: number;
    if (hit && hit.face) {
      const normal = hit.face.normal.clone().transformDirection(hit.object.matrixWorld);
      cx = hit.point.x + (Math.abs(normal.x) > 0.5 ? Math.sign(normal.x) * dx / 2 : 0);
      cy = hit.point.y + (Math.abs(normal.y) > 0.5 ? Math.sign(normal.y) * dy / 2 : 0);
    } else {
      const point = new THREE.Vector3();
      if (!ray.ray.intersectPlane(new THREE.Plane(new THREE.Vector3(0, 0, 1), 0), point)) return null;
      [cx, cy] = [point.x, point.y];
    }
    return [snap(cx - dx / 2), snap(cy - dy / 2)];
  }

  /** Why the move cannot be played now (the engine's `check`), or null: nothing unchecked is ever sent. */
  private refusal(move: string): string | null {
    const v = this.view;
    if (!v || !this.ctx.interactive) return "You are watching.";
    if (this.msg?.over) return "The game is over.";
    if (!this.myTurn()) return "It is not your turn: wait for the others.";
    if (move === "ok") return null;
    if (this.blind()) return "You are blind in this challenge: you take no part in the building; say ok.";
    const id = move.replace(/^-/, "").split(" ")[0];
    if (!this.usable().includes(id)) return `The gray brick is not used with the ${v.deck} deck.`;
    const placed = v.bricks.find((b) => b.id === id);
    if (move.startsWith("-") && !placed) return `${id} is not in the tower.`;
    if (placed) {
      if (v.challenge === 8) return "Challenge 8: a placed brick stays where it is.";
      const on = v.bricks.filter((b) => b.id !== id && restsOn(b.box, placed.box)).map((b) => b.id);
      if (on.length) return `${id} carries ${on.join(" ")}: take those away first.`;
    }
    if (!move.startsWith("-")) {
      const [x, y] = move.split(" ")[2].split(",").map(Number);
      for (const value of [x, y]) {
        if (Math.abs(value / GRID - Math.round(value / GRID)) > TOL) return `${value} is not on the ${GRID} grid.`;
        if (Math.abs(value) > FAR) return `Corners lie within ${FAR} of the origin.`;
      }
    }
    return null;
  }

  private send(move: string): void {
    const why = this.refusal(move);
    if (why) {
      this.ctx.hint(why);
      return;
    }
    this.ctx.hint("");
    if (move !== "ok" && !move.startsWith("-")) this.corner = null; // the next brick starts from a place the server lists
    this.selected = null;
    this.ctx.sendMove(move);
  }

  private drawGhost(): void {
    disposeGroup(this.ghost);
    this.ghostBrick = null;
    const v = this.view;
    if (v && this.selected && this.corner && !this.showingUntil && this.ctx.interactive) {
      const [x, y] = this.corner;
      const others = v.bricks.filter((b) => b.id !== this.selected);
      const brick = placeBrick(others, this.selected, this.axis, x, y);
      this.ghostBrick = brick;
      this.ghost.add(this.brickMesh(brick, 0.55, 0xd55e00));
      // its shadow on the table: where it is lowered
      const [x0, y0, , x1, y1] = brick.box;
      const shadow = new THREE.Mesh(new THREE.PlaneGeometry(x1 - x0, y1 - y0), new THREE.MeshBasicMaterial({ color: 0xd55e00, transparent: true, opacity: 0.35, depthWrite: false }));
      shadow.position.set((x0 + x1) / 2, (y0 + y1) / 2, 0.01);
      this.ghost.add(shadow);
      this.ghost.traverse((o) => {
        if (o instanceof THREE.LineSegments) {
          (o.material as THREE.Material).depthTest = false; // the ghost's outline shows through the tower
          o.renderOrder = 1;
        }
      });
    }
    this.drawInfo();
    this.publish();
  }

  private ghostMove(): string | null {
    const b = this.ghostBrick;
    return b ? placeText(b.id, b.axis, b.box[0], b.box[1]) : null;
  }

  private drawInfo(): void {
    const v = this.view;
    let text = "";
    const ghost = this.ghostMove();
    this.okButton.disabled = !this.myTurn() || this.thumbUpTogether();
    this.okButton.title = this.thumbUpTogether()
      ? "your thumb is up: it stays up until the tower changes"
      : "my cards are met: thumbs up (K)";
    const placed = !!this.selected && !!v?.bricks.some((b) => b.id === this.selected);
    this.removeButton.disabled = !this.myTurn() || !placed || this.refusal(`-${this.selected}`) !== null;
    if (!v || !this.ctx.interactive) text = this.msg?.over || this.ctx.replay ? "" : "You are watching.";
    else if (this.msg?.over) text = "";
    else if (this.blind()) text = "You cannot see the tower (blind luck): say ok when your turn comes.";
    else if (!this.myTurn()) text = "Waiting for the others…";
    else if (!this.selected) text = `${(this.msg?.actors?.length ?? 1) > 1 ? "Build" : "Your turn"}: pick a brick (tray or keys 1–9), or say ok (K).`;
    else if (ghost && this.ghostBrick) {
      const b = this.ghostBrick;
      const others = v.bricks.filter((o) => o.id !== b.id);
      const touches = others.some((o) => touching(b.box, o.box));
      const why = this.refusal(ghost);
      text =
        `${ghost} — ${placed ? "moves it: " : ""}rests ${b.box[2] > TOL ? `at height ${b.box[2]}` : "on the table"}` +
        (others.length && !touches ? ", touching no other brick" : "") +
        // a phone has no arrows nor Delete: a tap elsewhere moves the ghost, the Take away button removes the brick
        (why ? `. Not playable: ${why}` : `. ${capital(confirmWords())} to place it; ${touchScreen() ? "tap elsewhere to move it" : "arrows nudge it"}.`) +
        (placed ? (touchScreen() ? " Take away removes it." : " Delete takes it away.") : "");
    }
    this.info.textContent = text;
  }

  private publish(): void {
    hooks.towerbrix = {
      selected: this.selected,
      axis: this.axis,
      ghost: this.ghostMove(),
      pointed: [...this.pointed],
      bricks: this.view?.bricks.map((b) => b.id) ?? [],
      drawn: this.tower.children.map((o) => o.name), // the bricks drawn on the table (a judged tower's too)
      judged: this.lastJudged() !== null, // a finished game's table shows its last judged tower
      showing: this.showingUntil !== 0,
      project: (x: number, y: number, z: number) => this.stage.project(x, y, z),
      guideLabels: () => this.guideLabelSpans(),
    };
  }

  /** Where the height guide's labels are on the screen: each one's left and right end (page x). */
  private guideLabelSpans(): [number, number][] {
    const right = new THREE.Vector3(1, 0, 0).applyQuaternion(this.stage.camera.quaternion); // sprites face the camera
    return this.guideLabels.filter((label) => label.visible).map((label) => {
      const left = label.getWorldPosition(new THREE.Vector3());
      const end = left.clone().addScaledVector(right, label.scale.x);
      return [this.stage.project(left.x, left.y, left.z)[0], this.stage.project(end.x, end.y, end.z)[0]];
    });
  }

  /** "Look here": the brick under the pointer, else the point of the table under it (x,y on the half grid). */
  target(): string | null {
    if (!this.lastPointer) return null;
    const ray = this.stage.ray(...this.lastPointer);
    const meshes: THREE.Object3D[] = [];
    this.tower.traverse((o) => o instanceof THREE.Mesh && o.userData.brick && meshes.push(o));
    const hit = ray.intersectObjects(meshes, false)[0];
    if (hit) return String(hit.object.userData.brick);
    const table = new THREE.Vector3();
    if (!ray.ray.intersectPlane(new THREE.Plane(new THREE.Vector3(0, 0, 1), 0), table)) return null;
    const half = (v: number) => String(Math.round(v * 2) / 2);
    return `${half(table.x)},${half(table.y)}`;
  }

  /** A marker in the seat's colour over the brick or the point pointed at, for four seconds. */
  highlight(at: string, seat: number): void {
    let position: THREE.Vector3 | null = null;
    const brick = this.tower.getObjectByName(at);
    if (brick) {
      const box = new THREE.Box3().setFromObject(brick);
      position = new THREE.Vector3((box.min.x + box.max.x) / 2, (box.min.y + box.max.y) / 2, box.max.z + 0.6);
    } else {
      const [x, y] = at.split(",").map(Number);
      if (Number.isFinite(x) && Number.isFinite(y)) position = new THREE.Vector3(x, y, 0.6);
    }
    if (!position) return;
    this.stage.mark(position, seatColour(seat));
    pointedAt(at);
    this.pointed.push(at);
    this.publish();
    window.setTimeout(() => {
      this.pointed.splice(this.pointed.indexOf(at), 1);
      this.publish();
    }, 4000);
  }

  private click(e: PointerEvent): void {
    if (this.showingUntil) return this.endEvaluation(); // the first click puts the judged tower away
    if (!this.ctx.interactive) return;
    if (!this.selected) {
      // a click on a brick of the tower picks it (to move or take it away)
      const meshes: THREE.Object3D[] = [];
      this.tower.traverse((o) => o instanceof THREE.Mesh && o.userData.brick && meshes.push(o));
      const hit = this.stage.ray(e.clientX, e.clientY).intersectObjects(meshes, false)[0];
      if (hit && this.canPick(hit.object.userData.brick)) this.select(hit.object.userData.brick);
      else this.ctx.hint(this.myTurn() ? "Pick a brick first (tray or keys 1–9)." : "It is not your turn.");
      return;
    }
    const corner = this.cornerAt(e.clientX, e.clientY);
    const moved = !!corner && (!this.corner || corner[0] !== this.corner[0] || corner[1] !== this.corner[1]);
    if (corner) this.corner = corner;
    this.drawGhost();
    // a touch has no hover: the first tap shows the ghost there, a second tap on the same place places it
    if (e.pointerType === "mouse" || !moved) this.confirm();
  }

  confirm(): void {
    const move = this.ghostMove();
    if (!move) return this.ctx.hint(this.selected ? "Point at the table or the tower." : "Pick a brick first (tray or keys 1–9).");
    this.send(move);
  }

  remove(): void {
    if (!this.selected) return this.ctx.hint("Pick a brick of the tower first (click it, or its key).");
    this.send(`-${this.selected}`);
  }

  /** Why the tower on the table cannot pass the deck's brick rule yet (null when it may): an ok on it ends the
   * build for nothing, and a teammate's ok on it is a pass (it waits for the builder), not approval. */
  private unfinished(): string | null {
    const v = this.view;
    if (!v || v.bricks_hidden) return null;
    const usable = this.usable();
    if (v.deck === "green") {
      const placed = usable.filter((id) => v.bricks.some((b) => b.id === id)).length;
      if (placed < usable.length) return `the green deck uses all eight coloured bricks (${placed} on the table)`;
    }
    if (v.deck === "pink") {
      const colours = new Set(v.bricks.map((b) => b.colour));
      const missing = [...new Set(usable.map((id) => COLOURS[id[0]].name))].filter((c) => !colours.has(c));
      if (missing.length) return `the pink deck needs a brick of every colour (no ${missing.join(", ")} yet)`;
    }
    return allConnected(v.bricks.map((b) => b.box)) ? null : "the bricks are not all connected";
  }

  /** The seat's own cards the helper marks ✗ on the tower now. */
  private failingCards(): string[] {
    const v = this.view;
    const seat = this.ctx.seat;
    if (!v?.holds || seat === null) return [];
    return (v.hands[seat] ?? []).filter((id) => v.holds?.[id] === false);
  }

  /** Everyone builds at once and this seat's thumb is up: another ok would change nothing (the server refuses it;
   * under the cycle an ok with the thumb up passes the turn). */
  private thumbUpTogether(): boolean {
    const seat = this.ctx.seat;
    return (this.msg?.actors?.length ?? 1) > 1 && seat !== null && !!this.view?.oks.includes(seat);
  }

  sayOk(): void {
    // a spectator, a seat out of turn or a finished game is told so, not asked to press again to end the build
    const refused = this.refusal("ok");
    if (refused) return this.ctx.hint(refused);
    if (this.thumbUpTogether()) {
      this.ctx.hint("Your thumb is already up: it stays up until someone changes the tower.");
      return;
    }
    const why = this.unfinished();
    const failing = why ? [] : this.failingCards();
    // a player may be wrong on purpose (an ok is allowed whether or not the cards hold): asked, not refused
    const warning = why
      ? `The tower cannot pass yet: ${why}. Press ok again to end the build anyway — it ends once everyone has said ok.`
      : failing.length
        ? `Your cards do not all hold (✗ ${failing.join(" ")}). Press ok again to give your thumbs-up anyway.`
        : null;
    if (warning && !(this.okArmedUntil > performance.now())) {
      this.okArmedUntil = performance.now() + 10_000; // a second ok within ten seconds is meant
      this.ctx.hint(warning);
      return;
    }
    this.okArmedUntil = 0;
    this.send("ok");
  }

  private nudge(dx: number, dy: number): void {
    if (!this.selected) return;
    const [x, y] = this.corner ?? this.startCorner(this.selected);
    this.corner = [x + dx * GRID, y + dy * GRID];
    this.drawGhost();
  }

  /** A hint's edit: its brick picked, and where it places it the ghost there (a removal picks the brick to take). */
  suggest(move: string): void {
    const [brick, axis, corner] = move.replace(/^-/, "").split(" ");
    if (!brick || brick === "ok" || !this.ctx.interactive || !this.canPick(brick)) return;
    this.select(brick);
    if ((axis === "x" || axis === "y" || axis === "z") && corner) {
      const [x, y] = corner.split(",").map(Number);
      if (Number.isFinite(x) && Number.isFinite(y)) this.corner = [x, y];
      this.setAxis(axis);
    }
  }

  key(event: KeyboardEvent): boolean {
    const k = event.key.toLowerCase();
    if (this.showingUntil && !["q", "e", "t"].includes(k)) this.endEvaluation();
    const digit = Number(event.key);
    if (event.key.length === 1 && digit >= 1 && digit <= 9) {
      const id = this.usable()[digit - 1];
      if (id && this.ctx.interactive && this.canPick(id)) this.select(id);
    } else if (k === "x" || k === "y" || k === "z") this.setAxis(k);
    else if (k === "k") this.sayOk();
    else if (k === "enter") this.confirm();
    else if (k === "delete" || k === "backspace") this.remove();
    else if (k === "escape") this.select(null);
    else if (k === "t") this.setCamera(!this.top);
    else if (k === "q" || k === "e") this.stage.turnTable(k === "q" ? -1 : 1);
    else if (event.key === "ArrowRight") this.nudge(1, 0);
    else if (event.key === "ArrowLeft") this.nudge(-1, 0);
    else if (event.key === "ArrowUp") this.nudge(0, 1);
    else if (event.key === "ArrowDown") this.nudge(0, -1);
    else return false;
    return true;
  }

  destroy(): void {
    window.clearInterval(this.clockTimer);
    this.stage.dispose();
    for (const texture of this.textures.values()) texture.dispose();
    this.root.replaceChildren();
  }
}

registerGame("towerbrix", () => new TowerBrixModule());
