import { Toaster as Sonner } from "sonner";
import { useLingui } from "@lingui/react/macro";
import { useTheme } from "@/lib/theme";
import { TOAST_DURATION_MS } from "@/lib/toaster-state";

/** The toast outlet: follows the theme; toasts last 5000 ms (spec §8); sonner's own labels translated. */
export function Toaster() {
  const { t } = useLingui();
  const [theme] = useTheme();
  return (
    <Sonner
      theme={theme}
      duration={TOAST_DURATION_MS}
      richColors
      closeButton
      position="top-right"
      containerAriaLabel={t`Notifications`}
      toastOptions={{ closeButtonAriaLabel: t({ message: "Close notification", comment: "The close button of a toast message." }) }}
    />
  );
}
