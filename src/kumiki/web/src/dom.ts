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

/** True when Ctrl, Alt or Meta is held: the browser's shortcut (Ctrl+= zooms, Alt+← goes back, Ctrl+K searches), never a
 * game's key (Ctrl+= picked Kozo's piece on "=" and kept the page from zooming; Ctrl+K raised a TowerBrix thumb). */
export function modified(event: KeyboardEvent): boolean {
  return event.ctrlKey || event.metaKey || event.altKey;
}

/** True when Enter or Space presses the focused button or follows the focused link: the browser's own action, which
 * a game's keys must not take over (Enter on a focused "ok", "Hint" or "Top view" placed the chosen piece instead).
 * The chosen piece or axis of a picker (a tray, TowerBrix's axes) is left to the game: pressing it again would pick
 * what is picked already, and Enter after clicking it places, as the help says. */
export function pressing(event: KeyboardEvent): boolean {
  if (event.key !== "Enter" && event.key !== " ") return false;
  const control = (event.target as HTMLElement | null)?.closest?.("button, a[href], summary");
  return !!control && !control.matches(".tray .selected, .towerbrix-axes .selected");
}

/** A player's name for a game's own panels, "(you)" after the viewer's seat (not after the tutorial's seat, named
 * "you": "you (you) made it fall"). */
export function playerName(seats: { seat: number; name: string }[] | undefined, player: number, you: number | null): string {
  let name = seats?.find((s) => s.seat === player)?.name || `player ${player}`;
  if ((seats ?? []).filter((s) => s.name === name).length > 1) name = `${name} (seat ${player})`; // two of one name (two random computers)
  return player === you && name !== "you" ? `${name} (you)` : name;
}

type SeatLike = { seat: number; kind: string; name: string; level?: string };

export function seatLabel(seat: SeatLike): string {
  if (seat.kind !== "agent") return seat.name;
  return /computer/i.test(seat.name) ? seat.name : `${seat.name} (computer${seat.level ? `, ${seat.level}` : ""})`;
}

/** Each seat's label, told apart: seats of one label (two random computers, two players named ann) are named with
 * their seat number too ("random computer (seat 1)"). */
export function seatLabels(seats: SeatLike[]): (seat: number) => string {
  const labels = new Map(seats.map((s) => [s.seat, seatLabel(s)]));
  const counts = new Map<string, number>();
  for (const label of labels.values()) counts.set(label, (counts.get(label) ?? 0) + 1);
  return (seat) => {
    const label = labels.get(seat) ?? `seat ${seat}`;
    return label && (counts.get(label) ?? 0) > 1 ? `${label} (seat ${seat})` : label;
  };
}

/** How a player confirms a placement the ghost shows: a second tap on a touch screen (no hover), else a click or
 * Enter. */
export function confirmWords(): string {
  return touchScreen() ? "tap it again" : "click or Enter";
}

/** Whether the page is on a touch screen with no hover (a phone, a tablet): no keys to point it at. */
export function touchScreen(): boolean {
  return typeof matchMedia === "function" && matchMedia("(hover: none)").matches;
}

export function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
