/**
 * /callback/instagram (spec §2, "callback" layout, login only; issue 15): where Instagram's business
 * login sends the browser back. It hands `code` and `state` to POST /api/channels/instagram/callback
 * once (the state is single use, so a second render must not send it again), then opens the
 * Connections screen with the new connection. A cancelled login (`error=access_denied`) or a
 * refused state shows why, with the way back.
 */
import { useEffect, useRef } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useLingui } from "@lingui/react/macro";
import { Camera, TriangleAlert } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Spinner } from "@/components/ui/spinner";
import { isApiError } from "@/lib/api";
import { errorMessage } from "@/lib/error-messages";
import { notifySuccess } from "@/lib/notify";
import { completeInstagramLogin } from "../api/instagram-api";

/** Codes (and states) already handed in by this page: React may mount it twice. */
const handedIn = new Set<string>();

export function InstagramCallbackPage() {
  const { t, i18n } = useLingui();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const code = params.get("code") ?? "";
  const state = params.get("state") ?? "";
  const denied = params.get("error");
  const complete = useMutation({
    mutationFn: () => completeInstagramLogin({ code, state }),
    onSuccess: async (connection) => {
      notifySuccess("created", connection.name);
      await queryClient.invalidateQueries({ queryKey: ["connections"] });
      navigate("/connections", { replace: true });
    },
  });
  const started = useRef(false);
  useEffect(() => {
    if (started.current || denied || !code || !state || handedIn.has(state)) return;
    started.current = true;
    handedIn.add(state);
    complete.mutate();
  }, [code, state, denied, complete]);

  const back = (
    <Button asChild>
      <Link to="/connections">{t`Back to Connections`}</Link>
    </Button>
  );
  if (denied || (!code && !complete.isPending)) {
    return (
      <Card className="w-full max-w-lg">
        <EmptyState icon={<Camera />} title={t`Instagram was not connected`} description={t`The login on Instagram was cancelled. Start again from Connections.`} action={back} />
      </Card>
    );
  }
  if (complete.isError) {
    const invalidState = isApiError(complete.error) && complete.error.fields.state === "invalid_state";
    return (
      <Card className="w-full max-w-lg">
        <EmptyState
          icon={<TriangleAlert />}
          title={t`Instagram was not connected`}
          description={invalidState ? t`This login link is not valid or has expired. Start again from Connections.` : i18n._(errorMessage(complete.error))}
          action={back}
        />
      </Card>
    );
  }
  return (
    <Card className="w-full max-w-lg" aria-busy data-testid="instagram-callback">
      <EmptyState icon={<Spinner />} title={t`Connecting Instagram…`} description={t`Reading your Instagram account and subscribing it to messages and comments.`} />
    </Card>
  );
}
