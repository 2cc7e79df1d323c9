//! Genesis configurations as a chain specification builds them: a preset is a patch over the
//! runtime's default configuration.

/// Merges `patch` into `base` as a JSON merge patch (RFC 7386), as sc-chain-spec merges a
/// genesis preset over the default configuration.
pub fn merge_patch(base: &mut serde_json::Value, patch: serde_json::Value) {
	match (base, patch) {
		(serde_json::Value::Object(base), serde_json::Value::Object(patch)) => {
			for (key, value) in patch {
				merge_patch(base.entry(key).or_insert(serde_json::Value::Null), value);
			}
		},
		(base, patch) => *base = patch,
	}
}
