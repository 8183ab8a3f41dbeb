// Formatting shared by the sections: times in the person's words and Go's
// error messages as sentences.

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
const day = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

/** Formats a past time as "just now", "5 minutes ago", … or a date past a week. */
export function ago(iso: string, now: number): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return "";
  const secs = Math.round((t - now) / 1000);
  if (secs > -60) return "just now";
  if (secs > -3600) return relative.format(Math.round(secs / 60), "minute");
  if (secs > -86400) return relative.format(Math.round(secs / 3600), "hour");
  if (secs > -7 * 86400) return relative.format(Math.round(secs / 86400), "day");
  return day.format(t);
}

/** Makes a Go error read as a sentence: "Unlock: wrong passphrase." */
export function sentence(msg: string): string {
  const s = msg.trim();
  if (s === "") return "Something went wrong.";
  return s[0].toUpperCase() + s.slice(1) + (/[.!?]$/.test(s) ? "" : ".");
}

/** Counts details as the profile list does: "No details yet", "1 detail", "5 details". */
export function details(n: number): string {
  return n === 0 ? "No details yet" : n === 1 ? "1 detail" : `${n} details`;
}

/** Says when the vault locks by itself: "after 15 minutes without use", "after 1 hour without use"; 0 is never. */
export function autoLockWords(minutes: number): string {
  if (minutes <= 0) return "never after a time without use";
  if (minutes % 60 === 0) {
    const h = minutes / 60;
    return `after ${h} ${h === 1 ? "hour" : "hours"} without use`;
  }
  return `after ${minutes} ${minutes === 1 ? "minute" : "minutes"} without use`;
}

/** "5 new · 1 already there · 1 conflict": what importing an item brings. */
export function changeWords(it: { new: number; same: number; conflicts: number }): string {
  const parts: string[] = [];
  if (it.new) parts.push(`${it.new} new`);
  if (it.same) parts.push(`${it.same} already there`);
  if (it.conflicts) parts.push(`${it.conflicts} ${it.conflicts === 1 ? "conflict" : "conflicts"} (kept beside yours)`);
  return parts.length ? parts.join(" · ") : "nothing to import";
}

/** What an import did, in a sentence. */
export function doneWords(d: { profiles: number; created: number; learned: number; unchanged: number; candidates: number }): string {
  const p = d.profiles === 1 ? "1 profile" : `${d.profiles} profiles`;
  const parts = [`${d.learned} ${d.learned === 1 ? "value" : "values"} added`];
  if (d.candidates) parts.push(`${d.candidates} kept beside yours for you to choose in the editor`);
  if (d.unchanged) parts.push(`${d.unchanged} already there`);
  const created = d.created ? ` (${d.created} new)` : "";
  return `Imported ${p}${created}: ${parts.join(", ")}.`;
}
