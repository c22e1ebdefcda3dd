// Shared by the operator console's browser tests (test/browser/console-*.test.mjs), the widget's
// (widget*.test.mjs) and bench/console.mjs: a `wrangler dev` with Chromium, signing in, axe-core, and
// screenshots of a page in the four looks docs/reference.md shows (light, dark, phone, zh-TW) (`shotsDir`).
import { mkdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import {
  createWebChat,
  launchChromium,
  LOCAL_EMBEDDING,
  LOCAL_KB_MODELS,
  LOCAL_LLM,
  LOCAL_RERANKER,
  startServer,
} from "../../bench/lib.mjs";
import { givenPort, testPort } from "../support/test-ports.mjs";

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };
/**
 * Where the screenshots of `kind` (console, widget) go: docs/<kind>/ when UPDATE_SCREENSHOTS=1 (`npm run
 * screenshots`), otherwise .screenshots/<kind>/, which git ignores. Every picture shows the day's dates, so pictures
 * written to docs/ on each run would change every file every day (docs/decisions.md, "Screenshots").
 */
export function shotsDir(kind) {
  const base = process.env.UPDATE_SCREENSHOTS === "1" ? "docs" : ".screenshots";
  const dir = path.resolve(import.meta.dirname, "../..", base, kind);
  mkdirSync(dir, { recursive: true });
  return dir;
}
export const SHOTS = shotsDir("console");
export const PASSWORD = "console password 1234";
/** A 1x1 PNG: an image a test uploads (an attachment, a web chat's logo). */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
/** The console tests' default ports (each worker of the suite has 50 of them): the worker's, and a site's
 * (console-web-chats). */
export const CONSOLE_PORTS = { from: 9000, size: 50 };
/** The built-in models (migrations/0001_seed_builtin_models.sql), and a knowledge base's two of them. */
export { LOCAL_EMBEDDING, LOCAL_KB_MODELS, LOCAL_LLM, LOCAL_RERANKER };

/**
 * A worker on fresh state (port CONSOLE_TEST_PORT, else one of 9000-9049; test/support/test-ports.mjs
 * moves both for the suite's other workers) and Chromium. `vars` are extra
 * settings of the worker; `owner` is the bootstrap administrator, with a password set for
 * password sign-in. Under vitest the assets are built already (vitest.node.config.mjs builds them
 * before any test), so `wrangler dev` skips its `[build]`; outside it (bench/console.mjs) that builds them.
 */
export async function startConsole({
  vars = {},
  prebuilt = Boolean(process.env.VITEST),
  direct = Boolean(process.env.VITEST),
} = {}) {
  // CONSOLE_TEST_INSPECTOR_PORT: wrangler's devtools port (default the server's + 1000), for a port range of one's own.
  const options = {
    port: testPort("CONSOLE_TEST_PORT", CONSOLE_PORTS),
    inspectorPort: givenPort("CONSOLE_TEST_INSPECTOR_PORT"),
    vars,
    prebuilt,
    // Under vitest no DevTools window ever connects, and the inspector's relay of every line the worker logs cost
    // about a quarter of the server's CPU per request (measured); bench/console.mjs keeps `wrangler dev` as it is.
    devtools: !process.env.VITEST,
    // Pages and requests straight at the runtime, not through wrangler's proxy (startServer's `direct`); a file that
    // restarts the server keeps the proxy's port instead, since the runtime's moves and URLs the worker gave name it.
    direct,
  };
  let owner;
  let { server, browser } = await withChromium(options, async (started) => {
    await started.api("/auth/password/change/", {
      body: { oldPassword: "-", newPassword1: PASSWORD, newPassword2: PASSWORD },
    });
    owner = await started.api("/users/current/", { method: "GET" });
  });
  return {
    get server() {
      return server;
    },
    browser,
    /** The server's URL (a restart, below, may move it: the runtime's port is its own). */
    get base() {
      return server.base;
    },
    owner: { ...owner, password: PASSWORD, key: server.key },
    /** Stops the worker, runs `whileStopped(state)` (rows written straight into its local D1), and starts it again on
     * that state. */
    async restart(whileStopped) {
      await server.stop({ keep: true });
      await whileStopped(server.state);
      server = await startServer({ ...options, state: server.state, key: server.key });
    },
    async close() {
      await browser.close();
      await server.stop();
    },
  };
}

