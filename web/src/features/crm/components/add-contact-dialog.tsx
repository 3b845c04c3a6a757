import { useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { Search, UserRound } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Avatar } from "@/components/ui/avatar";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { isApiError } from "@/lib/api";
import type { ContactOption } from "@/lib/answers";
import { errorMessage } from "@/lib/error-messages";
import { useDebounced } from "@/lib/use-debounced";
import type { CrmBoardColumn, CrmCardAnswer } from "../../../../../schema/api-types";
import { contactSearchQuery } from "../api/crm-api";
import { formatPhone } from "@/lib/phone";

/** A contact as a card, to show at once while the worker places it. */
function cardOf(contact: ContactOption, columnId: string): CrmCardAnswer {
  return { id: contact.id, name: contact.name, phone: contact.phone, email: contact.email, image: contact.image, tags: contact.tags, columnId, position: 0 };
}

function Results({ search, column, columns, onPick }: { search: string; column: CrmBoardColumn; columns: readonly CrmBoardColumn[]; onPick: (card: CrmCardAnswer, fromColumnId: string | null) => void }) {
  const { t, i18n } = useLingui();
  const query = useQuery({ ...contactSearchQuery(search), placeholderData: keepPreviousData });
  if (query.isPending) {
    return (
      <div className="grid gap-2" aria-busy>
        {Array.from({ length: 4 }, (_, index) => (
          <div key={index} className="flex items-center gap-3 p-2">
            <Skeleton className="size-8 rounded-full" />
            <Skeleton className="h-4 flex-1" />
          </div>
        ))}
        <span className="sr-only">{t`Searching contacts…`}</span>
      </div>
    );
  }
  if (query.isError) {
    const forbidden = isApiError(query.error) && query.error.status === 403;
    return (
      <Alert variant="destructive">
        {forbidden ? t`Searching contacts needs the Contacts permission.` : i18n._(errorMessage(query.error))}
      </Alert>
    );
  }
  const results = query.data.results;
  if (results.length === 0) {
    return <EmptyState className="py-8" icon={<UserRound />} title={search ? t`No contacts match "${search}"` : t`No contacts yet`} />;
  }
  const columnName = new Map(columns.map((c) => [c.id, c.name]));
  return (
    <ul className="grid max-h-80 gap-1 overflow-y-auto" aria-label={t`Contacts`}>
      {results.map((contact) => {
        const name = contact.name;
        const here = contact.crmColumnId === column.id;
        const elsewhere = contact.crmColumnId && !here ? (columnName.get(contact.crmColumnId) ?? null) : null;
        return (
          <li key={contact.id}>
            <button
              type="button"
              disabled={here}
              onClick={() => onPick(cardOf(contact, column.id), contact.crmColumnId)}
              aria-label={here ? t`${name} is already on this column` : t`Add ${name}`}
              className="flex w-full items-center gap-3 rounded-md p-2 text-left text-sm outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-default disabled:opacity-60 disabled:hover:bg-transparent"
            >
              <Avatar name={name} src={contact.image} />
              <span className="grid min-w-0 flex-1">
                <span className="truncate font-medium">{name}</span>
                {contact.phone ? <span className="truncate text-xs text-muted-foreground">{formatPhone(contact.phone)}</span> : null}
              </span>
              {here ? (
                <span className="shrink-0 text-xs text-muted-foreground">{t`Already here`}</span>
              ) : elsewhere ? (
                <span className="max-w-32 shrink-0 truncate text-xs text-muted-foreground">{t`Now on ${elsewhere}`}</span>
              ) : null}
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * Puts a contact on a column: search contacts by name, phone or e-mail (GET /api/contacts) and
 * pick one; a contact on another column moves here. Calls `onPick` with the card to place.
 */
export function AddContactDialog({
  column,
  columns,
  onClose,
  onPick,
}: {
  column: CrmBoardColumn | null;
  columns: readonly CrmBoardColumn[];
  onClose: () => void;
  onPick: (card: CrmCardAnswer, fromColumnId: string | null) => void;
}) {
  const { t } = useLingui();
  const [text, setText] = useState("");
  const search = useDebounced(text.trim(), 250);
  const name = column?.name ?? "";
  return (
    <Dialog
      open={column !== null}
      onOpenChange={(open) => {
        if (open) return;
        setText("");
        onClose();
      }}
    >
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>{t`Add contact to ${name}`}</DialogTitle>
          <DialogDescription>{t`Search by name, phone or e-mail and choose a contact. A contact on another column moves here.`}</DialogDescription>
        </DialogHeader>
        <div className="relative">
          <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <Input
            autoFocus
            type="search"
            maxLength={40}
            value={text}
            onChange={(event) => setText(event.target.value)}
            aria-label={t`Search contacts`}
            placeholder={t`Search contacts`}
            className="pl-9"
          />
        </div>
        {column ? (
          <Results
            search={search}
            column={column}
            columns={columns}
            onPick={(card, fromColumnId) => {
              setText("");
              onPick(card, fromColumnId);
            }}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
