import type { ReactNode } from "react";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Alert } from "@/components/ui/alert";
import { TriangleAlert } from "lucide-react";

/** The card every auth screen uses: title, one line, optional form error, body, footer links. */
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
        <CardTitle as="h1" className="text-xl">
          {title}
        </CardTitle>
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
      {footer ? <CardFooter className="flex-col items-stretch gap-2 text-center text-sm text-muted-foreground">{footer}</CardFooter> : null}
    </Card>
  );
}
