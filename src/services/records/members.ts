import { ms } from "../../lib/time";
import type { MemberView } from "../members";

export interface MemberRecord {
  id: string;
  user: { id: string; name: string; email: string; avatar: string | null };
  organization: string;
  isOwner: boolean;
  groups: { id: string; name: string }[];
  metadata: Record<string, unknown>;
  availability: MemberView["member"]["availability"];
  capacity: number | null;
  createdAt: string;
}

export const memberRecord = (v: MemberView): MemberRecord => ({
  id: v.member.id,
  user: v.user,
  organization: v.member.organizationId,
  isOwner: v.member.isOwner,
  groups: v.groups,
  metadata: v.member.metadata ?? {},
  availability: v.member.availability,
  capacity: v.member.capacity,
  createdAt: ms(v.member.createdAt)!,
});
