import { Link } from "react-router";
import { LogOut, UserRound } from "lucide-react";
import { useLingui } from "@lingui/react/macro";
import { Avatar, initials } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { useLogout, useMe } from "../hooks/use-session";

/** The user's avatar menu: name and e-mail, my account, logout (spec §2 layout controls). */
export function UserMenu() {
  const { t } = useLingui();
  const me = useMe();
  const logout = useLogout();
  const name = me.data?.name ?? "";
  const shown = initials(name);
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="rounded-full" aria-label={name ? `${t`Account menu`}: ${shown} (${name})` : t`Account menu`}>
          {/* The name read out holds the initials shown (WCAG 2.5.3 "label in name"), then whose account it is. */}
          <span aria-hidden className="contents">
            <Avatar name={name} src={me.data?.image} />
          </span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent className="w-60">
        <DropdownMenuLabel className="font-normal">
          <span className="block truncate text-sm font-medium text-foreground">{name}</span>
          <span className="block truncate text-xs">{me.data?.email}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/settings">
            <UserRound />
            {t`My account`}
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => logout.mutate()} disabled={logout.isPending}>
          <LogOut />
          {t`Log out`}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** A plain logout button, for screens without the shell (e.g. not-in-company). */
export function LogoutButton() {
  const { t } = useLingui();
  const logout = useLogout();
  return (
    <Button variant="outline" onClick={() => logout.mutate()} disabled={logout.isPending}>
      <LogOut />
      {t`Log out`}
    </Button>
  );
}
