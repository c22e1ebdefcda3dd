import { useRef } from "preact/hooks";
import { PageHeader } from "../../components";
import { navigate } from "../../shell/router";
import type { PageProps } from "../types";
import { ConnectorsSection } from "./connectors-section";
import { ToolsSection } from "./tools-section";
import { t } from "./strings";

const TABS = ["tools", "connectors"] as const;
type Tab = (typeof TABS)[number];

/**
 * Tools (api, function, MCP) and connectors, as two tabs (the WAI tabs pattern: arrow keys move
 * between tabs). The tab is the address (`/tools/connectors`), so a link, a reload or the navigation's
 * entry (`/tools`) opens its tab; choosing one goes there through the router, which the page follows.
 */
export default function ToolsPage({ params, organizationId }: PageProps) {
  const tab: Tab = params.rest === "connectors" ? "connectors" : "tools";
  const refs = useRef<Record<Tab, HTMLButtonElement | null>>({ tools: null, connectors: null });
  const choose = (next: Tab, focus = false) => {
    navigate(`/tools${next === "tools" ? "" : "/connectors"}`, { replace: true, arrive: false });
    if (focus) refs.current[next]?.focus();
  };
  const onKey = (event: KeyboardEvent) => {
    const i = TABS.indexOf(tab);
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (event.key === "Home" || event.key === "End")
      choose(event.key === "Home" ? TABS[0] : TABS[TABS.length - 1], true);
    else if (step) choose(TABS[(i + step + TABS.length) % TABS.length], true);
    else return;
    event.preventDefault();
  };
  return (
    <>
      <PageHeader title={t("title")} />
      <div role="tablist" aria-label={t("title")} class="tabs" onKeyDown={onKey}>
        {TABS.map((name) => (
          <button
            key={name}
            ref={(el) => {
              refs.current[name] = el;
            }}
            type="button"
            role="tab"
            id={`tab-${name}`}
            aria-controls={`panel-${name}`}
            aria-selected={tab === name}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => choose(name)}
          >
            {t(name)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === "tools" ? (
          <ToolsSection organizationId={organizationId} />
        ) : (
          <ConnectorsSection organizationId={organizationId} />
        )}
      </div>
    </>
  );
}
