// The operator console: a client of the public API only (STYLE 11), signed in with a console
// session cookie (CONTRACT section 16), never holding an API key of its own.
import "console:styles";
import { render } from "preact";
import { App } from "./shell/app";
import { loadSession } from "./shell/session";
import "./shell/theme";

loadSession();
render(<App />, document.getElementById("app")!);
