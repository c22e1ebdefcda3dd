// The contacts list's query (`GET /contacts/`): checked here, field by field (400 naming the field), and read whole by
// `contactFilters`, whose destructuring fails to compile when a filter added here is not read (docs/decisions.md,
// "One word per concept, and where a record's shape is written").
import { z } from "@hono/zod-openapi";
import { CHANNEL_TYPES } from "../db/schema";
import { isUuid } from "../lib/ids";
import { SearchParam } from "../lib/openapi";
import { PageQuery } from "../lib/pagination";

/** Search words read at the most (the rest are ignored). */
export const MAX_SEARCH_TERMS = 10;
const MAX_VALUES = 100;
const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

/** What a list's values must be, and what is said of those that are not. */
interface Check {
  valid: (value: string) => boolean;
  refusal: (invalid: string[]) => string;
}

/** Comma-separated values, also accepted as a repeated key (`?tags=a&tags=b`); empty means no filter. */
const list = (description: string, example: string, check?: Check) =>
  z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v, ctx) => {
      const values = [v ?? []]
        .flat()
        .flatMap((s) => s.split(","))
        .map((s) => s.trim())
        .filter(Boolean);
      const invalid = check ? values.filter((value) => !check.valid(value)) : [];
      if (values.length > MAX_VALUES) ctx.addIssue({ code: "custom", message: `At most ${MAX_VALUES} values.` });
      else if (check && invalid.length) ctx.addIssue({ code: "custom", message: check.refusal(invalid) });
      else return values.length ? values : undefined;
      return z.NEVER;
    })
    .openapi({ description, example, type: "string" });

export const ContactListQuery = PageQuery.extend({
  inboxes: list(
    "Comma-separated inbox ids: contacts linked to any of them",
    `${EXAMPLE_ID},0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3e`,
    { valid: isUuid, refusal: () => "Must be comma-separated UUIDs." },
  ),
  inbox: z
    .uuid()
    .optional()
    .openapi({ description: "Deprecated single inbox id; ignored when `inboxes` is given", example: EXAMPLE_ID }),
  query: SearchParam("Name or source id contains (case-insensitive)", "U4af"),
  search: SearchParam(
    `Full text: every word (first ${MAX_SEARCH_TERMS}) occurs in the name, e-mail, phone number, source id ` +
      `or a metadata value`,
    "王小明 gold",
  ),
  channels: list("Comma-separated channel types: contacts linked to an inbox of one of them", "web,line", {
    valid: (type) => (CHANNEL_TYPES as readonly string[]).includes(type),
    refusal: (unknown) => `Unknown channel type: ${unknown.join(", ")}.`,
  }),
  tags: list("Comma-separated tag names or ids: contacts with any of them", "vip,taipei"),
});

/** What the contacts list keeps (`contactConditions`, services/contacts.ts). */
export interface ContactFilters {
  /** Linked to any of these inboxes. */
  inboxes?: string[];
  /** Name or source id contains. */
  query?: string;
  /** Every word matches the name, e-mail, phone number, source id or a metadata value. */
  search?: string;
  /** Linked to an inbox of one of these channel types. */
  channels?: string[];
  /** Tagged with any of these tag names or ids. */
  tags?: string[];
}

/** The list's filters from its query (the page aside): the deprecated single `inbox` counts when `inboxes` is absent.
 * */
export function contactFilters(q: z.output<typeof ContactListQuery>): ContactFilters {
  const { inboxes, inbox, query, search, channels, tags, page: _page, pageSize: _pageSize, ...unread } = q;
  unread satisfies Record<string, never>;
  return {
    inboxes: inboxes ?? (inbox ? [inbox] : undefined),
    query: query || undefined,
    search: search || undefined,
    channels,
    tags,
  };
}
