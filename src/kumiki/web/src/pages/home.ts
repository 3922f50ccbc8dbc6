// Home: the new-game form built from /api/catalog, invite links, recent games and a record import.

import { api, postJson, type Catalog, type CatalogGame, type GameSummary, type SeatInfo } from "../api";
import { h, seatLabel } from "../dom";
import { supportedGames } from "../module";

/** Where the browser keeps the name you played under, for the next game you make. */
const NAME_KEY = "kumiki.name";

interface Created {
  id: string;
  seats: SeatInfo[];
  spectate: string;
}

export async function homePage(app: HTMLElement): Promise<void> {
  const error = h("p", { class: "error", "data-testid": "error", role: "alert" });
  const form = h("form", { class: "card new-game", "data-testid": "new-game" });
  const created = h("section", { class: "card created", "data-testid": "created", hidden: "" });
  const recent = h("section", { class: "card recent" }, h("h2", {}, "Recent games"));
  const recentList = h("ul", { "data-testid": "recent" });
  recent.append(recentList);
  const importer = importBox(error);
  app.append(h("h1", {}, "Play a construction game"), error, h("div", { class: "home-grid" }, form, created, recent, importer));

  let catalog: Catalog;
  try {
    catalog = await api<Catalog>("/api/catalog");
  } catch (e) {
    error.textContent = `Cannot reach the server: ${(e as Error).message}`;
    return;
  }
  const games = catalog.games.filter((g) => supportedGames().includes(g.name));
  buildForm(form, games, catalog.levels, error, (result) => showCreated(created, result));
  loadRecent(recentList);
}

function buildForm(form: HTMLFormElement, games: CatalogGame[], levels: string[], error: HTMLElement, done: (c: Created) => void): void {
  const gameSelect = h("select", { name: "game", "data-testid": "game-select", id: "game-select" });
  for (const g of games) gameSelect.append(h("option", { value: g.name }, g.name));
  const optionsBox = h("fieldset", { class: "options" });
  const seatsBox = h("fieldset", { class: "seats" });
  const submit = h("button", { type: "submit", "data-testid": "create" }, "Create game");
  const undo = h("input", { type: "checkbox", id: "allow-undo", "data-testid": "allow-undo" });
  const undoRow = h("div", { class: "option" }, undo, h("label", { for: "allow-undo" }, "allow undo (only with at most one human seat)"));
  form.append(h("h2", {}, "New game"), h("label", { for: "game-select" }, "Game "), gameSelect, optionsBox, seatsBox, undoRow, submit);

  const current = () => games.find((g) => g.name === gameSelect.value)!;
  const seatCount = () => {
    const players = form.querySelector<HTMLInputElement>('[name="opt-players"]');
    const [min, max] = current().players;
    const n = players ? Number(players.value) : min;
    return Math.max(min, Math.min(max, Number.isFinite(n) ? n : min));
  };
  const drawSeats = () => {
    const old = [...seatsBox.querySelectorAll<HTMLElement>(".seat")].map((row) => ({
      kind: row.querySelector<HTMLSelectElement>("select.kind")!.value,
      level: row.querySelector<HTMLSelectElement>("select.level")!.value,
      name: row.querySelector<HTMLInputElement>("input.name")!.value,
    }));
    seatsBox.replaceChildren(h("legend", {}, "Seats"));
    for (let i = 0; i < seatCount(); i++) {
      const kind = h("select", { class: "kind", "data-testid": `seat-${i}-kind`, "aria-label": `seat ${i} kind` });
      kind.append(h("option", { value: "human" }, "human"), h("option", { value: "agent" }, "computer"));
      const level = h("select", { class: "level", "data-testid": `seat-${i}-level`, "aria-label": `seat ${i} level` });
      for (const l of levels) level.append(h("option", { value: l }, l));
      const remembered = i === 0 ? localStorage.getItem(NAME_KEY) : null; // your name, from your last game here
      const name = h("input", { class: "name", "data-testid": `seat-${i}-name`, "aria-label": `seat ${i} name`, value: remembered || `player ${i}` });
      kind.value = old[i]?.kind ?? (i === 0 ? "human" : "agent");
      if (old[i]) {
        level.value = old[i].level;
        name.value = old[i].name;
      }
      const sync = () => {
        level.hidden = kind.value !== "agent";
        name.hidden = kind.value !== "human";
      };
      kind.addEventListener("change", sync);
      sync();
      seatsBox.append(h("div", { class: "seat" }, `Seat ${i} `, kind, level, name));
    }
  };
  const drawOptions = () => {
    optionsBox.replaceChildren(h("legend", {}, "Options"));
    for (const opt of current().options) {
      const id = `opt-${opt.name}`;
      let input: HTMLInputElement | HTMLSelectElement;
      if (opt.choices?.length) {
        input = h("select", { name: id, id });
        for (const c of opt.choices) input.append(h("option", { value: String(c) }, String(c)));
        input.value = String(opt.default ?? opt.choices[0]);
      } else if (opt.type === "bool") {
        input = h("input", { name: id, id, type: "checkbox" });
        (input as HTMLInputElement).checked = Boolean(opt.default);
      } else {
        input = h("input", { name: id, id, type: opt.type === "str" ? "text" : "number" });
        if (opt.type === "float") input.setAttribute("step", "any");
        if (opt.min !== undefined && opt.min !== null) input.setAttribute("min", String(opt.min));
        if (opt.max !== undefined && opt.max !== null) input.setAttribute("max", String(opt.max));
        // an option whose default depends on others (Kuzushi's size on players) is left empty: the server decides
        const depends = (opt as { depends?: boolean }).depends;
        input.value = depends || opt.default === null || opt.default === undefined ? "" : String(opt.default);
        if (depends || opt.default === null) input.setAttribute("placeholder", "default");
      }
      input.setAttribute("data-testid", id);
      input.setAttribute("data-type", opt.type);
      if (opt.name === "players") input.addEventListener("change", drawSeats);
      optionsBox.append(h("div", { class: "option", title: opt.help ?? "" }, h("label", { for: id }, (opt.label ?? opt.name) + " "), input, h("small", {}, opt.help ?? "")));
    }
    drawSeats();
  };
  gameSelect.addEventListener("change", drawOptions);
  drawOptions();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const options: Record<string, unknown> = {};
    for (const opt of current().options) {
      const input = form.querySelector<HTMLInputElement>(`[name="opt-${opt.name}"]`)!;
      if (opt.type === "bool") options[opt.name] = input.checked;
      else if (input.value === "") continue;
      else if (opt.type === "int") options[opt.name] = parseInt(input.value, 10);
      else if (opt.type === "float") options[opt.name] = parseFloat(input.value);
      else options[opt.name] = input.value;
    }
    const seats = [...seatsBox.querySelectorAll<HTMLElement>(".seat")].map((row) => {
      const kind = row.querySelector<HTMLSelectElement>("select.kind")!.value;
      return kind === "agent"
        ? { kind, level: row.querySelector<HTMLSelectElement>("select.level")!.value }
        : { kind, name: row.querySelector<HTMLInputElement>("input.name")!.value || "player" };
    });
    const first = seats[0];
    if (first && first.kind === "human" && "name" in first && first.name && first.name !== "player 0") localStorage.setItem(NAME_KEY, first.name);
    try {
      done(await postJson<Created>("/api/games", { game: current().name, options, seats, undo: undo.checked }));
    } catch (e) {
      error.textContent = (e as Error).message;
    }
  });
}

