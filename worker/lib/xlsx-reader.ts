/**
 * A streaming .xlsx (SpreadsheetML, ECMA-376 Part 1 §18) reader with bounded memory, for contact
 * imports on a 128 MB Worker.
 *
 * - The zip is read through its central directory (worker/lib/zip-reader.ts), each part inflated
 *   in slices and parsed by saxes (a streaming, well-formedness-checking XML parser) as it arrives.
 * - Shared strings (xl/sharedStrings.xml) must be known before the sheet is read and can be large;
 *   they are kept as UTF-8 in 1 MiB arena chunks with two Uint32Array indexes, not as millions of
 *   JS strings, and bounded by `maxStringTableBytes` / `maxStrings`.
 * - The workbook's sheets are listed in workbook.xml order with their names and kinds (resolved
 *   through the relationships): worksheets hold cells, chart sheets and others do not. Any
 *   worksheet can be read; by default the first one.
 * - Cell values come out as text: shared and inline strings as is; numbers in plain decimal (no
 *   exponent for integers, so a phone stored as a number reads "5511987654321"); booleans "TRUE" /
 *   "FALSE"; numbers styled with a date format as ISO "YYYY-MM-DD" (or "YYYY-MM-DDTHH:MM:SS" with a
 *   time part), in the 1900 date system (with Excel's 1900 leap-year bug) or 1904 when the workbook
 *   says so; error cells as their code ("#N/A").
 * - Hostile input fails with XlsxError, never by exhausting memory: zip bombs (absolute size and
 *   ratio limits), runs of more than 1 MiB without markup (which the XML parser would buffer),
 *   cells longer than Excel's 32,767 characters, more than `maxColumns` columns are ignored.
 */
import { SaxesParser } from "saxes";
import { type ByteSource, type InflateLimits, type ZipEntry, type ZipFailure, ZipError, inflateEntry, readZipDirectory } from "./zip-reader";

/**
 * Why a workbook could not be read. `not_xlsx`: a zip (or anything) that is not a spreadsheet;
 * `no_worksheet`: the sheet asked for is not a worksheet (a chart sheet, or no such index).
 */
export type XlsxFailure = ZipFailure | "not_xlsx" | "no_worksheet";

/**
 * A workbook that cannot be read. `reason` is the stable code to show the user (translated by the
 * web); `message` is a detail for logs and tests (it may name parts and parser errors), never shown.
 */
export class XlsxError extends Error {
  constructor(
    readonly reason: XlsxFailure,
    message: string,
  ) {
    super(message);
  }
}

/** One non-empty row: its 1-based number in the sheet and its cells as text ("" for blanks). */
export type XlsxRow = { row: number; cells: string[] };

/** Size limits (bytes unless named otherwise). */
export type XlsxLimits = {
  /** Uncompressed sheet XML. */
  maxSheetBytes: number;
  /** Uncompressed sharedStrings.xml. */
  maxSharedStringsXmlBytes: number;
  /** UTF-8 text kept for shared strings, and their count. */
  maxStringTableBytes: number;
  maxStrings: number;
  /** Small parts: workbook, relationships, styles, content types. */
  maxSmallPartBytes: number;
  /** Compression ratio past which (beyond `ratioFloorBytes` of output) a part is a zip bomb. */
  maxRatio: number;
  ratioFloorBytes: number;
  /** Columns read per row; cells further right are ignored. */
  maxColumns: number;
};

export const DEFAULT_XLSX_LIMITS: XlsxLimits = {
  maxSheetBytes: 400 * 1024 * 1024,
  maxSharedStringsXmlBytes: 200 * 1024 * 1024,
  maxStringTableBytes: 40 * 1024 * 1024,
  maxStrings: 3_000_000,
  maxSmallPartBytes: 8 * 1024 * 1024,
  maxRatio: 200,
  ratioFloorBytes: 16 * 1024 * 1024,
  maxColumns: 1024,
};

/**
 * Inflated XML parsed between two yields to the isolate's other work (issue 16): saxes parses about
 * 20–50 MB/s, so a slice stays a few milliseconds, and a 50 MB shared-strings part or sheet no
 * longer holds every request the isolate serves for seconds. Bytes, not time: the Workers clock
 * stands still during synchronous work.
 */
export const XML_BYTES_PER_YIELD = 256 * 1024;

