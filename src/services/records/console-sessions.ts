import { ms } from "../../lib/time";
import { sessionExpiresAt, type SessionRow } from "../console-sessions";

export interface ConsoleSessionRecord {
  id: string;
  method: SessionRow["method"];
  userAgent: string | null;
  organization: string | null;
  current: boolean;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
}

/** `currentId`: the session of the request, if any, so a list can mark it. */
export const consoleSessionRecord = (s: SessionRow, currentId: string | null): ConsoleSessionRecord => ({
  id: s.id,
  method: s.method,
  userAgent: s.userAgent,
  organization: s.organizationId,
  current: s.id === currentId,
  createdAt: ms(s.createdAt)!,
  lastUsedAt: ms(s.lastUsedAt)!,
  expiresAt: ms(sessionExpiresAt(s))!,
});
