import { Button } from "./button";
import { t } from "./strings";

/**
 * Previous and next for a page-form list (`count` results, `pageSize` a page). Nothing when one page holds all. `of`
 * names the list when a page has two pagers, so their navigation landmarks differ.
 */
export function Pager({
  page,
  count,
  pageSize,
  onPage,
  of,
}: {
  page: number;
  count: number;
  pageSize: number;
  onPage: (page: number) => void;
  of?: string;
}) {
  const pages = Math.max(1, Math.ceil(count / pageSize));
  if (pages === 1) return null;
  return (
    <nav class="pager" aria-label={of ? t("paginationOf", { name: of }) : t("pagination")}>
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
