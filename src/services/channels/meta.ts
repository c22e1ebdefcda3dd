// Not written yet.
import type { ChannelAdapter, ChannelPlatform } from "./types";

const missing = (): never => {
  throw new Error("the Meta module is not written yet");
};
const notYet = (platform: ChannelPlatform): ChannelAdapter => ({ platform, verify: async () => false, parse: missing, connect: missing, send: missing });
export const messenger = notYet("messenger");
export const instagram = notYet("instagram");
export const whatsapp = notYet("whatsapp");
