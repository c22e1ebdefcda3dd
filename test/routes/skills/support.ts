import { zipSync } from "fflate";
import { expect } from "vitest";
import type { Actor } from "../../harness";
import { bodyOf } from "../../support/api";
import { createTool } from "../../fixtures/tools";

const enc = (s: string) => new TextEncoder().encode(s);

export const skillMd = (front: string, body = "# Steps\n1. Ask for the receipt.\n2. File it.") =>
  `---\n${front}\n---\n${body}\n`;

/** A zip of `files` (path -> text or bytes). */
export const zip = (files: Record<string, string | Uint8Array>) =>
  zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, typeof v === "string" ? enc(v) : v])));

export function uploadForm(bytes: Uint8Array, fields: Record<string, string> = {}, filename = "skill.zip") {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append("file", new File([bytes], filename, { type: "application/zip" }));
  return form;
}

export async function uploadSkill(
  actor: Actor,
  name: string,
  extra: {
    fields?: Record<string, string>;
    files?: Record<string, string | Uint8Array>;
    front?: string;
    body?: string;
  } = {},
) {
  const bytes = zip({
    "SKILL.md": skillMd(
      extra.front ??
        `name: ${name}\ndescription: Files an expense report\nwhen_to_use: When the user asks to file expenses`,
      extra.body,
    ),
    "reference/policy.md": "Meals up to 50 EUR a day.",
    ...extra.files,
  });
  const res = await actor.fetch("POST", "/skills/upload/", uploadForm(bytes, extra.fields));
  expect(res.status, await res.clone().text()).toBe(201);
  return await bodyOf<"POST /skills/upload/">(res);
}

/** The function tool `file_expense` the uploaded skill is about, to attach to it; its id. */
export const fileExpenseTool = async (owner: Actor) =>
  (
    await createTool(owner, {
      name: "file_expense",
      displayName: "File expense",
      toolType: "function",
      functionCode: "function main(a) { return { filed: true }; }",
    })
  ).id;
