import { Toaster as Sonner } from "sonner";
import { useTheme } from "@/lib/theme";
import { TOAST_DURATION_MS } from "@/lib/notify";

/** The toast outlet: follows the theme; toasts last 5000 ms (spec §8). */
export function Toaster() {
  const [theme] = useTheme();
  return <Sonner theme={theme} duration={TOAST_DURATION_MS} richColors closeButton position="top-right" />;
}
