// When the 3D boards draw. A board drawn at every display frame kept a core busy on an idle page (headless Chromium:
// 190 % of the 2-core test machine for one open board; a laptop's fan, a phone's battery). The stages draw only
// while something may have changed: for a moment after any input, message from the server, answer to a fetch or
// `wake()` from the code, while an animation runs or the camera still glides, and once a second besides, so nothing
// left out above stays stale.

/** How long after a wake-up the boards draw every frame: follow-ups of an event (a hover's ghost, a fetch's answer). */
const AWAKE_MS = 600;
/** How often an idle board draws anyway. */
export const IDLE_MS = 1000;

import { hooks } from "./hooks";

let until = 0;

/** Draw every frame for the next `ms` milliseconds (at least): something on the boards changes or is about to. */
export function wake(ms = AWAKE_MS): void {
  until = Math.max(until, performance.now() + ms);
}

/** Whether the boards should draw every frame now (always, as before, where a benchmark sets the test hook
 * `drawEveryFrame`: bench/web_idle.py). */
export function awake(now: number): boolean {
  return now < until || hooks.drawEveryFrame === true;
}

// Input anywhere on the page may change a board (hover ghosts, keys, buttons, the orbit controls): capture it all.
for (const type of ["pointerdown", "pointermove", "pointerup", "wheel", "keydown", "keyup", "touchstart", "touchmove", "click", "resize", "focus", "visibilitychange"]) {
  window.addEventListener(type, () => wake(), { capture: true, passive: true });
}
