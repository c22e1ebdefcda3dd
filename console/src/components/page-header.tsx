import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { arrived } from "../shell/router";
import { setPageTitle } from "../shell/notifications";
import { announce } from "./announcer";
import { Button } from "./button";
import { t } from "./strings";

/** The usual action of a page or a section ("New ..."), a primary button; false when the member may not take it. */
export type Action = { text: string; run: () => void } | false;

function MainAction({ action }: { action?: Action }) {
  return action ? (
    <Button variant="primary" onClick={action.run}>
      {action.text}
    </Button>
  ) : null;
}

/**
 * A page's title (its one h1) and its main actions: `action` is the usual one (New ..., a primary
 * button; false when the member may not take it), `children` any other. Sets the document title;
 * after a navigation the heading takes the focus and is announced, so keyboard and screen-reader
 * users start there.
 */
export function PageHeader({
  title,
  action,
  children,
}: {
  title: string;
  action?: Action;
  children?: ComponentChildren;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  // In the current language: a switch changes the tab's title too, even where the page's title is a name.
  const pageTitle = t("pageTitle", { title });
  useEffect(() => {
    setPageTitle(pageTitle); // after the unread count, if any
    if (arrived.peek()) {
      arrived.value = false;
      heading.current?.focus();
      announce(title);
    }
  }, [pageTitle]);
  return (
    <div class="page-header">
      <h1 ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {(action || children) && (
        <div class="actions">
          <MainAction action={action} />
          {children}
        </div>
      )}
    </div>
  );
}

/**
 * A section's heading (an h2 whose `id` names the section) and its actions: `action` is the usual
 * one (a primary button; false when the member may not take it), `children` any other.
 */
export function SectionHead({
  id,
  title,
  action,
  children,
}: {
  id: string;
  title: string;
  action?: Action;
  children?: ComponentChildren;
}) {
  return (
    <div class="section-head">
      <h2 id={id}>{title}</h2>
      <MainAction action={action} />
      {children}
    </div>
  );
}

/**
 * A section of a page, named by its heading (SectionHead: `title` as the h2 of id `id`, `action` beside it), with
 * the `intro` under the heading, then what it holds.
 */
export function Section({
  id,
  title,
  action,
  intro,
  children,
}: {
  id: string;
  title: string;
  action?: Action;
  intro: string;
  children: ComponentChildren;
}) {
  return (
    <section class="section" aria-labelledby={id}>
      <SectionHead id={id} title={title} action={action} />
      <p class="muted">{intro}</p>
      {children}
    </section>
  );
}
