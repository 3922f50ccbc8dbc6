// Polycube cells and shapes for the 3D games' ghosts: a shape is a piece's cells relative to their minimum corner.

import { touchScreen } from "./dom";

export type Cell = [number, number, number];

/** The cells as a key, relative to their minimum corner and sorted, e.g. "0,0,0 1,0,0 1,1,0". */
export function shapeKey(cells: Cell[]): string {
  const min = [0, 1, 2].map((i) => Math.min(...cells.map((c) => c[i])));
  return cells
    .map((c) => [c[0] - min[0], c[1] - min[1], c[2] - min[2]])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2])
    .map((c) => c.join(","))
    .join(" ");
}

export function shapeCells(shape: string): Cell[] {
  return shape.split(" ").map((c) => c.split(",").map(Number) as Cell);
}

/** Rotate a shape a quarter turn about an axis (right-handed, z up). */
export function rotateShape(shape: string, axis: "x" | "y" | "z"): string {
  const turn: Record<string, (c: Cell) => Cell> = {
    x: ([x, y, z]) => [x, -z, y],
    y: ([x, y, z]) => [z, y, -x],
    z: ([x, y, z]) => [-y, x, z],
  };
  return shapeKey(shapeCells(shape).map(turn[axis]));
}

/** The shapes a piece takes under the 24 rotations of the cube (mirror images excluded). */
export function orientations(shape: string): Set<string> {
  const found = new Set([shapeKey(shapeCells(shape))]);
  const todo = [...found];
  while (todo.length) {
    const next = todo.pop()!;
    for (const axis of ["x", "y", "z"] as const) {
      const turned = rotateShape(next, axis);
      if (!found.has(turned)) {
        found.add(turned);
        todo.push(turned);
      }
    }
  }
  return found;
}

/**
 * The orientation after `shape` among those `piece` has a legal place in (in the order the places are listed),
 * round and round: the O key. Null if the piece has no legal place.
 */
export function nextFittingShape(places: { piece: string; shape: string }[], piece: string | null, shape: string | null): string | null {
  const shapes = [...new Set(places.filter((p) => p.piece === piece).map((p) => p.shape))];
  return shapes.length ? shapes[(shapes.indexOf(shape ?? "") + 1) % shapes.length] : null;
}

/** What the keys do to a piece's ghost: the same in every 3D game. */
export interface GhostActions {
  rotate(axis: "x" | "y" | "z"): void;
  nextOrientation(): void;
  nextPlace(step: number): void;
  toggleTopView(): void;
  confirm(): void;
  back(): void;
}

/** X Y Z turn the piece, O its next orientation that fits, the arrows its next place, T the top view, Enter puts it
 * down, Esc goes back. True if the key was one of these. */
export function ghostKey(event: KeyboardEvent, ghost: GhostActions): boolean {
  const k = event.key.toLowerCase();
  if (k === "x" || k === "y" || k === "z") ghost.rotate(k);
  else if (k === "o") ghost.nextOrientation();
  else if (k === "t") ghost.toggleTopView();
  else if (k === "escape") ghost.back();
  else if (k === "enter") ghost.confirm();
  else if (event.key === "ArrowRight" || event.key === "ArrowUp") ghost.nextPlace(1);
  else if (event.key === "ArrowLeft" || event.key === "ArrowDown") ghost.nextPlace(-1);
  else return false;
  return true;
}

/** How to turn the piece to another orientation: the keys, or on a touch screen (no keys) the buttons below. */
export function turnWords(): string {
  return touchScreen() ? "the ↻ X, ↻ Y, ↻ Z buttons or Next fit" : "X, Y, Z or O";
}

/** The keys as buttons, for phones and touch screens (no keyboard): turn about X, Y, Z, the next orientation that
 * fits, the previous and next place, and Place (unless the game has its own). Each button has `data-testid="ghost-<action>"`. */
export function ghostButtons(ghost: GhostActions, withPlace = true): HTMLElement {
  const box = document.createElement("div");
  box.className = "ghost-buttons";
  box.setAttribute("data-testid", "ghost-buttons");
  const buttons: [string, string, string, () => void][] = [
    ["rotate-x", "↻ X", "turn about x (X)", () => ghost.rotate("x")],
    ["rotate-y", "↻ Y", "turn about y (Y)", () => ghost.rotate("y")],
    ["rotate-z", "↻ Z", "turn about z (Z)", () => ghost.rotate("z")],
    ["next-orientation", "Next fit", "the next orientation that fits somewhere (O)", () => ghost.nextOrientation()],
    ["previous-place", "◀", "the previous place (←)", () => ghost.nextPlace(-1)],
    ["next-place", "▶", "the next place (→)", () => ghost.nextPlace(1)],
    ["confirm", "Place", "put the piece down here (Enter)", () => ghost.confirm()],
  ];
  for (const [name, label, title, act] of buttons) {
    if (name === "confirm" && !withPlace) continue;
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.title = title;
    b.setAttribute("aria-label", title); // "↻ X", "◀": a screen reader reads the title, not the symbol
    b.setAttribute("data-testid", `ghost-${name}`);
    b.addEventListener("click", act);
    box.append(b);
  }
  return box;
}

