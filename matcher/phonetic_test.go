package matcher

import (
	"testing"

	"github.com/tessera-app/tessera/profile"
)

// TestPhoneticNames goes from HTML to the fill: a name's reading is filled
// from the readings stored, in the syllabary the box asks for, and never
// from the name itself.
func TestPhoneticNames(t *testing.T) {
	parts := &profile.UserProfile{Concepts: map[string]profile.Entry{
		profile.ConceptGivenName:          {Value: []byte(`"太郎"`), Confidence: 1},
		profile.ConceptFamilyName:         {Value: []byte(`"山田"`), Confidence: 1},
		profile.ConceptPhoneticGivenName:  {Value: []byte(`"タロウ"`), Confidence: 1},
		profile.ConceptPhoneticFamilyName: {Value: []byte(`"ヤマダ"`), Confidence: 1},
	}}
	whole := &profile.UserProfile{Concepts: map[string]profile.Entry{
		profile.ConceptName:         {Value: []byte(`"山田 太郎"`), Confidence: 1},
		profile.ConceptPhoneticName: {Value: []byte(`"やまだ　たろう"`), Confidence: 1},
	}}
	nameOnly := &profile.UserProfile{Concepts: map[string]profile.Entry{
		profile.ConceptGivenName:  {Value: []byte(`"太郎"`), Confidence: 1},
		profile.ConceptFamilyName: {Value: []byte(`"山田"`), Confidence: 1},
		profile.ConceptName:       {Value: []byte(`"Taro Yamada"`), Confidence: 1},
	}}
	const sixBoxes = `<html lang=ja><form><label for=a>姓</label><input id=a><label for=b>名</label><input id=b>
<label for=c>セイ</label><input id=c><label for=d>メイ</label><input id=d>
<label for=e>ふりがな</label><input id=e><label for=f>お名前（フリガナ）</label><input id=f></form></html>`
	tests := []struct {
		name string
		p    *profile.UserProfile
		page string
		want []string // value per control, "" for none
	}{
		{"parts stored", parts, sixBoxes, []string{"山田", "太郎", "ヤマダ", "タロウ", "やまだ たろう", "ヤマダ タロウ"}},
		{"whole stored", whole, sixBoxes, []string{"山田", "太郎", "ヤマダ", "タロウ", "やまだ　たろう", "ヤマダ　タロウ"}},
		{"no reading stored", nameOnly, sixBoxes, []string{"山田", "太郎", "", "", "", ""}},
		{"a row under フリガナ, hiragana pattern", parts,
			`<html lang=ja><form><label for=a>フリガナ</label><input id=a name=kana1 placeholder="例）やまだ" pattern="[ぁ-んー]+"><input name=kana2 placeholder="例）たろう" pattern="[ぁ-んー]+"></form></html>`,
			[]string{"やまだ", "たろう"}},
		{"romanised labels", parts,
			`<form><label for=a>Last name (Furigana)</label><input id=a><label for=b>First name (Kana)</label><input id=b></form>`,
			[]string{"ヤマダ", "タロウ"}},
	}
	for _, tt := range tests {
		got := fillPage(t, tt.page, tt.p)
		for i, want := range tt.want {
			if got[i] != want {
				t.Errorf("%s: control %d = %q, want %q", tt.name, i, got[i], want)
			}
		}
	}
}

func TestKanaSyllabaries(t *testing.T) {
	if got := toKatakana("やまだ たろう ゞ"); got != "ヤマダ タロウ ヾ" {
		t.Errorf("toKatakana = %q", got)
	}
	if got := toHiragana("ヤマダ・タロー ヴ ヷ"); got != "やまだ・たろー ゔ ヷ" {
		t.Errorf("toHiragana = %q", got)
	}
}

// TestWholeNameInItsScript pins how a whole-name box is filled from the
// parts stored: Korean and Chinese names in their script run together
// (홍길동, 王小明), Japanese ones keep a space, Latin ones go given first.
func TestWholeNameInItsScript(t *testing.T) {
	parts := func(given, family string) *profile.UserProfile {
		return &profile.UserProfile{Concepts: map[string]profile.Entry{
			profile.ConceptGivenName:  {Value: []byte(`"` + given + `"`), Confidence: 1},
			profile.ConceptFamilyName: {Value: []byte(`"` + family + `"`), Confidence: 1},
		}}
	}
	tests := []struct {
		lang, label, given, family, want string
	}{
		{"ko", "이름", "길동", "홍", "홍길동"},
		{"zh", "姓名", "小明", "王", "王小明"},
		{"ja", "お名前", "太郎", "山田", "山田 太郎"},
		{"ko", "Name", "Gildong", "Hong", "Gildong Hong"},
	}
	for _, tt := range tests {
		page := `<html lang=` + tt.lang + `><form><label for=a>` + tt.label + `</label><input id=a></form></html>`
		if got := fillPage(t, page, parts(tt.given, tt.family)); got[0] != tt.want {
			t.Errorf("%s %q: %q, want %q", tt.lang, tt.label, got[0], tt.want)
		}
	}
}
