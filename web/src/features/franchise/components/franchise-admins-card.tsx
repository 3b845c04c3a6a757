/**
 * The franchise's administrators (issue 14 "GET /api/franchise/users: the franchise's
 * administrators (invite, remove)"), on the settings tab: the list, "Add administrator" by e-mail
 * (a person without an account receives a link to choose a password) and remove (never the last).
 */
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { UserPlus, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { isApiError } from "@/lib/api";
import { errorMessage, fieldErrorMessage } from "@/lib/error-messages";
import { notifyError, notifySuccess } from "@/lib/notify";
import { addAdministrator, franchiseAdminsQuery, franchiseKeys, removeAdministrator } from "../api/franchise-api";

/** The administrators card. */
export function FranchiseAdminsCard() {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const admins = useQuery(franchiseAdminsQuery());
  const [email, setEmail] = useState("");
  const refresh = () => queryClient.invalidateQueries({ queryKey: franchiseKeys.all });
  const add = useMutation({
    mutationFn: () => addAdministrator({ email: email.trim() }),
    onSuccess: async () => {
      notifySuccess("invited");
      setEmail("");
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (userId: string) => removeAdministrator(userId),
    onSuccess: async () => {
      notifySuccess("deleted");
      await refresh();
    },
    onError: (error) => notifyError(error),
  });
  const addError = add.error ? i18n._(isApiError(add.error) && add.error.fields.email ? fieldErrorMessage(add.error.fields.email) : errorMessage(add.error)) : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{t`Administrators`}</CardTitle>
        <CardDescription>{t`People who manage this franchise: its settings, companies, roles and payments.`}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {admins.isPending ? (
          <Skeleton className="h-16" />
        ) : (
          <ul className="divide-y rounded-md border" aria-label={t`Administrators`}>
            {(admins.data ?? []).map((admin) => {
              const name = admin.name;
              const onlyOne = (admins.data?.length ?? 0) <= 1;
              return (
                <li key={admin.id} className="flex items-center justify-between gap-2 px-3 py-2 text-sm">
                  <span className="min-w-0 truncate">
                    {name} <span className="text-muted-foreground">· {admin.email}</span>
                  </span>
                  <Button variant="ghost" size="icon" disabled={onlyOne || remove.isPending} onClick={() => remove.mutate(admin.id)} aria-label={t`Remove ${name}`}>
                    <X />
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
        <form
          className="grid gap-1"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (email.trim()) add.mutate();
          }}
        >
          <div className="flex flex-wrap gap-2">
            <Input type="email" value={email} onChange={(event) => setEmail(event.target.value)} aria-label={t`Administrator's e-mail`} placeholder={t`name@example.com`} className="min-w-48 flex-1" aria-invalid={addError ? true : undefined} />
            <Button type="submit" variant="outline" disabled={add.isPending || !email.trim()}>
              {add.isPending ? <Spinner /> : <UserPlus />}
              {t`Add administrator`}
            </Button>
          </div>
          {addError ? <p className="text-xs font-medium text-destructive">{addError}</p> : null}
        </form>
      </CardContent>
    </Card>
  );
}
