import { beforeAll, describe, expect, it } from "vitest";
import { i18n } from "@lingui/core";
import { ApiError } from "@/lib/api";
import { activateLocale } from "@/lib/i18n";
import { roleInUseMessage, toggleFeature } from "./role-form";

describe("the franchise role form", () => {
  beforeAll(async () => {
    await activateLocale("en-US");
  });

  it("keeps the chosen features in catalogue order, without repeats", () => {
    expect(toggleFeature(["flow"], "crm", true)).toEqual(["crm", "flow"]);
    expect(toggleFeature(["crm", "flow"], "crm", true)).toEqual(["crm", "flow"]);
    expect(toggleFeature(["crm", "flow"], "crm", false)).toEqual(["flow"]);
  });

  it("explains a refused delete (409) with how many companies hold the role", () => {
    const conflict = new ApiError(409, "conflict", "in use");
    expect(roleInUseMessage(i18n, conflict, 3)).toBe("This role is held by 3 companies. Give those companies another role first.");
    expect(roleInUseMessage(i18n, conflict, 1)).toBe("This role is held by 1 company. Give that company another role first.");
    expect(roleInUseMessage(i18n, new ApiError(409, "conflict", "in use", { companies: "5" }), 3)).toBe("This role is held by 5 companies. Give those companies another role first.");
    expect(roleInUseMessage(i18n, new ApiError(500, "internal", "boom"), 3)).toBeNull();
  });
});
