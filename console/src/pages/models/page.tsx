import { PageHeader } from "../../components";
import type { PageProps } from "../types";
import { KeysSection } from "./keys-section";
import { ModelsSection } from "./models-section";
import { SessionsSection } from "./sessions-section";
import { t } from "./strings";

/** Models (for everyone to see, for owners to change and test), then the user's own keys and sessions. */
export default function ModelsPage({ organizationId }: PageProps) {
  return (
    <>
      <PageHeader title={t("title")} />
      <ModelsSection organizationId={organizationId} />
      <KeysSection />
      <SessionsSection />
    </>
  );
}
