package heuristics

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
)

// A ruleKind says what a keyword rule's match means for filling.
type ruleKind int

const (
	// kindTarget rules name a profile or payment field.
	kindTarget ruleKind = iota
	// kindGuard rules name a credential or one-time code: the control gets
	// that token so that nothing from the profile is ever put in it.
	kindGuard
	// kindVeto rules name something that is not profile data at all
	// (search, coupon, captcha, quantity, comments, ...): no token.
	kindVeto
)

// controlKinds is a bit set of the kinds of control a rule may apply to.
type controlKinds uint8

const (
	ckText controlKinds = 1 << iota // text-like inputs (text, email, tel, number, ...)
	ckSelect
	ckTextarea
	ckChoice  // radio buttons
	ckDefault = ckText | ckSelect
)

// A lang groups the keywords of one language. Keywords are RE2 fragments
// over normalized text (lower case, folded diacritics, words separated by
// one space). In scripts that separate words with spaces a keyword must
// start a word; in the others (CJK, Thai) it may start anywhere.
type lang struct {
	code  string
	words []string
}

// unspaced lists the languages whose keywords may match inside a word.
var unspaced = map[string]bool{"ja": true, "zh": true, "ko": true, "th": true}

// A rule maps keyword evidence to a token. Rules are tried in order and the
// first whose keywords match a piece of evidence wins, so specific rules
// ("company name", "name on card") come before general ones ("name").
type rule struct {
	// id names the rule in evidence.
	id string
	// token is the autofill field name the rule predicts ("" for vetoes).
	token string
	kind  ruleKind
	// kinds limits the controls the rule applies to (0: ckDefault).
	kinds controlKinds
	// weak marks generic words that identifiers often carry as context
	// ("txt_postal_code_new_address", "post_code_search" for an address
	// lookup); reading an identifier from the right, they count only when
	// nothing else matched.
	weak bool
	// whole requires the keyword to be the entire text (for short words
	// that are ambiguous inside longer labels, like "title" or "ad").
	whole bool
	// qualifies marks vetoes that qualify the field word after them
	// ("birthplace_city", "company_address_zip"): in an identifier they
	// hold wherever they appear, not only when they end it.
	qualifies bool
	// neutral marks vetoes that only stop weaker rules from reading a text
	// ("DD/MM/YYYY" is not a card's "MM/YY"): the text then says nothing,
	// and other sources still decide.
	neutral bool
	// weight scales the confidence of a match (0: 1).
	weight float64
	langs  []lang
	// index is the rule's place in the table.
	index int
	// long is the union of the rule's keywords with leftmost-longest
	// matching, to find where in an identifier the rule's longest keyword
	// ends ("username or email" is one keyword, not "username" followed by
	// an email word). Compiled on first use.
	long func() *regexp.Regexp
}

// wholeName reports whether the rule with id asks for a whole name in
// so many words ("Full name", "Contact person"), not a bare "Name".
func wholeName(id string) bool {
	return id == "full-name" || id == "contact-person"
}

// kanaWord matches the words for a reading in kana that Japanese forms
// put beside a name part: 姓（フリガナ）, 名（カナ）, セイ（全角カナ）.
const kanaWord = `(?:フリガナ|ふりがな|フリカナ|ヨミガナ|よみがな|全角カナ|カタカナ|ひらがな|カナ|かな)`

