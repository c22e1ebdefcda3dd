import type { users } from "../../db/schema";
import { ms } from "../../lib/time";

export interface UserRecord {
  id: string;
  email: string;
  name: string;
  avatar: string | null;
  company: string | null;
  invitationCode: string | null;
  isStaff: boolean;
  createdAt: string;
}

export const userRecord = (u: typeof users.$inferSelect): UserRecord => ({
  id: u.id,
  email: u.email,
  name: u.name,
  avatar: u.avatar,
  company: u.company,
  invitationCode: u.invitationCode,
  isStaff: u.isStaff,
  createdAt: ms(u.createdAt)!,
});
