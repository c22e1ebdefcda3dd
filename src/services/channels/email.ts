// Not written yet.
import type { ChannelAdapter } from "./types";

const missing = (): never => {
  throw new Error("the email module is not written yet");
};
export const email: ChannelAdapter = { platform: "email", verify: async () => false, parse: missing, connect: missing, send: missing };
