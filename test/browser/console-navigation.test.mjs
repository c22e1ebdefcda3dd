// The console's detail pages when the record in the address changes without a new document: a link or a notification
// to another record of the same kind, Back and Forward (one record's page straight to another's). For each page that
// shows one record by its id (an assistant, a knowledge base, a contact, a SQL database, a web chat, a messaging
// channel, a group, a conversation): while B's record is still on its way the page never shows A's under B's address;
// an edit begun on A is not carried to B's form; a save on B writes B and leaves A as it was, and back on A a save
// writes A. A contact's edit dialog left open by Back is not saved onto the contact then shown. A tab of the same
// record, another conversation of the inbox or a query keep the page mounted. The inbox keeps its one live stream
// while it moves between conversations, and the transcript follows the one open. axe-core on each record's page.
// One worker and one signed-in tab for all of them.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  axeViolations,
  dialog,
  holdAnswers,
  LOCAL_KB_MODELS,
  LOCAL_LLM,
  openPage,
  signInOwner,
  startConsole,
} from "./console-helpers.mjs";

let app, api, page, context, errors, answers, organization, bot;
/** The requests the tab made to the organization's live stream (`conversation-events/`). */
const streams = [];

beforeAll(async () => {
  app = await startConsole();
  api = app.server.api;
  [organization] = await api("/organizations/?pagination=false", { method: "GET" });
  bot = await api("/chatbots/", { body: { name: "Concierge", largeLanguageModel: LOCAL_LLM } });
  ({ context, page, errors } = await openPage(app.browser));
  page.on("request", (r) => r.url().includes("/conversation-events/") && streams.push(r.url()));
  await signInOwner(app, context);
  answers = await holdAnswers(page);
  await page.goto(`${app.base}/console/assistants`);
  await page.locator(".shell main h1").waitFor();
}, 300_000);

// A test that failed while an answer was held does not leave the next one waiting for it.
afterEach(() => answers?.release());

afterAll(async () => {
  await app?.close();
});

const get = (path) => api(path, { method: "GET" });
const main = (p) => p.locator("main");

/**
 * Goes to the console's `path` within the page, as its own links, a notification's and an address changed by the
 * History API do: the router hears the change (popstate) and the mounted page gets the new parameters.
 */
const go = (path) =>
  page.evaluate((url) => {
    history.pushState(null, "", url);
    dispatchEvent(new PopStateEvent("popstate"));
  }, `/console${path}`);

/** Every text field's value on the page: what a save would send. */
const fieldValues = () =>
  page.evaluate(() => [...document.querySelectorAll("input, textarea")].map((el) => el.value).filter(Boolean));

/**
 * The pages that show one record by its id. Each kind: `make(name)` creates a record (its id and the name its page
 * shows); `path(id)`; `read(id)`, the API path of the read that brings the record to the page (held while B loads);
 * `heading(page)`, what names the record shown; `names: false` where the text edited is not that name; `open(page)`
 * opens its editor (a dialog) where it has one; `field`, the text the test edits (one word: a channel's id takes no
 * spaces); `save(page)` saves it; `saved(id)`, that text as the API holds it now.
 */
