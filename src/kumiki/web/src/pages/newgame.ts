// The new-game form (home page and each game's page): presets, the options a newcomer needs with the others folded
// under "More options", the seats (you, the computer at a level, or an open seat anyone in the lobby may take).

import { api, postJson, type Catalog, type CatalogGame, type OptionSpec, type SeatInfo } from "../api";
import { h, seatLabel } from "../dom";
import { supportedGames } from "../module";

/** Where the browser keeps the name you played under, for the next game you make. */
export const NAME_KEY = "kumiki.name";

export interface Created {
  id: string;
  seats: SeatInfo[];
  spectate: string;
}

/** The catalog with the games this client shows, or null (the error said why). */
export async function loadCatalog(error: HTMLElement): Promise<Catalog | null> {
  try {
    const catalog = await api<Catalog>("/api/catalog");
    return { ...catalog, games: catalog.games.filter((g) => supportedGames().includes(g.name)) };
  } catch (e) {
    error.textContent = `Cannot reach the server: ${(e as Error).message}`;
    return null;
  }
}

/** The form; `fixed` names the one game it makes (a game's page), else a select offers them all. */
/** What a level that is no step of the ladder means, for a player who has not met it. */
const LEVEL_WORDS: Record<string, string> = { random: "any legal move, at random", openspiel: "OpenSpiel's MCTS (for researchers)" };

