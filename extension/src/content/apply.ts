/**
 * Applying approved values to the controls they were approved for. A value
 * goes only to the element its ref names in this frame's isolated registry,
 * and only while that element is still connected, still what was measured
 * (name, id, type) and still visible. Values are set through the native
 * setters of the element's own prototype, then announced with the events
 * frameworks listen for (focus, input, change, blur), so React, Vue,
 * Angular and Svelte keep them.
 */
import type { FillKind, Identity, Outcome } from '../shared/fill';
import type { ApplyField, ApplyOutcome } from '../shared/messages';
import { type Registry, identityOf } from './refs';
import { type Layout, hiddenReasons } from './visibility';

/** ApplyDeps are what apply needs from the page. */
export interface ApplyDeps {
  reg: Registry;
  layout: Layout;
  /** settle resolves once the page has reacted to the values (see settle.ts). */
  settle(): Promise<void>;
}

// Input types that are not "text" controls. A password field never receives
// profile data (DESIGN.md, rule 2): the app never offers one, and should it
// ever, the extension treats the control as not what was approved.
const NOT_TEXT = new Set(['checkbox', 'radio', 'file', 'hidden', 'submit', 'button', 'image', 'reset', 'password']);

/** kindFits reports whether el is a control a value of kind can go to. */
function kindFits(el: Element, kind: FillKind): boolean {
  const type = (el as HTMLInputElement).type;
  switch (kind) {
    case 'text':
      return el.tagName === 'TEXTAREA' || (el.tagName === 'INPUT' && !NOT_TEXT.has(type));
    case 'select':
      return el.tagName === 'SELECT';
    case 'options':
      return el.tagName === 'SELECT' && (el as HTMLSelectElement).multiple;
    case 'radio':
      return el.tagName === 'INPUT' && type === 'radio';
    case 'checkbox':
      return el.tagName === 'INPUT' && type === 'checkbox';
  }
}

/** sameIdentity reports whether now matches want in every member want has. */
function sameIdentity(now: Identity, want: Partial<Identity>): boolean {
  return (
    (want.name === undefined || want.name === now.name) &&
    (want.id === undefined || want.id === now.id) &&
    (want.type === undefined || want.type.toLowerCase() === now.type.toLowerCase())
  );
}

/**
 * nativeSetter returns the setter of prop from el's prototype chain,
 * skipping anything defined on the element itself: React's value tracker
 * (and any page code) wraps the instance's property, and writing through the
 * prototype's setter lets the framework see the change as the person's.
 */
function nativeSetter(el: Element, prop: string): (v: unknown) => void {
  for (let p = Object.getPrototypeOf(el) as object | null; p !== null; p = Object.getPrototypeOf(p) as object | null) {
    const d = Object.getOwnPropertyDescriptor(p, prop);
    if (d?.set) {
      const set = d.set;
      return (v) => set.call(el, v);
    }
  }
  throw new TypeError(`no native setter for ${prop}`);
}

/** checkboxWants reports whether a checkbox value means "checked". */
export function checkboxWants(value: string): boolean {
  return !['false', 'off', '0', 'no', ''].includes(value.trim().toLowerCase());
}

