import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { HTTPException } from "hono/http-exception";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../src/env";
import { ApiError, notFound } from "../../src/lib/errors";
import { createRouter, validationError } from "../../src/lib/openapi";

// The API's routers validate with one synchronous middleware (src/lib/route-validation.ts) where
// @hono/zod-openapi would run its own validators: every request below must get the same answer
// from both.
const Body = z.object({
  name: z.string().min(1),
  tags: z.array(z.string()).max(2).optional(),
  count: z.number().int().default(1),
});
const request = (required: boolean) => ({
  params: z.object({ id: z.uuid() }),
  query: z.object({
    page: z.coerce.number().int().min(1).optional(),
    q: z.string().optional(),
    kind: z.array(z.string()).optional(),
  }),
  headers: z.object({ "Idempotency-Key": z.string().max(8).optional() }),
  body: { required, content: { "application/json": { schema: Body } } },
});
const routeOf = (path: string, required: boolean) =>
  createRoute({ method: "post", path, request: request(required), responses: { 200: { description: "ok" } } });

function app(router: OpenAPIHono<AppEnv>) {
  for (const [path, required] of [
    ["/required/{id}", true],
    ["/optional/{id}", false],
  ] as const) {
    router.openapi(routeOf(path, required), (c) =>
      c.json(
        {
          param: c.req.valid("param"),
          query: c.req.valid("query"),
          header: c.req.valid("header"),
          json: c.req.valid("json"),
        } as never,
        200,
      ),
    );
  }
  router.onError((err) => {
    if (err instanceof ApiError)
      return Response.json({ code: err.code, detail: err.detail, errors: err.errors }, { status: err.status });
    if (err instanceof HTTPException) return Response.json({ detail: err.message }, { status: err.status });
    return Response.json({ unexpected: String(err) }, { status: 500 });
  });
  return router;
}

const ours = app(createRouter());
// The library's validators with the same outcome for a failure (createRouter's hook).
const library = app(
  new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (result.success) return;
      if (result.target === "param") throw notFound();
      throw validationError(result.error.issues);
    },
  }),
);

const ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";
const json = { "Content-Type": "application/json" };
const cases: [string, string, RequestInit][] = [
  [
    "valid",
    `/required/${ID}?page=2&q=hello&kind=a&kind=b`,
    { method: "POST", headers: { ...json, "IDEMPOTENCY-KEY": "k1" }, body: JSON.stringify({ name: "x", tags: ["a"] }) },
  ],
  ["a malformed path id", "/required/nope", { method: "POST", headers: json, body: JSON.stringify({ name: "x" }) }],
  ["a bad query", `/required/${ID}?page=0`, { method: "POST", headers: json, body: JSON.stringify({ name: "x" }) }],
  [
    "a bad header",
    `/required/${ID}`,
    { method: "POST", headers: { ...json, "Idempotency-Key": "much-too-long" }, body: JSON.stringify({ name: "x" }) },
  ],
  [
    "a bad body",
    `/required/${ID}`,
    { method: "POST", headers: json, body: JSON.stringify({ name: "", tags: ["a", "b", "c"], count: 1.5 }) },
  ],
  ["malformed JSON", `/required/${ID}`, { method: "POST", headers: json, body: "{" }],
  [
    "a JSON type with parameters",
    `/required/${ID}`,
    {
      method: "POST",
      headers: { "Content-Type": "application/json; charset=utf-8" },
      body: JSON.stringify({ name: "x" }),
    },
  ],
  [
    "a vendor JSON type",
    `/required/${ID}`,
    { method: "POST", headers: { "Content-Type": "application/vnd.api+json" }, body: JSON.stringify({ name: "x" }) },
  ],
  [
    "another media type",
    `/required/${ID}`,
    { method: "POST", headers: { "Content-Type": "text/plain" }, body: JSON.stringify({ name: "x" }) },
  ],
  // Bytes: fetch gives a string body a text/plain type.
  [
    "a body without a type",
    `/required/${ID}`,
    { method: "POST", body: new TextEncoder().encode(JSON.stringify({ name: "x" })) },
  ],
  ["an empty body without a type", `/required/${ID}`, { method: "POST", body: new Uint8Array(0) }],
  ["no body, required", `/required/${ID}`, { method: "POST" }],
  ["no body, optional", `/optional/${ID}`, { method: "POST" }],
  ["a body, optional", `/optional/${ID}`, { method: "POST", headers: json, body: JSON.stringify({ name: "y" }) }],
  ["a bad body, optional", `/optional/${ID}`, { method: "POST", headers: json, body: JSON.stringify({}) }],
  ["a bad path and body at once", "/optional/nope", { method: "POST", headers: json, body: "{}" }],
];

/** The cases whose 415 says what to change where the library's says only "Unsupported Media Type": the type sent. */
const SAYS_THE_TYPE: Record<string, string> = { "another media type": "text/plain", "a body without a type": "none" };

describe("the API's route validation", () => {
  it.each(cases)("answers %s as @hono/zod-openapi's validators do", async (name, path, init) => {
    const [a, b] = await Promise.all([ours.request(path, init), library.request(path, init)]);
    const [bodyA, bodyB] = await Promise.all([a.text(), b.text()]);
    const type = SAYS_THE_TYPE[name];
    if (type) {
      expect({ status: a.status, body: JSON.parse(bodyA) }).toEqual({
        status: b.status,
        body: { detail: `Unsupported media type "${type}"; send application/json.` },
      });
      expect(JSON.parse(bodyB)).toEqual({ detail: "Unsupported Media Type" });
    } else expect({ status: a.status, body: bodyA }).toEqual({ status: b.status, body: bodyB });
    expect(a.status).not.toBe(500);
  });

  it("hands the handler the parsed parts (the valid case)", async () => {
    const res = await ours.request(...(cases[0].slice(1) as [string, RequestInit]));
    expect(await res.json()).toEqual({
      param: { id: ID },
      query: { page: 2, q: "hello", kind: ["a", "b"] },
      header: expect.objectContaining({ "Idempotency-Key": "k1" }),
      json: { name: "x", tags: ["a"], count: 1 },
    });
  });

  it("keeps the library's validators for what it does not cover (forms)", async () => {
    const router = createRouter();
    const form = createRoute({
      method: "post",
      path: "/form",
      request: { body: { content: { "multipart/form-data": { schema: z.object({ name: z.string() }) } } } },
      responses: { 200: { description: "ok" } },
    });
    router.openapi(form, (c) => c.json(c.req.valid("form") as never, 200));
    const data = new FormData();
    data.set("name", "x");
    const res = await router.request("/form", { method: "POST", body: data });
    expect(await res.json()).toEqual({ name: "x" });
  });
});
