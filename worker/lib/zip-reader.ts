/**
 * Random-access zip reading with bounded memory, for .xlsx files (ECMA-376 packages are zips).
 *
 * The central directory (at the end of the file) is read first, so entries can be opened in any
 * order (Excel often writes xl/sharedStrings.xml after the sheets, which a front-to-back stream
 * reader cannot resolve without buffering the sheet). Each entry's data is then streamed through
 * fflate's streaming `Inflate` in small input slices, so one slice can never expand past
 * INFLATE_SLICE_BYTES × 1032 (deflate's worst ratio) before the limits are checked.
 *
 * Format source: PKWARE APPNOTE.TXT 6.3.x (§4.3.7 local header, §4.3.12 central directory,
 * §4.3.14–16 zip64, §4.3.16 end of central directory).
 */
import { Inflate } from "fflate";

/** Bytes readable at any offset: an upload in memory or an R2 object read by ranges. */
export interface ByteSource {
  /** Total size in bytes. */
  readonly size: number;
  /** Bytes [offset, offset + length); shorter only at the end of the source. */
  read(offset: number, length: number): Promise<Uint8Array>;
  /** The same range as a stream of chunks (any chunk size). */
  stream(offset: number, length: number): AsyncIterable<Uint8Array>;
}

/** Why a zip could not be read. `not_zip`: no zip structure at all (the upload is not an .xlsx). */
export type ZipFailure = "not_zip" | "damaged" | "encrypted" | "unsupported" | "zip_bomb";

/**
 * A zip that cannot be read. `reason` is the stable code callers show (translated) to users;
 * `message` is a detail for logs and tests (it names parts and offsets) and is never shown.
 */
export class ZipError extends Error {
  constructor(
    readonly reason: ZipFailure,
    message: string,
  ) {
    super(message);
  }
}

/** One entry of the central directory. Sizes in bytes, as declared (they may lie: see inflateEntry). */
export type ZipEntry = {
  name: string;
  /** 0 stored, 8 deflate. */
  method: number;
  flags: number;
  crc32: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
};

/** Limits applied while an entry is inflated. */
export type InflateLimits = {
  /** Most bytes the entry may expand to. */
  maxBytes: number;
  /** Past `ratioFloorBytes` of output, output/input above this ratio is treated as a zip bomb. */
  maxRatio: number;
  ratioFloorBytes: number;
};

/** Input fed to the inflater per step: bounds one step's output to ~4 MiB (deflate's max ratio is 1032:1). */
const INFLATE_SLICE_BYTES = 4 * 1024;
/** An xlsx has a handful of parts; a directory this large is hostile. */
const MAX_ENTRIES = 10_000;
const MAX_DIRECTORY_BYTES = 4 * 1024 * 1024;

/** A ByteSource over bytes in memory (an upload being previewed, a test fixture). */
export function memorySource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.byteLength,
    async read(offset, length) {
      return bytes.subarray(offset, Math.min(bytes.byteLength, offset + length));
    },
    async *stream(offset, length) {
      const end = Math.min(bytes.byteLength, offset + length);
      for (let at = offset; at < end; at += 64 * 1024) yield bytes.subarray(at, Math.min(end, at + 64 * 1024));
    },
  };
}

/** A ByteSource over an R2 object (ranged GETs), or null when the object does not exist. */
export async function r2Source(bucket: R2Bucket, key: string): Promise<ByteSource | null> {
  const head = await bucket.head(key);
  if (!head) return null;
  const size = head.size;
  async function get(offset: number, length: number): Promise<R2ObjectBody> {
    const object = await bucket.get(key, { range: { offset, length } });
    if (!object) throw new ZipError("damaged", "The uploaded file is no longer available.");
    return object;
  }
  return {
    size,
    async read(offset, length) {
      const len = Math.min(length, size - offset);
      if (len <= 0) return new Uint8Array(0);
      return new Uint8Array(await (await get(offset, len)).arrayBuffer());
    },
    async *stream(offset, length) {
      const len = Math.min(length, size - offset);
      if (len <= 0) return;
      const reader = (await get(offset, len)).body.getReader();
      let finished = false;
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          yield value;
        }
        finished = true;
      } finally {
        // A caller that stops early (a preview) cancels the rest of the download.
        if (!finished) await reader.cancel().catch(() => undefined);
        reader.releaseLock();
      }
    },
  };
}

