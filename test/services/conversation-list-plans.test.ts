// The conversation reads an operator filters and a visitor's widget makes reach their page through an index of their
// own, whatever the organization's size: SQLite's plan of the very queries the services run, in each kind of data
// plane (an organization's shard and `DB`, where organizations from before the shards keep theirs). Without these
// indexes each walked the organization's history for a page, or sorted all of it (docs/decisions.md, "The
// conversation list's indexes"; `npm run bench -- reads` times them among 200,000 conversations).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { parts, seedOwner } from "../harness";
import { dataDbs } from "../../src/services/shards";
import { queryPlan } from "../support/query-plan";
import { uuidv7 } from "../../src/lib/ids";
import type { Db } from "../../src/env";
import { listConditions, listQueryIn } from "../../src/services/conversation/list";
import { ConversationListQuery } from "../../src/services/conversation/list-query";
import { visitorConversationsIn } from "../../src/services/widget/visitors";
import { ratedConversationsIn } from "../../src/services/widget/feedback";
import { waitingQueueIn } from "../../src/services/assignment/round-robin";

const ME = uuidv7();
const TEAM = uuidv7();
const INBOX = uuidv7();
/** Each filter (as the query string names it) and the index search its page is read through. */
const FILTERS: [string, Record<string, string>, string][] = [
  ["none", {}, "conversations_org_id_idx (organization_id=?)"],
  ["inbox", { inbox: INBOX }, "conversations_inbox_idx (inbox_id=?)"],
  ["chatbot", { chatbot: uuidv7() }, "conversations_chatbot_idx (organization_id=? AND chatbot_id=?)"],
  ["status=resolved", { status: "resolved" }, "conversations_status_idx (organization_id=? AND status=?)"],
  // Sorted by how long each waits: only the queued conversations are sorted.
  ["view=waiting", { view: "waiting" }, "conversations_status_idx (organization_id=? AND status=?)"],
  [
    "progressStatus=waiting_for_human",
    { progressStatus: "waiting_for_human" },
    "conversations_progress_idx (organization_id=? AND progress_status=?)",
  ],
  [
    "view=unassigned&team",
    { view: "unassigned", team: TEAM },
    "conversations_team_idx (organization_id=? AND team_id=?)",
  ],
  ["isTest=true", { isTest: "true" }, "conversations_test_idx (organization_id=? AND is_test=?)"],
];

describe("the conversation reads' plans", async () => {
  const owner = await seedOwner();
  const planes: [string, Db][] = [
    ["the organization's shard", (await parts(owner.organizationId))[0]],
    // dataDbs' first: `DB` as a data plane.
    ["DB", dataDbs(env)[0]],
  ];
  describe.each(planes)("in %s", (_, part) => {
    it.each(FILTERS)("the list filtered by %s reads %s", async (_filter, filters, search) => {
      const list = listConditions(owner.organizationId, ME, ConversationListQuery.parse(filters));
      const shown = await queryPlan(part, listQueryIn(part, list));
      expect(shown).toContain(`SEARCH conversations USING INDEX ${search}`);
      expect(shown).not.toMatch(/SCAN conversations/);
    });

    it("the list filtered by a label walks the label's links newest first, reading only theirs", async () => {
      const list = listConditions(owner.organizationId, ME, ConversationListQuery.parse({ label: uuidv7() }));
      const shown = await queryPlan(part, listQueryIn(part, list));
      expect(shown.split("\n")[0]).toBe(
        "SEARCH labelled USING COVERING INDEX conversation_labels_label_idx (label_id=?)",
      );
      expect(shown).toMatch(/SEARCH conversations USING INDEX \w+ \((organization_id=\? AND )?id=\?\)/);
      expect(shown).not.toMatch(/TEMP B-TREE|SCAN conversations/);
    });

    it("a visitor's conversations in the widget are read by the contact, not the organization", async () => {
      const shown = await queryPlan(part, visitorConversationsIn(part, owner.organizationId, INBOX, uuidv7()));
      expect(shown).toMatch(/SEARCH conversations USING INDEX conversations_contact_idx \(contact_id=\?\)/);
      expect(shown).not.toMatch(/TEMP B-TREE/);
    });

    it.each([false, true])(
      "a visitor's rating finds their conversations by the contact (merged by activity: %s)",
      async (merged) => {
        const shown = await queryPlan(part, ratedConversationsIn(part, INBOX, uuidv7(), merged));
        expect(shown).toMatch(/SEARCH conversations USING INDEX conversations_contact_idx \(contact_id=\?\)/);
      },
    );

    it("the round-robin reads only the queued conversations no one holds, longest waiting first", async () => {
      const shown = await queryPlan(part, waitingQueueIn(part, owner.organizationId, [INBOX, uuidv7()], uuidv7()));
      expect(shown).toMatch(
        /SEARCH conversations USING INDEX conversations_\w+_idx \(organization_id=\? AND [^)]*status=\?\)/,
      );
    });
  });
});
