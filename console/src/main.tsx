// The operator console: a client of the public API only (STYLE 11), signed in with a console
// session cookie (CONTRACT section 16), never holding an API key of its own.
import "console:styles";
import { render } from "preact";
import { App } from "./shell/app";
import { loadSession } from "./shell/session";
import { preloadPage } from "./shell/outlet";
import { currentPath } from "./shell/router";
import "./shell/theme";
import "./components";

// Both at once: the session (whose request index.html has already started as a preload) and the
// chunk of the page the address names.
loadSession();
preloadPage(currentPath.value);
render(<App />, document.getElementById("app")!);
