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
	if !mayStray(data) {
		return data
	}
	return repairSelects(data)
}

// repairSelects is closeStraySelects' exact pass, over every token.
func repairSelects(data []byte) []byte {
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

// mayStray reports whether closeStraySelects could change data: whether a
// select's content holds anything but options, optgroups and text. It
// reads the bytes, not tokens, and answers true whenever it cannot tell
// (a comment, a quote out of place, any other tag), so the exact pass runs
// then; most pages, whose selects hold only options, are spared a second
// tokenization of the whole document.
func mayStray(data []byte) bool {
	for p := 0; ; {
		i := indexFold(data[p:], "<select")
		if i < 0 {
			return false
		}
		if p = tagEnd(data, p+i); p < 0 {
			return true
		}
		for closed := false; !closed; {
			i := bytes.IndexByte(data[p:], '<')
			if i < 0 {
				return false // nothing after the select can close anything
			}
			p += i
			switch rest := data[p:]; {
			case len(rest) < 2 || !isASCIILetter(rest[1]) && rest[1] != '/' && rest[1] != '!' && rest[1] != '?':
				p++ // a '<' in text
			case tagIs(rest, "</select"):
				p += len("</select")
				closed = true
			case tagIs(rest, "</option"), tagIs(rest, "</optgroup"), tagIs(rest, "<option"), tagIs(rest, "<optgroup"):
				if p = tagEnd(data, p); p < 0 {
					return true
				}
			default:
				return true
			}
		}
	}
}

// tagIs reports whether b starts with the tag opening open (any case)
// followed by a character that ends a tag name.
func tagIs(b []byte, open string) bool {
	if len(b) <= len(open) || !bytes.EqualFold(b[:len(open)], []byte(open)) {
		return false
	}
	switch b[len(open)] {
	case ' ', '\t', '\n', '\f', '\r', '/', '>':
		return true
	}
	return false
}

// tagEnd returns the index just after the '>' that ends the tag starting at
// data[p], skipping quoted attribute values, or -1 when the tag does not end
// or has a quote the tokenizer might read otherwise (one not right after
// '=').
func tagEnd(data []byte, p int) int {
	for i := p + 1; i < len(data); i++ {
		switch data[i] {
		case '>':
			return i + 1
		case '"', '\'':
			j := i - 1
			for j > p && (data[j] == ' ' || data[j] == '\t' || data[j] == '\n' || data[j] == '\r' || data[j] == '\f') {
				j--
			}
			if data[j] != '=' {
				return -1
			}
			k := bytes.IndexByte(data[i+1:], data[i])
			if k < 0 {
				return -1
			}
			i += 1 + k
		}
	}
	return -1
}

// indexFold returns the index of the first occurrence of s, an ASCII string
// that starts with a symbol, in b, ignoring ASCII case, or -1.
func indexFold(b []byte, s string) int {
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], s[0])
		if j < 0 || i+j+len(s) > len(b) {
			return -1
		}
		if i += j; bytes.EqualFold(b[i:i+len(s)], []byte(s)) {
			return i
		}
		i++
	}
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

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
