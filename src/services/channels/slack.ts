// Not written yet.
import type { ChannelAdapter } from "./types";

const missing = (): never => {
  throw new Error("the slack module is not written yet");
};
export const slack: ChannelAdapter = { platform: "slack", verify: async () => false, parse: missing, connect: missing, send: missing };
