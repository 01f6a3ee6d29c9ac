package errgenruntime

// Code is an error code as it travels on the wire. The package declares a constant for every
// code of the registry; a code from a newer server is kept as its string (see IsKnown).
type Code string

// Error makes a code a target for errors.Is: errors.Is(err, CodeRateLimited) reports whether err
// wraps an *ErrorPayload with that code.
func (c Code) Error() string { return string(c) }

// Category is the class of a failure; one recovery policy per category.
type Category string

// Scope says what failed: the request, one resource, or the whole service.
type Scope string

// Action is what a caller does about an error (see Decide).
type Action string

// State says whether anything was read or written before the failure.
type State string

// Reason says which rule a Decision came from.
type Reason string

// Parsed is the tolerant verdict on a raw payload.
type Parsed string

var (
	codeSet     = setOf(allCodes)
	categorySet = setOf(allCategories)
	scopeSet    = setOf(allScopes)
	actionSet   = setOf(allActions)
	stateSet    = setOf(allStates)
	reasonSet   = setOf(allReasons)
	parsedSet   = setOf(allParsed)
)

func setOf[T comparable](values []T) map[T]bool {
	set := make(map[T]bool, len(values))
	for _, v := range values {
		set[v] = true
	}
	return set
}

// IsKnown reports whether the registry this package was generated from has the code.
func (c Code) IsKnown() bool { return codeSet[c] }

// IsKnown reports whether the registry has the category.
func (c Category) IsKnown() bool { return categorySet[c] }

// IsKnown reports whether s is one of the contract's scopes.
func (s Scope) IsKnown() bool { return scopeSet[s] }

// IsKnown reports whether a is one of the contract's actions.
func (a Action) IsKnown() bool { return actionSet[a] }

// IsKnown reports whether s is one of the contract's states.
func (s State) IsKnown() bool { return stateSet[s] }

// IsKnown reports whether r is one of the contract's decision reasons.
func (r Reason) IsKnown() bool { return reasonSet[r] }

// IsKnown reports whether p is one of the contract's tolerant verdicts.
func (p Parsed) IsKnown() bool { return parsedSet[p] }

// Codes returns every code of the registry, in registry order.
func Codes() []Code { return append([]Code(nil), allCodes...) }

// Categories returns every category of the registry, in registry order.
func Categories() []Category { return append([]Category(nil), allCategories...) }
