// Kuzushi as a 2D SVG grid: CITY, BASES and FLAGS differ by shape and letter as well as colour.

import type { BoardUpdate, EndUpdate, GameContext, GameModule } from "../module";
import { registerGame, seatColour, swatchStyle } from "../module";
import { countFrame, pointedAt } from "../hooks";

interface Cell {
  x: number;
  y: number;
  owner: number;
  kind: "city" | "base" | "flag";
}

interface KuzushiView {
  size: number;
  tiles_left: number[];
  cells: Cell[];
  /** "own" when tied teams compare one member's own largest group (the option `team_island`), else absent. */
  team_island?: string;
}

const SVG = "http://www.w3.org/2000/svg";

/** The largest orthogonally connected group of the tiles of `seats` (player 0's CITY with them): the tie-break. */
export function largestGroup(cells: Cell[], seats: number[]): number {
  const mine = new Set(cells.filter((c) => seats.includes(c.owner)).map((c) => `${c.x},${c.y}`));
  const seen = new Set<string>();
  let best = 0;
  for (const start of mine) {
    if (seen.has(start)) continue;
    seen.add(start);
    const stack = [start];
    let size = 0;
    while (stack.length) {
      const [x, y] = stack.pop()!.split(",").map(Number);
      size += 1;
      for (const next of [`${x + 1},${y}`, `${x - 1},${y}`, `${x},${y + 1}`, `${x},${y - 1}`]) {
        if (mine.has(next) && !seen.has(next)) {
          seen.add(next);
          stack.push(next);
        }
      }
    }
    best = Math.max(best, size);
  }
  return best;
}

/** The rules' tie-break, when it decided (docs/rules/kuzushi.md, "Scoring and tie-breaks": the most tiles wins; on a
 * tie, the largest connected group): "tied at 18 tiles, bob has the largest group (18 tiles to 16)"; else null. */
function tieBreak(msg: EndUpdate, view: KuzushiView, name: (seat: number) => string): string | null {
  if (!msg.scores || !msg.winners?.length) return null;
  const teams = msg.teams ?? msg.scores.map((_, seat) => seat);
  const sides = [...new Set(teams)].map((team) => teams.flatMap((t, seat) => (t === team ? [seat] : [])));
  const total = (side: number[]) => side.reduce((sum, seat) => sum + (msg.scores?.[seat] ?? 0), 0);
  const top = Math.max(...sides.map(total));
  const tied = sides.filter((side) => total(side) === top);
  if (tied.length < 2) return null;
  const label = (side: number[]) => (side.length > 1 ? "team " : "") + side.map(name).join(" & ");
  const own = view.team_island === "own";
  const groups = tied.map((side) =>
    own ? Math.max(...side.map((seat) => largestGroup(view.cells, [seat]))) : largestGroup(view.cells, side),
  );
  const won = tied.filter((side) => side.some((seat) => msg.winners?.includes(seat)));
  if (won.length !== 1) return `tied at ${top} tiles and on the largest group (${Math.max(...groups)} tiles)`;
  const mine = groups[tied.indexOf(won[0])];
  const others = groups.filter((_, i) => tied[i] !== won[0]);
  return `tied at ${top} tiles, ${label(won[0])} has the largest group (${mine} tiles to ${others.join(", ")})`;
}
const UNIT = 40;

function el<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

/** The cell's move text: `F x,y` on your own flag when that is legal, else `B x,y`. */
export function kuzushiMoveFor(x: number, y: number, legal: string[]): string {
  const flip = `F ${x},${y}`;
  return legal.includes(flip) ? flip : `B ${x},${y}`;
}

class KuzushiModule implements GameModule {
  readonly name = "kuzushi";
  readonly help = "Click a highlighted cell to place a BASE, click your own FLAG to flip it. Keys: arrows move the cursor, Enter plays.";
  private root!: HTMLElement;
  private ctx!: GameContext;
  private svg!: SVGSVGElement;
  private left!: HTMLElement; // each seat's tiles still in its supply: a supply that runs out ends the game
  private msg: BoardUpdate | null = null;
  private cursor: [number, number] = [0, 0];
  private hovered: [number, number] | null = null;
  private pointed = new Map<string, number>(); // "x,y" -> the seat that points at it ("look here"), for a while

