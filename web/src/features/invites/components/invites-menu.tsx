import { Mail } from "lucide-react";
import { useLingui } from "@lingui/react/macro";
import { countText } from "@/lib/counts";
import { Button } from "@/components/ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { useMyInvites } from "../hooks/use-invites";
import { InvitesList } from "./invites-list";

/** Header button with the count of pending invites, opening the list. */
export function InvitesMenu({ onResponded }: { onResponded: () => void }) {
  const { t, i18n } = useLingui();
  const invites = useMyInvites();
  const count = invites.data?.length ?? 0;
  const label = count > 0 ? countText(i18n, "invitationsPending", count) : t`Invitations`;
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="ghost" size="icon" className="relative" aria-label={label} title={label}>
          <Mail />
          {count > 0 ? (
            <span aria-hidden className="absolute -top-0.5 -right-0.5 flex size-4 items-center justify-center rounded-full bg-primary text-[10px] font-semibold text-primary-foreground">
              {count > 9 ? "9+" : count}
            </span>
          ) : null}
        </Button>
      </PopoverTrigger>
      <PopoverContent className="w-96 max-w-[calc(100vw-1rem)]">
        <h2 className="mb-3 text-sm font-semibold">{t`Invitations`}</h2>
        <InvitesList onResponded={onResponded} />
      </PopoverContent>
    </Popover>
  );
}
