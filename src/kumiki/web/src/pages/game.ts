// The game page: one WebSocket, the game's board module, status, scores, seats, the move list and errors.

import { api, GameSocket, setGameTitle, socketUrl, type ChatEntry, type ChatMessage, type ErrorMessage, type HintMessage, type RematchMessage, type ViewMessage, type WhyMessage } from "../api";
import { chatPanel } from "./chat";
import { tutorialBox } from "./tutorial";
import { h, modified, pressing, seatLabels, typing } from "../dom";
import { hooks } from "../hooks";
import { createGameModule, seatColour, swatchStyle, type GameModule } from "../module";
import { gameResult, sidesOf } from "../result";

/** Error codes about the connection, not a move: the server closes it after sending one. */
const CONNECTION_REFUSALS = new Set(["too_many_connections", "not_found", "unreplayable"]);


/** Where this browser remembers the token of the seat it played in a game. */
const tokenKey = (id: string) => `kumiki.token.${id}`;

/** The seat token this page plays with: the one in its own address (?token=, an invite link or a reload of one);
 * none means a spectator. An address without a token is the game's spectator link, so it watches whoever opens
 * it, also in a browser that holds a seat of this game: that seat is only offered as a link (rememberedSeat). */
function seatToken(): string | null {
  return new URLSearchParams(location.search).get("token") || null;
}

/** The invite link of a seat this browser played in game `id` (remembered once the server accepted its token), to
 * offer on the spectator page; null when it holds none. */
function rememberedSeat(id: string): string | null {
  const token = localStorage.getItem(tokenKey(id));
  return token ? `/game/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}` : null;
}

