// What scripts and benches read from a checkout's wrangler.toml.
import { readFileSync } from "node:fs";
import path from "node:path";

/** The compatibility date and flags of a checkout's wrangler.toml. */
export function compatibility(root) {
  const toml = readFileSync(path.join(root, "wrangler.toml"), "utf8");
  const compatibilityDate = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
  const compatibilityFlags = [
    ...(/^compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1].matchAll(/"([^"]+)"/g) ?? []),
  ].map((m) => m[1]);
  return { compatibilityDate, compatibilityFlags };
}
