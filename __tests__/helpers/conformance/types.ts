/** One request of the conformance corpus (`corpus/cases.json`), as written by the recorder. */
export interface CorpusCase {
  readonly name: string;
  readonly group?: string;
  readonly method: string;
  readonly path: string;
  readonly auth?: AuthKind;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  readonly rawBody?: string;
  readonly rawContentType?: string;
  readonly multipart?: MultipartSpec;
  readonly captures?: Readonly<Record<string, string>>;
  readonly compare?: CompareMode;
  readonly expectStatus?: number;
  readonly note?: string;
}

/** Which credentials a case sends. */
export type AuthKind = 'none' | 'full' | 'readonly' | 'bad';

/** How much of a case is compared (see compare.mjs). */
export type CompareMode = 'full' | 'status' | 'error-name' | 'error-class';

export interface MultipartSpec {
  readonly fields?: Readonly<Record<string, unknown>>;
  readonly files?: readonly MultipartFile[];
}

export interface MultipartFile {
  readonly field?: string;
  readonly filename: string;
  readonly contentType?: string;
  readonly png?: { readonly width: number; readonly height: number; readonly seed?: number };
  readonly text?: string;
}

/** What was answered to one case (one `<case>.json` file of a replay output). */
export interface ReplayRecord {
  name: string;
  request: { method: string; path: string; auth: AuthKind };
  status: number;
  headers: { 'content-type'?: string | null };
  body: unknown;
  unresolved?: string[];
  captureErrors?: string[];
  error?: boolean;
}

/** Captured values by capture name (`_captures.json`). */
export type Captures = Record<string, unknown>;

/** One side of a comparison: a replay output, on disk or in memory. */
export interface ReplaySide {
  readonly index: readonly string[];
  readonly captures: Readonly<Captures>;
  readonly records: ReadonlyMap<string, ReplayRecord>;
}

/** The outcome of comparing one case. */
export interface CaseResult {
  readonly name: string;
  readonly mode: CompareMode;
  readonly pass: boolean;
  readonly diffs: readonly string[];
}
