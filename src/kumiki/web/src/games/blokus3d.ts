// Blokus 3D on a three.js turntable: ghost columns for the height limits, a tray, and a ghost that snaps to legal moves.

import * as THREE from "three";
import type { BoardUpdate, GameContext, GameModule } from "../module";
import { colourName, registerGame, seatColour, swatchStyle } from "../module";
import { hooks, pointedAt } from "../hooks";
import { type Cell, type GhostActions, cellText, columnTops, ghostButtons, ghostKey, lowered, nextFittingShape, rotateShape, shapeKey, turnWords } from "../polycube";
import { Stage } from "../stage";
import { confirmWords } from "../dom";

interface Cube {
  x: number;
  y: number;
  z: number;
  colour: number;
  piece: string;
}

interface BlokusView {
  structure: string;
  limits: number[][];
  cubes: Cube[];
  pieces_left: string[][];
  out: number[];
  colour_to_move: number | null;
}

interface Placement {
  text: string;
  piece: string;
  cells: Cell[];
  shape: string;
}

/** Parse `T4 3,4,0 4,4,0 …` into the piece, its cells and its shape key (cells relative to their minimum corner). */
export function parsePlacement(text: string): Placement {
  const [piece, ...rest] = text.trim().split(/\s+/);
  const cells = rest.map((c) => c.split(",").map(Number) as Cell);
  return { text, piece, cells, shape: shapeKey(cells) };
}

const PIECE_SHAPES: Record<string, string> = {};

class Blokus3DModule implements GameModule, GhostActions {
  readonly name = "blokus3d";
  readonly help =
    "Pick a piece in the tray (or keys 1–9, 0, -), move the pointer over the board: the ghost snaps to legal places. " +
    "Keys: X Y Z rotate, O next orientation, arrows next place, Enter places, T top view, Esc drops the piece.";
  private root!: HTMLElement;
  private ctx!: GameContext;
  private stage!: Stage;
  private pieces = new THREE.Group();
  private ghosts = new THREE.Group();
  private ghost = new THREE.Group();
  private board!: THREE.Mesh;
  private tray!: HTMLElement;
  private info!: HTMLElement;
  private topView!: HTMLCanvasElement;
  private topScores!: HTMLElement;
  private order!: HTMLElement;
  private keys!: HTMLElement; // the ghost's buttons and "Why not here?": for a seat, while the game goes on
  private msg: BoardUpdate | null = null;
  private legal: Placement[] = [];
  private selected: string | null = null;
  private shape: string | null = null;
  private choice: Placement | null = null;
  private pointerCell: [number, number] = [4.5, 4.5];
  private geometry = new THREE.BoxGeometry(0.96, 0.96, 0.96);

  mount(root: HTMLElement, ctx: GameContext): void {
    this.root = root;
    this.ctx = ctx;
    root.classList.add("blokus-root");
    this.stage = new Stage({ className: "stage", fov: 45, sun: { position: [8, -6, 14], intensity: 1.8 }, distance: [6, 40] });
    const side = document.createElement("div");
    side.className = "side";
    this.topView = document.createElement("canvas");
    this.topView.width = this.topView.height = 160;
    this.topView.setAttribute("data-testid", "top-view");
    this.topView.title = "Top view: the colour seen from above in each column — each visible square scores";
    this.topScores = document.createElement("div");
    this.topScores.className = "top-scores";
    this.topScores.setAttribute("data-testid", "top-scores");
    this.order = document.createElement("div");
    this.order.className = "turn-order";
    this.order.setAttribute("data-testid", "turn-order");
    this.info = document.createElement("div");
    this.info.className = "ghost-info";
    this.info.setAttribute("data-testid", "ghost-info");
    this.tray = document.createElement("div");
    this.tray.className = "tray";
    this.tray.setAttribute("data-testid", "tray");
    const buttons = document.createElement("div");
    buttons.className = "view-buttons";
    buttons.innerHTML = '<button data-view="orbit">3D view</button><button data-view="top" data-testid="top-button">Top view (T)</button>';
    buttons.addEventListener("click", (e) => {
      const view = (e.target as HTMLElement).getAttribute("data-view");
      if (view) this.setCamera(view === "top");
    });
    const keys = ghostButtons(this);
    this.keys = keys;
    keys.hidden = !ctx.interactive;
    const whyButton = document.createElement("button");
    whyButton.type = "button";
    whyButton.textContent = "Why not here?";
    whyButton.title = "the rule that stops the chosen piece, in this orientation, where you point";
    whyButton.setAttribute("data-testid", "why-here");
    whyButton.addEventListener("click", () => this.whyHere());
    keys.append(whyButton);
    // the next instruction just above the tray: on a phone it sticks to the bottom of the screen, and a sticky
    // line only ever covers what comes before it, never the pieces to tap
    side.append(this.topView, this.topScores, buttons, this.order, this.info, this.tray, keys);
    root.append(this.stage.element, side);

    this.board = new THREE.Mesh(new THREE.PlaneGeometry(10, 10), new THREE.MeshLambertMaterial({ color: "#c8ccd2" }));
    this.board.position.set(5, 5, 0);
    this.stage.scene.add(this.board);
    const grid = new THREE.GridHelper(10, 10, 0x8890a0, 0x8890a0);
    grid.rotation.x = Math.PI / 2;
    grid.position.set(5, 5, 0.002);
    this.stage.scene.add(grid, this.pieces, this.ghosts, this.ghost);
    this.setCamera(false);

    this.stage.canvas.addEventListener("pointermove", (e) => this.pointer(e));
    this.stage.onClick((e) => {
      const before = this.choice;
      this.pointer(e);
      // a touch has no hover: the first tap shows the ghost, a second tap on the same place plays it
      if (e.pointerType === "mouse" || this.choice === before) this.confirm();
    });
    hooks.blokus = { selected: null, ghost: null, project: (x: number, y: number, z: number) => this.stage.project(x, y, z) };
    this.stage.start();
  }

