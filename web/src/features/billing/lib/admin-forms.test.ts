import { describe, expect, it } from "vitest";
import { couponFormSchema, couponFormValues, couponInputOf, endOfDay, planFormSchema, planFormValues, planInputOf } from "./admin-forms";

describe("the Admin area's plan and coupon forms", () => {
  it("a plan's price is typed as money in the admin's language and sent as cents; blank limits are unlimited", () => {
    const values = { ...planFormValues(null, "pt-BR"), name: "Básico", price: "1.234,56", maxMembers: "5", maxConnections: "" };
    expect(planFormSchema("pt-BR").safeParse(values).success).toBe(true);
    expect(planInputOf(values, "pt-BR")).toMatchObject({ name: "Básico", priceCents: 123456, cycle: "monthly", maxMembers: 5, maxConnections: null, active: true });
    const bad = planFormSchema("pt-BR").safeParse({ ...values, price: "12,345", maxMembers: "0" });
    expect(bad.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["price", "invalid_price"],
      ["maxMembers", "invalid_limit"],
    ]);
  });

  it("a coupon is a percent (1–100) or a fixed amount in cents, valid through the end of the chosen day", () => {
    const percent = { ...couponFormValues(null), code: "bemvindo", value: "10", validUntil: "2026-12-31" };
    expect(couponFormSchema("pt-BR").safeParse(percent).success).toBe(true);
    expect(couponInputOf(percent, "pt-BR")).toMatchObject({ code: "bemvindo", kind: "percent", value: 10, validUntil: endOfDay("2026-12-31"), maxUses: null, planIds: [] });
    expect(new Date(endOfDay("2026-12-31")!).getDate()).toBe(31);
    expect(new Date(endOfDay("2026-12-31")! + 1).getDate()).toBe(1);
    const fixed = { ...percent, kind: "fixed" as const, value: "20,50" };
    expect(couponInputOf(fixed, "pt-BR").value).toBe(2050);
    const issues = (v: object) => couponFormSchema("pt-BR").safeParse(v).error?.issues.map((i) => [i.path.join("."), i.message]);
    expect(issues({ ...percent, value: "120" })).toEqual([["value", "invalid_value"]]);
    expect(issues({ ...percent, code: "" })).toEqual([["code", "required"]]);
    expect(issues({ ...percent, code: "com espaço" })).toEqual([["code", "invalid_coupon"]]);
  });
});
