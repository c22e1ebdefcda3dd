import { describe, expect, it } from "vitest";
import { ParseError, parseDocument } from "../../../src/services/parsing";
import { utf8 } from "../../fixtures/documents";

const parse = async (text: string | Uint8Array, filename: string, contentType?: string) =>
  parseDocument(typeof text === "string" ? utf8(text) : text, filename, contentType);
const textOf = async (text: string | Uint8Array, filename: string) =>
  (await parse(text, filename)).pages.map((p) => p.text).join("\n\n");

describe("plain text", () => {
  it("decodes UTF-8 with or without a BOM, CRLF line ends, and Chinese", async () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8("退货政策。\r\nSecond line.\r\n")]);
    expect(await parse(bom, "notes.txt")).toEqual({ pages: [{ number: 1, text: "退货政策。\nSecond line." }] });
  });

  it("decodes UTF-16 with a BOM", async () => {
    const units = [0xfeff, ..."Hi 你好".split("").map((c) => c.charCodeAt(0))];
    expect(await textOf(new Uint8Array(new Uint16Array(units).buffer), "utf16.txt")).toBe("Hi 你好");
  });

  it("splits pages at form feeds", async () => {
    expect((await parse("Page one.\fPage two.", "book.txt")).pages).toEqual([
      { number: 1, text: "Page one." },
      { number: 2, text: "Page two." },
    ]);
  });

  it("refuses binary data and empty files with a readable ParseError", async () => {
    const binary = new Uint8Array(512).map((_, i) => (i * 37) % 256);
    await expect(parse(binary, "image.txt")).rejects.toThrow(ParseError);
    await expect(parse(binary, "image.txt")).rejects.toThrow(/does not look like a text file/);
    await expect(parse("", "empty.txt")).rejects.toThrow("The file is empty.");
    await expect(parse(" \n\n ", "blank.txt")).rejects.toThrow("The file contains no text.");
  });
});

describe("Markdown", () => {
  it("keeps the words and drops the syntax", async () => {
    const md = [
      "---",
      "layout: post",
      "---",
      "# Returns *policy*",
      "",
      'You can **return** items within [30 days](https://example.com/returns "t").',
      "",
      "> Note: keep the `receipt`.",
      "",
      "- first_item one",
      "2. second ~~old~~ item",
      "",
      "| Plan | Price |",
      "|---|:---:|",
      "| Pro | $10 |",
      "",
      "![diagram](d.png)",
      "```js",
      "const x = 1;",
      "```",
      "***",
      "[ref]: https://example.com",
    ].join("\n");
    const doc = await parse(md, "returns.md");
    expect(doc.title).toBe("Returns policy");
    expect(doc.pages[0].text).toBe(
      "Returns policy\n\nYou can return items within 30 days.\n\nNote: keep the receipt.\n\nfirst_item " +
        "one\nsecond old item\n\nPlan | Price\nPro | $10\n\ndiagram\nconst x = 1;",
    );
  });

  it("keeps Chinese text", async () => {
    expect(await textOf("## 退货\n\n**三十天**内可以退货。", "zh.markdown")).toBe("退货\n\n三十天内可以退货。");
  });

  it("inline HTML keeps words apart and entities read as characters", async () => {
    const md =
      "Hours: Monday<br>Closed<br/>Tuesday 9&ndash;5\n\n<p>Fish &amp; chips</p><div>R&amp;D</div>\n" +
      "<table><tr><td>Zone</td><td>EU</td></tr></table>\n\n<span>5&nbsp;days</span> &#169; `a &lt; b`";
    expect(await textOf(md, "hours.md")).toBe(
      "Hours: Monday\nClosed\nTuesday 9–5\n\nFish & chips\nR&D\n\nZone\nEU\n\n5\u00a0days © a < b",
    );
  });
});

