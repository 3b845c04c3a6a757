/** Types of the qrcode package's pure encoder (no renderer, no Node streams): lib/core/qrcode.js. */
declare module "qrcode/lib/core/qrcode.js" {
  /** The symbol: `modules.size` × `modules.size` dark (1) / light (0) cells, row-major in `modules.data`. */
  export function create(text: string, options?: { errorCorrectionLevel?: "L" | "M" | "Q" | "H" }): { modules: { size: number; data: Uint8Array } };
}
