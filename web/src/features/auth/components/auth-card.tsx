import type { ReactNode } from "react";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { Alert } from "@/components/ui/alert";
import { TriangleAlert } from "lucide-react";

/**
 * The card every auth screen uses: title, one line, optional form error, body, footer links. The
 * title and footer carry their final classes (CardTitle's and CardFooter's with this card's
 * overrides, as tailwind-merge would resolve them) so the card renders right without
 * tailwind-merge, which /login does not load (issue 9; auth-classes.test.ts).
 */
export function AuthCard({
  title,
  description,
  error,
  children,
  footer,
}: {
  title: ReactNode;
  description?: ReactNode;
  error?: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <h1 data-slot="card-title" className="font-semibold text-xl">
          {title}
        </h1>
        {description ? <CardDescription>{description}</CardDescription> : null}
      </CardHeader>
      <CardContent className="grid gap-4">
        {error ? (
          <Alert variant="destructive">
            <TriangleAlert />
            <p>{error}</p>
          </Alert>
        ) : null}
        {children}
      </CardContent>
      {footer ? (
        <div data-slot="card-footer" className="flex p-5 pt-0 flex-col items-stretch gap-2 text-center text-sm text-muted-foreground">
          {footer}
        </div>
      ) : null}
    </Card>
  );
}
