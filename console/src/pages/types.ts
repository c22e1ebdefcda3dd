import type { ComponentType } from "preact";
import type { Locale } from "../i18n";
import type { Requirement } from "../shell/session";

/** What every page receives: its path's parameters (`rest` for a `/x/*` page) and the organization it shows. */
export interface PageProps {
  params: Record<string, string>;
  organizationId: string;
}

export interface PageEntry {
  path: string;
  load: () => Promise<{ default: ComponentType<PageProps> }>;
  nav?: Record<Locale, string>;
  requires: Requirement | null;
}