// rules is the ordered keyword table, strongest and most specific first.
var rules = []rule{
	// Things that are never profile data. They come first so that "promo
	// code" is not a postal code and "search by name" is not a name.
	{id: "captcha", kind: kindVeto, qualifies: true, kinds: ckDefault | ckTextarea, langs: []lang{
		{"en", []string{`captcha`, `capcha`, `recaptcha`, `security check`, `type the (characters|text|code)`, `enter the (characters|text) (you see|shown)`, `human verification`}},
		{"de", []string{`sicherheitscode eingeben`, `zeichen eingeben`}},
		{"ru", []string{`код с картинки`, `символы с картинки`}},
		{"zh", []string{`图形验证码`, `图片验证码`}},
	}},
	// An address finder keyed by postcode ("Postcode search", common in
	// the UK and the Netherlands) asks for the person's postcode: it is
	// not a site search.
	{id: "postcode-lookup", token: "postal-code", kinds: ckText, langs: []lang{
		{"en", []string{`(post ?code|postal code|zip ?(code)?) ?(search|lookup|look up|finder)`, `(find|search|look ?up) (an |your |my )?address (by|from|with) (your )?(post ?code|postal code|zip)`}},
		{"de", []string{`(plz|postleitzahl) ?(suche|suchen)`}},
		{"nl", []string{`postcode ?(zoeken|opzoeken|zoeker)`}},
	}},
	// An address finder (Google Places, Loqate, a site's own look-up)
	// suggests addresses as one types and fills the real boxes itself:
	// filling it with a street line starts a search, and it is not where
	// the address goes.
	{id: "address-lookup", kind: kindVeto, qualifies: true, kinds: ckText, langs: []lang{
		{"en", []string{`start typing`, `begin typing`, `type to search`, `select (it )?from the (list|drop ?down|suggestions)`, `^enter a location$`, `address ?(lookup|look up|finder|search)`, `(find|search|look ?up) (for )?(an |your |my |the )?address`, `autocomplete`, `loqate`, `pca\b`}},
		{"de", []string{`adress ?suche`, `adresse suchen`, `adresse finden`}},
		{"fr", []string{`(rechercher|trouver) (une |votre |l')?adresse`, `commencez a (saisir|taper)`}},
		{"es", []string{`buscar (una |tu |su )?direccion`, `empieza a escribir`}},
		{"nl", []string{`adres zoeken`, `begin met typen`}},
	}},
	// An identifier that starts with "search", or names a search form,
	// belongs to a site search whatever field word follows
	// ("search_name", "FirmSearchForm[Industry_id]").
	{id: "search-form", kind: kindVeto, qualifies: true, kinds: ckDefault | ckTextarea, langs: []lang{
		{"en", []string{`^search (name|text|term|field|input|box|form)\b`, `search ?(form|field|box|bar)\b`, `^query ?str(ing)?\b`, `^filter\b`}},
	}},
	{id: "search", kind: kindVeto, kinds: ckDefault | ckTextarea, weak: true, langs: []lang{
		{"en", []string{`search`, `keywords?\b`, `find\b`, `look ?up\b`, `query\b`, `^q$`}},
		{"de", []string{`suche`, `suchbegriff`, `durchsuchen`}},
		{"fr", []string{`recherche`, `rechercher`}},
		{"es", []string{`buscar`, `busqueda`, `buscador`}},
		{"it", []string{`cerca`, `ricerca`}},
		{"pt", []string{`pesquisa`, `pesquisar`, `procurar`, `busca\b`}},
		{"nl", []string{`zoeken`, `zoek`}},
		{"pl", []string{`szukaj`, `wyszukaj`}},
		{"sv", []string{`sok\b`, `soka\b`}},
		{"ru", []string{`поиск`, `найти`, `искать`}},
		{"ja", []string{`検索`}},
		{"zh", []string{`搜索`, `搜尋`, `查找`}},
		{"ko", []string{`검색`}},
		{"tr", []string{`arama`, `ara\b`}},
		{"id", []string{`cari\b`, `pencarian`}},
		{"cs", []string{`hledat`, `vyhledat`}},
		{"fi", []string{`haku`, `hae\b`}},
		{"hu", []string{`kereses`, `keres\b`}},
		{"ro", []string{`cauta`, `cautare`}},
		{"el", []string{`αναζητηση`}},
		{"uk", []string{`пошук`}},
		{"ar", []string{`بحث`}},
		{"he", []string{`חיפוש`}},
		{"th", []string{`ค้นหา`}},
		{"vi", []string{`tim kiem`}},
		{"da", []string{`sog\b`}},
		{"sk", []string{`hladat`, `vyhladavanie`}},
		{"hr", []string{`pretrazi`, `pretraga`, `trazi\b`}},
		{"sr", []string{`претрага`, `претражи`}},
		{"bg", []string{`търсене`, `търси\b`}},
		{"lt", []string{`paieska`, `ieskoti`}},
		{"lv", []string{`meklet`, `meklesana`}},
		{"et", []string{`otsi\b`, `otsing`}},
		{"fa", []string{`جستجو`, `جست و جو`}},
		{"hi", []string{`खोज`}},
		{"bn", []string{`অনুসন্ধান`, `খুঁজুন`}},
		{"tl", []string{`maghanap`, `hanapin`}},
	}},
	// Gift cards qualify whatever follows them in an identifier
	// ("gift_card_code" is not a card security code, "giftcard_email" is the
	// recipient's address).
	{id: "gift-card", kind: kindVeto, qualifies: true, kinds: ckDefault | ckTextarea, langs: []lang{
		{"en", []string{`gift ?card`, `gift ?certificate`}},
		{"de", []string{`geschenkkarte`}},
		{"fr", []string{`carte cadeau`, `cheque cadeau`}},
		{"es", []string{`tarjeta regalo`}},
		{"it", []string{`carta regalo`}},
		{"pt", []string{`vale presente`, `cartao presente`}},
		{"nl", []string{`cadeaukaart`, `cadeaubon`}},
		{"pl", []string{`karta podarunkowa`}},
		{"sv", []string{`presentkort`}},
		{"ru", []string{`подарочн`}},
		{"zh", []string{`礼品卡`}},
		{"ko", []string{`상품권`, `기프트 ?카드`}},
		{"tr", []string{`hediye ceki`, `hediye kart`}},
		{"da", []string{`gavekort`}},
		{"fi", []string{`lahjakortti`}},
		{"cs", []string{`darkov(a|e) kart`, `darkovy poukaz`}},
		{"hu", []string{`ajandekkartya`, `ajandekutalvany`}},
		{"ro", []string{`card cadou`}},
		{"uk", []string{`подарунков`}},
		{"bg", []string{`ваучер`}},
		{"el", []string{`δωροκαρτα`}},
		{"ar", []string{`بطاقة هدیة`}},
		{"he", []string{`כרטיס מתנה`}},
		{"vi", []string{`the qua tang`}},
		{"id", []string{`kartu hadiah`}},
		{"th", []string{`บัตรของขวัญ`}},
		{"hi", []string{`उपहार कार्ड`}},
		{"hr", []string{`poklon kartic`}},
		{"et", []string{`kinkekaart`}},
		{"lv", []string{`davanu kart`}},
		{"lt", []string{`dovanu kortel`}},
	}},
	{id: "coupon", kind: kindVeto, kinds: ckDefault | ckTextarea, langs: []lang{
		{"en", []string{`coupon`, `promo`, `voucher`, `discount`, `redeem`, `redemption`, `claim code`, `offer code`, `source code`, `rabatt`}},
		{"de", []string{`gutschein`, `rabatt`, `aktionscode`}},
		{"fr", []string{`code promo`, `bon de reduction`, `reduction`, `code avantage`}},
		{"es", []string{`cupon`, `codigo promocional`, `descuento`, `vale\b`}},
		{"it", []string{`buono`, `sconto`, `codice promozionale`}},
		{"pt", []string{`cupom`, `cupao`, `desconto`}},
		{"nl", []string{`kortingscode`, `korting`, `waardebon`}},
		{"pl", []string{`kupon`, `rabat`, `kod promocyjny`, `bon\b`}},
		{"sv", []string{`rabattkod`, `kampanjkod`}},
		{"ru", []string{`купон`, `промокод`, `скидк`}},
		{"ja", []string{`クーポン`, `割引`, `プロモーション`, `ギフト`}},
		{"zh", []string{`优惠`, `折扣`, `兑换`, `優惠`}},
		{"ko", []string{`쿠폰`, `할인`}},
		{"tr", []string{`kupon`, `indirim`}},
		{"id", []string{`kupon`, `kode promo`, `diskon`, `voucher`}},
		{"da", []string{`rabatkode`}},
		{"fi", []string{`alennuskoodi`}},
		{"cs", []string{`slevovy`, `sleva`, `darkovy`}},
		{"hu", []string{`kupon`, `kedvezmeny`}},
		{"ro", []string{`cupon`, `reducere`}},
		{"sk", []string{`zlavovy`, `zlava`}},
		{"el", []string{`κουπον`, `εκπτωτικ`}},
		{"hr", []string{`kod za popust`, `popust`, `kupon`}},
		{"bg", []string{`код за отстъпка`, `отстъпк`, `промо ?код`, `купон`}},
		{"uk", []string{`знижк`}},
		{"lt", []string{`nuolaid`, `kuponas`}},
		{"lv", []string{`atlaide`, `kupons`, `atlaizu kods`}},
		{"et", []string{`sooduskood`, `kupong`}},
		{"he", []string{`קופון`, `קוד הנחה`}},
		{"ar", []string{`كوبون`, `قسيمة`, `(كود|رمز) (ال)?خصم`}},
		{"fa", []string{`کد تخفیف`, `تخفیف`, `کوپن`}},
		{"hi", []string{`कूपन`, `प्रोमो कोड`}},
		{"bn", []string{`কুপন`, `প্রোমো কোড`}},
		{"th", []string{`ส่วนลด`, `คูปอง`}},
		{"vi", []string{`ma giam gia`, `giam gia`}},
		{"ms", []string{`kod promosi`, `baucar`}},
		{"ca", []string{`descompte`, `cupo\b`}},
	}},
	{id: "quantity", kind: kindVeto, langs: []lang{
		{"en", []string{`qty`, `quantity`, `amount of items`, `how many`}},
		{"de", []string{`menge`, `anzahl`, `stuckzahl`}},
		{"fr", []string{`quantite`}},
		{"es", []string{`cantidad`}},
		{"it", []string{`quantita`}},
		{"pt", []string{`quantidade`}},
		{"nl", []string{`aantal`, `hoeveelheid`}},
		{"pl", []string{`ilosc`}},
		{"sv", []string{`antal`}},
		{"ru", []string{`количество`, `кол во`}},
		{"ja", []string{`数量`}},
		{"zh", []string{`数量`, `數量`}},
		{"ko", []string{`수량`}},
		{"tr", []string{`adet`, `miktar`}},
		{"id", []string{`jumlah barang`, `kuantitas`}},
	}},
	// A street asked together with its number is the first address line;
	// a house number asked alone is not one (and makes its street box a
	// street name, not a line).
	// The street line and the building in one box ("番地・建物名",
	// "Street address and apartment"): the whole street address.
	{id: "street-and-building", token: "street-address", kinds: ckText, langs: []lang{
		{"en", []string{`street address,? (and|&|\+|/) ?(apartment|apt|suite|unit|building)\b`}},
		{"ja", []string{`番地.{0,6}(建物|マンション|ビル|部屋)`}},
	}},
	{id: "street-with-number", token: "address-line1", langs: []lang{
		// Indian forms lead the first line with the flat and building.
		{"en", []string{`street (and|&|\+) ?(house )?(number|no)`, `street (name )?house (number|no|nr)`, `house (number|no) (and|&) street`, `street address (and|&) number`, `^flat (house )?(no|number)`, `^(flat|house) (no|number) building`, `street name (and )?(number|no|nr)\b`, `address line (1 )?(street|house|flat)`, `address (line )?with (the |a )?house (number|no)`}},
		{"de", []string{`strasse (und|mit|&|\+|/) ?(hausnummer|hausnr|nr)`, `strasse nr`, `strasse hausnummer`}},
		{"hi", []string{`^फ़?्लैट मकान`, `^मकान (नं|नंबर) गली`}},
		{"fr", []string{`(numero|n) et (nom de )?(la )?rue`}},
		{"es", []string{`calle y numero`}},
		{"it", []string{`(via|strada) e (numero )?civico`, `indirizzo (con|e) (il )?(numero )?civico`}},
		{"pt", []string{`rua e numero`}},
		{"nl", []string{`straat (en|\+|&) huisnummer`, `straatnaam en huisnummer`}},
		{"pl", []string{`ulica i (numer|nr)`}},
		{"sv", []string{`gatuadress och nummer`}},
		{"ru", []string{`улица дом`, `улица и дом`}},
		{"cs", []string{`ulice (a )?(cislo|c p)\b`}},
		{"sk", []string{`ulica (a )?(cislo|c)\b`}},
		{"hu", []string{`utca (es )?hazszam`}},
		{"da", []string{`(vejnavn|vej|gade|adresse) og husnummer`, `gadenavn og (nr|nummer)`}},
		{"no", []string{`(gatenavn|gate|gateadresse|adresse) og husnummer`}},
		{"hr", []string{`ulica i (kucni )?broj`}},
		{"ro", []string{`strada (si )?(numar|numarul|nr)\b`}},
		{"el", []string{`οδος (και|&) αριθμος`}},
		{"lt", []string{`gatve (ir )?namo numeris`}},
		{"vi", []string{`so nha (va )?ten duong`}},
		{"sl", []string{`ulica (in )?hisna stevilka`}},
		{"lv", []string{`iela (un )?majas (numurs|nr)`}},
		{"et", []string{`tanav (ja )?maja`}},
		{"uk", []string{`вулиця (і |та )?(номер )?будинк`}},
		{"bg", []string{`улица (и )?номер`}},
		{"tr", []string{`sokak (ve )?(bina|kapi) ?(no|numarasi)`}},
		{"fi", []string{`katuosoite ja (talon ?)?numero`}},
		{"sr", []string{`улица и број`, `ulica i broj`}},
	}},
	{id: "house-number", kind: kindVeto, langs: []lang{
		{"en", []string{`house ?(number|no|nr|num)`, `house name`, `house (number|no) (or )?name`, `(outer|exterior|ext) (number|no|nr|num)\b`, `(street|address) 1 (number|no|nr|num)\b`, `building (number|no)`, `street ?(number|no|nr|num)`, `(street|address) ?(number|no|nr|num)$`, `^no$`, `^nr$`, `^(ship|shipping|bill|billing|delivery|invoice) ?(number|num)$`}},
		{"de", []string{`hausnummer`, `hausnr`, `haus nr`, `^h ?nr$`}},
		{"fr", []string{`numero de (rue|voie)`, `n de rue`}},
		{"es", []string{`(numero|num|no) exterior`, `^(numero|num|no) ?ext$`, `numero de (la )?calle`, `^numero$`, `^altura$`}},
		{"it", []string{`numero civico`, `civico`}},
		{"pt", []string{`numero da (casa|porta)`, `^numero$`}},
		{"nl", []string{`huisnummer`, `huisnr`}},
		{"pl", []string{`numer domu`, `nr domu`, `(numer|nr) budynku`}},
		{"sv", []string{`gatunummer`}},
		{"ru", []string{`дом\b`, `номер дома`}},
		{"cs", []string{`cislo popisne`}},
		{"hu", []string{`hazszam`}},
		{"da", []string{`husnummer`, `husnr`}},
		{"no", []string{`husnummer`, `husnr`}},
		{"hr", []string{`kucni broj(?:$| [^t])`}},
		{"el", []string{`^αριθμος$`}},
		{"he", []string{`מספר בית`}},
		{"fa", []string{`پلاک`}},
		{"ro", []string{`^numar(ul)?$`}},
		{"lt", []string{`namo numeris`}},
		{"lv", []string{`majas numurs`}},
		{"uk", []string{`номер будинку`, `^будинок$`}},
		{"sk", []string{`supisne cislo`, `cislo domu`}},
		{"bg", []string{`^номер$`}},
		{"tr", []string{`bina (no|numarasi)`}},
		{"id", []string{`^(nomor|no) rumah\b`}},
		{"et", []string{`maja ?(number|nr)`, `^maja$`}},
		{"sr", []string{`кућни број`}},
		{"sl", []string{`hisna stevilka`}},
		{"th", []string{`บ้านเลขที่`}},
		{"ar", []string{`رقم (المبنى|المنزل|البيت)`}},
		{"fi", []string{`talon ?numero`}},
		{"zh", []string{`门牌号`, `門牌號`}},
		{"vi", []string{`^so nha$`}},
		{"hi", []string{`मकान (नंबर|संख्या)`}},
	}},
	// The address of an employer or business is not the person's own
	// address: filling the home address there is wrong.
	// An address the person lived at before (applications ask for the
	// last years'): the profile holds where they live now.
	{id: "previous-address", kind: kindVeto, qualifies: true, langs: []lang{
		{"en", []string{`(previous|former|prior|old|past) (home |postal |street |residential |mailing )?(address|street|city|town|post ?code|zip|state|county|country)`}},
		{"de", []string{`(vorherige|fruhere|alte)\S* (adresse|anschrift|strasse|plz|postleitzahl|wohnort|ort)`}},
		{"fr", []string{`ancienne adresse`, `adresse precedente`, `ancien domicile`}},
		{"es", []string{`(direccion|domicilio) anterior`}},
		{"it", []string{`indirizzo precedente`}},
		{"pt", []string{`(endereco|morada) anterior`}},
		{"nl", []string{`(vorig|oud) adres`}},
		{"pl", []string{`poprzedni adres`}},
		{"ru", []string{`(предыдущи|прежни)\S* адрес`}},
		{"tr", []string{`(onceki|eski) adres`}},
	}},
	{id: "work-address", kind: kindVeto, qualifies: true, langs: []lang{
		{"en", []string{`(company|business|office|work|employer|agency) ?(street )?address`}},
		{"de", []string{`firmen ?(anschrift|adresse)`, `geschaftsadresse`}},
		{"fr", []string{`adresse (de l'entreprise|de la societe|professionnelle)`}},
		{"es", []string{`direccion (de la empresa|comercial|del trabajo)`}},
		{"it", []string{`indirizzo (aziendale|della (societa|ditta)|dell'azienda)`}},
		{"pt", []string{`endereco (comercial|da empresa)`}},
		{"nl", []string{`bedrijfsadres`}},
		{"ro", []string{`adresa (sediu|firmei|companiei|societatii)`, `sediu social`}},
	}},
	// Boxes about someone else (a friend to invite, an emergency contact,
	// a child or a spouse, a referrer, the director of a company that
	// registers as a customer): the person's own profile does not
	// belong in them. Recipients and parents or guardians are left out: on
	// shipping forms and children's sign-ups they are most often the
	// person filling the form; a gift's recipient is not.
	{id: "other-person", kind: kindVeto, qualifies: true, langs: []lang{
		{"en", []string{`friend'?s?\b`, `emergency`, `next of kin`, `(child|kid)'?s?\b`, `spouse'?s?\b`, `beneficiar`, `nominee`, `referr(er|ee)`, `sponsor'?s?\b`, `pet'?s? name`, `name of (your )?pet`, `(father|mother|husband)'?s? (full |maiden )?name`, `name of (the )?(father|mother|husband)`, `gift recipient`, `recipient of (the|your) gift`}},
		{"de", []string{`freund(es|in)?\b`, `notfall`, `kind(es)?\b`, `ehepartner`, `begunstigt`, `beschenkt`}},
		{"fr", []string{`ami(e)?\b`, `(d')?urgence`, `enfant`, `conjoint`, `beneficiaire`, `parrain`, `destinataire du cadeau`}},
		{"es", []string{`amigo`, `emergencia`, `hijo`, `conyuge`, `beneficiario`, `nino\b`, `nina\b`, `destinatario del regalo`}},
		{"it", []string{`amico`, `emergenza`, `figlio`, `coniuge`, `beneficiario`, `bambino`, `destinatario del regalo`}},
		{"pt", []string{`amigo`, `emergencia`, `filho`, `conjuge`, `beneficiario`}},
		{"nl", []string{`vriend`, `noodcontact`, `kind\b`, `echtgeno`}},
		{"pl", []string{`znajom`, `awaryjn`, `dziecka`, `malzon`}},
		{"sv", []string{`nodkontakt`, `barnets`}},
		{"ru", []string{`друг`, `экстренн`, `ребен`, `супруг`, `руководител`, `директор`}},
		{"ja", []string{`緊急連絡`, `お子様`, `配偶者`, `ご友人`, `友達`}},
		{"zh", []string{`紧急联系`, `緊急聯絡`, `孩子`, `配偶`, `朋友`}},
		{"ko", []string{`비상 ?연락`, `자녀`, `배우자`, `친구`}},
		{"tr", []string{`acil durum`, `cocug`, `arkadas`}},
		{"id", []string{`kontak darurat`, `anak\b`, `pasangan`, `teman`}},
	}},
	// Travel searches ask for places to go, not the person's address.
	// Bare "destination" is left out: shipping forms use it for the
	// delivery address.
	{id: "travel", kind: kindVeto, langs: []lang{
		{"en", []string{`(destination|origin) (city|airport|station)`, `(travel|trip|holiday) destination`, `(hotel|pick ?up|drop ?off|return) (city|location)`, `(flying|travel(l?ing)?) (from|to)`}},
		{"de", []string{`reiseziel`, `abflug`, `ankunft`, `abreise`}},
		{"fr", []string{`(ville|aeroport|gare|lieu) de depart`, `arrivee`}},
		{"es", []string{`(ciudad|aeropuerto|lugar) de (destino|origen|salida|llegada)`}},
		{"it", []string{`(citta|aeroporto|luogo) di (destinazione|partenza|arrivo)`}},
		{"pt", []string{`(cidade|aeroporto|local) de (destino|origem|partida|chegada)`}},
		{"nl", []string{`(plaats|luchthaven) van (vertrek|aankomst|bestemming)`, `vertrekplaats`}},
	}},
	// The reading of a name (フリガナ, セイ/メイ) is a value of its own,
	// which the person stores (profile.ConceptPhonetic*): sites check that
	// it is written in kana, so the name itself never goes there. Part
	// before whole: "姓（フリガナ）" is the family name's reading.
	{id: "phonetic-family-name", token: "phonetic-family-name", qualifies: true, langs: []lang{
		{"en", []string{`(last|family|sur) ?name (in )?(kana|furigana|katakana|hiragana|phonetic|reading)\b`, `(phonetic|kana|furigana|katakana|hiragana) (last|family|sur) ?name`, `(last|family) (kana|furigana)\b`, `(kana|furigana) (last|family|sei)\b`, `sei (kana|furigana)\b`}},
		{"ja", []string{`(?:^| )(?:セイ|せい|ミョウジ|みょうじ)(?: |$)`, `(?:^| )(?:姓|苗字|名字) ?` + kanaWord, kanaWord + ` ?(?:姓|苗字|名字)(?: |$)`}},
	}},
	{id: "phonetic-given-name", token: "phonetic-given-name", qualifies: true, langs: []lang{
		{"en", []string{`(first|given) ?name (in )?(kana|furigana|katakana|hiragana|phonetic|reading)\b`, `(phonetic|kana|furigana|katakana|hiragana) (first|given) ?name`, `(first|given) (kana|furigana)\b`, `(kana|furigana) (first|given|mei)\b`, `mei (kana|furigana)\b`}},
		{"ja", []string{`(?:^| )(?:メイ|めい|ナマエ)(?: |$)`, `(?:^| )名 ?` + kanaWord, kanaWord + ` ?名(?: |$)`}},
	}},
	{id: "phonetic-name", token: "phonetic-name", qualifies: true, langs: []lang{
		{"en", []string{`furigana`, `yomigana`, `kana\b`, `katakana`, `hiragana`, `phonetic`, `name reading`}},
		{"ja", []string{`フリガナ`, `ふりがな`, `フリカナ`, `ヨミガナ`, `よみがな`, `読み仮名`, `(?:カナ|かな)(?: |$)`, `(?:氏名|名前) ?の? ?(?:読み|よみ)`}},
	}},
	// A name's pronunciation ("how to say your name") and a Chinese name's
	// pinyin are not the kana reading a profile stores.
	{id: "pronunciation", kind: kindVeto, qualifies: true, langs: []lang{
		{"en", []string{`pronunciation`, `pinyin`}},
		{"zh", []string{`拼音`}},
	}},
	{id: "marital-status", kind: kindVeto, langs: []lang{
		{"en", []string{`marital`, `civil status`}},
		{"de", []string{`familienstand`}},
		{"fr", []string{`(etat|situation) (civil|familiale)`}},
		{"es", []string{`estado civil`}},
		{"it", []string{`stato civile`}},
		{"pt", []string{`estado civil`}},
		{"nl", []string{`burgerlijke staat`}},
		{"pl", []string{`stan cywilny`}},
		{"sv", []string{`civilstand`}},
		{"ru", []string{`семейное положение`}},
		{"tr", []string{`medeni hal`}},
		{"id", []string{`status perkawinan`}},
	}},
	{id: "birthplace", kind: kindVeto, qualifies: true, langs: []lang{
		{"en", []string{`(place|country|city|town|state|county|province) of birth`, `birth ?(place|city|town|country|state|province|county|nation)`, `native (city|town|country)`}},
		{"de", []string{`geburtsort`, `geburtsland`}},
		{"fr", []string{`lieu de naissance`, `pays de naissance`}},
		{"es", []string{`lugar de nacimiento`, `pais de nacimiento`}},
		{"it", []string{`luogo di nascita`, `(comune|provincia|nazione|stato|citta) di nascita`}},
		{"pt", []string{`local de nascimento`, `naturalidade`}},
		{"nl", []string{`geboorteplaats`, `geboorteland`}},
		{"pl", []string{`miejsce urodzenia`}},
		{"sv", []string{`fodelseort`}},
		{"ru", []string{`место рождения`}},
		{"ja", []string{`出生地`}},
		{"zh", []string{`出生地`, `籍贯`}},
		{"tr", []string{`dogum yeri`}},
		{"id", []string{`tempat lahir`, `(kota|negara|provinsi|kabupaten) lahir`}},
		{"cs", []string{`misto narozeni`, `(zeme|stat) narozeni`}},
		{"sk", []string{`miesto narodenia`, `krajina narodenia`}},
		{"hu", []string{`szuletesi hely`, `szuletesi orszag`}},
		{"ro", []string{`locul nasterii`}},
		{"el", []string{`τοπος γεννησης`}},
		{"fi", []string{`syntymapaikka`}},
		{"da", []string{`fodested`}},
		{"no", []string{`fodested`}},
		{"uk", []string{`місце народження`}},
		{"bg", []string{`място на раждане`}},
		{"hr", []string{`mjesto rodenja`, `drzava rodenja`}},
		{"lt", []string{`gimimo vieta`}},
		{"lv", []string{`dzimsanas vieta`}},
		{"et", []string{`sunnikoht`}},
		{"he", []string{`מקום לידה`, `(ארץ|עיר|מדינת|יישוב) (ה)?לידה`}},
		{"ar", []string{`مكان الميلاد`, `(بلد|مدينة|دولة) (ال)?ميلاد`}},
		{"fa", []string{`محل تولد`, `کشور محل تولد`}},
		{"vi", []string{`noi sinh`}},
		{"ca", []string{`lloc de naixement`}},
		{"hi", []string{`जन्म स्थान`}},
		{"th", []string{`(สถานที่|จังหวัดที่|ประเทศที่)เกิด`}},
		{"ko", []string{`출생지`, `출생 ?국가`, `출생 ?(국|국가|도시)`}},
		{"ms", []string{`(bandar|negara|negeri|tempat) lahir`}},
	}},
	// A name asked "as on" an identity document is the person's name, not
	// the document's number: before the document words of not-profile
	// ("passport") and other-card ("KTP", "cédula").
	{id: "document-name", token: "name", kinds: ckText, langs: []lang{
		{"en", []string{`^(full |legal )?name (exactly )?(as (per|on|in|shown on|printed on|it appears on)|according to) (your |the )?(id|identity|passport|national id|document|pan|aadhaar)`}},
		{"id", []string{`^nama( lengkap)? (sesuai|seperti (di|pada)) (ktp|identitas|kartu identitas|paspor)`}},
		{"es", []string{`^nombre( completo)? (como|segun) (aparece |figura )?(en )?(la |el |tu |su )?(cedula|documento|dni|identificacion|pasaporte)`}},
		{"pt", []string{`^nome( completo)? (como|conforme) (consta |aparece )?(no |na |em )?(seu |sua )?(documento|rg|identidade|passaporte)`}},
	}},
	// A free-text box for how to find the door ("Entre calles y
	// referencias", "Ponto de referência", "Directions") holds no line
	// of the street address, though it names streets: a text box with
	// such words is the second line (address-line2's rule), a text area
	// is the courier's note.
	{id: "directions", kind: kindVeto, kinds: ckTextarea, langs: []lang{
		{"en", []string{`directions`, `how to (find|get to|reach)`, `nearby landmarks?`, `^delivery (info|information|details|notes?)$`}},
		{"es", []string{`entre calles`, `^referencias?\b`, `puntos? de referencia`, `como llegar`}},
		{"pt", []string{`pontos? de referencia`, `^referencias?\b`, `como chegar`}},
	}},
	{id: "not-profile", kind: kindVeto, kinds: ckDefault | ckTextarea, langs: []lang{
		{"en", []string{`^c o\b`, `care ?of\b`, `(years?|months?|time|how long)( have you lived| lived| living)? (at|in)( the| your| this)?( current| present| previous)? (address|residence|home)`, `^presso( c ?o)?$`, `comment`, `message`, `subject`, `your question`, `enquiry`, `inquiry`, `feedback`, `note`, `instructions?\b`, `referr?al`, `referred by`, `how did you (hear|find)`, `results?\b`, `found\b`, `maiden`, `security (question|answer)`, `secret (question|answer)`, `answer`, `fax`, `vat\b`, `tax ?id`, `tin\b`, `ssn\b`, `social security( number| no| nr)?`, `passport`, `license`, `licence`, `membership`, `member ?id`, `customer (number|id)`, `iban`, `routing`, `bic\b`, `swift`, `order (number|id|no)`, `invoice ?(number|no|nr|num|id|date|ref)`, `^invoice$`, `tracking`, `reference`, `adults?\b`, `children`, `check ?in\b`, `arrival`, `departure`, `pickup`, `delivery date`, `budget`, `price`, `salary`, `url of`, `country of (origin|manufacture)`, `^domain$`, `file ?name`, `upload`, `gift message`, `^ext(?:[^e ]|e[^n ])`, `sort\b`, `order by`, `issue (date|number|no)`, `valid from`, `start date`, `card start\b`, `start (month|year)\b`, `type$`, `residence type`, `type of residence`, `opt ?(in|out)\b`, `name of (the )?(item|product|event|project)`, `(company|organi[sz]ation|business) ?(type|category|size|ein|id\b|number|registration|reg\b|document|sector|industry|web ?site|url\b|home ?page)`, `registration (number|no)\b`, `^ein\b`, `^federal ein\b`, `^employer ein\b`, `^your ein\b`, `ein (number|no|nr)\b`, `(name|title) of (the )?(event|product|project)`, `(ideal|desired|preferred|target|dream) (new )?(job|position|role)`, `(job|position|role) (you are |you re )?(applying|looking) for`, `position applied`, `(pet|product|item|store|shop|event|group|list|project|team|file|domain|site|account|bank|hotel|brand|shipping method) ?name`, `gstin`, `tax (number|no|nr|code|office|registration)`, `^(door|gate|entry|entrance|access|building|buzzer|intercom|keypad|lobby) ?code\b`, `between streets`, `cross streets?\b`, `^buzzer`, `^intercom`}},
		{"de", []string{`^tur ?code`, `wohnhaft seit`, `(seit wann|wie lange)( wohnen sie)? (an|unter) (dieser|der) (adresse|anschrift)`, `^tor ?code`, `^zugangscode`, `^haustur ?code`, `kommentar`, `nachricht`, `betreff`, `anmerkung`, `bemerkung`, `hinweis`, `mitteilung`, `frage`, `steuer`, `kundennummer`, `bestellnummer`, `gewunschte (stelle|position|tatigkeit)`, `wunsch ?(stelle|position|beruf)`, `ust ?id`, `umsatzsteuer`}},
		{"fr", []string{`^digicode`, `depuis (quand|combien de temps)( habitez vous)? a cette adresse`, `^code (d )?(acces|porte|portail|entree|immeuble|interphone)`, `^interphone`, `commentaire`, `message`, `objet`, `remarque`, `numero client`, `siret`, `tva`, `(poste|emploi|metier) (souhaite|recherche|vise)`}},
		{"es", []string{`^codigo (de |del )?(portal|acceso|puerta|porteria|entrada)`, `(anos|meses|tiempo) (en|viviendo en) (el |la |su |este |esta )?(domicilio|direccion|residencia)`, `^portero (automatico|electronico)`, `^telefonillo`, `entre (las )?calles?\b`, `^y (la )?calle\b`, `comentario`, `mensaje`, `asunto`, `observaciones`, `(instrucciones|indicaciones|referencias) (de|para la) entrega`, `nif`, `dni`, `cif\b`, `rfc\b`, `curp`, `(puesto|cargo|empleo) (deseado|solicitado|al que (aspira|postula))`}},
		{"it", []string{`^citofono`, `^codice (del |di )?(portone|cancello|accesso|ingresso)`, `commento`, `messaggio`, `oggetto`, `note`, `codice fiscale`, `partita iva`, `(posizione|ruolo|lavoro) (desiderat|ricercat)`}},
		{"pt", []string{`^codigo (de |do |da )?(portao|acesso|portaria|entrada)`, `^interfone`, `entre ruas\b`, `comentario`, `mensagem`, `assunto`, `observac`, `cpf`, `cnpj`, `nif\b`, `documento d[ao] empresa`, `inscricao (estadual|municipal)`}},
		{"nl", []string{`^deur ?code`, `^toegangscode`, `opmerking`, `bericht`, `onderwerp`, `btw ?(nummer|nr)`, `kv ?k\b`}},
		{"pl", []string{`^domofon`, `^kod (do )?(bramy|klatki|wejscia)`, `komentarz`, `wiadomosc`, `temat`, `uwagi`, `nip\b`, `pesel`, `regon`}},
		{"sv", []string{`^portkod`, `^dorrkod`, `kommentar`, `meddelande`, `amne`, `personnummer`, `organisationsnummer`}},
		{"no", []string{`^portkode`, `^dorkode`, `organisasjonsnummer`, `fodselsnummer`}},
		{"da", []string{`^portkode`, `^dorkode`, `cpr ?(nummer|nr)`, `cvr ?(nummer|nr)`}},
		{"hu", []string{`adoszam`, `megjegyzes`}},
		{"ru", []string{`^домофон`, `^код (подъезда|двери|входа)`, `комментар`, `сообщение`, `тема`, `вопрос`, `инн`, `паспорт`, `кпп\b`}},
		{"ja", []string{`お問い合わせ内容`, `コメント`, `メッセージ`, `備考`, `件名`, `法人番号`}},
		{"zh", []string{`留言`, `备注`, `評論`, `评论`, `主题`, `身份证`, `税号`, `纳税人识别号`}},
		{"ko", []string{`메시지`, `문의`, `제목`, `내용`, `추천인`, `사업자`, `요청 ?사항`}},
		{"tr", []string{`yorum`, `mesaj`, `konu`, `tc kimlik`, `vergi`, `siparis notu`}},
		{"id", []string{`komentar`, `pesan`, `catatan`, `subjek`, `nik\b`, `npwp`}},
		{"fa", []string{`کد ملی`}},
		{"fi", []string{`^ovikoodi`, `^porttikoodi`, `y ?tunnus`}},
		{"cs", []string{`^ico\b`, `^dic\b`, `poznamka`}},
		{"sk", []string{`^ico\b`, `^dic\b`}},
		{"ro", []string{`^cui\b`, `observatii`}},
		{"bg", []string{`еик\b`, `бележка`}},
		{"el", []string{`αφμ\b`, `σχολια`, `δραστηριοτητα`}},
		{"ar", []string{`(ال)?ضریبی`, `(ال)?ملاحظات`, `صندوق (ال)?بريد`}},
		{"he", []string{`עוסק מורשה`, `הערות`}},
		{"vi", []string{`ma so thue`, `ghi chu`}},
		{"ms", []string{`cukai`}},
		{"th", []string{`ผู้เสียภาษี`, `หมายเหตุ`}},
		{"hi", []string{`टिप्पणी`}},
		{"hr", []string{`^oib\b`, `napomena`}},
		{"sr", []string{`^pib\b`}},
		{"et", []string{`registrikood`, `markused`}},
		{"lv", []string{`pvn ?(numurs|nr|kods)`, `piezimes`}},
		{"lt", []string{`pvm (kodas|moketojo)`, `imones kodas`, `pastabos`}},
		{"uk", []string{`коментар`}},
		{"sl", []string{`opombe`}},
	}},
	// The name a site keeps a saved address under ("Home", "Work"): the
	// person's choice, not a part of the address.
	// Address books and finders, and a street's name asked apart from its
	// number: none takes a line of the profile's address.
	// A street's name asked apart from its number: no line of the
	// profile's address on its own; the address-run pass fills it from
	// the street line split when a house-number box is beside it.
	{id: "street-name", kind: kindVeto, langs: []lang{
		{"en", []string{`street ?name`}},
		{"de", []string{`strassenname`}},
		{"fr", []string{`nom de (la )?rue`}},
		{"es", []string{`nombre de (la )?calle`}},
		{"hu", []string{`kozterulet neve`}},
		{"da", []string{`vejnavn`}},
		{"id", []string{`nama jalan`}},
	}},
	// The kind of street asked apart from its name (Hungarian forms ask
	// "Közterület neve", "Közterület jellege": utca, út, tér): no part the
	// profile holds apart; the person picks it.
	{id: "street-type", kind: kindVeto, langs: []lang{
		{"en", []string{`street (type|suffix)`, `type of street`}},
		{"hu", []string{`kozterulet (jellege|tipusa)`}},
		{"fr", []string{`type de (la )?voie`}},
		{"es", []string{`tipo de (la )?via`}},
		{"pt", []string{`tipo de logradouro`}},
	}},
	{id: "address-key", kind: kindVeto, langs: []lang{
		{"en", []string{`address ?book\b`, `address (finder|picker|selector)`}},
		{"de", []string{`adressbuch`}},
		{"fr", []string{`carnet d'adresses`}},
		{"es", []string{`libreta de direcciones`}},
		{"nl", []string{`adresboek`}},
		{"it", []string{`rubrica indirizzi`}},
		{"tr", []string{`adres defter`}},
	}},
	// A box to find one of the addresses saved with the site: typing a
	// street line there searches them. (A select of the saved addresses
	// is left to the rules below: picking the person's own among its
	// options is filling it.)
	{id: "saved-address", kind: kindVeto, kinds: ckText, langs: []lang{
		{"en", []string{`saved address`, `my addresses`}},
		{"de", []string{`gespeicherte adresse`}},
		{"fr", []string{`adresses? enregistree`}},
		{"es", []string{`direccion(es)? guardada`}},
		{"nl", []string{`opgeslagen adres`}},
		{"it", []string{`indirizzi salvati`}},
		{"pt", []string{`enderecos (salvos|cadastrados)`}},
		{"tr", []string{`kayitli adres`, `adreslerim`}},
	}},
	{id: "address-label", kind: kindVeto, langs: []lang{
		{"en", []string{`address (name|nickname|label|alias)\b`, `^address title$`, `(name|label|save) (for |this |your )?(this )?address( as)?\b`, `address an? (name|nickname|label)\b`}},
		{"de", []string{`adressname`, `bezeichnung der adresse`, `adressbezeichnung`}},
		{"fr", []string{`nom de l'adresse`, `libelle de l'adresse`, `(donnez|donner) un nom a (cette |votre |l')adresse`}},
		{"es", []string{`nombre de (la )?direccion`, `alias de (la )?direccion`}},
		{"it", []string{`nome (dell')?indirizzo`}},
		{"pt", []string{`nome do endereco`, `apelido do endereco`}},
		{"id", []string{`nama alamat`, `label alamat`}},
		{"tr", []string{`adres basligi`, `adres adi`}},
	}},

	// A card's verification code in so many words ("Card verification
	// code", "Código de verificación de la tarjeta"): the card's security
	// code, before the one-time codes' "verification code" reads it.
	{id: "card-verification", token: "cc-csc", langs: []lang{
		{"en", []string{`card ?(verification|validation|security) (code|number|value)`}},
		{"fr", []string{`code de (verification|validation|securite) de (la |votre )?carte`}},
		{"es", []string{`codigo de (verificacion|validacion|seguridad) de (la |tu |su )?tarjeta`}},
		{"it", []string{`codice di (verifica|sicurezza) (della |dell )?carta`}},
		{"pt", []string{`codigo de (verificacao|seguranca) do cartao`}},
		{"nl", []string{`kaartverificatiecode`}},
	}},
	// Credentials and one-time codes: recognised so they are never filled
	// with profile data.
	{id: "one-time-code", token: "one-time-code", kind: kindGuard, langs: []lang{
		{"en", []string{`one ?time`, `otp\b`, `verification code`, `verify code`, `confirmation code`, `security code sent`, `sms code`, `(2fa|mfa|two factor|authenticat\w*) code`, `^pin$`, `pin (number|no)\b`, `enter (your )?pin`, `passcode`, `activation code`, `token\b`}},
		{"de", []string{`bestatigungscode`, `verifizierungscode`, `sicherheitscode per`, `einmal`}},
		{"fr", []string{`code de (verification|confirmation|securite recu)`, `code sms`, `code a usage unique`}},
		{"es", []string{`codigo de (verificacion|confirmacion)`, `codigo sms`}},
		{"it", []string{`codice di (verifica|conferma)`, `codice sms`}},
		{"pt", []string{`codigo de (verificacao|confirmacao)`, `codigo sms`}},
		{"nl", []string{`verificatiecode`, `bevestigingscode`}},
		{"pl", []string{`kod (weryfikacyjny|potwierdzajacy|sms)`}},
		{"sv", []string{`verifieringskod`, `engangskod`}},
		{"ru", []string{`код\w* подтверждения`, `код из (смс|sms)`, `одноразов`, `(смс|sms) ?код`, `(смс|sms) с код\w*`}},
		{"ja", []string{`認証コード`, `確認コード`, `ワンタイム`}},
		{"zh", []string{`验证码`, `驗證碼`, `校验码`, `动态码`}},
		{"ko", []string{`인증번호`, `인증 번호`, `인증코드`}},
		{"tr", []string{`dogrulama kodu`, `onay kodu`, `tek kullanimlik`}},
		{"id", []string{`kode (verifikasi|otp)`}},
		{"cs", []string{`(overovaci|potvrzovaci) kod`}},
		{"sk", []string{`(overovaci|potvrdzovaci) kod`}},
		{"hu", []string{`(ellenorzo|megerosito) kod`}},
		{"ro", []string{`cod de (verificare|confirmare)`, `cod sms`}},
		{"el", []string{`κωδικος (επαληθευσης|επιβεβαιωσης|μιας χρησης)`}},
		{"fi", []string{`vahvistuskoodi`, `varmennuskoodi`, `kertakayttokoodi`}},
		{"da", []string{`bekraeftelseskode`}},
		{"no", []string{`bekreftelseskode`}},
		{"uk", []string{`код\w* підтвердження`}},
		{"bg", []string{`код за (потвърждение|верификация)`}},
		{"hr", []string{`kod za (potvrdu|verifikaciju)`, `verifikacijski kod`}},
		{"sr", []string{`код за потврду`}},
		{"lt", []string{`patvirtinimo kodas`}},
		{"lv", []string{`(apstiprinajuma|verifikacijas) kods`}},
		{"et", []string{`kinnituskood`}},
		{"he", []string{`קוד (אימות|חד פעמי)`}},
		{"ar", []string{`(رمز|كود) (ال)?(تحقق|تأكيد|تفعيل)`}},
		{"fa", []string{`کد (تایید|تأیید)`}},
		{"hi", []string{`सत्यापन कोड`, `ओटीपी`}},
		{"bn", []string{`যাচাইকরণ কোড`, `ওটিপি`}},
		{"th", []string{`รหัสยืนยัน`}},
		{"vi", []string{`ma (xac nhan|xac thuc|otp)`}},
		{"ms", []string{`kod (pengesahan|tac)`}},
		{"ca", []string{`codi de (verificacio|confirmacio)`}},
		{"sl", []string{`(potrditvena|verifikacijska|enkratna) koda`}},
	}},
	// The password in use, named as such, stays the current password
	// whatever other password boxes follow (a change-password form).
	{id: "old-password", token: "current-password", kind: kindGuard, kinds: ckText, langs: []lang{
		{"en", []string{`(current|old|existing|present) password`}},
		{"de", []string{`(aktuelles|altes|bisheriges) passwort`}},
		{"fr", []string{`(ancien|actuel) mot de passe`, `mot de passe (actuel|ancien)`}},
		{"es", []string{`contrasena (actual|anterior)`, `(antigua|vieja) contrasena`}},
		{"it", []string{`password (attuale|vecchia|corrente)`, `vecchia password`}},
		{"pt", []string{`senha (atual|antiga)`}},
		{"nl", []string{`(huidig|oud) wachtwoord`}},
		{"pl", []string{`(obecne|stare|aktualne) haslo`}},
		{"sv", []string{`(nuvarande|gammalt) losenord`}},
		{"ru", []string{`(текущий|старый) пароль`}},
		{"ja", []string{`現在のパスワード`}},
		{"zh", []string{`当前密码`, `原密码`, `旧密码`}},
		{"ko", []string{`현재 비밀번호`}},
		{"tr", []string{`(mevcut|eski) sifre`}},
	}},
	{id: "new-password", token: "new-password", kind: kindGuard, kinds: ckText, langs: []lang{
		{"en", []string{`(new|confirm|repeat|retype|re ?enter|verify|create|choose) (a |your )?pass`, `pass(word)? (again|confirm\w*|repeat)`, `confirm ?pass`, `new ?pass`, `password 2`, `pass 2`}},
		{"de", []string{`neues passwort`, `passwort (wiederholen|bestatigen|erstellen|festlegen|wahlen)`, `kennwort (wiederholen|bestatigen)`, `(erstelle|wahle|vergib|vergeben sie) (ein |dein |ihr )?passwort`}},
		{"fr", []string{`nouveau mot de passe`, `confirme\w* (le |votre )?mot de passe`, `mot de passe \(?confirm`, `(creez|creer|choisissez|choisir|definissez) (un |votre )?mot de passe`}},
		{"es", []string{`nueva contrasena`, `(repetir|confirmar|repite|confirma|crea|crear|elige|elegir) (una |la |tu )?contrasena`}},
		{"it", []string{`nuova password`, `(conferma|ripeti|crea|scegli) (la |una )?password`}},
		{"pt", []string{`nova senha`, `(confirmar|repetir|confirme|repita|crie|criar|escolha|defina|cadastre) (a |sua |uma )?senha`}},
		{"nl", []string{`nieuw wachtwoord`, `(herhaal|bevestig|kies|maak) (een |je |uw )?wachtwoord`}},
		{"pl", []string{`nowe haslo`, `(powtorz|potwierdz|utworz|ustaw|wymysl) haslo`}},
		{"sv", []string{`nytt losenord`, `(upprepa|bekrafta|valj|skapa) (ett )?losenord`}},
		{"ru", []string{`новый пароль`, `(повторите|подтвердите|подтверждение|придумайте|создайте) пароль`, `пароль еще раз`}},
		{"ja", []string{`新しいパスワード`, `パスワード(確認|の確認|再入力)`}},
		{"zh", []string{`新密码`, `确认密码`, `重复密码`, `確認密碼`}},
		{"ko", []string{`새 비밀번호`, `비밀번호 확인`}},
		{"tr", []string{`yeni sifre`, `sifre (tekrar|onay)`}},
		{"id", []string{`kata sandi baru`, `konfirmasi (kata sandi|password)`, `ulangi (kata sandi|password)`}},
	}},
	{id: "current-password", token: "current-password", kind: kindGuard, kinds: ckText, langs: []lang{
		{"en", []string{`password`, `passwd`, `pass ?phrase`, `pwd\b`, `^pass$`, `^pw$`}},
		{"de", []string{`passwort`, `kennwort`}},
		{"fr", []string{`mot de passe`, `mdp\b`}},
		{"es", []string{`contrasena`, `clave\b`}},
		{"it", []string{`parola d'ordine`, `parola chiave`}},
		{"pt", []string{`senha`, `palavra passe`}},
		{"nl", []string{`wachtwoord`}},
		{"pl", []string{`haslo`}},
		{"sv", []string{`losenord`}},
		{"da", []string{`adgangskode`}},
		{"fi", []string{`salasana`}},
		{"cs", []string{`heslo`}},
		{"hu", []string{`jelszo`}},
		{"ro", []string{`parola`}},
		// Greek "κωδικός" is any code: alone or "of access" it is the
		// password, but a postcode is a "ταχυδρομικός κωδικός".
		{"el", []string{`^κωδικος$`, `κωδικος (προσβασης|προσβαση|χρηστη)`, `συνθηματικο`}},
		{"ru", []string{`пароль`}},
		{"uk", []string{`пароль`}},
		{"ja", []string{`パスワード`}},
		{"zh", []string{`密码`, `密碼`}},
		{"ko", []string{`비밀번호`, `패스워드`}},
		{"tr", []string{`sifre`, `parola`}},
		{"id", []string{`kata sandi`, `sandi`}},
		{"ar", []string{`كلمة المرور`, `كلمة السر`}},
		{"he", []string{`סיסמה`, `סיסמא`}},
		{"th", []string{`รหัสผ่าน`}},
		{"vi", []string{`mat khau`}},
		{"no", []string{`passord`}},
		{"bg", []string{`парола`}},
		{"hr", []string{`lozinka`}},
		{"sr", []string{`лозинка`}},
		{"lt", []string{`slaptazodis`}},
		{"lv", []string{`parole\b`}},
		{"et", []string{`parool`}},
		{"fa", []string{`رمز عبور`, `گذرواژه`, `کلمه عبور`}},
		{"hi", []string{`पासवर्ड`}},
		{"bn", []string{`পাসওয়ার্ড`}},
		{"ms", []string{`kata laluan`}},
		{"ca", []string{`contrasenya`}},
		{"sl", []string{`geslo`}},
	}},
	{id: "username", token: "username", kind: kindGuard, kinds: ckText, langs: []lang{
		{"en", []string{`e ?mail (address )?or (mobile |phone |cell )?(phone|number|user|login|mobile)`, `(phone|mobile|cell)( number)? or e ?mail`, `user ?(name|id)\b`, `^login$`, `^log ?in (name|id)$`, `(email|e mail) (address )?(or|/) (user|login)`, `(user|login)\w* (or|/) (email|e mail)`, `(account|member|customer|client)( (ref|id|number|no))? (or|/) (email|e mail)`, `(log|sign) ?in (name|id)`, `account id`, `^user$`, `^uid$`, `member name`, `mail ?box name`}},
		{"de", []string{`benutzer`, `anmeldename`, `e ?mail( adresse)? oder (telefon|handy|mobil)`, `(telefon|handy|mobil)\w* oder e ?mail`}},
		{"fr", []string{`(nom|identifiant) d'utilisateur`, `identifiant`, `pseudo`, `e ?mail ou (numero de )?(telephone|mobile|portable)`, `(numero de )?(telephone|mobile|portable) ou (adresse )?e ?mail`}},
		{"es", []string{`(nombre de )?usuario`, `(correo|e ?mail)( electronico)? o (numero de )?(telefono|celular|movil)`, `(telefono|celular|movil) o (correo|e ?mail)`}},
		{"it", []string{`nome utente`, `utente`, `e ?mail o (numero di )?(telefono|cellulare)`, `(telefono|cellulare) o e ?mail`}},
		{"pt", []string{`(nome de )?usuario`, `utilizador`, `e ?mail ou (numero de )?(telefone|celular|telemovel)`, `(telefone|celular|telemovel) ou e ?mail`}},
		{"nl", []string{`gebruikersnaam`, `e ?mail(adres)? of (telefoon|mobiel)`, `(telefoon|mobiel)\w* of e ?mail`}},
		{"pl", []string{`nazwa uzytkownika`, `e ?mail lub (numer )?(telefonu|telefon)`, `(numer )?telefonu? lub e ?mail`}},
		{"sv", []string{`anvandarnamn`, `e ?post(adress)? eller (telefon|mobil)`, `(telefon|mobil)\w* eller e ?post`}},
		{"da", []string{`brugernavn`}},
		{"fi", []string{`kayttajatunnus`, `kayttajanimi`}},
		{"cs", []string{`uzivatelske jmeno`}},
		{"ru", []string{`логин`, `имя пользователя`, `имя (почтового )?ящика`, `(телефон|номер телефона) или (e ?mail|почт\w*)`, `(e ?mail|почта|электронная почта) или (телефон|номер)`}},
		{"uk", []string{`логін`, `ім'я (поштової )?скриньки`}},
		{"ja", []string{`ユーザー名`, `ユーザid`, `ログイン`}},
		{"zh", []string{`用户名`, `用戶名`, `帐号`, `账号`, `帳號`, `(手机号|手机号码|手机)(或|/)(邮箱|电子邮件)`, `(邮箱|电子邮件)(或|/)(手机号|手机)`}},
		{"ko", []string{`아이디`, `사용자 이름`}},
		{"tr", []string{`kullanici adi`, `e ?posta( adresi)? (veya|ya da) (cep )?telefon`, `telefon\w* (veya|ya da) e ?posta`}},
		{"id", []string{`nama pengguna`}},
		{"hu", []string{`felhasznalonev`}},
		{"ro", []string{`nume de utilizator`}},
		{"el", []string{`ονομα χρηστη`}},
		{"uk", []string{`ім'я користувача`}},
		{"ar", []string{`اسم المستخدم`}},
		{"he", []string{`שם משתמש`}},
		{"hi", []string{`उपयोगकर्ता नाम`}},
		{"th", []string{`ชื่อผู้ใช้`}},
		{"vi", []string{`ten dang nhap`}},
		{"sk", []string{`pouzivatelske meno`}},
		{"no", []string{`brukernavn`}},
		{"bg", []string{`потребителско име`}},
		{"hr", []string{`korisnicko ime`}},
		{"sr", []string{`корисничко име`}},
		{"lt", []string{`(vartotojo|naudotojo|prisijungimo) vardas`}},
		{"lv", []string{`lietotajvards`, `lietotaja vards`}},
		{"et", []string{`kasutajanimi`}},
		{"fa", []string{`نام کاربری`}},
		{"bn", []string{`ইউজারনেম`, `ব্যবহারকারীর নাম`}},
		{"ca", []string{`nom d'usuari`}},
		{"sl", []string{`uporabnisko ime`}},
	}},

	// A person's age, before birth dates ("birthday_age" is no part of
	// the date): a number the profile does not hold.
	{id: "age", kind: kindVeto, langs: []lang{
		{"en", []string{`^(your |current )?age$`, `age (in years|years)$`, `birthday age$`}},
		{"de", []string{`^(ihr |dein )?alter$`}},
		{"fr", []string{`^(votre |ton )?age$`}},
		{"es", []string{`^(tu |su )?edad$`}},
		{"it", []string{`^(la tua )?eta$`}},
		{"pt", []string{`^(sua )?idade$`}},
		{"nl", []string{`^(je |uw )?leeftijd$`}},
		{"pl", []string{`^wiek$`}},
		{"sv", []string{`^alder$`}},
		{"fi", []string{`^ika$`}},
		{"cs", []string{`^vek$`}},
		{"ro", []string{`^varsta$`}},
		{"bg", []string{`^възраст$`}},
		{"el", []string{`^ηλικια$`}},
		{"ru", []string{`^(ваш )?возраст$`}},
		{"uk", []string{`^(ваш )?вік$`}},
		{"tr", []string{`^yas(iniz)?$`}},
		{"ja", []string{`^年齢$`}},
		{"zh", []string{`^年龄$`, `^年齡$`}},
		{"ko", []string{`^나이$`}},
	}},

	// Birth dates, before payment cards: "Date of birth (DD/MM/YYYY)"
	// names a birth date, not a card's "MM/YY".
	{id: "bday-day", token: "bday-day", langs: []lang{
		{"en", []string{`(birth|dob|bday|birthday) day\b`, `day of birth`}},
		{"de", []string{`geburtstag tag`, `tag der geburt`}},
		{"fr", []string{`jour de naissance`}},
		{"es", []string{`dia de nacimiento`}},
		{"it", []string{`giorno di nascita`}},
		{"pt", []string{`dia de nascimento`}},
		{"nl", []string{`geboortedag`}},
		{"pl", []string{`dzien urodzenia`}},
		{"ru", []string{`день рождения`}},
		{"tr", []string{`dogum gunu`}},
	}},
	{id: "bday-month", token: "bday-month", langs: []lang{
		{"en", []string{`(birth|dob|bday) ?month`, `month of birth`}},
		{"de", []string{`geburtsmonat`}},
		{"fr", []string{`mois de naissance`}},
		{"es", []string{`mes de nacimiento`}},
		{"it", []string{`mese di nascita`}},
		{"pt", []string{`mes de nascimento`}},
		{"nl", []string{`geboortemaand`}},
		{"pl", []string{`miesiac urodzenia`}},
		{"ru", []string{`месяц рождения`}},
		{"tr", []string{`dogum ayi`}},
		{"ar", []string{`شهر (ال)?ميلاد`}},
		{"sv", []string{`fodelsemanad`}},
		{"da", []string{`fodselsmaned`}},
		{"no", []string{`fodselsmaned`}},
		{"fi", []string{`syntymakuukausi`}},
		{"et", []string{`sunnikuu`}},
	}},
	{id: "bday-year", token: "bday-year", langs: []lang{
		{"en", []string{`(birth|dob|bday) ?year`, `year of (your )?birth`}},
		{"de", []string{`geburtsjahr`}},
		{"fr", []string{`annee de naissance`}},
		{"es", []string{`ano de nacimiento`}},
		{"it", []string{`anno di nascita`}},
		{"pt", []string{`ano de nascimento`}},
		{"nl", []string{`geboortejaar`}},
		{"pl", []string{`rok urodzenia`}},
		{"sv", []string{`fodelsear`}},
		{"ru", []string{`год рождения`}},
		{"ja", []string{`生まれ年`}},
		{"tr", []string{`dogum yili`}},
		{"da", []string{`fodselsar`}},
		{"no", []string{`fodselsar`}},
		{"fi", []string{`syntymavuosi`}},
		{"et", []string{`sunniaasta`}},
	}},
	{id: "bday", token: "bday", kinds: ckDefault, langs: []lang{
		{"en", []string{`birth`, `dob\b`, `d o b\b`, `bday`}},
		{"de", []string{`geburt`}},
		{"fr", []string{`naissance`}},
		{"es", []string{`nacimiento`, `cumpleanos`}},
		{"it", []string{`nascita`, `compleanno`}},
		{"pt", []string{`nascimento`, `aniversario`}},
		{"nl", []string{`geboorte`, `verjaardag`}},
		{"pl", []string{`urodzen`}},
		{"sv", []string{`fodelse`}},
		{"da", []string{`fodsels`}},
		{"fi", []string{`syntyma`}},
		{"no", []string{`fodsels`}},
		{"cs", []string{`narozeni`}},
		{"hu", []string{`szuletes`}},
		{"ro", []string{`nasterii`, `nastere`}},
		{"el", []string{`γεννησης`}},
		{"ru", []string{`рождени`}},
		{"uk", []string{`народження`}},
		{"ja", []string{`生年月日`, `誕生日`, `生まれ`}},
		{"zh", []string{`出生`, `生日`}},
		{"ko", []string{`생년월일`, `생일`, `출생`}},
		{"tr", []string{`dogum`}},
		{"id", []string{`tanggal lahir`, `tgl lahir`, `lahir\b`}},
		{"ar", []string{`تاريخ الميلاد`, `(ال)?ميلاد`}},
		{"he", []string{`תאריך לידה`, `לידה`}},
		{"th", []string{`วันเกิด`, `เกิด`}},
		{"vi", []string{`ngay sinh`, `(thang|nam) sinh`}},
		{"sk", []string{`narodeni`}},
		{"bg", []string{`раждане`}},
		{"hr", []string{`rodenja`}},
		{"sr", []string{`рођења`}},
		{"lt", []string{`gimimo`}},
		{"lv", []string{`dzimsanas`}},
		{"et", []string{`sunniaeg`, `sunnikuupaev`, `sunni(kuu|aasta)`}},
		{"fa", []string{`تولد`}},
		{"hi", []string{`जन्म`}},
		{"bn", []string{`জন্ম`}},
		{"ms", []string{`tarikh lahir`, `lahir\b`}},
		{"tl", []string{`kapanganakan`, `kaarawan`}},
		{"ca", []string{`naixement`}},
		{"sl", []string{`rojstva`}},
	}},

	// A date pattern alone ("DD/MM/YYYY") asks for some date, which one
	// the words around it must say: without them it is not a card expiry.
	{id: "date-pattern", kind: kindVeto, neutral: true, langs: []lang{
		{"en", []string{`dd mm yy(yy)?`, `mm dd yy(yy)?`, `yyyy mm dd`}},
		{"de", []string{`tt mm jj(jj)?`}},
		{"fr", []string{`jj mm aa(aa)?`}},
		{"es", []string{`dd mm aa(aa)?`}},
		{"it", []string{`gg mm aa(aa)?`}},
		{"nl", []string{`dd mm jj(jj)?`}},
	}},

	// Cards that are not payment cards (loyalty, library, identity, health
	// insurance): their numbers are never a credit card's.
	{id: "other-card", kind: kindVeto, qualifies: true, langs: []lang{
		{"en", []string{`loyalty`, `rewards? (card|number)`, `(library|student|club|member(ship)?|bonus|points?|transit|travel|health|insurance|medicare|id|identity|national id|voter|sim|employee|staff|access|parking|fuel) ?card`, `iccid`, `(identity |id |travel )?document (number|no|nr)`, `identification number`}},
		{"de", []string{`kundenkarte`, `bonuskarte`, `payback`, `personalausweis`, `versichertenkarte`, `krankenversicherung`, `sim ?karte`, `ausweisnummer`, `dokumentnummer`}},
		{"fr", []string{`fidelite`, `carte d'identite`, `carte vitale`, `carte (de )?membre`, `carte sim`, `numero (du |de )?(document|piece d'identite)`}},
		{"es", []string{`fidelizacion`, `tarjeta (de )?(socio|puntos|sanitaria)`, `documento de identidad`, `(numero|tipo) de documento`, `tarjeta sim`, `cedula`}},
		{"it", []string{`fedelta`, `carta d'identita`, `tessera sanitaria`, `numero (del )?documento`}},
		{"pt", []string{`fidelidade`, `cartao (de|do) cidadao`, `cartao (de )?socio`, `(numero|tipo) (do |de )?documento`}},
		{"nl", []string{`klantenkaart`, `spaarkaart`, `identiteitskaart`}},
		{"pl", []string{`lojalnosciow`, `dowod osobisty`, `legitymacj`}},
		{"ru", []string{`лояльност`, `бонусн`, `дисконтн`}},
		{"ja", []string{`ポイントカード`, `会員番号`, `会員証`}},
		{"zh", []string{`会员`, `會員`, `积分`, `積分`}},
		{"ko", []string{`멤버십`, `포인트 카드`, `회원 카드`}},
		{"tr", []string{`sadakat`, `kimlik kart`}},
		{"id", []string{`kartu (member|anggota|identitas)`, `ktp\b`}},
	}},

	// Payment cards: recognised so that they are never filled from the
	// profile, but classified to help the person see what a form asks.
	{id: "cc-given-name", token: "cc-given-name", kinds: ckText, langs: []lang{
		{"en", []string{`first name (on|as on) (the )?card`, `card ?holder'?s? first name`}},
		{"de", []string{`vorname (des )?karteninhaber`}},
		{"fr", []string{`prenom du titulaire`}},
	}},
	{id: "cc-additional-name", token: "cc-additional-name", kinds: ckText, langs: []lang{
		{"en", []string{`middle name (on|as on) (the )?card`, `card ?holder'?s? middle name`}},
	}},
	{id: "cc-family-name", token: "cc-family-name", kinds: ckText, langs: []lang{
		{"en", []string{`last name (on|as on) (the )?card`, `card ?holder'?s? last name`}},
		{"de", []string{`nachname (des )?karteninhaber`}},
		{"fr", []string{`nom du titulaire de la carte`}},
	}},
	{id: "cc-name", token: "cc-name", langs: []lang{
		{"en", []string{`name as (it )?(appears|shown|printed|written) on (the |your )?card`, `(name|holder) on (the |your )?card`, `card ?holder'?s?( (full )?name)?( (required|optional|exactly|as)\b.*)?$`, `card owner'?s?( name)?$`, `cc ?name`, `name of card`, `card name`, `cardname`}},
		{"de", []string{`karteninhaber`, `name auf der karte`}},
		{"fr", []string{`titulaire de la carte`, `nom sur la carte`, `nom du titulaire`}},
		{"es", []string{`titular de la tarjeta`, `nombre (como aparece )?en la tarjeta`, `nombre del titular`}},
		{"it", []string{`titolare (della )?carta`, `intestatario`, `nome (sulla|della) carta`}},
		{"pt", []string{`titular do cartao`, `nome (no|impresso no) cartao`}},
		{"nl", []string{`kaart ?houder`, `naam op (de )?kaart`}},
		{"pl", []string{`wlasciciel karty`, `imie i nazwisko na karcie`}},
		{"sv", []string{`kortinnehavare`, `namn pa kortet`}},
		{"ru", []string{`владелец карты`, `владельца карты`, `имя владельца`, `имя на карте`, `держатель карты`}},
		{"ja", []string{`カード名義`, `名義人`}},
		{"zh", []string{`持卡人`}},
		{"ko", []string{`카드 소유자`, `소유자명`}},
		{"tr", []string{`kart sahibi`, `kart uzerindeki isim`}},
		{"id", []string{`nama (pemegang|pada) kartu`, `nama (yang )?tertera (di|pada) kartu`, `nama di kartu`}},
		{"cs", []string{`jmeno (na karte|drzitele)`, `drzitel karty`}},
		{"sk", []string{`meno (na karte|drzitela)`, `drzitel karty`}},
		{"hu", []string{`kartyabirtokos`, `kartyatulajdonos`, `nev a kartyan`}},
		{"ro", []string{`numele de pe card`, `titular(ul)? (de )?card`}},
		{"el", []string{`κατοχος (της )?καρτας`, `ονομα κατοχου`, `κατοχος καρτας`}},
		{"fi", []string{`kortin haltija`, `nimi kortilla`, `kortinhaltija\S*`}},
		{"da", []string{`kortholder`, `kortindehaver`, `navn pa kortet`}},
		{"no", []string{`kortinnehaver`, `kortinhaver`}},
		{"uk", []string{`власник картки`, `ім'я на картці`, `ім'я власника`, `власник картки`}},
		{"bg", []string{`картодържател`, `притежател на картата`, `име на картата`}},
		{"hr", []string{`vlasnika? kartice`, `ime na kartici`}},
		{"sr", []string{`власника? картице`, `vlasnika? kartice`}},
		{"sl", []string{`imetnika? kartice`}},
		{"lt", []string{`kortel\pL* savinink`}},
		{"lv", []string{`kartes ipasniek`}},
		{"et", []string{`kaardi ?omanik`}},
		{"he", []string{`בעל הכרטיס`}},
		{"ar", []string{`حامل البطاقة`}},
		{"fa", []string{`دارنده کارت`}},
		{"hi", []string{`कार्डधारक`}},
		{"th", []string{`ชื่อบนบัตร`, `ชื่อผู้ถือบัตร`}},
		{"vi", []string{`ten chu the`, `chu the`}},
		{"ms", []string{`nama pemegang kad`, `nama pada kad`}},
		{"ca", []string{`titular de la targeta`}},
	}},
	{id: "cc-csc", token: "cc-csc", langs: []lang{
		{"en", []string{`cvv`, `cvc`, `vcode\b`, `cv2`, `cvn`, `csc\b`, `cid\b`, `security code`, `card code`, `verification (number|value)`, `card verification`, `security number`, `ccv`}},
		{"de", []string{`prufnummer`, `prufziffer`, `sicherheitscode`, `kartenprufnummer`}},
		{"fr", []string{`cryptogramme`, `code de securite`, `code securite`}},
		{"es", []string{`codigo de seguridad`}},
		{"it", []string{`codice di sicurezza`}},
		{"pt", []string{`codigo de seguranca`}},
		{"nl", []string{`beveiligingscode`, `kaartcode`}},
		{"pl", []string{`kod zabezpieczajacy`, `kod bezpieczenstwa`}},
		{"sv", []string{`sakerhetskod`}},
		{"ru", []string{`код безопасности`}},
		{"ja", []string{`セキュリティコード`}},
		{"zh", []string{`安全码`, `安全碼`}},
		{"ko", []string{`보안 코드`, `보안코드`}},
		{"tr", []string{`guvenlik kodu`}},
		{"id", []string{`kode keamanan`}},
		{"cs", []string{`bezpecnostni kod`}},
		{"sk", []string{`bezpecnostny kod`}},
		{"hu", []string{`biztonsagi kod`}},
		{"ro", []string{`cod de securitate`}},
		{"el", []string{`κωδικος ασφαλειας`}},
		{"fi", []string{`turvakoodi`, `tarkistusnumero`}},
		{"da", []string{`sikkerhedskode`, `kontrolcifre`}},
		{"no", []string{`sikkerhetskode`}},
		{"uk", []string{`код безпеки`}},
		{"bg", []string{`код за сигурност`}},
		{"hr", []string{`sigurnosni kod`}},
		{"sr", []string{`сигурносни код`}},
		{"sl", []string{`varnostna koda`}},
		{"lt", []string{`saugos kodas`}},
		{"lv", []string{`drosibas kods`}},
		{"et", []string{`turvakood`}},
		{"he", []string{`קוד (ה)?(אבטחה|ביטחון)`, `ספרות (ב)?גב (ה)?כרטיס`}},
		{"ar", []string{`رمز (ال)?امان`}},
		{"fa", []string{`کد امنیتی`}},
		{"hi", []string{`सुरक्षा कोड`}},
		{"th", []string{`รหัสความปลอดภัย`}},
		{"vi", []string{`ma bao mat`}},
		{"ms", []string{`kod keselamatan`}},
		{"ca", []string{`codi de seguretat`}},
	}},
	{id: "cc-exp-month", token: "cc-exp-month", langs: []lang{
		{"en", []string{`(exp|expiry|expiration|expires)\w* ?(date )?month`, `(card|cc) ?month`, `month ?(of )?expir`, `cc ?exp ?m`, `exp ?mo\b`, `exp ?mm$`}},
		{"de", []string{`ablaufmonat`, `gultig bis monat`}},
		{"fr", []string{`mois d'expiration`}},
		{"es", []string{`mes de (vencimiento|caducidad|expiracion)`}},
		{"it", []string{`mese di scadenza`}},
		{"pt", []string{`mes de (validade|vencimento|expiracao)`}},
		{"nl", []string{`vervalmaand`}},
		{"ru", []string{`месяц окончания`}},
		{"sv", []string{`utgangsmanad`}},
		{"da", []string{`udlobsmaned`}},
		{"fi", []string{`voimassaolokuukausi`}},
		{"et", []string{`aegumiskuu`}},
	}},
	{id: "cc-exp-year", token: "cc-exp-year", langs: []lang{
		{"en", []string{`(exp|expiry|expiration|expires)\w* ?(date )?year`, `(card|cc) ?year`, `year ?(of )?expir`, `cc ?exp ?y`, `exp ?yr\b`, `exp ?yy`}},
		{"de", []string{`ablaufjahr`, `gultig bis jahr`}},
		{"fr", []string{`annee d'expiration`}},
		{"es", []string{`ano de (vencimiento|caducidad|expiracion)`}},
		{"it", []string{`anno di scadenza`}},
		{"pt", []string{`ano de (validade|vencimento|expiracao)`}},
		{"nl", []string{`vervaljaar`}},
		{"ru", []string{`год окончания`}},
		{"sv", []string{`utgangsar`}},
		{"da", []string{`udlobsar`}},
		{"fi", []string{`voimassaolovuosi`}},
		{"et", []string{`aegumisaasta`}},
	}},
	{id: "cc-exp", token: "cc-exp", langs: []lang{
		{"en", []string{`expir`, `exp ?date`, `valid (thru|through|until|to)`, `^exp\b`, `mm ?/ ?yy`, `mm yy`, `cc ?exp`}},
		{"de", []string{`ablaufdatum`, `gultig bis`, `verfallsdatum`}},
		{"fr", []string{`date d'expiration`, `date de validite`, `expire`}},
		{"es", []string{`fecha de (vencimiento|caducidad|expiracion)`, `vencimiento`, `caducidad`}},
		{"it", []string{`scadenza`}},
		{"pt", []string{`validade`, `data de vencimento`}},
		{"nl", []string{`vervaldatum`, `geldig tot`}},
		{"pl", []string{`data waznosci`, `wazna do`, `waznosc`}},
		{"sv", []string{`utgangsdatum`, `giltig till`, `utgang`}},
		{"ru", []string{`срок действия`, `истечени`}},
		{"ja", []string{`有効期限`}},
		{"zh", []string{`有效期`, `到期`}},
		{"ko", []string{`유효기간`, `만료`}},
		{"tr", []string{`son kullanma`}},
		{"id", []string{`masa berlaku`, `kadaluarsa`, `kedaluwarsa`}},
		{"cs", []string{`platnost`, `datum platnosti`}},
		{"sk", []string{`platnost`}},
		{"hu", []string{`lejarat`}},
		{"el", []string{`ημερομηνια ληξης`, `ληξη`}},
		{"fi", []string{`voimassa`, `vanhenemis`}},
		{"da", []string{`udlobsdato`, `udlob`}},
		{"no", []string{`utlopsdato`}},
		{"uk", []string{`термін дії`, `закінчення`}},
		{"bg", []string{`валидност`, `валидна до`, `изтичане`}},
		{"hr", []string{`datum isteka`, `vrijedi do`, `isteka`}},
		{"sr", []string{`датум истека`, `важи до`}},
		{"sl", []string{`datum poteka`, `veljavnost`, `poteka`}},
		{"lt", []string{`galiojimo`}},
		{"lv", []string{`deriguma termins`, `deriguma`}},
		{"et", []string{`kehtivusaeg`, `aegumis`}},
		{"he", []string{`תוקף`, `תפוגה`}},
		{"ar", []string{`تاريخ (ال)?انتهاء`, `(ال)?انتهاء`}},
		{"fa", []string{`تاریخ انقضا`}},
		{"hi", []string{`समाप्ति`}},
		{"th", []string{`วันหมดอายุ`, `หมดอายุ`}},
		{"vi", []string{`ngay het han`, `het han`}},
		{"ms", []string{`tarikh luput`, `tarikh tamat`, `tamat tempoh`}},
		{"ca", []string{`caducitat`}},
	}},
	// An amount of money, before the card rules: "Amount on this card" and
	// "First credit card amount" (an order paid with two cards) ask how
	// much, not which card.
	{id: "transaction-amount", token: "transaction-amount", weight: lowValue, kinds: ckText, langs: []lang{
		{"en", []string{`(donation|payment|transfer) amount`, `amount to (pay|donate|transfer)`, `(credit |debit |gift )?card amount`, `amount (on|for|to charge to|charged to) (the |this |your |each )?(credit |debit |gift )?card`}},
		{"de", []string{`spendenbetrag`, `zahlungsbetrag`, `betrag (auf|fur|von) (der |dieser )?(karte|kreditkarte|geschenkkarte)`}},
		{"fr", []string{`montant du (don|paiement)`, `montant (sur|de) (la |cette )?carte`}},
		{"es", []string{`importe a pagar`, `monto a pagar`, `(importe|monto) (en|de) (la |esta )?tarjeta`}},
	}},
	{id: "cc-number", token: "cc-number", langs: []lang{
		{"en", []string{`card ?(number|no|num|#)`, `cc ?(number|num|no)`, `ccnum`, `credit ?card`, `debit card`, `^card$`, `card ?pan\b`}},
		{"de", []string{`kartennummer`, `kreditkarte`}},
		{"fr", []string{`numero de (la )?carte`, `carte de credit`, `carte bancaire`}},
		{"es", []string{`numero de (la )?tarjeta`, `tarjeta de credito`}},
		{"it", []string{`numero (della |di )?carta`, `carta di credito`}},
		{"pt", []string{`numero do cartao`, `cartao de credito`}},
		{"nl", []string{`kaartnummer`, `creditcard`}},
		{"pl", []string{`numer karty`}},
		{"sv", []string{`kortnummer`}},
		{"ru", []string{`номер карты`}},
		{"ja", []string{`カード番号`}},
		{"zh", []string{`卡号`, `卡號`, `信用卡`}},
		{"ko", []string{`카드 번호`, `카드번호`}},
		{"tr", []string{`kart numarasi`, `kart no`}},
		{"id", []string{`nomor kartu`, `no kartu( kredit| debit)?`, `nomor kartu kredit`}},
		{"cs", []string{`cislo karty`}},
		{"sk", []string{`cislo karty`}},
		{"hu", []string{`kartyaszam`}},
		{"ro", []string{`numar(ul)? (de )?card`, `numarul cardului`}},
		{"el", []string{`αριθμος καρτας`}},
		{"fi", []string{`kortin numero`, `korttinumero`}},
		{"uk", []string{`номер картки`}},
		{"bg", []string{`номер на карта(та)?\b`}},
		{"hr", []string{`broj kartice`}},
		{"sr", []string{`број картице`}},
		{"sl", []string{`stevilka kartice`}},
		{"lt", []string{`kortel\pL* numeris`}},
		{"lv", []string{`kartes numurs`}},
		{"et", []string{`kaardi number`, `kaardinumber`}},
		{"he", []string{`מספר (ה)?כרטיס`}},
		{"ar", []string{`رقم البطاقة`}},
		{"fa", []string{`شماره کارت`}},
		{"hi", []string{`कार्ड नंबर`}},
		{"th", []string{`หมายเลขบัตร`}},
		{"vi", []string{`^so the\b`}},
		{"ms", []string{`nombor kad`}},
		{"ca", []string{`numero de (la )?targeta`}},
	}},
	{id: "cc-type", token: "cc-type", weight: lowValue, kinds: ckDefault | ckChoice, langs: []lang{
		{"en", []string{`card ?type`, `type of card`, `card brand`}},
		{"de", []string{`kartentyp`, `kartenart`}},
		{"fr", []string{`type de carte`}},
		{"es", []string{`tipo de tarjeta`}},
		{"it", []string{`tipo (di )?carta`}},
		{"pt", []string{`tipo de cartao`, `bandeira`}},
		{"nl", []string{`kaarttype`}},
		{"ru", []string{`тип карты`}},
		{"zh", []string{`卡类型`}},
	}},

	// Contact.
	{id: "email", token: "email", langs: []lang{
		{"en", []string{`e ?mail( ?address)?( ?\d)?`, `mail address`, `^mail$`, `mail$`}},
		{"de", []string{`e ?mail ?adresse`}},
		{"fr", []string{`courriel`, `adresse (e ?)?mail`, `adresse electronique`, `mel\b`}},
		{"es", []string{`correo`}},
		{"it", []string{`posta elettronica`, `indirizzo (e ?)?mail`}},
		{"pt", []string{`correio eletronico`, `e ?mail`}},
		{"nl", []string{`e ?mailadres`, `mailadres`}},
		{"pl", []string{`adres e ?mail`, `poczta`}},
		{"sv", []string{`e ?post`, `mejl`}},
		{"da", []string{`e ?mail`}},
		{"fi", []string{`sahkoposti`}},
		{"no", []string{`e ?post`}},
		{"cs", []string{`e ?mail`}},
		{"hu", []string{`e ?mail cim`}},
		{"el", []string{`ηλεκτρονικο ταχυδρομειο`, `email`, `ηλεκτρονικη (σασ |σου )?διευθυνση`, `ηλεκτρονικου ταχυδρομειου`}},
		{"ru", []string{`эл ?почт`, `электронн\S* почт`, `почта`, `e mail`}},
		{"uk", []string{`електронна пошта`, `ел пошта`, `електронн\S* пошт`}},
		{"ja", []string{`メール`, `メールアドレス`}},
		{"zh", []string{`邮箱`, `电子邮件`, `郵箱`, `電子郵件`, `邮件`}},
		{"ko", []string{`이메일`, `메일`}},
		{"tr", []string{`e ?posta`}},
		{"id", []string{`surel`, `surat elektronik`}},
		{"ar", []string{`(ال)?بريد (ال)?الكتروني`, `البريد\b`, `(ال)?ايميل`, `بريدك`}},
		// The quote of "דוא\"ל" splits it into two words once normalized.
		{"he", []string{`דוא ?ל\b`, `(ה)?אימייל`, `(ה)?דואר (ה)?אלקטרוני`}},
		{"hi", []string{`ईमेल`}},
		{"th", []string{`อีเมล`}},
		{"vi", []string{`thu dien tu`}},
		{"bg", []string{`имейл`, `електронна поща`, `е ?поща`}},
		{"sr", []string{`е ?пошта`, `електронска пошта`, `imejl`, `e ?posta\b`, `имејл`, `е ?пошт`}},
		{"lt", []string{`el pastas`, `el pasto`, `el pasta\b`}},
		{"lv", []string{`e ?past(s|a)\b`, `e ?pastu\b`}},
		{"fa", []string{`ایمیل`, `پست الکترونیک`}},
		{"bn", []string{`ই ?মেইল`, `ইমেল`}},
		{"ca", []string{`correu`, `adreca electronica`, `correu electronic`}},
		{"sq", []string{`posta elektronike`}},
		{"is", []string{`netfang`}},
		{"af", []string{`e ?pos ?adres`}},
		{"ur", []string{`ای ?میل`}},
		{"sw", []string{`barua pepe`}},
		{"uz", []string{`elektron pochta`}},
		{"hy", []string{`էլ ?փոստ`}},
		{"ka", []string{`ელ ?ფოსტა`, `ელფოსტა`}},
		{"az", []string{`e ?poct`}},
		{"mk", []string{`е ?пошта`}},
		{"kk", []string{`электрондық пошта`}},
		{"ta", []string{`மின்னஞ்சல்`}},
		{"ne", []string{`इमेल`}},
		{"mn", []string{`и ?мэйл`, `имэйл`}},
		{"am", []string{`ኢሜይል`, `ኢሜል`}},
		{"be", []string{`электронная пошта`}},
	}},
	// The whole number, asked for with its area or calling code ("Phone
	// (with country code)"): not the code alone, nor the national part.
	{id: "tel-with-area", token: "tel", kinds: ckText, langs: []lang{
		{"en", []string{`(phone|number|tel\w*|mobile|cell) (with|incl\w*|including|plus) (the |your )?(area|country|dial(l?ing)?|calling|international) (code|prefix)`, `area code and (phone )?number`}},
		{"de", []string{`(telefon\w*|rufnummer|mobil\w*|handy\w*) (mit|inkl\w*|einschliesslich) (der )?(vorwahl|landervorwahl|landesvorwahl)`, `vorwahl und (rufnummer|telefonnummer|nummer)`}},
		{"es", []string{`(telefono|numero|celular|movil) (con|incluyendo|incluido) (el )?(codigo (de |del )?(area|pais)|lada|prefijo)`, `(codigo de area|lada) y (numero|telefono)`}},
		{"pt", []string{`ddd e (numero|telefone|celular)`, `(numero|telefone|celular) (com|incluindo) (o )?(ddd|ddi|codigo do pais)`}},
		{"fr", []string{`(telephone|numero|portable|mobile) (avec|y compris) (l )?indicatif`}},
		{"it", []string{`(telefono|numero|cellulare) (con|incluso|compreso) (il )?prefisso`, `prefisso e numero`}},
		{"nl", []string{`(telefoonnummer|nummer|mobiel\w*) (met|incl\w*|inclusief) (het )?(landcode|netnummer)`}},
		{"pl", []string{`telefon\w* (z|wraz z) (numerem )?kierunkow`}},
	}},
	// On a list too: "Country code" or "Phone prefix" over "+49" or
	// "Germany (+49)" (fromOptions keeps a list without calling codes a
	// country list).
	{id: "tel-country-code", token: "tel-country-code", langs: []lang{
		{"en", []string{`(dial(l?ing)?|calling|international) ?(code|prefix)`, `country ?(code|prefix)`, `(phone|tel|telephone|mobile)( number)? ?(country|cc)\b`, `country ?phone`, `^\+$`, `(phone|tel|telephone|mobile)( number)? ?prefix`, `prefix (phone|tel|telephone|mobile)\b`, `(phone|telephone|mobile) [a-z]+ prefix$`}},
		{"de", []string{`landervorwahl`, `landesvorwahl`}},
		{"fr", []string{`indicatif`}},
		{"es", []string{`codigo (de )?pais`, `prefijo (internacional|de pais|telefonico)`}},
		{"it", []string{`prefisso internazionale`}},
		{"pt", []string{`codigo do pais`, `ddi\b`}},
		{"nl", []string{`landcode`, `landnummer`}},
		{"pl", []string{`kierunkowy kraju`}},
		{"ru", []string{`код страны`}},
		{"ja", []string{`国番号`}},
		{"zh", []string{`国家代码`, `区号`}},
		{"ko", []string{`국가 번호`}},
		{"tr", []string{`ulke kodu`}},
		{"id", []string{`kode negara`}},
		{"sv", []string{`landskod`, `landsnummer`}},
		{"da", []string{`landekode`, `landkode`}},
		{"no", []string{`landkode`, `landskode`}},
		{"fi", []string{`maakoodi`, `maatunnus`}},
		{"cs", []string{`predvolba (zeme|statu)`, `^predvolba$`}},
		{"sk", []string{`predvolba (krajiny|statu)`, `^predvolba$`}},
		{"hu", []string{`orszagkod`, `orszaghivo`}},
		{"ro", []string{`prefix (de )?tara`, `prefix telefon`}},
		{"bg", []string{`код на държавата`}},
		{"el", []string{`κωδικοσ χωρασ`}},
		{"uk", []string{`код країни`}},
		{"hr", []string{`pozivni broj drzave`, `^pozivni broj$`}},
		{"lt", []string{`salies kodas`}},
		{"lv", []string{`valsts kods`}},
		{"et", []string{`riigikood`, `riigi kood`}},
		{"ko", []string{`국가 코드`}},
		{"ar", []string{`رمز الدولة`, `مفتاح الدولة`}},
		{"he", []string{`קידומת מדינה`}},
		{"fa", []string{`کد کشور`}},
		{"vi", []string{`ma quoc gia`}},
		{"th", []string{`รหัสประเทศ`}},
		{"hi", []string{`देश कोड`}},
	}},
	{id: "tel-area-code", token: "tel-area-code", langs: []lang{
		{"en", []string{`area ?code`, `phone ?(area|1)\b`}},
		{"de", []string{`vorwahl`}},
		{"es", []string{`codigo de area`, `lada\b`}},
		{"pt", []string{`ddd\b`, `codigo de area`}},
		{"it", []string{`prefisso`}},
		{"nl", []string{`netnummer`}},
		{"ru", []string{`код города`}},
		{"ja", []string{`市外局番`}},
		{"hu", []string{`korzetszam`}},
	}},
	{id: "tel-national", token: "tel-national", kinds: ckText, langs: []lang{
		{"en", []string{`national (phone )?number`, `phone number without (the )?country code`}},
		{"de", []string{`rufnummer ohne landervorwahl`}},
	}},
	{id: "tel-local-prefix", token: "tel-local-prefix", kinds: ckText, langs: []lang{
		{"en", []string{`phone ?(prefix|exchange)`, `exchange\b`}},
	}},
	{id: "tel-local-suffix", token: "tel-local-suffix", kinds: ckText, langs: []lang{
		{"en", []string{`phone ?suffix`, `line number`}},
	}},
	{id: "tel-local", token: "tel-local", kinds: ckText, langs: []lang{
		{"en", []string{`local (phone )?number`, `number without area code`}},
		{"de", []string{`rufnummer ohne vorwahl`}},
	}},
	{id: "tel-extension", token: "tel-extension", langs: []lang{
		{"en", []string{`phone ?ext`, `extension\b`, `^ext\b`}},
		{"de", []string{`durchwahl`}},
		{"es", []string{`extension`}},
		{"ru", []string{`добавочный`}},
		{"pt", []string{`ramal`}},
		{"hu", []string{`mellek\b`}},
		{"pl", []string{`numer wewnetrzny`}},
		{"ja", []string{`内線`}},
		{"nl", []string{`toestel`}},
		{"sv", []string{`anknytning`}},
		{"fi", []string{`alanumero`}},
		{"uk", []string{`внутрішн`}},
		{"bg", []string{`вътрешен`}},
		{"el", []string{`εσωτερικο`}},
		{"tr", []string{`dahili`}},
		{"ar", []string{`رقم داخلی`}},
		{"he", []string{`שלוחה`}},
		{"ko", []string{`내선`}},
		{"zh", []string{`分机`, `分機`}},
		{"vi", []string{`so may le`}},
		{"id", []string{`ekstensi`}},
	}},
	{id: "tel", token: "tel", kinds: ckText, langs: []lang{
		{"en", []string{`phone`, `tel\b`, `telephone`, `mobile`, `cell`, `contact (number|no)`, `mob\b`, `land ?line`}},
		{"de", []string{`telefon`, `handy`, `mobil`, `rufnummer`, `telnr`}},
		{"fr", []string{`telephone`, `portable`, `mobile`}},
		{"es", []string{`telefono`, `celular`, `movil`, `^cel$`}},
		{"it", []string{`telefono`, `cellulare`}},
		{"pt", []string{`telefone`, `telemovel`, `celular`, `contacto telefonico`}},
		{"nl", []string{`telefoon`, `mobiel`, `gsm\b`}},
		{"pl", []string{`telefon`, `komork`, `nr tel`}},
		{"sv", []string{`telefon`, `mobilnummer`, `mobil`}},
		{"da", []string{`telefon`, `mobil`}},
		{"fi", []string{`puhelin`, `matkapuhelin`}},
		{"no", []string{`telefon`, `mobil`}},
		{"cs", []string{`telefon`, `mobil`}},
		{"hu", []string{`telefon`, `mobil`}},
		{"ro", []string{`telefon`, `mobil`}},
		{"el", []string{`τηλεφωνο`, `κινητο`, `σταθερο`}},
		{"ru", []string{`телефон`, `мобильн`}},
		{"uk", []string{`телефон`, `мобільн`}},
		{"ja", []string{`電話`, `携帯`}},
		{"zh", []string{`电话`, `電話`, `手机`, `手機`}},
		{"ko", []string{`전화`, `휴대폰`, `핸드폰`, `연락처`}},
		{"tr", []string{`telefon`, `cep (telefonu|tel|no|numarasi)`, `gsm\b`}},
		{"id", []string{`telepon`, `telp`, `ponsel`, `nomor hp`, `no hp`, `handphone`, `whatsapp`}},
		{"ar", []string{`هاتف`, `الهاتف`, `جوال`, `الجوال`, `موبايل`, `(ال)?موبايل`, `رقم (هاتفك|جوالك)`}},
		{"he", []string{`(ה)?טלפון`, `(ה)?נייד`}},
		{"hi", []string{`फोन`, `फ़ोन`, `मोबाइल`}},
		{"th", []string{`โทรศัพท์`, `เบอร์โทร`, `มือถือ`}},
		{"vi", []string{`dien thoai`, `so dt`, `(so )?di dong`}},
		{"hr", []string{`mobitel`}},
		{"lv", []string{`talrun`}},
		{"et", []string{`mobiil`}},
		{"fa", []string{`تلفن`, `موبایل`, `شماره همراه`}},
		{"bn", []string{`ফোন`, `মোবাইল`}},
		{"tl", []string{`telepono`}},
		{"bg", []string{`мобилен`}},
		{"is", []string{`simi\b`, `farsimi`, `simanumer`}},
		{"af", []string{`selfoon`, `telefoonnommer`}},
		{"ur", []string{`فون`, `موبائل`}},
		{"sw", []string{`simu\b`}},
		{"hy", []string{`հեռախոս`}},
		{"ka", []string{`ტელეფონი`, `მობილური`}},
		{"ta", []string{`கைபேசி`, `தொலைபேசி`}},
		{"mn", []string{`утас`}},
		{"am", []string{`ስልክ`}},
		{"be", []string{`тэлефон`}},
	}},

	// Organisation.
	{id: "organization-title", token: "organization-title", weight: lowValue, kinds: ckText, langs: []lang{
		{"en", []string{`job ?title`, `organi[sz]ation ?title`, `position`, `job role`, `occupation`, `designation`}},
		{"de", []string{`berufsbezeichnung`, `position`, `beruf`}},
		{"fr", []string{`fonction`, `poste\b`, `profession`}},
		{"es", []string{`cargo\b`, `puesto`, `profesion`}},
		{"it", []string{`qualifica`, `professione`}},
		{"pt", []string{`cargo\b`, `profissao`, `funcao`}},
		{"nl", []string{`functie`, `beroep`}},
		{"pl", []string{`stanowisko`, `zawod`}},
		{"ru", []string{`должность`}},
		{"ja", []string{`役職`}},
		{"zh", []string{`职位`, `職稱`}},
		{"ko", []string{`직책`, `직위`}},
		{"tr", []string{`unvan`, `meslek`, `pozisyon`}},
		{"id", []string{`jabatan`, `pekerjaan`}},
		{"hr", []string{`radno mjesto`, `^funkcija$`}},
		{"sr", []string{`радно место`, `radno mesto`}},
		{"sl", []string{`delovno mesto`}},
		{"sv", []string{`befattning`}},
		{"no", []string{`stilling`}},
		{"da", []string{`stilling`}},
		{"fi", []string{`tehtavanimike`}},
		{"cs", []string{`pracovni pozice`, `^funkce$`}},
		{"hu", []string{`beosztas`}},
		{"uk", []string{`посада`}},
		{"bg", []string{`длъжност`}},
		{"el", []string{`θεση εργασιασ`}},
		{"ar", []string{`(ال)?مسمى (ال)?وظیفی`}},
		{"he", []string{`תפקיד`}},
		{"vi", []string{`chuc vu`}},
		{"lt", []string{`pareigos`}},
		{"lv", []string{`amats`}},
		{"et", []string{`ametikoht`}},
	}},
	// One box for a person's or a company's name ("Nome e cognome /
	// Ragione sociale"): a private buyer gives their own name.
	{id: "name-or-company", token: "name", kinds: ckText, langs: []lang{
		{"en", []string{`(full )?name (or|/) (company|business)( name)?\b`, `(full )?name (company|business) name\b`}},
		{"de", []string{`name (oder |/ )?(firma|firmenname)`}},
		{"hu", []string{`nev (vagy )?cegnev`}},
		{"fr", []string{`nom (et prenom )?(ou|/)? ?raison sociale`}},
		{"es", []string{`nombre (y apellidos? )?(o|/)? ?razon social`}},
		{"it", []string{`nome (e cognome )?(o|/)? ?ragione sociale`}},
		{"pt", []string{`nome (completo )?(ou|/)? ?razao social`}},
	}},
	// The person a company's order or account is for ("Contact person",
	// "Ansprechpartner"), named beside or after the company ("Company
	// contact name", "Ansprechpartner im Unternehmen"): a name, before
	// the company words make it the organization. After the e-mail and
	// phone rules: "Contact person's phone" is a phone number.
	{id: "contact-person", token: "name", kinds: ckText, langs: []lang{
		{"en", []string{`contact name`, `contact person`, `name of (the )?contact\b`}},
		{"de", []string{`ansprechpartner`, `kontaktperson`}},
		{"fr", []string{`personne (de contact|a contacter)`, `nom du contact`, `interlocuteur`}},
		{"es", []string{`persona de contacto`, `nombre (del|de) contacto`}},
		{"it", []string{`referente`, `persona (di contatto|da contattare|di riferimento)`}},
		{"pt", []string{`pessoa (de|para) contac?to`, `nome (do|de) contac?to`}},
		{"nl", []string{`contactpersoon`}},
		{"pl", []string{`osoba (kontaktowa|do kontaktu)`}},
		{"fi", []string{`yhteyshenkilo`}},
		{"cs", []string{`kontaktni osob`}},
		{"sk", []string{`kontaktna osob`}},
		{"hu", []string{`kapcsolattarto`}},
		{"ro", []string{`persoana de contact`}},
		{"ru", []string{`контактное лицо`, `контактного лица`}},
		{"uk", []string{`контактна особа`, `контактної особи`}},
		{"tr", []string{`yetkili kisi`, `ilgili kisi`}},
		{"el", []string{`υπευθυνος επικοινωνιας`}},
	}},
	{id: "organization", token: "organization", langs: []lang{
		{"en", []string{`company( ?name)?`, `organi[sz]ation( ?name)?`, `business name`, `(agency|school|university|employer|practice|clinic) ?name`, `employer`, `firm\b`, `^org$`, `institution`, `corporation`, `affiliation`, `name of (your |the )?(company|business|organi[sz]ation|employer)`}},
		{"de", []string{`firma`, `unternehmen`, `firmenname`, `arbeitgeber`}},
		{"fr", []string{`societe`, `entreprise`, `raison sociale`, `organisme`}},
		{"es", []string{`empresa`, `compania`, `organizacion`, `razon social`}},
		{"it", []string{`azienda`, `societa`, `ragione sociale`, `ditta`}},
		{"pt", []string{`empresa`, `companhia`, `organizacao`, `razao social`}},
		{"nl", []string{`bedrijf`, `organisatie`, `firma`, `bedrijfsnaam`}},
		{"pl", []string{`firma`, `nazwa firmy`, `organizacja`}},
		{"sv", []string{`foretag`, `organisation`}},
		{"da", []string{`firma`, `virksomhed`}},
		{"fi", []string{`yritys`, `yrityksen nimi`}},
		{"cs", []string{`firma`, `spolecnost`, `nazev (firmy|spolecnosti)`}},
		{"ru", []string{`компани[яи]`, `организаци[яи]`, `фирм[аы]`}},
		{"ja", []string{`会社`, `企業`, `法人名`}},
		{"zh", []string{`公司`, `单位`, `機構`, `机构`}},
		{"ko", []string{`회사`, `기업`}},
		{"tr", []string{`sirket`, `firma`, `kurum`}},
		{"id", []string{`perusahaan`, `instansi`}},
		{"sk", []string{`nazov (firmy|spolocnosti)`, `spolocnost`}},
		{"hu", []string{`cegnev`, `ceg\b`}},
		{"ro", []string{`companie`, `societate`, `denumire (firma|societate)`}},
		{"el", []string{`εταιρ`, `επωνυμια`}},
		{"uk", []string{`компанія`, `компанії`}},
		{"bg", []string{`фирм`}},
		{"hr", []string{`tvrtk`, `naziv (tvrtke|firme|kompanije)`, `poduzece`, `preduzece`, `kompanija`}},
		{"sr", []string{`предузеће`, `фирм`, `компанија`}},
		{"lt", []string{`imon(e|es)\b`}},
		{"lv", []string{`uznemum`}},
		{"et", []string{`ettevot`}},
		{"he", []string{`חברה\b`, `שם (ה)?חברה`, `שם העסק`}},
		{"ar", []string{`(ال)?شركة`}},
		{"fa", []string{`شرکت`}},
		{"hi", []string{`कंपनी`}},
		{"bn", []string{`কোম্পানি`, `প্রতিষ্ঠান`}},
		{"th", []string{`บริษัท`}},
		{"vi", []string{`cong ty`}},
		{"ms", []string{`syarikat`}},
		{"sl", []string{`podjetj`}},
		{"tl", []string{`kumpanya`}},
	}},

	// Addresses, most specific first.
	// The address of a web site, a computer or a wallet, before the
	// postal address's words: "Website address", "Adresse du site",
	// "Адрес сайта" ask for no street. A person's site, as the "url"
	// rule below: never filled on its word alone.
	{id: "web-address", token: "url", weight: lowValue, kinds: ckText, langs: []lang{
		{"en", []string{`(web ?site|web|ip|wallet|site|home ?page|internet|url|blog|mac|bitcoin|crypto) address`, `address of (your |the )?(web ?site|site|home ?page|blog)`}},
		{"de", []string{`web ?adresse`, `internet ?adresse`, `(ip|mac) ?adresse`}},
		{"fr", []string{`adresse (du |de votre )?(site|web)`, `adresse ip`}},
		{"es", []string{`direccion (del sitio )?web`, `direccion (del|de tu|de su) sitio`, `direccion ip`}},
		{"it", []string{`indirizzo (del )?(sito|web)`, `indirizzo ip`}},
		{"pt", []string{`endereco (do )?(site|web)`, `endereco ip`}},
		{"nl", []string{`internetadres`, `ip ?adres`}},
		{"pl", []string{`adres (strony|www|ip)`}},
		{"sv", []string{`webbadress`, `ip ?adress`}},
		{"ru", []string{`адрес (сайта|веб)`, `веб адрес`, `ip адрес`}},
		{"uk", []string{`адреса (сайту|веб)`, `веб адреса`}},
		{"tr", []string{`web sitesi adresi`, `ip adresi`}},
		{"cs", []string{`webova adresa`, `adresa (webu|stranky|www)`, `ip adresa`}},
		{"hu", []string{`weboldal cime`, `honlap cime`, `ip cim`}},
		{"ar", []string{`عنوان (ال)?موقع`}},
		{"he", []string{`כתובת (ה)?אתר`}},
		{"zh", []string{`网站地址`, `网址`}},
		{"vi", []string{`dia chi (website|trang web|web)`}},
		{"id", []string{`alamat (situs|website|web)`, `alamat ip`}},
	}},
	{id: "address-line3", token: "address-line3", kinds: ckText | ckTextarea, langs: []lang{
		{"en", []string{`(address|addr|street|line) ?(3|three)\b`, `address line 3`, `third line`}},
		{"de", []string{`adresszeile 3`}},
		{"fr", []string{`adresse 3`, `ligne 3`}},
		{"es", []string{`direccion 3`, `linea 3`}},
	}},
	{id: "address-line2", token: "address-line2", kinds: ckText | ckTextarea, langs: []lang{
		{"en", []string{`(address|addr|street|line) ?(2|two)\b`, `address line 2`, `apt\b`, `apartment`, `suite`, `unit\b`, `flat\b`, `floor\b`, `building`, `address (complement|details|additional|addition|supplement)( address)?( line)?( ?(1|one|2|two))?\b`, `addition to (the |your )?address`, `second line`, `^area street`, `street sector`, `landmark`, `^door( number| no| nr)?$`, `bell or door$`, `^entrance\b`, `staircase`, `^ste$`, `bldg\b`, `^flr$`, `add ?(2|two)$`, `additional address( line)?( ?(1|one|2|two))?\b`}},
		{"de", []string{`adresszusatz`, `adresszeile 2`, `wohnung`, `stockwerk`, `etage`, `stiege`, `^(tur|tuer)( ?nr| ?nummer)?$`, `turnummer`, `gebaude`, `^eingang$`}},
		{"fr", []string{`complement d'adresse`, `complement`, `batiment`, `appartement`, `etage`, `adresse 2`, `lieu dit`, `^boite$`, `^app( bureau)?$`, `^(no )?d'appartement$`}},
		{"es", []string{`departamento`, `apartamento`, `piso\b`, `depto`, `interior\b`, `^(numero|num|no) ?int$`, `direccion 2`, `(datos|informacion) adicional`, `puerta\b`, `bloque\b`, `entre calles`, `punto de referencia`, `edificio`, `dpto\b`, `escalera\b`}},
		{"it", []string{`interno\b`, `scala\b`, `indirizzo 2`, `piano\b`, `appartamento`, `edificio`, `informazioni aggiuntive (dell'|sull')?indirizzo`, `indirizzo aggiuntivo`}},
		{"pt", []string{`complemento`, `apartamento`, `andar\b`, `bloco\b`, `ponto de referencia`, `edificio`}},
		{"nl", []string{`toevoeging`, `adresregel 2`, `^bus( ?nr| ?nummer)?$`, `busnummer`, `verdieping`, `gebouw`, `^ingang$`, `^deur`, `adrestoevoeging`}},
		{"pl", []string{`numer (lokalu|mieszkania)`, `nr (lokalu|mieszkania)`, `lokal\b`, `mieszkani`, `adres 2`, `pietro\b`, `budynek`, `klatka`, `drzwi`, `dodatkowe (informacje|dane) adresowe`}},
		{"sv", []string{`c ?o adress`, `adressrad 2`, `lagenhet`, `vaning`, `byggnad`, `uppgang`, `^dorr`, `adress ?tillagg`}},
		{"ru", []string{`квартира`, `кв\b`, `офис`, `корпус`, `этаж`, `подъезд`, `здание`, `^дверь`, `дополнительная информация к адресу`, `дополнительный адрес`}},
		{"uk", []string{`квартира`, `поверх`, `будівля`, `під.?ізд`, `додаткова адреса`, `додаткова інформація до адреси`}},
		{"ja", []string{`建物`, `マンション`, `番地以降`, `部屋番号`}},
		{"zh", []string{`地址2`, `地址 2`, `公寓`, `楼层`, `地址补充`, `详细地址补充`, `^室$`, `室號`, `房號`, `房号`, `^單位$`}},
		{"ko", []string{`상세주소`, `상세 주소`, `나머지 주소`, `건물`, `^층$`}},
		{"tr", []string{`adres 2`, `daire`, `^kat\b`, `^bina\b`, `^kapi( no| numarasi)?$`, `adres tarifi`}},
		{"id", []string{`alamat 2`, `gedung`, `lantai`, `apartemen`, `alamat tambahan`}},
		{"cs", []string{`cislo bytu`, `patro\b`, `budova`, `vchod`, `^dvere`, `doplnujici udaje k adrese`, `doplnek adresy`}},
		{"sk", []string{`cislo bytu`, `poschodie`}},
		{"hu", []string{`emelet`, `ajto\b`, `lepcsohaz`, `cim ?kiegeszites`, `kiegeszites a cimhez`, `epulet`, `lakas\b`, `cimsor 2`}},
		{"ro", []string{`bloc\b`, `apartament`, `scara\b`, `etaj\b`, `cladire`, `informatii suplimentare (despre )?adresa`, `adresa suplimentara`}},
		{"el", []string{`οροφος`, `διαμερισμα`, `κτιριο`, `εισοδοσ`, `^πορτα`, `συμπληρωματικη διευθυνση`}},
		{"fi", []string{`huoneisto`, `osoiterivi 2`, `porras`, `osoitteen lisatie(to|dot)`, `lisaosoite`, `kerros`, `rakennus`, `^ovi\b`}},
		{"da", []string{`lejlighed`, `side ?dor\b`, `bygning`, `opgang`, `tilfojelse til adresse`, `adressetilfojelse`}},
		{"no", []string{`leilighet`, `adresselinje 2`, `etasje`, `bygning`}},
		{"bg", []string{`апартамент`, `етаж`, `блок\b`, `вход\b`, `сграда`, `допълнителен адрес`, `допълнителна информация за адреса`}},
		{"hr", []string{`broj stana`, `^kat\b`, `zgrada`, `^ulaz$`, `dodatna adresa`, `^stan( broj)?$`}},
		{"sr", []string{`спрат`, `^стан$`, `број стана`, `sprat\b`}},
		{"lt", []string{`buto numeris`, `butas\b`, `pastatas`, `aukstas\b`, `laiptine`, `papildomas adresas`}},
		{"lv", []string{`dzivokl`, `stavs\b`, `kapnutelpa`, `papildu adrese`}},
		{"et", []string{`korter`, `hoone`, `korrus`, `trepikoda`, `taiendav aadress`}},
		{"he", []string{`(ה)?דירה`, `(ה)?קומה`, `(ה)?כניסה`, `(ה)?בניין`, `כתובת נוספת`}},
		{"vi", []string{`can ho`, `toa nha`, `dia chi bo sung`}},
		{"hi", []string{`फ्लैट`, `इमारत`, `मंजिल`, `अतिरिक्त पता`, `^क्षेत्र गली`, `गली सेक्टर`, `लैंडमार्क`}},
		{"ar", []string{`(ال)?شقة`, `(ال)?طابق`, `^(ال)?دور$`, `(ال)?مبنى`, `(ال)?مدخل`, `(ال)?باب\b`, `عنوان إضافي`}},
		{"fa", []string{`واحد\b`, `طبقه`}},
		{"ms", []string{`alamat baris 2`, `bangunan`, `pangsapuri`}},
		{"ca", []string{`pis\b`, `porta\b`}},
		{"th", []string{`อาคาร`, `อพาร์ตเมนต์`, `ที่อยู่เพิ่มเติม`}},
		{"sl", []string{`stanovanje`, `nadstropje`, `^vhod$`, `dodatni naslov`}},
	}},
	// "Town or village", "City, town or village" (British forms) ask for
	// the town, whatever it is called: not the sub-district a lone
	// "village" names below.
	{id: "town-or-village", token: "address-level2", langs: []lang{
		{"en", []string{`(city |town )+(or |and )?village`, `village (or |and )?(town|city)`}},
	}},
	// Before level 3: "sub-district" is a finer part than "district".
	{id: "address-level4", token: "address-level4", langs: []lang{
		{"en", []string{`sub ?district`, `village`}},
		// "丁目・番地" asks for the block and lot numbers: the street line.
		{"ja", []string{`丁目(?:$| [^番])`}},
		// Indonesia's kelurahan or desa, the part of a kecamatan.
		{"id", []string{`kelurahan`, `desa\b`}},
	}},
	{id: "address-level3", token: "address-level3", langs: []lang{
		{"en", []string{`neighbou?rhood`, `district\b`}},
		{"de", []string{`ortsteil`, `stadtteil`}},
		{"fr", []string{`quartier`}},
		{"cs", []string{`mestska cast`}},
		{"hu", []string{`kerulet`}},
		{"ro", []string{`^sector(ul)?$`, `cartier`}},
		{"bg", []string{`квартал`}},
		{"ru", []string{`район`, `микрорайон`}},
		{"uk", []string{`район`}},
		{"fa", []string{`محله`}},
		{"es", []string{`colonia`, `barrio`, `corregimiento`, `comuna`}},
		{"pt", []string{`bairro`, `freguesia`}},
		// "町名・番地" asks for the town area with its lot number, the
		// street line, not the area alone.
		{"ja", []string{`町名(?:$| [^番])`}},
		{"ko", []string{`동\b`}},
		{"tr", []string{`mahalle`, `semt`}},
		{"id", []string{`kecamatan`}},
		{"th", []string{`ตำบล`, `แขวง`}},
		{"tl", []string{`barangay`, `brgy\b`}},
		{"vi", []string{`phuong xa`, `^phuong$`, `^xa$`}},
		{"zh", []string{`区县`, `区 县`, `县区`}},
		{"ar", []string{`^الحي$`}},
		{"it", []string{`frazione`}},
		{"nl", []string{`^wijk$`}},
		{"pl", []string{`dzielnica`}},
		{"no", []string{`^bydel$`}},
		{"fi", []string{`kaupunginosa`}},
		{"el", []string{`^περιοχη$`}},
		{"hr", []string{`^cetvrt$`, `gradska cetvrt`}},
		{"lt", []string{`seniunija`, `mikrorajon`}},
		{"lv", []string{`pagasts`}},
		{"et", []string{`linnaosa`}},
		{"he", []string{`(ה)?שכונה`}},
		{"sl", []string{`cetrt`}},
	}},
	{id: "postal-code", token: "postal-code", langs: []lang{
		{"en", []string{`zip`, `post ?code`, `postal ?(code|index|number|no)`, `^postal$`, `pin ?code`, `^pc$`, `eircode`, `^p ?code$`}},
		{"de", []string{`plz\b`, `postleitzahl`}},
		{"fr", []string{`code postal`, `^cp\b`, `npa\b`}},
		{"es", []string{`codigo postal`, `^cp$`, `c p\b`}},
		{"it", []string{`cap\b`, `^c a p$`, `codice postale`}},
		{"pt", []string{`cep\b`, `codigo postal`}},
		{"nl", []string{`postcode`}},
		{"pl", []string{`kod pocztowy`, `indeks pocztowy`}},
		{"sv", []string{`postnummer`, `postnr`}},
		{"da", []string{`postnummer`, `postnr`}},
		{"fi", []string{`postinumero`}},
		{"no", []string{`postnummer`}},
		{"cs", []string{`psc\b`}},
		{"hu", []string{`iranyitoszam`}},
		{"ro", []string{`cod postal`}},
		{"el", []string{`ταχυδρομικ\pL* κωδικ`, `τ κ\b`, `τκ\b`, `ταχ κωδικασ`}},
		{"ru", []string{`индекс`, `почтовый код`}},
		{"uk", []string{`індекс`}},
		{"ja", []string{`郵便番号`, `〒`}},
		{"zh", []string{`邮编`, `邮政编码`, `郵遞區號`, `郵政編碼`}},
		{"ko", []string{`우편번호`}},
		{"tr", []string{`posta kodu`}},
		{"id", []string{`kode pos`}},
		{"ar", []string{`الرمز البريدي`, `رمزك (ال)?بريدي`, `(ال)?رقم (ال)?بريدي`}},
		{"he", []string{`(ה)?מיקוד`}},
		{"th", []string{`รหัสไปรษณีย์`}},
		{"hi", []string{`पिन ?कोड`, `डाक कोड`}},
		{"vi", []string{`ma buu (chinh|dien)`}},
		{"bg", []string{`пощенски код`}},
		{"hr", []string{`postanski broj`}},
		{"sr", []string{`поштански број`}},
		{"lt", []string{`pasto kodas`}},
		{"lv", []string{`pasta indekss`}},
		{"et", []string{`postiindeks`}},
		{"fa", []string{`کد ?پستی`}},
		{"bn", []string{`পোস্ট ?কোড`, `পোস্টাল কোড`}},
		{"ms", []string{`poskod`}},
		{"ca", []string{`codi postal`}},
		{"sl", []string{`postna stevilka`}},
		{"sq", []string{`kodi? postar`}},
		{"is", []string{`postnumer`}},
		{"ur", []string{`پوسٹل کوڈ`, `پوسٹ کوڈ`}},
		{"sw", []string{`msimbo wa posta`}},
		{"uz", []string{`pochta indeksi`}},
		{"hy", []string{`փոստային (ինդեքս|կոդ)`, `պոստային կոդ`}},
		{"ka", []string{`საფოსტო (ინდექსი|კოდი)`}},
		{"az", []string{`poct indeksi`}},
		{"kk", []string{`пошта индекс`}},
		{"mk", []string{`поштенски број`}},
		{"ta", []string{`அஞ்சல் குறியீடு`, `பின் ?கோடு`}},
		{"mn", []string{`шуудангийн код`}},
		{"be", []string{`паштовы індэкс`}},
	}},
	{id: "country-name", token: "country-name", kinds: ckText, langs: []lang{
		{"en", []string{`country name`}},
		{"de", []string{`landesname`}},
		{"fr", []string{`nom du pays`}},
		{"es", []string{`nombre del pais`}},
	}},
	{id: "country", token: "country", langs: []lang{
		{"en", []string{`country`, `nation\b`, `united states`, `^c ?n?try$`}},
		{"de", []string{`land\b`, `staat\b`}},
		{"fr", []string{`pays`}},
		{"es", []string{`pais`}},
		{"it", []string{`paese`, `nazione`, `stato\b`}},
		{"pt", []string{`pais`}},
		{"nl", []string{`land\b`}},
		{"pl", []string{`kraj`, `panstwo`}},
		{"sv", []string{`land\b`}},
		{"fi", []string{`maa\b`}},
		{"cs", []string{`zeme`, `stat\b`}},
		{"hu", []string{`orszag`}},
		{"ro", []string{`tara\b`}},
		{"el", []string{`χωρα`}},
		{"ru", []string{`страна`}},
		{"uk", []string{`країна`}},
		{"ja", []string{`国`}},
		{"zh", []string{`国家`, `國家`}},
		{"ko", []string{`국가`}},
		{"tr", []string{`ulke`}},
		{"id", []string{`negara`}},
		{"ar", []string{`الدولة`, `البلد\b`, `بلدك`}},
		{"he", []string{`(ה)?מדינה`, `(ה)?ארץ`}},
		{"th", []string{`ประเทศ`}},
		{"vi", []string{`quoc gia`}},
		{"bg", []string{`държава`}},
		{"hr", []string{`drzava`}},
		{"sr", []string{`држава`}},
		{"lt", []string{`salis\b`}},
		{"lv", []string{`valsts`}},
		{"et", []string{`riik\b`}},
		{"fa", []string{`کشور`}},
		{"hi", []string{`देश`}},
		{"bn", []string{`দেশ`}},
		{"tl", []string{`bansa`}},
		{"sq", []string{`shteti`, `vendi\b`}},
		{"ur", []string{`ملک`}},
		{"sw", []string{`nchi\b`}},
		{"uz", []string{`mamlakat`}},
		{"hy", []string{`երկիր`}},
		{"ka", []string{`ქვეყანა`}},
		{"az", []string{`olkə`}},
	}},
	{id: "address-level1", token: "address-level1", langs: []lang{
		{"en", []string{`state( ?name)?`, `province( ?name)?`, `region( ?name)?`, `county( ?name)?`, `prefecture`, `territory`, `governorate`, `emirate`, `voivodeship`, `oblast`, `^prov$`, `^pref$`}},
		{"de", []string{`bundesland`, `kanton`}},
		{"fr", []string{`province`, `region`, `departement`}},
		{"es", []string{`provincia`, `estado`, `region`, `comunidad autonoma`, `departamento`}},
		{"it", []string{`provincia`, `regione`}},
		{"pt", []string{`estado`, `provincia`, `distrito`, `uf\b`}},
		{"nl", []string{`provincie`}},
		{"pl", []string{`wojewodztwo`}},
		{"sv", []string{`lan\b`}},
		{"ro", []string{`judet`}},
		{"ru", []string{`область`, `регион`, `край\b`}},
		{"uk", []string{`область`}},
		{"ja", []string{`都道府県`}},
		{"zh", []string{`省`, `州`, `所在地区`, `^地区$`, `省市区`, `省/市/区`, `縣市`, `县市`}},
		{"ko", []string{`시 ?도`}},
		{"tr", []string{`^il$`, `sehir`, `eyalet`, `sehri`}},
		{"id", []string{`provinsi`}},
		{"vi", []string{`tinh thanh`, `^tinh\b`}},
		{"th", []string{`จังหวัด`}},
		{"hi", []string{`राज्य`}},
		{"hu", []string{`megye`}},
		{"el", []string{`νομος`, `περιφερεια`}},
		{"fi", []string{`maakunta`}},
		{"no", []string{`fylke`}},
		{"bg", []string{`област\b`}},
		{"hr", []string{`zupanija`, `pokrajina`, `^regija$`}},
		{"lt", []string{`apskritis`}},
		{"lv", []string{`novads`}},
		{"et", []string{`maakond`}},
		{"ar", []string{`(ال)?منطقة`, `(ال)?محافظة`, `(ال)?ولاية`, `(ال)?امارة`}},
		{"fa", []string{`استان`}},
		{"bn", []string{`বিভাগ`}},
		{"ms", []string{`negeri`}},
		{"tl", []string{`lalawigan`}},
		{"sq", []string{`rrethi`, `qarku`}},
		{"af", []string{`provinsie`}},
		{"ur", []string{`صوبہ`}},
		{"sw", []string{`mkoa\b`}},
		{"uz", []string{`viloyat`}},
		{"hy", []string{`մարզ`}},
		{"ka", []string{`რეგიონი`}},
		{"he", []string{`מחוז`}},
		{"sl", []string{`^regija$`}},
		{"sr", []string{`^округ$`, `^okrug$`}},
	}},
	{id: "address-level2", token: "address-level2", langs: []lang{
		{"en", []string{`city( ?name)?`, `town`, `suburb`, `settlement$`, `municipality`, `^locality$`, `address ?locality`, `^cty$`}},
		{"de", []string{`stadt`, `ort\b`, `wohnort`, `gemeinde`}},
		{"fr", []string{`ville`, `localite`, `commune`}},
		{"es", []string{`ciudad`, `localidad`, `poblacion`, `municipio`}},
		{"it", []string{`citta`, `comune`, `localita`}},
		{"pt", []string{`cidade`, `localidade`, `municipio`, `concelho`}},
		{"nl", []string{`plaats`, `woonplaats`, `stad`, `^gemeente$`}},
		{"pl", []string{`miasto`, `miejscowosc`, `^gmina$`}},
		{"sv", []string{`ort\b`, `postort`, `stad\b`, `^kommun$`}},
		{"da", []string{`bynavn`, `^by$`, `og by\b`, `kommune`}},
		{"fi", []string{`kaupunki`, `postitoimipaikka`, `toimipaikka`, `paikkakunta`, `^kunta$`}},
		{"no", []string{`poststed`, `sted\b`, `kommune`}},
		{"cs", []string{`mesto`, `obec`}},
		{"hu", []string{`varos`, `telepules`}},
		{"ro", []string{`oras`, `localitate`}},
		{"el", []string{`πολη`, `^δημοσ$`}},
		{"ru", []string{`город`, `населенный пункт`}},
		{"uk", []string{`місто`, `населений пункт`}},
		{"ja", []string{`市区町村`}},
		{"zh", []string{`城市`, `市\b`, `鄉鎮市區`, `乡镇`}},
		{"ko", []string{`도시`, `시 ?군 ?구`}},
		{"tr", []string{`ilce`}},
		{"id", []string{`kota`, `kabupaten`}},
		{"ar", []string{`المدينة`, `مدينة`, `البلدة`, `مدينتك`}},
		{"he", []string{`(ה)?עיר`, `(ה)?יישוב`}},
		{"th", []string{`เมือง`, `อำเภอ`}},
		{"hi", []string{`शहर`}},
		{"vi", []string{`thanh pho`, `quan huyen`, `^quan$`, `huyen\b`}},
		{"bg", []string{`град\b`, `населено място`}},
		{"hr", []string{`grad\b`, `mjesto`, `^opcina$`}},
		{"sr", []string{`град\b`}},
		{"lt", []string{`miestas`, `savivaldybe`}},
		{"lv", []string{`pilseta`, `pasvaldiba`}},
		{"et", []string{`linn\b`}},
		// Alone: in Arabic "شهر" is a month.
		{"fa", []string{`^شهر$`, `شهرستان`, `شهر محل سکونت`}},
		{"bn", []string{`শহর`}},
		{"ms", []string{`bandar`}},
		{"tl", []string{`lungsod`}},
		{"ca", []string{`poblacio`}},
		{"sq", []string{`qyteti?\b`}},
		{"is", []string{`sveitarfelag`, `baejarfelag`, `staður`}},
		{"ur", []string{`شہر`}},
		{"sw", []string{`jiji\b`, `^mji$`}},
		{"uz", []string{`shahar`}},
		{"hy", []string{`քաղաք`}},
		{"ka", []string{`ქალაქი`}},
		{"az", []string{`səhər`}},
		{"kk", []string{`қала\b`}},
		{"ky", []string{`шаар`}},
		{"ta", []string{`நகரம்`}},
		{"mn", []string{`^хот$`}},
		{"am", []string{`ከተማ`}},
		{"be", []string{`^горад$`}},
	}},
	{id: "street-address", token: "street-address", kinds: ckTextarea, langs: []lang{
		{"en", []string{`address`, `street`}},
		{"de", []string{`anschrift`, `adresse`, `strasse`}},
		{"fr", []string{`adresse`}},
		{"es", []string{`direccion`, `domicilio`}},
		{"it", []string{`indirizzo`}},
		{"pt", []string{`endereco`, `morada`}},
		{"nl", []string{`adres`}},
		{"pl", []string{`adres`}},
		{"sv", []string{`adress`}},
		{"ru", []string{`адрес`}},
		{"ja", []string{`住所`}},
		{"zh", []string{`地址`}},
		{"ko", []string{`주소`}},
		{"tr", []string{`adres`}},
		{"id", []string{`alamat`}},
	}},
	// A street is typed: a list of addresses is a picker of saved
	// addresses, never the street itself.
	{id: "address-line1", token: "address-line1", kinds: ckText | ckTextarea, langs: []lang{
		{"en", []string{`(address|addr|street|line) ?(1|one)\b`, `street`, `^line$`, `address line`, `first line`, `add ?(1|one)$`}},
		{"de", []string{`strasse`, `str\b`}},
		{"fr", []string{`rue\b`, `voie\b`, `adresse 1`}},
		{"es", []string{`calle`, `direccion 1`}},
		{"it", []string{`via\b`}},
		{"pt", []string{`rua\b`, `logradouro`}},
		{"nl", []string{`straat`, `straatnaam`}},
		{"pl", []string{`ulica`}},
		{"sv", []string{`gatuadress`}},
		{"da", []string{`vej\b`}},
		{"fi", []string{`katuosoite`, `lahiosoite`}},
		{"no", []string{`gateadresse`}},
		{"cs", []string{`ulice`}},
		{"hu", []string{`utca`, `cimsor( 1)?$`}},
		{"ro", []string{`strada`}},
		{"el", []string{`οδος`}},
		{"ru", []string{`улица`}},
		{"uk", []string{`вулиця`}},
		{"ja", []string{`番地`}},
		{"zh", []string{`街道`}},
		{"tr", []string{`sokak`, `cadde`}},
		{"id", []string{`jalan`}},
		{"he", []string{`(ה)?רחוב`}},
		{"lt", []string{`gatve`}},
		{"lv", []string{`iela\b`}},
		{"et", []string{`tanav`}},
		{"fa", []string{`خیابان`}},
		{"ar", []string{`(ال)?شارع`}},
		{"ca", []string{`carrer`}},
		{"th", []string{`ถนน`}},
		{"tl", []string{`^kalye$`}},
	}},
	{id: "address", token: "address-line1", weak: true, kinds: ckText | ckTextarea, langs: []lang{
		{"en", []string{`address`, `addr\b`}},
		{"de", []string{`anschrift`, `adresse`, `^adr$`}},
		{"fr", []string{`adresse`}},
		{"es", []string{`direccion`, `domicilio`}},
		{"it", []string{`indirizzo`}},
		{"pt", []string{`endereco`, `morada`}},
		{"nl", []string{`adres`}},
		{"pl", []string{`adres`}},
		{"sv", []string{`adress`}},
		{"da", []string{`adresse`}},
		{"fi", []string{`osoite`}},
		{"no", []string{`adresse`}},
		{"cs", []string{`adresa`}},
		{"hu", []string{`cim\b`, `lakcim`}},
		{"ro", []string{`adresa`}},
		{"el", []string{`διευθυνση`}},
		{"ru", []string{`адрес`}},
		{"uk", []string{`адреса`}},
		{"ja", []string{`住所`}},
		{"zh", []string{`地址`}},
		{"ko", []string{`주소`}},
		{"tr", []string{`adres`}},
		{"id", []string{`alamat`}},
		{"ar", []string{`العنوان`, `عنوانك`, `عنوان\b`}},
		{"he", []string{`(ה)?כתובת`}},
		{"hi", []string{`पता`}},
		{"th", []string{`ที่อยู่`}},
		{"vi", []string{`dia chi`}},
		{"fa", []string{`آدرس`, `نشانی`}},
		{"bn", []string{`ঠিকানা`}},
		{"ca", []string{`adreca`}},
		{"et", []string{`aadress`}},
		{"tl", []string{`tirahan`}},
		{"sq", []string{`adresa`}},
		{"is", []string{`heimilisfang`}},
		{"ur", []string{`پتہ`}},
		{"sw", []string{`anwani`}},
		{"uz", []string{`manzil`}},
		{"hy", []string{`հասցե`}},
		{"ka", []string{`მისამართი`}},
		{"az", []string{`unvan`}},
		{"kk", []string{`мекенжай`}},
		{"ky", []string{`дарек`}},
		{"sl", []string{`naslov`}},
		{"ta", []string{`முகவரி`}},
		{"ne", []string{`ठेगाना`}},
		{"mn", []string{`хаяг`}},
		{"am", []string{`አድራሻ`}},
		{"be", []string{`адрас`}},
	}},

	{id: "sex", token: "sex", kinds: ckDefault | ckChoice, langs: []lang{
		{"en", []string{`gender`, `sex\b`}},
		{"de", []string{`geschlecht`}},
		{"fr", []string{`sexe`, `genre`}},
		{"es", []string{`sexo`, `genero`}},
		{"it", []string{`sesso`, `genere`}},
		{"pt", []string{`sexo`, `genero`}},
		{"nl", []string{`geslacht`}},
		{"pl", []string{`plec`}},
		{"sv", []string{`kon\b`}},
		{"da", []string{`kon\b`}},
		{"fi", []string{`sukupuoli`}},
		{"cs", []string{`pohlavi`}},
		{"hu", []string{`^nem$`}},
		{"ro", []string{`sex\b`}},
		{"el", []string{`φυλο`}},
		{"ru", []string{`пол\b`}},
		{"uk", []string{`стать`}},
		{"ja", []string{`性別`}},
		{"zh", []string{`性别`, `性別`}},
		{"ko", []string{`성별`}},
		{"tr", []string{`cinsiyet`}},
		{"id", []string{`jenis kelamin`}},
		{"ar", []string{`الجنس`}},
		{"he", []string{`מין`}},
		{"th", []string{`เพศ`}},
		{"vi", []string{`gioi tinh`}},
		{"no", []string{`kjonn`}},
		{"hr", []string{`spol\b`}},
		{"lt", []string{`lytis`}},
		{"lv", []string{`dzimums`}},
		{"et", []string{`sugu\b`}},
		{"fa", []string{`جنسیت`}},
		{"hi", []string{`लिंग`}},
		{"ms", []string{`jantina`}},
		{"tl", []string{`kasarian`}},
		{"bn", []string{`লিঙ্গ`}},
	}},
	{id: "url", token: "url", weight: lowValue, kinds: ckText, langs: []lang{
		{"en", []string{`website`, `web site`, `homepage`, `home page`, `url\b`, `blog\b`, `web address`}},
		{"de", []string{`webseite`, `internetseite`}},
		{"fr", []string{`site web`, `site internet`}},
		{"es", []string{`sitio web`, `pagina web`}},
		{"it", []string{`sito web`, `sito internet`}},
		{"pt", []string{`site\b`, `pagina web`}},
		{"nl", []string{`webpagina`, `webadres`}},
		{"pl", []string{`strona (www|internetowa)`}},
		{"sv", []string{`webbplats`, `hemsida`}},
		{"ru", []string{`сайт`}},
		{"ja", []string{`ウェブサイト`, `ホームページ`}},
		{"zh", []string{`网站`, `网址`, `網站`}},
		{"ko", []string{`웹사이트`, `홈페이지`}},
		{"tr", []string{`web sitesi`}},
		{"id", []string{`situs`}},
	}},
	{id: "impp", token: "impp", kinds: ckText, langs: []lang{
		{"en", []string{`skype`, `icq`, `jabber`, `xmpp`, `instant messag`, `^im$`, `wechat`, `telegram`, `^qq$`}},
	}},
	{id: "photo", token: "photo", kinds: ckText, langs: []lang{
		{"en", []string{`photo url`, `avatar url`, `picture url`, `image url`}},
	}},
	{id: "language", token: "language", weight: lowValue, kinds: ckSelect, langs: []lang{
		{"en", []string{`preferred language`, `^language$`, `mother tongue`, `native language`}},
		{"de", []string{`^sprache$`, `muttersprache`, `bevorzugte sprache`}},
		{"fr", []string{`^langue$`, `langue maternelle`, `langue preferee`}},
		{"es", []string{`^idioma$`, `idioma preferido`, `lengua materna`}},
		{"it", []string{`^lingua$`, `madrelingua`}},
		{"nl", []string{`^taal$`, `moedertaal`}},
		{"ru", []string{`^язык$`, `родной язык`}},
	}},
	{id: "transaction-currency", token: "transaction-currency", weight: lowValue, kinds: ckSelect, langs: []lang{
		{"en", []string{`^currency$`, `payment currency`}},
		{"de", []string{`^wahrung$`}},
		{"fr", []string{`^devise$`}},
		{"es", []string{`^moneda$`}},
	}},

	// Names, most specific first.
	{id: "honorific-prefix", token: "honorific-prefix", weight: lowValue, kinds: ckDefault | ckChoice, whole: true, langs: []lang{
		{"en", []string{`title`, `salutation`, `prefix`, `honorific`, `name prefix`, `mr mrs( ms)?`, `form of address`}},
		{"de", []string{`anrede`, `titel`}},
		{"fr", []string{`civilite`, `titre`}},
		{"es", []string{`tratamiento`, `titulo`}},
		{"it", []string{`titolo`, `appellativo`}},
		{"pt", []string{`tratamento`, `titulo`}},
		{"nl", []string{`aanhef`, `titel`}},
		{"pl", []string{`zwrot grzecznosciowy`, `tytul`}},
		{"sv", []string{`titel`, `tilltal`}},
		{"ru", []string{`обращение`}},
		{"ja", []string{`敬称`}},
		{"zh", []string{`称谓`, `稱謂`}},
		{"ko", []string{`호칭`}},
		{"tr", []string{`hitap`}},
		{"id", []string{`sapaan`, `gelar`}},
		{"da", []string{`tiltale`}},
		{"no", []string{`tiltale`}},
		{"fi", []string{`titteli`}},
		{"cs", []string{`osloveni`, `titul`}},
		{"sk", []string{`oslovenie`, `titul`}},
		{"hu", []string{`megszolitas`}},
		{"uk", []string{`звертання`}},
		{"bg", []string{`обръщение`}},
		{"el", []string{`προσφωνηση`}},
		{"he", []string{`תואר`}},
		{"vi", []string{`danh xung`}},
		{"ms", []string{`gelaran`}},
		{"th", []string{`คำนำหน้า(ชื่อ)?`}},
		{"hr", []string{`oslovljavanje`, `titula`}},
		{"sl", []string{`nagovor`}},
		{"et", []string{`poordumine`}},
		{"lv", []string{`uzruna`}},
		{"lt", []string{`kreipinys`}},
	}},
	{id: "honorific-suffix", token: "honorific-suffix", weight: lowValue, whole: true, langs: []lang{
		{"en", []string{`suffix`, `name suffix`, `jr sr`}},
	}},
	{id: "nickname", token: "nickname", kinds: ckText, weight: lowValue, langs: []lang{
		{"en", []string{`nick ?name`, `display ?name`, `screen ?name`, `preferred name`, `known as`}},
		{"de", []string{`spitzname`, `rufname`}},
		{"fr", []string{`surnom`}},
		{"es", []string{`apodo`}},
		{"it", []string{`soprannome`}},
		{"pt", []string{`apelido`}},
		{"ja", []string{`ニックネーム`}},
		{"zh", []string{`昵称`, `暱稱`}},
		{"ko", []string{`닉네임`, `별명`}},
		{"tr", []string{`takma ad`}},
		{"id", []string{`nama panggilan`}},
	}},
	{id: "full-name", token: "name", kinds: ckText, langs: []lang{
		{"en", []string{`full ?name`, `first (and|&) last name`, `(first|given) name (and|&) (last|sur|family) ?name`, `your name`, `recipient name`, `name (and )?surname`, `^name (and )?last name`, `complete name`, `customer name`, `legal name`, `name on (the )?(door ?bell|bell|buzzer|intercom|mail ?box)`, `^recipient$`, `recipient'?s (full )?name`, `name of (the )?recipient`, `^consignee( ?name)?$`}},
		{"de", []string{`vor ?(und|u) ?(nach|zu)name`, `vorname (und|u|&) (nach|zu)name`, `vollstandiger name`, `ihr name`, `ihre?n namen\b`, `klingel`, `name (des )?empfangers`, `^empfanger( ?name)?$`, `vollstandigen namen`}},
		{"fr", []string{`nom (et|&) prenom`, `prenom (et|&) nom`, `nom complet`, `nom du destinataire`, `^destinataire$`}},
		{"es", []string{`nombre (y|&) apellidos?`, `nombre completo`, `su nombre`, `tu nombre`, `nombre (del )?destinatario`, `^destinatario$`, `nombre de (la persona )?quien recib`, `persona que (va a )?recib`}},
		{"it", []string{`nome (e|&) cognome`, `nome completo`, `il tuo nome`, `^destinatario$`, `nome (del )?destinatario`}},
		{"pt", []string{`nome completo`, `seu nome`, `nome do destinatario`, `^destinatario$`, `quem (vai )?receb`}},
		{"nl", []string{`volledige naam`, `voor ?(naam )?(en|&) achternaam`, `uw naam`, `je naam`, `naam (van de )?ontvanger`, `^ontvanger$`}},
		{"pl", []string{`imie (i|&) nazwisko`, `(imie i nazwisko|nazwa) odbiorcy`, `^odbiorca$`}},
		{"sv", []string{`for ?(namn )?(och|&) efternamn`, `fullstandigt namn`, `mottagarens namn`, `^mottagare$`}},
		{"da", []string{`fulde navn`, `for ?(navn )?(og|&) efternavn`, `^navn (og )?efternavn`, `modtagerens navn`, `^modtager$`}},
		{"fi", []string{`koko nimi`, `etu ?(nimi )?(ja|&) sukunimi`, `vastaanottajan nimi`, `^vastaanottaja$`}},
		{"no", []string{`fullt navn`, `for ?(navn )?(og|&) etternavn`, `mottakers navn`, `^mottaker$`}},
		{"cs", []string{`jmeno a prijmeni`, `cele jmeno`, `jmeno (a prijmeni )?prijemce`, `^prijemce$`}},
		{"sk", []string{`meno a priezvisko`, `cele meno`, `meno (a priezvisko )?prijemcu`, `^prijemca$`}},
		{"hu", []string{`teljes nev`, `^cimzett( neve)?$`}},
		{"ro", []string{`nume complet`, `nume si prenume`, `numele destinatarului`, `^destinatar$`}},
		{"el", []string{`ονοματεπωνυμο`, `ονομα παραληπτη`, `^παραληπτησ$`}},
		{"ru", []string{`фио`, `ф и о`, `полное имя`, `имя и фамилия`, `фамилия имя (и )?отчество`, `(имя|фио) получателя`, `^получатель$`}},
		{"uk", []string{`піб`, `повне ім'я`, `прізвище ім'я (та )?по батькові`, `(ім'я|піб) (одержувача|отримувача)`, `^(одержувач|отримувач)$`}},
		{"ja", []string{`(氏名|お名前)$`, `(氏名|お名前) ?[^ 姓名]`, `フルネーム`, `受取人`, `お届け先(の)?(氏名|お名前)`}},
		{"zh", []string{`姓名`, `全名`, `收货人`, `收件人`}},
		{"ko", []string{`성명`, `성함`, `받는 ?(사람|분)`, `수령인`, `수취인`}},
		{"tr", []string{`ad soyad`, `adi soyadi`, `adiniz soyadiniz`, `isim soyisim`, `ad ve soyad`, `alici (adi|ad soyad)`, `^alici$`, `adiniz(i)? (ve )?soyadiniz(i)?`}},
		{"id", []string{`nama lengkap`, `nama penerima`, `nama anda`, `^penerima$`}},
		{"ar", []string{`الاسم الكامل`, `اسم (ال)?مستلم`, `^(ال)?مستلم$`, `اسمك (ال)?كامل`}},
		{"he", []string{`(ה)?שם (ה)?מלא`, `שם (ה)?נמען`, `^נמען$`, `שמך( (ה)?מלא)?`}},
		{"th", []string{`ชื่อ นามสกุล`, `ชื่อ-นามสกุล`, `ชื่อผู้รับ`, `^ผู้รับ$`}},
		{"vi", []string{`ho (va )?ten`, `ho ten`, `(ten )?nguoi nhan`}},
		{"bg", []string{`име и фамилия`, `трите имена`, `пълно име`, `име на получателя`, `^получател$`}},
		{"hr", []string{`ime i prezime`, `ime (i prezime )?primatelja`, `^primatelj$`}},
		{"sr", []string{`име и презиме`, `ime (i prezime )?primaoca`, `име (и презиме )?примаоца`}},
		{"lt", []string{`vardas (ir )?pavarde`, `gavejo vardas`, `^gavejas$`}},
		{"lv", []string{`vards uzvards`, `vards (un )?uzvards`, `sanemeja vards`, `^sanemejs$`}},
		{"et", []string{`ees ja perekonnanimi`, `taisnimi`, `saaja nimi`, `^saaja$`}},
		{"fa", []string{`نام و نام خانوادگی`, `نام کامل`}},
		{"hi", []string{`पूरा नाम`, `प्राप्तकर्ता का नाम`}},
		{"bn", []string{`পুরো নাম`, `সম্পূর্ণ নাম`}},
		{"ms", []string{`nama penuh`}},
		{"tl", []string{`buong pangalan`}},
		{"ca", []string{`nom i cognoms`, `nom complet`}},
		{"sq", []string{`emri i plote`, `emri dhe mbiemri`, `emri mbiemri`}},
		{"is", []string{`fullt nafn`}},
		{"af", []string{`volle naam`}},
		{"ur", []string{`پورا نام`}},
		{"sw", []string{`jina kamili`}},
		{"uz", []string{`to'liq ism`, `ism familiya`}},
		{"sl", []string{`ime in priimek`, `ime (in priimek )?prejemnika`, `^prejemnik$`}},
		{"hy", []string{`անուն ազգանուն`}},
		{"ka", []string{`სახელი (და )?გვარი`}},
	}},
	{id: "additional-name", token: "additional-name", kinds: ckText, langs: []lang{
		{"en", []string{`middle ?(name|initial)`, `^mi$`, `^m i$`, `middle`, `mname`, `additional ?(given )?names?`, `addl ?names?`, `other given names?`, `patronymic`}},
		{"de", []string{`zweiter vorname`, `weitere vornamen`}},
		{"fr", []string{`deuxieme prenom`, `second prenom`}},
		{"es", []string{`segundo nombre`}},
		{"it", []string{`secondo nome`}},
		{"pt", []string{`nome do meio`}},
		{"nl", []string{`tussenvoegsel`}},
		{"pl", []string{`drugie imie`}},
		{"sv", []string{`mellannamn`}},
		{"ru", []string{`отчество`}},
		{"uk", []string{`по батькові`}},
		{"tr", []string{`ikinci ad`}},
		{"id", []string{`nama tengah`}},
		{"no", []string{`mellomnavn`}},
		{"da", []string{`mellemnavn`}},
		{"fi", []string{`toinen nimi`, `muut etunimet`}},
		{"cs", []string{`druhe jmeno`}},
		{"sk", []string{`druhe meno`}},
		{"hu", []string{`masodik keresztnev`}},
		{"ro", []string{`al doilea prenume`}},
		{"el", []string{`πατρωνυμο`}},
		{"hr", []string{`srednje ime`}},
		{"lt", []string{`antrasis vardas`}},
		{"lv", []string{`otrais vards`}},
		{"et", []string{`teine eesnimi`}},
		{"ja", []string{`ミドルネーム`}},
		{"zh", []string{`中间名`, `中間名`}},
		{"ko", []string{`중간 이름`}},
		{"ar", []string{`الاسم الأوسط`}},
		{"he", []string{`שם אמצעי`}},
		{"fa", []string{`نام میانی`}},
	}},
	// The initials of the given names (Dutch "Voorletters"): the initials
	// pass marks the part.
	{id: "initials", token: "given-name", kinds: ckText, langs: []lang{
		{"en", []string{`^(your )?initials$`, `^first (name )?initials?$`}},
		{"nl", []string{`voorletters?`}},
	}},
	// The second surname of Spanish and Latin American forms (the mother's)
	// is the second part of the family name a profile holds whole; the
	// surnames pass marks the split so that each box gets its part.
	{id: "second-surname", token: "family-name", kinds: ckText, langs: []lang{
		{"es", []string{`apellido materno`, `segundo apellido`}},
		{"pt", []string{`sobrenome materno`}},
	}},
	{id: "first-surname", token: "family-name", kinds: ckText, langs: []lang{
		{"es", []string{`apellido paterno`, `primer apellido`}},
		{"pt", []string{`sobrenome paterno`}},
	}},
	{id: "family-name", token: "family-name", kinds: ckText, langs: []lang{
		{"en", []string{`last ?name`, `name ?last`, `surname`, `family ?name`, `lname`, `l name`, `sur ?name`, `^last$`, `second name`}},
		{"de", []string{`nachname`, `familienname`, `zuname`}},
		{"fr", []string{`nom de famille`, `^nom$`, `nom de naissance`}},
		{"es", []string{`apellido`}},
		{"it", []string{`cognome`}},
		{"pt", []string{`sobrenome`, `apelido`, `ultimo nome`}},
		{"nl", []string{`achternaam`}},
		{"pl", []string{`nazwisko`}},
		{"sv", []string{`efternamn`}},
		{"da", []string{`efternavn`}},
		{"fi", []string{`sukunimi`, `sukunime`}},
		{"no", []string{`etternavn`}},
		{"cs", []string{`prijmeni`}},
		{"sk", []string{`priezvisko`}},
		{"hu", []string{`vezeteknev`}},
		{"ro", []string{`nume de familie`, `^nume$`}},
		{"el", []string{`επωνυμο`}},
		{"ru", []string{`фамилия`}},
		{"uk", []string{`прізвище`}},
		{"ja", []string{`^姓`, `苗字`, `名字`, `(氏名|お名前) ?姓`}},
		{"zh", []string{`^姓$`, `^姓氏`}},
		{"ko", []string{`^성$`}},
		{"tr", []string{`soyad`, `soyisim`}},
		{"id", []string{`nama belakang`}},
		{"ar", []string{`اسم العائلة`, `الاسم الأخير`, `اسم عائلتك`}},
		{"he", []string{`שם משפחה`}},
		{"hi", []string{`उपनाम`, `अंतिम नाम`}},
		{"th", []string{`นามสกุล`}},
		{"vi", []string{`^ho$`}},
		{"hr", []string{`prezime`}},
		{"sr", []string{`презиме`}},
		{"lt", []string{`pavarde`}},
		{"lv", []string{`uzvards`}},
		{"et", []string{`perekonnanimi`, `perenimi`}},
		{"fa", []string{`نام خانوادگی`}},
		{"bn", []string{`শেষ নাম`, `পদবি`}},
		{"ms", []string{`nama akhir`, `nama keluarga`}},
		{"tl", []string{`apelyido`}},
		{"ca", []string{`cognoms?\b`}},
		{"sl", []string{`priimek`}},
		{"sq", []string{`mbiemri`, `mbiemer`}},
		{"is", []string{`eftirnafn`, `kenninafn`}},
		{"af", []string{`^van$`}},
		{"sw", []string{`jina la (mwisho|ukoo)`}},
		{"uz", []string{`familiya`}},
		{"hy", []string{`ազգանուն`}},
		{"ka", []string{`გვარი`}},
		{"kk", []string{`тегі`}},
		{"mn", []string{`^овог$`}},
		{"be", []string{`прозвішча`}},
		{"ur", []string{`آخری نام`}},
	}},
	{id: "given-name", token: "given-name", kinds: ckText, langs: []lang{
		{"en", []string{`first ?name`, `name ?first`, `fname`, `f name`, `given ?name`, `forename`, `^first$`, `christian name`, `^given$`}},
		{"de", []string{`vorname`}},
		{"fr", []string{`prenom`}},
		{"es", []string{`primer nombre`}},
		{"pt", []string{`primeiro nome`, `nome proprio`}},
		{"nl", []string{`voornaam`}},
		{"pl", []string{`imie`}},
		{"sv", []string{`fornamn`}},
		{"da", []string{`fornavn`}},
		{"fi", []string{`etunimi`, `etunime`}},
		{"no", []string{`fornavn`}},
		{"cs", []string{`jmeno`, `krestni`}},
		{"sk", []string{`^meno$`, `krstne meno`}},
		{"hu", []string{`keresztnev`, `utonev`}},
		{"ro", []string{`prenume`}},
		{"el", []string{`ονομα`}},
		{"ru", []string{`имя`}},
		{"uk", []string{`ім'я`}},
		{"ja", []string{`^名`, `(氏名|お名前) ?名`}},
		{"zh", []string{`^名$`, `^名字$`}},
		{"tr", []string{`^ad$`, `^adi$`, `^adiniz$`, `^isim$`}},
		{"id", []string{`nama depan`}},
		{"ar", []string{`الاسم الأول`, `الاسم الاول`, `اسمك (ال)?اول`}},
		{"he", []string{`שם פרטי`}},
		{"hi", []string{`पहला नाम`}},
		{"th", []string{`^ชื่อ$`}},
		{"vi", []string{`^ten$`}},
		{"bg", []string{`^име$`}},
		{"hr", []string{`^ime$`}},
		{"lt", []string{`vardas\b`}},
		{"lv", []string{`vards\b`}},
		{"et", []string{`eesnimi`}},
		{"fa", []string{`^نام$`}},
		{"bn", []string{`প্রথম নাম`}},
		{"ms", []string{`nama pertama`}},
		{"tl", []string{`unang pangalan`}},
		{"sq", []string{`^emri$`, `emri i pare`}},
		{"is", []string{`fornafn`}},
		{"sw", []string{`jina la kwanza`}},
		{"uz", []string{`^ism$`, `^ismi$`}},
		{"hy", []string{`^անուն$`}},
		{"ka", []string{`^სახელი$`}},
		{"kk", []string{`^аты$`}},
		{"mn", []string{`^нэр$`}},
		{"be", []string{`^імя$`}},
		{"ur", []string{`پہلا نام`}},
	}},
	// The name of a thing is not the person's name: "Property name",
	// "Product name", "Event name". (Companies, cards, users and streets
	// have their own rules above.)
	{id: "thing-name", kind: kindVeto, langs: []lang{
		{"en", []string{`(property|product|item|pet|event|project|file|domain|group|team|store|shop|site|web ?site|list|campaign|hotel|venue|restaurant|book|course|brand|model|device|server|host|network|wifi|bank|branch|profile|page|channel|playlist|folder|document|plan|package|tag|category|label|vessel|vehicle|school|university|college|institution|club|league|game|app|application|job|position|role|character|baby|dog|cat|horse|tour|trip|song|album|artist|band|movie|show|recipe|ingredient|building|complex|estate|mall|station|airport) name\b`}},
		{"de", []string{`(produkt|artikel|projekt|veranstaltungs|datei|gruppen|team|shop|bank|schul|haustier)name`}},
		{"fr", []string{`nom (du|de la|de l'|de l) ?(produit|article|projet|evenement|fichier|groupe|equipe|boutique|banque|ecole|animal|residence|hotel)`}},
		{"es", []string{`nombre (del|de la) (producto|articulo|proyecto|evento|archivo|grupo|equipo|tienda|banco|escuela|mascota|hotel|edificio)`}},
		{"it", []string{`nome (del|della|dell') ?(prodotto|articolo|progetto|evento|file|gruppo|squadra|negozio|banca|scuola|hotel|struttura)`}},
		{"pt", []string{`nome (do|da) (produto|artigo|projeto|evento|arquivo|grupo|equipe|loja|banco|escola|hotel|edificio)`}},
	}},
	{id: "name", token: "name", kinds: ckText, langs: []lang{
		{"en", []string{`name\b`, `author$`, `^(attention|attn)( line| to)?$`, `attention( line)?$`}},
		{"de", []string{`^name$`}},
		{"fr", []string{`^nom$`, `^(votre|ton) nom$`}},
		{"es", []string{`^nombres?$`}},
		{"it", []string{`^nome$`}},
		{"pt", []string{`^nome$`}},
		{"nl", []string{`^naam$`}},
		{"sv", []string{`^namn$`}},
		{"da", []string{`^navn$`}},
		{"fi", []string{`^nimi$`}},
		{"cs", []string{`^jmeno$`}},
		{"hu", []string{`^nev$`}},
		{"pl", []string{`^imie$`}},
		{"el", []string{`^ονομα$`}},
		{"ru", []string{`^имя$`}},
		{"ja", []string{`名前`}},
		{"zh", []string{`名字`}},
		{"ko", []string{`이름`}},
		{"tr", []string{`^isim$`}},
		{"id", []string{`^nama$`}},
		{"ar", []string{`الاسم`}},
		{"he", []string{`^שם$`}},
		{"hi", []string{`नाम`}},
		{"th", []string{`ชื่อ`}},
		{"vi", []string{`^ten$`}},
		{"tl", []string{`^pangalan$`}},
		{"bn", []string{`^নাম$`}},
		{"sw", []string{`^jina$`}},
		{"is", []string{`^nafn$`}},
		{"ta", []string{`^பெயர்$`}},
		{"am", []string{`^ስም$`}},
	}},
}

