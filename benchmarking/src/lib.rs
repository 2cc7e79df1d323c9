//! Shared pieces of the benchmark tools: reading Criterion's results and describing the
//! machine they were measured on.

pub mod charge;
pub mod machine_state;
pub mod parachain;
pub mod throughput;
pub mod unpaid;
pub mod wasm_runtime;

use std::{collections::BTreeMap, fs, path::Path};

/// The run whose `key` is the median among `runs` of one item (the upper median of an even
/// count): one whole run, so the figures of a report's row stay consistent with each other.
pub fn median_by<T>(mut runs: Vec<T>, key: impl Fn(&T) -> f64) -> T {
	assert!(!runs.is_empty(), "every item runs at least once");
	runs.sort_by(|a, b| key(a).total_cmp(&key(b)));
	let middle = runs.len() / 2;
	runs.swap_remove(middle)
}

/// Median nanoseconds per benchmark, by Criterion id (`ml-dsa-44/libcrux/decode`).
pub type Results = BTreeMap<String, f64>;

/// Reads every `new/benchmark.json` + `new/estimates.json` pair under `directory`.
pub fn read_results(directory: &Path) -> Result<Results, String> {
	let mut results = Results::new();
	collect(directory, &mut results)?;
	if results.is_empty() {
		return Err(format!("no Criterion results under {}", directory.display()));
	}
	Ok(results)
}

fn collect(directory: &Path, results: &mut Results) -> Result<(), String> {
	let entries =
		fs::read_dir(directory).map_err(|error| format!("{}: {error}", directory.display()))?;
	for entry in entries {
		let path = entry.map_err(|error| error.to_string())?.path();
		if !path.is_dir() {
			continue;
		}
		if path.file_name().is_some_and(|name| name == "new") {
			let benchmark = read_json(&path.join("benchmark.json"))?;
			let estimates = read_json(&path.join("estimates.json"))?;
			let id = benchmark["full_id"].as_str().ok_or("benchmark.json without full_id")?;
			let median = estimates["median"]["point_estimate"]
				.as_f64()
				.ok_or("estimates.json without median")?;
			results.insert(id.to_owned(), median);
		} else {
			collect(&path, results)?;
		}
	}
	Ok(())
}

fn read_json(path: &Path) -> Result<serde_json::Value, String> {
	let text = fs::read_to_string(path).map_err(|error| format!("{}: {error}", path.display()))?;
	serde_json::from_str(&text).map_err(|error| format!("{}: {error}", path.display()))
}

/// `1234567` → `1_234_567`, as the benchmark CLI writes weights (its `underscore` helper).
pub fn grouped_in_thousands(digits: &str) -> String {
	let mut grouped = String::new();
	for (index, digit) in digits.chars().enumerate() {
		if index > 0 && (digits.len() - index).is_multiple_of(3) {
			grouped.push('_');
		}
		grouped.push(digit);
	}
	grouped
}

/// A markdown paragraph naming the CPU, core count, compiler and whether libcrux's AVX2 code
/// is in use, so every table says where it was measured.
pub fn machine_summary() -> String {
	let cpu = fs::read_to_string("/proc/cpuinfo")
		.ok()
		.and_then(|info| {
			info.lines()
				.find(|line| line.starts_with("model name"))
				.and_then(|line| line.split(':').nth(1))
				.map(|name| name.trim().to_owned())
		})
		.unwrap_or_else(|| "unknown CPU".into());
	let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0);
	let avx2 = if std::arch::is_x86_feature_detected!("avx2") { "yes" } else { "no" };
	format!(
		"Machine: {cpu}, {cores} cores; CPU has AVX2: {avx2}; libcrux AVX2 code engaged: {}. \
		 Compiler: {}.\n",
		pq_crypto::backend::Libcrux::simd_engaged(),
		env!("PQ_RUSTC_VERSION"),
	)
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn weights_are_grouped_in_thousands() {
		assert_eq!(grouped_in_thousands(&221_366_359.to_string()), "221_366_359");
		assert_eq!(grouped_in_thousands(&26_944.to_string()), "26_944");
		assert_eq!(grouped_in_thousands(&944.to_string()), "944");
	}
}
