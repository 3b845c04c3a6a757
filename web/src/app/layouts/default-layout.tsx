import { Outlet } from "react-router";
import { AppShell } from "./app-shell";

/** The "default" layout of spec §2: the app shell around the page. */
export function DefaultLayout() {
  return (
    <AppShell>
      <Outlet />
    </AppShell>
  );
}