describe("Markdown and text in time linear in their size", () => {
  // Each line opens what never closes. A pattern retried from each opener read the rest of the line again, so a line
  // of n bytes cost O(n^2): 256 KiB took 10 s to a minute; read once, it takes milliseconds (5 s is the bound).
  // A visitor's .md attachment is parsed on the reply path.
  const line = (unit: string, size = 256 * 1024) => unit.repeat(Math.ceil(size / unit.length));
  it.each([
    ["unclosed bold", line("**a ")],
    ["unclosed underscores", line("__a ")],
    ["unclosed strike-through", line("~~a ")],
    ["image openers", line("![")],
    ["link labels without a target", line("[a](")],
    ["link labels without a bracket", line("[a")],
    ["autolinks without a bracket", line("<http:")],
    ["block tags without a bracket", line("<p ")],
    ["tags without a bracket", line("<a")],
    ["backticks", line("`")],
    ["spaces that end no line", `a${line(" ")}b`],
    ["heading marks that end no heading", `# a${line("#")}b`],
    ["a table row's spaces", `| a${line(" ")}b`],
    ["spaces alone", `a\n${line(" ")}\nb`],
    ["a front matter title's spaces", `---\ntitle: a${line(" ")}b\n---\nBody.`],
  ])("a 256 KiB line of %s", async (_, text) => {
    const started = performance.now();
    await parse(`# Notes\n\n${text}\n`, "notes.md");
    const elapsed = performance.now() - started;
    expect(elapsed, `parsing took ${Math.round(elapsed)} ms`).toBeLessThan(5000);
  });

  it("a text file's line of spaces that ends no line", async () => {
    const started = performance.now();
    expect(await textOf(`a${line(" ")}b \n`, "notes.txt")).toBe(`a${line(" ")}b`);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  // A regex's repeated group keeps a backtracking entry per repetition: on a line of a few MiB it threw a RangeError,
  // a 500 instead of the document's words.
  it.each([
    ["quote marks", line(">", 4 << 20)],
    ["thematic marks that end no break", `${line("- ", 4 << 20)}x`],
    ["table rule cells that end no rule", `${line("|-", 4 << 20)}x`],
  ])("a 4 MiB line of %s parses", async (_, text) => {
    const doc = await parse(`${text}\n\nEnd.`, "notes.md");
    expect(doc.pages[0].text.endsWith("End.")).toBe(true);
  });
});

describe("HTML", () => {
  it("keeps visible text block by block, takes the title, drops scripts, styles and navigation", async () => {
    const html =
      "<!doctype html><html><head><title>Help &amp; support</title><style>p{color:red}</style>" +
      `<script>var x = "<p>no</p>";</script></head>
      <body><nav><a href="/">Home</a></nav><h1>Shipping</h1><p>We ship   within <b>2 days</b>.<br>Tracking is free.</p>
      <ul><li>Europe</li><li>Asia &mdash; 5&nbsp;days</li></ul><div hidden>secret</div>
      <table><tr><th>Zone</th><th>Price</th></tr><tr><td>EU</td><td>&euro;5</td></tr></table>` +
      "<p>中文：我们在两天内发货。</p></body></html>";
    const doc = await parse(html, "help.htm");
    expect(doc.title).toBe("Help & support");
    expect(doc.pages[0].text).toBe(
      "Shipping\n\nWe ship within 2 days.\nTracking is free.\n\nEurope\nAsia — 5 days\n\nZone | Price\nEU | " +
        "€5\n\n中文：我们在两天内发货。",
    );
  });

  it("falls back to the first h1 for the title and to the content type for the format", async () => {
    const doc = await parse("<h1>Guide</h1><p>Text.</p>", "page", "text/html; charset=utf-8");
    expect(doc).toEqual({ title: "Guide", pages: [{ number: 1, text: "Guide\n\nText." }] });
  });
});

describe("HTML in time linear in its size", () => {
  // Each block used to run `$`-anchored regexes over all the text written so far, and the last step read a row's run
  // of empty cells again from each of its characters: n blocks (or cells) cost O(n^2), 1 MiB of paragraphs over 3
  // minutes and a row of 50,000 empty cells about one. Read once, each takes well under a second (5 s is the bound).
  // A visitor's .html attachment is parsed on the reply path.
  const fill = (unit: string, size = 1 << 20) => unit.repeat(Math.ceil(size / unit.length));
  const timed = async (html: string) => {
    const started = performance.now();
    const text = await textOf(html, "page.html");
    const elapsed = performance.now() - started;
    expect(elapsed, `parsing took ${Math.round(elapsed)} ms`).toBeLessThan(5000);
    return text;
  };

  it.each([
    ["paragraphs", fill("<p>a</p>"), "a\n\na"],
    ["lines", fill("<div>a</div>"), "a\na"],
    ["line breaks", fill("a<br>"), "a\na"],
    ["list items in nested lists", `<ul>${fill("<li>a<ul><li>b</li><li>c</li></ul></li>")}</ul>`, "a\n\nb\nc\n\na"],
    ["lists nested 1,000 deep", fill(`${"<ul><li>a".repeat(1000)}${"</li></ul>".repeat(1000)}`), "a\n\na"],
    ["table rows", `<table>${fill("<tr><td>a</td><td>b</td></tr>")}</table>`, "a | b\na | b"],
  ])("1 MiB of %s", async (_, html, start) => {
    expect((await timed(html)).startsWith(start)).toBe(true);
  });

  it("a row of 50,000 empty cells before a filled one", async () => {
    const row = `<table><tr>${"<td></td>".repeat(50_000)}<td>a</td></tr></table><p>End.</p>`;
    expect(await timed(row)).toBe(`${"|  ".repeat(49_999)}| a\n\nEnd.`);
  });

  it("a line of 256 KiB of spaces and bars that ends no line", async () => {
    const line = fill(" |", 256 * 1024);
    expect(await timed(`<pre>a${line}b |  \n</pre>`)).toBe(`a${line}b`);
  });

  // htmlparser2 keeps the open elements in an array, innermost first: each open tag moved all those already open, and
  // each end tag of an element not open (or each `<form>`) read them all, so n elements nested cost O(n^2) inside the
  // library: each of these took one to several minutes. Kept the other way round, each takes about a second.
  const lines = (count: number, separator: string) => Array.from({ length: count }, () => "a").join(separator);
  it.each([
    ["unclosed <div>s", fill("<div>a", 2 << 20), lines(Math.ceil((2 << 20) / 6), "\n")],
    [
      "end tags of no open element, 100,000 deep",
      `${"<div>a".repeat(100_000)}${"</span>".repeat(200_000)}`,
      lines(100_000, "\n"),
    ],
    ["<form>s 100,000 deep", `${"<div>".repeat(100_000)}${"<form>a</form>".repeat(110_000)}`, lines(110_000, "\n\n")],
    ["MathML nested", `<math>${fill("<mi>a", 2 << 20)}`, "a".repeat(Math.ceil((2 << 20) / 5))],
  ])("2 MiB of %s", async (_, html, text) => {
    expect(await timed(html)).toBe(text);
  });
});

describe("CSV", () => {
  it("renders each row as header: value pairs, with quoted fields and empty cells", async () => {
    const csv =
      'question,answer,tag\n"How long is the warranty?","Two years, from delivery",\nDo you ship ' +
      "abroad?,Yes,shipping\n";
    expect(await textOf(csv, "faq.csv")).toBe(
      "question: How long is the warranty?; answer: Two years, from delivery\nquestion: Do you ship abroad?; " +
        "answer: Yes; tag: shipping",
    );
  });

  it("sniffs semicolons and names unnamed columns", async () => {
    expect(await textOf("name;;city\nAda;x;London\n", "people.csv")).toBe("name: Ada; column 2: x; city: London");
  });
});

describe("JSON", () => {
  it("flattens to path: value lines in document order", async () => {
    const json = JSON.stringify({
      shop: { name: "Acme", open: true },
      faq: [{ q: "Hours?", a: "9 to 5\nweekdays" }],
      empty: [],
      none: null,
    });
    expect(await textOf(json, "data.json")).toBe(
      "shop.name: Acme\nshop.open: true\nfaq[0].q: Hours?\nfaq[0].a: 9 to 5 weekdays\nnone: null",
    );
  });

  it("gives a readable ParseError for invalid JSON", async () => {
    await expect(parse("{ not json", "bad.json")).rejects.toThrow(/^The file is not valid JSON: /);
  });
});
