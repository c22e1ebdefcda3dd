// The Markdown renderer of the widget and the console (widget/src/markdown.ts), unit by unit in a real
// DOM (Chromium, a blank page, no server): links only to http(s) and mailto, and every piece of
// HTML in the source stays text.
import { build } from "esbuild";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../bench/lib.mjs";

let browser, page;

beforeAll(async () => {
  const bundled = await build({
    entryPoints: [path.resolve(import.meta.dirname, "../../widget/src/markdown.ts")],
    bundle: true,
    format: "iife",
    globalName: "markdown",
    write: false,
  });
  browser = await launchChromium();
  page = await browser.newPage();
  const dialogs = [];
  page.on("dialog", (d) => dialogs.push(d.message()) && d.dismiss());
  await page.addScriptTag({ content: bundled.outputFiles[0].text });
  page.dialogs = dialogs;
});

afterAll(async () => {
  await browser?.close();
});

/** Renders `source` into a fresh element of the page: its HTML, text, links and any element a script could hide in. */
const render = (source) =>
  page.evaluate((src) => {
    const root = document.createElement("div");
    document.body.replaceChildren(root);
    window.markdown.renderMarkdown(src, root);
    return {
      html: root.innerHTML,
      text: root.textContent,
      links: [...root.querySelectorAll("a")].map((a) => ({
        href: a.getAttribute("href"),
        text: a.textContent,
        rel: a.rel,
        target: a.target,
        attributes: a.getAttributeNames(),
      })),
      hostile: root.querySelectorAll(
        "script, img, iframe, object, embed, svg, style, [onerror], [onclick], [onmouseover]",
      ).length,
    };
  }, source);

describe("renderMarkdown", () => {
  it("links to http(s) and mailto, in a new tab without the opener", async () => {
    const out = await render(
      "See [our page](https://example.com/a?b=1), [plain](http://example.com) or [write](mailto:help@example.com).",
    );
    expect(out.links).toEqual([
      {
        href: "https://example.com/a?b=1",
        text: "our page",
        rel: "noopener noreferrer nofollow",
        target: "_blank",
        attributes: ["href", "target", "rel"],
      },
      {
        href: "http://example.com",
        text: "plain",
        rel: "noopener noreferrer nofollow",
        target: "_blank",
        attributes: ["href", "target", "rel"],
      },
      {
        href: "mailto:help@example.com",
        text: "write",
        rel: "noopener noreferrer nofollow",
        target: "_blank",
        attributes: ["href", "target", "rel"],
      },
    ]);
  });

  it.each([
    "[x](javascript:window.__xss=1)",
    "[x](JavaScript:window.__xss=1)",
    "[x](javascript&colon;window.__xss=1)",
    "[x](data:text/html,<script>window.__xss=1</script>)",
    "[x](vbscript:msgbox)",
    "[x](//evil.example/steal)",
    "[x](/relative/path)",
    "**[x](javascript:window.__xss=1)**",
  ])("keeps only the text of a link to anything else: %s", async (source) => {
    const out = await render(source);
    expect(out.links).toEqual([]);
    expect(out.text).toContain("x");
    expect(out.html).not.toMatch(/href|javascript:/i);
  });

  it("an attribute smuggled into a URL stays in the URL", async () => {
    const out = await render('[x](https://example.com/"onmouseover="window.__xss=1)');
    expect(out.links).toHaveLength(1);
    expect(out.links[0].attributes).toEqual(["href", "target", "rel"]);
    expect(out.hostile).toBe(0);
  });

  it.each([
    "<script>window.__xss=1</script>",
    "<img src=x onerror=window.__xss=1>",
    "before <iframe src=javascript:window.__xss=1></iframe> after",
    "- <svg onload=window.__xss=1>",
    "> <b onclick=window.__xss=1>quoted</b>",
    "# <style>body{display:none}</style>",
    "```\n<script>window.__xss=1</script>\n```",
    "[<img src=x onerror=window.__xss=1>](https://example.com)",
    "`<img src=x onerror=window.__xss=1>`",
    "&lt;script&gt; stays as written",
  ])("renders HTML as the text it is: %s", async (source) => {
    const out = await render(source);
    expect(out.hostile).toBe(0);
    // Every character of the source's markup is visible text (the Markdown syntax itself aside).
    const markup = source.match(/<[^>]*>|&lt;script&gt;/g) ?? [];
    for (const piece of markup) expect(out.text).toContain(piece);
    expect(await page.evaluate(() => window.__xss)).toBeUndefined();
  });

  it("a citation marker is what `cite` gives; one given nothing goes with its space; without cite, text", async () => {
    const cited = (source, sources) =>
      page.evaluate(
        ([src, known]) => {
          const root = document.createElement("div");
          const cite = known
            ? (n) => {
                if (!known.includes(n)) return null;
                const sup = document.createElement("sup");
                sup.textContent = `<${n}>`;
                return sup;
              }
            : undefined;
          window.markdown.renderMarkdown(src, root, cite);
          return root.textContent;
        },
        [source, sources],
      );
    const reply = "We ship to Taiwan [1]. Returns take 14 days.[2] See **the policy [2]**.";
    expect(await cited(reply, [1, 2])).toBe("We ship to Taiwan <1>. Returns take 14 days.<2> See the policy <2>.");
    // The web chat shows no sources: the visitor read "[1]" pointing at nothing.
    expect(await cited(reply, [])).toBe("We ship to Taiwan. Returns take 14 days. See the policy.");
    expect(await cited(reply, [2])).toBe("We ship to Taiwan. Returns take 14 days.<2> See the policy <2>.");
    expect(await cited(reply, null)).toBe("We ship to Taiwan [1]. Returns take 14 days.[2] See the policy [2].");
  });

  it("ran no script and opened no dialog in all of the above", async () => {
    expect(await page.evaluate(() => window.__xss)).toBeUndefined();
    expect(page.dialogs).toEqual([]);
  });
});
