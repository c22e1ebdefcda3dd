import { missingSetting, notConfigured } from "./errors";

/**
 * The example values of `.dev.vars.example`. A deployment copied from the example must not run on
 * secrets everyone knows: a setting still holding its placeholder counts as not set, so requests
 * that need it answer 503 `not_configured` and `GET /health` names it (docs/decisions.md, "Safe
 * defaults").
 */
export const PLACEHOLDERS = {
  ENCRYPTION_KEY: "replace-with-a-long-random-string",
  BOOTSTRAP_API_KEY: "ak_replaceWithFortyLettersOrDigits000000000",
  BOOTSTRAP_PASSWORD: "replace-with-a-password",
} as const;

export type PlaceholderSetting = keyof typeof PLACEHOLDERS;

/** Whether the setting holds the example's placeholder (surrounding blanks ignored). */
export const isPlaceholder = (name: PlaceholderSetting, value: string | undefined) =>
  value?.trim() === PLACEHOLDERS[name];

/** The setting's value when it is one a deployment may use: set, and not the example's placeholder. */
export const usableSecret = (name: PlaceholderSetting, value: string | undefined): string | undefined =>
  value && !isPlaceholder(name, value) ? value : undefined;

/** The setting's value, else 503 `not_configured` naming it: unset, or still the example's placeholder. */
export function requiredSecret(name: PlaceholderSetting, value: string | undefined, purpose: string): string {
  if (isPlaceholder(name, value)) {
    throw notConfigured(
      `${name} still holds the placeholder of .dev.vars.example, so the service cannot ${purpose}. Set a ` +
        `value of your own with \`wrangler secret put ${name}\` (locally: in .dev.vars).`,
    );
  }
  if (!value) throw missingSetting(name, purpose);
  return value;
}

/** Passwords are at least this long (the registration and password change rules). */
export const MIN_PASSWORD_LENGTH = 8;

/** BOOTSTRAP_PASSWORD when it may be used: set, not the placeholder, long enough. */
export const bootstrapPassword = (env: { BOOTSTRAP_PASSWORD?: string }): string | undefined => {
  const value = usableSecret("BOOTSTRAP_PASSWORD", env.BOOTSTRAP_PASSWORD);
  return value && value.length >= MIN_PASSWORD_LENGTH ? value : undefined;
};