export function gamePage(app: HTMLElement, id: string): void {
  const token = seatToken();
  const ownSeat = token ? null : rememberedSeat(id);
  const takeSeat = h("p", { class: "small", "data-testid": "take-seat", hidden: "" }, "You are watching. This browser has a seat in this game: ",
    h("a", { href: ownSeat ?? "", "data-testid": "take-seat-link" }, "play your seat"), ".");
  const status = h("p", { class: "status", "data-testid": "status", role: "status", "aria-live": "polite" }, "Connecting…");
  const error = h("p", { class: "error", "data-testid": "error", role: "alert" });
  const scores = h("table", { class: "scores", "data-testid": "scores" });
  const moves = h("ol", { class: "moves", "data-testid": "move-list" });
  const over = h("div", { class: "game-over", "data-testid": "game-over", hidden: "" });
  const undo = h("button", { "data-testid": "undo", hidden: "" }, "Undo (U)");
  // Hint (H): against the computer, solo, or TowerBrix played together (the view's `hints`), for a seat that may act
  const hintButton = h("button", { "data-testid": "hint", hidden: "", title: "a move to play and why (H)" }, "Hint (H)");
  const hintAnswer = h("p", { class: "hint-answer", "data-testid": "hint-text", role: "status" });
  let hintAsked: number | null = null; // the ply a hint was asked at, while its answer is awaited
  const again = h("button", { "data-testid": "rematch", hidden: "" }, "Play again (same seats)");
  const againLink = h("a", { "data-testid": "rematch-link", hidden: "" }, "The rematch is ready: join it");
  let askedAgain = false;
  // Resign (a game against others only): a second click confirms, so a stray tap never ends a game
  const resign = h("button", { "data-testid": "resign", hidden: "" }, "Resign");
  const resignYes = h("button", { "data-testid": "resign-confirm" }, "Yes, resign");
  const resignNo = h("button", { "data-testid": "resign-cancel" }, "No, play on");
  const resignWho = h("span", {});
  const resignAsk = h("p", { class: "resign-ask", "data-testid": "resign-ask", role: "alert", hidden: "" }, resignWho, " ", resignYes, " ", resignNo);
  const help = h("p", { class: "help" });
  // A seed the creator chose tells them the deal and the draws to come: everyone at the table is told
  const seedNote = h("p", { class: "small", "data-testid": "seed-chosen", hidden: "" },
    "The creator of this game chose its seed, so they may know the hidden cards or the draws to come.");
  // "Why can't I play this?": any move, in the game's notation, explained by the engine (the boards ask it too)
  const whyAnswer = h("p", { class: "why", "data-testid": "why", role: "status" });
  const whyMove = h("input", { "data-testid": "why-move", "aria-label": "a move to ask about", placeholder: "a move, e.g. as in the list" });
  const whyAsk = h("button", { type: "submit", "data-testid": "why-ask" }, "Why not?");
  const whyForm = h("form", { class: "why-form", hidden: "" }, h("label", {}, "Why can't I play… ", whyMove), " ", whyAsk);
  whyForm.addEventListener("submit", (event) => {
    event.preventDefault();
    if (whyMove.value.trim()) socket.send({ type: "why", move: whyMove.value.trim() });
    else { // asked about nothing: say what to type rather than nothing at all
      const example = last?.last ?? last?.legal[0];
      whyAnswer.textContent = `Type a move first, as the move list writes them${example ? ` (e.g. ${example})` : ""}.`;
    }
  });
  const download = h("span", {}, " · ", h("a", { href: `/api/games/${id}/record`, download: `${id}.kmk` }, "download .kmk"));
  const links = h("p", { class: "small" }, h("a", { href: `/replay/${id}` }, "replay"), download);
  const boardEl = h("div", { class: "board", "data-testid": "board-area" });
  // On a narrow screen the panel comes after the board and all its tray: a line right under a 3D board repeats
  // whose turn it is and the last refusal or answer (style.css shows it there only; the status stays the live region)
  const turnLine = h("p", { class: "turn-line", "data-testid": "turn-line", "aria-hidden": "true" });
  const mirrored: [HTMLElement, string][] = [[status, "turn-status"], [error, "turn-error"], [whyAnswer, "turn-why"], [hintAnswer, "turn-hint"]];
  const mirror = () => turnLine.replaceChildren(...mirrored.filter(([from]) => from.textContent)
    .map(([from, kind]) => h("span", { class: from.classList.contains("legal") ? `${kind} legal` : kind }, from.textContent ?? "")));
  const watcher = new MutationObserver(mirror);
  for (const [from] of mirrored) watcher.observe(from, { childList: true, characterData: true, subtree: true, attributes: true });
  let seatNames: (seat: number) => string = (seat) => `seat ${seat}`;
  const chat = chatPanel((message) => socket.send(message), (seat) => seatNames(seat), !!token, () => module?.target?.() ?? null);
  // Learn to play (?tutorial=1): the steps box, made once the page knows the game and the seat
  const wantsTutorial = !!new URLSearchParams(location.search).get("tutorial");
  let tutorial: ReturnType<typeof tutorialBox> | null = null;
  const tutorialSlot = h("div", {});
  const actions = h("div", { class: "view-buttons" }, hintButton, undo, resign);
  const panel = h("aside", { class: "panel" }, tutorialSlot, takeSeat, seedNote, status, error, over, again, againLink, scores, actions, hintAnswer, resignAsk, h("h3", {}, "Moves"), moves, chat.element, whyForm, whyAnswer, help, links);
  app.append(h("div", { class: "game-layout" }, boardEl, panel));

  let module: GameModule | null = null;
  let last: ViewMessage | null = null;
  let socket: GameSocket;

  // On a phone the panel comes after the board and all its tray, so the result box was below the screen at the end
  // (only the line under the board showed): it is brought into view once, when the game ends here (after a moment,
  // to see the last move land) or when a finished game opens. Where it is on screen already (a desktop's panel
  // beside the board) nothing moves.
  let endShown = false;
  const showEnd = (justEnded: boolean) => {
    endShown = true;
    // looked at again a little later when it was in view: the board and its tray may still be laying out then.
    // The rematch button under the box comes into view with it (it was left just below the screen's edge), as long
    // as the box's top stays on screen.
    const bring = (lookAgain: boolean) => {
      const top = over.getBoundingClientRect().top;
      const bottom = (again.hidden ? over : again).getBoundingClientRect().bottom;
      if (top < 0 || bottom > window.innerHeight) {
        const by = top < 0 ? top : Math.min(bottom - window.innerHeight + 8, top);
        window.scrollBy({ top: by, behavior: "smooth" });
      } else if (lookAgain) window.setTimeout(() => bring(false), 700);
    };
    window.setTimeout(() => bring(true), justEnded ? 800 : 100);
  };

  const showError = (text: string) => {
    error.textContent = text;
  };

  // A line from the server or the engine names seats by number ("it is seat 1's turn, not yours (seat 0)"): it is
  // kept as written, and who sits there is added ("— seat 1 is bob, seat 0 is you (ann).")
  const withNames = (text: string): string => {
    const seats = last?.seats ?? [];
    const named = [...new Set([...text.matchAll(/\bseat (\d+)\b/g)].map((m) => Number(m[1])))].filter((n) => seats.some((s) => s.seat === n));
    if (!named.length) return text;
    const name = seatLabels(seats);
    const who = named.map((n) => `seat ${n} is ${n === last?.seat && name(n) !== "you" ? `you (${name(n)})` : name(n)}`);
    return `${text.replace(/\.$/, "")} — ${who.join(", ")}.`;
  };

  const clearWhy = () => {
    whyAnswer.textContent = "";
    whyAnswer.classList.remove("legal");
  };

  // Why the server refused the connection itself (too many from this address, no such game): shown instead of
  // "reconnecting"; and the last error of all, which names why a connection closed for good (a wrong token).
  let refusal = "";
  let lastError = "";
  const onView = (msg: ViewMessage) => {
    refusal = "";
    if (!module) {
      module = createGameModule(msg.game);
      if (!module) {
        status.textContent = `This client cannot show ${msg.game} yet.`;
        return;
      }
      module.mount(boardEl, {
        seat: msg.seat,
        interactive: msg.seat !== null,
        playerCount: msg.seats.length,
        sendMove: (move) => {
          if (!last) return;
          error.textContent = "";
          clearWhy(); // the player moves on: an answer about the position before no longer holds
          socket.send({ type: "move", ply: last.ply, move });
        },
        hint: showError,
        why: (move) => socket.send({ type: "why", move }),
      });
      const stage = boardEl.querySelector<HTMLElement>(".stage");
      if (stage) {
        const under = h("div", { class: "stage-wrap" }); // the board's own box, with the line under it
        stage.replaceWith(under);
        under.append(stage, turnLine);
      }
      if (wantsTutorial && msg.seat !== null) {
        tutorial = tutorialBox(msg.game);
        tutorialSlot.append(tutorial.element);
      }
      setGameTitle(msg.game);
      help.textContent = msg.seat === null ? "You are watching this game." : module.help;
      if (msg.seat !== null && token) localStorage.setItem(tokenKey(id), token); // a token the server accepted
      takeSeat.hidden = msg.seat !== null || !ownSeat || !!msg.imported;
    }
    if ((msg.chat ?? 0) > chat.count()) {
      // lines said before this page connected (or while it was away); new ones then come over the socket
      api<ChatEntry[]>(`/api/games/${id}/chat`).then((entries) => chat.add(entries, !!msg.silent), () => undefined);
    }
    chat.silence(!!msg.silent);
    // with one person at the table (solo, or against computers only) there is nobody to talk to: spectators may read
    // but not talk (rooms.py), and the computers read nothing; lines already said are still shown
    chat.element.hidden = msg.seats.filter((s) => s.kind !== "agent").length < 2 && (msg.chat ?? 0) === 0;
    if (last && msg.ply !== last.ply) error.textContent = "";
    if (msg.over) clearWhy(); // nothing is asked about a finished game
    whyForm.hidden = msg.seat === null || msg.over; // so its form goes too (it could only answer "the game is over")
    const previous = last;
    last = msg;
    seedNote.hidden = !msg.seed_chosen || msg.over;
    download.hidden = msg.record_ready === false; // the seed in a record would tell the hidden cards
    tutorial?.update({ myMoves: (msg.movers ?? []).filter((s) => s === msg.seat).length, over: msg.over });
    module.update(msg);
    const name = seatLabels(msg.seats); // two seats of one name (two random computers) named with their seat numbers
    seatNames = name;
    const sides = sidesOf(msg);
    const totals = sides.map((members) => members.reduce((sum, s) => sum + (msg.scores[s] ?? 0), 0)); // per side
    resign.hidden = !msg.may_resign || !resignAsk.hidden;
    if (!msg.may_resign) resignAsk.hidden = true;
    if (msg.over) {
      const result = gameResult(msg, module, name); // the replay says the same at its last position
      status.textContent = result.status;
      over.textContent = result.text;
      over.hidden = false;
      again.hidden = msg.seat === null || !!msg.imported || !againLink.hidden; // once the rematch is made, only its link
      if (!endShown) showEnd(previous !== null && !previous.over);
    } else {
      over.hidden = true;
      again.hidden = true;
      const mover = msg.to_move === null ? "—" : name(msg.to_move);
      const actors = msg.actors ?? (msg.to_move === null ? [] : [msg.to_move]);
      const lastBy = msg.movers && msg.movers.length ? msg.movers[msg.movers.length - 1] : null;
      const byWhom = actors.length > 1 && lastBy !== null && lastBy !== undefined && msg.last ? ` Last: ${msg.last} by ${name(lastBy)}.` : "";
      // computer teammates (docs/towerbrix-solver.md) leave an unfinished tower to whoever is building it, and say
      // nothing while they wait: without a word here a player could wait for a teammate that waits for them
      const waiting = msg.seats.some((s) => s.kind === "agent" && s.level !== "random")
        ? " Computer teammates wait while someone else builds an unfinished tower: press OK to hand it over."
        : "";
      if (actors.length > 1) status.textContent = (msg.seat !== null && actors.includes(msg.seat) ? "Build together: everyone may act at any moment." + waiting : "Everyone is building.") + byWhom;
      else {
        // what the seat to move plays now, where the seat alone does not tell (Blokus 3D's colour, two colours each)
        const note = module.turnNote?.(msg) ?? null;
        // an open seat to move: nobody is there yet ("Waiting for open seat." said nothing of how one comes)
        const open = msg.seats.some((s) => s.seat === msg.to_move && s.kind === "open");
        status.textContent = msg.seat !== null && msg.to_move === msg.seat
          ? note ? `Your turn: ${note}.` : "Your turn."
          : open
            ? `Waiting for someone to take seat ${msg.to_move} (the lobby lists this table under Open tables).`
            : `Waiting for ${mover}${note ? ` to ${note}` : ""}.`;
      }
    }
    const teamed = sides.length > 1 && sides.length < msg.seats.length; // teams of several seats
    scores.replaceChildren(h("tr", {}, h("th", {}, "seat"), h("th", {}, "player"), ...(teamed ? [h("th", {}, "team")] : []), h("th", {}, "score")));
    for (const seat of msg.seats) {
      const label = name(seat.seat);
      const you = seat.seat === msg.seat && label !== "you" ? " (you)" : ""; // the tutorial's seat is named "you"
      const side = sides.findIndex((members) => members.includes(seat.seat));
      const team = side < 0 ? "" : `${side + 1} (${totals[side]})`;
      const row = h(
        "tr",
        { "data-testid": `score-${seat.seat}`, class: seat.seat === msg.to_move ? "to-move" : "" },
        h("td", {}, h("span", { class: "swatch", style: swatchStyle(seat.seat) }, String(seat.seat))),
        h("td", {}, label + you + (seat.kind === "human" && !seat.connected ? " · away" : "") + (seat.kind === "open" ? " · waiting for a player (open table)" : "")),
        ...(teamed ? [h("td", { "data-testid": `team-${seat.seat}` }, team)] : []),
        h("td", { class: "score" }, String(msg.scores[seat.seat] ?? "")),
      );
      scores.append(row);
    }
    // who made each move (where several act at once the order does not tell): the seat's colour and name
    // (in the colour of the piece played where the game says it: Blokus 3D's seat with two colours plays both)
    const played = module.moveColours?.(msg) ?? [];
    moves.replaceChildren(...msg.history.map((m, i) => {
      const by = msg.movers?.[i];
      const colour = played[i] ?? (by === null || by === undefined ? null : seatColour(by));
      const who: Record<string, string> = by === null || by === undefined ? {} : { title: `by ${name(by)}`, "data-seat": String(by), style: `border-left: 0.35em solid ${colour}; padding-left: 0.3em` };
      return h("li", { class: i === msg.history.length - 1 ? "last" : "", ...who }, m);
    }));
    moves.scrollTop = moves.scrollHeight;
    undo.hidden = !msg.undo || msg.seat === null || msg.over; // a finished game is not taken back
    const mayAct = msg.seat !== null && (msg.actors ?? (msg.to_move === null ? [] : [msg.to_move])).includes(msg.seat);
    hintButton.hidden = !msg.hints || msg.seat === null || msg.over;
    hintButton.disabled = !mayAct || hintAsked !== null;
    if (previous && previous.ply !== msg.ply && hintAsked === null) hintAnswer.textContent = ""; // it was for the table before
    hooks.ply = msg.ply;
    hooks.over = msg.over;
    hooks.seat = msg.seat;
    hooks.toMove = msg.to_move;
    hooks.actors = msg.actors ?? [];
    hooks.legal = msg.legal.length;
    hooks.legalMoves = msg.legal;
    hooks.views += 1;
    hooks.last = msg.last;
  };

  const onError = (msg: ErrorMessage) => {
    lastError = msg.message;
    if (hintAsked !== null && msg.about === "hint") { // the answer to the Hint button (a move refused meanwhile is not)
      hintDone(`No hint: ${withNames(msg.message)}`);
      hooks.lastError = msg.code;
      return;
    }
    if (CONNECTION_REFUSALS.has(msg.code) || !module) { // before the first view, an error refuses the page itself
      refusal = msg.message;
      hooks.lastError = msg.code;
      return;
    }
    if (chat.waiting() || msg.code === "silence") chat.refused(`Not sent: ${msg.message}`);
    else showError(`Move refused: ${withNames(msg.message)}`);
    hooks.lastError = msg.code;
    if (msg.code === "illegal") tutorial?.refused();
  };

  const onChat = (msg: ChatMessage) => {
    chat.add(msg.entries, msg.silent);
    for (const entry of msg.entries) if (entry.kind === "signal" && entry.at) module?.highlight?.(entry.at, entry.seat); // live only
  };

  const onWhy = (msg: WhyMessage) => {
    whyAnswer.textContent = msg.legal ? `${msg.move}: this move is legal now.` : `Why not: ${withNames(msg.reason)}`;
    whyAnswer.classList.toggle("legal", msg.legal);
    if (!msg.legal) tutorial?.refused();
  };

  const hintDone = (text: string) => {
    hintAsked = null;
    hintAnswer.classList.remove("thinking");
    hintAnswer.textContent = text;
    hintButton.disabled = !last || last.seat === null || last.over || !(last.actors ?? [last.to_move]).includes(last.seat);
  };

  const askHint = () => {
    if (!last || hintButton.hidden || hintButton.disabled) return;
    hintAsked = last.ply;
    hintButton.disabled = true;
    hintAnswer.classList.add("thinking");
    hintAnswer.textContent = "Thinking…";
    socket.send({ type: "hint" });
  };

  const onHint = (msg: HintMessage) => {
    const stale = last !== null && msg.ply !== last.ply;
    hintDone(`Hint: ${msg.text}${stale ? " (for the table before the last edit: ask again)" : ""}`);
    if (msg.move && !stale) module?.suggest?.(msg.move);
  };

  const onRematch = (msg: RematchMessage) => {
    if (askedAgain) {
      location.assign(msg.invite); // the one who asked goes straight to the new game
      return;
    }
    againLink.setAttribute("href", msg.invite);
    againLink.hidden = false;
    again.hidden = true;
    hooks.rematch = msg.id;
  };
  resign.addEventListener("click", () => {
    if (!last || last.seat === null) return;
    // the seats that would win: every seat not on this one's side
    const teams = last.teams ?? last.seats.map((seat) => seat.seat);
    const name = seatLabels(last.seats);
    const others = last.seats.filter((seat) => teams[seat.seat] !== teams[last!.seat!]).map((seat) => name(seat.seat));
    resignWho.textContent = others.length ? `Resign this game? ${others.join(", ")} ${others.length > 1 ? "win" : "wins"}.` : "Resign this game? It ends here.";
    resignAsk.hidden = false;
    resign.hidden = true;
    resignNo.focus();
  });
  resignNo.addEventListener("click", () => {
    resignAsk.hidden = true;
    resign.hidden = !last?.may_resign;
  });
  resignYes.addEventListener("click", () => {
    resignAsk.hidden = true;
    socket.send({ type: "resign" });
  });
  again.addEventListener("click", () => {
    askedAgain = true;
    socket.send({ type: "rematch" });
  });

  socket = new GameSocket(
    socketUrl(id, token),
    (msg) =>
      msg.type === "view" ? onView(msg) : msg.type === "error" ? onError(msg) : msg.type === "chat" ? onChat(msg) : msg.type === "rematch" ? onRematch(msg) : msg.type === "why" ? onWhy(msg) : msg.type === "hint" ? onHint(msg) : undefined,
    (connected, final) => {
      if (!connected && hintAsked !== null) hintDone(""); // its answer went with the connection: ask again
      if (!connected) status.textContent = final ? `Disconnected: ${lastError || "the server refused this page"}.` : refusal ? `${refusal} — trying again…` : "Connection lost — reconnecting…";
      hooks.connected = connected;
    },
  );
  undo.addEventListener("click", () => socket.send({ type: "undo" }));
  hintButton.addEventListener("click", askHint);
  document.addEventListener("keydown", (event) => {
    if (typing(event) || pressing(event) || modified(event)) return;
    if (event.key.toLowerCase() === "u" && !undo.hidden) {
      socket.send({ type: "undo" });
      event.preventDefault();
    } else if (event.key.toLowerCase() === "h" && !hintButton.hidden) {
      askHint();
      event.preventDefault();
    } else if (module?.key?.(event)) event.preventDefault();
  });
  window.addEventListener("beforeunload", () => socket.close());
}
