#!/usr/bin/env node
// `npm run stand-in -- <platform> [--port N]`: a messaging platform's stand-in on this machine, the one
// the tests use (test/support/platforms), so a channel can be tried without the platform: it answers
// the worker's calls as the platform documents them and signs the events it sends. Prints the
// settings for .dev.vars. Platforms: telegram, line, graph (Messenger, Instagram, WhatsApp), slack.
//
// `npm run stand-in -- send telegram --token T --to URL --text "Hi" [--stand-in URL] [--user ID]`:
// the stand-in (running) sends a visitor's message to the worker's webhook URL, signed.
// `npm run stand-in -- sent telegram --token T [--stand-in URL]`: what the worker sent the platform.
import { STAND_INS } from "../test/support/platforms/index.mjs";
import { startStandIn } from "../test/support/platforms/stand-in.mjs";

const [command, ...rest] = process.argv.slice(2);
const flag = (name, fallback) => {
  const at = rest.indexOf(`--${name}`);
  return at >= 0 ? rest[at + 1] : fallback;
};
const usage = () => {
  console.error(
    "usage: npm run stand-in -- <telegram|line|graph|slack> [--port 8791]\n       npm run stand-in -- send " +
      "telegram --token T --to URL --text TEXT\n       npm run stand-in -- sent telegram --token T",
  );
  process.exit(2);
};

if (command === "send" || command === "sent") {
  const platform = rest[0];
  if (platform !== "telegram") {
    console.error(
      "send and sent speak Telegram's updates; for the other platforms use their stand-in's /__sign, and " +
        "/__verify for Meta's and Slack's check of the webhook URL (test/support/platforms).",
    );
    process.exit(2);
  }
  const standIn = flag("stand-in", "http://127.0.0.1:8791");
  const token = flag("token");
  if (!token) usage();
  if (command === "sent") {
    const requests = await (await fetch(`${standIn}/__requests?key=${encodeURIComponent(token)}`)).json();
    for (const r of requests) console.log(JSON.stringify({ method: r.path.split("/").pop(), ...r.body }));
  } else {
    const to = flag("to");
    const text = flag("text");
    if (!to || !text) usage();
    const user = Number(flag("user", "5551234"));
    // Ids by the millisecond: two sends within a second were one update to the service (a redelivery), and the
    // second message was dropped as Telegram's retry.
    const id = Date.now();
    const update = {
      update_id: id,
      message: {
        message_id: id,
        date: Math.floor(id / 1000),
        text,
        chat: { id: user, type: "private", first_name: "Olivia" },
        from: { id: user, is_bot: false, first_name: "Olivia", last_name: "Chen" },
      },
    };
    const signed = await (
      await fetch(`${standIn}/__sign`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token, update }),
      })
    ).json();
    const res = await fetch(to, { method: "POST", headers: signed.headers, body: signed.body });
    console.log(`${to} answered ${res.status} ${await res.text()}`);
    if (!res.ok) process.exit(1);
  }
} else {
  const entry = STAND_INS[command];
  if (!entry) usage();
  const { platform } = await import(
    new URL(`../test/support/platforms/${entry.module.slice(2)}`, import.meta.url).href
  );
  const server = await startStandIn(platform, { port: Number(flag("port", "8791")) });
  const host = new URL(server.url).host;
  console.log(`${command} stand-in on ${server.url}. For npm run dev, add to .dev.vars (then restart it):`);
  for (const setting of entry.settings) console.log(`${setting}=${server.url}`);
  console.log(`OUTBOUND_ALLOWED_HOSTS=${host}`);
  const stop = () => server.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