/** A macrotask turn (a zero timer): requests and other messages waiting on the isolate run first. */
export function yieldToOthers(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Excel's limit on the characters of one cell. */
const MAX_CELL_CHARS = 32_767;
/** Longest stretch of XML without a "<" accepted: well beyond any legal cell, far below memory. */
const MAX_MARKUP_GAP_CHARS = 1024 * 1024;

/** Options of one pass over the sheet. */
export type RowScan = {
  /** Stop quietly (complete = false) after this many bytes of sheet XML: for previews. */
  budgetBytes?: number;
  /** Filled while scanning: whether the sheet's end was reached, XML bytes read, `<dimension>` rows. */
  complete?: boolean;
  xmlBytes?: number;
  dimensionRows?: number;
};

/** What a sheet of the workbook is: only worksheets hold cells (chart sheets hold a chart). */
export type XlsxSheetKind = "worksheet" | "chartsheet" | "other";

/** One sheet of the workbook, in the workbook's (tab) order. `index` is its 0-based position. */
export type XlsxSheetInfo = { index: number; name: string; kind: XlsxSheetKind; hidden: boolean };

/** An opened workbook: any of its worksheets can be scanned any number of times. */
export type XlsxWorkbook = {
  /** Every sheet in tab order (at least one worksheet is not guaranteed: a workbook may hold only charts). */
  sheets: XlsxSheetInfo[];
  /** Part name of the first worksheet (e.g. "xl/worksheets/sheet1.xml"), or null when there is none. */
  sheet: string | null;
  /**
   * Streams the non-empty rows of the worksheet at `sheetIndex` (default: the first worksheet) in
   * order. Throws XlsxError: `damaged` (also when the workbook names a part it does not hold),
   * `no_worksheet` when the index is not a worksheet.
   */
  rows(scan?: RowScan, sheetIndex?: number): AsyncGenerator<XlsxRow>;
};

const localName = (name: string) => {
  const colon = name.indexOf(":");
  return colon < 0 ? name : name.slice(colon + 1);
};

/** Wraps zip failures as XlsxError with the same reason and message. */
function asXlsxError(error: unknown): unknown {
  return error instanceof ZipError ? new XlsxError(error.reason, error.message) : error;
}

type XmlHandlers = {
  open(name: string, attributes: Record<string, string>, selfClosing: boolean): void;
  close?(name: string): void;
  text?(text: string): void;
};

/**
 * Feeds UTF-8 bytes to saxes. Element names reach the handlers without their namespace prefix
 * (strict OOXML files prefix them). Throws XlsxError `damaged` on malformed XML.
 */
function xmlFeeder(part: string, handlers: XmlHandlers) {
  const parser = new SaxesParser<{ xmlns: false; position: false }>({ xmlns: false, position: false });
  const decoder = new TextDecoder("utf-8");
  let gap = 0;
  let failure: Error | null = null;
  parser.on("error", (error) => {
    failure ??= error;
  });
  parser.on("opentag", (tag) => handlers.open(localName(tag.name), tag.attributes, tag.isSelfClosing));
  if (handlers.close) {
    const close = handlers.close;
    parser.on("closetag", (tag) => close(localName(tag.name)));
  }
  if (handlers.text) {
    const text = handlers.text;
    parser.on("text", text);
    parser.on("cdata", text);
  }
  const feed = (text: string) => {
    // saxes buffers text and tags until their end: bound the longest run between two "<".
    let at = 0;
    for (;;) {
      const next = text.indexOf("<", at);
      if (next < 0) {
        gap += text.length - at;
        break;
      }
      gap = 0;
      at = next + 1;
    }
    if (gap > MAX_MARKUP_GAP_CHARS) throw new XlsxError("damaged", `The file is damaged (${part} has more than 1 MB of text without markup).`);
    // saxes reports bad XML through "error" (recorded in `failure`); anything thrown out of write()
    // comes from our handlers: an XlsxError (a limit) or a bug, which must not pass for a damaged file.
    parser.write(text);
    if (failure) throw new XlsxError("damaged", `The file is damaged (${part} is not valid XML: ${failure.message.split("\n")[0]}).`);
  };
  return {
    write(bytes: Uint8Array) {
      feed(decoder.decode(bytes, { stream: true }));
    },
    end() {
      feed(decoder.decode());
      parser.close();
      if (failure) throw new XlsxError("damaged", `The file is damaged (${part} is not valid XML: ${failure.message.split("\n")[0]}).`);
    },
  };
}

/**
 * Shared strings as UTF-8 in 1 MiB chunks (a string never spans two), addressed by
 * chunk × 2^20 + offset and a length. A few bytes per string instead of a JS string object each.
 */
class StringTable {
  private static readonly CHUNK = 1024 * 1024;
  private chunks: Uint8Array[] = [];
  private used = StringTable.CHUNK;
  private starts = new Uint32Array(1024);
  private lengths = new Uint32Array(1024);
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();
  count = 0;
  bytes = 0;

  constructor(private readonly limits: XlsxLimits) {}

  add(text: string): void {
    if (this.count >= this.limits.maxStrings) {
      throw new XlsxError("unsupported", `The file has more than ${this.limits.maxStrings.toLocaleString("en-US")} distinct texts; split it into smaller files.`);
    }
    // UTF-8 takes at most 3 bytes per UTF-16 unit. An empty string (`<si><t/></si>`, which Excel
    // writes) still needs a chunk to point into, also when it is the very first string.
    if (this.chunks.length === 0 || this.used + text.length * 3 > StringTable.CHUNK) {
      this.chunks.push(new Uint8Array(StringTable.CHUNK));
      this.used = 0;
    }
    const chunk = this.chunks[this.chunks.length - 1]!;
    const { written } = this.encoder.encodeInto(text, chunk.subarray(this.used));
    if (this.count === this.starts.length) {
      const starts = new Uint32Array(this.starts.length * 2);
      starts.set(this.starts);
      this.starts = starts;
      const lengths = new Uint32Array(this.lengths.length * 2);
      lengths.set(this.lengths);
      this.lengths = lengths;
    }
    this.starts[this.count] = (this.chunks.length - 1) * StringTable.CHUNK + this.used;
    this.lengths[this.count] = written;
    this.count += 1;
    this.used += written;
    this.bytes += written;
    if (this.chunks.length * StringTable.CHUNK > this.limits.maxStringTableBytes + StringTable.CHUNK) {
      throw new XlsxError("unsupported", `The file's text takes more than ${Math.round(this.limits.maxStringTableBytes / 1024 / 1024)} MB; split it into smaller files.`);
    }
  }

  get(index: number): string {
    if (!(index >= 0 && index < this.count) || this.lengths[index] === 0) return "";
    const start = this.starts[index]!;
    const chunk = this.chunks[Math.floor(start / StringTable.CHUNK)]!;
    const offset = start % StringTable.CHUNK;
    return this.decoder.decode(chunk.subarray(offset, offset + this.lengths[index]!));
  }
}

/** Built-in number formats that are dates or times (ECMA-376 §18.8.30, plus the CJK ones Excel uses). */
const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58]);

