import { beforeAll, describe, expect, it } from "vitest";
import { i18n } from "@lingui/core";
import { activateLocale } from "@/lib/i18n";
import { canvasAriaLabels } from "./canvas-labels";
import { copyName } from "./copy-name";

describe("the flow editor's language (issue 9)", () => {
  beforeAll(async () => {
    await activateLocale("en-US");
  });

  it("names every xyflow control, the minimap and the handles through the catalog", () => {
    const labels = canvasAriaLabels(i18n);
    // The English defaults of @xyflow/react 12 (`defaultAriaLabelConfig` of @xyflow/system).
    const needed = ["controls.ariaLabel", "controls.zoomIn.ariaLabel", "controls.zoomOut.ariaLabel", "controls.fitView.ariaLabel", "controls.interactive.ariaLabel", "minimap.ariaLabel", "handle.ariaLabel"];
    for (const key of needed) expect(labels[key as keyof typeof labels], key).toEqual(expect.any(String));
    expect(labels["controls.zoomIn.ariaLabel"]).toBe("Zoom in");
    expect(labels["controls.fitView.ariaLabel"]).toBe("Fit to screen");
    expect(labels["controls.interactive.ariaLabel"]).not.toBe("Toggle Interactivity");
  });

  it("names a duplicated builder through the catalog, within the 100 characters of a flow name", () => {
    expect(copyName("Sales")).toBe("Sales (copy)");
    const long = copyName("x".repeat(100));
    expect(long.length).toBeLessThanOrEqual(100);
    expect(long.endsWith(" (copy)")).toBe(true);
  });
});
