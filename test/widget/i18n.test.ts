import { describe, expect, it } from "vitest";
import { en } from "../../widget/src/i18n/en";
import { pickLanguage } from "../../widget/src/i18n/index";
import { zhTW } from "../../widget/src/i18n/zh-TW";

describe("the widget's language", () => {
  it("is Traditional Chinese for a browser that prefers it, else English", () => {
    for (const tag of ["zh-TW", "zh-tw", "zh-HK", "zh-MO", "zh-Hant", "zh-Hant-TW"])
      expect(pickLanguage([tag]), tag).toBe("zh-TW");
    for (const tags of [["en-US"], ["zh-CN"], ["zh"], ["zh-Hans-TW"], ["ja", "fr"], []])
      expect(pickLanguage(tags), tags.join()).toBe("en");
  });

  it("is the first of the browser's languages the widget speaks", () => {
    expect(pickLanguage(["ja", "zh-TW", "en"])).toBe("zh-TW");
    expect(pickLanguage(["zh-CN", "zh-TW"])).toBe("zh-TW");
    expect(pickLanguage(["zh-CN", "en-GB", "zh-TW"])).toBe("en");
    expect(pickLanguage(["en", "zh-TW"])).toBe("en");
  });

  it(
    "takes an embed's tag as a locale may write it, before the browser's; one it does not speak is passed " + "over",
    () => {
      // chooseLanguage puts the embed's data-lang first: [wanted, ...navigator.languages].
      for (const tag of ["zh_TW", "ZH-hk", "zh_Hant_TW"]) expect(pickLanguage([tag, "en-US"]), tag).toBe("zh-TW");
      for (const tag of ["en_GB", "EN"]) expect(pickLanguage([tag, "zh-TW"]), tag).toBe("en");
      for (const tag of ["fr", "zh-CN", "english", "zh-twn", ""])
        expect(pickLanguage([tag, "zh-TW"]), tag).toBe("zh-TW");
    },
  );

  it("has every text in zh-TW with the same placeholders as in English", () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    expect(Object.keys(zhTW).sort()).toEqual(Object.keys(en).sort());
    for (const [key, text] of Object.entries(en)) {
      const translated = zhTW[key as keyof typeof en];
      expect(translated, key).not.toBe("");
      expect(placeholders(translated), key).toEqual(placeholders(text));
    }
  });
});
