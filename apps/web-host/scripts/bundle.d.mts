/** See bundle.mjs. */
export declare const BUNDLE_FILES: ReadonlyArray<string>;
export declare function isNodeBuiltin(path: string): boolean;
export interface FileSize {
  readonly name: string;
  readonly bytes: number;
  readonly gzipBytes: number;
}
export declare function bundleWebHost(options: { readonly root: string; readonly outdir?: string; readonly entry?: string; readonly staticDir?: string }): Promise<ReadonlyArray<FileSize>>;
export declare function formatSizes(sizes: ReadonlyArray<FileSize>): string;
