/**
 * The streaming .xlsx reader and writer on their own: an Excel-like workbook, round trips with
 * formula-like text, and hostile files failing with a clear XlsxError.
 */
import { describe, expect, it } from "vitest";
import { strToU8, unzipSync, zipSync } from "fflate";
import { openXlsx, XlsxError, excelSerialToIso, isDateFormatCode, numberText, type XlsxRow } from "./xlsx-reader";
import { memorySource } from "./zip-reader";
import { chartFirstXlsx, contactRows, damageSheet, emptySharedStringXlsx, excelLikeRows, excelLikeXlsx, workbookXlsx, xlsxOf, zipBombXlsx } from "../test/xlsx-fixtures";

async function readAll(bytes: Uint8Array): Promise<XlsxRow[]> {
  const rows: XlsxRow[] = [];
  for await (const row of (await openXlsx(memorySource(bytes))).rows()) rows.push(row);
  return rows;
}

async function failure(promise: Promise<unknown>): Promise<XlsxError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof XlsxError) return error;
    throw error;
  }
  throw new Error("expected an XlsxError");
}

describe("xlsx reader", () => {
  it("an empty shared string first in the table (<si><t/></si>) reads as an empty cell: the file is not damaged", async () => {
    expect(await readAll(emptySharedStringXlsx())).toEqual([
      { row: 1, cells: ["Nome", "Telefone", "Obs"] },
      { row: 2, cells: ["Ana", "+5511970000001"] },
      { row: 3, cells: ["", "+5511970000002", "sem nome"] },
    ]);
    // Anywhere else in the table too, and several of them.
    const rows = await readAll(workbookXlsx([{ name: "A", rows: [{ row: 1, cells: ["x", "", "y", ""] }, { row: 2, cells: ["", "z"] }] }]));
    expect(rows).toEqual([
      { row: 1, cells: ["x", "", "y"] },
      { row: 2, cells: ["", "z"] },
    ]);
  });

  it("lists the sheets with their names and kinds; any worksheet can be read, a chart sheet cannot", async () => {
    const workbook = await openXlsx(memorySource(chartFirstXlsx()));
    expect(workbook.sheets).toEqual([
      { index: 0, name: "Gráfico", kind: "chartsheet", hidden: false },
      { index: 1, name: "Vazia", kind: "worksheet", hidden: false },
      { index: 2, name: "Contatos", kind: "worksheet", hidden: false },
    ]);
    const read = async (sheet?: number) => {
      const out: XlsxRow[] = [];
      for await (const row of workbook.rows({}, sheet)) out.push(row);
      return out;
    };
    // By default the first worksheet (never the chart sheet in front of it).
    expect(await read()).toEqual([]);
    expect(await read(2)).toEqual(contactRows(1, 3));
    expect((await failure(read(0))).reason).toBe("no_worksheet");
    expect((await failure(read(7))).reason).toBe("no_worksheet");
  });

  it("reads an Excel-style workbook: shared strings after the sheet, rich text, dates, numbers, booleans, inline strings", async () => {
    expect(await readAll(excelLikeXlsx())).toEqual(excelLikeRows);
  });

  it("converts serial dates in the 1900 system (with its leap-year bug) and the 1904 system", () => {
    expect(excelSerialToIso(1)).toBe("1900-01-01");
    expect(excelSerialToIso(59)).toBe("1900-02-28");
    expect(excelSerialToIso(61)).toBe("1900-03-01");
    expect(excelSerialToIso(45292)).toBe("2024-01-01");
    expect(excelSerialToIso(45292.75)).toBe("2024-01-01T18:00:00");
    expect(excelSerialToIso(0, true)).toBe("1904-01-01");
    expect(isDateFormatCode("dd/mm/yyyy")).toBe(true);
    expect(isDateFormatCode('[Red]#,##0.00;"day"')).toBe(false);
    expect(isDateFormatCode("0.00%")).toBe(false);
    expect(numberText("5.511987654321E+12")).toBe("5511987654321");
    expect(numberText("1.5")).toBe("1.5");
  });

  it("round-trips what the writer writes, formula-like text included, and marks it quotePrefix", async () => {
    const rows = [
      ["Name", "Phone", "Note"],
      ["=HYPERLINK(\"http://evil\",\"x\")", "+5511987654321", "-1+2"],
      ["@SUM(A1)", "\tTab", "plain <b>&amp;</b>"],
      ["Zoë 👋", 42, true],
    ];
    const bytes = xlsxOf(rows);
    const read = await readAll(bytes);
    expect(read.map((r) => r.cells)).toEqual([
      ["Name", "Phone", "Note"],
      ["=HYPERLINK(\"http://evil\",\"x\")", "+5511987654321", "-1+2"],
      ["@SUM(A1)", "\tTab", "plain <b>&amp;</b>"],
      ["Zoë 👋", "42", "TRUE"],
    ]);
    const sheet = new TextDecoder().decode(unzipSync(bytes)["xl/worksheets/sheet1.xml"]);
    expect(sheet).not.toContain("<f>");
    // Every formula-like cell is an inline string with the quotePrefix style (s="1").
    expect(sheet).toContain('<c r="A2" t="inlineStr" s="1"><is><t>=HYPERLINK(&quot;http://evil&quot;,&quot;x&quot;)</t></is></c>');
    expect(sheet).toContain('<c r="B2" t="inlineStr" s="1">');
    expect(sheet).toContain('<c r="C2" t="inlineStr" s="1">');
    expect(sheet).toContain('<c r="A3" t="inlineStr" s="1">');
    expect(sheet).toContain('<c r="C3" t="inlineStr"><is>');
    const styles = new TextDecoder().decode(unzipSync(bytes)["xl/styles.xml"]);
    expect(styles).toContain('quotePrefix="1"');
  });

  it("refuses what is not an .xlsx: text, a zip of something else", async () => {
    expect((await failure(openXlsx(memorySource(strToU8("name,phone\nAna,+5511987654321\n"))))).reason).toBe("not_xlsx");
    expect((await failure(openXlsx(memorySource(zipSync({ "word/document.xml": strToU8("<w/>") }))))).reason).toBe("not_xlsx");
  });

  it("a truncated file fails as damaged, naming the cut", async () => {
    const bytes = xlsxOf([["Name"], ["Ana"]]);
    const error = await failure(openXlsx(memorySource(bytes.slice(0, Math.floor(bytes.length / 2)))));
    expect(error.reason).toBe("damaged");
    expect(error.message).toMatch(/cut short/);
  });

  it("damaged compressed data fails the scan as damaged after the rows before it", async () => {
    const rows = [["Name", "Phone"], ...Array.from({ length: 20_000 }, (_, i) => [`Contact ${i}`, `+55119${String(i).padStart(8, "0")}`])];
    const bytes = await damageSheet(xlsxOf(rows), 0.7);
    let seen = 0;
    const error = await failure(
      (async () => {
        for await (const _row of (await openXlsx(memorySource(bytes))).rows()) seen += 1;
      })(),
    );
    expect(error.reason).toBe("damaged");
    expect(seen).toBeGreaterThan(100);
  });

  it("a zip bomb fails as zip_bomb without inflating it whole", async () => {
    const error = await failure(readAll(zipBombXlsx(40)));
    expect(error.reason).toBe("zip_bomb");
    expect(error.message).toMatch(/zip bomb/);
  });

  it("a run of text without markup longer than 1 MB fails as damaged (the parser would buffer it)", async () => {
    const sheet = `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c t="inlineStr"><is><t>${"x".repeat(1_100_000)}</t></is></c></row></sheetData></worksheet>`;
    const bytes = zipSync({ "[Content_Types].xml": strToU8("<Types/>"), "xl/workbook.xml": strToU8("<workbook/>"), "xl/worksheets/sheet1.xml": strToU8(sheet) });
    expect((await failure(readAll(bytes))).reason).toBe("damaged");
  });

  it("malformed XML in the sheet fails as damaged", async () => {
    const bytes = zipSync({
      "[Content_Types].xml": strToU8("<Types/>"),
      "xl/workbook.xml": strToU8("<workbook/>"),
      "xl/worksheets/sheet1.xml": strToU8("<worksheet><sheetData><row><c><v>1</c></row></sheetData></worksheet>"),
    });
    const error = await failure(readAll(bytes));
    expect(error.reason).toBe("damaged");
    expect(error.message).toMatch(/not valid XML/);
  });

  it("yields to the isolate's other work while it reads a large shared-strings part and sheet (issue 16)", async () => {
    // 10,000 contacts: about 1 MB of shared strings and 0.9 MB of sheet XML, read from memory (no I/O to wait on).
    const workbook = await openXlsx(memorySource(workbookXlsx([{ name: "Contatos", rows: contactRows(1, 10_000) }])));
    let turns = 0;
    let stop = false;
    const tick = () => {
      if (stop) return;
      turns += 1;
      setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
    const rows = workbook.rows();
    const first = await rows.next();
    // The shared strings are read before the first row: other work ran meanwhile.
    const beforeFirstRow = turns;
    let count = first.done ? 0 : 1;
    for await (const _row of rows) count += 1;
    stop = true;
    expect(count).toBe(10_001);
    expect(beforeFirstRow).toBeGreaterThanOrEqual(2);
    expect(turns).toBeGreaterThanOrEqual(beforeFirstRow + 2);
  }, 30_000);
});