const u16 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u32 = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
/** Little-endian u64 as a JS number; values past 2^53 are hostile and become Infinity. */
const u64 = (b: Uint8Array, at: number) => {
  const high = u32(b, at + 4);
  return high >= 0x200000 ? Infinity : high * 0x100000000 + u32(b, at);
};

const damaged = (detail: string) => new ZipError("damaged", `The file is damaged or incomplete (${detail}).`);

/** Whether the source starts with a zip local file header ("PK\3\4"). */
export async function hasZipMagic(source: ByteSource): Promise<boolean> {
  const head = await source.read(0, 4);
  return head.length === 4 && u32(head, 0) === 0x04034b50;
}

/**
 * Reads the central directory. Throws ZipError: `not_zip` without a zip signature, `damaged` when
 * the end record or directory is missing or inconsistent (e.g. a truncated download).
 */
export async function readZipDirectory(source: ByteSource): Promise<Map<string, ZipEntry>> {
  if (!(await hasZipMagic(source))) throw new ZipError("not_zip", "The file is not a zip archive.");
  // The end record is 22 bytes plus a comment of at most 65,535 bytes.
  const tailLength = Math.min(source.size, 22 + 0xffff);
  const tailStart = source.size - tailLength;
  const tail = await source.read(tailStart, tailLength);
  let eocd = -1;
  for (let at = tail.length - 22; at >= 0; at--) {
    if (u32(tail, at) === 0x06054b50) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw damaged("no end of central directory; the file may have been cut short");
  let count = u16(tail, eocd + 10);
  let dirSize = u32(tail, eocd + 12);
  let dirOffset = u32(tail, eocd + 16);
  if (count === 0xffff || dirSize === 0xffffffff || dirOffset === 0xffffffff) {
    // Zip64: the locator sits just before the end record and points at the zip64 end record.
    const locatorAt = eocd - 20;
    if (locatorAt < 0 || u32(tail, locatorAt) !== 0x07064b50) throw damaged("zip64 locator missing");
    const recordOffset = u64(tail, locatorAt + 8);
    if (!(recordOffset < source.size)) throw damaged("zip64 record out of range");
    const record = await source.read(recordOffset, 56);
    if (record.length < 56 || u32(record, 0) !== 0x06064b50) throw damaged("zip64 record missing");
    count = u64(record, 32);
    dirSize = u64(record, 40);
    dirOffset = u64(record, 48);
  }
  if (count > MAX_ENTRIES) throw new ZipError("unsupported", `The file holds more than ${MAX_ENTRIES} parts.`);
  if (dirSize > MAX_DIRECTORY_BYTES || dirOffset + dirSize > source.size) throw damaged("central directory out of range");
  const dir = await source.read(dirOffset, dirSize);
  const entries = new Map<string, ZipEntry>();
  const names = new TextDecoder();
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > dir.length || u32(dir, at) !== 0x02014b50) throw damaged("bad central directory entry");
    const nameLength = u16(dir, at + 28);
    const extraLength = u16(dir, at + 30);
    const commentLength = u16(dir, at + 32);
    if (at + 46 + nameLength + extraLength + commentLength > dir.length) throw damaged("bad central directory entry");
    const entry: ZipEntry = {
      name: names.decode(dir.subarray(at + 46, at + 46 + nameLength)),
      flags: u16(dir, at + 8),
      method: u16(dir, at + 10),
      crc32: u32(dir, at + 16),
      compressedSize: u32(dir, at + 20),
      size: u32(dir, at + 24),
      localHeaderOffset: u32(dir, at + 42),
    };
    // Zip64 extended information (header id 1): the 64-bit values of the fields set to 0xFFFFFFFF, in order.
    let extra = at + 46 + nameLength;
    const extraEnd = extra + extraLength;
    while (extra + 4 <= extraEnd) {
      const id = u16(dir, extra);
      const length = u16(dir, extra + 2);
      if (id === 1) {
        let field = extra + 4;
        if (entry.size === 0xffffffff && field + 8 <= extra + 4 + length) (entry.size = u64(dir, field)), (field += 8);
        if (entry.compressedSize === 0xffffffff && field + 8 <= extra + 4 + length) (entry.compressedSize = u64(dir, field)), (field += 8);
        if (entry.localHeaderOffset === 0xffffffff && field + 8 <= extra + 4 + length) entry.localHeaderOffset = u64(dir, field);
      }
      extra += 4 + length;
    }
    if (entry.localHeaderOffset + 30 > source.size || entry.localHeaderOffset + entry.compressedSize > source.size) {
      throw damaged(`part ${entry.name} lies past the end of the file`);
    }
    entries.set(entry.name, entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * Streams an entry's uncompressed bytes. Throws ZipError: `encrypted` (password-protected),
 * `unsupported` (a compression other than stored/deflate), `zip_bomb` (past `limits`), `damaged`
 * (bad local header, corrupt or truncated deflate data, CRC or size mismatch).
 */
export async function* inflateEntry(source: ByteSource, entry: ZipEntry, limits: InflateLimits): AsyncGenerator<Uint8Array> {
  if (entry.flags & 1) throw new ZipError("encrypted", "The file is password-protected.");
  if (entry.method !== 0 && entry.method !== 8) throw new ZipError("unsupported", `The file uses an unsupported compression (method ${entry.method}).`);
  const header = await source.read(entry.localHeaderOffset, 30);
  if (header.length < 30 || u32(header, 0) !== 0x04034b50) throw damaged(`bad local header of ${entry.name}`);
  const dataStart = entry.localHeaderOffset + 30 + u16(header, 26) + u16(header, 28);
  if (dataStart + entry.compressedSize > source.size) throw damaged(`part ${entry.name} is cut short`);

  let produced = 0;
  let consumed = 0;
  let crc = 0xffffffff;
  const out: Uint8Array[] = [];
  const check = () => {
    if (produced > limits.maxBytes) {
      throw new ZipError("zip_bomb", `The file expands to more than ${Math.round(limits.maxBytes / 1024 / 1024)} MB when unzipped (${entry.name}); it looks like a zip bomb.`);
    }
    if (produced > limits.ratioFloorBytes && produced > consumed * limits.maxRatio) {
      throw new ZipError("zip_bomb", `The file expands more than ${limits.maxRatio} times when unzipped (${entry.name}); it looks like a zip bomb.`);
    }
  };
  const accept = (data: Uint8Array) => {
    produced += data.length;
    crc = crc32Update(crc, data);
    out.push(data);
  };

  if (entry.method === 0) {
    for await (const chunk of source.stream(dataStart, entry.compressedSize)) {
      consumed += chunk.length;
      accept(chunk);
      check();
      yield* out.splice(0);
    }
  } else {
    let ended = false;
    const inflater = new Inflate((data, final) => {
      accept(data);
      if (final) ended = true;
    });
    try {
      for await (const chunk of source.stream(dataStart, entry.compressedSize)) {
        for (let at = 0; at < chunk.length && !ended; at += INFLATE_SLICE_BYTES) {
          const slice = chunk.subarray(at, Math.min(chunk.length, at + INFLATE_SLICE_BYTES));
          consumed += slice.length;
          inflater.push(slice, false);
          check();
          if (out.length) yield* out.splice(0);
        }
      }
      if (!ended) inflater.push(new Uint8Array(0), true);
    } catch (error) {
      if (error instanceof ZipError) throw error;
      throw damaged(`corrupt compressed data in ${entry.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
    check();
    if (out.length) yield* out.splice(0);
    if (!ended) throw damaged(`compressed data of ${entry.name} is cut short`);
  }
  if (consumed < entry.compressedSize && entry.method === 0) throw damaged(`part ${entry.name} is cut short`);
  if (produced !== entry.size) throw damaged(`${entry.name} is ${produced} bytes, the directory says ${entry.size}`);
  if ((crc ^ 0xffffffff) >>> 0 !== entry.crc32) throw damaged(`checksum mismatch in ${entry.name}`);
}

/** CRC-32 (IEEE 802.3, reflected 0xEDB88320), as zip uses; slicing-by-1 table. */
const CRC_TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** Folds `data` into a running CRC (start with 0xFFFFFFFF, finish with `^ 0xFFFFFFFF`). */
export function crc32Update(crc: number, data: Uint8Array): number {
  let c = crc;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return c;
}