/** The height of each column ("x,y" -> one above its highest cube) of a stack of cubes. */
export function columnTops(cubes: Iterable<Cell>): Map<string, number> {
  const tops = new Map<string, number>();
  for (const [x, y, z] of cubes) tops.set(`${x},${y}`, Math.max(tops.get(`${x},${y}`) ?? 0, z + 1));
  return tops;
}

/** A shape key's cells moved by (dx, dy) and lowered straight down until some cube rests on the columns `tops`
 * (or the table): where a piece pointed at "here" would come to rest. */
export function lowered(shape: string, dx: number, dy: number, tops: Map<string, number>): Cell[] {
  const cells = shape.split(" ").map((c) => c.split(",").map(Number)) as Cell[];
  let dz = 0;
  for (const [x, y, z] of cells) dz = Math.max(dz, (tops.get(`${x + dx},${y + dy}`) ?? 0) - z);
  return cells.map(([x, y, z]) => [x + dx, y + dy, z + dz] as Cell);
}

/** A cell written as in the games' notation, "x,y,z". */
export function cellText(c: Cell): string {
  return c.join(",");
}

/**
 * The outline of a polycube: the grid edges where its surface bends (a convex or concave crease), as pairs of
 * points for `LineSegments`. Edges between two cubes of one flat face are left out, so each piece reads as one body.
 */
export function outlineSegments(cells: Cell[]): number[] {
  const has = new Set(cells.map(cellText));
  const seen = new Set<string>();
  const points: number[] = [];
  for (const cell of cells) {
    for (const axis of [0, 1, 2]) {
      const [u, v] = axis === 0 ? [1, 2] : axis === 1 ? [0, 2] : [0, 1];
      for (const du of [0, 1]) {
        for (const dv of [0, 1]) {
          const start = [...cell] as Cell;
          start[u] += du;
          start[v] += dv;
          const key = `${axis}:${cellText(start)}`;
          if (seen.has(key)) continue;
          seen.add(key);
          // the four cells around this edge
          const around = [[-1, -1], [-1, 0], [0, -1], [0, 0]].map(([a, b]) => {
            const c = [...start] as Cell;
            c[u] += a;
            c[v] += b;
            return has.has(cellText(c));
          });
          const n = around.filter(Boolean).length;
          if (n === 1 || n === 3 || (n === 2 && around[0] === around[3])) {
            const end = [...start] as Cell;
            end[axis] += 1;
            points.push(...start, ...end);
          }
        }
      }
    }
  }
  return points;
}

/** A small isometric drawing of a polycube on a 2D canvas (the tray's icons). */
export function drawIcon(canvas: HTMLCanvasElement, cells: Cell[], colour: string): void {
  const g = canvas.getContext("2d");
  if (!g) return;
  g.clearRect(0, 0, canvas.width, canvas.height);
  if (!cells.length) return;
  const min = [0, 1, 2].map((i) => Math.min(...cells.map((c) => c[i])));
  const rel = cells.map((c) => c.map((v, i) => v - min[i]) as Cell);
  const project = (x: number, y: number, z: number): [number, number] => [(x - y) * 0.87, (x + y) * 0.5 - z];
  const corners: [number, number][] = [];
  for (const [x, y, z] of rel) for (const dx of [0, 1]) for (const dy of [0, 1]) for (const dz of [0, 1]) corners.push(project(x + dx, y + dy, z + dz));
  const xs = corners.map((p) => p[0]);
  const ys = corners.map((p) => p[1]);
  const scale = Math.min((canvas.width - 4) / (Math.max(...xs) - Math.min(...xs)), (canvas.height - 4) / (Math.max(...ys) - Math.min(...ys)));
  const ox = (canvas.width - (Math.max(...xs) - Math.min(...xs)) * scale) / 2 - Math.min(...xs) * scale;
  const oy = (canvas.height - (Math.max(...ys) - Math.min(...ys)) * scale) / 2 - Math.min(...ys) * scale;
  const face = (points: Cell[], fill: string) => {
    g.beginPath();
    points.forEach(([x, y, z], i) => {
      const [px, py] = project(x, y, z);
      if (i) g.lineTo(ox + px * scale, oy + py * scale);
      else g.moveTo(ox + px * scale, oy + py * scale);
    });
    g.closePath();
    g.fillStyle = fill;
    g.fill();
    g.strokeStyle = "#222";
    g.lineWidth = 1;
    g.stroke();
  };
  // painter's order: the viewer looks from +x +y +z, so draw the far cubes first
  for (const [x, y, z] of [...rel].sort((a, b) => a[0] + a[1] + a[2] - (b[0] + b[1] + b[2]))) {
    face([[x, y, z + 1], [x + 1, y, z + 1], [x + 1, y + 1, z + 1], [x, y + 1, z + 1]], shade(colour, 1.15));
    face([[x + 1, y, z], [x + 1, y + 1, z], [x + 1, y + 1, z + 1], [x + 1, y, z + 1]], shade(colour, 0.85));
    face([[x, y + 1, z], [x + 1, y + 1, z], [x + 1, y + 1, z + 1], [x, y + 1, z + 1]], shade(colour, 0.65));
  }
}

function shade(hex: string, factor: number): string {
  const n = parseInt(hex.slice(1), 16);
  const channel = (shift: number) => Math.max(0, Math.min(255, Math.round(((n >> shift) & 255) * factor)));
  return `rgb(${channel(16)},${channel(8)},${channel(0)})`;
}
