/**
 * The fill-with-consent messages on the wire (nativemsg/PROTOCOL.md §4.1)
 * and the checks applied to what the app answers. The app decides which
 * controls get which value; the extension only measures, applies what was
 * approved to exactly the controls measured, and reports.
 */

/** MAX_FRAMES is the most frames one fill method may carry (PROTOCOL.md §4.1). */
export const MAX_FRAMES = 64;

/** MAX_URL_BYTES is the longest frame URL or origin the app accepts (app/fill.go maxURLLen). */
export const MAX_URL_BYTES = 8 * 1024;

/** MAX_VALUES is the most live values, all frames together, the app accepts (app/fill.go maxValues). */
export const MAX_VALUES = 20_000;

/**
 * MAX_REQUEST_BYTES is the app's limit on one incoming frame (MaxIncoming,
 * 8 MiB). A bigger request would make the host close the connection, so the
 * extension refuses it before sending.
 */
export const MAX_REQUEST_BYTES = 8 * 1024 * 1024;

/** Identity is what a control was when measured: its name and id attributes and its DOM type property. */
export interface Identity {
  name: string;
  id: string;
  /** type is the DOM's type property: "text", "email", …, "select-one", "select-multiple", "textarea". */
  type: string;
}

/** LiveValue is a control's live value and checkedness, read at snapshot time. */
export interface LiveValue {
  value: string;
  checked: boolean;
}

/** PageInfo names the page a fill is for: the tab and its top document. */
export interface PageInfo {
  tab: number;
  url: string;
  title: string;
}

/** WireFrame is one frame of a fill method's frames (PROTOCOL.md §4.1 "The page and its frames"). */
export interface WireFrame {
  /** frame is the browser's frame id, 0 for the top document. */
  frame: number;
  /** parent is the parent frame's id, -1 for the top document. */
  parent: number;
  /** origin is the frame's own origin (self.origin; "null" when opaque). */
  origin: string;
  url: string;
  /** nonce is the fresh random text every valid stamp of html starts with. */
  nonce: string;
  html: string;
  /** controls is how many controls carry a valid stamp. */
  controls: number;
  /** values holds the live value of each stamped control, by ref. */
  values: Record<string, LiveValue>;
}

/** PageParams are the params every fill method takes. */
export interface PageParams {
  page: PageInfo;
  frames: WireFrame[];
}

/**
 * FillKind says how a value is applied (PROTOCOL.md §4.1 fill.request;
 * 'options', a select[multiple] set from an agent's list, comes only in
 * browser.apply, §4.3).
 */
export type FillKind = 'text' | 'select' | 'radio' | 'checkbox' | 'options';

/** FillField is one approved value for one measured control. */
export interface FillField {
  frame: number;
  ref: string;
  kind: FillKind;
  /**
   * value is the text to set (text), the option value to select (select),
   * the radio's value (radio: the ref says which button to check), for a
   * checkbox, whether to check it ("false", "off", "0" and "" uncheck; any
   * other text checks) or, for options, a JSON array of the option values
   * to select (every other enabled option is deselected).
   */
  value: string;
  /** expect is the control as measured; absent members are compared with what the content script measured. */
  expect?: Partial<Identity>;
}

/** FillAnswer is the result of fill.request and fill.continue. */
export interface FillAnswer {
  fill: string;
  profile?: string;
  fields: FillField[];
}

/** Outcome is what happened to one approved field (PROTOCOL.md §4.1 fill.report). */
export type Outcome = 'filled' | 'rejected' | 'gone' | 'changed' | 'hidden';

/** FieldOutcome is one row of fill.report and of the report a fill resolves with. */
export interface FieldOutcome {
  frame: number;
  ref: string;
  outcome: Outcome;
}

/** FillStatus is how a fill ended. */
export type FillStatus = 'filled' | 'declined' | 'failed';

/**
 * FillReport is what a fill resolves with (globalThis.tessera.fill, the
 * popup): how it ended, why when it did not fill, and every approved
 * field's outcome across all rounds.
 */
export interface FillReport {
  status: FillStatus;
  /**
   * reason says why a fill was declined (the app's data.reason: "denied",
   * "timeout", "cancelled", "no-window") or failed (an error code such as
   * "VAULT_LOCKED", "NOT_CONNECTED", "TOO_LARGE", "NO_FRAMES").
   */
  reason?: string;
  /** message is a sentence for a person, when the fill did not fill. */
  message?: string;
  /** fill is the app's id for an approved fill. */
  fill?: string;
  fields: FieldOutcome[];
}

const KINDS: readonly string[] = ['text', 'select', 'radio', 'checkbox'] satisfies FillKind[];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseExpect(v: unknown): Partial<Identity> | undefined | null {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) return null;
  const out: Partial<Identity> = {};
  for (const k of ['name', 'id', 'type'] as const) {
    if (v[k] === undefined) continue;
    if (typeof v[k] !== 'string') return null;
    out[k] = v[k];
  }
  return out;
}

/**
 * parseFillAnswer checks a fill.request or fill.continue result. It returns
 * null when the shape is wrong as a whole; a malformed field entry (unknown
 * kind, non-string value, bad expect) is left out, so nothing is applied
 * that was not clearly approved.
 */
export function parseFillAnswer(v: unknown): FillAnswer | null {
  if (!isObject(v) || typeof v.fill !== 'string' || v.fill === '' || !Array.isArray(v.fields)) return null;
  const fields: FillField[] = [];
  for (const f of v.fields) {
    if (!isObject(f) || !Number.isInteger(f.frame) || typeof f.ref !== 'string' || f.ref === '') continue;
    if (typeof f.kind !== 'string' || !KINDS.includes(f.kind)) continue;
    const value = typeof f.value === 'boolean' ? String(f.value) : f.value;
    if (typeof value !== 'string') continue;
    const expect = parseExpect(f.expect);
    if (expect === null) continue;
    const field: FillField = { frame: f.frame as number, ref: f.ref, kind: f.kind as FillKind, value };
    if (expect !== undefined) field.expect = expect;
    fields.push(field);
  }
  const out: FillAnswer = { fill: v.fill, fields };
  if (typeof v.profile === 'string') out.profile = v.profile;
  return out;
}

/** utf8Length returns how many bytes s takes in UTF-8, without encoding it. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}