/** Whether a custom format code shows a date or time: d, m, y, h or s outside quotes, escapes and [colours]. */
export function isDateFormatCode(code: string): boolean {
  const bare = code
    .replace(/"[^"]*"/g, "")
    .replace(/\\./g, "")
    .replace(/\[(?!h\]|m\]|s\]|hh\]|mm\]|ss\])[^\]]*\]/gi, "")
    .replace(/_.|\*./g, "");
  if (/general/i.test(bare)) return false;
  return /[dmyhs]/i.test(bare);
}

const MS_PER_DAY = 86_400_000;

/**
 * An Excel serial date as ISO text: "YYYY-MM-DD", or "YYYY-MM-DDTHH:MM:SS" with a time of day.
 * 1900 system: serial 1 is 1900-01-01 and Excel counts a 1900-02-29 (serial 60) that never was.
 */
export function excelSerialToIso(serial: number, date1904 = false): string {
  let ms: number;
  if (date1904) ms = Date.UTC(1904, 0, 1) + serial * MS_PER_DAY;
  else if (serial < 60) ms = Date.UTC(1899, 11, 31) + serial * MS_PER_DAY;
  else ms = Date.UTC(1899, 11, 30) + serial * MS_PER_DAY;
  const rounded = Math.round(ms / 1000) * 1000;
  const iso = new Date(rounded).toISOString();
  return rounded % MS_PER_DAY === 0 ? iso.slice(0, 10) : iso.slice(0, 19);
}

/** A numeric cell's text in plain decimal ("5.511987654321E+12" → "5511987654321"). */
export function numberText(raw: string): string {
  if (/^-?\d+$/.test(raw)) return raw;
  const n = Number(raw);
  if (!Number.isFinite(n) || raw.trim() === "") return raw;
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return n.toFixed(0);
  return String(n);
}

