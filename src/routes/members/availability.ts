import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { orgAccess } from "../../services/access";
import { availabilityOf, setAvailability } from "../../services/assignment/availability";
import { Availability } from "../../services/records/members";
import { OrganizationParams } from "./schema";

const AvailabilityBody = z.object({ availability: Availability }).openapi("MemberAvailability");

const getRoute = createRoute({
  method: "get",
  path: "/organizations/{organizationPk}/members/current/availability/",
  tags: ["Members"],
  summary: "The caller's availability",
  description: "Any member may read their own; no permission is needed.",
  request: { params: OrganizationParams },
  responses: { 200: json(AvailabilityBody, "The caller's availability"), ...errorResponses(404) },
});

const putRoute = createRoute({
  method: "put",
  path: "/organizations/{organizationPk}/members/current/availability/",
  tags: ["Members"],
  summary: "Set the caller's availability",
  description:
    "Any member may set their own; no permission is needed. Only `online` members are given conversations by " +
    "automatic " +
    "(round-robin) assignment; coming online assigns them the oldest conversations waiting in the round-robin " +
    "inboxes they " +
    "serve, up to their capacity, before the answer. Closing the last console tab makes them `offline` after a while " +
    "(see `conversation-events/`); coming back online is this call again.",
  request: { params: OrganizationParams, ...jsonBody(AvailabilityBody) },
  responses: { 200: json(AvailabilityBody, "The caller's availability"), ...errorResponses(400, 404) },
});

export const registerMemberAvailability = (r: Router) => {
  r.openapi(getRoute, async (c) => {
    const access = await orgAccess(c, c.req.valid("param").organizationPk);
    return c.json({ availability: await availabilityOf(c.var.db, access.memberId) }, 200);
  });
  r.openapi(putRoute, async (c) => {
    const access = await orgAccess(c, c.req.valid("param").organizationPk);
    const availability = await setAvailability(
      c.env,
      c.var.db,
      access.organizationId,
      access.memberId,
      c.req.valid("json").availability,
    );
    return c.json({ availability }, 200);
  });
};
