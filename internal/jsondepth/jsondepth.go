// Package jsondepth measures how deeply a JSON text nests, so that hostile
// deeply nested input is refused before it is decoded. One scanner for the
// wire (nativemsg), Formspec documents (matcher) and Assist sidecars
// (formspec).
package jsondepth

// Of returns the maximum nesting depth of brackets outside strings.
func Of(b []byte) int {
	depth, max, inStr, esc := 0, 0, false, false
	for _, c := range b {
		switch {
		case esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '{' || c == '[':
			depth++
			if depth > max {
				max = depth
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return max
}
