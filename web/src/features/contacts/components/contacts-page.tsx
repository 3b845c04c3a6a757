/**
 * /contacts (spec §2 Contacts; permission `contacts`; issue 4): the contact list with search
 * (debounced), tag and custom field filters, a column chooser remembered per company, bulk
 * selection (tag, untag, delete), keyset infinite scroll and the total; a slide-over form to create
 * and edit; the contact's page (?contact=<id>); the .xlsx import and the export with live progress.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { useLingui } from "@lingui/react/macro";
import { countText } from "@/lib/counts";
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Download, Plus, Upload, UsersRound } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { formatDocument, formatFieldValue, formatMoment, type ValueFormat } from "@/lib/field-values";
import { notifyError, notifySuccess } from "@/lib/notify";
import { useActiveCompany } from "@/features/companies/hooks/use-companies";
import { usePermissions } from "@/features/session/hooks/use-session";
import { useCustomFields, useTags } from "@/features/registers/hooks/use-registers";
import { fieldDisplayName } from "@/features/registers/lib/labels";
import { TagPill } from "@/features/registers/components/tags-page";
import type { ContactAnswer, CustomFieldAnswer } from "../../../../../schema/api-types";
import { startExport, type BulkTarget } from "../api/contacts-api";
import { useChosenColumns } from "../hooks/use-columns";
import { useContactList } from "../hooks/use-contacts";
import { useDebounced } from "@/lib/use-debounced";
import { availableColumns, visibleColumns, type ColumnId } from "../lib/columns";
import { EMPTY_FILTER, isFiltering, toApiFilter, type ContactFilterState } from "../lib/contact-filter";
import { BulkActions } from "./bulk-actions";
import { ContactDrawer } from "./contact-drawer";
import { ContactFilters } from "./contact-filters";
import { ContactFormSheet, type ContactSheetTarget } from "./contact-form-sheet";
import { ImportDialog } from "./import-dialog";
import { JobPanel } from "./job-panel";
import { formatPhone } from "@/lib/phone";

/** Search settles this long after the last keystroke (ms). */
const SEARCH_DEBOUNCE_MS = 300;

const BASE_LABELS: Record<string, MessageDescriptor> = {
  phone: msg`Phone`,
  email: msg`Email`,
  document: msg`Document`,
  tags: msg`Tags`,
  createdAt: msg`Created`,
  lastMessageAt: msg`Last message`,
};

function Cell({ column, contact, fieldsById, format }: { column: ColumnId; contact: ContactAnswer; fieldsById: ReadonlyMap<string, CustomFieldAnswer>; format: ValueFormat }) {
  switch (column) {
    case "phone":
      return <>{formatPhone(contact.phone)}</>;
    case "email":
      return <>{contact.email ?? ""}</>;
    case "document":
      return <>{contact.document ? formatDocument(contact.document) : ""}</>;
    case "tags":
      return (
        <span className="flex max-w-64 flex-wrap gap-1">
          {contact.tags.map((tag) => (
            <TagPill key={tag.id} tag={tag} />
          ))}
        </span>
      );
    case "createdAt":
      return <>{formatMoment(contact.createdAt, format)}</>;
    case "lastMessageAt":
      return <>{contact.lastMessageAt ? formatMoment(contact.lastMessageAt, format) : ""}</>;
    default: {
      const field = fieldsById.get(column.slice("field:".length));
      return <>{field ? formatFieldValue(field.type, contact.fields[field.id], format) : ""}</>;
    }
  }
}

function TableSkeleton() {
  return (
    <div className="grid gap-3 p-4" aria-busy>
      {Array.from({ length: 6 }, (_, index) => (
        <div key={index} className="flex items-center gap-4">
          <Skeleton className="size-4" />
          <Skeleton className="h-4 w-40" />
          <Skeleton className="h-4 w-32" />
          <Skeleton className="hidden h-4 w-48 sm:block" />
        </div>
      ))}
    </div>
  );
}

