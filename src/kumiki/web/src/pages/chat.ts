// The table's talk: a chat for every game, and quick signals (👍 / no / wait / look here). Lines are shown with
// textContent only (never as HTML). Challenge 3 (Trade Secret) allows gestures only: the text box is switched off.

import type { ChatEntry } from "../api";
import { h } from "../dom";
import { hooks } from "../hooks";

const SIGNALS: [string, string][] = [
  ["yes", "👍"],
  ["no", "✋ no"],
  ["wait", "⏳ wait"],
  ["look", "👀 look here"],
];
const LABEL: Record<string, string> = Object.fromEntries(SIGNALS);

/** One line of the table's talk as the game page and the replay show it: the speaker's name in bold, then the text
 * or the signal's label (and where it points). */
export function chatLine(entry: ChatEntry, name: (seat: number) => string): HTMLElement {
  const who = h("b", {}, `${name(entry.seat)}: `);
  const what = entry.kind === "signal" ? `${LABEL[entry.text] ?? entry.text}${entry.at ? ` (${entry.at})` : ""}` : entry.text;
  return h("li", { class: entry.kind, "data-testid": `chat-${entry.index}` }, who, what);
}

export interface ChatPanel {
  element: HTMLElement;
  /** Entries from the server (the whole chat on connect, then one line at a time). */
  add(entries: ChatEntry[], silent: boolean): void;
  /** Switch free text off (challenge 3) or on. */
  silence(silent: boolean): void;
  /** A refusal of the last line sent (too long, too fast, silence). */
  refused(text: string): void;
  /** How many lines are shown. */
  count(): number;
  /** Whether a line was sent and its answer has not come yet. */
  waiting(): boolean;
}

export function chatPanel(send: (message: unknown) => void, name: (seat: number) => string, canTalk: boolean, target: () => string | null = () => null): ChatPanel {
  const list = h("ol", { class: "chat-list", "data-testid": "chat-list", "aria-live": "polite" });
  const input = h("input", { type: "text", maxlength: "200", placeholder: "Say something…", "data-testid": "chat-input", "aria-label": "chat message" }) as HTMLInputElement;
  const sendButton = h("button", { "data-testid": "chat-send" }, "Send");
  const note = h("p", { class: "small", "data-testid": "chat-note" });
  const error = h("p", { class: "error", "data-testid": "chat-error", role: "alert" });
  const signals = h("div", { class: "signals" }, ...SIGNALS.map(([signal, label]) => h("button", { "data-testid": `signal-${signal}`, title: `signal: ${label}` }, label)));
  const form = h("form", { class: "chat-form" }, input, sendButton);
  const element = h("section", { class: "chat", "data-testid": "chat" }, h("h3", {}, "Table talk"), list, ...(canTalk ? [form, signals] : []), note, error);
  let pending = false;
  let count = 0;
  const shown = new Set<number>();

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    pending = true;
    error.textContent = "";
    send({ type: "chat", text });
    input.value = "";
  });
  signals.querySelectorAll("button").forEach((button, k) =>
    button.addEventListener("click", () => {
      pending = true;
      error.textContent = "";
      const at = SIGNALS[k][0] === "look" ? target() : null; // "look here": at what the player points at on the board
      send(at ? { type: "signal", signal: SIGNALS[k][0], at } : { type: "signal", signal: SIGNALS[k][0] });
    }),
  );

  const silence = (silent: boolean) => {
    input.disabled = silent;
    sendButton.toggleAttribute("disabled", silent);
    note.textContent = silent ? "Challenge 3 (Trade Secret): no talking — only the signals." : "";
  };

  return {
    element,
    silence,
    add(entries, silent) {
      for (const entry of [...entries].sort((a, b) => a.index - b.index)) {
        if (shown.has(entry.index)) continue; // the history fetched on connect and a live line may overlap
        shown.add(entry.index);
        list.append(chatLine(entry, name));
        count += 1;
      }
      list.scrollTop = list.scrollHeight;
      if (entries.length) pending = false;
      silence(silent);
      hooks.chat = count;
    },
    refused(text) {
      pending = false;
      error.textContent = text;
    },
    waiting: () => pending,
    count: () => count,
  };
}