// lowValue is the weight of rules for fields that are rarely worth filling
// and often mislabelled (titles, card types, job titles, web sites): their
// matches fall under MinConfidence, so they are recognised (the evidence
// says so) but not predicted unless the page's autocomplete names them.
const lowValue = 0.45

// A ruleTable is the rule table ready to match: a copy of rules with their
// defaults filled in, every keyword on its own, the index by id and the
// prefilter.
type ruleTable struct {
	rules     []rule
	byID      map[string]*rule
	keywords  []keyword
	prefilter prefilterIndex
}

// table returns the rule table, built on first use: a process that only
// relays frames or prints its version must not pay for it at start (the
// eager table cost every start ~80 ms and 40 MB, issue 12).
var table = sync.OnceValue(func() *ruleTable {
	if len(rules) > maxRules {
		panic("heuristics: more rules than maxRules")
	}
	t := &ruleTable{rules: slices.Clone(rules), byID: make(map[string]*rule, len(rules))}
	for i := range t.rules {
		r := &t.rules[i]
		if r.kinds == 0 {
			r.kinds = ckDefault
		}
		if r.weight == 0 {
			r.weight = 1
		}
		r.index = i
		r.long = sync.OnceValue(func() *regexp.Regexp {
			re := regexp.MustCompile(ruleExpr(r))
			re.Longest()
			return re
		})
		for _, l := range r.langs {
			for _, w := range l.words {
				t.keywords = append(t.keywords, newKeyword(i, r.whole, unspaced[l.code], w))
			}
		}
		t.byID[r.id] = r
	}
	t.prefilter = buildPrefilter(t.keywords)
	for i := range t.keywords {
		t.keywords[i].parsed = nil // only the prefilter reads it
	}
	return t
})

