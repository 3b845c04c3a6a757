/**
 * A PIX charge (issue 13; Asaas `GET /payments/{id}/pixQrCode`): the QR code image to scan with a
 * bank app, the copy-and-paste payload with a Copy button that says when it copied (spec §8
 * "copied"), and when the code expires.
 */
import { useEffect, useMemo, useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { Check, Copy } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/textarea";
import { formatDateTime } from "@/lib/dates";
import type { PixAnswer } from "../../../../../schema/validation/billing";
import { createCopyFeedback, type CopyStatus } from "../lib/copy-feedback";

/** The copy button of a text, with its feedback. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useLingui();
  const [status, setStatus] = useState<CopyStatus>("idle");
  const controller = useMemo(
    () =>
      createCopyFeedback(
        typeof navigator !== "undefined" ? navigator.clipboard : undefined,
        { set: (callback, ms) => window.setTimeout(callback, ms), clear: (handle) => window.clearTimeout(handle as number) },
        setStatus,
      ),
    [],
  );
  useEffect(() => () => controller.dispose(), [controller]);
  return (
    <Button type="button" variant={status === "copied" ? "secondary" : "outline"} onClick={() => void controller.copy(text)} data-testid="pix-copy" aria-live="polite">
      {status === "copied" ? <Check /> : <Copy />}
      {status === "copied" ? t`Copied!` : status === "failed" ? t`Copy failed: select the code and copy it` : label}
    </Button>
  );
}

/** The QR code and the copy-and-paste code of a PIX charge. */
export function PixPayment({ pix }: { pix: PixAnswer }) {
  const { t, i18n } = useLingui();
  return (
    <div className="grid justify-items-center gap-4" data-testid="pix-payment">
      <img src={pix.qrCodeImage} alt={t`PIX QR code`} className="size-56 rounded-lg border bg-white p-2" />
      <p className="text-center text-sm text-muted-foreground">{t`Open your bank's app, choose PIX and scan the code, or copy the code below and paste it in the app.`}</p>
      <Textarea readOnly rows={3} value={pix.payload} aria-label={t`PIX copy-and-paste code`} className="font-mono text-xs" onFocus={(e) => e.currentTarget.select()} data-testid="pix-payload" />
      <CopyButton text={pix.payload} label={t`Copy PIX code`} />
      {pix.expiresAt !== null ? <p className="text-xs text-muted-foreground">{t`Valid until ${formatDateTime(pix.expiresAt, { locale: i18n.locale })}`}</p> : null}
    </div>
  );
}
