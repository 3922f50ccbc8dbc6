// Client-side routing by location.pathname: / (home), /play/{game} (a game's page), /game/{id}, /replay/{id}.

import "./style.css";
import "./games/kuzushi";
import "./games/blokus3d";
import "./games/kozo";
import "./games/towerbrix";
import { hooks } from "./hooks";
import { homePage } from "./pages/home";
import { gamePage } from "./pages/game";
import { replayPage } from "./pages/replay";
import { aboutPage } from "./pages/about";
import { api } from "./api";

const app = document.getElementById("app")!;
const path = location.pathname;
const game = path.match(/^\/game\/([^/]+)\/?$/);
const replay = path.match(/^\/replay\/([^/]+)\/?$/);
const about = path.match(/^\/play\/([^/]+)\/?$/);
if (about) {
  hooks.page = "about";
  aboutPage(app, decodeURIComponent(about[1]));
} else if (game) {
  hooks.page = "game";
  gamePage(app, decodeURIComponent(game[1]));
} else if (replay) {
  hooks.page = "replay";
  replayPage(app, decodeURIComponent(replay[1]));
} else {
  hooks.page = "home";
  homePage(app);
}

// The footer names the release that serves the page (the package's version: one source of truth, on the server).
api<{ version: string }>("/api/version")
  .then(({ version }) => {
    document.querySelector('[data-testid="version"]')!.textContent = version;
  })
  .catch(() => undefined);
