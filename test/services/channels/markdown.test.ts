import { describe, expect, it } from "vitest";
import {
  splitMessage,
  toPlainText,
  toSlackMrkdwn,
  toTelegramHtml,
  withCitations,
} from "../../../src/services/channels/markdown";

const reply =
  "## Returns\nYou can return **unused** items within *30 days*.\n\n- Print the `label`\n- See [our " +
  "policy](https://acme.example/returns) & <rules>\n\n```\ncode <x>\n```";

describe("a reply's Markdown as each platform shows it", () => {
  it("plain text: emphasis dropped, links written out, bullets", () => {
    expect(toPlainText(reply)).toBe(
      "Returns\nYou can return unused items within 30 days.\n\n• Print the label\n• See our policy " +
        "(https://acme.example/returns) & <rules>\n\ncode <x>",
    );
  });

  it("Telegram HTML: its tags only, everything else escaped", () => {
    expect(toTelegramHtml(reply)).toBe(
      "<b>Returns</b>\nYou can return <b>unused</b> items within <i>30 days</i>.\n\n• Print the " +
        '<code>label</code>\n• See <a href="https://acme.example/returns">our policy</a> &amp; ' +
        "&lt;rules&gt;\n\n<pre>code &lt;x&gt;</pre>",
    );
    expect(toTelegramHtml("[x](javascript:void)")).toBe("x");
    expect(toTelegramHtml("[x](javascript:alert(1))")).not.toContain("<a");
  });

  it("Slack mrkdwn: *bold*, _italic_, <url|text>, &<> escaped", () => {
    expect(toSlackMrkdwn(reply)).toBe(
      "*Returns*\nYou can return *unused* items within _30 days_.\n\n• Print the `label`\n• See " +
        "<https://acme.example/returns|our policy> &amp; &lt;rules&gt;\n\n```\ncode &lt;x&gt;\n```",
    );
  });

  it("citations become a list of links once each", () => {
    expect(
      withCitations("Five days.", [
        { title: "Refunds [FAQ]", url: "https://acme.example/r" },
        { title: "again", url: "https://acme.example/r" },
        { title: "local", url: "file:///etc" },
      ]),
    ).toBe("Five days.\n\n- [Refunds FAQ](https://acme.example/r)");
  });
});

describe("splitMessage", () => {
  it("cuts between paragraphs, then lines, sentences and words, within the limit", () => {
    const paragraphs = ["a".repeat(30), "b".repeat(30), "c".repeat(30)].join("\n\n");
    expect(splitMessage(paragraphs, 70)).toEqual([`${"a".repeat(30)}\n\n${"b".repeat(30)}`, "c".repeat(30)]);
    expect(splitMessage("First sentence here. Second one follows. Third.", 25)).toEqual([
      "First sentence here.",
      "Second one follows.",
      "Third.",
    ]);
    const long = "word ".repeat(100).trim();
    const parts = splitMessage(long, 42);
    expect(parts.every((p) => p.length <= 42)).toBe(true);
    expect(parts.join(" ")).toBe(long);
  });

  it("a word longer than the limit is cut, never inside a surrogate pair", () => {
    const parts = splitMessage("😀".repeat(10), 5);
    expect(parts.every((p) => p.length <= 5 && !/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(p))).toBe(true);
    expect(parts.join("")).toBe("😀".repeat(10));
    expect(splitMessage("short", 100)).toEqual(["short"]);
    expect(splitMessage("  ", 100)).toEqual([]);
  });
});
