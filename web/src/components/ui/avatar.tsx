import { Avatar as AvatarPrimitive } from "radix-ui";
import { cn } from "@/lib/utils";

/** Initials of a name, at most two letters. */
export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const first = parts[0]?.[0] ?? "";
  const last = parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? "") : "";
  return (first + last).toUpperCase() || "?";
}

/** A round picture with the name's initials as fallback. */
export function Avatar({ name, src, className }: { name: string; src?: string | null; className?: string }) {
  return (
    <AvatarPrimitive.Root className={cn("relative flex size-8 shrink-0 overflow-hidden rounded-full", className)}>
      {src ? <AvatarPrimitive.Image className="aspect-square size-full object-cover" src={src} alt="" /> : null}
      <AvatarPrimitive.Fallback className="flex size-full items-center justify-center bg-muted text-xs font-medium text-muted-foreground">
        {initials(name)}
      </AvatarPrimitive.Fallback>
    </AvatarPrimitive.Root>
  );
}
