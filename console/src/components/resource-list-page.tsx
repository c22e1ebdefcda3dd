import type { ComponentChildren } from "preact";
import { type Action, PageHeader, Section } from "./page-header";
import { ListSearch, ResourceList, type ResourceListProps } from "./resource-list";

/**
 * A page that is a list of records: its title and usual action (PageHeader), the intro under them, a `notice` (what
 * the member may not do, say), the search box where `search` labels it, then the list (ResourceList) and `children`
 * (the page's own dialogs). The list is named by a heading only screen readers see, the page's title; or, where the
 * intro has the id `introId` and the list is labelled by it, by the intro.
 */
export function ResourceListPage<Row extends { id: string }, Saved = Row>({
  title,
  action,
  intro,
  introId,
  notice,
  search,
  children,
  ...list
}: {
  title: string;
  action?: Action;
  intro: string;
  introId?: string;
  notice?: ComponentChildren;
  search?: { label: string; hint?: string };
  children?: ComponentChildren;
} & Omit<ResourceListProps<Row, Saved>, "heading">) {
  return (
    <>
      <PageHeader title={title} action={action} />
      <p class="muted" id={introId}>
        {intro}
      </p>
      {notice}
      {search && <ListSearch search={list.crud} label={search.label} hint={search.hint} />}
      <ResourceList {...list} heading={list.labelledBy === introId ? undefined : title} />
      {children}
    </>
  );
}

/**
 * A section of a page that is a list of records: its heading (the h2 of id `id`, which names the list) with its usual
 * action, the intro, the list (ResourceList), then `children` (the section's own dialogs).
 */
export function ResourceListSection<Row extends { id: string }, Saved = Row>({
  id,
  title,
  action,
  intro,
  children,
  ...list
}: {
  id: string;
  title: string;
  action?: Action;
  intro: string;
  children?: ComponentChildren;
} & Omit<ResourceListProps<Row, Saved>, "labelledBy" | "heading">) {
  return (
    <Section id={id} title={title} action={action} intro={intro}>
      <ResourceList {...list} labelledBy={id} />
      {children}
    </Section>
  );
}
