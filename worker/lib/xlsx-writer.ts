/**
 * A streaming .xlsx writer (one sheet) over fflate's streaming Zip: rows become SpreadsheetML as
 * they are added and leave deflated in chunks, so memory stays bounded by what the caller has not
 * yet taken (`take()`), whatever the number of rows.
 *
 * Text cells are inline strings (`t="inlineStr"`): no shared-string table to hold until the end.
 * Formula injection (OWASP "CSV injection"): a value of an inline string is never evaluated (formulas
 * live in `<f>`, which this writer never emits), and text starting with `=`, `+`, `-`, `@`, tab or CR
 * additionally gets a `quotePrefix="1"` cell style, the flag Excel and LibreOffice set when a user
 * types a leading apostrophe: the cell stays text when edited, re-saved or copied, and the value
 * itself is unchanged (no visible apostrophe, exact round trip).
 */
import { Zip, ZipDeflate } from "fflate";

/** A cell: text, number, boolean, or blank (null/undefined/""). */
export type XlsxCell = string | number | boolean | null | undefined;

/** Text that a spreadsheet would read as a formula when typed, pasted or re-saved as CSV. */
export const FORMULA_TRIGGER = /^[=+\-@\t\r]/;

/** Excel's limit on the characters of one cell; longer text is cut. */
const MAX_CELL_CHARS = 32_767;
/** XML text buffered before it is encoded and deflated. */
const FLUSH_CHARS = 256 * 1024;

// Style indexes of cellXfs in STYLES below.
const STYLE_QUOTED = 1;
const STYLE_HEADER = 2;
const STYLE_HEADER_QUOTED = 3;

const MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships";
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

const CONTENT_TYPES =
  XML_HEAD +
  '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
  '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
  "</Types>";

const ROOT_RELS =
  XML_HEAD +
  `<Relationships xmlns="${PKG_REL_NS}">` +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
  "</Relationships>";

const WORKBOOK_RELS =
  XML_HEAD +
  `<Relationships xmlns="${PKG_REL_NS}">` +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
  '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>' +
  "</Relationships>";

const STYLES =
  XML_HEAD +
  `<styleSheet xmlns="${MAIN_NS}">` +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="4">' +
  '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" quotePrefix="1"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" quotePrefix="1"/>' +
  "</cellXfs>" +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  "</styleSheet>";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

/** Text as XML character data: markup escaped, characters XML 1.0 cannot carry removed. */
export function xmlEscape(text: string): string {
  return text.replace(/[&<>"]|[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, (c) => ESCAPES[c] ?? "");
}

/** Column letters of a 0-based index (0 → "A", 27 → "AB"). */
export function columnName(index: number): string {
  let name = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** A legal sheet name: at most 31 characters, none of : \ / ? * [ ]. */
function sheetNameOf(name: string): string {
  return name.replace(/[:\\/?*[\]]/g, " ").trim().slice(0, 31) || "Sheet1";
}

/**
 * Writes one sheet. Call `addRow` per row (the first may be the header), `take()` whenever
 * convenient to collect the zip bytes produced so far, and `finish()` once for the rest.
 * Throws when used after `finish()`.
 */
export class XlsxWriter {
  private readonly zip: Zip;
  private readonly sheet: ZipDeflate;
  private readonly out: Uint8Array[] = [];
  private readonly encoder = new TextEncoder();
  private failure: Error | null = null;
  private buffer = "";
  private rowCount = 0;
  private finished = false;
  /** Zip bytes produced so far (taken or not). */
  bytesOut = 0;

  constructor(options: { sheetName?: string; level?: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 } = {}) {
    this.zip = new Zip((error, data) => {
      if (error) this.failure ??= error;
      else {
        this.out.push(data);
        this.bytesOut += data.length;
      }
    });
    const workbook =
      XML_HEAD +
      `<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>` +
      `<sheet name="${xmlEscape(sheetNameOf(options.sheetName ?? "Sheet1"))}" sheetId="1" r:id="rId1"/>` +
      "</sheets></workbook>";
    const parts: [string, string][] = [
      ["[Content_Types].xml", CONTENT_TYPES],
      ["_rels/.rels", ROOT_RELS],
      ["xl/workbook.xml", workbook],
      ["xl/_rels/workbook.xml.rels", WORKBOOK_RELS],
      ["xl/styles.xml", STYLES],
    ];
    for (const [name, xml] of parts) {
      const part = new ZipDeflate(name, { level: 6 });
      this.zip.add(part);
      part.push(this.encoder.encode(xml), true);
    }
    this.sheet = new ZipDeflate("xl/worksheets/sheet1.xml", { level: options.level ?? 6 });
    this.zip.add(this.sheet);
    this.buffer = XML_HEAD + `<worksheet xmlns="${MAIN_NS}"><sheetData>`;
  }

  /** Rows added so far. */
  get rows(): number {
    return this.rowCount;
  }

  /** Appends a row; `header` rows are bold. Cells past Excel's 32,767 characters are cut. */
  addRow(cells: readonly XlsxCell[], options: { header?: boolean } = {}): void {
    if (this.finished) throw new Error("XlsxWriter: addRow after finish");
    this.rowCount += 1;
    const r = this.rowCount;
    let xml = `<row r="${r}">`;
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[i];
      if (cell === null || cell === undefined || cell === "") continue;
      const ref = `${columnName(i)}${r}`;
      if (typeof cell === "number") {
        if (Number.isFinite(cell)) xml += `<c r="${ref}"${options.header ? ` s="${STYLE_HEADER}"` : ""}><v>${cell}</v></c>`;
        continue;
      }
      if (typeof cell === "boolean") {
        xml += `<c r="${ref}" t="b"><v>${cell ? 1 : 0}</v></c>`;
        continue;
      }
      const text = cell.length > MAX_CELL_CHARS ? cell.slice(0, MAX_CELL_CHARS) : cell;
      const quoted = FORMULA_TRIGGER.test(text);
      const style = options.header ? (quoted ? STYLE_HEADER_QUOTED : STYLE_HEADER) : quoted ? STYLE_QUOTED : 0;
      const space = /^\s|\s$/.test(text) ? ' xml:space="preserve"' : "";
      xml += `<c r="${ref}" t="inlineStr"${style ? ` s="${style}"` : ""}><is><t${space}>${xmlEscape(text)}</t></is></c>`;
    }
    this.buffer += xml + "</row>";
    if (this.buffer.length >= FLUSH_CHARS) this.flush(false);
  }

  /** The zip bytes produced since the last call. */
  take(): Uint8Array[] {
    if (this.failure) throw this.failure;
    return this.out.splice(0);
  }

  /** Ends the sheet and the zip; answers the remaining bytes. */
  finish(): Uint8Array[] {
    if (this.finished) throw new Error("XlsxWriter: finish twice");
    this.buffer += "</sheetData></worksheet>";
    this.flush(true);
    this.zip.end();
    this.finished = true;
    return this.take();
  }

  private flush(final: boolean): void {
    this.sheet.push(this.encoder.encode(this.buffer), final);
    this.buffer = "";
  }
}

/** Concatenates chunks (small files and tests only). */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