// ruleByID returns the rule with the given id, for structural passes.
func ruleByID(id string) *rule { return table().byID[id] }

// lazyRE returns a function that compiles expr on its first call and
// returns the same expression on every call: package-level expressions
// compiled at init would cost every process start.
func lazyRE(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// maxRules bounds the rule table (a rule index fits the prefilter's hits).
const maxRules = 256

// wordEnd ends a keyword at a word boundary in any script.
const wordEnd = `(?:[^\pL\pN]|$)`

// keywordExpr is a keyword as it is compiled: folded like page text, and
// with RE2's \b, which knows only ASCII word characters, spelled out so it
// also works after Cyrillic or Greek letters.
func keywordExpr(w string) string {
	return strings.ReplaceAll(letterFold.Replace(fold(w)), `\b`, wordEnd)
}

// wordStart starts a keyword at a word: after a space, or after the
// apostrophe of an elided article ("l'enfant", "dell'indirizzo").
const wordStart = `(?:^|[ '])`

// ruleExpr is one regular expression for all of a rule's keywords, the
// union of their keyword expressions. Only the rightmost reading of
// identifiers needs it (see match); everything else matches keyword by
// keyword.
func ruleExpr(r *rule) string {
	var bounded, free []string
	for _, l := range r.langs {
		for _, w := range l.words {
			w = keywordExpr(w)
			if unspaced[l.code] {
				free = append(free, w)
			} else {
				bounded = append(bounded, w)
			}
		}
	}
	if r.whole {
		return `^(?:` + strings.Join(append(bounded, free...), "|") + `)$`
	}
	var alts []string
	if len(bounded) > 0 {
		alts = append(alts, wordStart+`(?:`+strings.Join(bounded, "|")+`)`)
	}
	if len(free) > 0 {
		alts = append(alts, `(?:`+strings.Join(free, "|")+`)`)
	}
	return strings.Join(alts, "|")
}

// A keyword is one keyword of a rule, anchored as its rule and language
// say. A rule matches a text when one of its keywords does, so the
// prefilter can send a text to the few keywords whose literals it holds,
// and most keywords, plain words, need no regular expression at all.
type keyword struct {
	rule   int
	anchor anchor
	// plain is the keyword's text when it is a plain string (no
	// expression syntax); then re is nil.
	plain string
	// re is the anchored keyword expression, compiled on first use.
	re func() *regexp.Regexp
	// parsed is the keyword's folded expression, for building the
	// prefilter; nil afterwards.
	parsed *syntax.Regexp
}

// An anchor says where a keyword may match.
type anchor uint8

const (
	anchorWord  anchor = iota // at the start of a word
	anchorFree                // anywhere (scripts without spaces)
	anchorWhole               // the whole text
)

func newKeyword(rule int, whole, free bool, w string) keyword {
	expr := keywordExpr(w)
	k := keyword{rule: rule, anchor: anchorWord}
	switch {
	case whole:
		k.anchor = anchorWhole
	case free:
		k.anchor = anchorFree
	}
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		panic(fmt.Sprintf("heuristics: rule %d: keyword %q: %v", rule, w, err))
	}
	k.parsed = re.Simplify()
	if k.parsed.Op == syntax.OpLiteral && k.parsed.Flags&syntax.FoldCase == 0 {
		k.plain = string(k.parsed.Rune)
		return k
	}
	switch k.anchor {
	case anchorWhole:
		expr = `^(?:` + expr + `)$`
	case anchorWord:
		expr = wordStart + `(?:` + expr + `)`
	}
	k.re = lazyRE(expr)
	return k
}

