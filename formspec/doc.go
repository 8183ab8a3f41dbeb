// Package formspec resolves Formspec Assist field help (Assist §5): the
// references of every References document bound to a field, its ancestors
// and the form, filtered by audience and sorted by priority, and the field's
// concept identity from Ontology and Registry documents. It is the one
// implementation behind `tessera help --definition`, the app's formspec.help
// method and the extension's bootstrap provider (formspec.field.help).
//
// Every document comes from a web page and is untrusted: sizes, nesting,
// counts and path lengths are bounded, and a document that breaks the
// References or Ontology rules is refused with the Assist error code
// x-invalid-sidecar rather than used in part.
package formspec
