// The console's "Knowledge bases" page in Chromium against `wrangler dev`: signed in with a password,
// a knowledge base created, two files dropped at once (a progress bar each, then both ingestions
// followed to the end, and a broken one failing with its reason), two files uploaded from the
// keyboard alone (the drop zone's file button and the browser's file chooser), an FAQ added with the
// mouse and one with the keyboard alone, the search tester ranking the FAQ first with its terms marked,
// driven from the keyboard alone, and by every method (vector; hybrid with and without rerank: the
// score the API gives shown per result), FAQs imported from a CSV and an XLSX file, a text node edited
// and deleted, the settings changed; a member who may only look sees no controls and the API refuses
// them anyway, and a base outside their groups is not found, under a heading; axe-core in both themes; the
// screenshots of docs/console/ (files, FAQs, text nodes, search).
import writeXlsxFile from "write-excel-file/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  axeViolations,
  openPage,
  PASSWORD,
  sessionCookie,
  signInWithPassword,
  startConsole,
  ownerOn as ownerOnPage,
  dialog,
  tabTo,
  LOCAL_EMBEDDING,
  memberInNewGroup,
  ownerScreenshots,
  tabAndPress,
  PHONE,
  LOCAL_KB_MODELS,
} from "./console-helpers.mjs";

const ARTICLES = {
  "refunds.txt":
    "Refunds are paid back to the original card within fourteen days. A refund for a gift goes to the gift card.",
  "shipping.md":
    "# Shipping\n\nParcels ship from our Rotterdam warehouse. Express shipping arrives the next working day.",
};

let app, org, member;

beforeAll(async () => {
  app = await startConsole();
  // A registered user who is also a member of the owner's organization, in a group that may only view knowledge bases.
  const email = `viewer-${Date.now()}@example.com`;
  let group;
  ({ organization: org, group } = await memberInNewGroup(app, {
    email,
    name: "Vic Viewer",
    company: "Vic's shop",
    group: "Readers",
    permissions: ["knowledge_base.view"],
  }));
  member = { email, password: PASSWORD, groupId: group.id };
}, 120_000);

afterAll(async () => {
  await app?.close();
});

/** A knowledge base made through the API, with `files` ingested (polled until done) and `faqs`. */
async function seededBase(name, { files = {}, faqs = [], groups = [] } = {}) {
  const kb = await app.server.api("/knowledge-bases/", {
    body: {
      name,
      ...LOCAL_KB_MODELS,
      groups: groups.map((id) => ({ id })),
    },
  });
  const form = new FormData();
  for (const [filename, text] of Object.entries(files))
    form.append("file", new Blob([text], { type: "text/plain" }), filename);
  if (Object.keys(files).length) await app.server.api(`/knowledge-bases/${kb.id}/files/`, { form });
  for (const faq of faqs) await app.server.api(`/knowledge-bases/${kb.id}/faqs/`, { body: faq });
  await expect
    .poll(
      async () =>
        (await app.server.api(`/knowledge-bases/${kb.id}/files/`, { method: "GET" })).results.every(
          (f) => f.status === "done",
        ),
      { timeout: 60_000 },
    )
    .toBe(true);
  return kb;
}

const ownerOn = (path, options) => ownerOnPage(app, path, options);

/** Drops files on the drop zone as a person dragging them from the desktop would. */
async function dropFiles(page, files) {
  const transfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const [name, text] of list) dt.items.add(new File([text], name, { type: "text/plain" }));
    return dt;
  }, files);
  await page.locator(".kb-drop").dispatchEvent("dragover", { dataTransfer: transfer });
  await page.locator(".kb-drop").dispatchEvent("drop", { dataTransfer: transfer });
}

