// Package heuristics classifies un-annotated form controls into concepts
// (schema.org IRIs, one per WHATWG autofill field name) with a confidence,
// from ordered, data-driven rules over the evidence a snapshot carries.
package heuristics
