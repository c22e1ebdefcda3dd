// A small router on the History API: the console lives under /console/, every other segment is
// the console's own path (`/models`, `/assistants/42`). Links are real <a href>s, so a new tab,
// a copied link and a reload all work (the worker answers any /console/* with the shell).
import { signal } from "@preact/signals";

export const BASE = "/console";

const own = (pathname: string) => pathname.slice(BASE.length).replace(/\/+$/, "") || "/";

/** The console's path of the current URL, `/` for the start page. */
export const currentPath = signal(own(location.pathname));
/** The current URL's query (`?contact=...`, "" for none): what a link asks of the page it opens. */
export const currentSearch = signal(location.search);
/** Set by navigation; the page title takes focus once the new page shows it (FocusOnArrival). */
export const arrived = signal(false);

/**
 * Goes to a console path, with its query if it has one (`/conversations?contact=...`). `arrive: false` is a page
 * changing its own view (a tab): the focus stays where the member is instead of going to the page's title.
 */
export function navigate(path: string, { replace = false, arrive = true } = {}) {
  const url = BASE + (path === "/" ? "/" : path);
  if (replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  currentPath.value = own(location.pathname);
  currentSearch.value = location.search;
  arrived.value = arrive;
}

addEventListener("popstate", () => {
  currentPath.value = own(location.pathname);
  currentSearch.value = location.search;
  arrived.value = true;
});

/**
 * Matches `/models/:id` or `/assistants/*` against a path: the named parameters, plus `rest` for
 * what `*` covered ("" for the bare prefix); null when it does not match.
 */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const wild = pattern.endsWith("/*");
  const parts = (wild ? pattern.slice(0, -2) : pattern).split("/").filter(Boolean);
  const segments = path.split("/").filter(Boolean);
  if (wild ? segments.length < parts.length : segments.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    if (parts[i].startsWith(":")) params[parts[i].slice(1)] = decodeURIComponent(segments[i]);
    else if (parts[i] !== segments[i]) return null;
  }
  if (wild) params.rest = segments.slice(parts.length).join("/");
  return params;
}

/** Follows a same-console link without a reload; lets modified clicks (new tab) through. */
export function followLink(event: MouseEvent) {
  const a = (event.currentTarget as HTMLAnchorElement) ?? null;
  if (
    !a ||
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey ||
    event.altKey
  )
    return;
  const url = new URL(a.href);
  if (url.origin !== location.origin || !url.pathname.startsWith(BASE)) return;
  event.preventDefault();
  navigate(own(url.pathname) + url.search);
}
