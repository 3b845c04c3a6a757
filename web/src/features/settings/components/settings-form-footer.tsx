/**
 * The footer of the settings forms (my account, company): "Discard changes" (enabled once the form
 * or its picture changed) and "Save changes" with a spinner while saving.
 */
import { useLingui } from "@lingui/react/macro";
import { Button } from "@/components/ui/button";
import { CardFooter } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";

/** `changed`: anything to discard; `saving`: the update is in flight; `onDiscard` resets the form. */
export function SettingsFormFooter({ changed, saving, onDiscard }: { changed: boolean; saving: boolean; onDiscard: () => void }) {
  const { t } = useLingui();
  return (
    <CardFooter className="justify-end">
      <Button type="button" variant="ghost" disabled={saving || !changed} onClick={onDiscard}>
        {t`Discard changes`}
      </Button>
      <Button type="submit" disabled={saving}>
        {saving ? <Spinner /> : null}
        {t`Save changes`}
      </Button>
    </CardFooter>
  );
}
