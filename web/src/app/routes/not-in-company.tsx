import { useLingui } from "@lingui/react/macro";
import { useRevalidator } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { franchiseInfoQuery } from "@/lib/branding";
import { useFranchiseMode } from "@/lib/use-brand";
import { Building2 } from "lucide-react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { InvitesList } from "@/features/invites/components/invites-list";
import { LogoutButton } from "@/features/session/components/user-menu";
import { BareLayout } from "../layouts/plain-layouts";

/**
 * The screen of a user who belongs to no company (spec §6: 'You are not part of any company!' with
 * an option to buy one): pending invitations to accept, how to get a company, logout. On a
 * franchise's hostname the franchise's own `notInCompany` text (spec §3) replaces the generic advice.
 */
export function NotInCompanyPage() {
  const { t } = useLingui();
  const revalidator = useRevalidator();
  const franchiseMode = useFranchiseMode();
  const franchise = useQuery({ ...franchiseInfoQuery(), enabled: franchiseMode });
  const franchiseText = franchise.data?.notInCompany ?? null;
  return (
    <BareLayout>
      <Card className="w-full max-w-xl">
        <CardHeader className="items-center text-center">
          <span className="flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground" aria-hidden>
            <Building2 className="size-6" />
          </span>
          <CardTitle as="h1" className="text-xl">
            {t`You are not part of any company!`}
          </CardTitle>
          <CardDescription className="whitespace-pre-line" data-testid="not-in-company-text">
            {franchiseText ?? t`Buy a subscription to create your own company, or accept an invitation from a company below.`}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <section className="grid gap-2">
            <h2 className="text-sm font-semibold">{t`Invitations`}</h2>
            <InvitesList onResponded={() => void revalidator.revalidate()} />
          </section>
          <div className="flex justify-end">
            <LogoutButton />
          </div>
        </CardContent>
      </Card>
    </BareLayout>
  );
}
