// Every platform's stand-in (stand-in.mjs), started once per test run by the global setup and
// reached by the worker through the `*_API_ORIGIN` settings (vitest.config.ts).
import { startStandIn } from "./stand-in.mjs";

/** The API origin settings each stand-in answers for, by module. */
export const STAND_INS = {
  line: { module: "./line.mjs", settings: ["LINE_API_ORIGIN", "LINE_DATA_API_ORIGIN"] },
  telegram: { module: "./telegram.mjs", settings: ["TELEGRAM_API_ORIGIN"] },
  graph: { module: "./graph.mjs", settings: ["GRAPH_API_ORIGIN"] },
  slack: { module: "./slack.mjs", settings: ["SLACK_API_ORIGIN"] },
};

/** Starts them all; `urls` by stand-in name, `settings` by setting name. */
export async function startPlatforms() {
  const started = await Promise.all(
    Object.entries(STAND_INS).map(async ([name, { module, settings }]) => {
      const { platform } = await import(module);
      const server = await startStandIn(platform);
      return { name, settings, server };
    }),
  );
  return {
    urls: Object.fromEntries(started.map((s) => [s.name, s.server.url])),
    settings: Object.fromEntries(started.flatMap((s) => s.settings.map((setting) => [setting, s.server.url]))),
    close: () => Promise.all(started.map((s) => s.server.close())),
  };
}
