/**
 * The Admin area's sections (DESIGN.md "Platform administration"): announcements (issue 12), plans
 * and coupons (issue 13), as tabs above each Admin screen.
 */
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { NavLink } from "react-router";
import { cn } from "@/lib/utils";

/** The Admin screens, in display order. */
export const ADMIN_SECTIONS: { to: string; label: MessageDescriptor }[] = [
  { to: "/admin/announcements", label: msg`Announcements` },
  { to: "/admin/plans", label: msg`Plans` },
  { to: "/admin/coupons", label: msg`Coupons` },
  { to: "/admin/franchises", label: msg`Franchises` },
];

/** Tabs between the Admin screens. */
export function AdminTabs() {
  const { t, i18n } = useLingui();
  return (
    <nav aria-label={t`Admin sections`} className="overflow-x-auto border-b">
      <ul className="flex min-w-max gap-1">
        {ADMIN_SECTIONS.map((section) => (
          <li key={section.to}>
            <NavLink
              to={section.to}
              className={({ isActive }) =>
                cn(
                  "-mb-px inline-flex h-10 items-center border-b-2 px-3 text-sm font-medium outline-none transition-colors focus-visible:ring-2 focus-visible:ring-ring",
                  isActive ? "border-primary text-foreground" : "border-transparent text-muted-foreground hover:text-foreground",
                )
              }
            >
              {i18n._(section.label)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