  private setCamera(top: boolean): void {
    if (top) this.stage.aim([5, 5.001, 22], [5, 5, 0]);
    else this.stage.aim([5, -9, 13], [5, 5, 1]);
  }

  update(msg: BoardUpdate): void {
    this.msg = msg;
    this.keys.hidden = !this.ctx.interactive || msg.over; // nothing more is placed after the end
    const view = msg.view as BlokusView;
    this.legal = msg.legal.map(parsePlacement);
    for (const p of this.legal) PIECE_SHAPES[p.piece] ??= p.shape;
    this.drawCubes(view);
    this.drawLimits(view);
    this.drawTopView(view);
    this.drawScores(view);
    if (this.selected && !this.legal.some((p) => p.piece === this.selected)) this.select(null);
    this.drawTray(view);
    this.snap();
  }

  private material(colour: number, ghost = false): THREE.Material {
    return new THREE.MeshLambertMaterial({
      color: seatColour(colour),
      transparent: ghost,
      opacity: ghost ? 0.55 : 1,
    });
  }

  private drawCubes(view: BlokusView): void {
    this.pieces.clear();
    const last = this.msg?.last ? parsePlacement(this.msg.last) : null;
    const lastCells = new Set(last ? last.cells.map((c) => c.join(",")) : []);
    for (const cube of view.cubes) {
      const mesh = new THREE.Mesh(this.geometry, this.material(cube.colour));
      mesh.position.set(cube.x + 0.5, cube.y + 0.5, cube.z + 0.5);
      this.pieces.add(mesh);
      const edges = new THREE.LineSegments(
        new THREE.EdgesGeometry(this.geometry),
        new THREE.LineBasicMaterial({ color: lastCells.has(`${cube.x},${cube.y},${cube.z}`) ? 0xff00ff : 0x222222 }),
      );
      edges.position.copy(mesh.position);
      this.pieces.add(edges);
    }
  }

  private drawLimits(view: BlokusView): void {
    this.ghosts.clear();
    const material = new THREE.MeshBasicMaterial({ color: 0x3355aa, transparent: true, opacity: 0.08, depthWrite: false });
    const lines = new THREE.LineBasicMaterial({ color: 0x3355aa, transparent: true, opacity: 0.35 });
    for (let x = 0; x < 10; x++) {
      for (let y = 0; y < 10; y++) {
        const h = view.limits[x][y];
        if (!h) continue;
        const box = new THREE.BoxGeometry(1, 1, h);
        const column = new THREE.Mesh(box, material);
        column.position.set(x + 0.5, y + 0.5, h / 2);
        const outline = new THREE.LineSegments(new THREE.EdgesGeometry(box), lines);
        outline.position.copy(column.position);
        this.ghosts.add(column, outline);
      }
    }
  }

