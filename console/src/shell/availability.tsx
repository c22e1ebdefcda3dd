import { useEffect, useState } from "preact/hooks";
import { otherwise, problemOf } from "../api/client";
import { announce } from "../components/announcer";
import { myAvailability, setMyAvailability } from "../components/api";
import { defineStrings } from "../i18n";
import { membership } from "./session";

const t = defineStrings({
  en: {
    availability: "Availability",
    online: "Online",
    busy: "Busy",
    offline: "Offline",
    changed: "You are now {state}.",
    failed: "Availability not changed: {detail}",
  },
  "zh-TW": {
    availability: "上線狀態",
    online: "上線",
    busy: "忙碌",
    offline: "離線",
    changed: "你現在是「{state}」。",
    failed: "上線狀態未變更：{detail}",
  },
});

const STATES = ["online", "busy", "offline"] as const;
type State = (typeof STATES)[number];

/**
 * The member's availability in the organization (Online / Busy / Offline): only online members are
 * given conversations automatically. Closing the last console tab makes them offline (the API's
 * presence); coming back online is this switch.
 */
export function AvailabilitySwitch() {
  const organizationPk = membership.value?.organization.id;
  const [state, setState] = useState<State | null>(null);
  useEffect(() => {
    setState(null);
    if (!organizationPk) return;
    let current = true;
    myAvailability(organizationPk)
      .catch(otherwise({ availability: "offline" as State }))
      .then((r) => current && setState(r.availability));
    return () => void (current = false);
  }, [organizationPk]);
  if (!organizationPk) return null;
  const change = async (next: State) => {
    const before = state;
    setState(next);
    try {
      const r = await setMyAvailability(organizationPk, next);
      setState(r.availability);
      announce(t("changed", { state: t(r.availability) }));
    } catch (err) {
      setState(before);
      announce(t("failed", { detail: problemOf(err).detail }));
    }
  };
  return (
    <label class="compact availability">
      <span>{t("availability")}</span>
      <select
        data-availability
        value={state ?? ""}
        disabled={state === null}
        onChange={(e) => void change(e.currentTarget.value as State)}
      >
        {state === null && <option value="" />}
        {STATES.map((s) => (
          <option key={s} value={s}>
            {t(s)}
          </option>
        ))}
      </select>
    </label>
  );
}
