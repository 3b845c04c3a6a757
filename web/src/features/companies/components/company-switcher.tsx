import { Building2, ChevronsUpDown } from "lucide-react";
import { useLingui } from "@lingui/react/macro";
import { Avatar } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { useActiveCompany, useChangeActiveCompany, useCompanies } from "../hooks/use-companies";

/**
 * Company switcher (spec §1 "a user belongs to one or more companies and has one active company"):
 * lists GET /api/companies and switches with PUT /api/me/change-active; `onSwitched` re-runs the
 * route guards (the new company may lack the permission or the subscription).
 */
export function CompanySwitcher({ onSwitched }: { onSwitched: () => void }) {
  const { t } = useLingui();
  const active = useActiveCompany();
  const companies = useCompanies();
  const change = useChangeActiveCompany(onSwitched);
  if (active.isPending) return <Skeleton className="h-9 w-full" />;
  const current = active.data;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" className="w-full justify-between gap-2 px-2" title={t`Switch company`}>
          <span className="flex min-w-0 items-center gap-2">
            {/* The name read out holds the visible company name (WCAG 2.5.3 "label in name"). */}
            <span aria-hidden className="contents">
              {current ? <Avatar name={current.name} src={current.image} className="size-6" /> : <Building2 />}
            </span>
            <span className="sr-only">{t`Switch company`}: </span>
            <span className="truncate">{current?.name ?? t`No company`}</span>
          </span>
          {change.isPending ? <Spinner /> : <ChevronsUpDown className="opacity-60" />}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-64">
        <DropdownMenuLabel>{t`Companies`}</DropdownMenuLabel>
        {companies.isPending ? (
          <DropdownMenuItem disabled>
            <Spinner />
            {t`Loading…`}
          </DropdownMenuItem>
        ) : companies.isError ? (
          <DropdownMenuItem onSelect={() => void companies.refetch()}>{t`Could not load companies. Try again.`}</DropdownMenuItem>
        ) : companies.data.length === 0 ? (
          <DropdownMenuItem disabled>{t`No companies yet.`}</DropdownMenuItem>
        ) : (
          <DropdownMenuRadioGroup
            value={current?.id ?? ""}
            onValueChange={(companyId) => {
              if (companyId !== current?.id) change.mutate(companyId);
            }}
          >
            {companies.data.map((company) => (
              <DropdownMenuRadioItem key={company.id} value={company.id} disabled={change.isPending}>
                <span className="truncate">{company.name}</span>
              </DropdownMenuRadioItem>
            ))}
          </DropdownMenuRadioGroup>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
