/**
 * dnd-kit sensors for dragging a whole card (or column) by its body: the mouse or a pen starts a
 * drag after moving 5 px (so a click still opens the card), a finger after holding still for
 * 250 ms (so a swipe still scrolls the board), and the keyboard with Space/Enter when the card
 * itself has focus. A press that starts on a control inside the card (its menu, a link, an input)
 * never starts a drag: those keep their own click and key handling.
 */
import {
  KeyboardSensor,
  PointerSensor,
  TouchSensor,
  useSensor,
  useSensors,
  type PointerSensorOptions,
  type SensorDescriptor,
  type SensorOptions,
  type TouchSensorOptions,
} from "@dnd-kit/core";
import { sortableKeyboardCoordinates } from "@dnd-kit/sortable";
import type { PointerEvent as ReactPointerEvent, SyntheticEvent, TouchEvent as ReactTouchEvent } from "react";

/** Pointer travel before a mouse/pen drag starts (px). */
export const POINTER_DRAG_DISTANCE = 5;
/** How long a finger rests before a touch drag starts (ms), and how far it may wander meanwhile (px). */
export const TOUCH_DRAG_DELAY = 250;
export const TOUCH_DRAG_TOLERANCE = 8;

const INTERACTIVE = "button, a, input, textarea, select, [role='menuitem'], [contenteditable='true']";

/**
 * True when the event began on an interactive element nested inside the draggable element (the
 * element carrying the listeners), which must keep its own behaviour.
 */
export function startsOnNestedControl(event: SyntheticEvent): boolean {
  const target = event.target instanceof Element ? event.target : null;
  const owner = event.currentTarget instanceof Element ? event.currentTarget : null;
  if (!target || !owner || target === owner) return false;
  const control = target.closest(INTERACTIVE);
  return control !== null && control !== owner && owner.contains(control);
}

/** The pointer sensor for mouse and pen only (fingers go through {@link BodyTouchSensor}). */
export class BodyPointerSensor extends PointerSensor {
  static override activators = [
    {
      eventName: "onPointerDown" as const,
      handler: (event: ReactPointerEvent, { onActivation }: PointerSensorOptions) => {
        const native = event.nativeEvent;
        if (native.pointerType === "touch" || !native.isPrimary || native.button !== 0 || startsOnNestedControl(event)) return false;
        onActivation?.({ event: native });
        return true;
      },
    },
  ];
}

/** The touch sensor: a press-and-hold on the card's body. */
export class BodyTouchSensor extends TouchSensor {
  static override activators = [
    {
      eventName: "onTouchStart" as const,
      handler: (event: ReactTouchEvent, { onActivation }: TouchSensorOptions) => {
        const native = event.nativeEvent;
        if (native.touches.length > 1 || startsOnNestedControl(event)) return false;
        onActivation?.({ event: native });
        return true;
      },
    },
  ];
}

/** The keyboard sensor: Space/Enter lift only when the card itself (not a control in it) has focus. */
export class BodyKeyboardSensor extends KeyboardSensor {
  static override activators = KeyboardSensor.activators.map((activator) => ({
    ...activator,
    handler: (event: SyntheticEvent, ...rest: unknown[]) =>
      event.target !== event.currentTarget ? false : (activator.handler as (e: SyntheticEvent, ...r: unknown[]) => boolean)(event, ...rest),
  }));
}

/** The board's sensors: mouse/pen by distance, touch by delay, keyboard, each by the card's body. */
export function useBoardSensors(): SensorDescriptor<SensorOptions>[] {
  return useSensors(
    useSensor(BodyPointerSensor, { activationConstraint: { distance: POINTER_DRAG_DISTANCE } }),
    useSensor(BodyTouchSensor, { activationConstraint: { delay: TOUCH_DRAG_DELAY, tolerance: TOUCH_DRAG_TOLERANCE } }),
    useSensor(BodyKeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
}