/** The /contacts screen. */
export function ContactsPage() {
  const { t, i18n } = useLingui();
  const company = useActiveCompany();
  const permissions = usePermissions();
  const fields = useCustomFields();
  const tags = useTags();
  const [params, setParams] = useSearchParams();
  const timeZone = company.data?.timezone ?? "UTC";
  const format: ValueFormat = { locale: i18n.locale || "pt-BR", timeZone };
  const fieldList = useMemo(() => fields.data ?? [], [fields.data]);
  const tagList = tags.data?.results ?? [];
  const fieldsById = useMemo(() => new Map(fieldList.map((field) => [field.id, field])), [fieldList]);

  const [filterState, setFilterState] = useState<ContactFilterState>(EMPTY_FILTER);
  const debouncedSearch = useDebounced(filterState.search, SEARCH_DEBOUNCE_MS);
  const apiFilter = useMemo(() => toApiFilter({ ...filterState, search: debouncedSearch }, fieldList, timeZone), [filterState, debouncedSearch, fieldList, timeZone]);
  const list = useContactList(apiFilter);
  const contacts = useMemo(() => list.data?.pages.flatMap((page) => page.results) ?? [], [list.data]);
  const firstPage = list.data?.pages[0];
  const total = firstPage?.total ?? 0;
  const totalCapped = firstPage?.totalCapped ?? false;

  const columns = useMemo(() => availableColumns(fieldList), [fieldList]);
  const { chosen, toggle } = useChosenColumns(company.data?.id ?? "none");
  const shownColumns = visibleColumns(chosen, columns);
  const columnLabel = (column: ColumnId) => {
    const base = BASE_LABELS[column];
    if (base) return i18n._(base);
    const field = fieldsById.get(column.slice("field:".length));
    return field ? fieldDisplayName(field, i18n) : column;
  };

  // Selection: chosen ids, or every contact matching the filter.
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [allMatching, setAllMatching] = useState(false);
  const filterKey = JSON.stringify(apiFilter);
  const [selectionFilter, setSelectionFilter] = useState(filterKey);
  if (selectionFilter !== filterKey) {
    setSelectionFilter(filterKey);
    setSelected(new Set());
    setAllMatching(false);
  }
  const loadedSelected = contacts.filter((contact) => selected.has(contact.id)).length;
  const allLoadedSelected = contacts.length > 0 && loadedSelected === contacts.length;
  const selectionCount = allMatching ? total : selected.size;
  const bulkTarget: BulkTarget = allMatching ? { filter: apiFilter } : { ids: [...selected] };
  const clearSelection = () => {
    setSelected(new Set());
    setAllMatching(false);
  };

  const [sheet, setSheet] = useState<ContactSheetTarget | null>(null);
  const [importOpen, setImportOpen] = useState(false);
  const [importJobId, setImportJobId] = useState<string | null>(null);
  const [exportJobId, setExportJobId] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const openContactId = params.get("contact");
  const canTag = permissions.data?.has("contacts_tags") === true;

  const openContact = (id: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id) next.set("contact", id);
        else next.delete("contact");
        return next;
      },
      { replace: id === null },
    );

  const runExport = async () => {
    setExporting(true);
    try {
      const job = await startExport(apiFilter);
      setExportJobId(job.id);
      notifySuccess("exportStarted");
    } catch (error) {
      notifyError(error);
    } finally {
      setExporting(false);
    }
  };

  // Keyset infinite scroll: the next page loads when the sentinel under the table shows.
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  useEffect(() => {
    const node = sentinel.current;
    if (!node || !hasNextPage || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    }, { rootMargin: "400px" });
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const totalText = `${i18n.number(total)}${totalCapped ? "+" : ""}`;
  const filtering = isFiltering(apiFilter);

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight">{t`Contacts`}</h1>
          <p className="text-sm text-muted-foreground" aria-live="polite" data-testid="contacts-total">
            {list.isPending ? t`Loading…` : countText(i18n, filtering ? "contactsMatch" : "contacts", total, { shown: totalText })}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => setImportOpen(true)}>
            <Upload />
            {t`Import contacts`}
          </Button>
          <Button variant="outline" onClick={() => void runExport()} disabled={exporting}>
            {exporting ? <Spinner /> : <Download />}
            {t`Export contacts`}
          </Button>
          <Button onClick={() => setSheet({ kind: "new" })}>
            <Plus />
            {t`New contact`}
          </Button>
        </div>
      </div>

      {importJobId ? <JobPanel key={importJobId} jobId={importJobId} onDismiss={() => setImportJobId(null)} /> : null}
      {exportJobId ? <JobPanel key={exportJobId} jobId={exportJobId} onDismiss={() => setExportJobId(null)} /> : null}

      <ContactFilters
        filter={filterState}
        onChange={setFilterState}
        tags={tagList}
        fields={fieldList}
        timeZone={timeZone}
        columns={columns}
        chosenColumns={chosen}
        columnLabel={columnLabel}
        onToggleColumn={toggle}
      />

      {selectionCount > 0 ? (
        <BulkActions count={selectionCount} capped={allMatching && totalCapped} target={bulkTarget} tags={tagList} canTag={canTag} onDone={clearSelection} />
      ) : null}
      {allLoadedSelected && !allMatching && total > contacts.length ? (
        <p className="text-sm">
          {countText(i18n, "loadedContactsSelected", contacts.length)}{" "}
          <Button variant="link" className="h-auto p-0" onClick={() => setAllMatching(true)}>
            {countText(i18n, "selectAllContacts", total, { shown: totalText })}
          </Button>
        </p>
      ) : null}

      <Card className="overflow-hidden p-0">
        {list.isPending ? (
          <TableSkeleton />
        ) : list.isError ? (
          <ErrorState title={t`Could not load the contacts.`} onRetry={() => void list.refetch()} />
        ) : contacts.length === 0 ? (
          filtering ? (
            <EmptyState
              icon={<UsersRound />}
              title={t`No contact matches`}
              description={t`Try other words or remove some filters.`}
              action={
                <Button variant="outline" size="sm" onClick={() => setFilterState(EMPTY_FILTER)}>
                  {t`Clear filters`}
                </Button>
              }
            />
          ) : (
            <EmptyState
              icon={<UsersRound />}
              title={t`No contacts yet`}
              description={t`Contacts arrive with conversations, or add them yourself or from a spreadsheet.`}
              action={
                <div className="flex flex-wrap justify-center gap-2">
                  <Button variant="outline" size="sm" onClick={() => setImportOpen(true)}>
                    <Upload />
                    {t`Import contacts`}
                  </Button>
                  <Button size="sm" onClick={() => setSheet({ kind: "new" })}>
                    <Plus />
                    {t`New contact`}
                  </Button>
                </div>
              }
            />
          )
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full min-w-max text-sm">
              <caption className="sr-only">{t`Contacts`}</caption>
              <thead className="border-b bg-muted/50 text-left text-xs text-muted-foreground">
                <tr>
                  <th scope="col" className="w-10 px-4 py-2">
                    <Checkbox
                      aria-label={t`Select all loaded contacts`}
                      checked={allMatching || allLoadedSelected ? true : loadedSelected > 0 ? "indeterminate" : false}
                      onCheckedChange={(checked) => {
                        setAllMatching(false);
                        setSelected(checked === true ? new Set(contacts.map((contact) => contact.id)) : new Set());
                      }}
                    />
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    {t`Name`}
                  </th>
                  {shownColumns.map((column) => (
                    <th key={column} scope="col" className="px-3 py-2 font-medium">
                      {columnLabel(column)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y">
                {contacts.map((contact) => {
                  const name = contact.name;
                  const checked = allMatching || selected.has(contact.id);
                  return (
                    <tr key={contact.id} className="hover:bg-muted/40 data-[selected]:bg-primary/5" data-selected={checked ? "" : undefined}>
                      <td className="px-4 py-2">
                        <Checkbox
                          aria-label={t`Select ${name}`}
                          checked={checked}
                          disabled={allMatching}
                          onCheckedChange={(value) =>
                            setSelected((current) => {
                              const next = new Set(current);
                              if (value === true) next.add(contact.id);
                              else next.delete(contact.id);
                              return next;
                            })
                          }
                        />
                      </td>
                      <td className="px-3 py-2">
                        <button
                          type="button"
                          className="max-w-64 truncate text-left font-medium outline-none hover:underline focus-visible:underline focus-visible:ring-2 focus-visible:ring-ring"
                          onClick={() => openContact(contact.id)}
                        >
                          {contact.name}
                        </button>
                      </td>
                      {shownColumns.map((column) => (
                        <td key={column} className="px-3 py-2 whitespace-nowrap text-muted-foreground">
                          <Cell column={column} contact={contact} fieldsById={fieldsById} format={format} />
                        </td>
                      ))}
                    </tr>
                  );
                })}
              </tbody>
            </table>
            <div ref={sentinel} className="flex justify-center p-3">
              {hasNextPage ? (
                <Button variant="ghost" size="sm" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
                  {isFetchingNextPage ? <Spinner /> : null}
                  {t`Load more`}
                </Button>
              ) : (
                <p className="text-xs text-muted-foreground">{countText(i18n, "allContactsShown", contacts.length)}</p>
              )}
            </div>
          </div>
        )}
      </Card>

      <ContactFormSheet target={sheet} fields={fieldList} tags={tagList} timeZone={timeZone} onClose={() => setSheet(null)} />
      <ContactDrawer contactId={openContactId} format={format} onClose={() => openContact(null)} onEdit={(contact) => setSheet({ kind: "edit", contact })} />
      <ImportDialog open={importOpen} onOpenChange={setImportOpen} fields={fieldList} onStarted={setImportJobId} />
    </div>
  );
}
