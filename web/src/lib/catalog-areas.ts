/**
 * Files of web/src (outside features) whose messages only signed-in pages show: they form the
 * "shell" catalog (lingui.config.ts), loaded with the app's layouts and screens; every other file of
 * app/, components/ and lib/ is in "core", which every page loads (issue 9: /login downloads only
 * what it may show). router-catalogs.test.ts checks the routes' catalog lists against this.
 */
export const SHELL_FILES = [
  "app/layouts/app-shell.tsx",
  "app/layouts/default-layout.tsx",
  "app/layouts/section-layout.tsx",
  "app/navigation.ts",
  "app/routes/access-denied.tsx",
  "app/routes/failed-subscription.tsx",
  "app/routes/not-in-company.tsx",
  "components/code-form.tsx",
  "components/form-sheet.tsx",
  "components/referral-card.tsx",
  "components/row-actions.tsx",
  "components/ui/confirm-dialog.tsx",
  "components/ui/date-picker.tsx",
  "components/ui/error-state.tsx",
  "lib/counts.ts",
  "lib/notify.ts",
];

/**
 * The error table (spec §8 messages for API codes and field codes): the "errors" catalog, loaded
 * with every screen that shows a form or an error, and by the login page only once it has an
 * error to show (issue 9).
 */
export const ERROR_FILES = ["lib/error-messages.ts"];