/**
 * A worker on fresh state for the widget's tests (port BROWSER_TEST_PORT, its devtools' BROWSER_TEST_INSPECTOR_PORT;
 * else each worker of the suite its own 25 of 8800-8849, test/support/test-ports.mjs) and Chromium; `vars` are extra
 * settings of the worker. No inspector, as startConsole's. `close()` stops both.
 */
export async function startWidgetServer({ vars = {} } = {}) {
  const { server, browser } = await withChromium({
    port: testPort("BROWSER_TEST_PORT", { from: 8800, size: 25 }),
    inspectorPort: givenPort("BROWSER_TEST_INSPECTOR_PORT"),
    prebuilt: true,
    devtools: false,
    direct: true,
    vars,
  });
  return {
    server,
    browser,
    async close() {
      await browser.close();
      await server.stop();
    },
  };
}

/**
 * `wrangler dev` with `options` (bench/lib.mjs, startServer), then `ready(server)`, and Chromium meanwhile: neither
 * needs the other until the first page, and each start spends much of its time waiting (on a process, on the server's
 * first answer). A failed start leaves no browser behind (a file's teardown stops only servers).
 */
async function withChromium(options, ready = async () => {}) {
  const launching = launchChromium();
  launching.catch(() => {}); // awaited below; a failed launch is thrown there, not reported unhandled first
  let server;
  try {
    server = await startServer(options);
    await ready(server);
  } catch (err) {
    await launching.then(
      (b) => b.close(),
      () => {},
    );
    throw err;
  }
  return { server, browser: await launching };
}

/**
 * A page in a fresh context of `browser` (`options`: the context's), with what the page throws or logs as an error
 * collected in `errors`: the widget's pages, which log nothing refused (the console's are openPage's).
 */
export async function pageWithErrors(browser, options) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  return { context, page, errors };
}

/**
 * A page in a fresh browser context: `theme` and `locale` as a user would have chosen them (the
 * console's remembered choice; `locale` is also the browser's language unless `browserLocale` says another;
 * `timezoneId` the browser's timezone), errors collected.
 * The browser's log of refused API requests (4xx: the signed-out session check, a form's 400) is
 * left out; script errors and CSP refusals stay.
 */
export async function openPage(
  browser,
  { theme = "light", locale = "en", browserLocale = locale, viewport = DESKTOP, timezoneId } = {},
) {
  const context = await browser.newContext({
    viewport,
    locale: browserLocale,
    colorScheme: theme === "dark" ? "dark" : "light",
    ...(timezoneId ? { timezoneId } : {}),
  });
  await context.addInitScript(
    ([t, l]) => {
      localStorage.setItem("console.theme", t);
      localStorage.setItem("console.locale", l);
    },
    [theme, locale],
  );
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on(
    "console",
    (m) =>
      m.type() === "error" &&
      !/Failed to load resource: the server responded with a status of 4\d\d/.test(m.text()) &&
      errors.push(m.text()),
  );
  return { context, page, errors };
}

