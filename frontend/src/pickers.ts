// Country and language suggestions for the editor, named in the person's
// language by Go (x/text, CLDR: ui.UI.Locale): a <datalist> for each,
// which the country and language inputs point at. Stored values stay
// codes; a name typed or picked is turned into its code before saving.
import { locale, regionsOf, type LocaleView } from "./bridge";

/** The IRI of the region concept (profile.ConceptAddressRegion). */
export const regionIRI = "https://schema.org/addressRegion";

let regionCountry: string | null = null;

/** Suggests the regions of country for the region field (#region-list); none without a country. */
export async function regionList(country: string): Promise<void> {
  const c = country.trim().toUpperCase();
  if (c === regionCountry) return;
  regionCountry = c;
  let dl = document.getElementById("region-list");
  if (!dl) {
    dl = document.createElement("datalist");
    dl.id = "region-list";
    document.body.append(dl);
  }
  const rs = /^[A-Z]{2}$/.test(c) ? ((await regionsOf(c).catch(() => null)) ?? []) : [];
  if (regionCountry !== c) return;
  dl.replaceChildren(...rs.map((r) => new Option(r.code, r.name)));
}

/** The IRI of the language concept (profile.ConceptLanguage). */
export const languageIRI = "https://schema.org/knowsLanguage";

let view: LocaleView | null = null;

/** Builds the datalists once; the editor works without them. */
export async function loadPickers(): Promise<void> {
  try {
    view = await locale();
  } catch {
    return;
  }
  for (const [id, list] of [
    ["country-list", view.countries],
    ["language-list", view.languages],
  ] as const) {
    const dl = document.createElement("datalist");
    dl.id = id;
    for (const n of list ?? []) dl.append(new Option(n.name, n.code));
    document.body.append(dl);
  }
}

/** Turns a country or language name the person typed into its code; anything else is left as typed. */
export function toCode(kind: "country" | "language", typed: string): string {
  const t = typed.trim();
  const list = kind === "country" ? view?.countries : view?.languages;
  const hit = list?.find((n) => n.name.localeCompare(t, undefined, { sensitivity: "base" }) === 0);
  return hit ? hit.code : t;
}

/** The name of a code in the person's language, if Go named it. */
export function nameOf(kind: "country" | "language", code: string): string | undefined {
  const list = kind === "country" ? view?.countries : view?.languages;
  return list?.find((n) => n.code.toLowerCase() === code.toLowerCase())?.name;
}
