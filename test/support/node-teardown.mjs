// A setup file of vitest.node.config.mjs: after each file, whatever server it started and did not
// stop is stopped (a file whose beforeAll timed out never got its server back to stop it, and the
// server would hold its port, and answer in the place of the next file's, in the same worker).
import { afterAll } from "vitest";
import { stopServers } from "../../bench/lib.mjs";

afterAll(async () => {
  await stopServers();
});
