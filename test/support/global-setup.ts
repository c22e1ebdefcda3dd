import type { TestProject } from "vitest/node";
import { startUpstream } from "./openai-upstream.mjs";
import { startReceiver } from "./webhook-receiver.mjs";
import { startMcpServer } from "./mcp-server.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of the local OpenAI-compatible upstream (no trailing slash, no /v1). */
    upstreamUrl: string;
    /** Base URL of the local webhook receiver (test/support/webhook-receiver.mjs). */
    receiverUrl: string;
    /** Base URL of the local MCP server (test/support/mcp-server.mjs). */
    mcpServerUrl: string;
  }
}

/** Runs in Node before the workers start: one upstream for the whole run, given to them as a binding. */
export default async function setup(project: TestProject) {
  const upstream = await startUpstream({ tokenDelayMs: 50 });
  const receiver = await startReceiver();
  const mcp = await startMcpServer();
  project.provide("upstreamUrl", upstream.url);
  project.provide("receiverUrl", receiver.url);
  project.provide("mcpServerUrl", mcp.url);
  return async () => {
    await mcp.close();
    await receiver.close();
    await upstream.close();
  };
}
