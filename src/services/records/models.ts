import type { Bindings } from "../../env";
import { maskSecret } from "../../lib/crypto";
import { ms } from "../../lib/time";
import { modelApiKey, modelUnavailableReason, type ModelKind, type ModelProvider, type ModelRow } from "../models";

export interface ModelRecord {
  id: string;
  name: string;
  kind: ModelKind;
  provider: ModelProvider;
  modelName: string;
  baseUrl: string | null;
  dimensions: number | null;
  hasApiKey: boolean;
  apiKeyPreview: string | null;
  isBuiltIn: boolean;
  available: boolean;
  unavailableReason: string | null;
  organization: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Row -> record. The API key is decrypted only to mask it; it never leaves in clear. */
export async function modelRecord(row: ModelRow, env: Pick<Bindings, "ENCRYPTION_KEY" | "AI">): Promise<ModelRecord> {
  const [plain, unavailableReason] = await Promise.all([
    modelApiKey(row, env).catch(() => null),
    modelUnavailableReason(row, env),
  ]);
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    provider: row.provider,
    modelName: row.modelName,
    baseUrl: row.baseUrl,
    dimensions: row.dimensions,
    hasApiKey: !!row.apiKeyEncrypted,
    apiKeyPreview: row.apiKeyEncrypted ? (maskSecret(plain) ?? "••••") : null,
    isBuiltIn: row.organizationId === null,
    available: unavailableReason === null,
    unavailableReason,
    organization: row.organizationId,
    createdAt: ms(row.createdAt)!,
    updatedAt: ms(row.updatedAt)!,
  };
}
