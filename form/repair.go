package form

import (
	"bytes"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// closeStraySelects works around one difference between
// golang.org/x/net/html and Chromium's tree builder. x/net/html treats
// <select> as a scope boundary, so in
//
//	<div><select name=a></div><div><select name=b></div>
//
// the </div> is ignored while the first select is open and the second
// <select> merely closes the first: one control. Chromium lets the </div>
// close the select and keeps both. This pass inserts the missing </select>
// before an end tag that closes an element opened outside the select, so
// the parser sees what Chromium saw. Input without an unclosed select
// comes back unchanged.
func closeStraySelects(data []byte) []byte {
	if !bytes.Contains(bytes.ToLower(data), []byte("<select")) {
		return data
	}
	z := html.NewTokenizer(bytes.NewReader(data))
	var out bytes.Buffer
	out.Grow(len(data) + 64)
	// open counts the elements opened and not yet closed, by tag name; only
	// the ones opened outside the current select matter.
	open := map[atom.Atom]int{}
	var inSelect map[atom.Atom]int
	changed := false
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		raw := z.Raw()
		switch tt {
		case html.StartTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			switch {
			case a == atom.Select && inSelect == nil:
				inSelect = map[atom.Atom]int{}
			case inSelect != nil && (a == atom.Select || a == atom.Input || a == atom.Textarea):
				// The parser closes the select itself here.
				inSelect = nil
			case inSelect != nil:
				inSelect[a]++
			case !voidElement(a):
				open[a]++
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			switch {
			case inSelect != nil && a == atom.Select:
				inSelect = nil
			case inSelect != nil && inSelect[a] > 0:
				inSelect[a]--
			case inSelect != nil && open[a] > 0 && a != atom.Option && a != atom.Optgroup:
				out.WriteString("</select>")
				changed = true
				inSelect = nil
				open[a]--
			case inSelect == nil && open[a] > 0:
				open[a]--
			}
		}
		out.Write(raw)
	}
	if !changed {
		return data
	}
	return out.Bytes()
}

// voidElement reports whether a has no end tag.
func voidElement(a atom.Atom) bool {
	switch a {
	case atom.Area, atom.Base, atom.Br, atom.Col, atom.Embed, atom.Hr, atom.Img,
		atom.Input, atom.Link, atom.Meta, atom.Source, atom.Track, atom.Wbr,
		atom.Param, atom.Keygen:
		return true
	}
	return false
}
