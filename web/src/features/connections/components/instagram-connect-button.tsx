/**
 * "Connect Instagram" (issue 15): asks the worker for Instagram's business-login page (a state
 * bound to this company and user, valid 15 minutes) and sends the browser there; Instagram brings
 * it back to /callback/instagram.
 */
import { useMutation } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { Camera } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { notifyError } from "@/lib/notify";
import { startInstagramLogin } from "@/features/instagram/api/instagram-api";

export function InstagramConnectButton({ variant = "outline" }: { variant?: "outline" | "default" }) {
  const { t } = useLingui();
  const login = useMutation({
    mutationFn: startInstagramLogin,
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) => notifyError(error),
  });
  return (
    <Button variant={variant} onClick={() => login.mutate()} disabled={login.isPending || login.isSuccess} data-testid="connect-instagram">
      {login.isPending || login.isSuccess ? <Spinner /> : <Camera />}
      {t`Connect Instagram`}
    </Button>
  );
}
