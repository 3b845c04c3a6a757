import { useLingui } from "@lingui/react/macro";
import { Switch } from "@/components/ui/switch";
import { useChangeStatus, useMe } from "../hooks/use-session";

/** Online/offline switch (spec §4 "Online status: toggled by a change-status call"). */
export function StatusToggle() {
  const { t } = useLingui();
  const me = useMe();
  const change = useChangeStatus();
  const online = (change.isPending ? change.variables : me.data?.status) === "online";
  return (
    <label className="flex items-center gap-2 text-sm">
      <Switch
        checked={online}
        disabled={!me.data || change.isPending}
        onCheckedChange={(checked) => change.mutate(checked ? "online" : "offline")}
        aria-label={t`Available for service`}
      />
      <span className="hidden sm:inline">
        <span
          aria-hidden
          className={online ? "mr-1 inline-block size-2 rounded-full bg-emerald-500" : "mr-1 inline-block size-2 rounded-full bg-muted-foreground/50"}
        />
        {online ? t`Online` : t`Offline`}
      </span>
    </label>
  );
}
