// Each platform's module, loaded when its first event or reply comes (not at start-up: cold start
// stays within budget with the platform libraries in; docs/decisions.md, "Messaging channels").
import type { AnyChannelAdapter, ChannelPlatform } from "./types";

const LOADERS: Record<ChannelPlatform, () => Promise<AnyChannelAdapter>> = {
  telegram: () => import("./telegram").then((m) => m.telegram),
  line: () => import("./line").then((m) => m.line),
  messenger: () => import("./meta").then((m) => m.messenger),
  instagram: () => import("./meta").then((m) => m.instagram),
  whatsapp: () => import("./meta").then((m) => m.whatsapp),
  slack: () => import("./slack").then((m) => m.slack),
  email: () => import("./email").then((m) => m.email),
};

const loaded = new Map<ChannelPlatform, Promise<AnyChannelAdapter>>();

export function adapterFor(platform: ChannelPlatform): Promise<AnyChannelAdapter> {
  let adapter = loaded.get(platform);
  if (!adapter) loaded.set(platform, (adapter = LOADERS[platform]()));
  return adapter;
}