  mount(root: HTMLElement, ctx: GameContext): void {
    this.root = root;
    this.ctx = ctx;
    this.svg = el("svg", { class: "kuzushi-board", "data-testid": "board", role: "grid" });
    const legend = document.createElement("div");
    legend.className = "legend";
    legend.innerHTML =
      '<span><b class="glyph city">C</b> CITY</span><span><b class="glyph base">B</b> BASE</span>' +
      '<span><b class="glyph flag">F</b> FLAG</span><span><b class="glyph playable">·</b> playable</span>' +
      '<span title="every N×N square that still holds all the tiles lies inside this outline"><b class="glyph limit">▭</b> how far the N×N grid can still reach</span>';
    this.left = document.createElement("p");
    this.left.className = "legend";
    this.left.setAttribute("data-testid", "tiles-left");
    root.append(this.svg, legend, this.left);
    this.svg.addEventListener("pointerover", (event) => {
      const cell = (event.target as Element).closest("[data-x]");
      if (cell) this.hovered = [Number(cell.getAttribute("data-x")), Number(cell.getAttribute("data-y"))];
    });
    this.svg.addEventListener("click", (event) => {
      const target = (event.target as Element).closest("[data-x]");
      if (target) this.play(Number(target.getAttribute("data-x")), Number(target.getAttribute("data-y")));
    });
  }

  /** "Look here": the cell under the pointer (else the keyboard cursor's), "x,y". */
  target(): string | null {
    const [x, y] = this.hovered ?? this.cursor;
    return `${x},${y}`;
  }

  /** A ring in the seat's colour round the cell pointed at, for four seconds. */
  highlight(at: string, seat: number): void {
    this.pointed.set(at, seat);
    pointedAt(at);
    if (this.msg) this.draw();
    window.setTimeout(() => {
      if (this.pointed.get(at) === seat) this.pointed.delete(at);
      if (this.msg) this.draw();
    }, 4000);
  }

  private play(x: number, y: number): void {
    this.cursor = [x, y];
    if (!this.msg || !this.ctx.interactive) return;
    if (this.msg.over) {
      this.ctx.hint("The game is over.");
      return;
    }
    this.ctx.sendMove(kuzushiMoveFor(x, y, this.msg.legal));
  }

  update(msg: BoardUpdate): void {
    this.msg = msg;
    this.draw();
  }

  endReason(msg: EndUpdate, name: (seat: number) => string): string | null {
    // the rules' two ends (docs/rules/kuzushi.md): a full grid, or a player with no tile left in their supply
    const view = msg.view as KuzushiView;
    const out = view.tiles_left.flatMap((left, seat) => (left === 0 ? [name(seat)] : []));
    const end = view.cells.length >= view.size * view.size
      ? "the grid is full"
      : out.length ? `${out.join(" and ")} ${out.length > 1 ? "have" : "has"} no tile left` : null;
    const tie = tieBreak(msg, view, name);
    return end && tie ? `${end}; ${tie}` : end ?? tie;
  }

  key(event: KeyboardEvent): boolean {
    if (!this.msg) return false;
    const n = (this.msg.view as KuzushiView).size - 1;
    const [x, y] = this.cursor;
    const moves: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (event.key in moves) {
      const [dx, dy] = moves[event.key];
      this.cursor = [Math.max(-n, Math.min(n, x + dx)), Math.max(-n, Math.min(n, y + dy))];
      this.hovered = null; // the keys point now: "look here" follows the cursor
      this.draw();
      return true;
    }
    if (event.key === "Enter" || event.key === " ") {
      this.play(x, y);
      return true;
    }
    return false;
  }

