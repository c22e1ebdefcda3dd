// Not written yet.
import type { ChannelAdapter } from "./types";

const missing = (): never => {
  throw new Error("the line module is not written yet");
};
export const line: ChannelAdapter = { platform: "line", verify: async () => false, parse: missing, connect: missing, send: missing };
