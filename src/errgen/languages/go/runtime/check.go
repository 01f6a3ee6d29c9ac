package errgenruntime

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Problem is one reason the strict contract rejects a payload: a stable id (see
// docs/conformance.md) and a message for people.
type Problem struct {
	ID      string
	Message string
}

// PayloadError is a payload the contract rejects.
type PayloadError struct {
	Problems []Problem
}

func (e *PayloadError) Error() string {
	messages := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		messages[i] = p.Message
	}
	return "invalid error payload: " + strings.Join(messages, "; ")
}

// The field types of the contract view.
const (
	fieldKindString     = "string"
	fieldKindBoolean    = "boolean"
	fieldKindInteger    = "integer"
	fieldKindEnum       = "enum"
	fieldKindStringList = "string_list"
	fieldKindScalarMap  = "scalar_map"
)

// The canonical names of the fields the rules read; their wire names come from fieldSpecs.
const (
	canonicalCode          = "code"
	canonicalCategory      = "category"
	canonicalRetryable     = "retryable"
	canonicalRetryAfterMS  = "retry_after_ms"
	canonicalScope         = "scope"
	canonicalResourceID    = "resource_id"
	canonicalCorrelationID = "correlation_id"
	canonicalMessage       = "message"
	canonicalSearched      = "searched"
	canonicalDidYouMean    = "did_you_mean"
	canonicalAccepted      = "accepted"
)

const (
	problemMessageNotAnObject      = "payload must be a JSON object"
	problemMessageResourceRequired = "scope is resource, so the resource id is required"
)

// fieldSpec is one payload field as the contract view describes it (the data is generated).
type fieldSpec struct {
	name     string
	wire     string
	kind     string
	required bool
	hint     bool
	values   []string
	minimum  int64
	maximum  int64
	maxItems int
}

var (
	specByWire = indexSpecs(fieldSpecs)
	wireOf     = wireNames(fieldSpecs)
	// The wire names of the fields the rules read.
	wCode          = wireOf[canonicalCode]
	wCategory      = wireOf[canonicalCategory]
	wRetryable     = wireOf[canonicalRetryable]
	wRetryAfterMS  = wireOf[canonicalRetryAfterMS]
	wScope         = wireOf[canonicalScope]
	wResourceID    = wireOf[canonicalResourceID]
	wCorrelationID = wireOf[canonicalCorrelationID]
	wMessage       = wireOf[canonicalMessage]
	wSearched      = wireOf[canonicalSearched]
	wDidYouMean    = wireOf[canonicalDidYouMean]
	wAccepted      = wireOf[canonicalAccepted]
)

func indexSpecs(specs []fieldSpec) map[string]*fieldSpec {
	index := make(map[string]*fieldSpec, len(specs))
	for i := range specs {
		index[specs[i].wire] = &specs[i]
	}
	return index
}

func wireNames(specs []fieldSpec) map[string]string {
	names := make(map[string]string, len(specs))
	for _, s := range specs {
		names[s.name] = s.wire
	}
	return names
}

func (s *fieldSpec) accepts(v any) bool {
	switch s.kind {
	case fieldKindString:
		_, ok := v.(string)
		return ok
	case fieldKindBoolean:
		_, ok := v.(bool)
		return ok
	case fieldKindInteger:
		_, ok := integerIn(v, s.minimum, s.maximum)
		return ok
	case fieldKindEnum:
		str, ok := v.(string)
		for _, allowed := range s.values {
			if ok && str == allowed {
				return true
			}
		}
		return false
	case fieldKindStringList:
		items, ok := v.([]any)
		if !ok || (s.maxItems >= 0 && len(items) > s.maxItems) {
			return false
		}
		for _, item := range items {
			if _, ok := item.(string); !ok {
				return false
			}
		}
		return true
	case fieldKindScalarMap:
		obj, ok := v.(*object)
		if !ok {
			return false
		}
		for _, k := range obj.keys {
			switch obj.vals[k].(type) {
			case string, bool, json.Number:
			default:
				return false
			}
		}
		return true
	}
	return false
}

func (s *fieldSpec) expected() string {
	switch s.kind {
	case fieldKindString:
		return "a string"
	case fieldKindBoolean:
		return "true or false"
	case fieldKindInteger:
		return fmt.Sprintf("an integer from %d to %d", s.minimum, s.maximum)
	case fieldKindEnum:
		return "one of " + strings.Join(s.values, ", ")
	case fieldKindStringList:
		if s.maxItems >= 0 {
			return fmt.Sprintf("a list of at most %d strings", s.maxItems)
		}
		return "a list of strings"
	}
	return "an object of names to strings, numbers or booleans"
}

