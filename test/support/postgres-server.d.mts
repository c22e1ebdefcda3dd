export declare const PG_PASSWORD: string;
export declare const PG_USER: string;
export declare const PG_DATABASE: string;
export declare const SEED_SQL: string;
export declare function startPostgres(options?: { seed?: string }): Promise<{
  url: string | null;
  reason?: string;
  port?: number;
  psql?: (sql: string) => string;
  stop?: () => Promise<void>;
}>;
