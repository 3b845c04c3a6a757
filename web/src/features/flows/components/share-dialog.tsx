/**
 * Sharing a builder (spec §2 "share", §3 Builder flow: share link with share_active, clone_active,
 * restrict-to-specific-companies with the allowed company ids): copy the link ('Copied to
 * clipboard.'), the three switches and the company ids, saved with PUT /api/flows/{id}.
 */
import { useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { Copy } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ChipsInput } from "@/components/ui/chips-input";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { Switch } from "@/components/ui/switch";
import { errorMessage } from "@/lib/error-messages";
import { notifyError, notifySuccess } from "@/lib/notify";
import type { FlowSummary } from "../../../../../schema/flow-api";
import { useUpdateFlow } from "../hooks/use-folders";

/** The absolute share link of a builder (the API answers the app path). */
export function shareLink(flow: Pick<FlowSummary, "shareUrl">): string {
  return flow.shareUrl.startsWith("/") ? `${window.location.origin}${flow.shareUrl}` : flow.shareUrl;
}

function SwitchRow({ id, label, hint, checked, onChange, disabled }: { id: string; label: string; hint: string; checked: boolean; onChange: (checked: boolean) => void; disabled?: boolean }) {
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="grid gap-0.5">
        <Label htmlFor={id}>{label}</Label>
        <p className="text-xs text-muted-foreground">{hint}</p>
      </div>
      <Switch id={id} checked={checked} onCheckedChange={onChange} disabled={disabled} />
    </div>
  );
}

function ShareForm({ flow, onClose }: { flow: FlowSummary; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const update = useUpdateFlow();
  const [shareActive, setShareActive] = useState(flow.shareActive);
  const [cloneActive, setCloneActive] = useState(flow.cloneActive);
  const [restrict, setRestrict] = useState(flow.restrictCompanies);
  const [companies, setCompanies] = useState<string[]>(flow.allowedCompanyIds);
  const link = shareLink(flow);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      notifySuccess("copied");
    } catch (error) {
      notifyError(error);
    }
  };
  const save = () =>
    update.mutate(
      { id: flow.id, update: { shareActive, cloneActive, restrictCompanies: restrict, allowedCompanyIds: companies } },
      { onSuccess: onClose },
    );
  return (
    <div className="grid gap-4">
      {update.isError ? <Alert variant="destructive">{i18n._(errorMessage(update.error))}</Alert> : null}
      <FormField label={t`Share link`}>
        <div className="flex gap-2">
          <Input readOnly value={link} onFocus={(event) => event.target.select()} className="flex-1 font-mono text-xs" />
          <Button type="button" variant="outline" onClick={() => void copy()} aria-label={t`Copy link`}>
            <Copy />
            <span className="hidden sm:inline">{t`Copy`}</span>
          </Button>
        </div>
      </FormField>
      <SwitchRow id={`share-${flow.id}`} label={t`Share`} hint={t`Anyone with the link and the flow permission can see it.`} checked={shareActive} onChange={setShareActive} />
      <SwitchRow id={`clone-${flow.id}`} label={t`Allow cloning`} hint={t`Other companies can copy it into their account.`} checked={cloneActive} onChange={setCloneActive} disabled={!shareActive} />
      <SwitchRow id={`restrict-${flow.id}`} label={t`Only specific companies`} hint={t`Only the companies listed below can clone it.`} checked={restrict} onChange={setRestrict} disabled={!shareActive || !cloneActive} />
      {restrict ? (
        <FormField label={t`Allowed company IDs`} hint={t`Press Enter after each ID.`}>
          <ChipsInput value={companies} onValueChange={setCompanies} removeLabel={(chip) => t`Remove ${chip}`} maxLength={64} />
        </FormField>
      ) : null}
      <DialogFooter>
        <Button variant="outline" onClick={onClose}>
          {t`Cancel`}
        </Button>
        <Button onClick={save} disabled={update.isPending}>
          {update.isPending ? <Spinner /> : null}
          {t`Save changes`}
        </Button>
      </DialogFooter>
    </div>
  );
}

/** The share dialog of a builder. */
export function ShareDialog({ flow, onClose }: { flow: FlowSummary | null; onClose: () => void }) {
  const { t } = useLingui();
  const name = flow?.name ?? "";
  return (
    <Dialog open={flow !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t`Share ${name}`}</DialogTitle>
          <DialogDescription>{t`Let other companies see this builder and clone it.`}</DialogDescription>
        </DialogHeader>
        {flow ? <ShareForm key={flow.id} flow={flow} onClose={onClose} /> : null}
      </DialogContent>
    </Dialog>
  );
}
