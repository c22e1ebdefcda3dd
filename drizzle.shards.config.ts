import { defineConfig } from "drizzle-kit";

// The organization shards' schema (`CONVERSATIONS_n`): `npx drizzle-kit generate --config drizzle.shards.config.ts`.
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/shard-schema/index.ts",
  out: "./migrations-shards",
});