const KINDS = [
  {
    kind: "assistant",
    make: async (name) => {
      const a = await api("/chatbots/", { body: { name, largeLanguageModel: LOCAL_LLM } });
      return { id: a.id, name };
    },
    path: (id) => `/assistants/${id}`,
    read: (id) => `/api/v1/chatbots/${id}/`,
    field: (p) => p.locator(".assistant-form").getByLabel("Name", { exact: true }),
    save: (p) => p.getByRole("button", { name: "Save changes" }).click(),
    saved: async (id) => (await get(`/chatbots/${id}/`)).name,
  },
  {
    kind: "knowledge base",
    make: async (name) => {
      const kb = await api("/knowledge-bases/", { body: { name, ...LOCAL_KB_MODELS } });
      return { id: kb.id, name };
    },
    path: (id) => `/knowledge-bases/${id}/settings`,
    read: (id) => `/api/v1/knowledge-bases/${id}/`,
    field: (p) => p.locator("#kb-settings").getByLabel("Name", { exact: true }),
    save: (p) => p.getByRole("button", { name: "Save settings" }).click(),
    saved: async (id) => (await get(`/knowledge-bases/${id}/`)).name,
  },
  {
    kind: "contact",
    make: async (name) => ({ id: (await api("/contacts/", { body: { name } })).id, name }),
    path: (id) => `/contacts/${id}`,
    read: (id) => `/api/v1/contacts/${id}/`,
    open: (p) => p.getByRole("button", { name: "Edit", exact: true }).click(),
    field: (p) => dialog(p).getByLabel("Name", { exact: true }),
    save: async (p) => {
      await dialog(p).getByRole("button", { name: "Save" }).click();
      await dialog(p).waitFor({ state: "detached" });
    },
    saved: async (id) => (await get(`/contacts/${id}/`)).name,
  },
  {
    kind: "SQL database",
    make: async (name) => {
      const d = await api("/sql-databases/", { body: { name, databaseType: "managed" } });
      return { id: d.id, name };
    },
    path: (id) => `/sql-databases/${id}`,
    read: (id) => `/api/v1/sql-databases/${id}/`,
    open: (p) => p.getByRole("button", { name: "Edit", exact: true }).click(),
    field: (p) => dialog(p).getByLabel("Name", { exact: true }),
    save: async (p) => {
      await dialog(p).getByRole("button", { name: "Save" }).click();
      await dialog(p).waitFor({ state: "detached" });
    },
    saved: async (id) => (await get(`/sql-databases/${id}/`)).name,
  },
  {
    kind: "web chat",
    make: async (name) => {
      const inbox = await api("/inboxes/", { body: { name, channelType: "web", chatbot: { id: bot.id } } });
      await api(`/web-chats/${inbox.channel.id}/`, { method: "PATCH", body: { name } });
      return { id: inbox.channel.id, name };
    },
    path: (id) => `/web-chats/${id}`,
    read: (id) => `/api/v1/web-chats/${id}/`,
    field: (p) => p.locator(".designer-form").getByLabel("Name", { exact: true }),
    save: (p) => p.getByRole("button", { name: "Save changes" }).click(),
    saved: async (id) => (await get(`/web-chats/${id}/`)).name,
  },
  {
    // The heading names the inbox; what is edited is the LINE channel's id (a plain field, saved as typed).
    kind: "channel",
    names: false,
    make: async (name) => ({ id: (await api("/inboxes/", { body: { name, channelType: "line" } })).id, name }),
    path: (id) => `/channels/${id}`,
    read: (id) => `/api/v1/inboxes/${id}/channel/`,
    field: (p) => p.getByLabel("Channel ID"),
    save: (p) => p.getByRole("button", { name: "Save", exact: true }).click(),
    saved: async (id) => (await get(`/inboxes/${id}/channel/`)).credentials.channelId ?? "",
  },
  {
    kind: "group",
    make: async (name) => {
      const g = await api(`/organizations/${organization.id}/groups/`, { body: { name, permissions: [] } });
      return { id: g.id, name };
    },
    path: (id) => `/members/groups/${id}`,
    read: (id) => `/api/v1/organizations/${organization.id}/groups/${id}/`,
    field: (p) => p.getByLabel("Group name"),
    save: (p) => p.getByRole("button", { name: "Save name and permissions" }).click(),
    saved: async (id) => (await get(`/organizations/${organization.id}/groups/${id}/`)).name,
  },
  {
    // Named by its title (its first message); what is written is a private note, saved by Add note.
    kind: "conversation",
    names: false,
    make: async (name) => {
      const { conversationId } = await api(`/chatbots/${bot.id}/completions/`, {
        body: { message: { content: name } },
      });
      return { id: conversationId, name: (await get(`/conversations/${conversationId}/`)).title };
    },
    path: (id) => `/conversations/${id}`,
    read: (id) => `/api/v1/conversations/${id}/`,
    heading: (p) => p.locator("#transcript-title"),
    field: (p) => p.getByLabel("Private note for the team"),
    save: async (p) => {
      const text = await p.getByLabel("Private note for the team").inputValue();
      await p.getByRole("button", { name: "Add note" }).click();
      await p.locator(".transcript .msg", { hasText: text }).waitFor();
    },
    saved: async (id) =>
      (await get(`/messages/?conversation=${id}&pageSize=100`)).results
        .filter((m) => m.private)
        .map((m) => m.content)
        .join(" | "),
  },
];

