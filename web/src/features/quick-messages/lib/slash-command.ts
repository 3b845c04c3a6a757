/**
 * The composer's `/` command (issue 4 "typing `/` lists them by name and inserts one"): finding
 * the `/query` being typed at the caret, filtering quick messages by name, and replacing the
 * `/query` with the chosen message's text. Pure, so the composer's behaviour is tested here.
 */

/** Longest name of a quick message (worker validation), so the longest query worth matching. */
const MAX_QUERY = 60;

/** The `/query` under the caret: `start` is the slash's index, `end` the caret's. */
export type SlashQuery = { start: number; end: number; query: string };

/**
 * The `/query` that ends at `caret`, or null. The slash must start a word (first character, or
 * after a space or line break); the query runs from it to the caret, on one line, never starting
 * with a space, and may hold single spaces (names such as "Good morning").
 */
export function findSlashQuery(text: string, caret: number): SlashQuery | null {
  const end = Math.max(0, Math.min(caret, text.length));
  const before = text.slice(0, end);
  const start = before.lastIndexOf("/");
  if (start < 0) return null;
  const previous = start > 0 ? before[start - 1] : undefined;
  if (previous !== undefined && !/\s/.test(previous)) return null;
  const query = before.slice(start + 1);
  if (query.length > MAX_QUERY || /[\r\n]/.test(query) || /^\s/.test(query) || /\s{2}/.test(query)) return null;
  return { start, end, query };
}

/** Lower case, accents dropped, spaces collapsed. */
function normalise(value: string): string {
  return value
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The items whose name contains every word of `query` (case and accents ignored): names starting
 * with the query first, then the others, each group in the given order; all items for "".
 */
export function filterByName<T extends { name: string }>(items: readonly T[], query: string): T[] {
  const wanted = normalise(query);
  if (!wanted) return [...items];
  const words = wanted.split(" ");
  const starts: T[] = [];
  const contains: T[] = [];
  for (const item of items) {
    const name = normalise(item.name);
    if (name.startsWith(wanted)) starts.push(item);
    else if (words.every((word) => name.includes(word))) contains.push(item);
  }
  return [...starts, ...contains];
}

/** `text` with the `/query` replaced by `insert`; the caret goes after the insert. */
export function applySlashChoice(text: string, match: SlashQuery, insert: string): { text: string; caret: number } {
  return { text: text.slice(0, match.start) + insert + text.slice(match.end), caret: match.start + insert.length };
}
