// The lobby's open tables: games with a seat anyone may take. Taking one gives you that seat's own link.

import { api, postJson, type OpenTable } from "../api";
import { h, seatLabels } from "../dom";
import { NAME_KEY } from "./newgame";

/** Fill `box` with the open tables (of one game, or of all; each named by its title in `titles`) and a name field;
 * refreshes every 10 s. */
export function openTables(box: HTMLElement, error: HTMLElement, game?: string, titles: Record<string, string> = {}): void {
  const list = h("ul", { "data-testid": "open-tables" });
  const name = h("input", { "data-testid": "join-name", "aria-label": "your name", value: localStorage.getItem(NAME_KEY) ?? "", placeholder: "your name" });
  box.replaceChildren(h("h2", {}, "Open tables"), h("p", { class: "small" }, "Games waiting for players: take a free seat. Your name: ", name), list);
  const load = async () => {
    try {
      const { tables } = await api<{ tables: OpenTable[] }>(`/api/tables${game ? `?game=${encodeURIComponent(game)}` : ""}`);
      list.replaceChildren();
      if (!tables.length) list.append(h("li", {}, "No open table now. Make a game with an open seat and it shows here."));
      for (const t of tables) {
        const label = seatLabels(t.seats);
        const who = t.seats.map((s) => (s.kind === "open" ? "(free)" : label(s.seat))).join(", ");
        const buttons = t.free.map((seat) => {
          const b = h("button", { type: "button", "data-testid": `join-${t.id}-${seat}` }, `Take seat ${seat}`);
          b.addEventListener("click", async () => {
            error.textContent = "";
            const chosen = name.value.trim() || `player ${seat + 1}`;
            try {
              const joined = await postJson<{ invite: string }>(`/api/games/${encodeURIComponent(t.id)}/join`, { seat, name: chosen });
              if (name.value.trim()) localStorage.setItem(NAME_KEY, name.value.trim());
              location.href = joined.invite;
            } catch (e) {
              error.textContent = (e as Error).message;
              load();
            }
          });
          return b;
        });
        const seed = t.seed_chosen ? h("span", { class: "small", "data-testid": `seed-chosen-${t.id}` }, " (its creator chose the seed: they may know the hidden cards or the draws to come) ") : "";
        list.append(h("li", { "data-testid": `table-${t.id}` }, h("b", {}, titles[t.game] ?? t.game), ` — ${who} `, seed, ...buttons));
      }
    } catch (e) {
      list.replaceChildren(h("li", { class: "error" }, (e as Error).message));
    }
  };
  load();
  const timer = window.setInterval(() => (box.isConnected ? load() : window.clearInterval(timer)), 10000);
}
