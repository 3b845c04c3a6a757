/**
 * Where a block added "after" another goes (issue 9, "Screens that fit"): to the right of the
 * source block, in free space. Pure geometry over the canvas's nodes, so it is unit-tested.
 */

/** A block on the canvas as placement sees it: its top-left corner and, once drawn, its size. */
export type PlacedBlock = { id: string; position: { x: number; y: number }; measured?: { width?: number; height?: number } };

/** Size assumed for a block not drawn yet (px in flow coordinates; the node is `w-64`). */
export const DEFAULT_BLOCK_SIZE = { width: 256, height: 140 } as const;
/** Horizontal distance from the source block's left edge to the new block's (px). */
export const NEXT_BLOCK_GAP_X = 340;
/** Vertical step between candidate rows when the first spot is taken (px). */
export const NEXT_BLOCK_STEP_Y = 40;
/** Free margin kept around every block (px). */
export const BLOCK_MARGIN = 24;

function sizeOf(block: PlacedBlock): { width: number; height: number } {
  return { width: block.measured?.width ?? DEFAULT_BLOCK_SIZE.width, height: block.measured?.height ?? DEFAULT_BLOCK_SIZE.height };
}

function overlaps(a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }): boolean {
  return a.x < b.x + b.width + BLOCK_MARGIN && b.x < a.x + a.width + BLOCK_MARGIN && a.y < b.y + b.height + BLOCK_MARGIN && b.y < a.y + a.height + BLOCK_MARGIN;
}

/**
 * The top-left corner for a new block placed after `source`: the column `NEXT_BLOCK_GAP_X` to its
 * right, at the source's height if that spot is free, otherwise the nearest free spot in that
 * column, trying below and above alternately in steps of `NEXT_BLOCK_STEP_Y` (a free spot always
 * exists: the search goes past the lowest block). "Free" means no block (with a `BLOCK_MARGIN`
 * margin, and sizes taken from `measured` or {@link DEFAULT_BLOCK_SIZE}) intersects the new one.
 */
export function placeAfter(source: PlacedBlock, blocks: readonly PlacedBlock[], size: { width: number; height: number } = DEFAULT_BLOCK_SIZE): { x: number; y: number } {
  const x = source.position.x + NEXT_BLOCK_GAP_X;
  const others = blocks.map((block) => ({ ...block.position, ...sizeOf(block) }));
  const free = (y: number) => !others.some((other) => overlaps({ x, y, ...size }, other));
  const lowest = Math.max(source.position.y, ...others.map((other) => other.y + other.height));
  const steps = Math.ceil((lowest - source.position.y + size.height + BLOCK_MARGIN) / NEXT_BLOCK_STEP_Y) + 1;
  for (let step = 0; step <= steps; step++) {
    for (const y of step === 0 ? [source.position.y] : [source.position.y + step * NEXT_BLOCK_STEP_Y, source.position.y - step * NEXT_BLOCK_STEP_Y]) {
      if (free(y)) return { x, y };
    }
  }
  return { x, y: lowest + BLOCK_MARGIN };
}
