import { LoaderCircle } from "lucide-react";
import { cn } from "@/lib/utils";

/** A spinning indicator; pass `label` for screen readers when it stands alone. */
export function Spinner({ className, label }: { className?: string; label?: string }) {
  return (
    <LoaderCircle
      className={cn("size-4 animate-spin", className)}
      aria-hidden={label ? undefined : true}
      aria-label={label}
      role={label ? "status" : undefined}
    />
  );
}
