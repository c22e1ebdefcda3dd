// A real HTTP receiver for webhook tests and the webhooks benchmark, on 127.0.0.1 with a random port.
// Every request is recorded: GET /requests?path=<prefix> returns them ({method, path, headers, body,
// receivedAt}). The path steers the answer:
//   /ok/...              200 {"message": "ok"}
//   /fail/...            500
//   /hang/...            never answers (until the server closes)
//   /redirect/...?to=URL 302 to URL
//   /echo/...            200 {method, path, query, headers, body (parsed JSON when it is)} (api tool tests)
//   /big/...?bytes=N     200 text/plain of N bytes ("x" repeated)
//   /trickle/...?ms=N    200 application/json at once, then its body a byte every 100 ms for N ms
//   /malformed/...       200 application/json whose body is cut off mid-JSON
import http from "node:http";

export async function startReceiver() {
  const requests = [];
  const hanging = new Set();
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
      requests.push({ method: req.method, path: url.pathname, headers: req.headers, body, receivedAt: Date.now() });
      if (url.pathname.startsWith("/fail/")) {
        res.writeHead(500, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ message: "receiver failed" }));
      } else if (url.pathname.startsWith("/hang/")) {
        hanging.add(res);
      } else if (url.pathname.startsWith("/echo/")) {
        let parsed = body;
        try {
          parsed = body ? JSON.parse(body) : null;
        } catch {}
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body: parsed }));
      } else if (url.pathname.startsWith("/big/")) {
        res.writeHead(200, { "Content-Type": "text/plain" });
        res.end("x".repeat(Number(url.searchParams.get("bytes") ?? 2_000_000)));
      } else if (url.pathname.startsWith("/trickle/")) {
        const ms = Number(url.searchParams.get("ms") ?? 60_000);
        const started = Date.now();
        res.writeHead(200, { "Content-Type": "application/json" });
        res.write('{"trickle": "');
        hanging.add(res);
        const drip = setInterval(() => (Date.now() - started < ms ? res.write("x") : (clearInterval(drip), res.end('"}'))), 100);
        res.on("close", () => clearInterval(drip));
      } else if (url.pathname.startsWith("/malformed/")) {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end('{"temperature": 21, "unit": ');
      } else if (url.pathname.startsWith("/redirect/")) {
        res.writeHead(302, { Location: url.searchParams.get("to") ?? "/" });
        res.end();
      } else {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ message: "ok" }));
      }
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections?.();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
