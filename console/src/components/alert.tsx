import type { ComponentChildren } from "preact";
import { ApiProblem, NetworkError } from "../api/client";
import { t } from "./strings";

/** An error of an action or a load, read out at once (role=alert); the API's `detail` is the text. */
export function ErrorAlert({ error, children }: { error: unknown; children?: ComponentChildren }) {
  if (!error) return null;
  const text = error instanceof NetworkError || (error instanceof ApiProblem && error.status === 0) ? t("networkError") : error instanceof ApiProblem ? error.detail : String((error as Error)?.message ?? error);
  return (
    <div class="alert error" role="alert">
      <p>{text}</p>
      {children}
    </div>
  );
}

/** A note that is part of the page (not announced). */
export function Notice({ tone = "info", children }: { tone?: "info" | "success" | "warning"; children: ComponentChildren }) {
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
