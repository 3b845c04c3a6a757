/**
 * PIX helpers of the sandbox provider (issue 13): a copy-and-paste payload in the BR Code (EMV QRCPS)
 * layout with its CRC16, and the QR code as a PNG (8-bit greyscale, zlib via fflate), so the
 * sandbox checkout shows a real, scannable QR without any outside call. The sandbox's key is not a
 * real PIX key: paying it in a bank app fails; "simulate payment" pays it.
 */
import { zlibSync } from "fflate";
import { create } from "qrcode/lib/core/qrcode.js";
import { toBase64 } from "../lib/crypto";

/** One EMV field: id, two-digit length, value. */
function field(id: string, value: string): string {
  return `${id}${String(value.length).padStart(2, "0")}${value}`;
}

/** CRC16/CCITT-FALSE (poly 0x1021, init 0xFFFF), upper-case hex: the BR Code checksum. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

/** ASCII-only, upper-case, at most `max` characters (EMV merchant name and city). */
function plain(text: string, max: number): string {
  return text.normalize("NFD").replace(/[^\x20-\x7e]/g, "").toUpperCase().slice(0, max) || "CONVERSA";
}

/** A static BR Code payload for `valueCents`, key `key`, transaction id `txid` (≤ 25 alphanumerics). */
export function pixPayload(input: { key: string; valueCents: number; merchant: string; city: string; txid: string }): string {
  const account = field("00", "br.gov.bcb.pix") + field("01", input.key);
  const body =
    field("00", "01") +
    field("26", account) +
    field("52", "0000") +
    field("53", "986") +
    field("54", (input.valueCents / 100).toFixed(2)) +
    field("58", "BR") +
    field("59", plain(input.merchant, 25)) +
    field("60", plain(input.city, 15)) +
    field("62", field("05", input.txid.replace(/[^A-Za-z0-9]/g, "").slice(0, 25) || "***")) +
    "6304";
  return body + crc16(body);
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** The QR code of `text` as a PNG, base64 (no data: prefix): `scale` px per module, 4-module quiet zone. */
export function qrPngBase64(text: string, scale = 6): string {
  const { modules } = create(text, { errorCorrectionLevel: "M" });
  const margin = 4;
  const cells = modules.size + margin * 2;
  const width = cells * scale;
  const raw = new Uint8Array((width + 1) * width);
  for (let y = 0; y < width; y++) {
    const row = y * (width + 1);
    raw[row] = 0; // filter: none
    const my = Math.floor(y / scale) - margin;
    for (let x = 0; x < width; x++) {
      const mx = Math.floor(x / scale) - margin;
      const dark = mx >= 0 && my >= 0 && mx < modules.size && my < modules.size && modules.data[my * modules.size + mx] === 1;
      raw[row + 1 + x] = dark ? 0 : 255;
    }
  }
  const header = new Uint8Array(13);
  const hv = new DataView(header.buffer);
  hv.setUint32(0, width);
  hv.setUint32(4, width);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const signature = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);
  const parts = [signature, chunk("IHDR", header), chunk("IDAT", zlibSync(raw)), chunk("IEND", new Uint8Array())];
  const png = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    png.set(p, offset);
    offset += p.length;
  }
  return toBase64(png);
}
