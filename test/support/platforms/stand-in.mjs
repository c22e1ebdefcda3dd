// A messaging platform's stand-in on loopback (CONTRACT section 17: the `*_API_ORIGIN` settings point
// at it in tests and local development). Each platform module (line.mjs, telegram.mjs, ...) gives
// its routes, which answer as the platform documents and check what we send; this file keeps what
// every stand-in shares:
// - every request is recorded under its account (`key`: the bot token or access token it carries);
// - a test scripts the next answers of an account (429 with Retry-After, 503, 400);
// - a test asks the stand-in to sign an event the platform's way (the platform signs, not our code).
// Control routes, for tests (fetch from the Workers pool or Node):
//   GET  /__requests?key=K        the account's recorded requests, oldest first
//   POST /__script {key, responses: [{status, headers?, body?}]}  the account's next answers, in order
//   POST /__sign {...}            the platform module's `sign(input)`: {headers, body} to post to our webhook
//   POST /__verify {...}          the platform module's `verification(input)`: the request the platform sends when
//                                 the business saves the webhook URL in its dashboard, {method, query, headers, body,
//                                 challenge}, and the challenge it expects back
//   POST /__reset {key}           forgets the account's requests and script
//   POST /__outage {key, seconds, status?, body?}  an outage of the platform: every non-control request of the
//                                 account answers `status` (default 503) with `body` for `seconds` from now (recorded
//                                 as ever; one with `at` before the answer's `until` was refused); seconds 0 ends it
//   POST /__hold {key, path}      the account's next request whose path starts with `path` is recorded and then
//                                 waits, unanswered, until POST /__release {key}; GET /__held?key=K answers
//                                 {held: true} once one waits (a test acts while our worker waits on the platform)
import http from "node:http";

/**
 * @typedef {{ method: string, path: string, query: Record<string,string>, headers: Record<string,string>, raw: Buffer,
 * body: any }} StandInRequest
 * @typedef {{ status?: number, headers?: Record<string,string>, body?: any }} StandInAnswer
 * @typedef {{ method: "GET" | "POST", query: string, headers: Record<string,string>, body: string, challenge: string }}
 * WebhookVerification
 * @typedef {{
 *   key(req: StandInRequest): string | null,
 * route(req: StandInRequest, account: { requests: any[], data: Record<string, any> }): StandInAnswer |
 * Promise<StandInAnswer>,
 * sign?(input: any): { headers: Record<string,string>, body: string } | Promise<{ headers: Record<string,string>, body:
 * string }>,
 * verification?(input: any): WebhookVerification,
 * }} Platform
 */

/** @param {Platform} platform @param {{ port?: number }} [options] */
export async function startStandIn(platform, options = {}) {
  /** @type {Map<string, { requests: any[], script: StandInAnswer[], data: Record<string, any>, outage: { until: number,
   * status: number, body: any } | null, hold: { path: string, held: boolean, release: Promise<void>, done: () => void }
   * | null }>} */
  const accounts = new Map();
  const account = (key) => {
    let a = accounts.get(key);
    if (!a) accounts.set(key, (a = { requests: [], script: [], data: {}, outage: null, hold: null }));
    return a;
  };
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const raw = Buffer.concat(chunks);
    const url = new URL(req.url ?? "/", "http://stand-in");
    const send = (status, body, headers = {}) => {
      const text =
        body === undefined ? "" : typeof body === "string" || Buffer.isBuffer(body) ? body : JSON.stringify(body);
      const type =
        typeof body === "string"
          ? "text/plain"
          : Buffer.isBuffer(body)
            ? "application/octet-stream"
            : "application/json";
      res.writeHead(status, { "content-type": type, ...headers });
      res.end(text);
    };
    let body;
    const type = String(req.headers["content-type"] ?? "");
    if (type.includes("json")) {
      try {
        body = JSON.parse(raw.toString("utf8") || "null");
      } catch {
        return send(400, { error: "invalid JSON" });
      }
    } else if (type.includes("x-www-form-urlencoded"))
      body = Object.fromEntries(new URLSearchParams(raw.toString("utf8")));
    else body = raw.length ? raw.toString("utf8") : undefined;
    try {
      if (url.pathname === "/__requests") return send(200, account(url.searchParams.get("key") ?? "").requests);
      if (url.pathname === "/__script") {
        account(body.key).script.push(...body.responses);
        return send(200, { ok: true });
      }
      if (url.pathname === "/__reset") {
        accounts.delete(body.key);
        return send(200, { ok: true });
      }
      if (url.pathname === "/__outage") {
        const until = Date.now() + Number(body.seconds ?? 0) * 1000;
        account(body.key).outage = {
          until,
          status: body.status ?? 503,
          body: body.body ?? { error: "Service Unavailable" },
        };
        return send(200, { ok: true, until });
      }
      if (url.pathname === "/__hold") {
        let done = () => {};
        const release = new Promise((resolve) => (done = () => resolve(undefined)));
        account(body.key).hold = { path: body.path, held: false, release, done };
        return send(200, { ok: true });
      }
      if (url.pathname === "/__held")
        return send(200, { held: !!account(url.searchParams.get("key") ?? "").hold?.held });
      if (url.pathname === "/__release") {
        const a = account(body.key);
        a.hold?.done();
        a.hold = null;
        return send(200, { ok: true });
      }
      if (url.pathname === "/__sign") {
        if (!platform.sign) return send(404, { error: "this platform signs nothing" });
        return send(200, await platform.sign(body));
      }
      if (url.pathname === "/__verify") {
        if (!platform.verification) return send(404, { error: "this platform verifies no webhook URL" });
        return send(200, platform.verification(body));
      }
      /** @type {StandInRequest} */
      const request = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: /** @type {any} */ (req.headers),
        raw,
        body,
      };
      const key = platform.key(request) ?? "";
      const a = account(key);
      // One clock reading for the record and the outage's check: `at < until` is exactly "refused by the outage".
      const at = Date.now();
      a.requests.push({
        method: request.method,
        path: request.path,
        query: request.query,
        headers: request.headers,
        body: Buffer.isBuffer(body) ? body.toString("base64") : body,
        at,
      });
      const hold = a.hold;
      if (hold && !hold.held && request.path.startsWith(hold.path)) {
        hold.held = true;
        await hold.release;
      }
      if (a.outage && at < a.outage.until) return send(a.outage.status, a.outage.body);
      const scripted = a.script.shift();
      if (scripted) return send(scripted.status ?? 200, scripted.body ?? {}, scripted.headers);
      const answer = await platform.route(request, a);
      return send(answer.status ?? 200, answer.body ?? {}, answer.headers);
    } catch (err) {
      return send(500, { error: String(err) });
    }
  });
  await new Promise((resolve) => server.listen(options.port ?? 0, "127.0.0.1", () => resolve(undefined)));
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}
