// Each platform's module, loaded when its first event or reply comes (not at start-up: cold start
// stays within budget with the platform libraries in; docs/decisions.md, "Messaging channels").
import { lazy } from "../../lib/lazy";
import type { AnyChannelAdapter, ChannelPlatform } from "./types";

const LOADERS: Record<ChannelPlatform, () => Promise<AnyChannelAdapter>> = {
  telegram: lazy(() => import("./telegram").then((m) => m.telegram)),
  line: lazy(() => import("./line").then((m) => m.line)),
  messenger: lazy(() => import("./meta").then((m) => m.messenger)),
  instagram: lazy(() => import("./meta").then((m) => m.instagram)),
  whatsapp: lazy(() => import("./meta").then((m) => m.whatsapp)),
  slack: lazy(() => import("./slack").then((m) => m.slack)),
  email: lazy(() => import("./email").then((m) => m.email)),
};

export function adapterFor(platform: ChannelPlatform): Promise<AnyChannelAdapter> {
  return LOADERS[platform]();
}
