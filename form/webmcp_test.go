package form

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// catalog extracts page and synthesises its tools, failing on catalog
// errors.
func catalog(t *testing.T, page string) Catalog {
	t.Helper()
	s, err := Extract(strings.NewReader(page), ExtractOptions{})
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	cat, err := Tools(s)
	if err != nil {
		t.Fatalf("Tools: %v", err)
	}
	return cat
}

func tool(t *testing.T, page, name string) Tool {
	t.Helper()
	tl, ok := catalog(t, page).Tool(name)
	if !ok {
		t.Fatalf("no tool %q", name)
	}
	return tl
}

// sameJSON compares a value's JSON encoding with want as JSON values.
func sameJSON(t *testing.T, what string, got any, want string) {
	t.Helper()
	g, err := json.Marshal(got)
	if err != nil {
		t.Fatalf("%s: marshal: %v", what, err)
	}
	var gv, wv any
	if err := json.Unmarshal(g, &gv); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(want), &wv); err != nil {
		t.Fatalf("%s: bad expectation: %v", what, err)
	}
	if !reflect.DeepEqual(gv, wv) {
		t.Errorf("%s =\n%s\nwant\n%s", what, g, want)
	}
}

// The draft's TL;DR form and its synthesised tool, verbatim.
const draftTLDR = `<form action="/todos" method="post"
      tool-name="add_todo"
      tool-title="Add Todo"
      tool-description="Create a todo item">
  <label>
    Text
    <input name="text" type="text" required minlength="3" maxlength="140">
  </label>
  <label>
    Priority
    <select name="priority">
      <option value="low">low</option>
      <option value="medium" selected>medium</option>
      <option value="high">high</option>
    </select>
  </label>
  <button type="submit">Add</button>
  <input type="hidden" name="projectId" value="123">
  <!-- The browser submits with Accept: application/json and delivers the MCP result first. -->
  <!-- No custom attributes beyond tool-*; constraints come from standard HTML. -->

</form>`

