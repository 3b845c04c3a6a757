/**
 * .xlsx files for tests: ones written by the product's writer, an Excel-like one built by hand
 * (shared strings after the sheet, rich text with phonetic runs, styles with date formats, numbers
 * in exponent form, booleans, sparse cells), and hostile ones (zip bomb, damaged data, truncation).
 */
import { deflateSync, zipSync, strToU8, Deflate } from "fflate";
import { concatBytes, type XlsxCell, XlsxWriter } from "../lib/xlsx-writer";
import { readZipDirectory, memorySource } from "../lib/zip-reader";

/** An .xlsx of `rows` (the first is the header) from XlsxWriter. */
export function xlsxOf(rows: XlsxCell[][]): Uint8Array {
  const writer = new XlsxWriter({ level: 1 });
  const chunks: Uint8Array[] = [];
  rows.forEach((row, i) => {
    writer.addRow(row, { header: i === 0 });
    if (i % 1000 === 0) chunks.push(...writer.take());
  });
  chunks.push(...writer.finish());
  return concatBytes(chunks);
}

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/** The parts around a sheet, as Excel names them. */
function packageParts(sheetXml: Uint8Array, extra: Record<string, Uint8Array> = {}): Record<string, Uint8Array> {
  return {
    "[Content_Types].xml": strToU8(
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>',
    ),
    "_rels/.rels": strToU8(`<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
    "xl/workbook.xml": strToU8(`<?xml version="1.0"?><workbook ${NS} xmlns:r="${REL}"><workbookPr/><sheets><sheet name="Data" sheetId="1" r:id="rId7"/></sheets></workbook>`),
    "xl/_rels/workbook.xml.rels": strToU8(
      `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        `<Relationship Id="rId7" Type="${REL}/worksheet" Target="/xl/worksheets/data.xml"/>` +
        `<Relationship Id="rId8" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>` +
        `<Relationship Id="rId9" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
    ),
    "xl/worksheets/data.xml": sheetXml,
    ...extra,
  };
}

/**
 * An .xlsx laid out the way Excel writes one: shared strings (stored AFTER the sheet in the zip),
 * a rich-text string with a phonetic run, a custom date format and a built-in one, a phone saved
 * as a number in exponent form, a boolean, an inline string, a formula with its cached value, and
 * a gap between cells. Its rows read as `excelLikeRows`.
 */
export function excelLikeXlsx(): Uint8Array {
  const sheet =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet ${NS}><dimension ref="A1:F3"/><sheetData>` +
    '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c><c r="F1" t="s"><v>4</v></c></row>' +
    '<row r="3"><c r="A3" t="s"><v>5</v></c><c r="B3"><v>5.511987654321E+12</v></c><c r="C3" s="1"><v>45292</v></c><c r="D3" t="b"><v>1</v></c>' +
    '<c r="E3"><f>1+1</f><v>2</v></c><c r="F3" t="inlineStr"><is><t xml:space="preserve"> inline &amp; co </t></is></c></row>' +
    '<row r="4"><c r="A4" t="s"><v>6</v></c><c r="B4" t="str"><v>+55 11 98888-7777</v></c><c r="C4" s="2"><v>45292.5</v></c><c r="D4" t="b"><v>0</v></c></row>' +
    "</sheetData></worksheet>";
  const shared =
    `<?xml version="1.0"?><sst ${NS} count="7" uniqueCount="7">` +
    "<si><t>Nome</t></si><si><t>Telefone</t></si><si><t>Nascimento</t></si><si><t>VIP</t></si><si><t>Tags</t></si>" +
    '<si><r><rPr><b/></rPr><t>José</t></r><r><t xml:space="preserve"> da Silva</t></r><rPh sb="0" eb="1"><t>ホセ</t></rPh></si>' +
    "<si><t>Ana &lt;Souza&gt;</t></si></sst>";
  const styles =
    `<?xml version="1.0"?><styleSheet ${NS}><numFmts count="1"><numFmt numFmtId="164" formatCode="dd/mm/yyyy\\ hh:mm"/></numFmts>` +
    '<cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/><xf numFmtId="164" applyNumberFormat="1"/></cellXfs></styleSheet>';
  const parts = packageParts(strToU8(sheet));
  // zipSync keeps insertion order: the shared strings and styles go after the sheet.
  return zipSync({ ...parts, "xl/sharedStrings.xml": strToU8(shared), "xl/styles.xml": strToU8(styles) });
}

/** What excelLikeXlsx reads as. */
export const excelLikeRows = [
  { row: 1, cells: ["Nome", "Telefone", "Nascimento", "VIP", "", "Tags"] },
  { row: 3, cells: ["José da Silva", "5511987654321", "2024-01-01", "TRUE", "2", " inline & co "] },
  { row: 4, cells: ["Ana <Souza>", "+55 11 98888-7777", "2024-01-01T12:00:00", "FALSE"] },
];

/**
 * A zip bomb: a valid header and two contact rows, then `megabytes` MB of empty `<row/>` elements
 * that deflate about 1000:1. The preview reads fine; the whole sheet trips the ratio limit.
 */
export function zipBombXlsx(megabytes = 40): Uint8Array {
  const head = strToU8(
    `<?xml version="1.0"?><worksheet ${NS}><sheetData>` +
      '<row r="1"><c t="inlineStr"><is><t>Name</t></is></c><c t="inlineStr"><is><t>Phone</t></is></c></row>' +
      '<row r="2"><c t="inlineStr"><is><t>Ana</t></is></c><c t="inlineStr"><is><t>+5511987650001</t></is></c></row>' +
      '<row r="3"><c t="inlineStr"><is><t>Bia</t></is></c><c t="inlineStr"><is><t>+5511987650002</t></is></c></row>',
  );
  const filler = strToU8("<row/>".repeat(1024 * 1024 / 6));
  const tail = strToU8("</sheetData></worksheet>");
  const out: Uint8Array[] = [];
  const deflater = new Deflate({ level: 9 }, (data) => out.push(data));
  deflater.push(head);
  for (let i = 0; i < megabytes; i++) deflater.push(filler);
  deflater.push(tail, true);
  const compressed = concatBytes(out);
  // Hand-assembled so the declared sizes and CRC are those of the real content (a bomb need not lie).
  let crc = 0xffffffff;
  let size = 0;
  const table = crcTable();
  const fold = (data: Uint8Array) => {
    for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
    size += data.length;
  };
  fold(head);
  for (let i = 0; i < megabytes; i++) fold(filler);
  fold(tail);
  const sheet = { name: "xl/worksheets/data.xml", data: compressed, crc: (crc ^ 0xffffffff) >>> 0, size };
  const others = Object.entries(packageParts(new Uint8Array(0)))
    .filter(([name]) => name !== "xl/worksheets/data.xml")
    .map(([name, data]) => ({ name, data: deflateSync(data), crc: crcOf(data), size: data.length }));
  return rawZip([...others, sheet]);
}

function crcTable(): Int32Array {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
}

function crcOf(data: Uint8Array): number {
  const table = crcTable();
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** A zip of already-deflated entries (method 8). */
function rawZip(entries: { name: string; data: Uint8Array; crc: number; size: number }[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = strToU8(e.name);
    const local = new Uint8Array(30 + name.length);
    const v = new DataView(local.buffer);
    v.setUint32(0, 0x04034b50, true);
    v.setUint16(4, 20, true);
    v.setUint16(8, 8, true);
    v.setUint32(14, e.crc, true);
    v.setUint32(18, e.data.length, true);
    v.setUint32(22, e.size, true);
    v.setUint16(26, name.length, true);
    local.set(name, 30);
    const dir = new Uint8Array(46 + name.length);
    const d = new DataView(dir.buffer);
    d.setUint32(0, 0x02014b50, true);
    d.setUint16(4, 20, true);
    d.setUint16(6, 20, true);
    d.setUint16(10, 8, true);
    d.setUint32(16, e.crc, true);
    d.setUint32(20, e.data.length, true);
    d.setUint32(24, e.size, true);
    d.setUint16(28, name.length, true);
    d.setUint32(42, offset, true);
    dir.set(name, 46);
    parts.push(local, e.data);
    central.push(dir);
    offset += local.length + e.data.length;
  }
  const dirBytes = concatBytes(central);
  const end = new Uint8Array(22);
  const x = new DataView(end.buffer);
  x.setUint32(0, 0x06054b50, true);
  x.setUint16(8, entries.length, true);
  x.setUint16(10, entries.length, true);
  x.setUint32(12, dirBytes.length, true);
  x.setUint32(16, offset, true);
  return concatBytes([...parts, dirBytes, end]);
}

/**
 * `bytes` (an .xlsx) with the compressed data of its sheet damaged at `fraction` of its length
 * (the directory intact): the start of the sheet reads fine, the rest does not.
 */
export async function damageSheet(bytes: Uint8Array, fraction = 0.7): Promise<Uint8Array> {
  const entries = await readZipDirectory(memorySource(bytes));
  const sheet = entries.get("xl/worksheets/sheet1.xml");
  if (!sheet) throw new Error("no sheet1.xml");
  const nameLength = bytes[sheet.localHeaderOffset + 26]! | (bytes[sheet.localHeaderOffset + 27]! << 8);
  const extraLength = bytes[sheet.localHeaderOffset + 28]! | (bytes[sheet.localHeaderOffset + 29]! << 8);
  const start = sheet.localHeaderOffset + 30 + nameLength + extraLength;
  const out = bytes.slice();
  const at = start + Math.floor(sheet.compressedSize * fraction);
  for (let i = 0; i < 64; i++) out[at + i] = 0xff;
  return out;
}

/** One sheet of {@link workbookXlsx}: a worksheet with rows (sheet row number and cells), or a chart sheet. */
export type FixtureSheet = { name: string; kind?: "worksheet" | "chartsheet"; hidden?: boolean; rows?: { row: number; cells: string[] }[] };

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Column letters of a 0-based index ("A", …, "Z", "AA"). */
function columnName(index: number): string {
  let name = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/**
 * A workbook of several sheets, laid out as Excel writes them: every text cell a shared string
 * (an empty cell text too, written as Excel does: `<si><t/></si>`), chart sheets under
 * xl/chartsheets/ with their own relationship type, hidden sheets with `state="hidden"`.
 * `emptyStringFirst` puts the empty shared string at index 0 (the first chunk of the reader's
 * string table), as Excel does when the first text it met was an emptied cell.
 */
export function workbookXlsx(sheets: FixtureSheet[], options: { emptyStringFirst?: boolean } = {}): Uint8Array {
  const strings: string[] = options.emptyStringFirst ? [""] : [];
  const indexOf = new Map(strings.map((s, i) => [s, i]));
  const stringIndex = (text: string) => {
    let at = indexOf.get(text);
    if (at === undefined) {
      at = strings.length;
      strings.push(text);
      indexOf.set(text, at);
    }
    return at;
  };
  const files: Record<string, Uint8Array> = {};
  const sheetElements: string[] = [];
  const rels: string[] = [];
  let worksheets = 0;
  let charts = 0;
  sheets.forEach((sheet, i) => {
    const rid = `rId${i + 1}`;
    const state = sheet.hidden ? ' state="hidden"' : "";
    sheetElements.push(`<sheet name="${escapeXml(sheet.name)}" sheetId="${i + 1}"${state} r:id="${rid}"/>`);
    if (sheet.kind === "chartsheet") {
      charts += 1;
      rels.push(`<Relationship Id="${rid}" Type="${REL}/chartsheet" Target="chartsheets/sheet${charts}.xml"/>`);
      files[`xl/chartsheets/sheet${charts}.xml`] = strToU8(
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><chartsheet ${NS} xmlns:r="${REL}"><sheetPr/><sheetViews><sheetView workbookViewId="0"/></sheetViews><drawing r:id="rId1"/></chartsheet>`,
      );
      return;
    }
    worksheets += 1;
    rels.push(`<Relationship Id="${rid}" Type="${REL}/worksheet" Target="worksheets/sheet${worksheets}.xml"/>`);
    const rows = (sheet.rows ?? [])
      .map(({ row, cells }) => `<row r="${row}">${cells.map((text, c) => `<c r="${columnName(c)}${row}" t="s"><v>${stringIndex(text)}</v></c>`).join("")}</row>`)
      .join("");
    files[`xl/worksheets/sheet${worksheets}.xml`] = strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet ${NS}><sheetData>${rows}</sheetData></worksheet>`);
  });
  rels.push(`<Relationship Id="rIdStrings" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>`);
  const shared =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst ${NS} count="${strings.length}" uniqueCount="${strings.length}">` +
    strings.map((s) => (s === "" ? "<si><t/></si>" : `<si><t xml:space="preserve">${escapeXml(s)}</t></si>`)).join("") +
    "</sst>";
  return zipSync({
    "[Content_Types].xml": strToU8(
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>',
    ),
    "_rels/.rels": strToU8(`<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
    "xl/workbook.xml": strToU8(`<?xml version="1.0"?><workbook ${NS} xmlns:r="${REL}"><workbookPr/><sheets>${sheetElements.join("")}</sheets></workbook>`),
    "xl/_rels/workbook.xml.rels": strToU8(`<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join("")}</Relationships>`),
    ...files,
    "xl/sharedStrings.xml": strToU8(shared),
  });
}

/** Contacts as sheet rows from `first` on: a header, then `count` rows of name and phone. */
export function contactRows(first: number, count: number, header: string[] = ["Nome", "Telefone"]): { row: number; cells: string[] }[] {
  return [
    { row: first, cells: header },
    ...Array.from({ length: count }, (_, i) => ({ row: first + 1 + i, cells: [`Cliente ${i + 1}`, `+5511970${String(i + 1).padStart(6, "0")}`] })),
  ];
}

/** A valid file whose first shared string is empty (`<si><t/></si>`), used by an emptied cell of the data. */
export function emptySharedStringXlsx(): Uint8Array {
  return workbookXlsx(
    [{ name: "Contatos", rows: [{ row: 1, cells: ["Nome", "Telefone", "Obs"] }, { row: 2, cells: ["Ana", "+5511970000001", ""] }, { row: 3, cells: ["", "+5511970000002", "sem nome"] }] }],
    { emptyStringFirst: true },
  );
}

/** A chart sheet first, then an empty worksheet, then the contacts (header on row 1). */
export function chartFirstXlsx(): Uint8Array {
  return workbookXlsx([{ name: "Gráfico", kind: "chartsheet" }, { name: "Vazia", rows: [] }, { name: "Contatos", rows: contactRows(1, 3) }]);
}

/** A title on row 1, nothing on row 2, the header on row 3 and contacts below it. */
export function headerOnRow3Xlsx(): Uint8Array {
  return workbookXlsx([{ name: "Clientes", rows: [{ row: 1, cells: ["Lista de clientes — novembro"] }, ...contactRows(3, 4)] }]);
}