/** forType adapts an ISO date or date-time to what a date, month, time or datetime-local input takes. */
export function forType(type: string, value: string): string {
  const m = /^(\d{4}-\d{2})(-\d{2})?(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?/.exec(value);
  if (!m) return value;
  switch (type) {
    case 'date':
      return m[2] ? m[1]! + m[2] : value;
    case 'month':
      return m[1]!;
    case 'datetime-local':
      return m[2] && m[3] ? `${m[1]}${m[2]}T${m[3]}` : value;
    default:
      return value;
  }
}

// sameText reports whether the page kept value: exactly, or with only
// formatting changed (spacing, punctuation, letter case: "(555) 123-4567"
// for "5551234567" is the page's mask, not a refusal).
function sameText(got: string, want: string): boolean {
  if (got === want) return true;
  const norm = (s: string) => s.toLowerCase().replace(/[\s\-().,/+_]/g, '');
  return got !== '' && norm(got) === norm(want);
}

function announce(el: Element, type: 'input' | 'change', data?: string): void {
  const ev =
    type === 'input' && typeof InputEvent === 'function'
      ? new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertReplacementText', data: data ?? null })
      : new Event(type, { bubbles: true, composed: type === 'input' });
  el.dispatchEvent(ev);
}

/**
 * focusEvents dispatches what a focus change fires on el, without moving
 * focus: focus and blur (on the element, as Angular's touched state and
 * Vue's @blur listen), focusin and focusout (bubbling, as React's onFocus
 * and onBlur listen). Really focusing each control would make the browser
 * bring style and layout up to date once per field (about 2 ms each on a
 * 50-field form), scroll, and open the page's suggestion lists.
 */
function focusEvents(el: Element, gained: boolean): void {
  const [own, bubbling] = gained ? (['focus', 'focusin'] as const) : (['blur', 'focusout'] as const);
  el.dispatchEvent(new FocusEvent(own, { bubbles: false, composed: true }));
  el.dispatchEvent(new FocusEvent(bubbling, { bubbles: true, composed: true }));
}

// A set field waits for its read-back.
interface Pending {
  el: Element;
  field: ApplyField;
  want: string | boolean;
}

/**
 * set checks one field and, when it may be filled, sets it; hidden is its
 * visibility measured before any field was set. It returns the outcome when
 * the field is settled already (gone, changed, hidden, rejected), else a
 * Pending for the read-back.
 */
function set(field: ApplyField, deps: ApplyDeps, hidden: string): Outcome | Pending {
  const el = deps.reg.lookup(field.ref);
  if (el === undefined || !el.isConnected) return 'gone';
  const now = identityOf(el);
  const measured = deps.reg.identity(field.ref);
  if (!kindFits(el, field.kind) || (measured !== undefined && !sameIdentity(now, measured))) return 'changed';
  if (field.expect !== undefined && !sameIdentity(now, field.expect)) return 'changed';
  // A radio's value says which choice was approved; a page that swaps it afterwards changed the control.
  if (field.kind === 'radio' && field.value !== '' && (el as HTMLInputElement).value !== field.value) return 'changed';
  if (hidden !== '') return 'hidden';
  if ((el as HTMLInputElement).disabled) return 'rejected';
  switch (field.kind) {
    case 'text': {
      const v = el.tagName === 'INPUT' ? forType(now.type, field.value) : field.value;
      focusEvents(el, true);
      nativeSetter(el, 'value')(v);
      announce(el, 'input', v);
      announce(el, 'change');
      focusEvents(el, false);
      return { el, field, want: v };
    }
    case 'select': {
      const options = [...(el as HTMLSelectElement).options];
      const i = options.findIndex((o) => o.value === field.value && !o.disabled);
      if (i < 0) return 'rejected';
      focusEvents(el, true);
      nativeSetter(el, 'selectedIndex')(i);
      announce(el, 'input');
      announce(el, 'change');
      focusEvents(el, false);
      return { el, field, want: field.value };
    }
    case 'options': {
      const want = optionList(field.value);
      const options = [...(el as HTMLSelectElement).options];
      // Every value must be an enabled option of this select, or nothing is set.
      if (want === null || ![...want].every((v) => options.some((o) => o.value === v && !o.disabled))) return 'rejected';
      focusEvents(el, true);
      for (const o of options) if (!o.disabled) nativeSetter(o, 'selected')(want.has(o.value));
      announce(el, 'input');
      announce(el, 'change');
      focusEvents(el, false);
      return { el, field, want: canonicalOptions(want) };
    }
    case 'radio':
    case 'checkbox': {
      const want = field.kind === 'radio' || checkboxWants(field.value);
      if ((el as HTMLInputElement).checked !== want) {
        focusEvents(el, true);
        // click() runs the control's own activation: checked flips, then
        // click, input and change fire as for a person's click, and a page
        // that cancels the click keeps its state (read back as rejected).
        (el as HTMLElement).click();
        focusEvents(el, false);
      }
      return { el, field, want };
    }
  }
}

/**
 * apply fills fields in order, lets the page settle, then reads every set
 * control back: filled when the page kept the value, rejected when it
 * changed or refused it, gone when the page removed the control meanwhile.
 * Focus stays where the person left it.
 */
export async function apply(fields: readonly ApplyField[], deps: ApplyDeps): Promise<ApplyOutcome[]> {
  // Visibility is measured for all fields first: focusing one field may open
  // the page's own suggestion list over the next, which is not the page
  // hiding a control from the person.
  const els = fields.map((f) => deps.reg.lookup(f.ref));
  const live = els.filter((el): el is Element => el?.isConnected === true);
  const reasons = new Map(hiddenReasons(live, deps.layout).map((r, i) => [live[i]!, r]));
  const hidden = els.map((el) => (el === undefined ? '' : (reasons.get(el) ?? '')));
  const results: (Outcome | Pending)[] = fields.map((f, i) => {
    try {
      return set(f, deps, hidden[i]!);
    } catch {
      // A control whose own setter throws (a page's odd subclass) refused the value.
      return 'rejected';
    }
  });
  if (results.some((r) => typeof r !== 'string')) await deps.settle();
  return results.map((r, i) => ({ ref: fields[i]!.ref, outcome: typeof r === 'string' ? r : readBack(r) }));
}

function readBack(p: Pending): Outcome {
  if (!p.el.isConnected) return 'gone';
  if (typeof p.want === 'boolean') return (p.el as HTMLInputElement).checked === p.want ? 'filled' : 'rejected';
  if (p.field.kind === 'options') {
    const got = new Set([...(p.el as HTMLSelectElement).options].filter((o) => o.selected).map((o) => o.value));
    return canonicalOptions(got) === p.want ? 'filled' : 'rejected';
  }
  const got = (p.el as HTMLInputElement).value;
  if (p.field.kind === 'select') return got === p.want ? 'filled' : 'rejected';
  return sameText(got, p.want) ? 'filled' : 'rejected';
}

/** optionList reads an options field's value: a JSON array of strings, else null. */
export function optionList(value: string): Set<string> | null {
  let v: unknown;
  try {
    v = JSON.parse(value);
  } catch {
    return null;
  }
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) return null;
  return new Set(v as string[]);
}

/** canonicalOptions is a set of option values as one comparable string. */
function canonicalOptions(values: Set<string>): string {
  return JSON.stringify([...values].sort());
}