  private drawTopView(view: BlokusView): void {
    const g = this.topView.getContext("2d")!;
    const s = this.topView.width / 10;
    g.fillStyle = "#fff";
    g.fillRect(0, 0, this.topView.width, this.topView.height);
    const top = new Map<string, Cube>();
    for (const cube of view.cubes) {
      const key = `${cube.x},${cube.y}`;
      const seen = top.get(key);
      if (!seen || seen.z < cube.z) top.set(key, cube);
    }
    for (let x = 0; x < 10; x++) {
      for (let y = 0; y < 10; y++) {
        const px = x * s;
        const py = (9 - y) * s;
        const cube = top.get(`${x},${y}`);
        g.fillStyle = cube ? seatColour(cube.colour) : view.limits[x][y] ? "#dfe4ec" : "#f7f7f7";
        g.fillRect(px + 1, py + 1, s - 2, s - 2);
        if (cube) {
          g.fillStyle = "#000";
          g.fillRect(px + s * 0.25, py + s * 0.2, s * 0.5, s * 0.6);
          g.fillStyle = "#fff";
          g.font = `${Math.floor(s * 0.5)}px sans-serif`;
          g.textAlign = "center";
          g.fillText(String(cube.z + 1), px + s / 2, py + s * 0.68);
        }
      }
    }
  }

  /** Each colour's score as the top view shows it: columns it tops, minus its pieces not placed. */
  private drawScores(view: BlokusView): void {
    const visible = view.pieces_left.map(() => 0);
    const top = new Map<string, Cube>();
    for (const cube of view.cubes) {
      const seen = top.get(`${cube.x},${cube.y}`);
      if (!seen || seen.z < cube.z) top.set(`${cube.x},${cube.y}`, cube);
    }
    for (const cube of top.values()) visible[cube.colour] += 1;
    this.topScores.replaceChildren(
      ...view.pieces_left.map((left, c) => {
        const line = document.createElement("div");
        line.setAttribute("data-testid", `colour-score-${c}`);
        line.innerHTML = `<span class="swatch" style="${swatchStyle(c)}">${c}</span> ${visible[c]} seen − ${left.length} left = <b>${visible[c] - left.length}</b>`;
        return line;
      }),
    );
    const n = view.pieces_left.length;
    const players = this.ctx.playerCount || n;
    if (n > players) {
      // two colours each (Rumis): a player's score is the better of their colours, never the sum
      const note = document.createElement("div");
      note.className = "small";
      note.setAttribute("data-testid", "better-colour");
      const whose = Array.from({ length: players }, (_, p) =>
        `player ${p}: ${Array.from({ length: n / players }, (_, k) => p + k * players).join(" or ")}`);
      note.textContent = `A player scores the better of their colours (${whose.join("; ")}).`;
      this.topScores.append(note);
    }
    const order = document.createElement("span");
    order.textContent = "Turn order: ";
    this.order.replaceChildren(order);
    for (let k = 0; k < n; k++) {
      const c = ((view.colour_to_move ?? 0) + k) % n;
      const tag = document.createElement("span");
      tag.className = "swatch" + (k === 0 && view.colour_to_move !== null ? " now" : "") + (view.out.includes(c) ? " out" : "");
      tag.style.cssText = swatchStyle(c);
      tag.textContent = view.out.includes(c) ? `${c} out` : String(c);
      tag.title = `colour ${c} (player ${c % (this.ctx.playerCount || n)})`;
      this.order.append(tag, " ");
    }
  }

  private drawTray(view: BlokusView): void {
    this.tray.replaceChildren();
    const colour = view.colour_to_move;
    const mine = this.msg?.legal.length ? colour : null;
    view.pieces_left.forEach((left, c) => {
      const row = document.createElement("div");
      row.className = "tray-row";
      row.setAttribute("data-testid", `tray-colour-${c}`);
      const tag = document.createElement("span");
      tag.className = "swatch";
      tag.style.cssText = swatchStyle(c);
      tag.textContent = `${c}`;
      row.append(tag);
      if (view.out.includes(c)) row.append(" out");
      left.forEach((piece, i) => {
        const b = document.createElement("button");
        b.textContent = piece;
        b.setAttribute("data-testid", `piece-${piece}`.concat(c === mine ? "" : `-c${c}`));
        const usable = c === mine && this.legal.some((p) => p.piece === piece);
        b.disabled = !usable || !this.ctx.interactive;
        b.title = usable ? `pick ${piece} (key ${i < 9 ? i + 1 : i === 9 ? 0 : "-"})` : piece;
        if (piece === this.selected && c === mine) b.classList.add("selected");
        b.addEventListener("click", () => this.select(piece));
        row.append(b);
      });
      this.tray.append(row);
    });
  }

