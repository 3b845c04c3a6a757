/** Reading picked or recorded files for the sandbox phone (base64 for the events call). */

/** Largest file the phone sends (the worker accepts ~16 MB of base64). */
export const MAX_MEDIA_BYTES = 15 * 1024 * 1024;

/** The base64 of a blob (without the `data:` prefix). */
export async function blobToBase64(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = "";
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

/** A MediaRecorder mime type this browser supports for voice notes (empty: the browser's default). */
export function recordingMimeType(isSupported: (type: string) => boolean): string {
  for (const type of ["audio/ogg;codecs=opus", "audio/webm;codecs=opus", "audio/webm", "audio/mp4"]) {
    if (isSupported(type)) return type;
  }
  return "";
}

/** `m:ss` of a duration in seconds. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
