import { Button } from "./button";
import { announce } from "./announcer";
import { t } from "./strings";

/** Copies `text` to the clipboard and says so (or says to copy it by hand). */
export function CopyButton({ text, label }: { text: string; label?: string }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      announce(t("copied"));
    } catch {
      announce(t("copyFailed"), true);
    }
  };
  return <Button onClick={copy}>{label ?? t("copy")}</Button>;
}
