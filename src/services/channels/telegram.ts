// Not written yet.
import type { ChannelAdapter } from "./types";

const missing = (): never => {
  throw new Error("the telegram module is not written yet");
};
export const telegram: ChannelAdapter = { platform: "telegram", verify: async () => false, parse: missing, connect: missing, send: missing };
