// Package matcher decides which profile value goes into which form field,
// shaped the way that field wants it, with a confidence a person can trust.
//
// It owns three things: concept identity (which concept a field stands for,
// from Formspec Ontology bindings, Registry concept entries, semanticType,
// the autocomplete token and heuristic classification, in that order —
// Formspec Assist §5.3), profile matching (Assist §7.2) and value adaptation
// (composing, splitting and formatting a stored value for one field).
//
// # Confidence
//
// A proposal's confidence is the product of four factors, each in [0, 1]:
//
//		confidence = relationship × entry × evidence × adaptation
//
//	  - relationship: how the field's concept reached the profile entry —
//	    the field's own concept 1.00; an equivalent of type exact (or no type)
//	    0.95, close 0.80, broader or narrower 0.60, related 0.40; the
//	    field-path fallback (profile.fields) 0.30.
//	  - entry: the profile entry's own confidence, clamped to [0, 1]; an entry
//	    that states none (0) counts as 1, since people writing a profile by
//	    hand leave it out and a stored zero would otherwise make it unusable.
//	  - evidence: how sure Tessera is of the field's concept — an Ontology
//	    binding 1.00, a Registry entry 0.98, a semanticType literal 0.95, a
//	    valid autocomplete token 0.95, a heuristic guess its own classifier
//	    confidence.
//	  - adaptation: 1.00 when the value is used as stored or reformatted
//	    losslessly (a date in another layout, a phone in national format, a
//	    country code as its name); 0.90 when it is derived by a rule that can
//	    be wrong (a full name split into parts, a house number split off a
//	    street line, a date layout inferred from the page language only).
//
// Proposals under the threshold (0.50 unless Options.Threshold says
// otherwise) are dropped with the skip reason "x-low-confidence". Because the
// factors multiply, for one entry and one field the order of the relationship
// weights is kept: exact ≥ close ≥ broader/narrower ≥ related ≥ field-key.
//
// # Skip reasons
//
// Fields that get no value carry an Assist skip reason: READONLY, NOT_RELEVANT
// (disabled, hidden or non-relevant fields — Tessera never fills what a
// person cannot see), INVALID_VALUE (the adapted value would not satisfy the
// field's constraints, or no select option fits), or one of the x- reasons
// below: x-sensitive (passwords, one-time codes, payment cards, usernames are
// never filled from profile data), x-no-concept, x-no-value,
// x-low-confidence, x-unsupported (a control kind the matcher does not fill),
// x-pattern-unsupported (a pattern Go's regexp cannot check, treated as
// unknown and so as unsatisfiable) and x-not-chosen (the other radio
// buttons of a group whose value went to one of them).
package matcher
