/**
 * The phone's pairing screen: type the 8-character code the Connections screen shows (or open the
 * QR's link, which pairs by itself). A code is accepted with or without its dash, in any case.
 */
import { useState, type FormEvent } from "react";
import { useLingui } from "@lingui/react/macro";
import { Smartphone } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/error-messages";
import { formatPairingCode } from "@/features/connections/lib/pairing";
import { pairDevice } from "../api/phone-api";
import type { PairAnswer } from "../lib/protocol";

/** The pairing failure's message: a wrong or expired code has its own wording. */
export function usePairingError() {
  const { i18n } = useLingui();
  return (error: unknown) => i18n._(errorMessage(error, "pairing"));
}

/** Code entry; `onPaired` receives the device token. `initialError` shows a failed QR pairing. */
export function PairingScreen({ onPaired, initialError }: { onPaired: (answer: PairAnswer) => void; initialError?: string | null }) {
  const { t } = useLingui();
  const describe = usePairingError();
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(initialError ?? null);
  const [busy, setBusy] = useState(false);
  const clean = code.replace(/[^A-Za-z0-9]/g, "").toUpperCase();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (clean.length !== 8) {
      setError(t`Type the 8 characters of the code.`);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onPaired(await pairDevice({ code: clean }));
    } catch (failure) {
      setError(describe(failure));
      setBusy(false);
    }
  };

  return (
    <div className="flex h-full flex-col items-center justify-center gap-6 p-6 text-center">
      <span className="flex size-16 items-center justify-center rounded-full bg-[#25d366]/15 text-[#128c7e] dark:text-[#25d366]" aria-hidden>
        <Smartphone className="size-8" />
      </span>
      <div className="grid gap-2">
        <h1 className="text-xl font-semibold">{t`Sandbox phone`}</h1>
        <p className="text-sm text-muted-foreground">
          {t`Open Connections in the app, pair a sandbox connection, then scan its QR code or type the code shown there.`}
        </p>
      </div>
      <form onSubmit={submit} className="grid w-full max-w-xs gap-3" noValidate>
        <div className="grid gap-1.5 text-left">
          <Label htmlFor="sandbox-pairing-code">{t`Pairing code`}</Label>
          <Input
            id="sandbox-pairing-code"
            value={formatPairingCode(code)}
            onChange={(e) => setCode(e.target.value.replace(/[^A-Za-z0-9]/g, "").slice(0, 8))}
            autoComplete="one-time-code"
            autoCapitalize="characters"
            spellCheck={false}
            autoFocus
            placeholder="XXXX-XXXX"
            maxLength={9}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "sandbox-pairing-error" : undefined}
            className="h-12 text-center font-mono text-xl tracking-[0.2em] uppercase"
          />
        </div>
        {error ? (
          <Alert variant="destructive" id="sandbox-pairing-error">
            <p>{error}</p>
          </Alert>
        ) : null}
        <Button type="submit" size="lg" disabled={busy}>
          {busy ? <Spinner /> : null}
          {t`Pair phone`}
        </Button>
      </form>
    </div>
  );
}