/** Fills the sign-in form at `path` with e-mail and password and sends it, as a person would. */
export async function submitSignIn(page, base, { email, password }, path = "/console/") {
  await page.goto(base + path);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Signs in through the form with e-mail and password, as a person would. */
export async function signInWithPassword(page, base, credentials, path = "/console/") {
  await submitSignIn(page, base, credentials, path);
  await page.locator(".shell main h1").waitFor();
}

/** Signs a context in without the form (the API call the form makes): for tests about other pages. */
export async function signInContext(context, base, body) {
  const res = await context.request.post(`${base}/api/v1/auth/sessions/`, { data: body, headers: { Origin: base } });
  if (res.status() !== 201) throw new Error(`sign-in: ${res.status()} ${await res.text()}`);
  return res.json();
}

/** Signs a context in as the owner of `app` (startConsole's), with their key: the API call the sign-in form makes. */
export const signInOwner = (app, context) => signInContext(context, app.base, { apiKey: app.owner.key });

/** The session cookie of a context. */
export async function sessionCookie(context) {
  return (await context.cookies()).find((c) => c.name === "console_session")?.value;
}

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/** axe-core's serious and critical violations on the page as it is now (WCAG 2.x A and AA rules and best practices). */
export async function axeViolations(page) {
  // Injected through the DevTools protocol, so the page's CSP (no inline script) does not stop it; once per document
  // (the console moves between its pages without loading a new one), not its 500 kB parsed again for every check.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE);
  // What is still coming in (a toast's 0.15 s entrance) is checked at its final colours, as a person reads it: axe
  // measured mid-fade reports contrast the page never settles at. Endless animations (spinners) are not waited for.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) =>
          a.finished.catch((err) => {
            if (err.name !== "AbortError") throw err; // cancelled: the element left
          }),
        ),
    ),
  );
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(", ")}`,
    );
}

/**
 * Screenshots of the console at `path` in light, dark, at a phone's width and in zh-TW, into
 * docs/console/<name>-<look>.png. `signIn(context)` signs the browser in (omit for the sign-in page) and is signed
 * out after; `act(page)` gets the page into the state to show; `idle: false` for pages with a live stream. Each look is
 * a fresh load of the page with its choices made first (theme and language in storage, colour scheme, window size), in
 * one signed-in browser context: a person switching theme, window and language. A context's first page costs ~3.7 s
 * of CPU on this machine, a later load ~0.7 s (docs/decisions.md, "The browser tests, straight at the runtime").
 * `zhBrowser`: the zh-TW look in a context of its own whose browser speaks zh-TW, for a page that shows what follows
 * the browser's language (the web chat designer's widget preview).
 */
export async function screenshots(browser, base, path, name, { signIn, act, idle = true, zhBrowser = false } = {}) {
  const looks = [
    ["light", "light", "en", DESKTOP],
    ["dark", "dark", "en", DESKTOP],
    ["phone", "light", "en", PHONE],
    ["zh-TW", "light", "zh-TW", DESKTOP],
  ];
  await shootLooks(browser, base, path, name, zhBrowser ? looks.slice(0, 3) : looks, { signIn, act, idle });
  if (zhBrowser) await shootLooks(browser, base, path, name, looks.slice(3), { signIn, act, idle, locale: "zh-TW" });
}

/** The `looks` of screenshots(), one after the other in one signed-in context (`locale`: its browser's language). */
async function shootLooks(browser, base, path, name, looks, { signIn, act, idle, locale = "en" }) {
  const { context, page, errors } = await openPage(browser, { theme: "light", locale });
  await signIn?.(context);
  for (const [look, theme, chosenLocale, viewport] of looks) {
    await page.setViewportSize(viewport);
    await page.emulateMedia({ colorScheme: theme });
    // openPage's script puts the context's choices in storage before each load; this look's replace them.
    await context.addInitScript(
      ([t, l]) => {
        localStorage.setItem("console.theme", t);
        localStorage.setItem("console.locale", l);
      },
      [theme, chosenLocale],
    );
    await page.goto(base + path);
    await page.locator("h1").first().waitFor();
    await act?.(page);
    // A page with a live event stream is never idle: its `act` waits for what it shows.
    if (idle) await page.waitForLoadState("networkidle");
    // Nor is a picture taken while a part of the page still says it is loading.
    await page.waitForFunction(() => !document.querySelector(".loading"));
    // Each look is a check too: the page shows in it without a script error.
    if (errors.length) throw new Error(`${path} (${look}): ${errors.join("; ")}`);
    await page.screenshot({ path: `${SHOTS}/${name}-${look}.png`, fullPage: true });
  }
  // Signed out, so that the sessions pages show stay the test's own.
  if (signIn) await context.request.delete(`${base}/api/v1/auth/sessions/current/`, { headers: { Origin: base } });
  await context.close();
}

/** `screenshots` of the console's `path` (from /console) as the owner of `app` sees it; `options`: screenshots'. */
export const ownerScreenshots = (app, path, name, options = {}) =>
  screenshots(app.browser, app.base, path, name, { ...options, signIn: (context) => signInOwner(app, context) });

/**
 * A signed-in owner (through the API call the sign-in form makes) on the console's `path`, its heading shown.
 * `options`: openPage's, and `notify` to have the browser's notifications granted and recorded (recordNotifications).
 */
export async function ownerOn(app, path, { notify = false, ...options } = {}) {
  const opened = await openPage(app.browser, options);
  if (notify) await recordNotifications(opened.context, app.base);
  await signInOwner(app, opened.context);
  await opened.page.goto(`${app.base}/console${path}`);
  await opened.page.locator(".shell main h1").waitFor();
  return opened;
}

/** The owner on the inbox (or the inbox page `path`) as ownerOn puts them, its live stream connected. */
export async function ownerOnInbox(app, options, path = "/conversations") {
  const opened = await ownerOn(app, path, options);
  await opened.page.locator(".badge.live").waitFor();
  return opened;
}

/** A user signed up by the public registration (with an organization of their own): its answer's body. */
export async function register(app, { email, password = PASSWORD, name, company }) {
  const res = await fetch(`${app.base}/api/v1/auth/registration/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password1: password, password2: password, name, company }),
  });
  return res.json();
}

