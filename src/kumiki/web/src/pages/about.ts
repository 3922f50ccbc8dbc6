// A game's page (/play/{name}): what the game is, how to play it in a few paragraphs, presets and the new-game form,
// and the open tables of that game.

import { h } from "../dom";
import { gameTitles } from "./home";
import { loadCatalog, newGameForm, showCreated } from "./newgame";
import { openTables } from "./tables";
import { hasTutorial, startTutorial } from "./tutorial";

export async function aboutPage(app: HTMLElement, name: string): Promise<void> {
  const error = h("p", { class: "error", "data-testid": "error", role: "alert" });
  app.append(h("p", {}, h("a", { href: "/" }, "← All games")), error);
  const catalog = await loadCatalog(error);
  if (!catalog) return;
  const games = catalog.games;
  const game = games.find((g) => g.name === name);
  if (!game) {
    error.textContent = `There is no game called ${JSON.stringify(name)} here (games: ${games.map((g) => g.name).join(", ")}).`;
    return;
  }
  const about = game.about;
  const [min, max] = game.players;
  const header = h("header", { class: "about-head" },
    about ? h("img", { src: about.picture, alt: `${about.title}: a game in progress` }) : "",
    h("div", {},
      h("h1", { "data-testid": "about-title" }, about?.title ?? game.name),
      h("p", { class: "facts" }, `${min === max ? min : `${min}–${max}`} players · ${about?.minutes ?? ""}`),
      h("p", { class: "description" }, about?.description ?? "")));
  const rules = h("section", { class: "card rules-summary", "data-testid": "rules-summary" }, h("h2", {}, "How to play"));
  if (hasTutorial(name)) {
    const learn = h("button", { type: "button", class: "learn", "data-testid": "tutorial-start" }, "Learn to play: a guided game (about 3 minutes)");
    learn.addEventListener("click", () => startTutorial(name).catch((e: Error) => (error.textContent = e.message)));
    rules.append(learn);
  }
  for (const part of about?.summary ?? []) rules.append(h("h3", {}, part.heading), ...part.paragraphs.map((p) => h("p", {}, p)));
  const created = h("section", { class: "card created", "data-testid": "created", hidden: "" });
  const tables = h("section", { class: "card tables" });
  const form = newGameForm(games, catalog.levels, error, (result) => showCreated(created, result), name);
  app.append(header, h("div", { class: "home-grid" }, rules, form, created, tables));
  openTables(tables, error, name, gameTitles(games));
  document.title = `${about?.title ?? name} — Kumiki`;
}
