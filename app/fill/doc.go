// Package fill fills pages with the person's consent: it analyses a page
// (extraction, classification, matching against the profile), proposes
// (saying only which kinds of value the profile holds), asks the person
// through the release gate of package confirm, continues a fill when the
// page shows more fields, records what the page did with the values, learns
// from a submit the person made, remembers sites the person let fill
// without asking, and answers the Formspec Assist methods.
//
// Browsers reach it through the protocol methods Register adds to the
// broker; agents call its typed API (Analyse, Propose, Fill, Report)
// directly. Every value it hands out is a confirm.Value the gate made.
package fill
