/** UUIDv7 ids (time-ordered, so inserts stay append-mostly in D1's B-trees). */
import { v7 } from "uuid";

/** A new UUIDv7 as 36-character text. */
export function newId(): string {
  return v7();
}
