// A real HTTP receiver for webhook tests, the webhooks benchmark and the chaos runs, on 127.0.0.1
// with a random port. Every request is recorded: GET /requests?path=<prefix> returns them ({method,
// path, headers, body, receivedAt, status}; status is what it answered, null when it never did).
// The path steers the answer:
//   /ok/...              200 {"message": "ok"}
//   /fail/...            500
//   /hang/...            never answers (until the server closes)
//   /slow/...?ms=N       200 after N ms (default 2,000)
//   /close/...           closes the connection without answering (workerd logs "Network connection
//                        lost" as an uncaught exception even though the caller catches it)
//   /redirect/...?to=URL 302 to URL (`&status=N`: N instead, e.g. 303 or 307)
//   /echo/...            200 {method, path, query, headers, body (parsed JSON when it is)} (api tool tests)
//   /big/...?bytes=N     200 text/plain of N bytes ("x" repeated)
//   /chunked/...?bytes=N 200 text/plain of N bytes in 64 KiB writes, without Content-Length; the record's
//                        `complete` says whether the client read them all (false when it stopped reading)
//   /switch/<key>/...    whatever the fault mode of <key> says, set with PUT /modes/<key>
//                        {"mode": "ok" | "down" | "slow" | "close" | "hang", "ms"?} (or setMode in
//                        the same process): "down" answers 503, as a receiver in an outage; default "ok".
//   /trickle/...?ms=N    200 application/json at once, then its body a byte every 100 ms for N ms
//   /malformed/...       200 application/json whose body is cut off mid-JSON
import http from "node:http";

export async function startReceiver() {
  const requests = [];
  const hanging = new Set();
  const modes = new Map();
  const setMode = (key, mode, ms) => modes.set(key, { mode, ms });

  function answer(req, res, url, record) {
    const reply = (status, body, type = "application/json") => {
      record.status = status;
      res.writeHead(status, { "Content-Type": type });
      res.end(body);
    };
    const ok = () => reply(200, JSON.stringify({ message: "ok" }));
    let fault = url.pathname.split("/")[1];
    let ms = Number(url.searchParams.get("ms") ?? 2000);
    if (fault === "switch") {
      const mode = modes.get(url.pathname.split("/")[2]) ?? { mode: "ok" };
      fault = mode.mode;
      ms = mode.ms ?? ms;
    }
    if (fault === "fail") reply(500, JSON.stringify({ message: "receiver failed" }));
    else if (fault === "down") reply(503, JSON.stringify({ message: "receiver down" }));
    else if (fault === "hang") hanging.add(res);
    else if (fault === "slow") setTimeout(ok, ms);
    else if (fault === "close") req.socket.destroy();
    else if (fault === "echo") {
      let parsed = record.body;
      try {
        parsed = record.body ? JSON.parse(record.body) : null;
      } catch {}
      reply(
        200,
        JSON.stringify({
          method: req.method,
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          headers: req.headers,
          body: parsed,
        }),
      );
    } else if (fault === "big")
      reply(200, "x".repeat(Number(url.searchParams.get("bytes") ?? 2_000_000)), "text/plain");
    else if (fault === "chunked") {
      record.status = 200;
      record.complete = false;
      let left = Number(url.searchParams.get("bytes") ?? 2_000_000);
      const piece = Buffer.alloc(64 * 1024, "x");
      res.writeHead(200, { "Content-Type": "text/plain" });
      const more = () => {
        while (left > 0 && !res.destroyed) {
          const part = piece.subarray(0, Math.min(left, piece.length));
          left -= part.length;
          if (!res.write(part)) return void res.once("drain", more);
        }
        if (!res.destroyed) res.end(() => (record.complete = true));
      };
      more();
    } else if (fault === "trickle") {
      record.status = 200;
      const started = Date.now();
      const until = Number(url.searchParams.get("ms") ?? 60_000);
      res.writeHead(200, { "Content-Type": "application/json" });
      res.write('{"trickle": "');
      hanging.add(res);
      const drip = setInterval(
        () => (Date.now() - started < until ? res.write("x") : (clearInterval(drip), res.end('"}'))),
        100,
      );
      res.on("close", () => clearInterval(drip));
    } else if (fault === "malformed") reply(200, '{"temperature": 21, "unit": ');
    else if (fault === "redirect") {
      record.status = Number(url.searchParams.get("status") ?? 302);
      res.writeHead(record.status, { Location: url.searchParams.get("to") ?? "/" });
      res.end();
    } else ok();
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://receiver");
    if (req.method === "GET" && url.pathname === "/requests") {
      const prefix = url.searchParams.get("path") ?? "";
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify(requests.filter((r) => r.path.startsWith(prefix))));
      return;
    }
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      if (req.method === "PUT" && url.pathname.startsWith("/modes/")) {
        const { mode = "ok", ms } = body ? JSON.parse(body) : {};
        setMode(url.pathname.slice("/modes/".length), mode, ms);
        res.writeHead(204);
        res.end();
        return;
      }
      const record = {
        method: req.method,
        path: url.pathname,
        headers: req.headers,
        body,
        receivedAt: Date.now(),
        status: null,
      };
      requests.push(record);
      answer(req, res, url, record);
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    setMode,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections?.();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