/** The registered user `email` made a member of the organization and put in its group `groupId`; the member. */
export async function addToGroup(app, organizationId, groupId, email) {
  const added = await app.server.api(`/organizations/${organizationId}/members/`, { body: { email } });
  await app.server.api(`/organizations/${organizationId}/groups/${groupId}/group-members/bulk-create/`, {
    body: { members: [added.id] },
  });
  return added;
}

/**
 * A person signed up by the public registration (`password`: PASSWORD unless given) and made a member of the owner's
 * organization in a new group named `group`, holding the permissions `permissions` (codenames). Returns the
 * organization, the group, the member (the API's answer) and the registration's answer.
 */
export async function memberInNewGroup(app, { email, name, company, password = PASSWORD, group, permissions }) {
  const [organization] = await app.server.api("/organizations/?pagination=false", { method: "GET" });
  const made = await app.server.api(`/organizations/${organization.id}/groups/`, {
    body: { name: group, permissions: await permissionIds(app, permissions) },
  });
  const registered = await register(app, { email, password, name, company });
  const member = await addToGroup(app, organization.id, made.id, email);
  return { organization, group: made, member, registered };
}

/** The ids of the permissions named by `codenames` (`chatbot.view`, ...), from the API's catalogue. */
export async function permissionIds(app, codenames) {
  const catalogue = await app.server.api("/permissions/", { method: "GET" });
  return codenames.map((codename) => catalogue.find((p) => p.codename === codename).id);
}

/** The bytes of a finished download (by its stream: a connected browser's download has no local path). */
export async function downloadedBytes(download) {
  const parts = [];
  for await (const part of await download.createReadStream()) parts.push(part);
  return Buffer.concat(parts);
}

/** The open dialog of the page. */
export const dialog = (page) => page.locator("dialog[open]");

/** Presses Tab until the focused element is `locator` (keyboard-only flows). */
export async function tabTo(page, locator, max = 60) {
  for (let i = 0; i < max; i++) {
    if (await locator.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${locator}`);
}

/** Tabs to `locator` (tabTo) and presses `key` there: a keyboard-only person's click ("Enter") or tick ("Space"). */
export async function tabAndPress(page, locator, key) {
  await tabTo(page, locator);
  await page.keyboard.press(key);
}

/**
 * The business's site, on another origin, embedding the widget of `webChat` (a function: the web chat
 * may be made after the site starts); port CONSOLE_TEST_HOST_PORT (this worker's), else any.
 */
export function widgetHostPage(base, webChat) {
  return new Promise((resolve) => {
    const http = createServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><html lang="en"><head><link rel="icon" href="data:,"><title>Acme shop</title></head>
<body><h1>Acme shop</h1><script src="${base}/widget.js" data-web-chat-id="${webChat()}" async></script></body></html>`);
    });
    http.listen(givenPort("CONSOLE_TEST_HOST_PORT") ?? 0, "127.0.0.1", () =>
      resolve({ url: `http://127.0.0.1:${http.address().port}`, close: () => new Promise((r) => http.close(r)) }),
    );
  });
}