// start returns where the keyword's leftmost match in text starts (for a
// word, at the space before it), or -1. It is what the rule's union
// expression reports when this keyword matches leftmost.
func (k *keyword) start(text string) int {
	if k.re != nil {
		if loc := k.re().FindStringIndex(text); loc != nil {
			return loc[0]
		}
		return -1
	}
	switch k.anchor {
	case anchorWhole:
		if text == k.plain {
			return 0
		}
		return -1
	case anchorFree:
		return strings.Index(text, k.plain)
	}
	for from := 0; ; {
		p := strings.Index(text[from:], k.plain)
		if p < 0 {
			return -1
		}
		p += from
		if p == 0 {
			return 0
		}
		if c := text[p-1]; c == ' ' || c == '\'' {
			return p - 1
		}
		from = p + 1
	}
}

// ruleHits calls f for each rule, in table order, that the prefilter keeps
// for text, with that rule's candidate keywords; f returns false to stop.
func (t *ruleTable) ruleHits(hits []int32, f func(r *rule, kws []int32) bool) {
	for j := 0; j < len(hits); {
		ri := t.keywords[hits[j]].rule
		e := j + 1
		for e < len(hits) && t.keywords[hits[e]].rule == ri {
			e++
		}
		if !f(&t.rules[ri], hits[j:e]) {
			return
		}
		j = e
	}
}

