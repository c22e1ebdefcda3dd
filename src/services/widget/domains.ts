import { and, eq, sql } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { webChats } from "../../db/schema";
import { tableCache } from "../../db/write-watch";

/** The TXT record a business publishes to prove it controls a custom domain. */
export const challengeName = (domain: string) => `_assistant-platform-challenge.${domain}`;
export const challengeValue = (customDomainId: string) => `assistant-platform-verification=${customDomainId}`;

/** Looks up TXT records; DNS over HTTPS in production, a fixed table where DNS_STATIC_TXT is set (local runs, tests).
 * */
export interface TxtResolver {
  txt(name: string): Promise<string[]>;
}

export function txtResolver(env: Bindings): TxtResolver {
  if (env.DNS_STATIC_TXT) {
    const table = JSON.parse(env.DNS_STATIC_TXT) as Record<string, string[]>;
    return { txt: async (name) => table[name.toLowerCase()] ?? [] };
  }
  const endpoint = env.DNS_RESOLVER_URL || "https://cloudflare-dns.com/dns-query";
  return {
    async txt(name) {
      const url = new URL(endpoint);
      url.searchParams.set("name", name);
      url.searchParams.set("type", "TXT");
      const res = await fetch(url, { headers: { Accept: "application/dns-json" }, signal: AbortSignal.timeout(5000) });
      if (!res.ok) throw new Error(`DNS over HTTPS answered ${res.status}`);
      const body = (await res.json()) as { Answer?: { type: number; data: string }[] };
      // TXT data comes quoted, long values split into several quoted strings.
      return (body.Answer ?? [])
        .filter((a) => a.type === 16)
        .map((a) => a.data.replace(/"\s*"/g, "").replace(/^"|"$/g, ""));
    },
  };
}

/** Whether the domain's challenge record names this custom domain (a lookup failure counts as no). */
export async function domainVerified(resolver: TxtResolver, domain: string, customDomainId: string): Promise<boolean> {
  try {
    return (await resolver.txt(challengeName(domain))).includes(challengeValue(customDomainId));
  } catch {
    return false;
  }
}

/** Forgotten in this isolate by any write to web chats (a verification, an update). */
const hosts = tableCache<string | null>([webChats], 10_000);

/** The web chat whose active custom domain is `host` (port ignored), remembered 10 s per isolate; null when none. */
export async function webChatForHost(db: Db, host: string): Promise<string | null> {
  const domain = host.toLowerCase().replace(/:\d+$/, "");
  const hit = hosts.get(domain);
  if (hit !== undefined) return hit;
  const [row] = await db
    .select({ id: webChats.id })
    .from(webChats)
    .where(
      and(
        sql`json_extract(${webChats.settings}, '$.customDomain.domain') = ${domain}`,
        sql`json_extract(${webChats.settings}, '$.customDomain.status') = 'active'`,
        eq(webChats.isActive, true),
      ),
    )
    .limit(1);
  hosts.set(domain, row?.id ?? null);
  return row?.id ?? null;
}