describe("Knowledge bases in Chromium", () => {
  // First, while the organization holds only what the pictures should show.
  it("takes the screenshots of docs/console/", async () => {
    const kb = await seededBase("Help centre", {
      files: ARTICLES,
      faqs: [{ question: "Can I pay with PayPal?", answer: "Yes, PayPal is accepted at checkout." }],
    });
    await ownerScreenshots(app, `/console/knowledge-bases/${kb.id}`, "knowledge", {
      act: async (page) => {
        await page.locator(".status.ok").nth(1).waitFor();
        // The file input's look differs between runs only by its focus; leave it unfocused.
        await page.locator("h1").click();
      },
    });
    await ownerScreenshots(app, `/console/knowledge-bases/${kb.id}/search`, "knowledge-search", {
      act: async (page) => {
        await page.locator("input[type=search]").fill("refund or express shipping?");
        await page.locator("form.kb-search-form button[type=submit]").click();
        await page.locator(".kb-result mark").first().waitFor();
      },
    });
    // Last, so the pictures above stay as they were: the FAQs tab shows labels (one FAQ with two), the text nodes tab a
    // file's passages.
    const labels = await Promise.all(
      ["Payments", "Shipping"].map((name) => app.server.api(`/knowledge-bases/${kb.id}/labels/`, { body: { name } })),
    );
    await app.server.api(`/knowledge-bases/${kb.id}/faqs/`, {
      body: {
        question: "How fast is express shipping?",
        answer: "Express parcels arrive the next working day.",
        labels: labels.map(({ id }) => ({ id })),
      },
    });
    await ownerScreenshots(app, `/console/knowledge-bases/${kb.id}/faqs`, "knowledge-faqs", {
      act: (page) => page.locator("tbody tr").nth(1).waitFor(),
    });
    await ownerScreenshots(app, `/console/knowledge-bases/${kb.id}/text-nodes`, "knowledge-text-nodes", {
      act: (page) => page.locator("tbody tr").first().waitFor(),
    });
  });

  it(
    "signs in with a password, creates a knowledge base, uploads two dropped files with a progress bar each and " +
      "follows both ingestions; adds an FAQ and finds it first, highlighted",
    async () => {
      const { context, page, errors } = await openPage(app.browser);
      await signInWithPassword(page, app.base, { email: app.owner.email, password: PASSWORD });
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Knowledge bases" }).click();
      await page.getByRole("heading", { name: "Knowledge bases", level: 1 }).waitFor();
      await page.getByRole("button", { name: "Create knowledge base" }).click();
      await dialog(page).getByLabel("Name", { exact: true }).fill("Support articles");
      await dialog(page).getByLabel("Passages retrieved per question").fill("5");
      await dialog(page).getByRole("button", { name: "Create" }).click();
      await page.getByRole("heading", { name: "Support articles", level: 1 }).waitFor();
      const kbId = new URL(page.url()).pathname.split("/")[3];
      expect((await app.server.api(`/knowledge-bases/${kbId}/`, { method: "GET" })).numberOfRetrievedChunks).toBe(5);

      // Every value each progress bar shows, as the page sets it.
      await page.evaluate(() => {
        window.progressSeen = {};
        new MutationObserver(() => {
          for (const bar of document.querySelectorAll(".kb-upload progress"))
            (window.progressSeen[bar.getAttribute("aria-label")] ??= new Set()).add(bar.value);
        }).observe(document.body, { subtree: true, childList: true, attributes: true });
      });
      await dropFiles(page, Object.entries(ARTICLES));
      for (const name of Object.keys(ARTICLES)) {
        const bar = page.getByRole("progressbar", { name: `Upload of ${name}` });
        await bar.waitFor();
        await expect.poll(() => bar.evaluate((el) => el.value)).toBe(1);
        await page.locator(".kb-upload", { hasText: name }).getByText("Uploaded; ingestion below").waitFor();
      }
      const seen = await page.evaluate(() =>
        Object.fromEntries(Object.entries(window.progressSeen).map(([k, v]) => [k, [...v]])),
      );
      expect(Object.keys(seen).sort()).toEqual(["Upload of refunds.txt", "Upload of shipping.md"]);
      for (const values of Object.values(seen)) expect(values).toContain(1);
      // Both ingestions, followed live until done.
      for (const name of Object.keys(ARTICLES))
        await page
          .getByRole("row", { name: new RegExp(name) })
          .getByText("Done", { exact: true })
          .waitFor({ timeout: 60_000 });
      const files = await app.server.api(`/knowledge-bases/${kbId}/files/`, { method: "GET" });
      expect(files.results.map((f) => [f.filename, f.status]).sort()).toEqual([
        ["refunds.txt", "done"],
        ["shipping.md", "done"],
      ]);

      await page.getByRole("link", { name: "FAQs" }).click();
      await page.getByRole("button", { name: "Add FAQ" }).click();
      await dialog(page).getByLabel("Question").fill("Can I pay with PayPal?");
      await dialog(page).getByLabel("Answer").fill("Yes, PayPal is accepted at checkout.");
      await dialog(page).getByRole("button", { name: "Add" }).click();
      await page.getByRole("row", { name: /Can I pay with PayPal\?/ }).waitFor();

      await page.getByRole("link", { name: "Search tester" }).click();
      await page.getByLabel("Query").fill("pay with paypal");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      const first = page.locator(".kb-result").first();
      await first.waitFor();
      expect(await first.locator(".badge").textContent()).toBe("FAQ");
      expect(await first.locator("mark").allTextContents()).toEqual(expect.arrayContaining(["pay", "PayPal"]));
      expect(await first.textContent()).not.toContain("<mark>");
      // The other methods answer too.
      await page.getByLabel("Method").selectOption("keyword");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await expect.poll(() => page.locator(".kb-result").first().locator(".badge").textContent()).toBe("FAQ");
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it(
    "uploads two files from the keyboard alone: the drop zone's file button opens the chooser, a progress bar " +
      "each, both ingestions followed",
    async () => {
      const kb = await seededBase("Keyboard uploads");
      const { context, page, errors } = await ownerOn(`/knowledge-bases/${kb.id}`);
      // Listening from the start: Playwright intercepts the browser's file chooser only once it has
      // told Chromium to, which a listener added just before the key press may not have done yet.
      const choosers = [];
      page.on("filechooser", (chooser) => choosers.push(chooser));
      const button = page.getByLabel("Files to upload");
      await button.waitFor();
      await tabAndPress(page, button, "Enter");
      await expect.poll(() => choosers.length).toBe(1);
      const files = Object.entries(ARTICLES).map(([name, text]) => ({
        name,
        mimeType: "text/plain",
        buffer: Buffer.from(text),
      }));
      await choosers[0].setFiles(files);
      for (const name of Object.keys(ARTICLES)) {
        const bar = page.getByRole("progressbar", { name: `Upload of ${name}` });
        await expect.poll(() => bar.evaluate((el) => el.value)).toBe(1);
        await page
          .getByRole("row", { name: new RegExp(name) })
          .getByText("Done", { exact: true })
          .waitFor({ timeout: 60_000 });
      }
      // Space opens it too; cancelling the chooser uploads nothing.
      await expect.poll(() => button.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.press("Space");
      await expect.poll(() => choosers.length).toBe(2);
      await choosers[1].setFiles([]);
      expect(await page.locator(".kb-upload").count()).toBe(2);
      const listed = await app.server.api(`/knowledge-bases/${kb.id}/files/`, { method: "GET" });
      expect(listed.results.map((f) => [f.filename, f.status]).sort()).toEqual([
        ["refunds.txt", "done"],
        ["shipping.md", "done"],
      ]);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it(
    "the search tester from the keyboard alone: query, method, rerank, then the ranked results with a score " + "each",
    async () => {
      const kb = await seededBase("Keyboard search", {
        files: ARTICLES,
        faqs: [{ question: "Can I pay with PayPal?", answer: "Yes, PayPal is accepted at checkout." }],
      });
      const { context, page } = await ownerOn(`/knowledge-bases/${kb.id}/search`);
      await page.getByLabel("Query").waitFor();
      await tabTo(page, page.getByLabel("Query"));
      await page.keyboard.type("refund gift card");
      await page.keyboard.press("Tab");
      // The method: Hybrid, Keyword, Vector; arrows change a closed select.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe(
        await page.getByLabel("Method").getAttribute("id"),
      );
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("ArrowDown");
      await expect.poll(() => page.getByLabel("Method").inputValue()).toBe("vector");
      // Rerank applies to hybrid only: back to it, then the checkbox.
      await page.keyboard.press("Home");
      await expect.poll(() => page.getByLabel("Method").inputValue()).toBe("hybrid");
      const rerank = page.getByLabel("Rerank the results");
      const before = await rerank.isChecked();
      await tabAndPress(page, rerank, "Space");
      expect(await rerank.isChecked()).toBe(!before);
      const sent = page.waitForRequest((r) => r.url().includes(`/knowledge-bases/${kb.id}/search/`));
      await tabAndPress(page, page.getByRole("button", { name: "Search", exact: true }), "Enter");
      expect((await sent).postDataJSON()).toEqual({
        query: "refund gift card",
        searchMethod: "hybrid",
        enableRerank: !before,
      });
      const results = page.locator(".kb-result");
      await results.first().waitFor();
      expect(await results.first().textContent()).toContain("gift card");
      expect(await results.locator(".kb-score").count()).toBe(await results.count());
      await context.close();
    },
  );

  it(
    "searches by vector, and by hybrid with and without rerank: each result shows the score the API gives, and " +
      "rerank changes them",
    async () => {
      const kb = await seededBase("Methods", {
        files: ARTICLES,
        faqs: [{ question: "Can I pay with PayPal?", answer: "Yes, PayPal is accepted at checkout." }],
      });
      const query = "refund to the gift card";
      const scoresOf = async (searchMethod, enableRerank) =>
        (
          await app.server.api(`/knowledge-bases/${kb.id}/search/?pageSize=100`, {
            body: { query, searchMethod, enableRerank },
          })
        ).results.map((r) => r.score.toFixed(3));
      const { context, page, errors } = await ownerOn(`/knowledge-bases/${kb.id}/search`);
      const shown = async () => {
        const heads = await page.locator(".kb-result .kb-score").allTextContents();
        return heads.map((h) => h.replace(/^Score /, ""));
      };
      const search = async (method, rerank) => {
        await page.getByLabel("Method").selectOption(method);
        if (rerank !== undefined) await page.getByLabel("Rerank the results").setChecked(rerank);
        const answered = page.waitForResponse((r) => r.url().includes(`/knowledge-bases/${kb.id}/search/`));
        await page.getByRole("button", { name: "Search", exact: true }).click();
        await (await answered).finished();
        await page.locator(".kb-result").first().waitFor();
      };
      await page.getByLabel("Query").fill(query);

      await search("vector");
      expect(await page.getByLabel("Rerank the results").isDisabled()).toBe(true);
      const vector = await scoresOf("vector");
      expect(vector.length).toBeGreaterThan(0);
      await expect.poll(shown).toEqual(vector);

      await search("hybrid", true);
      const reranked = await scoresOf("hybrid", true);
      await expect.poll(shown).toEqual(reranked);
      await search("hybrid", false);
      const fused = await scoresOf("hybrid", false);
      await expect.poll(shown).toEqual(fused);
      // The built-in reranker rescores the fused list: the scores differ, and the page shows each.
      expect(reranked).not.toEqual(fused);
      for (const score of await shown()) expect(score).toMatch(/^(0|1)\.\d{3}$/);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it("a file that cannot be parsed fails with the reason; reparse and delete work", async () => {
    const kb = await seededBase("Broken uploads");
    const { context, page } = await ownerOn(`/knowledge-bases/${kb.id}`);
    await page
      .getByLabel("Files to upload")
      .setInputFiles([{ name: "broken.pdf", mimeType: "application/pdf", buffer: Buffer.from("this is not a PDF") }]);
    const row = page.getByRole("row", { name: /broken\.pdf/ });
    await row.getByText(/^Failed: .+/).waitFor({ timeout: 60_000 });
    const [file] = (await app.server.api(`/knowledge-bases/${kb.id}/files/`, { method: "GET" })).results;
    expect(await row.textContent()).toContain(String(file.processingTimeDetails.error));
    const reparse = page.getByRole("button", { name: "Parse again: broken.pdf" });
    await reparse.click();
    // Unavailable while the file is parsed again, the button keeps the focus (a disabled one would drop it).
    await expect.poll(() => reparse.getAttribute("aria-disabled")).toBe("true");
    expect(await reparse.evaluate((b) => b === document.activeElement)).toBe(true);
    await row.getByText(/^Failed: .+/).waitFor({ timeout: 60_000 });
    expect(await reparse.evaluate((b) => b === document.activeElement)).toBe(true);
    await page.getByRole("button", { name: "Delete broken.pdf" }).click();
    await dialog(page).getByRole("button", { name: "Delete" }).click();
    await page.getByText("No files yet.").waitFor();
    // The Delete button that opened the dialog left with its row: the page's heading has the focus, not the body.
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe("H1");
    await context.close();
  });

  it("adds an FAQ with a label from the keyboard alone", async () => {
    const kb = await seededBase("Keyboard base");
    await app.server.api(`/knowledge-bases/${kb.id}/labels/`, { body: { name: "Billing" } });
    const { context, page } = await ownerOn(`/knowledge-bases/${kb.id}/faqs`);
    await page.getByRole("button", { name: "Add FAQ" }).waitFor();
    await tabAndPress(page, page.getByRole("button", { name: "Add FAQ" }), "Enter");
    await tabTo(page, dialog(page).getByLabel("Question"));
    await page.keyboard.type("Do you ship to Belgium?");
    await page.keyboard.press("Tab");
    await page.keyboard.type("Yes, within two working days.");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Space");
    await tabAndPress(page, dialog(page).getByRole("button", { name: "Add" }), "Enter");
    await page.getByRole("row", { name: /Do you ship to Belgium\?/ }).waitFor();
    // The focus is back on the button that opened the dialog, once its close event has come (after the row, maybe).
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Add FAQ");
    const faqs = await app.server.api(`/knowledge-bases/${kb.id}/faqs/`, { method: "GET" });
    expect(faqs.results.map((f) => [f.question, f.answer, f.labels.map((l) => l.name)])).toEqual([
      ["Do you ship to Belgium?", "Yes, within two working days.", ["Billing"]],
    ]);
    // Edited with the mouse: the answer changes, the label stays.
    await page.getByRole("button", { name: "Edit Do you ship to Belgium?" }).click();
    await dialog(page).getByLabel("Answer").fill("Yes, within three working days.");
    await dialog(page).getByRole("button", { name: "Save" }).click();
    await page
      .getByRole("row", { name: /Do you ship to Belgium\?/ })
      .getByText("Yes, within three working days.")
      .waitFor();
    const [edited] = (await app.server.api(`/knowledge-bases/${kb.id}/faqs/`, { method: "GET" })).results;
    expect([edited.answer, edited.labels.map((l) => l.name)]).toEqual(["Yes, within three working days.", ["Billing"]]);
    // Deleting the label asks first (it was gone at a press, and a second press deleted it again): Enter twice
    // closes the question; asked again, Delete deletes it once, and the FAQ stays without it.
    const deletes = [];
    page.on("request", (r) => r.method() === "DELETE" && deletes.push(r.url()));
    const deleteLabel = page.getByRole("button", { name: "Delete label Billing" });
    await tabAndPress(page, deleteLabel, "Enter");
    await dialog(page).getByText("Files and FAQs with it lose it").waitFor();
    await page.keyboard.press("Enter");
    await dialog(page).waitFor({ state: "hidden" });
    expect(deletes).toEqual([]);
    await deleteLabel.click();
    await dialog(page).getByRole("button", { name: "Delete" }).click();
    await page.getByRole("button", { name: "Delete label Billing" }).waitFor({ state: "detached" });
    expect(deletes).toHaveLength(1);
    const [unlabelled] = (await app.server.api(`/knowledge-bases/${kb.id}/faqs/`, { method: "GET" })).results;
    expect([unlabelled.question, unlabelled.labels]).toEqual(["Do you ship to Belgium?", []]);
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).not.toBe("BODY");
    await context.close();
  });

  it("imports FAQs from a CSV and an XLSX file, creating their labels", async () => {
    const kb = await seededBase("Imported FAQs");
    const { context, page } = await ownerOn(`/knowledge-bases/${kb.id}/faqs`);
    const csv =
      'question,answer,labels\n"Where is my order?","Track it under ""Orders"", in your ' +
      'account.",Shipping\nCan I return a gift?,"Yes, within 30 days.","Returns, Gifts"\n,no question here,\n';
    await page.getByRole("button", { name: "Import CSV or XLSX" }).click();
    await dialog(page)
      .getByLabel("CSV or XLSX file")
      .setInputFiles([{ name: "faqs.csv", mimeType: "text/csv", buffer: Buffer.from(`\uFEFF${csv}`) }]);
    await dialog(page).getByText("FAQs ready to import: 2.").waitFor();
    await dialog(page).getByRole("button", { name: "Import 2" }).click();
    await dialog(page).getByText("2 of 2 FAQs imported.").waitFor();
    // Done: the Import button is gone, and the focus is on Close (not on the page's body), which Enter presses.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest("dialog") && document.activeElement.textContent))
      .toBe("Close");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Import CSV or XLSX");
    await page.getByRole("row", { name: /Where is my order\?/ }).waitFor();
    expect(await page.getByRole("row", { name: /Where is my order\?/ }).textContent()).toContain(
      'Track it under "Orders", in your account.',
    );

    const xlsx = await writeXlsxFile([
      [{ value: "Question" }, { value: "Answer" }, { value: "Labels" }],
      [{ value: "Do you deliver on Sundays?" }, { value: "No, Monday to Saturday." }, { value: "Shipping" }],
      [{ value: "是否提供發票？" }, { value: "是，結帳時可選擇電子發票。" }, { value: "帳務" }],
    ]).toBuffer();
    await page.getByRole("button", { name: "Import CSV or XLSX" }).click();
    await dialog(page)
      .getByLabel("CSV or XLSX file")
      .setInputFiles([
        {
          name: "faqs.xlsx",
          mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
          buffer: xlsx,
        },
      ]);
    await dialog(page).getByRole("button", { name: "Import 2" }).click();
    await dialog(page).getByText("2 of 2 FAQs imported.").waitFor();
    await page.keyboard.press("Escape");
    const faqs = await app.server.api(`/knowledge-bases/${kb.id}/faqs/?pageSize=100`, { method: "GET" });
    const byQuestion = Object.fromEntries(faqs.results.map((f) => [f.question, f.labels.map((l) => l.name).sort()]));
    expect(byQuestion).toEqual({
      "Where is my order?": ["Shipping"],
      "Can I return a gift?": ["Gifts", "Returns"],
      "Do you deliver on Sundays?": ["Shipping"],
      "是否提供發票？": ["帳務"],
    });
    const labels = await app.server.api(`/knowledge-bases/${kb.id}/labels/`, { method: "GET" });
    expect(labels.results.map((l) => l.name).sort()).toEqual(["Gifts", "Returns", "Shipping", "帳務"]);
    await page.getByRole("group", { name: "Labels" }).getByText("帳務").waitFor();
    await context.close();
  });

  it("finds bases by name, FAQs by their words and passages by a word, and says when none matches", async () => {
    await seededBase("Findable returns", {
      files: ARTICLES,
      faqs: [
        { question: "Can I pay with PayPal?", answer: "Yes, at checkout." },
        { question: "Do you ship abroad?", answer: "To every country of the EU." },
      ],
    });
    const { context, page } = await ownerOn("/knowledge-bases");
    const rows = () => page.locator("tbody tr").count();
    await page.getByLabel("Find by name").fill("FINDABLE");
    await expect.poll(rows).toBe(1);
    await page.getByLabel("Find by name").fill("no base is called this");
    await page.getByText("No knowledge base matches.").waitFor();
    await page.getByLabel("Find by name").fill("findable");
    await page.getByRole("link", { name: "Findable returns" }).click();
    await page.getByRole("link", { name: "FAQs" }).click();
    await page.getByRole("row", { name: /ship abroad/ }).waitFor();
    // The answer's words count too.
    await page.getByLabel("Find in questions and answers").fill("checkout");
    await expect.poll(rows).toBe(1);
    await page.getByRole("row", { name: /PayPal/ }).waitFor();
    await page.getByLabel("Find in questions and answers").fill("zeppelin");
    await page.getByText("No FAQ matches.").waitFor();
    await page.getByRole("link", { name: "Text nodes" }).click();
    await page.getByLabel("File", { exact: true }).selectOption({ label: "shipping.md" });
    await page.getByRole("row", { name: /Rotterdam/ }).waitFor();
    await page.getByLabel("Only passages containing").fill("zeppelin");
    await page.getByText("No text nodes match.").waitFor();
    // Enter searches at once, without waiting for the typing to stop.
    await page.getByLabel("Only passages containing").fill("Rotterdam");
    await page.getByLabel("Only passages containing").press("Enter");
    await page.getByRole("row", { name: /Rotterdam/ }).waitFor();
    await context.close();
  });

  it("edits and deletes a text node, and the search tester follows", async () => {
    const kb = await seededBase("Passages", { files: ARTICLES });
    const { context, page } = await ownerOn(`/knowledge-bases/${kb.id}/text-nodes`);
    await page.getByLabel("File", { exact: true }).selectOption({ label: "refunds.txt" });
    await page.getByRole("row", { name: /fourteen days/ }).waitFor();
    await page.getByRole("button", { name: "Edit passage 1" }).click();
    await dialog(page).getByLabel("Text").fill("Refunds take five working days.");
    await dialog(page).getByRole("button", { name: "Save" }).click();
    // Saved means indexed again (keyword, vector, the built-in embedding): slower than a plain write on a loaded
    // machine.
    await page.getByRole("row", { name: /Refunds take five working days\./ }).waitFor({ timeout: 60_000 });
    await page.getByRole("link", { name: "Search tester" }).click();
    await page.getByLabel("Query").fill("five working days");
    await page.getByLabel("Method").selectOption("keyword");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect
      .poll(() => page.locator(".kb-result .kb-passage").first().textContent())
      .toBe("Refunds take five working days.");
    await page.getByRole("link", { name: "Text nodes" }).click();
    await page.getByLabel("File", { exact: true }).selectOption({ label: "refunds.txt" });
    // The first file's passages show until refunds.txt's arrive: wait for its own, or passage 1 is another file's.
    await page.getByRole("row", { name: /Refunds take five working days\./ }).waitFor();
    await page.getByRole("button", { name: "Delete passage 1" }).click();
    await dialog(page).getByRole("button", { name: "Delete" }).click();
    await page.getByText("No text nodes match.").waitFor({ timeout: 60_000 });
    const results = await app.server.api(`/knowledge-bases/${kb.id}/search/`, {
      body: { query: "five working days", searchMethod: "keyword" },
    });
    expect(results.results.map((r) => r.knowledgeBaseFile?.filename)).not.toContain("refunds.txt");
    await context.close();
  });

  it("changes the retrieval settings and who may use the base; a bad value shows at its field, not saved", async () => {
    const kb = await seededBase("Settings base", { files: { "refunds.txt": ARTICLES["refunds.txt"] } });
    const { context, page } = await ownerOn(`/knowledge-bases/${kb.id}/settings`);
    // Without the organization's custom Elasticsearch feature (off by default), its stores are not offered: the API
    // would refuse them (403).
    const stores = page.getByLabel("Where vectors are stored");
    await expect
      .poll(() => stores.locator("option").evaluateAll((o) => o.map((e) => e.value)))
      .toEqual(["", "oracle", "synxdb"]);
    // Said by the products' names, not the API's values.
    expect(await stores.locator("option").allTextContents()).toEqual([
      await stores.locator("option").first().textContent(),
      "Oracle Database",
      "SynxDB",
    ]);
    await page
      .getByText("Elasticsearch and OpenSearch need the organization's custom Elasticsearch feature.")
      .waitFor();
    await page.getByLabel("Similarity cutoff").fill("0.25");
    await page.getByLabel("Sentence window").fill("1");
    await page.getByLabel("HyDE: search with a hypothetical answer").check();
    await page.getByLabel("Rerank hybrid results").uncheck();
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect
      .poll(async () => (await app.server.api(`/knowledge-bases/${kb.id}/`, { method: "GET" })).similarityCutoff)
      .toBe(0.25);
    expect(await app.server.api(`/knowledge-bases/${kb.id}/`, { method: "GET" })).toMatchObject({
      sentenceWindowSize: 1,
      enableHyde: true,
      enableRerank: false,
    });
    // Who may use the base: a group ticked is saved, and shows ticked again after a reload; unticked, it goes.
    const readers = () => page.getByRole("group", { name: "Groups" }).getByLabel("Readers");
    await readers().check();
    await page.getByRole("button", { name: "Save settings" }).click();
    const groupIds = async () =>
      (await app.server.api(`/knowledge-bases/${kb.id}/`, { method: "GET" })).groups.map((g) => g.id);
    await expect.poll(groupIds).toEqual([member.groupId]);
    await page.reload();
    expect(await readers().isChecked()).toBe(true);
    await readers().uncheck();
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect.poll(groupIds).toEqual([]);
    // The embedding model cannot change once the base holds content: the API says so at the field.
    const other = await app.server.api("/embedding-models/", {
      body: { name: "Other embedder", provider: "local", modelName: "other" },
    });
    await page.reload();
    await page.getByLabel("Embedding model").selectOption(other.id);
    await page.getByRole("button", { name: "Save settings" }).click();
    const field = page.getByLabel("Embedding model");
    await expect.poll(() => field.getAttribute("aria-invalid")).toBe("true");
    expect((await app.server.api(`/knowledge-bases/${kb.id}/`, { method: "GET" })).embeddingModel.id).toBe(
      LOCAL_EMBEDDING,
    );
    await context.close();
  });

  it("a member who may only view sees no edit controls, and the API refuses the requests anyway", async () => {
    const kb = await seededBase("Shared with readers", {
      files: { "refunds.txt": ARTICLES["refunds.txt"] },
      faqs: [{ question: "Who reads this?", answer: "Readers." }],
      groups: [member.groupId],
    });
    const { context, page } = await openPage(app.browser);
    await signInWithPassword(page, app.base, member);
    await page.getByLabel("Organization").selectOption(org.id);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Knowledge bases" }).click();
    await page.getByRole("link", { name: "Shared with readers" }).click();
    await page.getByText("You can look at this knowledge base, not change it.").waitFor();
    await page.getByRole("row", { name: /refunds\.txt/ }).waitFor();
    expect(await page.getByLabel("Files to upload").count()).toBe(0);
    expect(await page.getByRole("button", { name: /^(Delete|Parse)/ }).count()).toBe(0);
    await page.getByRole("link", { name: "FAQs" }).click();
    await page.getByRole("row", { name: /Who reads this\?/ }).waitFor();
    expect(await page.getByRole("button", { name: /Add FAQ|Import|Edit|Delete|Add label/ }).count()).toBe(0);
    await page.getByRole("link", { name: "Text nodes" }).click();
    await page.getByRole("row", { name: /fourteen days/ }).waitFor();
    expect(await page.getByRole("button", { name: /passage/ }).count()).toBe(0);
    await page.getByRole("link", { name: "Settings" }).click();
    expect(await page.getByLabel("Name", { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Save settings" }).count()).toBe(0);
    // Searching is reading: allowed.
    await page.getByRole("link", { name: "Search tester" }).click();
    await page.getByLabel("Query").fill("refund");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.locator(".kb-result").first().waitFor();
    await page.getByRole("link", { name: "All knowledge bases" }).click();
    await page.getByRole("row", { name: /Shared with readers/ }).waitFor();
    expect(await page.getByRole("button", { name: "Create knowledge base" }).count()).toBe(0);
    // A base not given to their groups is not found, under the page's one heading.
    const hidden = await seededBase("Not for readers");
    await page.goto(`${app.base}/console/knowledge-bases/${hidden.id}`);
    await page.getByRole("heading", { level: 1, name: "Knowledge base not found" }).waitFor();
    await page.locator("main [role=alert]").waitFor();
    expect(await page.locator("main h1").count()).toBe(1);

    const cookie = await sessionCookie(context);
    const write = (path, method, body) =>
      fetch(`${app.base}/api/v1${path}`, {
        method,
        headers: {
          Cookie: `console_session=${cookie}`,
          "Content-Type": "application/json",
          Origin: app.base,
          "X-Organization-Id": org.id,
        },
        body: JSON.stringify(body),
      }).then((r) => r.status);
    expect(await write(`/knowledge-bases/${kb.id}/faqs/`, "POST", { question: "Sneaky?", answer: "Yes." })).toBe(403);
    expect(await write(`/knowledge-bases/${kb.id}/`, "PATCH", { name: "Renamed" })).toBe(403);
    const [file] = (await app.server.api(`/knowledge-bases/${kb.id}/files/`, { method: "GET" })).results;
    const [node] = (await app.server.api(`/chatbot-text-nodes/?knowledgeBaseFile=${file.id}`, { method: "GET" }))
      .results;
    expect(await write(`/chatbot-text-nodes/${node.id}/`, "PATCH", { text: "Sneaky." })).toBe(403);
    expect(
      await write("/upload-presigned-url/", "POST", {
        modelName: "knowledge-base-file",
        fieldName: "file",
        filename: "x.txt",
        fileSize: 10,
      }),
    ).toBe(403);
    expect((await app.server.api(`/knowledge-bases/${kb.id}/`, { method: "GET" })).name).toBe("Shared with readers");
    await context.close();
  });

  it("the new knowledge base's dialog fits a phone, its model choices too (one unavailable here)", async () => {
    // Local development has no Workers AI: its models are listed, disabled, their long reasons as the options' text.
    const { context, page, errors } = await ownerOn("/knowledge-bases", { viewport: PHONE });
    await page.getByRole("button", { name: "Create knowledge base" }).click();
    const models = dialog(page).getByRole("group", { name: "Models" });
    await models.getByRole("option", { name: /Workers AI BGE M3 — unavailable/ }).waitFor({ state: "attached" });
    const box = await dialog(page).boundingBox();
    for (const part of [models, models.getByLabel("Embedding model"), models.getByText(/Embeds passages/)]) {
      const { x, width } = await part.boundingBox();
      expect(x + width).toBeLessThanOrEqual(box.x + box.width);
    }
    expect(await dialog(page).evaluate((d) => d.scrollWidth - d.clientWidth)).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it.each(["light", "dark"])(
    "axe-core finds no serious or critical violation on the sections and dialogs (%s)",
    async (theme) => {
      const kb = await seededBase(`Axe ${theme}`, {
        files: { "refunds.txt": ARTICLES["refunds.txt"] },
        faqs: [{ question: "Can I pay with PayPal?", answer: "Yes." }],
      });
      await app.server.api(`/knowledge-bases/${kb.id}/labels/`, { body: { name: "Payments" } });
      const { context, page } = await ownerOn("/knowledge-bases", { theme });
      await page.getByRole("row", { name: new RegExp(`Axe ${theme}`) }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole("link", { name: `Axe ${theme}` }).click();
      await page
        .getByLabel("Files to upload")
        .setInputFiles([{ name: "more.txt", mimeType: "text/plain", buffer: Buffer.from("More text about refunds.") }]);
      await page
        .getByRole("row", { name: /more\.txt/ })
        .getByText("Done", { exact: true })
        .waitFor({ timeout: 60_000 });
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole("link", { name: "FAQs" }).click();
      await page.getByRole("row", { name: /PayPal/ }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "Add FAQ" }).click();
      await dialog(page).getByRole("button", { name: "Add" }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: "Import CSV or XLSX" }).click();
      await dialog(page)
        .getByLabel("CSV or XLSX file")
        .setInputFiles([{ name: "one.csv", mimeType: "text/csv", buffer: Buffer.from("question,answer\nQ?,A.\n") }]);
      await dialog(page).getByText("FAQs ready to import: 1.").waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");
      await page.getByRole("link", { name: "Text nodes" }).click();
      await page.getByRole("row").nth(1).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "Edit passage 1" }).click();
      await dialog(page).getByLabel("Text").waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");
      await page.getByRole("link", { name: "Search tester" }).click();
      await page.getByLabel("Query").fill("refund");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await page.locator(".kb-result mark").first().waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole("link", { name: "Settings" }).click();
      await page.getByRole("button", { name: "Save settings" }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await context.close();
    },
  );
});