function copyButton(text: string, testid: string): HTMLButtonElement {
  const b = h("button", { type: "button", "data-testid": testid }, "Copy");
  b.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
      b.textContent = "Copied";
    } catch {
      b.textContent = "Select and copy";
    }
  });
  return b;
}

function showCreated(box: HTMLElement, result: Created): void {
  box.hidden = false;
  box.replaceChildren(h("h2", {}, "Game created"));
  const list = h("ul", {});
  let first: string | null = null;
  for (const seat of result.seats) {
    if (seat.kind === "human" && seat.invite) {
      const url = new URL(seat.invite, location.origin).href;
      first ??= seat.invite;
      list.append(
        h("li", {}, `Seat ${seat.seat} (${seat.name}): `, h("a", { href: seat.invite, "data-testid": `invite-${seat.seat}` }, url), " ", copyButton(url, `copy-${seat.seat}`)),
      );
    } else list.append(h("li", {}, `Seat ${seat.seat}: ${seatLabel(seat)}`));
  }
  const spectate = new URL(result.spectate, location.origin).href;
  list.append(h("li", {}, "Spectators: ", h("a", { href: result.spectate, "data-testid": "spectate" }, spectate), " ", copyButton(spectate, "copy-spectate")));
  box.append(list);
  if (first) box.append(h("a", { href: first, class: "button", "data-testid": "play" }, "Play"));
}

async function loadRecent(list: HTMLElement): Promise<void> {
  try {
    const { games } = await api<{ games: GameSummary[] }>("/api/games?limit=20");
    list.replaceChildren();
    if (!games.length) list.append(h("li", {}, "No games yet."));
    for (const g of games) {
      const who = g.seats.map(seatLabel).join(" vs ");
      const state = g.status === "over" ? `over, won by ${g.winners.join(", ") || "nobody"}` : `playing, ${g.moves} moves`;
      list.append(
        h("li", {}, h("a", { href: `/game/${g.id}` }, `${g.game}: ${who}`), ` — ${state} `, h("a", { href: `/replay/${g.id}`, class: "small" }, "replay"), " ",
          h("a", { href: `/api/games/${g.id}/record`, class: "small", download: `${g.id}.kmk` }, ".kmk")),
      );
    }
  } catch (e) {
    list.replaceChildren(h("li", { class: "error" }, (e as Error).message));
  }
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
    try {
      const result = await api<{ id: string; replay: string }>("/api/records", { method: "POST", headers: { "Content-Type": "text/plain" }, body: text.value });
      location.href = result.replay;
    } catch (e) {
      error.textContent = (e as Error).message;
    }
  });
  return h("section", { class: "card import" }, h("h2", {}, "Import a record"), text, file, button);
}
