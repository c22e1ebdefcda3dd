import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { getMember } from "../../services/members";
import { MAX_CAPACITY } from "../../services/assignment/settings";
import { setCapacity } from "../../services/assignment/availability";
import { MemberSchema, memberRecord } from "../../services/records/members";
import { memberWith } from "./access";
import { MemberParams } from "./schema";

const UpdateMember = z.object({
  capacity: z
    .number()
    .int()
    .min(1)
    .max(MAX_CAPACITY)
    .nullable()
    .openapi({
      description:
        `Conversations they serve at once (1..${MAX_CAPACITY}) before automatic assignment passes them by; ` +
        `null: each inbox's capacity`,
      example: 3,
    }),
});

const route = createRoute({
  method: "patch",
  path: "/organizations/{organizationPk}/members/{id}/",
  tags: ["Members"],
  summary: "Update a member's assignment capacity",
  description: "Needs `member.manage`.",
  request: { params: MemberParams, ...jsonBody(UpdateMember) },
  responses: { 200: json(MemberSchema, "The member"), ...errorResponses(400, 403, 404) },
});

export const registerUpdateMember = (r: Router) =>
  r.openapi(route, async (c) => {
    const { organizationPk, id } = c.req.valid("param");
    const { access, member } = await memberWith(c, organizationPk, id, "member.manage");
    const db = c.var.db;
    await setCapacity(db, member.member.id, c.req.valid("json").capacity);
    return c.json(memberRecord(await getMember(db, access.organizationId, id)), 200);
  });
