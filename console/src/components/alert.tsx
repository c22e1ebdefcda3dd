import type { ComponentChildren } from "preact";
import { ApiProblem, NetworkError } from "../api/client";
import { locale } from "../i18n";
import { knownProblem, problemText } from "./problem-strings";
import { t } from "./strings";

/** The console's words for a refusal of the API, in a language other than the API's English; null for English. */
function leadOf(error: ApiProblem): string | null {
  return locale.value === "en" || !knownProblem(error.code) ? null : problemText(error.code);
}

/**
 * An error of an action or a load, read out at once (role=alert): the API's `detail`, led in another language than
 * English by what its `code` means (the detail stays beneath, in English, for what only it says). It can take the
 * focus (not by Tab): a refused form puts it there when no field is to blame (focusRefusal).
 */
export function ErrorAlert({ error, children }: { error: unknown; children?: ComponentChildren }) {
  if (!error) return null;
  const network = error instanceof NetworkError || (error instanceof ApiProblem && error.status === 0);
  const text = network
    ? t("networkError")
    : error instanceof ApiProblem
      ? error.detail
      : String((error as Error)?.message ?? error);
  const lead = !network && error instanceof ApiProblem ? leadOf(error) : null;
  return (
    <div class="alert error" role="alert" tabIndex={-1}>
      {lead ? (
        <>
          <p>{lead}</p>
          <p class="small" lang="en">
            {text}
          </p>
        </>
      ) : (
        <p>{text}</p>
      )}
      {children}
    </div>
  );
}

/**
 * A form's error, at the top of the form: the API's refusal as it is, or, when the API named
 * fields (each shows its message at its field too), a summary of what they say, so whoever starts
 * reading at the top learns that something below needs them. Null when there is no problem.
 */
export function FormError({ problem }: { problem: ApiProblem | null | undefined }) {
  if (!problem) return null;
  const messages = [...new Set(Object.values(problem.errors).flat())];
  if (!messages.length) return <ErrorAlert error={problem} />;
  return (
    <div class="alert error form-error" role="alert" tabIndex={-1}>
      <p>{t("fixFields")}</p>
      <ul>
        {messages.map((m) => (
          <li key={m}>{m}</li>
        ))}
      </ul>
    </div>
  );
}

/** A note that is part of the page (not announced). */
export function Notice({
  tone = "info",
  children,
}: {
  tone?: "info" | "success" | "warning";
  children: ComponentChildren;
}) {
  return <div class={`alert ${tone}`}>{children}</div>;
}

/** What shows while something loads: a status screen readers hear once. */
export function Loading({ label }: { label?: string }) {
  return (
    <p class="loading" role="status">
      <span class="spinner" aria-hidden="true" />
      {label ?? t("loading")}
    </p>
  );
}
