// Test hooks for Playwright: `window.__kumiki` holds what a test needs to wait on (ply, over, frames, ...).

export interface KumikiHooks {
  page: string;
  ply: number;
  over: boolean;
  seat: number | null;
  toMove: number | null;
  legal: number;
  frames: number;
  views: number;
  [key: string]: unknown;
}

declare global {
  interface Window {
    __kumiki: KumikiHooks;
  }
}

export const hooks: KumikiHooks = { page: "", ply: 0, over: false, seat: null, toMove: null, legal: 0, frames: 0, views: 0 };
window.__kumiki = hooks;

/** What seats point at now ("look here"), on any board: kept while the board shows it. */
export function pointedAt(at: string, ms = 4000): void {
  const list = ((hooks.pointed as string[] | undefined) ?? []).concat(at);
  hooks.pointed = list;
  window.setTimeout(() => {
    const now = (hooks.pointed as string[]).slice();
    now.splice(now.indexOf(at), 1);
    hooks.pointed = now;
  }, ms);
}

export function countFrame(): void {
  hooks.frames += 1;
}