/** Grants the console's origin the browser's notifications and records each one raised (`window.__notifications`). */
export async function recordNotifications(context, origin) {
  await context.grantPermissions(["notifications"], { origin });
  await context.addInitScript(() => {
    const Real = window.Notification;
    window.__notifications = [];
    function Recorded(title, options) {
      window.__notifications.push({ title, body: options?.body ?? "" });
      return new Real(title, options);
    }
    Object.defineProperty(Recorded, "permission", { get: () => Real.permission });
    Recorded.requestPermission = (...args) => Real.requestPermission(...args);
    Recorded.prototype = Real.prototype;
    window.Notification = Recorded;
  });
}

/**
 * The settings of the web chat "Acme Help" as the widget's and the designer's screenshots show it: indigo in light
 * and dark, light first, open to anonymous visitors, the assistant's name shown. A test adds its greeting and starters.
 */
export const ACME_HELP = {
  name: "Acme Help",
  description: "We usually answer at once",
  theme: { primaryColor: "#4F46E5" },
  darkTheme: { primaryColor: "#A5B4FC" },
  defaultThemeMode: "light",
  enableAnonymous: true,
  enableDisplayChatbotName: true,
};

/**
 * The assistant "Ava" (the built-in model; `assistant`: more of its fields) with a web inbox
 * (`inbox`: more fields) whose web chat "Acme Help" lets visitors in anonymously (`webChat`: more
 * settings), embedded in the business's site (widgetHostPage). Returns the assistant, the web chat's
 * id and the site.
 */
export async function webChatSite(app, { assistant = {}, inbox = {}, webChat = {} } = {}) {
  const { bot, id } = await createWebChat(app.server, {
    assistant: { name: "Ava", largeLanguageModel: LOCAL_LLM, ...assistant },
    inbox,
    webChat: { name: "Acme Help", enableAnonymous: true, ...webChat },
  });
  return { bot, webChat: id, host: await widgetHostPage(app.base, () => id) };
}

/**
 * Takes the conversation open on the console's `page` over, and waits for Hand back. Should that not show, the
 * request's answer tells whether the request or the page's state is at fault.
 */
export async function takeOver(page) {
  const taken = page.waitForResponse((res) => res.url().endsWith("/take-over/"));
  await page.getByRole("button", { name: "Take over" }).click();
  const answer = await taken;
  if (answer.status() !== 200) throw new Error(`Take over answered ${answer.status()}: ${await answer.text()}`);
  await page.getByRole("button", { name: "Hand back to the assistant" }).waitFor();
}

/** A visitor on the site at `url` with the widget open; `send` waits for their own message in it. */
export async function openVisitor(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  const page = await context.newPage();
  return { context, page, send: await openWidget(page, url) };
}

/** Opens the widget of the site at `url` in `page`; returns `send`, which waits for the visitor's message to show. */
export async function openWidget(page, url) {
  await page.goto(url);
  await page.locator("button.launcher").click();
  await page.getByRole("textbox", { name: "Message" }).waitFor();
  return async (text) => {
    await page.getByRole("textbox", { name: "Message" }).fill(text);
    await page.keyboard.press("Enter");
    await page.getByRole("article", { name: "You" }).filter({ hasText: text }).waitFor();
  };
}

/**
 * Slow answers, as a loaded network gives them: each request `hold(which)` selects is made to the API when the page
 * asks, and its answer held until `release()`, which holds no more; `release(only)` gives the answers to the
 * requests `only` selects and keeps holding. `held()` counts the answers not yet given, `bodies()` says what they are.
 */
export async function holdAnswers(page) {
  const waiting = [];
  const bodies = [];
  let pending = 0;
  let which = () => false;
  await page.route(/\/api\/v1\//, async (route) => {
    if (!which(route.request())) return route.continue();
    pending++;
    // Held from the moment it is caught: a `release` that comes while the API is still answering lets it through.
    const released = new Promise((release) => waiting.push({ request: route.request(), release }));
    const response = await route.fetch();
    bodies.push(await response.text());
    await released;
    await route.fulfill({ response });
    pending--;
  });
  return {
    hold: (select) => void (which = select),
    held: () => pending,
    bodies: () => bodies.map((body) => JSON.parse(body)),
    release: (only) => {
      if (!only) which = () => false;
      for (const held of waiting.filter((w) => !only || only(w.request))) {
        waiting.splice(waiting.indexOf(held), 1);
        held.release();
      }
    },
  };
}