export function newGameForm(games: CatalogGame[], levels: string[], error: HTMLElement, done: (c: Created) => void, fixed?: string): HTMLFormElement {
  const form = h("form", { class: "card new-game", "data-testid": "new-game" });
  const gameSelect = h("select", { name: "game", "data-testid": "game-select", id: "game-select" });
  for (const g of games) gameSelect.append(h("option", { value: g.name }, g.about?.title ?? g.name));
  if (fixed) gameSelect.value = fixed;
  const gameRow = h("div", { class: "option" }, h("label", { for: "game-select" }, "Game "), gameSelect);
  if (fixed) gameRow.hidden = true;
  const presetsBox = h("div", { class: "presets", "data-testid": "presets" });
  const optionsBox = h("fieldset", { class: "options" });
  const seatsBox = h("fieldset", { class: "seats" });
  const submit = h("button", { type: "submit", "data-testid": "create" }, "Create game");
  const undo = h("input", { type: "checkbox", id: "allow-undo", "data-testid": "allow-undo" });
  const undoRow = h("div", { class: "option" }, undo, h("label", { for: "allow-undo" }, "allow undo (only with at most one human seat)"));
  form.append(h("h2", {}, "New game"), gameRow, presetsBox, optionsBox, seatsBox, undoRow, submit);

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
      kind.append(h("option", { value: "human" }, "human"), h("option", { value: "agent" }, "computer"), h("option", { value: "open" }, "open seat (anyone may take it)"));
      const level = h("select", { class: "level", "data-testid": `seat-${i}-level`, "aria-label": `seat ${i} level` });
      const notes = current().level_notes ?? {};
      for (const l of current().levels ?? levels) level.append(h("option", { value: l }, notes[l] ? `${l}: ${notes[l]}` : LEVEL_WORDS[l] ? `${l}: ${LEVEL_WORDS[l]}` : l));
      const remembered = i === 0 ? localStorage.getItem(NAME_KEY) : null; // your name, from your last game here
      const name = h("input", { class: "name", "data-testid": `seat-${i}-name`, "aria-label": `seat ${i} name`, value: remembered || `player ${i}` });
      kind.value = old[i]?.kind ?? (i === 0 ? "human" : "agent");
      if (old[i]) {
        if ([...level.options].some((o) => o.value === old[i].level)) level.value = old[i].level; // (this game may not offer it)
        name.value = old[i].name;
      }
      // the chosen level's note in full: a phone's closed select showed "easy: a team of four wins about 4"
      const note = h("small", { class: "level-note", "data-testid": `seat-${i}-level-note` });
      const sync = () => {
        level.hidden = kind.value !== "agent";
        name.hidden = kind.value !== "human";
        note.textContent = notes[level.value] ?? LEVEL_WORDS[level.value] ?? "";
        note.hidden = level.hidden || !note.textContent;
      };
      kind.addEventListener("change", sync);
      level.addEventListener("change", sync);
      sync();
      seatsBox.append(h("div", { class: "seat" }, `Seat ${i} `, kind, level, name, note));
    }
  };
  const input = (opt: OptionSpec) => form.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="opt-${opt.name}"]`);
  const setValue = (opt: OptionSpec, value: unknown) => {
    const field = input(opt);
    if (!field) return;
    if (opt.type === "bool") (field as HTMLInputElement).checked = Boolean(value);
    else field.value = value === null || value === undefined ? "" : String(value);
  };
  const optionRow = (opt: OptionSpec) => {
    const id = `opt-${opt.name}`;
    let field: HTMLInputElement | HTMLSelectElement;
    if (opt.choices?.length) {
      field = h("select", { name: id, id });
      for (const c of opt.choices) field.append(h("option", { value: String(c) }, String(c)));
      field.value = String(opt.default ?? opt.choices[0]);
    } else if (opt.type === "bool") {
      field = h("input", { name: id, id, type: "checkbox" });
      (field as HTMLInputElement).checked = Boolean(opt.default);
    } else {
      field = h("input", { name: id, id, type: opt.type === "str" ? "text" : "number" });
      if (opt.type === "float") field.setAttribute("step", "any");
      if (opt.min !== undefined && opt.min !== null) field.setAttribute("min", String(opt.min));
      if (opt.max !== undefined && opt.max !== null) field.setAttribute("max", String(opt.max));
      // an option whose default depends on others (Kuzushi's size on players) is left empty: the server decides
      const depends = (opt as { depends?: boolean }).depends;
      field.value = depends || opt.default === null || opt.default === undefined ? "" : String(opt.default);
      if (depends || opt.default === null) field.setAttribute("placeholder", "default");
    }
    field.setAttribute("data-testid", id);
    field.setAttribute("data-type", opt.type);
    // the seats follow the number typed at once; its change, fired as the field loses focus (a click into a seat's
    // name), no longer draws them again when their number is the same: the field clicked into was replaced then,
    // and the name typed went nowhere
    const follow = () => seatsBox.querySelectorAll(".seat").length !== seatCount() && drawSeats();
    if (opt.name === "players") for (const event of ["input", "change"]) field.addEventListener(event, follow);
    return h("div", { class: "option", title: opt.help ?? "" }, h("label", { for: id }, (opt.label ?? opt.name) + " "), field, h("small", {}, opt.help ?? ""));
  };
  // An option whose bounds follow another's value (the catalog's bounds_by): its field's max follows that value, and a
  // value the engine would refuse is marked invalid there, so the form is not sent with it.
  const checkBounds = () => {
    for (const opt of current().options) {
      const field = input(opt) as HTMLInputElement | null;
      const other = opt.bounds_by && form.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="opt-${opt.bounds_by.option}"]`);
      if (!field || !opt.bounds_by || !other) continue;
      const bounds = opt.bounds_by.values[other.value];
      const value = Number(field.value);
      let problem = "";
      if (bounds) {
        field.setAttribute("max", String(bounds.max));
        const label = opt.bounds_by.option;
        if (field.value !== "" && value > bounds.max) problem = `at most ${bounds.max} with ${label} ${other.value}`;
        else if (field.value !== "" && bounds.except.includes(value)) problem = `${label} ${other.value}'s cards cannot make exactly ${value}`;
      } else if (opt.max !== undefined && opt.max !== null) field.setAttribute("max", String(opt.max));
      field.setCustomValidity(problem);
      field.title = problem || opt.help || "";
    }
  };
  for (const event of ["input", "change"]) form.addEventListener(event, checkBounds);
  const drawOptions = () => {
    const game = current();
    const basic = game.about?.basic;
    optionsBox.replaceChildren(h("legend", {}, "Options"));
    const more = h("details", { class: "more-options", "data-testid": "more-options" }, h("summary", {}, "More options"));
    for (const opt of game.options) (basic && !basic.includes(opt.name) ? more : optionsBox).append(optionRow(opt));
    if (more.children.length > 1) optionsBox.append(more);
    presetsBox.replaceChildren();
    const presets = game.about?.presets ?? [];
    if (presets.length) presetsBox.append(h("span", { class: "small" }, "Start from: "));
    for (const preset of presets) {
      const b = h("button", { type: "button", class: "preset", title: preset.help, "data-testid": `preset-${preset.name}` }, preset.label);
      b.addEventListener("click", () => {
        for (const opt of game.options) setValue(opt, (opt as { depends?: boolean }).depends ? null : opt.default);
        for (const [name, value] of Object.entries(preset.options)) {
          const opt = game.options.find((o) => o.name === name);
          if (opt) setValue(opt, value);
        }
        presetsBox.querySelectorAll("button").forEach((other) => other.classList.toggle("chosen", other === b));
        drawSeats();
        checkBounds();
      });
      presetsBox.append(b, " ");
    }
    drawSeats();
    checkBounds();
  };
  gameSelect.addEventListener("change", drawOptions);
  drawOptions();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const options: Record<string, unknown> = {};
    for (const opt of current().options) {
      const field = input(opt) as HTMLInputElement;
      if (opt.type === "bool") options[opt.name] = field.checked;
      else if (field.value === "") continue;
      else if (opt.type === "int") options[opt.name] = parseInt(field.value, 10);
      else if (opt.type === "float") options[opt.name] = parseFloat(field.value);
      else options[opt.name] = field.value;
    }
    const seats = [...seatsBox.querySelectorAll<HTMLElement>(".seat")].map((row) => {
      const kind = row.querySelector<HTMLSelectElement>("select.kind")!.value;
      if (kind === "agent") return { kind, level: row.querySelector<HTMLSelectElement>("select.level")!.value };
      if (kind === "open") return { kind };
      return { kind, name: row.querySelector<HTMLInputElement>("input.name")!.value || "player" };
    });
    const first = seats[0];
    if (first && first.kind === "human" && "name" in first && first.name && first.name !== "player 0") localStorage.setItem(NAME_KEY, first.name);
    try {
      done(await postJson<Created>("/api/games", { game: current().name, options, seats, undo: undo.checked }));
    } catch (e) {
      error.textContent = (e as Error).message;
    }
  });
  return form;
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

