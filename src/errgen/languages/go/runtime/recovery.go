package errgenruntime

// Entry is one row of the recovery table: what the registry says about a code.
type Entry struct {
	Code      Code
	Category  Category
	Retryable bool
	// Scope is the default scope, used by NewError.
	Scope  Scope
	Scopes []Scope
	// Actions is the recovery action for each allowed scope.
	Actions map[Scope]Action
	// RetryAfterMS is the registry's default delay, or nil.
	RetryAfterMS *int64
	HTTPStatus   int
	// Hints names the hint fields the code may carry (canonical field names).
	Hints           []string
	Description     string
	Since           string
	DeprecatedSince string
	ReplacedBy      Code
	// TypeURI is the RFC 9457 problem type of the code.
	TypeURI string
}

var entries = indexEntries(table)

func indexEntries(rows []Entry) map[Code]*Entry {
	index := make(map[Code]*Entry, len(rows))
	for i := range rows {
		index[rows[i].Code] = &rows[i]
	}
	return index
}

func millis(v int64) *int64 { return &v }

// Lookup returns the recovery table's row for code.
func Lookup(code Code) (Entry, bool) {
	e, ok := entries[code]
	if !ok {
		return Entry{}, false
	}
	return e.clone(), true
}

// RecoveryTable returns the recovery table: one row per code, in registry order.
func RecoveryTable() []Entry {
	rows := make([]Entry, len(table))
	for i := range table {
		rows[i] = table[i].clone()
	}
	return rows
}

// clone copies the row's slices and map, so a caller cannot change the package's table.
func (e *Entry) clone() Entry {
	c := *e
	c.Scopes = append([]Scope(nil), e.Scopes...)
	c.Hints = append([]string(nil), e.Hints...)
	c.Actions = make(map[Scope]Action, len(e.Actions))
	for k, v := range e.Actions {
		c.Actions[k] = v
	}
	if e.RetryAfterMS != nil {
		c.RetryAfterMS = millis(*e.RetryAfterMS)
	}
	return c
}
