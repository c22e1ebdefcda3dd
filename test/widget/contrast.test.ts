import { describe, expect, it } from "vitest";
import { CSS, DARK, ERROR, LIGHT, luminance, textOn } from "../../widget/src/styles";

/** WCAG 2.x contrast ratio of two `#rrggbb` colours, computed here from the definition. */
function ratio(a: string, b: string): number {
  const channel = (hex: string, i: number) => {
    const v = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const l = (hex: string) => 0.2126 * channel(hex, 0) + 0.7152 * channel(hex, 1) + 0.0722 * channel(hex, 2);
  const [hi, lo] = [l(a), l(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const AA = 4.5;

describe("the widget's default themes meet WCAG AA contrast (4.5:1)", () => {
  for (const [name, t, error] of [
    ["light", LIGHT, ERROR.light],
    ["dark", DARK, ERROR.dark],
  ] as const) {
    it(`${name}: body text, text on the primary colour, secondary and error text`, () => {
      const pairs: [string, string, string][] = [
        ["body text on the background", t.text, t.background],
        ["assistant text on its bubble", t.text, t.bubble],
        ["text on the primary colour (header, launcher, send, visitor bubbles)", t.onPrimary, t.primary],
        ["secondary text on the background", t.muted, t.background],
        ["secondary text on the assistant's bubble (a reply's sources)", t.muted, t.bubble],
        ["error text on the background", error, t.background],
        ["error text on a file chip", error, t.bubble],
      ];
      for (const [what, fg, bg] of pairs)
        expect(ratio(fg, bg), `${name}: ${what} (${fg} on ${bg})`).toBeGreaterThanOrEqual(AA);
    });
  }

  it("are the colours the stylesheet uses", () => {
    // The light theme is the host's custom properties, the dark one those of :host(.dark).
    const host = /:host\{all:initial;([^}]*)\}/.exec(CSS)![1];
    const dark = /:host\(\.dark\)\{([^}]*)\}/.exec(CSS)![1];
    for (const [block, t] of [
      [host, LIGHT],
      [dark, DARK],
    ] as const) {
      expect(block).toContain(
        `--p:${t.primary};--pt:${t.onPrimary};--nav:${t.onPrimary};--bg:${t.background};` +
          `--bt:${t.text};--bb:${t.bubble};--muted:${t.muted}`,
      );
    }
  });

  it("picks the text colour on a primary colour as the widget does, and agrees with the defaults", () => {
    expect(textOn(LIGHT.primary)).toBe(LIGHT.onPrimary);
    expect(textOn(DARK.primary)).toBe(DARK.onPrimary);
    expect(luminance("#ffffff")).toBeCloseTo(1);
    expect(luminance("#000")).toBe(0);
    // For saturated brand colours the choice reads at AA either way round.
    for (const primary of ["#4f46e5", "#a5b4fc", "#dc2626", "#16a34a", "#facc15", "#0f766e"])
      expect(ratio(textOn(primary), primary), primary).toBeGreaterThanOrEqual(AA);
  });
});