/** The invitations of a game just made: one link per human seat, the spectators' link, and Play. */
export function showCreated(box: HTMLElement, result: Created): void {
  box.hidden = false;
  box.replaceChildren(h("h2", {}, "Game created"));
  const list = h("ul", { class: "invites" }); // long links wrap (a phone's width)
  let first: string | null = null;
  for (const seat of result.seats) {
    if (seat.kind === "human" && seat.invite) {
      const url = new URL(seat.invite, location.origin).href;
      first ??= seat.invite;
      list.append(
        h("li", {}, `Seat ${seat.seat} (${seat.name}): `, h("a", { href: seat.invite, "data-testid": `invite-${seat.seat}` }, url), " ", copyButton(url, `copy-${seat.seat}`)),
      );
    } else if (seat.kind === "open") list.append(h("li", {}, `Seat ${seat.seat}: open — listed under Open tables until someone takes it`));
    else list.append(h("li", {}, `Seat ${seat.seat}: ${seatLabel(seat)}`));
  }
  const spectate = new URL(result.spectate, location.origin).href;
  list.append(h("li", {}, "Spectators: ", h("a", { href: result.spectate, "data-testid": "spectate" }, spectate), " ", copyButton(spectate, "copy-spectate")));
  box.append(list);
  if (first) box.append(h("a", { href: first, class: "button", "data-testid": "play" }, "Play"));
}
