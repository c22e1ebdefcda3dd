import type { PageProps } from "../types";
import { KnowledgeBaseDetail, type Tab } from "./detail";
import { KnowledgeBaseList } from "./list";

/** `/knowledge-bases` lists them; `/knowledge-bases/<id>/<tab>` shows one (files by default). */
export default function KnowledgePage({ params, organizationId }: PageProps) {
  const [id, tab] = (params.rest ?? "").split("/");
  return id ? (
    <KnowledgeBaseDetail id={id} tab={(tab || "files") as Tab} organizationId={organizationId} />
  ) : (
    <KnowledgeBaseList organizationId={organizationId} />
  );
}
