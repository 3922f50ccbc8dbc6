// Small DOM helpers.

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

/** True when a key press belongs to a form field rather than to the board. */
export function typing(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  return !!target && ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/** A player's name for a game's own panels, "(you)" after the viewer's seat (not after the tutorial's seat, named
 * "you": "you (you) made it fall"). */
export function playerName(seats: { seat: number; name: string }[] | undefined, player: number, you: number | null): string {
  const name = seats?.find((s) => s.seat === player)?.name || `player ${player}`;
  return player === you && name !== "you" ? `${name} (you)` : name;
}

export function seatLabel(seat: { seat: number; kind: string; name: string; level?: string }): string {
  if (seat.kind !== "agent") return seat.name;
  return /computer/i.test(seat.name) ? seat.name : `${seat.name} (computer${seat.level ? `, ${seat.level}` : ""})`;
}

/** How a player confirms a placement the ghost shows: a second tap on a touch screen (no hover), else a click or
 * Enter. */
export function confirmWords(): string {
  return typeof matchMedia === "function" && matchMedia("(hover: none)").matches ? "tap it again" : "click or Enter";
}

export function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