// envelopeProblems are the problems any payload has whatever its code: shape, types, required
// fields. A payload without them is well-formed, even with a code this SDK does not know.
func envelopeProblems(raw any) []Problem {
	obj, ok := raw.(*object)
	if !ok {
		return []Problem{{ProblemNotAnObject, problemMessageNotAnObject}}
	}
	var found []Problem
	for _, key := range obj.keys {
		spec, known := specByWire[key]
		switch {
		case !known:
			found = append(found, Problem{ProblemExtraField, fmt.Sprintf("field %q is not part of the contract", key)})
		case !spec.accepts(obj.vals[key]):
			found = append(found, Problem{ProblemWrongType, fmt.Sprintf("field %q must be %s", key, spec.expected())})
		}
	}
	for i := range fieldSpecs {
		if fieldSpecs[i].required && !obj.has(fieldSpecs[i].wire) {
			found = append(found, Problem{ProblemMissingField, fmt.Sprintf("required field %q is missing", fieldSpecs[i].wire)})
		}
	}
	if scope, _ := obj.vals[wScope].(string); scope == string(ScopeResource) && !obj.has(wResourceID) {
		found = append(found, Problem{ProblemResourceIDMissing, problemMessageResourceRequired})
	}
	return found
}

// registryProblems are the contradictions between a well-formed payload and its code's row.
func registryProblems(obj *object, e *Entry) []Problem {
	var found []Problem
	if category := Category(obj.vals[wCategory].(string)); category != e.Category {
		found = append(found, Problem{ProblemCategoryMismatch, fmt.Sprintf("%s has category %s, not %q", e.Code, e.Category, category)})
	}
	if obj.vals[wRetryable].(bool) != e.Retryable {
		found = append(found, Problem{ProblemRetryableMismatch, fmt.Sprintf("%s has retryable %t", e.Code, e.Retryable)})
	}
	scope := Scope(obj.vals[wScope].(string))
	allowed := false
	for _, s := range e.Scopes {
		allowed = allowed || s == scope
	}
	if !allowed {
		found = append(found, Problem{ProblemScopeNotAllowed, fmt.Sprintf("%s may not carry scope %q", e.Code, scope)})
	}
	if obj.has(wRetryAfterMS) && !e.Retryable {
		found = append(found, Problem{ProblemRetryAfterNotRetryable, fmt.Sprintf("%s is not retryable, so it has no %s", e.Code, wRetryAfterMS)})
	}
	for i := range fieldSpecs {
		spec := &fieldSpecs[i]
		if spec.hint && obj.has(spec.wire) && !contains(e.Hints, spec.name) {
			found = append(found, Problem{ProblemHintNotAllowed, fmt.Sprintf("%s does not carry the hint field %q", e.Code, spec.wire)})
		}
	}
	return found
}

func contains(values []string, value string) bool {
	for _, v := range values {
		if v == value {
			return true
		}
	}
	return false
}

// strictProblems is the strict verdict: every reason the contract rejects raw (none: valid).
func strictProblems(raw any) []Problem {
	found := envelopeProblems(raw)
	if len(found) > 0 {
		return found
	}
	obj := raw.(*object)
	if !Category(obj.vals[wCategory].(string)).IsKnown() {
		found = append(found, Problem{ProblemUnknownCategory, fmt.Sprintf("category %q is not in registry %s", obj.vals[wCategory], RegistryName)})
	}
	e, ok := entries[Code(obj.vals[wCode].(string))]
	if !ok {
		return append(found, Problem{ProblemUnknownCode, fmt.Sprintf("code %q is not in registry %s", obj.vals[wCode], RegistryName)})
	}
	return append(found, registryProblems(obj, e)...)
}

// tolerant is the tolerant verdict, and the problems behind an invalid one.
func tolerant(raw any) (Parsed, []Problem) {
	if found := envelopeProblems(raw); len(found) > 0 {
		return ParsedInvalid, found
	}
	obj := raw.(*object)
	if !obj.vals[wRetryable].(bool) && obj.has(wRetryAfterMS) {
		return ParsedInvalid, []Problem{{ProblemRetryAfterNotRetryable, fmt.Sprintf("a payload that is not retryable has no %s", wRetryAfterMS)}}
	}
	if !Code(obj.vals[wCode].(string)).IsKnown() || !Category(obj.vals[wCategory].(string)).IsKnown() {
		return ParsedUnknown, nil
	}
	return ParsedKnown, nil
}

// problemIDs are the sorted, distinct ids of problems.
func problemIDs(problems []Problem) []string {
	seen := map[string]bool{}
	ids := []string{}
	for _, p := range problems {
		if !seen[p.ID] {
			seen[p.ID] = true
			ids = append(ids, p.ID)
		}
	}
	sort.Strings(ids)
	return ids
}
