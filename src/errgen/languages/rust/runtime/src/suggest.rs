//! Near-miss suggestions for a `did_you_mean` hint.

/// Near misses of `value` among `allowed`, closest first (Levenshtein distance of at most a third
/// of `value`'s length, ties in `allowed`'s order), at most `limit`.
///
/// Pass only the values this caller may read (its own tenants, say), never a global list: a
/// suggestion drawn from everything leaks the existence of what the caller cannot see.
#[must_use]
pub fn did_you_mean<S: AsRef<str>>(value: &str, allowed: &[S], limit: usize) -> Vec<String> {
    let value: Vec<char> = value.chars().collect();
    let budget = (value.len() / 3).max(1);
    let mut scored: Vec<(usize, usize, &str)> = allowed
        .iter()
        .enumerate()
        .filter_map(|(index, candidate)| {
            let candidate = candidate.as_ref();
            let chars: Vec<char> = candidate.chars().collect();
            let distance = levenshtein(&value, &chars, budget);
            (distance <= budget && chars != value).then_some((distance, index, candidate))
        })
        .collect();
    scored.sort_unstable();
    scored
        .into_iter()
        .take(limit)
        .map(|(_, _, c)| c.to_owned())
        .collect()
}

/// Edit distance, or `budget + 1` as soon as the lengths alone exceed the budget.
fn levenshtein(a: &[char], b: &[char], budget: usize) -> usize {
    if a.len().abs_diff(b.len()) > budget {
        return budget + 1;
    }
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitute = previous[j] + usize::from(ca != cb);
            current.push((previous[j + 1] + 1).min(current[j] + 1).min(substitute));
        }
        previous = current;
    }
    previous[b.len()]
}