/** What names the record the page shows: its heading, unless the kind says otherwise. */
const headingOf = (kind) => (kind.heading ?? ((p) => main(p).locator("h1")))(page);

/** Until the page's heading names `name` (the record is shown). */
const showing = (kind, name) =>
  expect.poll(async () => (await headingOf(kind).allTextContents()).join(" | ")).toContain(name);

/** The kind's edited text set to `text` on the record shown (its editor opened first where it has one). */
async function edit(kind, text) {
  await kind.open?.(page);
  await kind.field(page).fill(text);
}

describe("a detail page when the record in the address changes", () => {
  it.each(KINDS)("$kind: B's page shows and saves B, never A's record or A's edit; Back to A saves A", async (kind) => {
    const tag = kind.kind.replace(/\W/g, "");
    const [a, b] = [await kind.make(`Alpha ${tag} record`), await kind.make(`Bravo ${tag} record`)];
    const aBefore = await kind.saved(a.id);
    await go(kind.path(a.id));
    await showing(kind, a.name);
    // An edit begun on A and left unsaved.
    const unsaved = `unsaved-edit-of-${tag}-A`;
    await edit(kind, unsaved);

    // Then B, whose record is slow to come: meanwhile nothing of A is shown under B's address.
    answers.hold((r) => r.method() === "GET" && new URL(r.url()).pathname === kind.read(b.id));
    await go(kind.path(b.id));
    await expect.poll(() => answers.held()).toBe(1);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
    expect(await headingOf(kind).allTextContents()).not.toContainEqual(expect.stringContaining(a.name));
    expect(await fieldValues()).not.toContain(unsaved);
    answers.release();
    await showing(kind, b.name);
    expect(await fieldValues()).not.toContain(unsaved);
    expect(await axeViolations(page)).toEqual([]);

    // A save on B writes B alone.
    const onB = `saved-on-${tag}-B`;
    await edit(kind, onB);
    await kind.save(page);
    await expect.poll(() => kind.saved(b.id)).toContain(onB);
    expect(await kind.saved(a.id)).toBe(aBefore);
    const bSaved = await kind.saved(b.id);

    // Back: A's page, with A's record, not B's; a save there writes A.
    await page.evaluate(() => history.back());
    await showing(kind, a.name);
    expect(await fieldValues()).not.toContain(onB);
    const onA = `saved-on-${tag}-A`;
    await edit(kind, onA);
    await kind.save(page);
    await expect.poll(() => kind.saved(a.id)).toContain(onA);
    expect(await kind.saved(b.id)).toBe(bSaved);

    // Forward: B again.
    await page.evaluate(() => history.forward());
    await showing(kind, kind.names === false ? b.name : onB);
    expect(await fieldValues()).not.toContain(onA);
    expect(errors).toEqual([]);
  });

  it("a contact's edit left open when the member goes Back writes none of it onto the contact shown", async () => {
    const a = await api("/contacts/", { body: { name: "Ada Back", metadata: { plan: "gold" } } });
    const b = await api("/contacts/", { body: { name: "Bob Back", metadata: { plan: "silver", vip: "yes" } } });
    await go(`/contacts/${a.id}`);
    await main(page).locator("h1", { hasText: "Ada Back" }).waitFor();
    await go(`/contacts/${b.id}`);
    await main(page).locator("h1", { hasText: "Bob Back" }).waitFor();
    await page.getByRole("button", { name: "Edit", exact: true }).click();
    await dialog(page).getByLabel("Name", { exact: true }).waitFor();
    await page.evaluate(() => history.back());
    await main(page).locator("h1", { hasText: "Ada Back" }).waitFor();
    // The member saves Ada as the page shows her: in the dialog still open over her page if it is, else in a new one.
    const leftOpen = await dialog(page).count();
    if (!leftOpen) await page.getByRole("button", { name: "Edit", exact: true }).click();
    expect(await dialog(page).getByLabel("Name", { exact: true }).inputValue()).toBe("Ada Back");
    await dialog(page).getByRole("button", { name: "Save" }).click();
    await dialog(page).waitFor({ state: "detached" });
    expect((await get(`/contacts/${a.id}/`)).metadata).toEqual({ plan: "gold" });
    expect((await get(`/contacts/${b.id}/`)).metadata).toEqual({ plan: "silver", vip: "yes" });
    expect(leftOpen).toBe(0);
    expect(errors).toEqual([]);
  });

  it("a tab of one record, another conversation or a query keeps the page mounted; another record not", async () => {
    /** Marks the page's heading element; whether it is still the one marked (the page was not mounted anew). */
    const mark = () =>
      main(page)
        .locator("h1")
        .evaluate((el) => void (el.dataset.mounted = "kept"));
    const kept = () => main(page).locator("h1").getAttribute("data-mounted");
    const [one, other] = [
      await api("/knowledge-bases/", { body: { name: "Mounted base", ...LOCAL_KB_MODELS } }),
      await api("/knowledge-bases/", { body: { name: "Other base", ...LOCAL_KB_MODELS } }),
    ];
    await go(`/knowledge-bases/${one.id}/files`);
    await main(page).locator("h1", { hasText: "Mounted base" }).waitFor();
    await mark();
    await go(`/knowledge-bases/${one.id}/settings`);
    await page.locator("#kb-settings").waitFor();
    expect(await kept()).toBe("kept");
    await go(`/knowledge-bases/${other.id}/settings`);
    await main(page).locator("h1", { hasText: "Other base" }).waitFor();
    expect(await kept()).toBeNull();

    const grace = await api("/contacts/", { body: { name: "Grace Mounted" } });
    const ask = async (content) =>
      (await api(`/chatbots/${bot.id}/completions/`, { body: { message: { content, sender: grace.id } } }))
        .conversationId;
    const [a, b] = [await ask("Is the shop open on Sunday?"), await ask("Do you ship abroad?")];
    await go(`/conversations/${a}`);
    await page.locator(".transcript .msg", { hasText: "Is the shop open on Sunday?" }).first().waitFor();
    await mark();
    await go(`/conversations/${b}`);
    await page.locator(".transcript .msg", { hasText: "Do you ship abroad?" }).first().waitFor();
    // The contact's conversations alone (the link of a contact's page): the list filtered, the page the same.
    await go(`/conversations/${b}?contact=${grace.id}`);
    await expect.poll(() => page.getByRole("combobox", { name: "Contact", exact: true }).inputValue()).toBe(grace.id);
    expect(await kept()).toBe("kept");
    expect(errors).toEqual([]);
  });

  it("the inbox keeps its one live stream across conversations; the transcript follows the one open", async () => {
    const ask = async (content, conversation) =>
      (
        await api(`/chatbots/${bot.id}/completions/`, {
          body: { message: { content }, ...(conversation ? { conversation } : {}) },
        })
      ).conversationId;
    const a = await ask("Where is my parcel?");
    const b = await ask("Can I change my address?");
    // The inbox opened afresh (from another page), its list unfiltered.
    await go("/assistants");
    await main(page).locator("h1", { hasText: "Assistants" }).waitFor();
    await go(`/conversations/${a}`);
    await page.locator(".badge.live").waitFor();
    await page.locator(".transcript .msg", { hasText: "Where is my parcel?" }).first().waitFor();
    const opened = streams.length;
    expect(opened).toBeGreaterThan(0);

    await go(`/conversations/${b}`);
    await page.locator(".transcript .msg", { hasText: "Can I change my address?" }).first().waitFor();
    // A's new message comes live to the list, never into B's transcript; B's comes into it.
    await ask("It was due yesterday.", a);
    await page.locator(".inbox-list li", { hasText: "It was due yesterday." }).first().waitFor();
    await ask("To 1 Main Street.", b);
    await page.locator(".transcript .msg", { hasText: "To 1 Main Street." }).first().waitFor();
    expect(await page.locator(".transcript").textContent()).not.toContain("It was due yesterday.");

    await page.evaluate(() => history.back());
    await page.locator(".transcript .msg", { hasText: "It was due yesterday." }).first().waitFor();
    expect(await page.locator(".transcript").textContent()).not.toContain("To 1 Main Street.");
    // Still the one stream it had: none opened again, none closed.
    expect(streams.length).toBe(opened);
    expect(await page.locator(".badge.live").count()).toBe(1);
    expect(errors).toEqual([]);
  });
});
