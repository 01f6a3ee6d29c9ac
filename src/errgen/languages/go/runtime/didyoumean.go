package errgenruntime

import "sort"

// DidYouMean returns the near misses of value among allowed, closest first (edit distance at
// most a third of value's length), as many as a payload may carry. Pass only the values this
// caller may read (its own tenants, say), never a global list: a suggestion drawn from everything
// leaks what the caller cannot see.
func DidYouMean(value string, allowed []string) []string {
	return DidYouMeanN(value, allowed, didYouMeanLimit)
}

// DidYouMeanN is DidYouMean with at most limit suggestions (and never more than a payload may
// carry; none for limit <= 0).
func DidYouMeanN(value string, allowed []string, limit int) []string {
	limit = min(limit, didYouMeanLimit)
	target := []rune(value)
	budget := len(target) / 3
	if budget < 1 {
		budget = 1
	}
	type near struct {
		distance, index int
		value           string
	}
	var found []near
	for i, candidate := range allowed {
		if candidate == value {
			continue
		}
		if d := editDistance(target, []rune(candidate), budget); d <= budget {
			found = append(found, near{d, i, candidate})
		}
	}
	sort.Slice(found, func(a, b int) bool {
		if found[a].distance != found[b].distance {
			return found[a].distance < found[b].distance
		}
		return found[a].index < found[b].index
	})
	out := []string{}
	for i := 0; i < len(found) && i < limit; i++ {
		out = append(out, found[i].value)
	}
	return out
}

// editDistance is the Levenshtein distance, or budget+1 once it is known to exceed budget.
func editDistance(a, b []rune, budget int) int {
	if len(a)-len(b) > budget || len(b)-len(a) > budget {
		return budget + 1
	}
	previous := make([]int, len(b)+1)
	for j := range previous {
		previous[j] = j
	}
	for i := 1; i <= len(a); i++ {
		current := make([]int, len(b)+1)
		current[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			current[j] = min(previous[j]+1, current[j-1]+1, previous[j-1]+cost)
		}
		previous = current
	}
	return previous[len(b)]
}
