import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

/** A card container. */
export function Card({ className, ...props }: ComponentProps<"div">) {
  return <div data-slot="card" className={cn("rounded-xl border bg-card text-card-foreground shadow-sm", className)} {...props} />;
}

/** The card's heading area. */
export function CardHeader({ className, ...props }: ComponentProps<"div">) {
  return <div data-slot="card-header" className={cn("flex flex-col gap-1.5 p-5 pb-0", className)} {...props} />;
}

/** The card's title (a heading of level `as`, default h3). */
export function CardTitle({ className, as: Tag = "h3", ...props }: ComponentProps<"h3"> & { as?: "h1" | "h2" | "h3" }) {
  return <Tag data-slot="card-title" className={cn("leading-tight font-semibold", className)} {...props} />;
}

/** Muted text under the title. */
export function CardDescription({ className, ...props }: ComponentProps<"p">) {
  return <p data-slot="card-description" className={cn("text-sm text-muted-foreground", className)} {...props} />;
}

/** The card's body. */
export function CardContent({ className, ...props }: ComponentProps<"div">) {
  return <div data-slot="card-content" className={cn("p-5", className)} {...props} />;
}

/** The card's footer row. */
export function CardFooter({ className, ...props }: ComponentProps<"div">) {
  return <div data-slot="card-footer" className={cn("flex items-center gap-2 p-5 pt-0", className)} {...props} />;
}