  private select(piece: string | null): void {
    if (piece) this.ctx.hint(""); // "pick a piece first" is answered
    this.selected = piece;
    const options = this.legal.filter((p) => p.piece === piece);
    this.shape = options.length ? options[0].shape : null;
    if (this.msg) this.drawTray(this.msg.view as BlokusView);
    this.snap();
  }

  private pointer(e: PointerEvent): void {
    const hits = this.stage.ray(e.clientX, e.clientY).intersectObjects([this.board, ...this.pieces.children.filter((o) => o instanceof THREE.Mesh)]);
    if (!hits.length) return;
    const p = hits[0].point;
    this.pointerCell = [p.x, p.y];
    this.snap();
  }

  /** Choose, among the legal places of the selected piece in the current orientation, the one nearest the pointer. */
  private snap(): void {
    this.choice = null;
    const [px, py] = this.pointerCell;
    let best = Infinity;
    for (const p of this.legal) {
      if (p.piece !== this.selected || p.shape !== this.shape) continue;
      const cx = p.cells.reduce((s, c) => s + c[0] + 0.5, 0) / p.cells.length;
      const cy = p.cells.reduce((s, c) => s + c[1] + 0.5, 0) / p.cells.length;
      const cz = p.cells.reduce((s, c) => s + c[2], 0) / p.cells.length;
      const d = (cx - px) ** 2 + (cy - py) ** 2 + 0.01 * cz;
      if (d < best) {
        best = d;
        this.choice = p;
      }
    }
    this.drawGhost();
  }

  private drawGhost(): void {
    this.ghost.clear();
    const view = this.msg?.view as BlokusView | undefined;
    const colour = view?.colour_to_move ?? 0;
    if (this.choice) {
      for (const [x, y, z] of this.choice.cells) {
        const mesh = new THREE.Mesh(this.geometry, this.material(colour, true));
        mesh.position.set(x + 0.5, y + 0.5, z + 0.5);
        const edges = new THREE.LineSegments(new THREE.EdgesGeometry(this.geometry), new THREE.LineBasicMaterial({ color: 0xd55e00 }));
        edges.position.copy(mesh.position);
        this.ghost.add(mesh, edges);
      }
    }
    const count = this.legal.filter((p) => p.piece === this.selected && p.shape === this.shape).length;
    this.info.textContent = !this.selected
      ? this.ctx.interactive && this.legal.length ? "Pick a piece from your tray." : ""
      : this.choice
        ? `${this.choice.text} — ${confirmWords()} to place (${count} places in this orientation)`
        : `${this.selected}: no legal place in this orientation — rotate with ${turnWords()}`;
    hooks.blokus = { ...(hooks.blokus as object), selected: this.selected, shape: this.shape, ghost: this.choice?.text ?? null };
  }

  /** Why the game ended (docs/rules/blokus3d.md): every colour is out, none can place another piece. */
  endReason(msg: BoardUpdate): string | null {
    const view = msg.view as BlokusView;
    return view.out.length >= view.pieces_left.length ? "no colour can place another piece" : null;
  }

  /** With two colours each, the colour to place now (the seat alone does not tell it). */
  turnNote(msg: BoardUpdate): string | null {
    const view = msg.view as BlokusView;
    const colour = view.colour_to_move;
    if (colour === null || view.pieces_left.length <= this.ctx.playerCount) return null;
    return `place colour ${colour} (${colourName(colour)})`;
  }

  /** Each move in the colour of its piece: the colour of the cube now at its first cell (cubes are never taken away). */
  moveColours(msg: BoardUpdate): (string | null)[] {
    const view = msg.view as BlokusView;
    const colours = new Map(view.cubes.map((c) => [`${c.x},${c.y},${c.z}`, c.colour]));
    return msg.history.map((move) => {
      const cell = parsePlacement(move).cells[0];
      const colour = cell ? colours.get(cell.join(",")) : undefined;
      return colour === undefined ? null : seatColour(colour);
    });
  }

  /** Enter or a click: place the piece where the ghost is. */
  confirm(): void {
    const why = this.notNow();
    if (why) return this.ctx.hint(why);
    if (!this.choice) return;
    this.ctx.sendMove(this.choice.text);
  }

