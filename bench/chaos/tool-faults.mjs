// Agent replies whose tool misbehaves, many at once: api tools against the loopback receiver
// (test/support/webhook-receiver.mjs) that hang, trickle, answer too much or malformed JSON; a
// function tool that loops; MCP servers (test/support/mcp-server.mjs) that never answer a call or
// hang at the handshake. The built-in local model is made to call the tool (the message's toolIds)
// and then says what it read. Every reply must complete, with one timeout or failure record per
// call that the model was told about; "time to recover" is how long replies took against the limit.
import { startReceiver } from "../../test/support/webhook-receiver.mjs";
import { startMcpServer } from "../../test/support/mcp-server.mjs";
import { LOCAL_LLM } from "../lib.mjs";

const REPLIES = Number(process.env.CHAOS_TOOL_REPLIES ?? 40);
const CONCURRENCY = 8;
const TOOL_TIMEOUT_MS = 2000;
const FUNCTION_TIMEOUT_MS = 1000;
const CITY = { type: "object", properties: { city: { type: "string" } } };

export const description =
  `${REPLIES} agent replies per misbehaving tool (hang, trickle, 3 MB, malformed JSON, endless function, MCP ` +
  `call and handshake that hang), ${CONCURRENCY} at a time`;

export async function prepare() {
  const [receiver, mcp] = await Promise.all([startReceiver(), startMcpServer()]);
  const hosts = [receiver.url, mcp.url].map((u) => new URL(u).host).join(",");
  return {
    vars: {
      OUTBOUND_ALLOWED_HOSTS: hosts,
      TOOL_TIMEOUT_MS: String(TOOL_TIMEOUT_MS),
      FUNCTION_TOOL_TIMEOUT_MS: String(FUNCTION_TIMEOUT_MS),
    },
    context: { receiver, mcp },
    close: () => Promise.all([receiver.close(), mcp.close()]),
  };
}

export default async function ({ api, request, receiver, mcp, log }) {
  const api_ = (name, path) => ({
    name,
    displayName: name,
    toolType: "api",
    apiUrl: `${receiver.url}${path}`,
    httpMethod: "get",
    rawParametersSchema: CITY,
  });
  const faults = [
    {
      fault: "api tool that never answers",
      tool: api_("hanging_api", "/hang/x"),
      status: "timeout",
      limit: TOOL_TIMEOUT_MS,
    },
    {
      fault: "api tool trickling its answer",
      tool: api_("trickling_api", "/trickle/x?ms=60000"),
      status: "timeout",
      limit: TOOL_TIMEOUT_MS,
    },
    {
      fault: "api tool answering 3 MB",
      tool: api_("oversized_api", "/big/x?bytes=3000000"),
      status: "failure",
      limit: TOOL_TIMEOUT_MS,
    },
    {
      fault: "api tool answering malformed JSON",
      tool: api_("malformed_api", "/malformed/x"),
      status: "failure",
      limit: TOOL_TIMEOUT_MS,
    },
    {
      fault: "function tool looping forever",
      tool: {
        name: "spin",
        displayName: "spin",
        toolType: "function",
        functionCode: "function main() { for (;;) {} }",
        rawParametersSchema: CITY,
      },
      status: "timeout",
      limit: FUNCTION_TIMEOUT_MS,
      note: "function tools run in their organization's Dynamic Worker (on the worker's thread without one)",
    },
    {
      fault: "MCP tool call that never answers",
      tool: {
        name: "faults",
        displayName: "faults",
        toolType: "mcp",
        mcpUrl: `${mcp.url}/faults/mcp`,
        mcpAllowedTools: ["hang"],
      },
      status: "timeout",
      limit: TOOL_TIMEOUT_MS,
    },
    {
      fault: "MCP server hanging at the handshake",
      tool: { name: "gone", displayName: "gone", toolType: "mcp", mcpUrl: `${mcp.url}/hang` },
      status: null,
      limit: TOOL_TIMEOUT_MS,
    },
  ];
  const rows = [];
  for (const f of faults) {
    const tool = await api("POST", "/tools/", f.tool);
    const bot = await api("POST", "/chatbots/", {
      name: f.tool.name,
      largeLanguageModel: LOCAL_LLM,
      replyMode: "agent",
      tools: [{ id: tool.id }],
    });
    const times = [];
    let lost = 0;
    const ask = async (i) => {
      const started = Date.now();
      const res = await request("POST", `/chatbots/${bot.id}/completions/`, {
        message: { content: `Paris ${i}`, toolIds: [tool.id] },
      });
      times.push(Date.now() - started);
      // The model (the built-in one says what each tool returned) must have been told why.
      if (res.status !== 200 || (f.status && !res.json.content.includes(`Error (${f.status})`))) lost++;
    };
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < REPLIES) await ask(next++);
      }),
    );
    const records = (await api("GET", `/tool-execution-records/?chatbot=${bot.id}&pageSize=100`)).results;
    const wrong = f.status ? records.filter((r) => r.status !== f.status).length : records.length;
    const expectedRecords = f.status ? REPLIES : 0;
    lost += wrong + Math.max(0, expectedRecords - records.length);
    const sorted = [...times].sort((a, b) => a - b);
    const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
    const durations = records.map((r) => r.durationMs).sort((a, b) => a - b);
    rows.push({
      fault: f.fault,
      operations: `${REPLIES} replies`,
      lost,
      duplicated: Math.max(0, records.length - expectedRecords),
      recovery: `reply p50 ${s(sorted[Math.floor(sorted.length / 2)])}, max ${s(sorted.at(-1))} (limit ${s(f.limit)})`,
      note: [
        durations.length ? `call durations ${durations[0]}..${durations.at(-1)} ms` : "no call made (server left out)",
        f.note,
      ]
        .filter(Boolean)
        .join("; "),
    });
    log(`${f.fault}: done`);
  }
  return rows;
}
