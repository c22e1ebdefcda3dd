import { startServer } from "./lib.mjs";
import { startUpstream, UPSTREAM_API_KEY } from "../test/support/openai-upstream.mjs";
import { writeFileSync, readdirSync, cpSync, rmSync } from "node:fs";
import path from "node:path";
import WS from "ws";
const [root, out, port] = [process.argv[2], process.argv[3], Number(process.argv[4] ?? 9770)];
const upstream = await startUpstream({ tokenDelayMs: 0, port: port + 5 });
const server = await startServer({ root, port, inspectorPort: port + 1, devtools: true });
try {
  const model = await server.api("/large-language-models/", { body: { name: "B", provider: "openai_compatible", modelName: "bench", baseUrl: `${upstream.url}/v1`, apiKey: UPSTREAM_API_KEY } });
  const bot = await server.api("/chatbots/", { body: { name: "Bench bot", largeLanguageModel: model.id } });
  const one = () => fetch(`${server.base}/api/v1/chatbots/${bot.id}/completions/`, { method: "POST", headers: { ...server.headers, "Content-Type": "application/json" }, body: JSON.stringify({ message: { content: "hello" } }) }).then((r) => r.text());
  const burst = async (n) => { let i = 0; await Promise.all(Array.from({ length: 8 }, async () => { while (i++ < n) await one(); })); };
  await burst(100);
  const list = await (await fetch(`http://127.0.0.1:${port + 1}/json`)).json();
  const socket = new WS(list[0].webSocketDebuggerUrl, { origin: `http://localhost:${port + 1}` });
  await new Promise((res, rej) => ((socket.onopen = res), (socket.onerror = (e) => rej(e.message))));
  let id = 0; const waiting = new Map();
  socket.onmessage = (e) => { const m = JSON.parse(e.data); waiting.get(m.id)?.(m.result); };
  const send = (method, params) => new Promise((r) => (waiting.set(++id, r), socket.send(JSON.stringify({ id, method, params }))));
  await send("Profiler.enable"); await send("Profiler.setSamplingInterval", { interval: 100 }); await send("Profiler.start");
  await burst(400);
  const { profile } = await send("Profiler.stop");
  writeFileSync(`${out}.cpuprofile`, JSON.stringify(profile));
  const tmp = path.join(root, ".wrangler", "tmp"); const dev = readdirSync(tmp).find((d) => d.startsWith("dev-"));
  cpSync(path.join(tmp, dev, "index.js"), `${out}.index.js`);
  socket.close();
} finally { await server.stop(); await upstream.close(); }
