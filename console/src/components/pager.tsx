import { Button } from "./button";
import { t } from "./strings";

/** Previous and next for a page-form list (`count` results, `pageSize` a page). Nothing when one page holds all. */
export function Pager({
  page,
  count,
  pageSize,
  onPage,
}: {
  page: number;
  count: number;
  pageSize: number;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(count / pageSize));
  if (pages === 1) return null;
  return (
    <nav class="pager" aria-label={t("pagination")}>
      <Button disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t("previous")}
      </Button>
      <span>{t("pageOf", { page, pages })}</span>
      <Button disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t("next")}
      </Button>
    </nav>
  );
}