// TestDraftExamples checks the draft's worked examples exactly: the TL;DR
// add_todo form and §5.1-5.4, plus the §8.1.1 elicitation example.
func TestDraftExamples(t *testing.T) {
	tests := []struct {
		name, page, tool, want string
	}{
		{"TL;DR", draftTLDR, "add_todo", `{
			"name": "add_todo", "title": "Add Todo", "description": "Create a todo item",
			"inputSchema": {"type": "object", "additionalProperties": false,
				"properties": {
					"text": {"type": "string", "minLength": 3, "maxLength": 140, "description": "Text"},
					"priority": {"type": "string", "enum": ["low", "medium", "high"]},
					"projectId": {"type": "string"}},
				"required": ["text"]},
			"annotations": {"title": "Add Todo", "readOnlyHint": false, "destructiveHint": false, "idempotentHint": false, "openWorldHint": true},
			"_meta": {"dialect": "tool-name", "element": "f0", "tag": "form", "autosubmit": false, "action": "/todos", "method": "POST"}}`},
		{"5.1 list via link", `<a href="/todos"
   tool-name="list_todos"
   tool-title="List Todos"
   tool-description="Return the current todos"
   tool-readonly>
  All Todos
</a>`, "list_todos", `{
			"name": "list_todos", "title": "List Todos", "description": "Return the current todos",
			"inputSchema": {"type": "object", "additionalProperties": false, "properties": {}},
			"annotations": {"title": "List Todos", "readOnlyHint": true, "destructiveHint": false, "idempotentHint": false, "openWorldHint": true},
			"_meta": {"dialect": "tool-name", "element": "t0", "tag": "a", "autosubmit": false, "action": "/todos", "method": "GET"}}`},
		{"5.2 list with filters", `<form action="/todos" method="get"
      tool-name="filter_todos"
      tool-title="Filter Todos"
      tool-description="Filter by text and status">
  <input name="q" type="search" minlength="2" placeholder="Search">
  <select name="status">
    <option value="">Any</option>
    <option value="open">Open</option>
    <option value="done">Done</option>
  </select>
  <button type="submit">Apply</button>
</form>`, "filter_todos", `{
			"name": "filter_todos", "title": "Filter Todos", "description": "Filter by text and status",
			"inputSchema": {"type": "object", "additionalProperties": false,
				"properties": {
					"q": {"type": "string", "minLength": 2},
					"status": {"type": "string", "enum": ["", "open", "done"]}}},
			"annotations": {"title": "Filter Todos", "readOnlyHint": false, "destructiveHint": false, "idempotentHint": false, "openWorldHint": true},
			"_meta": {"dialect": "tool-name", "element": "f0", "tag": "form", "autosubmit": false, "action": "/todos", "method": "GET"}}`},
		{"5.3 create todo", `<form action="/todos" method="post"
      tool-name="add_todo"
      tool-title="Add Todo"
      tool-description="Create a new todo"
      tool-openworld>
  <input name="description" type="text" required minlength="3" maxlength="140"
         tool-param-description="The todo text">
  <input name="projectId" type="hidden" value="123">
  <button type="submit">Add</button>
</form>`, "add_todo", `{
			"name": "add_todo", "title": "Add Todo", "description": "Create a new todo",
			"inputSchema": {"type": "object", "additionalProperties": false,
				"properties": {
					"description": {"type": "string", "minLength": 3, "maxLength": 140, "description": "The todo text"},
					"projectId": {"type": "string"}},
				"required": ["description"]},
			"annotations": {"title": "Add Todo", "readOnlyHint": false, "destructiveHint": false, "idempotentHint": false, "openWorldHint": true},
			"_meta": {"dialect": "tool-name", "element": "f0", "tag": "form", "autosubmit": false, "action": "/todos", "method": "POST"}}`},
		{"5.4 pagination via href", `<a href="/todos?page=1&per=20&sort=createdAt&dir=desc"
   tool-name="list_todos_page"
   tool-title="List Todos (Page)">
  Page 1
</a>`, "list_todos_page", `{
			"name": "list_todos_page", "title": "List Todos (Page)",
			"inputSchema": {"type": "object", "additionalProperties": false,
				"properties": {
					"page": {"type": "string", "default": "1"},
					"per": {"type": "string", "default": "20"},
					"sort": {"type": "string", "default": "createdAt"},
					"dir": {"type": "string", "default": "desc"}}},
			"annotations": {"title": "List Todos (Page)", "readOnlyHint": false, "destructiveHint": false, "idempotentHint": false, "openWorldHint": true},
			"_meta": {"dialect": "tool-name", "element": "t0", "tag": "a", "autosubmit": false, "action": "/todos?page=1&per=20&sort=createdAt&dir=desc", "method": "GET"}}`},
		{"8.1.1 elicitation", `<form action="/todos" method="post"
      tool-name="add_todo"
      tool-title="Add Todo"
      tool-description="Create a new todo">
  <label>
    Description
    <input name="description" type="text"
           required minlength="3" maxlength="140"
           tool-elicit
           tool-param-description="What needs to be done?">
  </label>
  <label>
    Priority
    <select name="priority">
      <option value="low">low</option>
      <option value="medium" selected>medium</option>
      <option value="high">high</option>
    </select>
  </label>
  <input type="hidden" name="projectId" value="123">
  <button type="submit">Add</button>
</form>`, "add_todo", `{
			"name": "add_todo", "title": "Add Todo", "description": "Create a new todo",
			"inputSchema": {"type": "object", "additionalProperties": false,
				"properties": {
					"description": {"type": "string", "minLength": 3, "maxLength": 140, "description": "What needs to be done?"},
					"priority": {"type": "string", "enum": ["low", "medium", "high"]},
					"projectId": {"type": "string"}},
				"required": ["description"]},
			"annotations": {"title": "Add Todo", "readOnlyHint": false, "destructiveHint": false, "idempotentHint": false, "openWorldHint": true},
			"_meta": {"dialect": "tool-name", "element": "f0", "tag": "form", "autosubmit": false, "elicit": ["description"], "action": "/todos", "method": "POST"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sameJSON(t, "tool "+tt.tool, tool(t, tt.page, tt.tool), tt.want)
		})
	}
}

// TestDraftRules covers each synthesis rule of the draft's §3 with one
// parameter; want is the parameter's schema.
func TestDraftRules(t *testing.T) {
	tests := []struct {
		rule, controls, param, want string
	}{
		{"email format", `<input type="email" name="p">`, "p", `{"type":"string","format":"email"}`},
		{"url format", `<input type="url" name="p">`, "p", `{"type":"string","format":"uri"}`},
		{"date format and bounds", `<input type="date" name="p" min="2026-01-01" max="2026-12-31">`, "p",
			`{"type":"string","format":"date","formatMinimum":"2026-01-01","formatMaximum":"2026-12-31"}`},
		{"datetime-local is date-time", `<input type="datetime-local" name="p">`, "p", `{"type":"string","format":"date-time"}`},
		{"time format", `<input type="time" name="p">`, "p", `{"type":"string","format":"time"}`},
		{"month, week, color are strings", `<input type="month" name="p">`, "p", `{"type":"string"}`},
		{"number default step is integer", `<input type="number" name="p" min="1" max="10">`, "p", `{"type":"integer","minimum":1,"maximum":10}`},
		{"whole step is integer with multipleOf", `<input type="number" name="p" step="5">`, "p", `{"type":"integer","multipleOf":5}`},
		{"fractional step is number", `<input type="number" name="p" step="0.5" min="0">`, "p", `{"type":"number","minimum":0,"multipleOf":0.5}`},
		{"step any is number", `<input type="number" name="p" step="any">`, "p", `{"type":"number"}`},
		{"fractional base is number", `<input type="number" name="p" min="0.5">`, "p", `{"type":"number","minimum":0.5}`},
		{"tool-param-type forces integer", `<input type="number" name="p" step="any" tool-param-type="integer">`, "p", `{"type":"integer"}`},
		{"tool-param-type forces number", `<input type="number" name="p" tool-param-type="number">`, "p", `{"type":"number","multipleOf":1}`},
		{"range bounds", `<input type="range" name="p">`, "p", `{"type":"integer","minimum":0,"maximum":100}`},
		{"pattern anchored, lengths", `<input name="p" pattern="[A-Z]{2}" minlength="2" maxlength="2">`, "p",
			`{"type":"string","minLength":2,"maxLength":2,"pattern":"^(?:[A-Z]{2})$"}`},
		{"textarea is a string", `<textarea name="p" maxlength="10"></textarea>`, "p", `{"type":"string","maxLength":10}`},
		{"checkbox is boolean", `<input type="checkbox" name="p">`, "p", `{"type":"boolean"}`},
		{"file is base64", `<input type="file" name="p">`, "p", `{"type":"string","contentEncoding":"base64"}`},
		{"file multiple is an array of base64", `<input type="file" name="p" multiple>`, "p",
			`{"type":"array","items":{"type":"string","contentEncoding":"base64"}}`},
		{"hidden included", `<input type="hidden" name="p" value="x">`, "p", `{"type":"string"}`},
		// HTML bars hidden inputs from validation, so required means nothing
		// there (issue 12).
		{"required ignored on hidden", `<input type="hidden" name="p.a" value="x" required><input name="p.b" required>`, "p",
			`{"type":"object","additionalProperties":false,"properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["b"]}`},
		{"select enum skips disabled options", `<select name="p"><option>a</option><option disabled>b</option><option value="c">C</option></select>`, "p",
			`{"type":"string","enum":["a","c"]}`},
		{"select multiple is an array", `<select name="p" multiple><option>a</option><option>b</option></select>`, "p",
			`{"type":"array","items":{"type":"string","enum":["a","b"]},"uniqueItems":true}`},
		{"radio group enum", `<input type="radio" name="p" value="a"><input type="radio" name="p" value="b"><input type="radio" name="p">`, "p",
			`{"type":"string","enum":["a","b","on"]}`},
		{"repeated checkboxes are an array", `<input type="checkbox" name="p" value="a"><input type="checkbox" name="p" value="b">`, "p",
			`{"type":"array","items":{"type":"string","enum":["a","b"]},"uniqueItems":true}`},
		{"repeated names are an array", `<input name="p"><input name="p" maxlength="5">`, "p",
			`{"type":"array","items":{"type":"string"},"maxItems":2}`},
		{"title and description", `<label>Label <input name="p" tool-param-title="T" tool-param-description="D"></label>`, "p",
			`{"type":"string","title":"T","description":"D"}`},
		{"label text as description", `<label>Your city <input name="p"></label>`, "p", `{"type":"string","description":"Your city"}`},
		{"dot notation nests", `<input name="p.street" required><input name="p.city">`, "p",
			`{"type":"object","additionalProperties":false,"properties":{"street":{"type":"string"},"city":{"type":"string"}},"required":["street"]}`},
		{"fieldset name nests", `<fieldset name="p" tool-param-title="Address" tool-param-description="Where to ship"><input name="zip"><fieldset name="geo"><input name="lat"></fieldset></fieldset>`, "p",
			`{"type":"object","additionalProperties":false,"properties":{"zip":{"type":"string"},"geo":{"type":"object","additionalProperties":false,"properties":{"lat":{"type":"string"}}}},"title":"Address","description":"Where to ship"}`},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			tl := tool(t, `<form tool-name="t">`+tt.controls+`</form>`, "t")
			props, _ := tl.InputSchema.Get("properties")
			got, ok := props.(Obj).Get(tt.param)
			if !ok {
				t.Fatalf("schema %s has no parameter %q", mustJSON(tl.InputSchema), tt.param)
			}
			sameJSON(t, "parameter "+tt.param, got, tt.want)
		})
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestDraftExclusionsAndElicit checks which controls are parameters and
// where tool-elicit counts.
func TestDraftExclusionsAndElicit(t *testing.T) {
	tl := tool(t, `<form tool-name="t">
		<input name="off" disabled>
		<input type="submit" name="go"><input type="reset" name="r"><input type="button" name="b"><input type="image" name="i">
		<input placeholder="no name">
		<input type="hidden" name="h" tool-elicit>
		<input name="ro" readonly tool-elicit>
		<input name="ask" tool-elicit>
		<input type="radio" name="grp" value="a"><input type="radio" name="grp" value="b" tool-elicit>
		<input type="checkbox" name="set" value="1" tool-elicit><input type="checkbox" name="set" value="2">
		<fieldset disabled><input name="fsoff" tool-elicit></fieldset>
	</form>`, "t")
	sameJSON(t, "schema", tl.InputSchema, `{"type":"object","additionalProperties":false,"properties":{
		"h":{"type":"string"},"ro":{"type":"string"},"ask":{"type":"string"},
		"grp":{"type":"string","enum":["a","b"]},
		"set":{"type":"array","items":{"type":"string","enum":["1","2"]},"uniqueItems":true}}}`)
	if want := []string{"ask", "grp", "set"}; !reflect.DeepEqual(tl.Meta.Elicit, want) {
		t.Errorf("elicit = %q, want %q", tl.Meta.Elicit, want)
	}
}

// TestToolDiscoveryWithoutError checks elements that are not tools and
// are not errors either: a toolname form needs both attributes (as in
// Chromium), and tool-name counts only on form, a and button.
func TestToolDiscoveryWithoutError(t *testing.T) {
	for _, page := range []string{
		`<form toolname="a"><input name="q"></form>`,
		`<form tooldescription="d"><input name="q"></form>`,
		`<form toolname="" tooldescription="d"><input name="q"></form>`,
		`<div tool-name="a">A</div><input name="b" tool-name="b"><span tool-name="c">C</span>`,
	} {
		if cat := catalog(t, page); len(cat.Tools) != 0 {
			t.Errorf("Tools(%s) = %s, want no tool", page, mustJSON(cat.Tools))
		}
	}
}

// TestDraftElicitScopes checks what tool-elicit marks: a select, a whole
// repeated set, a nested parameter by its dotted path; never a readonly
// or disabled control.
func TestDraftElicitScopes(t *testing.T) {
	tl := tool(t, `<form tool-name="t">
		<select name="pick" tool-elicit><option>x</option></select>
		<input name="rep"><input name="rep" tool-elicit>
		<fieldset name="addr"><input name="zip" tool-elicit><input name="city"></fieldset>
		<input name="a.b" tool-elicit>
		<input type="date" name="when" readonly tool-elicit>
		<input name="off" disabled tool-elicit>
	</form>`, "t")
	if want := []string{"pick", "rep", "addr.zip", "a.b"}; !reflect.DeepEqual(tl.Meta.Elicit, want) {
		t.Errorf("elicit = %q, want %q", tl.Meta.Elicit, want)
	}
}

// TestDraftAnnotations checks the mapping of the hint attributes to MCP
// ToolAnnotations: a present attribute is true unless it says "false";
// tool-openworld defaults to true, the others to false.
func TestDraftAnnotations(t *testing.T) {
	tests := []struct{ attrs, want string }{
		{``, `{"readOnlyHint":false,"destructiveHint":false,"idempotentHint":false,"openWorldHint":true}`},
		{`tool-readonly tool-idempotent`, `{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":true}`},
		{`tool-destructive="" tool-openworld="false"`, `{"readOnlyHint":false,"destructiveHint":true,"idempotentHint":false,"openWorldHint":false}`},
		{`tool-readonly="FALSE" tool-openworld="true"`, `{"readOnlyHint":false,"destructiveHint":false,"idempotentHint":false,"openWorldHint":true}`},
		{`tool-title="Go"`, `{"title":"Go","readOnlyHint":false,"destructiveHint":false,"idempotentHint":false,"openWorldHint":true}`},
	}
	for _, tt := range tests {
		for _, page := range []string{
			`<form tool-name="t" ` + tt.attrs + `></form>`,
			`<a href="/" tool-name="t" ` + tt.attrs + `>t</a>`,
			`<button tool-name="t" ` + tt.attrs + `>t</button>`,
		} {
			sameJSON(t, "annotations of "+page, tool(t, page, "t").Annotations, tt.want)
		}
	}
}

// TestDraftAnnotationsAndButtons checks the MCP hints and <button> tools.
func TestDraftAnnotationsAndButtons(t *testing.T) {
	cat := catalog(t, `<form id="f" action="/del" method="post"><input name="id"></form>
		<button form="f" tool-name="delete_item" tool-destructive tool-idempotent tool-openworld="false" formaction="/really-del">Delete</button>
		<a href="/x" tool-name="open_x" tool-readonly="false">X</a>`)
	del, _ := cat.Tool("delete_item")
	sameJSON(t, "delete_item", del, `{"name":"delete_item",
		"inputSchema":{"type":"object","additionalProperties":false,"properties":{}},
		"annotations":{"readOnlyHint":false,"destructiveHint":true,"idempotentHint":true,"openWorldHint":false},
		"_meta":{"dialect":"tool-name","element":"t0","tag":"button","autosubmit":false,"action":"/really-del","method":"POST"}}`)
	x, _ := cat.Tool("open_x")
	if x.Annotations.ReadOnlyHint {
		t.Errorf("tool-readonly=\"false\" gave readOnlyHint true")
	}
}

// TestCatalogErrors checks name validation and duplicate reporting in both
// dialects.
func TestCatalogErrors(t *testing.T) {
	tests := []struct {
		name, page string
		want       error
		refs       []string
		tools      []string
	}{
		{"toolname duplicate", `<form toolname="a" tooldescription="1"></form><form toolname="a" tooldescription="2"></form>`,
			ErrDuplicateTool, []string{"f0", "f1"}, []string{"a"}},
		{"cross-dialect duplicate", `<form toolname="a" tooldescription="1"></form><a href="/" tool-name="a">A</a>`,
			ErrDuplicateTool, []string{"f0", "t0"}, []string{"a"}},
		{"draft name too long", `<form tool-name="` + strings.Repeat("x", 65) + `"></form><form tool-name="` + strings.Repeat("y", 64) + `"></form>`,
			ErrInvalidToolName, []string{"f0"}, []string{strings.Repeat("y", 64)}},
		{"draft name with space", `<a href="/" tool-name="a b">A</a>`, ErrInvalidToolName, []string{"t0"}, nil},
		{"toolname name with colon", `<form toolname="a:b" tooldescription="d"></form>`, ErrInvalidToolName, []string{"f0"}, nil},
		{"parameter conflict", `<form tool-name="t"><input name="a"><input name="a.b"></form>`, ErrParamConflict, []string{"f0"}, []string{"t"}},
		{"draft duplicate form and button", `<form tool-name="a"></form><button tool-name="a">A</button>`,
			ErrDuplicateTool, []string{"f0", "t0"}, []string{"a"}},
		{"draft duplicate links", `<a href="/1" tool-name="a">1</a><a href="/2" tool-name="a">2</a>`,
			ErrDuplicateTool, []string{"t0", "t1"}, []string{"a"}},
		{"toolname name too long", `<form toolname="` + strings.Repeat("x", 129) + `" tooldescription="d"></form><form toolname="` + strings.Repeat("y", 128) + `" tooldescription="d"></form>`,
			ErrInvalidToolName, []string{"f0"}, []string{strings.Repeat("y", 128)}},
		{"toolname non-ASCII", `<form toolname="réserver" tooldescription="d"></form>`, ErrInvalidToolName, []string{"f0"}, nil},
		{"toolname padded", `<form toolname=" a " tooldescription="d"></form>`, ErrInvalidToolName, []string{"f0"}, nil},
		{"draft non-ASCII", `<button tool-name="réserver">R</button>`, ErrInvalidToolName, []string{"t0"}, nil},
		{"draft empty name", `<form tool-name=""></form>`, ErrInvalidToolName, []string{"f0"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Extract(strings.NewReader(tt.page), ExtractOptions{})
			if err != nil {
				t.Fatal(err)
			}
			cat, err := Tools(s)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Tools error = %v, want %v", err, tt.want)
			}
			var te *ToolError
			if !errors.As(err, &te) || !reflect.DeepEqual(te.Refs, tt.refs) {
				t.Errorf("Tools error refs = %v, want %q", err, tt.refs)
			}
			var names []string
			for _, tl := range cat.Tools {
				names = append(names, tl.Name)
			}
			if !reflect.DeepEqual(names, tt.tools) {
				t.Errorf("tools = %q, want %q", names, tt.tools)
			}
		})
	}
}

// TestToolnameMCPTool checks the MCP Tool object of a toolname form: the
// schema is Chromium's, autosubmit goes to _meta.
func TestToolnameMCPTool(t *testing.T) {
	tl := tool(t, `<form toolname="find" tooldescription="Find things" toolautosubmit action="/s"><input name="q" required></form>`, "find")
	sameJSON(t, "find", tl, `{"name":"find","description":"Find things",
		"inputSchema":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]},
		"_meta":{"dialect":"toolname","element":"f0","tag":"form","autosubmit":true,"action":"/s","method":"GET"}}`)
}

// TestToolsGolden compares the MCP tools of every testdata page with its
// golden (go test -run ToolsGolden -update rewrites them).
func TestToolsGolden(t *testing.T) {
	for _, page := range pages(t) {
		t.Run(filepath.Base(page), func(t *testing.T) {
			cat, err := Tools(extractFile(t, page))
			if err != nil {
				t.Fatalf("Tools(%s): %v", page, err)
			}
			got, err := json.MarshalIndent(cat.Tools, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := strings.TrimSuffix(page, ".html") + ".tools.json"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("read golden (run with -update to create): %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Tools(%s) differs from %s:\n%s", page, golden, got)
			}
		})
	}
}

// TestInvalidUTF8Names guards against parameters no argument can name: a
// control called "\xff" became a schema key that JSON turns into U+FFFD,
// so the form's own defaults were refused as unknown (found by FuzzTools).
func TestInvalidUTF8Names(t *testing.T) {
	for _, page := range []string{
		"<form toolname=\"t\" tooldescription=\"d\"><input name=\"\xff\" value=\"v\"></form>",
		"<form tool-name=\"t\"><fieldset name=\"\xfe\"><input name=\"\xff\" value=\"v\"></fieldset></form>",
	} {
		tl := tool(t, page, "t")
		plan, err := tl.Plan(tl.DefaultArgs())
		if err != nil {
			t.Errorf("Plan(%s) of %q: %v", tl.DefaultArgs(), page, err)
			continue
		}
		if len(plan.Fills) != 1 || *plan.Fills[0].Value != "v" {
			t.Errorf("Plan(%s) of %q fills %+v, want the one control with v", tl.DefaultArgs(), page, plan.Fills)
		}
	}
}

// TestDraftDocumentOrder checks that tool-* tools are listed in document
// order across <form>, <a> and <button>, whatever their names, while the
// toolname tools Chromium lists stay sorted by name there.
func TestDraftDocumentOrder(t *testing.T) {
	tests := []struct {
		name, page string
		want       []string
	}{
		{"link, form, button", `<a href="/z" tool-name="zeta">Z</a>
<form tool-name="alpha"><input name="q"></form>
<button tool-name="mid">M</button>`, []string{"zeta", "alpha", "mid"}},
		{"button inside a later form", `<form tool-name="b_form"><button tool-name="a_button">A</button></form>
<a href="/" tool-name="0_link">0</a>`, []string{"b_form", "a_button", "0_link"}},
		{"forms and links interleaved", `<form tool-name="y1"></form><a href="/" tool-name="x2">x</a>
<form tool-name="w3"></form><a href="/" tool-name="v4">v</a>`, []string{"y1", "x2", "w3", "v4"}},
		{"toolname forms too", `<form toolname="zz" tooldescription="d"></form><a href="/" tool-name="aa">a</a>`, []string{"zz", "aa"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var names []string
			for _, tl := range catalog(t, tt.page).Tools {
				names = append(names, tl.Name)
			}
			if !reflect.DeepEqual(names, tt.want) {
				t.Errorf("tools = %q, want %q", names, tt.want)
			}
		})
	}
	s, err := Extract(strings.NewReader(`<form toolname="b" tooldescription="d"></form><form toolname="a" tooldescription="d"></form>`), ExtractOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range ModelContextTools(s) {
		names = append(names, m.Name)
	}
	if want := []string{"a", "b"}; !reflect.DeepEqual(names, want) {
		t.Errorf("ModelContextTools = %q, want %q (Chromium sorts by name)", names, want)
	}
}

// TestInvalidNameKeepsOthers checks that one invalid tool name leaves the
// page's valid tools listed, in document order, with the invalid one
// reported.
func TestInvalidNameKeepsOthers(t *testing.T) {
	s, err := Extract(strings.NewReader(`<form tool-name="search"><input name="q"></form>
<a href="/x" tool-name="bad name">X</a>
<button tool-name="go">Go</button>`), ExtractOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cat, err := Tools(s)
	var te *ToolError
	if !errors.Is(err, ErrInvalidToolName) || !errors.As(err, &te) || te.Name != "bad name" || !reflect.DeepEqual(te.Refs, []string{"t0"}) {
		t.Errorf("Tools error = %v, want the invalid name \"bad name\" at t0", err)
	}
	var names []string
	for _, tl := range cat.Tools {
		names = append(names, tl.Name)
	}
	if want := []string{"search", "go"}; !reflect.DeepEqual(names, want) {
		t.Errorf("tools = %q, want %q", names, want)
	}
}