// first returns the leftmost start of a match of any of kws in text, or -1.
func (t *ruleTable) first(text string, kws []int32) int {
	at := -1
	for _, k := range kws {
		if p := t.keywords[k].start(text); p >= 0 && (at < 0 || p < at) {
			at = p
			if at == 0 {
				break
			}
		}
	}
	return at
}

// any reports whether one of kws matches text.
func (t *ruleTable) any(text string, kws []int32) bool {
	for _, k := range kws {
		if t.keywords[k].start(text) >= 0 {
			return true
		}
	}
	return false
}

// find returns where rule r's leftmost match in text starts, or -1 (what
// FindStringIndex of the rule's union expression gives as loc[0]).
func (t *ruleTable) find(r *rule, text string) int {
	var buf [64]int32
	at := -1
	t.ruleHits(t.prefilter.candidates(text, buf[:0]), func(rr *rule, kws []int32) bool {
		if rr.index < r.index {
			return true
		}
		if rr == r {
			at = t.first(text, kws)
		}
		return false
	})
	return at
}

// namedAfter reports whether an identifier names something after the last
// match of weak rule r: words other than numbers and the words of a line
// ("address_2", "address_line", "addressInput", "address_addition",
// "address_floor"). A weak rule that would fill a box reads an identifier
// only when it names the field last, as identifiers do; a weak veto holds
// wherever it stands.
func namedAfter(r *rule, text string) bool {
	locs := r.long().FindAllStringIndex(text, -1)
	if len(locs) == 0 {
		return false
	}
	tail := strings.TrimSpace(text[locs[len(locs)-1][1]:])
	if tail == "" || hasWord(wholeLine2(), tail) {
		return false
	}
	for _, lp := range lineParts {
		if hasWord(lp.words(), tail) {
			return false
		}
	}
	for _, w := range strings.Fields(tail) {
		if !identFiller[w] && strings.Trim(w, "0123456789") != "" {
			return true
		}
	}
	return false
}

