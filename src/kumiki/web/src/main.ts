// Client-side routing by location.pathname: / (home), /game/{id}, /replay/{id}.

import "./style.css";
import "./games/kuzushi";
import "./games/blokus3d";
import "./games/kozo";
import "./games/towerbrix";
import { hooks } from "./hooks";
import { homePage } from "./pages/home";
import { gamePage } from "./pages/game";
import { replayPage } from "./pages/replay";

const app = document.getElementById("app")!;
const path = location.pathname;
const game = path.match(/^\/game\/([^/]+)\/?$/);
const replay = path.match(/^\/replay\/([^/]+)\/?$/);
if (game) {
  hooks.page = "game";
  gamePage(app, decodeURIComponent(game[1]));
} else if (replay) {
  hooks.page = "replay";
  replayPage(app, decodeURIComponent(replay[1]));
} else {
  hooks.page = "home";
  homePage(app);
}
