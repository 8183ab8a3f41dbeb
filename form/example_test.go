package form_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tessera-app/tessera/form"
)

func Example() {
	page := `<form toolname="search_flights" tooldescription="Search flights">
	  <label for="to">Destination</label><input id="to" name="to" required>
	  <input type="number" name="adults" min="1" max="9">
	</form>`
	snap, err := form.Extract(strings.NewReader(page), form.ExtractOptions{})
	if err != nil {
		panic(err)
	}
	cat, err := form.Tools(snap)
	if err != nil {
		panic(err)
	}
	tool := cat.Tools[0]
	schema, _ := json.Marshal(tool.InputSchema)
	fmt.Println(tool.Name, string(schema))

	plan, _ := tool.Plan(json.RawMessage(`{"to":"Lisbon","adults":2}`))
	for _, f := range plan.Fills {
		fmt.Println(f.Ref, f.Param, *f.Value)
	}

	_, err = tool.Plan(json.RawMessage(`{"adults":12,"class":"first"}`))
	var rej *form.Rejection
	if errors.As(err, &rej) {
		for _, p := range rej.Problems {
			fmt.Println(p.Param, p.Reason)
		}
	}
	// Output:
	// search_flights {"type":"object","properties":{"to":{"type":"string","description":"Destination"},"adults":{"type":"number","minimum":1,"maximum":9,"multipleOf":1}},"required":["to"]}
	// c0 to Lisbon
	// c1 adults 2
	// to required
	// adults range
	// class unknown
}
