/**
 * Pairing a sandbox connection (spec §2 Connections "pair a channel by QR code or phone code";
 * DESIGN.md "Channels"): the QR code of the pairing link and the 8-character phone code, with a
 * countdown; a fresh pair is requested shortly before expiry while the dialog is open. When the hub
 * reports the connection CONNECTED the dialog closes with a success toast. WhatsApp (QR code)
 * connections (issue 15) show WhatsApp's own QR and pairing code the same way; the hub's
 * `connection.pairing` signal (a new QR on the Evolution server) fetches the new one at once.
 */
import { useCallback, useEffect, useState } from "react";
import QRCode from "qrcode";
import { useLingui } from "@lingui/react/macro";
import { toast } from "sonner";
import { ExternalLink, RefreshCw } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogClose } from "@/components/ui/dialog";
import { Skeleton } from "@/components/ui/skeleton";
import { useHubEvents } from "@/lib/realtime";
import { TOAST_DURATION_MS } from "@/lib/notify";
import { errorMessage } from "@/lib/error-messages";
import { pairConnection, type Connection, type Pairing } from "../api/connections-api";
import { formatPairingCode, refreshDelay, secondsLeft } from "../lib/pairing";

type PairingState = { status: "loading" } | { status: "ready"; pairing: Pairing; qr: string } | { status: "error"; error: unknown };

/** Keeps a current pairing while mounted: fetches one, then a fresh one before each expiry. */
function usePairing(connectionId: string) {
  const [state, setState] = useState<PairingState>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      try {
        const pairing = await pairConnection(connectionId, controller.signal);
        const qr = await QRCode.toDataURL(pairing.qrValue, { margin: 1, width: 264, errorCorrectionLevel: "M" });
        if (controller.signal.aborted) return;
        setState({ status: "ready", pairing, qr });
        timer = setTimeout(() => void load(), refreshDelay(pairing.expiresAt, Date.now()));
      } catch (error) {
        if (!controller.signal.aborted) setState({ status: "error", error });
      }
    };
    void load();
    return () => {
      controller.abort();
      if (timer) clearTimeout(timer);
    };
  }, [connectionId, attempt]);
  const retry = useCallback(() => {
    setState({ status: "loading" });
    setAttempt((n) => n + 1);
  }, []);
  /** Fetches a fresh pairing while the current one stays on screen. */
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, retry, reload };
}

/** Seconds left before `expiresAt`, ticking every second. */
function useCountdown(expiresAt: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (expiresAt === null) return;
    setNow(Date.now());
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [expiresAt]);
  return expiresAt === null ? 0 : secondsLeft(expiresAt, now);
}

function PairingBody({ connection, onPaired }: { connection: Connection; onPaired: () => void }) {
  const { t, i18n } = useLingui();
  const { state, retry, reload } = usePairing(connection.id);
  const seconds = useCountdown(state.status === "ready" ? state.pairing.expiresAt : null);
  const whatsapp = connection.channel === "whatsapp-qr";
  useHubEvents((event) => {
    if (event.type === "connection.updated" && event.connection.id === connection.id && event.connection.status === "CONNECTED") onPaired();
    if (event.type === "connection.pairing" && event.connection.id === connection.id) reload();
  });

  if (state.status === "error") {
    return (
      <div className="grid gap-3">
        <Alert variant="destructive">
          <p>{i18n._(errorMessage(state.error))}</p>
        </Alert>
        <Button variant="outline" onClick={retry} className="justify-self-start">
          <RefreshCw />
          {t`Try again`}
        </Button>
      </div>
    );
  }
  if (state.status === "loading") {
    return (
      <div className="grid justify-items-center gap-3" aria-busy>
        <Skeleton className="size-[264px] rounded-lg" />
        <Skeleton className="h-8 w-40" />
        <span className="sr-only">{t`Generating the pairing code…`}</span>
      </div>
    );
  }
  const code = formatPairingCode(state.pairing.code);
  return (
    <div className="grid justify-items-center gap-4">
      <img
        src={state.qr}
        width={264}
        height={264}
        alt={whatsapp ? t`QR code to pair WhatsApp` : t`QR code to pair the sandbox phone`}
        className="rounded-lg border bg-white p-2"
        data-testid="pairing-qr"
      />
      {code ? (
        <div className="grid justify-items-center gap-1">
          <span className="text-sm text-muted-foreground" id="pairing-code-label">
            {whatsapp ? t`Or choose "Link with phone number instead" on the phone and type this code` : t`Or type this code on the phone`}
          </span>
          <output
            aria-labelledby="pairing-code-label"
            data-testid="pairing-code"
            data-code={state.pairing.code}
            className="rounded-md bg-muted px-4 py-2 font-mono text-2xl font-semibold tracking-[0.2em] select-all"
          >
            {code}
          </output>
          <span className="text-xs text-muted-foreground" aria-live="off">
            {t`A new code in ${seconds} s`}
          </span>
        </div>
      ) : null}
      {whatsapp ? null : (
        <a
          href={state.pairing.qrValue}
          target="_blank"
          rel="noreferrer"
          className="inline-flex items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline"
        >
          <ExternalLink className="size-4" aria-hidden />
          {t`Open the sandbox phone in a new tab`}
        </a>
      )}
    </div>
  );
}

/** The pairing dialog of a sandbox connection; closes itself with a toast once paired. */
export function PairingDialog({ connection, onOpenChange }: { connection: Connection | null; onOpenChange: (open: boolean) => void }) {
  const { t } = useLingui();
  const name = connection?.name ?? null;
  const onPaired = useCallback(() => {
    toast.success(t`Phone connected.`, { duration: TOAST_DURATION_MS });
    onOpenChange(false);
  }, [onOpenChange, t]);
  return (
    <Dialog open={connection !== null} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{connection?.channel === "whatsapp-qr" ? t`Pair WhatsApp` : t`Pair the sandbox phone`}</DialogTitle>
          <DialogDescription>
            {name === null
              ? null
              : connection?.channel === "whatsapp-qr"
                ? t`On the phone of "${name}", open WhatsApp, go to Linked devices, tap Link a device and scan the QR code.`
                : t`Scan the QR code or open its link on the sandbox phone page, or type the code there, to connect "${name}".`}
          </DialogDescription>
        </DialogHeader>
        {connection ? <PairingBody connection={connection} onPaired={onPaired} /> : null}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">{t`Close`}</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
