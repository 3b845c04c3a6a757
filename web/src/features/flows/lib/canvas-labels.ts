/**
 * The flow canvas's own control labels in the user's language (issue 9: third-party control labels
 * translated). @xyflow/react 12 names its zoom, fit-view and lock buttons, minimap, handles and the
 * keyboard hints of nodes and edges in English unless `ariaLabelConfig` overrides them.
 */
import type { I18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { AriaLabelConfig } from "@xyflow/react";

const LABELS = {
  "controls.ariaLabel": msg`Zoom controls`,
  "controls.zoomIn.ariaLabel": msg`Zoom in`,
  "controls.zoomOut.ariaLabel": msg`Zoom out`,
  "controls.fitView.ariaLabel": msg`Fit to screen`,
  "controls.interactive.ariaLabel": msg`Lock or unlock the canvas`,
  "minimap.ariaLabel": msg`Minimap`,
  "handle.ariaLabel": msg`Connection point`,
  "node.a11yDescription.default": msg`Press Enter or Space to select a block. Press Delete to remove it and Escape to cancel.`,
  "node.a11yDescription.keyboardDisabled": msg`Press Enter or Space to select a block, then move it with the arrow keys. Press Delete to remove it and Escape to cancel.`,
  "edge.a11yDescription.default": msg`Press Enter or Space to select a connection. Press Delete to remove it or Escape to cancel.`,
} as const;

/** `ariaLabelConfig` for <ReactFlow> in the active language of `i18n`. */
export function canvasAriaLabels(i18n: I18n): Partial<AriaLabelConfig> {
  return Object.fromEntries(Object.entries(LABELS).map(([key, label]) => [key, i18n._(label)]));
}