  /** Why this page cannot place a piece now (a spectator, the game over, another seat to move), or null: said when
   * a key or a click would place one, as the other boards say it (it stayed silent). */
  private notNow(): string | null {
    if (!this.ctx.interactive) return "You are watching.";
    if (this.msg?.over) return "The game is over.";
    return this.legal.length ? null : "It is not your turn: wait for the other player's move.";
  }

  back(): void {
    this.select(null);
  }

  /** "Look here": the column under the pointer, "x,y". */
  target(): string | null {
    const [x, y] = this.pointerCell.map(Math.floor);
    return x >= 0 && x < 10 && y >= 0 && y < 10 ? `${x},${y}` : null;
  }

  /** A marker in the seat's colour over the column pointed at, for four seconds. */
  highlight(at: string, seat: number): void {
    const [x, y] = at.split(",").map(Number);
    const view = this.msg?.view as BlokusView | undefined;
    if (!view || !Number.isInteger(x) || !Number.isInteger(y)) return;
    const top = this.tops(view).get(at) ?? 0;
    this.stage.mark(new THREE.Vector3(x + 0.5, y + 0.5, top + 0.6), seatColour(seat));
    pointedAt(at);
  }

  /** "Why not here?": the chosen piece in this orientation at the pointer, lowered straight down onto the stacks
   * there (the move a player means by "here"), asked of the server, which names the rule it breaks. */
  whyHere(): void {
    const view = this.msg?.view as BlokusView | undefined;
    if (!this.selected || !this.shape || !view || !this.ctx.why) {
      this.ctx.hint("Pick a piece, point at the board, then ask why it cannot go there.");
      return;
    }
    const cells = this.shape.split(" ").map((c) => c.split(",").map(Number)) as Cell[];
    const dx = Math.round(this.pointerCell[0] - cells.reduce((s, c) => s + c[0] + 0.5, 0) / cells.length);
    const dy = Math.round(this.pointerCell[1] - cells.reduce((s, c) => s + c[1] + 0.5, 0) / cells.length);
    this.ctx.why(`${this.selected} ${lowered(this.shape, dx, dy, this.tops(view)).map(cellText).join(" ")}`);
  }

  /** The height of each column of the structure now. */
  private tops(view: BlokusView): Map<string, number> {
    return columnTops(view.cubes.map((c) => [c.x, c.y, c.z] as Cell));
  }

  toggleTopView(): void {
    this.setCamera(this.stage.camera.position.z < 20);
  }

  rotate(axis: "x" | "y" | "z"): void {
    if (!this.shape) {
      const base = this.selected ? PIECE_SHAPES[this.selected] : null;
      if (!base) return;
      this.shape = base;
    }
    this.shape = rotateShape(this.shape, axis);
    this.snap();
  }

  nextOrientation(): void {
    const shape = nextFittingShape(this.legal, this.selected, this.shape);
    if (!shape) return;
    this.shape = shape;
    this.snap();
  }

  nextPlace(step: number): void {
    const places = this.legal.filter((p) => p.piece === this.selected && p.shape === this.shape);
    if (!places.length) return;
    const i = this.choice ? places.indexOf(this.choice) : -1;
    const next = places[(i + step + places.length) % places.length];
    const cx = next.cells.reduce((s, c) => s + c[0] + 0.5, 0) / next.cells.length;
    const cy = next.cells.reduce((s, c) => s + c[1] + 0.5, 0) / next.cells.length;
    this.pointerCell = [cx, cy];
    this.choice = next;
    this.drawGhost();
  }

  suggest(move: string): void {
    const piece = move.split(" ")[0];
    if (this.legal.some((p) => p.piece === piece)) this.select(piece);
  }

  key(event: KeyboardEvent): boolean {
    if (ghostKey(event, this)) return true;
    const view = this.msg?.view as BlokusView | undefined;
    const k = event.key.toLowerCase();
    if (view && view.colour_to_move !== null && "1234567890-".includes(k)) {
      const piece = view.pieces_left[view.colour_to_move]["1234567890-".indexOf(k)];
      if (piece && this.legal.some((p) => p.piece === piece)) this.select(piece);
      else if (this.notNow()) this.ctx.hint(this.notNow() ?? "");
    } else return false;
    return true;
  }

  destroy(): void {
    this.stage.dispose();
    this.root.replaceChildren();
  }
}

registerGame("blokus3d", () => new Blokus3DModule());
