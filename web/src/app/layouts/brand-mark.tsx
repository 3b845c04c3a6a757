/**
 * The brand at the top of the sidebar and of the auth pages (spec §1; issue 14): the franchise's
 * logo and name on a franchise host, else the product's mark and name. A blank while the name is
 * not known, never the product's name on a franchise host.
 */
import { MessageSquareText } from "lucide-react";
import { cn } from "@/lib/utils";
import { useBrand } from "@/lib/use-brand";

/** `size` "sm": the sidebar's; "lg": the auth card's. */
export function BrandMark({ size = "sm", className }: { size?: "sm" | "lg"; className?: string }) {
  const brand = useBrand();
  const box = size === "lg" ? "size-9" : "size-8";
  return (
    <div className={cn("flex items-center gap-2 font-semibold", className)} data-testid="brand">
      {brand.logo ? (
        <img src={brand.logo} alt="" className={cn(box, "rounded-lg object-contain")} />
      ) : (
        <span className={cn(box, "flex items-center justify-center rounded-lg bg-primary text-primary-foreground")} aria-hidden>
          <MessageSquareText className={size === "lg" ? "size-5" : "size-4"} />
        </span>
      )}
      <span className="truncate" data-testid="brand-name">
        {brand.name ?? "\u00a0"}
      </span>
    </div>
  );
}
