/**
 * The column chooser's choice, remembered in localStorage per company (lib/columns.ts holds the
 * rules; this hook only reads and writes the storage).
 */
import { useCallback, useState } from "react";
import { columnsStorageKey, parseStoredColumns, toggleColumn, type ColumnId } from "../lib/columns";

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** The chosen columns and a toggle that saves the choice. */
export function useChosenColumns(companyId: string) {
  const key = columnsStorageKey(companyId);
  const [state, setState] = useState(() => ({ key, chosen: parseStoredColumns(read(key)) }));
  // The company changed: read its own choice.
  const chosen = state.key === key ? state.chosen : parseStoredColumns(read(key));
  if (state.key !== key) setState({ key, chosen });
  const toggle = useCallback(
    (column: ColumnId, shown: boolean) => {
      setState((current) => {
        const next = toggleColumn(current.chosen, column, shown);
        try {
          localStorage.setItem(current.key, JSON.stringify(next));
        } catch {
          // Private mode: the choice lasts for this visit only.
        }
        return { key: current.key, chosen: next };
      });
    },
    [],
  );
  return { chosen, toggle };
}
