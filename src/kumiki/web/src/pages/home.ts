// Home: the four games as cards, the open tables to join, the new-game form, recent games and a record import.

import { api, type CatalogGame, type GameSummary } from "../api";
import { h, seatLabels } from "../dom";
import { sidesOf } from "../result";
import { loadCatalog, newGameForm, showCreated } from "./newgame";
import { openTables } from "./tables";

export async function homePage(app: HTMLElement): Promise<void> {
  const error = h("p", { class: "error", "data-testid": "error", role: "alert" });
  const cards = h("section", { class: "game-cards", "data-testid": "game-cards" });
  const created = h("section", { class: "card created", "data-testid": "created", hidden: "" });
  const tables = h("section", { class: "card tables" });
  const recent = h("section", { class: "card recent" }, h("h2", {}, "Recent games"));
  const recentList = h("ul", { "data-testid": "recent" });
  recent.append(recentList);
  const importer = importBox(error);
  const grid = h("div", { class: "home-grid" });
  app.append(h("h1", {}, "Play a construction game"), error, cards, grid);

  const catalog = await loadCatalog(error);
  if (!catalog) return;
  const games = catalog.games;
  cards.append(...games.map(gameCard));
  const form = newGameForm(games, catalog.levels, error, (result) => showCreated(created, result));
  grid.append(form, created, tables, recent, importer);
  const titles = gameTitles(games);
  openTables(tables, error, undefined, titles);
  loadRecent(recentList, titles);
}

/** A game's card: its picture, name, players, length and two lines; the card leads to the game's page. */
export function gameCard(game: CatalogGame): HTMLElement {
  const about = game.about;
  const [min, max] = game.players;
  const players = min === max ? `${min} players` : `${min}–${max} players`;
  const href = `/play/${game.name}`;
  const picture = about ? h("img", { src: about.picture, alt: `${about.title}: a game in progress`, loading: "lazy" }) : h("div", { class: "no-picture" });
  return h("a", { class: "game-card card", href, "data-testid": `game-card-${game.name}` },
    picture,
    h("h2", {}, about?.title ?? game.name),
    h("p", { class: "facts" }, `${players} · ${about?.minutes ?? ""}`),
    h("p", { class: "tagline" }, about?.tagline ?? ""),
    h("span", { class: "button" }, "How to play and new game"));
}

/** Each game's title by its name ("towerbrix": "TowerBrix"), for the lobby's lists: a player reads the title the
 * cards show, not the name the server files the game under. */
export function gameTitles(games: CatalogGame[]): Record<string, string> {
  return Object.fromEntries(games.map((g) => [g.name, g.about?.title ?? g.name]));
}

async function loadRecent(list: HTMLElement, titles: Record<string, string>): Promise<void> {
  try {
    const { games } = await api<{ games: GameSummary[] }>("/api/games?limit=20");
    list.replaceChildren();
    if (!games.length) list.append(h("li", {}, "No games yet."));
    for (const g of games) {
      const name = seatLabels(g.seats);
      const who = g.seats.map((s) => name(s.seat)).join(" vs ");
      const state = g.status === "over" ? `over, ${finished(g, name)}` : `playing, ${g.moves} move${g.moves === 1 ? "" : "s"}`;
      list.append(
        h("li", {}, h("a", { href: `/game/${g.id}` }, `${titles[g.game] ?? g.game}: ${who}`), ` — ${state} `, h("a", { href: `/replay/${g.id}`, class: "small" }, "replay"), " ",
          g.record_ready === false ? "" : h("a", { href: `/api/games/${g.id}/record`, class: "small", download: `${g.id}.kmk` }, ".kmk")),
      );
    }
  } catch (e) {
    list.replaceChildren(h("li", { class: "error" }, (e as Error).message));
  }
}

/** A finished game's result in the lobby's words, as the game page gives it: one side (TowerBrix's team, or a solo
 * game) has a score, not a win to share ("the team scored 7", "ann scored 31", a challenge met or not); sides
 * that all win drew; else who won. */
export function finished(g: GameSummary, name: (seat: number) => string): string {
  if (sidesOf(g).length === 1) {
    const score = g.scores[0] ?? 0;
    const { mode, challenge, rounds } = g.options;
    if (mode === "challenge" && typeof challenge === "number" && typeof rounds === "number") {
      return `challenge ${challenge} ${score >= rounds ? "met" : "not met"}`; // a point a round met: all of them
    }
    return `${g.seats.length > 1 ? "the team" : name(0)} scored ${score}`;
  }
  if (g.winners.length === g.seats.length) return "a draw";
  return `won by ${g.winners.map(name).join(", ") || "nobody"}`;
}

function importBox(error: HTMLElement): HTMLElement {
  const text = h("textarea", { rows: "5", "data-testid": "import-text", placeholder: "Paste a .kmk record here, or choose a file", "aria-label": "record" });
  const file = h("input", { type: "file", accept: ".kmk,text/plain", "data-testid": "import-file" });
  const button = h("button", { type: "button", "data-testid": "import" }, "Import and replay");
  file.addEventListener("change", async () => {
    if (file.files?.[0]) text.value = await file.files[0].text();
  });
  button.addEventListener("click", async () => {
    error.textContent = "";
    if (!text.value.trim()) {
      error.textContent = "Paste a .kmk record above or choose its file first."; // the server would ask for a [Game] tag
      return;
    }
    try {
      const result = await api<{ id: string; replay: string }>("/api/records", { method: "POST", headers: { "Content-Type": "text/plain" }, body: text.value });
      location.href = result.replay;
    } catch (e) {
      error.textContent = (e as Error).message;
    }
  });
  return h("section", { class: "card import" }, h("h2", {}, "Import a record"), text, file, button);
}