/** 0-based column of a cell reference ("A1" → 0, "AB7" → 27), or -1 when it has no letters. */
function columnOf(ref: string): number {
  let col = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c >= 65 && c <= 90) col = col * 26 + (c - 64);
    else if (c >= 97 && c <= 122) col = col * 26 + (c - 96);
    else break;
  }
  return i === 0 ? -1 : col - 1;
}

/** Reads a small part whole (bounded), feeding it to `handlers`. */
async function parseSmallPart(source: ByteSource, entry: ZipEntry, limits: XlsxLimits, handlers: XmlHandlers): Promise<void> {
  const feeder = xmlFeeder(entry.name, handlers);
  for await (const chunk of inflateEntry(source, entry, partLimits(limits.maxSmallPartBytes, limits))) feeder.write(chunk);
  feeder.end();
}

function partLimits(maxBytes: number, limits: XlsxLimits): InflateLimits {
  return { maxBytes, maxRatio: limits.maxRatio, ratioFloorBytes: limits.ratioFloorBytes };
}

/** Resolves a relationship target against the part that holds the relationships ("xl/"). */
function resolveTarget(base: string, target: string): string {
  const parts = (target.startsWith("/") ? target.slice(1) : base + target).split("/");
  const out: string[] = [];
  for (const part of parts) {
    if (part === "..") out.pop();
    else if (part !== "." && part !== "") out.push(part);
  }
  return out.join("/");
}

/**
 * Opens an .xlsx: checks it is a zip holding `[Content_Types].xml` and `xl/workbook.xml`, finds
 * the first sheet, the shared strings and the styles. Throws XlsxError: `not_xlsx` when it is not
 * a spreadsheet (any other file, a zip of something else, a legacy .xls), `damaged`, `encrypted`,
 * `unsupported`, `zip_bomb` (see zip-reader).
 */
export async function openXlsx(source: ByteSource, limits: XlsxLimits = DEFAULT_XLSX_LIMITS): Promise<XlsxWorkbook> {
  try {
    return await open(source, limits);
  } catch (error) {
    throw asXlsxError(error);
  }
}

