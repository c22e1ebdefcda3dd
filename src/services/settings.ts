import type { Bindings } from "../env";
import { ApiError } from "../lib/errors";
import { planSettingsProblem } from "./plans";
import { fileSpecs } from "./uploads/file-specs";
import { ingestionFaultProblem } from "./ingestion-fault";

export interface SettingProblem {
  name: string;
  problem: string;
}

/**
 * Settings that are absent or unusable, for `GET /health`: the operator sees what a request would
 * answer 503 `not_configured` for before a client finds out. Reads only the environment.
 */
export function settingProblems(env: Bindings): SettingProblem[] {
  const problems: SettingProblem[] = [];
  if (!env.ENCRYPTION_KEY) {
    problems.push({ name: "ENCRYPTION_KEY", problem: "not set: model API keys, webhook secret tokens and contact credentials cannot be stored (503 not_configured)" });
  }
  const plans = planSettingsProblem(env);
  if (plans) problems.push({ name: "PLANS", problem: plans });
  try {
    fileSpecs(env);
  } catch (err) {
    problems.push({ name: "ALLOWED_FILE_SPECS", problem: err instanceof ApiError ? err.detail : String(err) });
  }
  const fault = ingestionFaultProblem(env);
  if (fault) problems.push({ name: "INGESTION_FAULT", problem: fault });
  return problems;
}
