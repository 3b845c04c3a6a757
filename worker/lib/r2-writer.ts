/**
 * Writes an R2 object of unknown length from chunks with bounded memory: bytes gather in one part
 * buffer of PART_BYTES and go up as a multipart upload (R2 wants every part but the last to be the
 * same size, at least 5 MiB). An object that never fills one part is written with a single put.
 * Source: developers.cloudflare.com/r2/api/workers/workers-multipart-usage.
 */

/** Size of each uploaded part (bytes): R2's minimum, so memory stays at ~5 MiB per writer. */
export const PART_BYTES = 5 * 1024 * 1024;

export class R2ObjectWriter {
  private part = new Uint8Array(PART_BYTES);
  private used = 0;
  private upload: R2MultipartUpload | null = null;
  private readonly uploaded: R2UploadedPart[] = [];
  /** Bytes written so far. */
  size = 0;

  constructor(
    private readonly bucket: R2Bucket,
    readonly key: string,
    private readonly options: R2PutOptions & R2MultipartOptions = {},
  ) {}

  /** Appends bytes, uploading a part whenever the buffer fills. */
  async write(chunk: Uint8Array): Promise<void> {
    let at = 0;
    while (at < chunk.length) {
      const n = Math.min(chunk.length - at, PART_BYTES - this.used);
      this.part.set(chunk.subarray(at, at + n), this.used);
      this.used += n;
      at += n;
      if (this.used === PART_BYTES) await this.uploadPart();
    }
    this.size += chunk.length;
  }

  /** Writes every chunk in order. */
  async writeAll(chunks: readonly Uint8Array[]): Promise<void> {
    for (const chunk of chunks) await this.write(chunk);
  }

  /** Completes the object. */
  async close(): Promise<void> {
    if (!this.upload) {
      await this.bucket.put(this.key, this.part.subarray(0, this.used), this.options);
    } else {
      if (this.used > 0) await this.uploadPart();
      await this.upload.complete(this.uploaded);
    }
    this.part = new Uint8Array(0);
  }

  /** Abandons the object (a failed job): the multipart upload is aborted, nothing is left behind. */
  async abort(): Promise<void> {
    this.part = new Uint8Array(0);
    if (this.upload) await this.upload.abort().catch(() => undefined);
  }

  private async uploadPart(): Promise<void> {
    this.upload ??= await this.bucket.createMultipartUpload(this.key, this.options);
    // uploadPart may keep a reference to the bytes until it settles: send a copy of the buffer's view.
    const bytes = this.part.slice(0, this.used);
    this.uploaded.push(await this.upload.uploadPart(this.uploaded.length + 1, bytes));
    this.used = 0;
  }
}
