import type { Db } from "../../env";
import { fieldError } from "../../lib/errors";
import type { ConversationChange, ConversationRow } from "../conversations";
import { membership, requireTeamOf } from "./settings";

/** An operator's assignment as asked: a key left out keeps its value, null clears it. */
export interface AssignRequest {
  assigneeId?: string | null;
  teamId?: string | null;
}

/**
 * The change an assignment makes, checked (400 on the field at fault): the team must be the
 * organization's; the assignee named a member of it who may serve conversations (`mayServe`, the rule automatic
 * assignment follows), and of the team the conversation will have
 * (unless both stay as they are: a member outside the team who took it over keeps it). Giving the
 * conversation to another team alone releases an assignee who is not in that team, for the team's
 * members to take it, rather than refusing the team. The state is left as it is: assigning names who
 * should serve; the assignee takes the conversation by answering or taking it over (docs/decisions.md,
 * "Assignment").
 */
export async function assignmentChange(
  db: Db,
  conversation: ConversationRow,
  body: AssignRequest,
): Promise<ConversationChange> {
  const organizationId = conversation.organizationId;
  if (body.teamId) await requireTeamOf(db, organizationId, body.teamId, "teamId");
  const teamId = body.teamId === undefined ? conversation.teamId : body.teamId;
  const change: ConversationChange = {};
  if (body.teamId !== undefined) change.teamId = body.teamId;
  if (body.assigneeId !== undefined) change.assigneeId = body.assigneeId;
  if (body.assigneeId) {
    const member = await membership(db, organizationId, body.assigneeId, teamId);
    if (!member) throw fieldError("assigneeId", "The assignee is not a member of your organization.");
    // The assignee and team it has already stand: a member outside the team may have taken it over (a lead does),
    // and sending the assignment back as it reads is no new choice to refuse.
    const unchanged = body.assigneeId === conversation.assigneeId && teamId === conversation.teamId;
    if (!member.canServe && !unchanged)
      throw fieldError(
        "assigneeId",
        "The assignee may not serve conversations: they need the conversation.manage permission (a group granting it).",
      );
    if (!member.inTeam && !unchanged)
      throw fieldError("assigneeId", "The assignee is not a member of the conversation's team.");
  } else if (body.assigneeId === undefined && conversation.assigneeId && teamId !== conversation.teamId) {
    const kept = await membership(db, organizationId, conversation.assigneeId, teamId);
    if (!kept?.inTeam) change.assigneeId = null;
  }
  return change;
}
