import type { ComponentType } from "preact";
import type { Locale } from "../i18n";
import type { Requirements } from "../shell/session";

/** What every page receives: its path's parameters (`rest` for a `/x/*` page) and the organization it shows. */
export interface PageProps {
  params: Record<string, string>;
  organizationId: string;
}

export interface PageEntry {
  path: string;
  load: () => Promise<{ default: ComponentType<PageProps> }>;
  nav?: Record<Locale, string>;
  /** What the member needs to see the page: one permission, or every permission of a list. */
  requires: Requirements;
  /**
   * The address of one record on this page (`/assistants/:id`): another record's address mounts the page afresh
   * (shell/outlet.tsx). None where every address below the page is a view of one mounted page (the inbox's open
   * conversation, the tools' tabs).
   */
  record?: string;
}
