import { describe, expect, it } from "vitest";
import { COMPANY_PERMISSIONS } from "../../../../../schema/permissions";
import { markAllState, PERMISSION_GROUPS, PERMISSION_LABELS, toggleMarkAll, togglePermission } from "./permission-catalog";

describe("permission checklist (spec §6)", () => {
  it("puts each of the 22 permissions in exactly one group, each with a label", () => {
    const grouped = PERMISSION_GROUPS.flatMap((group) => group.permissions);
    expect(grouped).toHaveLength(22);
    expect([...grouped].sort()).toEqual([...COMPANY_PERMISSIONS].sort());
    expect(Object.keys(PERMISSION_LABELS).sort()).toEqual([...COMPANY_PERMISSIONS].sort());
  });

  it("shows mark all as unchecked, indeterminate or checked", () => {
    expect(markAllState([])).toBe(false);
    expect(markAllState(["tags"])).toBe("indeterminate");
    expect(markAllState([...COMPANY_PERMISSIONS])).toBe(true);
    expect(markAllState(["tags", "custom_fields"], ["custom_fields", "tags"])).toBe(true);
    expect(markAllState(["dashboard"], ["custom_fields", "tags"])).toBe(false);
  });

  it("marks everything from none or some, and clears everything from all", () => {
    expect(toggleMarkAll([])).toEqual([...COMPANY_PERMISSIONS]);
    expect(toggleMarkAll(["tags", "dashboard"])).toEqual([...COMPANY_PERMISSIONS]);
    expect(toggleMarkAll([...COMPANY_PERMISSIONS])).toEqual([]);
  });

  it("toggles a group without touching permissions outside it, in catalogue order", () => {
    const registers = ["custom_fields", "tags"] as const;
    expect(toggleMarkAll(["settings_members", "dashboard"], registers)).toEqual(["dashboard", "custom_fields", "tags", "settings_members"]);
    expect(toggleMarkAll(["dashboard", "custom_fields", "tags"], registers)).toEqual(["dashboard"]);
  });

  it("switches one permission on or off without repeats", () => {
    expect(togglePermission(["tags"], "dashboard", true)).toEqual(["dashboard", "tags"]);
    expect(togglePermission(["tags"], "tags", true)).toEqual(["tags"]);
    expect(togglePermission(["dashboard", "tags"], "dashboard", false)).toEqual(["tags"]);
  });
});