// identFiller are the words identifiers add after a field's name that name
// nothing of their own.
var identFiller = map[string]bool{
	"input": true, "field": true, "text": true, "txt": true, "tb": true, "value": true, "val": true,
	"box": true, "one": true, "two": true, "three": true, "first": true, "second": true, "new": true,
	"main": true, "primary": true, "full": true, "required": true, "req": true,
}

// match returns the first rule, in table order, whose keywords match the
// normalized text and that applies to the control kind. With rightmost it
// returns instead the rule whose match ends last (the longest of those):
// identifiers put context first and the field last
// ("checkout_shipping_address_first_name").
func match(text string, kind controlKinds, rightmost bool) *rule {
	if text == "" {
		return nil
	}
	t := table()
	var buf [64]int32
	hits := t.prefilter.candidates(text, buf[:0])
	var found *rule
	if rightmost {
		var best, weak *rule
		bestStart, bestEnd := 0, -1
		t.ruleHits(hits, func(r *rule, kws []int32) bool {
			if r.kinds&kind == 0 {
				return true
			}
			if r.weak {
				if weak == nil && t.any(text, kws) {
					weak = r
				}
				return true
			}
			if !t.any(text, kws) {
				return true
			}
			if r.qualifies {
				found = r
				return false
			}
			locs := r.long().FindAllStringIndex(text, -1)
			start, end := locs[len(locs)-1][0], locs[len(locs)-1][1]
			// A pattern's word boundaries may take the space beside the
			// words: compare where the words themselves end.
			for start < end && text[start] == ' ' {
				start++
			}
			for end > start && text[end-1] == ' ' {
				end--
			}
			if end > bestEnd || end == bestEnd && start < bestStart {
				best, bestStart, bestEnd = r, start, end
			}
			return true
		})
		switch {
		case found != nil:
			return found
		case best == nil:
			if weak != nil && weak.token != "" && namedAfter(weak, text) {
				// "dwfrm_billing_address_fields_business", "addressId",
				// "shortAddressCode": the words after the generic one
				// name the field, and no rule knows them.
				return nil
			}
			return weak
		}
		return best
	}
	t.ruleHits(hits, func(r *rule, kws []int32) bool {
		if r.kinds&kind != 0 && t.any(text, kws) {
			found = r
			return false
		}
		return true
	})
	return found
}
