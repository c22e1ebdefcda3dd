import type { TestProject } from "vitest/node";
import { startUpstream } from "./openai-upstream.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of the local OpenAI-compatible upstream (no trailing slash, no /v1). */
    upstreamUrl: string;
  }
}

/** Runs in Node before the workers start: one upstream for the whole run, given to them as a binding. */
export default async function setup(project: TestProject) {
  const upstream = await startUpstream({ tokenDelayMs: 50 });
  project.provide("upstreamUrl", upstream.url);
  return () => upstream.close();
}
