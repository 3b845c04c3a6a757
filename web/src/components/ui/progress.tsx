import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

/**
 * A progress bar (`role="progressbar"` with `aria-valuenow` 0..100). `value` null means the amount
 * is not known yet: the bar pulses and `aria-valuenow` is left out, as ARIA asks.
 */
export function Progress({ value, className, ...props }: Omit<ComponentProps<"div">, "children"> & { value: number | null }) {
  const clamped = value === null ? null : Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped ?? undefined}
      className={cn("relative h-2 w-full overflow-hidden rounded-full bg-muted", className)}
      {...props}
    >
      <div
        className={cn("h-full rounded-full bg-primary transition-[width] duration-300", clamped === null && "w-1/3 animate-pulse")}
        style={clamped === null ? undefined : { width: `${clamped}%` }}
      />
    </div>
  );
}
