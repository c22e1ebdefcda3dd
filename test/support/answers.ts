// Every answer the harness's `call` gets, read against the served OpenAPI document: the response schema of the
// operation and status (test/support/openapi-sweep/responses.ts). Off by default; `READ_ANSWERS=report npx vitest run
// ...` logs each difference once ("[answer] ..."), `READ_ANSWERS=fail` fails the test that got the answer. The sweep
// reads its own answers always (test/conventions/openapi-sweep.test.ts); this reaches the paths its world does not.
import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { documentOf } from "./api";
import { nameOf, operationsOf, type Operation } from "./openapi-sweep/cases";
import { answerProblems } from "./openapi-sweep/responses";
import { SchemaKit } from "./openapi-sweep/schema";

interface Routes {
  kit: SchemaKit;
  /** Operations with the pattern of their path, most literal first (`/members/current/` before `/members/{id}/`). */
  routes: { op: Operation; pattern: RegExp }[];
}

let routes: Promise<Routes> | undefined;
/** Differences already logged in this worker (`report`): each once. */
const logged = new Set<string>();

function load(): Promise<Routes> {
  routes ??= SELF.fetch("http://localhost/api/v1/openapi.json")
    .then(documentOf)
    .then((doc) => ({
      kit: new SchemaKit(doc.components),
      routes: operationsOf(doc)
        .map((op) => {
          const path = `${op.prefix}${op.template}`.replace(/\/$/, "");
          // `{path}` and `{key}` (public files, uploads) hold slashes; other parameters are one segment.
          const source = path
            .split(/(\{\w+\})/)
            .map((part) =>
              /^\{(path|key)\}$/.test(part)
                ? ".+"
                : /^\{\w+\}$/.test(part)
                  ? "[^/]+"
                  : part.replace(/[.*+?^$()|[\]\\]/g, "\\$&"),
            )
            .join("");
          return { op, pattern: new RegExp(`^${source}/?$`), params: op.pathParams.length };
        })
        .sort((x, y) => x.params - y.params),
    }));
  return routes;
}

/** Reads `res`, the answer to `method url`, against the document; a path outside it (channels, /health) is left. */
export async function readAnswer(method: string, url: string, res: Response) {
  const mode = env.TEST_READ_ANSWERS;
  if (!mode) return;
  const path = new URL(url, "http://localhost").pathname;
  const { kit, routes: all } = await load();
  const route = all.find((r) => r.op.method === method.toUpperCase() && r.pattern.test(path));
  if (!route) return;
  const contentType = res.headers.get("Content-Type");
  // Only JSON is read (event streams never end; files are bytes): the other media types are checked by name.
  const text = /^application\/json/i.test(contentType ?? "") ? await res.clone().text() : "";
  const problems = answerProblems(kit, route.op, { status: res.status, contentType, text }).map(
    (p) => `${nameOf(route.op)} -> ${res.status}: ${p}`,
  );
  if (mode === "fail") expect(problems, `The answer differs from the document:\n${problems.join("\n")}`).toEqual([]);
  for (const line of problems) {
    if (logged.has(line)) continue;
    logged.add(line);
    console.log(`[answer] ${line}`);
  }
}
