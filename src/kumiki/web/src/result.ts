// A finished game's result in words: what the game page's status line and result box say, and what the replay
// says at its last position (one wording for both).

import type { SeatInfo, ViewMessage } from "./api";
import { capital } from "./dom";
import type { EndUpdate, GameModule } from "./module";

/** The seats of each side, in the order of the sides (every seat its own side when no teams are named). */
export function sidesOf(msg: { teams?: number[]; seats: Pick<SeatInfo, "seat">[] }): number[][] {
  const teams = msg.teams ?? msg.seats.map((seat) => seat.seat);
  const sides = new Map<number, number[]>();
  teams.forEach((team, seat) => sides.set(team, [...(sides.get(team) ?? []), seat]));
  return [...sides.keys()].sort((a, b) => a - b).map((team) => sides.get(team) ?? []);
}

/** What the result is worded from: a view message of a finished game, or the replay's last position. */
export type Finished = EndUpdate & Pick<ViewMessage, "seats" | "scores" | "winners"> & Partial<Pick<ViewMessage, "teams" | "resigned">>;

export interface Result {
  /** The short line ("Game over. Winner: bob."). */
  status: string;
  /** The result with its reason ("Game over — won by bob (18 – 18) — the grid is full; …"). */
  text: string;
}

/** A finished game's result, for the seat `msg.seat` (null: a spectator or the replay); `name` names a seat. */
export function gameResult(msg: Finished, module: GameModule | null, name: (seat: number) => string): Result {
  const sides = sidesOf(msg);
  const totals = sides.map((members) => members.reduce((sum, s) => sum + (msg.scores[s] ?? 0), 0));
  const resigned = msg.resigned ?? null;
  const whoResigned = resigned === null ? "" : resigned === msg.seat ? "you" : name(resigned);
  const winners = msg.winners.map(name).join(", ") || "nobody";
  const mine = msg.seat !== null && msg.winners.includes(msg.seat);
  const why = resigned !== null ? `${whoResigned} resigned` : module?.endReason?.(msg, name);
  const reason = why ? ` — ${why}.` : "";
  if (sides.length === 1) {
    // one team (TowerBrix), or one player (a solo game): one score, and the scoring table's word on it
    const verdict = typeof msg.view?.verdict === "string" ? ` ${msg.view.verdict}` : "";
    const who = msg.seats.length > 1 ? "the team scored" : msg.seat !== null ? "you scored" : `${name(0)} scored`;
    // and why it ended, what the score was made of, where the game says it (a solo Kozo game: round by round)
    const said = why ? ` ${capital(why)}${/[.!?]$/.test(why) ? "" : "."}` : "";
    // a challenge is met or not (its score 1 or 0 is no score to read): said so, as the terminal does
    const challenge = msg.view?.mode === "challenge" && typeof msg.view.challenge === "number" ? msg.view.challenge : null;
    const rounds: unknown = msg.view?.round_success;
    const met = Array.isArray(rounds) && rounds.length > 0 && rounds.every(Boolean);
    const outcome = challenge !== null ? `challenge ${challenge} ${met ? "met" : "not met"}` : null;
    const text =
      resigned !== null
        ? `Game over — ${whoResigned} resigned.`
        : outcome !== null
          ? `Game over — ${outcome}.${said}`
          : `Game over — ${who} ${msg.scores[0] ?? 0}.${verdict}${said}`;
    return { status: "Game over.", text };
  }
  if (sides.length < msg.seats.length) {
    // teams (Kuzushi with teams): the sides' totals, and which side won
    const label = (members: number[]) => `team ${members.map(name).join(" & ")}`;
    const won = sides.filter((members) => members.some((s) => msg.winners.includes(s)));
    const score = `(${totals.join(" – ")})`;
    // every team winning is a draw; some of three (a tie of two, or a resignation) is their shared win, as for players
    const teams = won.map(label).join(", ");
    const draw = won.length === sides.length;
    return {
      status: `Game over. ${won.length === 1 ? `Winner: ${label(won[0])}` : draw ? "A draw" : `Winners: ${teams}`}.`,
      text:
        (won.length === 1
          ? `${mine ? "Your team won" : `Won by ${label(won[0])}`} ${score}`
          : draw
            ? `A draw between the teams ${score}`
            : `A shared win: ${teams} ${score}`) + reason,
    };
  }
  const score = `(${msg.scores.join(" – ")})`;
  const tie = msg.winners.length > 1;
  return {
    status: `Game over. Winner${msg.winners.length > 1 ? "s" : ""}: ${winners}.`,
    text: (tie
      ? `${msg.winners.length === msg.seats.length ? "A draw" : `A shared win: ${winners}`} ${score}`
      : mine ? `You won! ${score}` : `Game over — won by ${winners} ${score}`) + reason,
  };
}
