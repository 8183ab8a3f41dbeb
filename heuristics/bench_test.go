package heuristics

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/tessera-app/tessera/form"
)

// BenchmarkClassifyFields measures classification alone over the golden
// fields (many languages, all passes), reported as fields per second.
func BenchmarkClassifyFields(b *testing.B) {
	var all []goldenControl
	for _, gc := range loadGolden(b) {
		all = append(all, gc.Controls...)
	}
	s := snapshot(all)
	Classify(s) // build the lazy country-name table outside the timer
	b.ResetTimer()
	for b.Loop() {
		Classify(s)
	}
	b.ReportMetric(float64(len(all))*float64(b.N)/b.Elapsed().Seconds(), "fields/s")
}

// BenchmarkExtractClassify200KB measures the whole path the app runs on a
// snapshot: extract a ~200 KB page, then classify every control.
func BenchmarkExtractClassify200KB(b *testing.B) {
	page := generatedPage(200 << 10)
	b.SetBytes(int64(len(page)))
	Classify(&form.Snapshot{})
	b.ResetTimer()
	var controls int
	for b.Loop() {
		s, err := form.Extract(bytes.NewReader(page), form.ExtractOptions{})
		if err != nil {
			b.Fatal(err)
		}
		controls = len(Classify(s))
	}
	b.ReportMetric(float64(controls), "controls")
}

// BenchmarkClassify200KB measures classification alone (rules, passes and
// the learned model) of the same ~200 KB page's snapshot, extracted once:
// BenchmarkExtractClassify200KB less the HTML parse and the page walk.
func BenchmarkClassify200KB(b *testing.B) {
	s, err := form.Extract(bytes.NewReader(generatedPage(200<<10)), form.ExtractOptions{})
	if err != nil {
		b.Fatal(err)
	}
	Classify(&form.Snapshot{})
	b.ResetTimer()
	var controls int
	for b.Loop() {
		controls = len(Classify(s))
	}
	b.ReportMetric(float64(controls), "controls")
}

// generatedPage writes a page of at least size bytes: checkout forms in
// several languages with labels, tables and filler text, like a real shop.
func generatedPage(size int) []byte {
	var sb strings.Builder
	sb.WriteString("<!doctype html><html><head><title>Checkout</title></head><body>\n")
	labels := [][]string{
		{"First name", "Last name", "Email address", "Phone", "Street address", "Apartment", "City", "ZIP code", "Promo code"},
		{"Vorname", "Nachname", "E-Mail", "Telefon", "Straße und Hausnummer", "Adresszusatz", "Ort", "PLZ", "Gutschein"},
		{"Prénom", "Nom", "Courriel", "Téléphone", "Adresse", "Complément d'adresse", "Ville", "Code postal", "Code promo"},
		{"名", "姓", "メールアドレス", "電話番号", "番地", "建物", "市区町村", "郵便番号", "クーポン"},
	}
	for n := 0; sb.Len() < size; n++ {
		set := labels[n%len(labels)]
		fmt.Fprintf(&sb, "<form id=\"f%d\" action=\"/submit\"><fieldset><legend>Section %d</legend><table>\n", n, n)
		for i, l := range set {
			fmt.Fprintf(&sb, "<tr><td><label for=\"f%d_%d\">%s</label></td><td><input id=\"f%d_%d\" name=\"form[%d][field_%d]\" placeholder=\"%s\"></td></tr>\n", n, i, l, n, i, n, i, l)
		}
		fmt.Fprintf(&sb, "</table><select name=\"country\"><option>Germany</option><option>France</option><option>Japan</option><option>Spain</option><option>Italy</option></select>")
		fmt.Fprintf(&sb, "<p>%s</p></fieldset></form>\n", strings.Repeat("Free delivery on orders over 50. ", 20))
	}
	sb.WriteString("</body></html>\n")
	return []byte(sb.String())
}

// BenchmarkNormalize measures normalize on texts as pages give them:
// ASCII names and labels (normalizeASCII), some already normalized, and
// labels in other scripts (the rune path).
func BenchmarkNormalize(b *testing.B) {
	texts := []string{
		"email", "First name", "billing[firstName]", "address2", "form[3][field_4]",
		"ZIP code", "phone_number", "dwfrm_billing_addressFields_postalCode",
		"Straße und Hausnummer", "Téléphone portable", "メールアドレス", "Номер телефона",
	}
	for b.Loop() {
		for _, s := range texts {
			normalize(s)
		}
	}
	b.ReportMetric(float64(len(texts))*float64(b.N)/b.Elapsed().Seconds(), "texts/s")
}