async function open(source: ByteSource, limits: XlsxLimits): Promise<XlsxWorkbook> {
  let entries: Map<string, ZipEntry>;
  try {
    entries = await readZipDirectory(source);
  } catch (error) {
    if (error instanceof ZipError && error.reason === "not_zip") throw new XlsxError("not_xlsx", "The file must be .xlsx");
    throw error;
  }
  const workbookEntry = entries.get("xl/workbook.xml");
  if (!entries.has("[Content_Types].xml") || !workbookEntry) throw new XlsxError("not_xlsx", "The file must be .xlsx");

  let date1904 = false;
  const declared: { name: string; rel: string; hidden: boolean }[] = [];
  await parseSmallPart(source, workbookEntry, limits, {
    open(name, attributes) {
      if (name === "workbookPr") date1904 = attributes.date1904 === "1" || attributes.date1904 === "true";
      if (name === "sheet") {
        declared.push({
          name: attributes.name ?? "",
          rel: Object.entries(attributes).find(([key]) => localName(key) === "id" && key !== "sheetId")?.[1] ?? "",
          hidden: attributes.state === "hidden" || attributes.state === "veryHidden",
        });
      }
    },
  });

  const targets = new Map<string, { target: string; type: string }>();
  let sharedStringsPart: string | null = null;
  let stylesPart: string | null = null;
  const relsEntry = entries.get("xl/_rels/workbook.xml.rels");
  if (relsEntry) {
    await parseSmallPart(source, relsEntry, limits, {
      open(name, attributes) {
        if (name !== "Relationship" || !attributes.Id || !attributes.Target) return;
        const target = resolveTarget("xl/", attributes.Target);
        targets.set(attributes.Id, { target, type: attributes.Type ?? "" });
        if (attributes.Type?.endsWith("/sharedStrings")) sharedStringsPart = target;
        if (attributes.Type?.endsWith("/styles")) stylesPart = target;
      },
    });
  }
  // Each sheet's part and kind, by its relationship's type (…/worksheet, …/chartsheet, …/dialogsheet,
  // …/xlMacrosheet). A workbook without relationships is read the way Excel names its first sheet.
  const sheets: XlsxSheetInfo[] = [];
  const parts: (string | null)[] = [];
  if (!declared.length) declared.push({ name: "Sheet1", rel: "", hidden: false });
  declared.forEach((d, index) => {
    const rel = targets.get(d.rel);
    let kind: XlsxSheetKind;
    let part: string | null;
    if (rel) {
      part = rel.target;
      kind = rel.type.endsWith("/worksheet") ? "worksheet" : rel.type.endsWith("/chartsheet") ? "chartsheet" : "other";
    } else if (index === 0) {
      part = "xl/worksheets/sheet1.xml";
      kind = "worksheet";
    } else {
      part = null;
      kind = "other";
    }
    sheets.push({ index, name: d.name || `Sheet${index + 1}`, kind, hidden: d.hidden });
    parts.push(part);
  });
  const firstWorksheet = sheets.find((sheet) => sheet.kind === "worksheet");
  const firstPart = firstWorksheet ? (parts[firstWorksheet.index] ?? null) : null;
  if (firstPart !== null && !entries.has(firstPart)) throw new XlsxError("damaged", "The file is damaged (the workbook names a sheet it does not hold).");
  const sharedEntry = entries.get(sharedStringsPart ?? "xl/sharedStrings.xml");
  const stylesEntry = entries.get(stylesPart ?? "xl/styles.xml");

  // Which cell styles (cellXfs indexes) show numbers as dates.
  const dateStyles = new Set<number>();
  if (stylesEntry) {
    const customDates = new Set<number>();
    const xfFormats: number[] = [];
    let inCellXfs = false;
    await parseSmallPart(source, stylesEntry, limits, {
      open(name, attributes, selfClosing) {
        if (name === "numFmt" && attributes.numFmtId && attributes.formatCode !== undefined) {
          if (isDateFormatCode(attributes.formatCode)) customDates.add(Number(attributes.numFmtId));
        } else if (name === "cellXfs") inCellXfs = !selfClosing;
        else if (name === "xf" && inCellXfs) xfFormats.push(Number(attributes.numFmtId ?? 0));
      },
      close(name) {
        if (name === "cellXfs") inCellXfs = false;
      },
    });
    xfFormats.forEach((format, index) => {
      if (BUILTIN_DATE_FORMATS.has(format) || customDates.has(format)) dateStyles.add(index);
    });
  }

  let strings: StringTable | null = null;
  async function loadStrings(): Promise<StringTable> {
    const table = new StringTable(limits);
    if (!sharedEntry) return table;
    let inSi = false;
    let inPhonetic = 0;
    let inT = false;
    let text = "";
    const feeder = xmlFeeder(sharedEntry.name, {
      open(name, _attributes, selfClosing) {
        // saxes also emits closetag for a self-closing <si/>, which adds the empty string there.
        if (name === "si") {
          inSi = true;
          text = "";
        } else if (name === "rPh") inPhonetic += selfClosing ? 0 : 1;
        else if (name === "t" && inSi && !inPhonetic) inT = !selfClosing;
      },
      close(name) {
        if (name === "si" && inSi) {
          table.add(text);
          inSi = false;
          text = "";
        } else if (name === "rPh") inPhonetic = Math.max(0, inPhonetic - 1);
        else if (name === "t") inT = false;
      },
      text(value) {
        if (inT && text.length < MAX_CELL_CHARS) text += value.length + text.length > MAX_CELL_CHARS ? value.slice(0, MAX_CELL_CHARS - text.length) : value;
      },
    });
    let sinceYield = 0;
    for await (const chunk of inflateEntry(source, sharedEntry, partLimits(limits.maxSharedStringsXmlBytes, limits))) {
      feeder.write(chunk);
      sinceYield += chunk.length;
      if (sinceYield >= XML_BYTES_PER_YIELD) {
        sinceYield = 0;
        await yieldToOthers();
      }
    }
    feeder.end();
    return table;
  }

  /** The zip entry of the worksheet at `index` (default: the first worksheet). */
  function worksheetEntry(index: number | undefined): ZipEntry {
    const info = index === undefined ? firstWorksheet : sheets[index];
    if (!info || info.kind !== "worksheet") throw new XlsxError("no_worksheet", `Sheet ${String(index ?? 0)} is not a worksheet.`);
    const part = parts[info.index];
    const entry = part ? entries.get(part) : undefined;
    if (!entry) throw new XlsxError("damaged", "The file is damaged (the workbook names a sheet it does not hold).");
    return entry;
  }

  async function* rows(scan: RowScan = {}, sheetIndex?: number): AsyncGenerator<XlsxRow> {
    scan.complete = false;
    scan.xmlBytes = 0;
    scan.dimensionRows = undefined;
    try {
      const sheetEntry = worksheetEntry(sheetIndex);
      strings ??= await loadStrings();
      const table = strings;
      const ready: XlsxRow[] = [];
      let rowNumber = 0;
      let cells: string[] = [];
      let filled = false;
      let col = -1;
      let nextCol = 0;
      let type = "n";
      let style = 0;
      let capture = false; // inside <v>, or a <t> of an inline string (not phonetic)
      let inInline = false;
      let inPhonetic = 0;
      let value = "";

      const feeder = xmlFeeder(sheetEntry.name, {
        open(name, attributes, selfClosing) {
          switch (name) {
            case "row": {
              const r = Number(attributes.r);
              rowNumber = Number.isInteger(r) && r > rowNumber ? r : rowNumber + 1;
              cells = [];
              filled = false;
              nextCol = 0;
              if (selfClosing) return;
              break;
            }
            case "c": {
              const ref = attributes.r;
              const at = ref ? columnOf(ref) : -1;
              col = at >= 0 ? at : nextCol;
              nextCol = col + 1;
              type = attributes.t ?? "n";
              style = Number(attributes.s ?? 0);
              value = "";
              if (selfClosing) col = -1;
              break;
            }
            case "v":
              capture = !selfClosing && !inInline;
              break;
            case "is":
              inInline = !selfClosing;
              break;
            case "rPh":
              if (!selfClosing) inPhonetic += 1;
              break;
            case "t":
              capture = inInline && !inPhonetic && !selfClosing;
              break;
            case "dimension": {
              const last = /(\d+)$/.exec(attributes.ref ?? "");
              if (last) scan.dimensionRows = Number(last[1]);
              break;
            }
          }
        },
        close(name) {
          switch (name) {
            case "v":
            case "t":
              capture = false;
              break;
            case "rPh":
              inPhonetic = Math.max(0, inPhonetic - 1);
              break;
            case "is":
              inInline = false;
              break;
            case "c": {
              if (col >= 0 && col < limits.maxColumns) {
                const text = cellText(type, style, value);
                if (text !== "") {
                  while (cells.length < col) cells.push("");
                  cells[col] = text;
                  filled = true;
                }
              }
              col = -1;
              value = "";
              break;
            }
            case "row":
              if (filled) ready.push({ row: rowNumber, cells: cells.map((c) => c ?? "") });
              cells = [];
              filled = false;
              break;
          }
        },
        text(text) {
          if (!capture) return;
          if (value.length + text.length > MAX_CELL_CHARS) {
            throw new XlsxError("damaged", `The file is damaged (a cell in row ${rowNumber} holds more than ${MAX_CELL_CHARS.toLocaleString("en-US")} characters).`);
          }
          value += text;
        },
      });

      function cellText(t: string, s: number, raw: string): string {
        switch (t) {
          case "s":
            return raw === "" ? "" : table.get(Number(raw));
          case "inlineStr":
          case "str":
          case "e":
            return raw;
          case "b":
            return raw === "" ? "" : raw === "1" || raw.toLowerCase() === "true" ? "TRUE" : "FALSE";
          case "d":
            return raw.endsWith("T00:00:00") ? raw.slice(0, 10) : raw;
          default: {
            if (raw === "") return "";
            if (dateStyles.has(s)) {
              const serial = Number(raw);
              if (Number.isFinite(serial) && serial >= 0 && serial < 2958466) return excelSerialToIso(serial, date1904);
            }
            return numberText(raw);
          }
        }
      }

      let sinceYield = 0;
      for await (const chunk of inflateEntry(source, sheetEntry, partLimits(limits.maxSheetBytes, limits))) {
        scan.xmlBytes += chunk.length;
        feeder.write(chunk);
        if (ready.length) yield* ready.splice(0);
        if (scan.budgetBytes !== undefined && scan.xmlBytes >= scan.budgetBytes) return;
        sinceYield += chunk.length;
        if (sinceYield >= XML_BYTES_PER_YIELD) {
          sinceYield = 0;
          await yieldToOthers();
        }
      }
      feeder.end();
      if (ready.length) yield* ready.splice(0);
      scan.complete = true;
    } catch (error) {
      throw asXlsxError(error);
    }
  }

  return { sheets, sheet: firstPart, rows };
}
