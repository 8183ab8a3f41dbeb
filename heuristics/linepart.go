package heuristics

import (
	"strings"

	"github.com/tessera-app/tessera/form"
)

// lineParts are the parts of a second street line that forms in Spain,
// Latin America, Italy, Greece, Central Europe and elsewhere ask for in
// boxes of their own (piso, depto, escalera, bloque), as Result.Part of
// an address-line2 box, with the words that name each over normalized
// text.
var lineParts = []struct {
	part  string
	words func() map[string]bool
}{
	{"floor", wordSet("floor, flr, pis, stock, stockwerk, etage, piso, planta, piano, andar, verdieping, pietro, patro, poschodie, emelet, etaj, kat, sprat, спрат, етаж, kerros, vaning, orofos, οροφοσ, этаж, поверх, קומה, الطابق, الدور, طبقه, 階, lantai, korrus, stavs, aukstas, nadstropje, etasje, 층, 楼层")},
	{"apartment", wordSet("apartment, apt, flat, unit, 室, 室號, 房號, 房号, 單位, wohnung, whg, top, tur, tuer, turnummer, bus, busnummer, boite, appartement, apartamento, departamento, depto, dpto, apartament, puerta, porta, door, dor, interno, interior, int, lokal, lokalu, mieszkanie, mieszkania, byt, bytu, stan, stana, ajto, huoneisto, lagenhet, leilighet, lejlighed, diamerisma, διαμερισμα, квартира, кв, стан, стана, апартамент, daire, dzivoklis, dzivokla, butas, buto, korter, korteri, דירה, الشقة, شقة, واحد, apto, appartamento, lakas, apartemen, pangsapuri, stanovanje, 部屋番号, deur, drzwi, dorr, ovi, dvere, дверь, πορτα, kapi, porte, dpto")},
	{"building", wordSet("building, bldg, gebaude, haus, batiment, bat, edificio, torre, bloque, block, blok, bloc, palazzina, scala, bloco, budynek, epulet, κτιριο, корпус, строение, блок, 棟, gebouw, budova, byggnad, bygning, rakennus, cladire, здание, будівля, сграда, bina, gedung, bangunan, zgrada, hoone, pastatas, 건물, อาคาร, इमारत, בניין, مبنى, 建物, 建物名, マンション, マンション名, ビル名")},
	{"staircase", wordSet("staircase, stairs, stair, entrance, entree, scara, stiege, escalera, escalier, portal, portale, klatka, lepcsohaz, porras, trappuppgang, κλιμακα, подъезд, вход, כניסה, ingang, uppgang, opgang, vchod, під'ізд, εισοδοσ, ulaz, trepikoda, kapnutelpa, laiptine, vhod, eingang, مدخل")},
}

// landmark matches the words of a box for what lies near the address
// (a landmark, a reference point), which no part of the street line
// fills.
var landmark = wordSet("landmark, landmarks, referencia, referencias, reference, riferimento, repere, ориентир, लैंडमार्क")

// wholeLine2 matches the words of a box for the whole second line, or of
// one asking for any of several parts ("apartment, suite, floor"): such a
// box holds the whole line.
var wholeLine2 = wordSet("line, linea, zeile, ligne, riga, regel, 2, ii, complement, complemento, adresszusatz, zusatz, additional, adicional, supplementaire, aggiuntivo, toevoeging, etc, suite, other, otro, outros, details, info, informacion, referencia, landmark, landmarks, लैंडमार्क")

// linePart returns the part of the second street line an address-line2
// box asks for, "" for the whole line: the first of the box's own texts
// (label, aria-label, placeholder, then name and id) that names exactly
// one part decides.
func linePart(c *form.Control) string {
	return linePartM(c, nil)
}

// linePartM is linePart normalizing through m's cache (nil: none).
func linePartM(c *form.Control, m *memo) string {
	part, _ := lineReading(c, m)
	return part
}

// lineWhole reports whether an address-line2 box asks for the whole
// second line: the first of its own texts that names any part of the
// line names several ("Appartement, étage, porte", "Bâtiment,
// résidence, entrée") or the whole line ("Address line 2"). A box that
// names no part at all ("Area, Street, Sector") is neither one part nor
// known to be the whole line.
func lineWhole(c *form.Control) bool {
	_, whole := lineReading(c, nil)
	return whole
}

// lineReading reads the first of a box's own texts that names the whole
// second line or any of its parts: the one part it names, or whole when
// it names the whole line or several parts.
func lineReading(c *form.Control, m *memo) (part string, whole bool) {
	for _, t := range []string{c.Label, c.LabelElementText, c.AriaLabel, c.Placeholder, c.Name, c.ID} {
		if t == "" {
			continue
		}
		n := m.normalize(t)
		if hasWord(wholeLine2(), n) {
			return "", true
		}
		found := ""
		for _, lp := range lineParts {
			if hasWord(lp.words(), n) {
				if found != "" {
					return "", true
				}
				found = lp.part
			}
		}
		if found != "" {
			return found, false
		}
	}
	return "", false
}

// hasWord reports whether a word of normalized text is in set: what
// `(?:^| )(?:w1|w2|...)(?: |$)` matches, without a regular expression's
// backtracking (which was most of the time classify spent on the words of
// a second line).
func hasWord(set map[string]bool, text string) bool {
	for text != "" {
		var word string
		word, text, _ = strings.Cut(text, " ")
		if set[word] {
			return true
		}
	}
	return false
}
