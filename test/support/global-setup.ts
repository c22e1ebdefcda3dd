import type { TestProject } from "vitest/node";
import { startUpstream } from "./openai-upstream.mjs";
import { startReceiver } from "./webhook-receiver.mjs";
import { startMcpServer } from "./mcp-server.mjs";
import { startPlatforms } from "./platforms/index.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of the local OpenAI-compatible upstream (no trailing slash, no /v1). */
    upstreamUrl: string;
    /** Base URL of the local webhook receiver (test/support/webhook-receiver.mjs). */
    receiverUrl: string;
    /** Base URL of the local MCP server (test/support/mcp-server.mjs). */
    mcpServerUrl: string;
    /** The messaging platforms' stand-ins (test/support/platforms): base URL by name, and by setting
     * (LINE_API_ORIGIN...). */
    platformUrls: Record<string, string>;
    platformSettings: Record<string, string>;
  }
}

/** Runs in Node before the workers start: one upstream for the whole run, given to them as a binding. */
export default async function setup(project: TestProject) {
  const upstream = await startUpstream({ tokenDelayMs: 50 });
  const receiver = await startReceiver();
  const mcp = await startMcpServer();
  const platforms = await startPlatforms();
  project.provide("platformUrls", platforms.urls);
  project.provide("platformSettings", platforms.settings);
  project.provide("upstreamUrl", upstream.url);
  project.provide("receiverUrl", receiver.url);
  project.provide("mcpServerUrl", mcp.url);
  return async () => {
    await platforms.close();
    await mcp.close();
    await receiver.close();
    await upstream.close();
  };
}