  private draw(): void {
    const msg = this.msg;
    if (!msg) return;
    const view = msg.view as KuzushiView;
    const n = view.size;
    const r = n - 1;
    const span = 2 * r + 1;
    this.svg.setAttribute("viewBox", `0 0 ${span * UNIT} ${span * UNIT}`);
    this.svg.replaceChildren();
    this.left.innerHTML = "Tiles left: " + view.tiles_left
      .map((left, seat) => `<span data-testid="tiles-left-${seat}"><span class="swatch" style="${swatchStyle(seat)}">${seat}</span> ${left}</span>`)
      .join(" ");
    const at = new Map<string, Cell>();
    let [minX, maxX, minY, maxY] = [0, 0, 0, 0];
    for (const cell of view.cells) {
      at.set(`${cell.x},${cell.y}`, cell);
      minX = Math.min(minX, cell.x);
      maxX = Math.max(maxX, cell.x);
      minY = Math.min(minY, cell.y);
      maxY = Math.max(maxY, cell.y);
    }
    // The cells any tile may still occupy: the N×N squares that hold every tile on the table.
    const lo = [maxX - r, maxY - r];
    const hi = [minX + r, minY + r];
    const playable = new Set(msg.legal.filter((m) => m.startsWith("B ")).map((m) => m.slice(2)));
    const flippable = new Set(msg.legal.filter((m) => m.startsWith("F ")).map((m) => m.slice(2)));
    const last = msg.last ? msg.last.replace(/^[BF] /, "") : null;
    const sx = (x: number) => (x + r) * UNIT;
    const sy = (y: number) => (r - y) * UNIT;
    for (let y = r; y >= -r; y--) {
      for (let x = -r; x <= r; x++) {
        const key = `${x},${y}`;
        const inBounds = x >= lo[0] && x <= hi[0] && y >= lo[1] && y <= hi[1];
        const cell = at.get(key);
        const g = el("g", { "data-testid": `cell-${x}-${y}`, "data-x": x, "data-y": y, class: "cell", role: "gridcell" });
        const label = cell ? `${cell.kind} of player ${cell.owner}` : playable.has(key) ? "playable" : inBounds ? "empty" : "out of bounds";
        g.setAttribute("aria-label", `${key}: ${label}`);
        g.setAttribute("data-kind", cell ? cell.kind : playable.has(key) ? "playable" : "empty");
        if (cell) g.setAttribute("data-owner", String(cell.owner));
        g.append(el("rect", { x: sx(x) + 1, y: sy(y) + 1, width: UNIT - 2, height: UNIT - 2, rx: 3, class: inBounds ? "bg in" : "bg out" }));
        if (cell) this.drawTile(g, cell, sx(x), sy(y));
        else if (playable.has(key)) g.append(el("circle", { cx: sx(x) + UNIT / 2, cy: sy(y) + UNIT / 2, r: 6, class: "playable" }));
        if (flippable.has(key)) g.classList.add("flippable");
        if (last === key) g.append(el("rect", { x: sx(x) + 2, y: sy(y) + 2, width: UNIT - 4, height: UNIT - 4, class: "last", "data-testid": "last-move" }));
        if (this.cursor[0] === x && this.cursor[1] === y) g.append(el("rect", { x: sx(x) + 4, y: sy(y) + 4, width: UNIT - 8, height: UNIT - 8, class: "cursor" }));
        const by = this.pointed.get(key);
        if (by !== undefined) {
          const ring = el("circle", { cx: sx(x) + UNIT / 2, cy: sy(y) + UNIT / 2, r: UNIT / 2 - 2, class: "pointed", "data-testid": `pointed-${x}-${y}` });
          ring.setAttribute("stroke", seatColour(by));
          g.append(ring);
        }
        this.svg.append(g);
      }
    }
    this.svg.append(
      el("rect", {
        x: sx(lo[0]), y: sy(hi[1]), width: (hi[0] - lo[0] + 1) * UNIT, height: (hi[1] - lo[1] + 1) * UNIT,
        class: "limit", "data-testid": "limit",
      }),
    );
    countFrame();
  }

  private drawTile(g: SVGGElement, cell: Cell, px: number, py: number): void {
    const colour = seatColour(cell.owner);
    const c = UNIT / 2;
    if (cell.kind === "city") {
      g.append(el("rect", { x: px + 3, y: py + 3, width: UNIT - 6, height: UNIT - 6, fill: colour, stroke: "#111", "stroke-width": 3 }));
      g.append(el("rect", { x: px + 8, y: py + 8, width: UNIT - 16, height: UNIT - 16, fill: "none", stroke: "#fff", "stroke-width": 2 }));
    } else if (cell.kind === "base") {
      g.append(el("rect", { x: px + 4, y: py + 4, width: UNIT - 8, height: UNIT - 8, rx: 2, fill: colour, stroke: "#222", "stroke-width": 1.5 }));
    } else {
      // a pennant on a pole: a FLAG is a triangle, never a square
      g.append(el("line", { x1: px + 10, y1: py + 6, x2: px + 10, y2: py + UNIT - 5, stroke: "#222", "stroke-width": 2 }));
      g.append(el("polygon", { points: `${px + 11},${py + 6} ${px + UNIT - 5},${py + 14} ${px + 11},${py + 22}`, fill: colour, stroke: "#222", "stroke-width": 1.2 }));
    }
    const letter = cell.kind === "city" ? "C" : cell.kind === "base" ? `B${cell.owner}` : `F${cell.owner}`;
    const text = el("text", { x: px + c + (cell.kind === "flag" ? 4 : 0), y: py + (cell.kind === "flag" ? UNIT - 6 : c + 5), class: `tile-label ${cell.kind}` });
    text.textContent = letter;
    g.append(text);
  }

  destroy(): void {
    this.root.replaceChildren();
  }
}

registerGame("kuzushi", () => new KuzushiModule());
