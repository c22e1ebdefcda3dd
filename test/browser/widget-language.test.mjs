// The widget's language in real Chromium against `wrangler dev`: the embed's `data-lang` (and the full-page
// chat's `?lang=`) wins over the browser's languages, one the widget does not speak leaves the choice to the
// browser; speech is heard and read in the widget's language; and the API's refusals (a closed chat, a file
// too large or of a type not allowed) are said in the widget's language, the file's limit with them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer } from "node:http";
import { createWebChat, LOCAL_LLM } from "../../bench/lib.mjs";
import { axeViolations, pageWithErrors, startWidgetServer } from "./console-helpers.mjs";

/** A visitor's file may be at most 2 KiB on this server (ALLOWED_FILE_SPECS), so a small file is too large. */
const MAX_FILE = 2048;

let widget, server, host, browser, chat;

/** The business's site on another origin; `?lang=` puts that `data-lang` on the script tag, `?chat=` names the chat. */
function hostPage() {
  return new Promise((resolve) => {
    const http = createServer((req, res) => {
      const query = new URL(req.url, "http://x").searchParams;
      const lang = query.get("lang");
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><html lang="en"><head><link rel="icon" href="data:,"><title>Acme shop</title></head>
<body><h1>Acme shop</h1><script src="${server.base}/widget.js" data-web-chat-id="${query.get("chat") ?? chat}"
${lang ? `data-lang="${lang}"` : ""} async></script></body></html>`);
    });
    http.listen(0, "127.0.0.1", () =>
      resolve({ url: `http://127.0.0.1:${http.address().port}`, close: () => new Promise((r) => http.close(r)) }),
    );
  });
}

const newChat = async () =>
  (
    await createWebChat(server, {
      assistant: { name: "Ava", largeLanguageModel: LOCAL_LLM },
      webChat: {
        name: "Acme Help",
        displayGreeting: "Hello! How can I help you today?",
        enableAnonymous: true,
        enableSpeech: true,
        enableFileUpload: true,
      },
    })
  ).id;

beforeAll(async () => {
  widget = await startWidgetServer({
    vars: { ALLOWED_FILE_SPECS: JSON.stringify({ attachment: { file: { max_size: MAX_FILE } } }) },
  });
  ({ server, browser } = widget);
  chat = await newChat();
  host = await hostPage();
}, 120_000);

afterAll(async () => {
  await host?.close();
  await widget?.close();
});

/** A page in a browser whose languages are `locale`'s; `errors` collects what the page throws or logs as an error. */
const visitor = (locale) => pageWithErrors(browser, { viewport: { width: 1000, height: 800 }, locale });

const widgetLang = (page) => page.locator("[data-assistant-chat]").getAttribute("lang");

const lastAnswer = (page) => page.locator(".row.assistant .bubble").last();

/** Sends `text` from the open widget's composer (labelled `box`) and waits for the reply to finish. */
async function sendAndWait(page, box, text) {
  await page.getByRole("textbox", { name: box }).fill(text);
  await page.keyboard.press("Enter");
  await page.locator(".row.visitor .bubble", { hasText: text }).waitFor();
  await expect
    .poll(async () => (await lastAnswer(page).getAttribute("class")) ?? "", { timeout: 20_000 })
    .not.toContain("typing");
}

describe("the widget's language", () => {
  it("is the embed's data-lang whatever the browser prefers; one it does not speak leaves it to the " +
    "browser", async () => {
    // An English browser, a site that wants Traditional Chinese.
    const en = await visitor("en-US");
    await en.page.goto(`${host.url}/?lang=zh-TW`);
    await en.page.getByRole("button", { name: "開啟聊天：Acme Help" }).click();
    expect(await widgetLang(en.page)).toBe("zh-TW");
    expect(await en.page.getByRole("textbox", { name: "訊息" }).getAttribute("placeholder")).toBe("輸入您的訊息…");
    expect(await axeViolations(en.page)).toEqual([]);
    // A Traditional Chinese browser, a site that wants English (a locale's spelling of it too).
    const zh = await visitor("zh-TW");
    for (const lang of ["en", "en_GB"]) {
      await zh.page.goto(`${host.url}/?lang=${lang}`);
      await zh.page.getByRole("button", { name: "Open chat: Acme Help" }).waitFor();
      expect(await widgetLang(zh.page)).toBe("en");
    }
    // French, and Simplified Chinese, are not spoken: the browser's Traditional Chinese wins, as without data-lang.
    for (const lang of ["fr", "zh-CN"]) {
      await zh.page.goto(`${host.url}/?lang=${lang}`);
      await zh.page.getByRole("button", { name: "開啟聊天：Acme Help" }).waitFor();
      expect(await widgetLang(zh.page)).toBe("zh-TW");
    }
    // The full-page chat (the iframe's and the link's address) takes ?lang=; its whole document says so.
    await en.page.goto(`${server.base}/chat/${chat}?lang=zh-TW`);
    await en.page.getByRole("textbox", { name: "訊息" }).waitFor();
    expect(await widgetLang(en.page)).toBe("zh-TW");
    expect(await en.page.evaluate(() => document.documentElement.lang)).toBe("zh-TW");
    expect(await axeViolations(en.page)).toEqual([]);
    expect([...en.errors, ...zh.errors]).toEqual([]);
    await en.context.close();
    await zh.context.close();
  }, 60_000);

  it("hears and reads aloud in the widget's language, in the visitor's own accent of it", async () => {
    const heard = async (locale, lang) => {
      const { context, page, errors } = await visitor(locale);
      // The browser's own speech API, wrapped before the widget loads, to see the language it is given.
      await context.addInitScript(() => {
        window.__speech = [];
        for (const name of ["SpeechRecognition", "webkitSpeechRecognition"]) {
          const Real = window[name];
          if (!Real) continue;
          window[name] = class extends Real {
            start() {
              window.__speech.push(["hear", this.lang]);
              super.start();
              // What the browser heard (headless Chromium hears nothing), given as its result event gives it.
              setTimeout(() => this.onresult?.({ results: [[{ transcript: "Heard words" }]] }));
            }
          };
        }
        const speak = speechSynthesis.speak.bind(speechSynthesis);
        speechSynthesis.speak = (utterance) => {
          window.__speech.push(["read", utterance.lang]);
          speak(utterance);
        };
      });
      await page.goto(`${host.url}/${lang ? `?lang=${lang}` : ""}`);
      await page.locator("button.launcher").click();
      const zh = (lang ?? locale) === "zh-TW";
      await page.getByRole("button", { name: zh ? "用語音輸入訊息" : "Speak your message" }).click();
      // Heard words are in the box as typed ones are: kept unsent for the tab.
      await expect
        .poll(() => page.getByRole("textbox", { name: zh ? "訊息" : "Message" }).inputValue())
        .toBe("Heard words");
      const kept = () => page.evaluate(() => Object.entries(sessionStorage).find(([k]) => k.endsWith(":draft"))?.[1]);
      expect(await kept()).toBe("Heard words");
      await sendAndWait(page, zh ? "訊息" : "Message", "What are your opening hours?");
      await page
        .getByRole("button", { name: zh ? "朗讀" : "Read aloud" })
        .last()
        .click();
      await expect.poll(() => page.evaluate(() => window.__speech.length)).toBe(2);
      const said = await page.evaluate(() => window.__speech);
      expect(errors).toEqual([]);
      await context.close();
      return said;
    };
    // The site fixes Traditional Chinese for a British browser: heard and read as Chinese, not as the page's "en".
    expect(await heard("en-GB", "zh-TW")).toEqual([
      ["hear", "zh-TW"],
      ["read", "zh-TW"],
    ]);
    // The browser's English: its own accent of it.
    expect(await heard("en-GB")).toEqual([
      ["hear", "en-GB"],
      ["read", "en-GB"],
    ]);
  }, 90_000);

  it("says the API's refusals in the widget's language: a closed chat, a file too large (with its limit) or of " +
    "a type not allowed", async () => {
    const closing = await newChat();
    const { context, page, errors } = await visitor("zh-TW");
    await page.goto(`${host.url}/?chat=${closing}`);
    await page.getByRole("button", { name: "開啟聊天：Acme Help" }).click();
    await sendAndWait(page, "訊息", "What are your opening hours?");

    // Files: one over the limit, one of a type no one may send.
    await page.locator("input[type=file]").setInputFiles([
      { name: "big-notes.txt", mimeType: "text/plain", buffer: Buffer.alloc(MAX_FILE + 1, "a") },
      { name: "setup.exe", mimeType: "application/octet-stream", buffer: Buffer.from("MZ") },
    ]);
    const big = page.locator(".file.bad", { hasText: "big-notes.txt" });
    await expect.poll(() => big.locator(".st").textContent()).toBe("檔案太大（上限 2 kB）");
    const exe = page.locator(".file.bad", { hasText: "setup.exe" });
    await expect.poll(() => exe.locator(".st").textContent()).toBe("不允許的檔案類型");
    // The API's own reason (which types are allowed) stays at hand on the chip.
    expect(await exe.getAttribute("title")).toMatch(/^"setup\.exe" is not an allowed file type; allowed: .*\.txt/);
    await expect
      .poll(() => page.locator("[role=status].sr").textContent())
      .toMatch(/^(big-notes\.txt 無法上傳。檔案太大（上限 2 kB）。|setup\.exe 無法上傳。不允許的檔案類型。)$/);
    for (const name of ["big-notes.txt", "setup.exe"]) await page.getByRole("button", { name: `移除 ${name}` }).click();

    // The business closes the chat while the visitor is in it: the next message is refused, in Chinese.
    await server.api(`/web-chats/${closing}/`, { method: "PATCH", body: { isActive: false } });
    await page.getByRole("textbox", { name: "訊息" }).fill("Are you still there?");
    await page.keyboard.press("Enter");
    const note = page.locator(".unsent-note[role=alert]");
    await note.waitFor({ timeout: 20_000 });
    expect(await note.locator("span").textContent()).toBe("未送出：此聊天目前未開放。");
    expect(await page.locator("[role=status].sr").textContent()).toBe("未送出：此聊天目前未開放。");
    expect(await axeViolations(page)).toEqual([]);
    // The refusals were the API's answers (400, 403), which Chromium reports as failed loads; nothing else went wrong.
    expect(errors.filter((e) => !/status of (400|403)/.test(e))).toEqual([]);
    await context.close();
  }, 90_000);
});
