//! Merges several `benchmark pallet` runs of one pallet into its weights file.
//!
//! This VM's speed drifts by tens of percent within a run, so one run can catch a benchmark in
//! a fast stretch and charge less than a slower moment costs: an undercharge. Each run is
//! rendered with `benchmarking/weights/run-data.hbs` (the CLI's template data, as JSON) and,
//! with `--results`, its raw measurements are kept too (the CLI's `--json-file`). For every
//! benchmark this takes each run's median time at each measured component value, combines
//! the runs there — a component-free benchmark by the **slowest run**, one with a component by
//! the runs' **upper median** at each value ([`bounded_execution`] says why) — and charges the
//! **line no combined time lies above that overcharges least** ([`bounding_line`]), plus a
//! **margin**. Reads, writes and proof sizes are kept
//! (deterministic: the largest, if runs ever disagree). The weight template is rendered with
//! the same engine and helpers the benchmark CLI uses. `scripts/generate-weights.sh` runs it.
//!
//! Bounding the measured times, not the CLI's fitted lines, matters three ways: one run's
//! fitted intercept and another's fitted slope are never added (a slow stretch at few share
//! reads in one run charged `authorize_committee` 844 µs + 16.8 µs a read, more than any run
//! took anywhere); a line fitted over a long range does not carry its noise into the
//! intercept (`frame_system::remark` fitted 51 µs for a call that takes 3); and a cost that
//! bends is covered where it bends (that fitted remark weight was 3% under the measured
//! median at 2.3 MB, where the remark's allocation grows).
//!
//! A benchmark the runtime charges by its **rise** above its lowest measured value
//! (`--rise-charged`: `derive_committee_key`, charged for a committee's shares beyond the first)
//! is bounded differently: the line least overcharging the times may pass above the lowest one
//! with a shallower slope, and then its rise undercharges. Its line passes through the time at
//! the lowest value with the least slope above every later one ([`rise_bounding_line`]).
//!
//! Between the lowest and highest measured values the line bounds the combined times; beyond
//! them it is extrapolated, so a benchmark's range must cover what the runtime charges (the pallet's do: share
//! reads are at most half a committee's 128 members, and an account derivation past 64
//! candidates takes about 2^64 tries to grind).
//!
//! Without `--results` (the storage runs, which have no components), each execution weight is
//! the largest of the runs' own, plus the margin.
//!
//! Usage: `merge-weights --template T --output O --margin-percent M --command C
//! [--results DIR] [--rise-charged NAME]… RUN.json…` (each run's raw results in
//! `DIR/<the run's file name>`)

use anyhow::{bail, ensure, Context};
use clap::Parser;
use handlebars::{
	Context as HbContext, Handlebars, Helper, HelperResult, JsonRender, Output, RenderContext,
};
use serde_json::{json, Value};
use std::{
	collections::BTreeMap,
	path::{Path, PathBuf},
};

/// Command line of `merge-weights`.
#[derive(Debug, Parser)]
struct Args {
	/// The weight template to render (the pallet's or the runtime's).
	#[arg(long)]
	template: PathBuf,
	/// The weights file to write.
	#[arg(long)]
	output: PathBuf,
	/// Added to every execution weight and slope after taking the largest of the runs.
	#[arg(long)]
	margin_percent: u32,
	/// The command that generated the runs, recorded in the file's header.
	#[arg(long)]
	command: String,
	/// Where each run's raw results are (`benchmark pallet --json-file`), under the run's file
	/// name: the execution weights are then bounded from them.
	#[arg(long)]
	results: Option<PathBuf>,
	/// A benchmark the runtime charges by its rise above its lowest measured value
	/// ([`rise_bounding_line`]); repeatable.
	#[arg(long = "rise-charged")]
	rises_charged: Vec<String>,
	/// The runs, each rendered with `benchmarking/weights/run-data.hbs`.
	#[arg(required = true)]
	runs: Vec<PathBuf>,
}

/// Fields that do not drift: the largest of the runs (they agree).
const DETERMINISTIC: &[&str] =
	&["base_reads", "base_writes", "base_calculated_proof_size", "base_recorded_proof_size"];
/// The execution weight's slope list, the one that drifts.
const WEIGHT_SLOPES: &str = "component_weight";
/// Every slope list: a component is used if any of them gives it a slope. All but the first,
/// [`WEIGHT_SLOPES`], do not drift.
const SLOPES: &[&str] =
	&[WEIGHT_SLOPES, "component_reads", "component_writes", "component_calculated_proof_size"];
const DETERMINISTIC_SLOPES: &[&str] = SLOPES.split_at(1).1;

fn number(value: &Value) -> anyhow::Result<u128> {
	value
		.as_str()
		.context("a number given as a string")?
		.parse()
		.context("a whole number")
}

fn with_margin(value: u128, margin_percent: u32) -> u128 {
	(value * (100 + u128::from(margin_percent))).div_ceil(100)
}

/// The benchmark named `name` in `run`.
fn benchmark<'a>(run: &'a Value, name: &str) -> anyhow::Result<&'a Value> {
	run["benchmarks"]
		.as_array()
		.context("a run lists its benchmarks")?
		.iter()
		.find(|benchmark| benchmark["name"] == name)
		.with_context(|| format!("benchmark `{name}` is missing from a run"))
}

/// The slope of `component` in the slope list `field` of `benchmark` (0 if it has none).
fn slope(benchmark: &Value, field: &str, component: &str) -> anyhow::Result<u128> {
	match benchmark[field]
		.as_array()
		.and_then(|slopes| slopes.iter().find(|slope| slope["name"] == component))
	{
		Some(slope) => number(&slope["slope"]),
		None => Ok(0),
	}
}

/// Every component named in the slope list `field` of any of `benchmarks`, in first-seen order.
fn components(benchmarks: &[&Value], field: &str) -> Vec<String> {
	let mut names = Vec::<String>::new();
	for benchmark in benchmarks {
		for slope in benchmark[field].as_array().into_iter().flatten() {
			if let Some(name) =
				slope["name"].as_str().filter(|name| !names.iter().any(|known| known == name))
			{
				names.push(name.to_owned());
			}
		}
	}
	names
}

/// The largest of `values`, or the first error.
fn max_of(mut values: impl Iterator<Item = anyhow::Result<u128>>) -> anyhow::Result<u128> {
	values.try_fold(0, |max, value| Ok(max.max(value?)))
}

/// A benchmark's execution time in picoseconds at each measured value of its component (one
/// entry, at 0, for a benchmark without components).
type Times = BTreeMap<u32, u128>;

/// The benchmark `name`'s median time at each component value in one run's raw results
/// (`benchmark pallet --json-file`: batches of `time_results`, each time in nanoseconds), and
/// its component's name. A benchmark of more than one component is refused: its line would
/// need a plane, and none of the runtime's benchmarks has one.
fn median_times(results: &Value, name: &str) -> anyhow::Result<(Option<String>, Times)> {
	let batch = results
		.as_array()
		.context("raw results are a list of batches")?
		.iter()
		.find(|batch| batch["benchmark"] == name)
		.with_context(|| format!("benchmark `{name}` is missing from the raw results"))?;
	let mut component = None;
	let mut samples = BTreeMap::<u32, Vec<u128>>::new();
	for result in batch["time_results"].as_array().context("a batch lists its time results")? {
		let components = result["components"].as_array().context("a result's components")?;
		let value = match components.as_slice() {
			[] => 0,
			[pair] => {
				component = pair[0].as_str().map(str::to_owned);
				pair[1].as_u64().and_then(|value| u32::try_from(value).ok()).with_context(|| {
					format!("`{name}`: a component value is not a 32-bit number")
				})?
			},
			_ => bail!("`{name}` has more than one component; its weight would need a plane"),
		};
		let nanoseconds =
			result["extrinsic_time"].as_u64().context("an extrinsic time in nanoseconds")?;
		samples.entry(value).or_default().push(u128::from(nanoseconds) * 1_000);
	}
	ensure!(!samples.is_empty(), "`{name}` has no time results");
	let medians = samples.into_iter().map(|(value, times)| (value, upper_median(times))).collect();
	Ok((component, medians))
}

/// The line no time lies above that overcharges least: `(intercept, slope)`, picoseconds,
/// slope never negative.
///
/// For each candidate slope — level, or through any two measured values — the intercept is the
/// smallest that keeps every time on or below the line; of these lines, the one whose largest
/// ratio to a measured time is smallest is charged. The winner touches the times' upper hull,
/// so costs that bend (a remark's allocations grow in steps) are covered everywhere between
/// the lowest and highest measured values without lifting the line by the bend's height at
/// the small values.
fn bounding_line(times: &Times) -> (u128, u128) {
	let points: Vec<(u128, u128)> =
		times.iter().map(|(&value, &time)| (u128::from(value), time)).collect();
	let mut slopes = vec![0];
	for (index, &(low, at_low)) in points.iter().enumerate() {
		for &(high, at_high) in &points[index + 1..] {
			if at_high > at_low {
				slopes.push((at_high - at_low).div_ceil(high - low));
			}
		}
	}
	let line = |slope: u128| {
		let intercept = points
			.iter()
			.map(|&(value, time)| time.saturating_sub(slope * value))
			.max()
			.unwrap_or_default();
		(intercept, slope)
	};
	let worst_ratio = |(intercept, slope): (u128, u128)| {
		points
			.iter()
			.filter(|&&(_, time)| time > 0)
			.map(|&(value, time)| (intercept + slope * value) as f64 / time as f64)
			.fold(1.0, f64::max)
	};
	slopes
		.into_iter()
		.map(line)
		.min_by(|a, b| worst_ratio(*a).total_cmp(&worst_ratio(*b)).then(a.1.cmp(&b.1)))
		.unwrap_or_default()
}

/// The line through the time at the lowest measured value whose slope is the least that keeps
/// every later time on or below it: `(intercept, slope)`. For a benchmark the runtime charges
/// by `line(r) − line(lowest)`, each rise from the lowest value is then covered, which
/// [`bounding_line`]'s line need not do (it may pass above the lowest time, less steep).
fn rise_bounding_line(times: &Times) -> (u128, u128) {
	let mut points = times.iter().map(|(&value, &time)| (u128::from(value), time));
	let Some((lowest, at_lowest)) = points.next() else {
		return (0, 0);
	};
	let slope = points
		.filter(|&(_, time)| time > at_lowest)
		.map(|(value, time)| (time - at_lowest).div_ceil(value - lowest))
		.max()
		.unwrap_or(0);
	// Never negative: a line lifted to 0 there still rises by `slope` a value.
	(at_lowest.saturating_sub(slope * lowest), slope)
}

/// The largest of `values`.
fn largest(values: Vec<u128>) -> u128 {
	values.into_iter().max().unwrap_or_default()
}

/// The upper median of `values` (the middle one of an odd count, the larger middle one of an
/// even count: of two runs, the slower).
fn upper_median(mut values: Vec<u128>) -> u128 {
	values.sort_unstable();
	values.get(values.len() / 2).copied().unwrap_or_default()
}

/// The execution weight of benchmark `name` bounding the runs' raw results, with the margin:
/// `base_weight` and `component_weight` in the template data's form.
///
/// A component-free benchmark is timed at one value, in as many moments as there are runs: it
/// is charged the slowest run. A benchmark with a component is timed at many values, each at
/// its own moment of each run, and its line must lie above all of them: at each value the
/// runs are combined by their upper median, so a slow stretch of the VM in one run at one
/// value is outvoted (else it would lift the whole line), while one that reaches most runs,
/// or lasts over several values, is kept.
fn bounded_execution(
	results: &[&Value],
	name: &str,
	margin_percent: u32,
	rise_charged: bool,
) -> anyhow::Result<(Value, Value)> {
	let mut component = None;
	let mut of_each_run = BTreeMap::<u32, Vec<u128>>::new();
	for run in results {
		let (name_in_run, times) = median_times(run, name)?;
		ensure!(
			component.is_none() || name_in_run.is_none() || component == name_in_run,
			"`{name}`: the runs measured different components"
		);
		component = component.or(name_in_run);
		for (value, time) in times {
			of_each_run.entry(value).or_default().push(time);
		}
	}
	let combine = if of_each_run.len() == 1 { largest } else { upper_median };
	let times: Times =
		of_each_run.into_iter().map(|(value, times)| (value, combine(times))).collect();
	let (intercept, slope) =
		if rise_charged { rise_bounding_line(&times) } else { bounding_line(&times) };
	let slopes = match component {
		Some(component) if slope > 0 => {
			json!([{ "name": component, "slope": with_margin(slope, margin_percent).to_string() }])
		},
		_ => json!([]),
	};
	Ok((json!(with_margin(intercept, margin_percent).to_string()), slopes))
}

/// One benchmark merged from its runs' template data and, if kept, their raw results;
/// `rise_charged` if the runtime charges it by its rise ([`rise_bounding_line`]).
fn merge_benchmark(
	runs: &[&Value],
	results: Option<&[&Value]>,
	margin_percent: u32,
	rise_charged: bool,
) -> anyhow::Result<Value> {
	let mut merged = runs[0].clone();
	let name = merged["name"].as_str().unwrap_or_default().to_owned();
	let largest = |field: &str| max_of(runs.iter().map(|run| number(&run[field])));
	match results {
		Some(results) => {
			let (base, slopes) = bounded_execution(results, &name, margin_percent, rise_charged)?;
			merged["base_weight"] = base;
			merged[WEIGHT_SLOPES] = slopes;
		},
		None => {
			ensure!(
				components(runs, WEIGHT_SLOPES).is_empty(),
				"`{name}` has component slopes: bounding them needs the raw results (--results)"
			);
			merged["base_weight"] =
				json!(with_margin(largest("base_weight")?, margin_percent).to_string());
		},
	}
	for field in DETERMINISTIC {
		merged[*field] = json!(largest(field)?.to_string());
	}
	for field in DETERMINISTIC_SLOPES {
		let mut slopes = Vec::new();
		for component in components(runs, field) {
			let max = max_of(runs.iter().map(|run| slope(run, field, &component)))?;
			slopes.push(json!({ "name": component, "slope": max.to_string() }));
		}
		merged[*field] = Value::Array(slopes);
	}
	// A component is a parameter of the weight function only if some slope uses it (the
	// template names it `_c` otherwise, as the CLI does).
	let used: Vec<String> = SLOPES.iter().flat_map(|field| components(&[&merged], field)).collect();
	for component in merged["components"].as_array_mut().into_iter().flatten() {
		let is_used = component["name"].as_str().is_some_and(|name| used.iter().any(|u| u == name));
		component["is_used"] = json!(is_used);
	}
	let fastest = runs
		.iter()
		.map(|run| number(&run["min_execution_time"]))
		.collect::<anyhow::Result<Vec<_>>>()?;
	merged["min_execution_time"] = json!(fastest.into_iter().min().unwrap_or_default().to_string());
	Ok(merged)
}

/// The `--chain` a run was given.
fn chain(run: &Value) -> Option<&str> {
	let args = run["args"].as_array()?;
	let position = args.iter().position(|arg| arg == "--chain")?;
	args.get(position + 1)?.as_str()
}

/// The runs merged into the template data of the first; `results`, if given, are the runs' raw
/// results in the same order; `rises_charged` the benchmarks charged by their rise.
fn merge(
	runs: &[Value],
	results: Option<&[Value]>,
	margin_percent: u32,
	rises_charged: &[String],
) -> anyhow::Result<Value> {
	let mut merged = runs[0].clone();
	ensure!(
		runs.iter()
			.all(|run| run["pallet"] == merged["pallet"] && chain(run) == chain(&merged)),
		"every run must be of the same pallet on the same chain"
	);
	let names: Vec<String> = merged["benchmarks"]
		.as_array()
		.context("a run lists its benchmarks")?
		.iter()
		.map(|benchmark| benchmark["name"].as_str().unwrap_or_default().to_owned())
		.collect();
	// A misspelt name would merge that benchmark the other way, silently.
	if let Some(unknown) = rises_charged.iter().find(|name| !names.contains(name)) {
		bail!("--rise-charged {unknown}: no such benchmark in the runs");
	}
	let results: Option<Vec<&Value>> = results.map(|results| results.iter().collect());
	let mut benchmarks = Vec::new();
	for name in &names {
		let of_each_run = runs
			.iter()
			.map(|run| benchmark(run, name))
			.collect::<anyhow::Result<Vec<_>>>()?;
		benchmarks.push(merge_benchmark(
			&of_each_run,
			results.as_deref(),
			margin_percent,
			rises_charged.contains(name),
		)?);
	}
	merged["benchmarks"] = Value::Array(benchmarks);
	Ok(merged)
}

/// `1234567` → `1_234_567`, as the benchmark CLI's `underscore` helper writes numbers.
fn underscore(
	helper: &Helper,
	_: &Handlebars,
	_: &HbContext,
	_: &mut RenderContext,
	out: &mut dyn Output,
) -> HelperResult {
	let digits = helper.param(0).map(|param| param.value().render()).unwrap_or_default();
	out.write(&pq_benchmarks::grouped_in_thousands(&digits))?;
	Ok(())
}

/// The benchmark CLI's template engine: its `underscore` helper, no HTML escaping.
fn template_engine() -> Handlebars<'static> {
	let mut handlebars = Handlebars::new();
	handlebars.register_helper("underscore", Box::new(underscore));
	handlebars.register_escape_fn(handlebars::no_escape);
	handlebars
}

fn main() -> anyhow::Result<()> {
	let args = Args::parse();
	let read_json = |path: &Path| -> anyhow::Result<Value> {
		let text =
			std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
		serde_json::from_str(&text).with_context(|| format!("{} is not JSON", path.display()))
	};
	let runs = args
		.runs
		.iter()
		.map(|path| read_json(path))
		.collect::<anyhow::Result<Vec<_>>>()?;
	if runs.is_empty() {
		bail!("no runs to merge");
	}
	let results = match &args.results {
		Some(directory) => Some(
			args.runs
				.iter()
				.map(|run| {
					let name = run.file_name().context("a run is a file")?;
					read_json(&directory.join(name))
				})
				.collect::<anyhow::Result<Vec<_>>>()?,
		),
		None => None,
	};
	let mut data = merge(&runs, results.as_deref(), args.margin_percent, &args.rises_charged)?;
	data["merge"] = json!({ "runs": runs.len(), "margin_percent": args.margin_percent, "command": args.command });

	let handlebars = template_engine();
	let template = std::fs::read_to_string(&args.template)
		.with_context(|| format!("reading {}", args.template.display()))?;
	let rendered = handlebars
		.render_template(&template, &data)
		.context("rendering the weight template")?;
	std::fs::write(&args.output, rendered)
		.with_context(|| format!("writing {}", args.output.display()))?;
	println!("wrote {} from {} runs, +{}%", args.output.display(), runs.len(), args.margin_percent);
	Ok(())
}

#[cfg(test)]
mod tests {
	use super::*;

	fn run(base_weight: u128, slope: u128, reads: u128) -> Value {
		json!({
			"pallet": "pallet_pq_verifier",
			"args": ["pq-node", "benchmark", "pallet", "--chain", "dev"],
			"benchmarks": [{
				"name": "authorize_committee",
				"components": [{ "name": "r", "is_used": true }],
				"base_weight": base_weight.to_string(),
				"base_reads": reads.to_string(),
				"base_writes": "0",
				"base_calculated_proof_size": "9489",
				"base_recorded_proof_size": "100",
				"component_weight": [{ "name": "r", "slope": slope.to_string() }],
				"component_reads": [{ "name": "r", "slope": "1" }],
				"component_writes": [],
				"component_calculated_proof_size": [],
				"min_execution_time": (base_weight / 1000).to_string(),
			}],
		})
	}

	/// Raw results (`--json-file`) of `authorize_committee`: nanoseconds at each value of `r`,
	/// one per repeat.
	fn results(times: &[(u32, &[u64])]) -> Value {
		let time_results: Vec<Value> = times
			.iter()
			.flat_map(|(r, repeats)| {
				repeats
					.iter()
					.map(move |ns| json!({ "components": [["r", r]], "extrinsic_time": ns }))
			})
			.collect();
		json!([{ "pallet": "pallet_pq_verifier", "benchmark": "authorize_committee", "time_results": time_results }])
	}

	fn merged_line(runs: &[Value], results: &[Value], margin: u32) -> (Value, Value) {
		let merged = merge(runs, Some(results), margin, &[]).unwrap();
		let benchmark = &merged["benchmarks"][0];
		(benchmark["base_weight"].clone(), benchmark["component_weight"].clone())
	}

	/// The committee runs of 2026-11-26: one run slow at few share reads (its fitted intercept
	/// 768 µs), the other steeper. Adding one's intercept to another's slope charged more than
	/// either run took anywhere; of two runs the slower at each value is bounded, here by the
	/// line through the ends.
	#[test]
	fn one_runs_intercept_and_anothers_slope_are_never_added() {
		let runs = [run(767_685_006, 6_714_501, 6), run(401_726_900, 15_231_648, 6)];
		let results = [
			results(&[(1, &[774_000]), (32, &[990_000]), (64, &[1_197_000])]),
			results(&[(1, &[417_000]), (32, &[889_000]), (64, &[1_376_000])]),
		];
		let (base, slopes) = merged_line(&runs, &results, 0);
		// (1376 − 774) µs over 63 reads, rounded up to the picosecond; 774 µs less one slope.
		assert_eq!(slopes, json!([{ "name": "r", "slope": "9555556" }]));
		assert_eq!(base, "764444444");
		let (base_with_margin, slopes_with_margin) = merged_line(&runs, &results, 10);
		assert_eq!(base_with_margin, "840888889");
		assert_eq!(slopes_with_margin[0]["slope"], "10511112");
	}

	/// A cost that bends upward (as `frame_system::remark`'s does, its allocations growing in
	/// steps): the chord between the ends would charge 267.75 ns at 30 where 300 was measured;
	/// lifting it over that point would charge 32 ns for a 3 ns call. The line through the
	/// first value and the bend's top overcharges least (1.275× at 10) and is under nothing.
	#[test]
	fn a_bending_cost_is_covered_by_the_line_that_overcharges_least() {
		let (base, slopes) = merged_line(
			&[run(0, 0, 6)],
			&[results(&[(0, &[3]), (10, &[80]), (20, &[160]), (30, &[300]), (40, &[360])])],
			0,
		);
		assert_eq!((base, slopes[0]["slope"].clone()), (json!("3000"), json!("9900")));
	}

	/// A slow stretch of the VM in one run of three: the runs' upper median at each value
	/// (110 ns at 1, 205 at 2), not the slow run's 300, which would flatten the line.
	#[test]
	fn a_slow_stretch_in_one_run_is_outvoted_by_the_others() {
		let runs = [run(0, 0, 6), run(0, 0, 6), run(0, 0, 6)];
		let results = [
			results(&[(1, &[100]), (2, &[200])]),
			results(&[(1, &[300]), (2, &[210])]),
			results(&[(1, &[110]), (2, &[205])]),
		];
		let (base, slopes) = merged_line(&runs, &results, 0);
		assert_eq!((base, slopes[0]["slope"].clone()), (json!("15000"), json!("95000")));
	}

	/// A benchmark the runtime charges by its rise above its lowest value: the line least
	/// overcharging the times passes above the time at 1 (69 ns against 64) and rises 19 ns to
	/// 2, where the times rise 24 — charged as a rise, an undercharge. With `--rise-charged` its
	/// line passes through 64 ns at 1 with the steepest rise from there, 24 ns a value.
	#[test]
	fn a_rise_charged_benchmark_covers_every_rise_from_its_lowest_value() {
		let times = results(&[(1, &[64]), (2, &[88]), (3, &[107]), (4, &[115])]);
		let (base, slopes) = merged_line(&[run(0, 0, 6)], std::slice::from_ref(&times), 0);
		assert_eq!((base, slopes[0]["slope"].clone()), (json!("50000"), json!("19000")));
		let rise_charged = ["authorize_committee".to_owned()];
		let merged = merge(&[run(0, 0, 6)], Some(&[times]), 0, &rise_charged).unwrap();
		let benchmark = &merged["benchmarks"][0];
		let line = (&benchmark["base_weight"], &benchmark["component_weight"][0]["slope"]);
		assert_eq!(line, (&json!("40000"), &json!("24000")));
	}

	#[test]
	fn a_rise_charged_benchmark_missing_from_the_runs_is_an_error() {
		let times = results(&[(1, &[64]), (2, &[88])]);
		let misspelt = ["authorise_committee".to_owned()];
		let error = merge(&[run(0, 0, 6)], Some(&[times]), 0, &misspelt).unwrap_err();
		assert!(format!("{error:#}").contains("authorise_committee"), "{error:#}");
	}

	/// Three runs of a benchmark without components: the slowest run's median, as before.
	#[test]
	fn a_component_free_benchmark_is_charged_its_slowest_run() {
		let runs = [run(0, 0, 6), run(0, 0, 6), run(0, 0, 6)];
		let once = |ns: u64| {
			json!([{ "benchmark": "authorize_committee", "time_results": [
			{ "components": [], "extrinsic_time": ns }
		] }])
		};
		let (base, slopes) = merged_line(&runs, &[once(100), once(130), once(110)], 0);
		assert_eq!((base, slopes), (json!("130000"), json!([])));
	}

	#[test]
	fn a_falling_time_is_charged_flat_at_its_largest() {
		let (base, slopes) =
			merged_line(&[run(0, 0, 6)], &[results(&[(1, &[50]), (64, &[40])])], 0);
		assert_eq!((base, slopes), (json!("50000"), json!([])));
	}

	#[test]
	fn each_runs_median_is_bounded_not_its_outlying_repeat() {
		let (base, _) = merged_line(
			&[run(0, 0, 6)],
			&[results(&[(1, &[10, 1_000, 11]), (2, &[12, 12, 12])])],
			0,
		);
		assert_eq!(base, "10000", "medians 11 and 12 ns: slope 1 ns, intercept 10 ns");
	}

	#[test]
	fn a_component_no_slope_uses_is_not_a_parameter() {
		let mut flat = run(0, 0, 6);
		flat["benchmarks"][0]["component_reads"] = json!([]);
		let merged =
			merge(&[flat.clone()], Some(&[results(&[(1, &[50]), (64, &[50])])]), 0, &[]).unwrap();
		assert_eq!(merged["benchmarks"][0]["components"][0]["is_used"], false);
		let mut steep = flat.clone();
		steep["benchmarks"][0]["components"][0]["is_used"] = json!(false);
		let merged = merge(&[steep], Some(&[results(&[(1, &[50]), (64, &[90])])]), 0, &[]).unwrap();
		assert_eq!(merged["benchmarks"][0]["components"][0]["is_used"], true, "the time's slope");
	}

	#[test]
	fn a_benchmark_of_two_components_is_refused() {
		let two = json!([{ "benchmark": "authorize_committee", "time_results": [
			{ "components": [["r", 1], ["n", 2]], "extrinsic_time": 10 }
		] }]);
		let error = merge(&[run(0, 0, 6)], Some(&[two]), 0, &[]).unwrap_err();
		assert!(format!("{error:#}").contains("more than one component"), "{error:#}");
	}

	#[test]
	fn slopes_without_raw_results_are_refused() {
		let error = merge(&[run(100_000, 2_000, 4)], None, 10, &[]).unwrap_err();
		assert!(format!("{error:#}").contains("--results"), "{error:#}");
	}

	#[test]
	fn storage_takes_the_largest_reads_and_proof_sizes_of_the_runs() {
		let (mut few, mut more) = (run(9_000, 0, 4), run(7_000, 0, 5));
		few["benchmarks"][0]["component_reads"] = json!([{ "name": "r", "slope": "2" }]);
		more["benchmarks"][0]["base_calculated_proof_size"] = json!("9500");
		let quick = results(&[(1, &[1])]);
		let merged = merge(&[few, more], Some(&[quick.clone(), quick]), 0, &[]).unwrap();
		let benchmark = &merged["benchmarks"][0];
		assert_eq!(benchmark["base_reads"], "5");
		assert_eq!(benchmark["component_reads"][0]["slope"], "2", "no margin on reads");
		assert_eq!(benchmark["base_calculated_proof_size"], "9500");
		assert_eq!(benchmark["min_execution_time"], "7", "the fastest run's minimum");
	}

	#[test]
	fn runs_of_different_chains_are_refused() {
		let mut other = run(1, 1, 1);
		other["args"][4] = json!("dev-pure-wasm");
		assert!(merge(&[run(1, 1, 1), other], None, 0, &[]).is_err());
	}

	#[test]
	fn a_benchmark_missing_from_a_run_is_an_error() {
		let mut empty = run(1, 1, 1);
		empty["benchmarks"] = json!([]);
		assert!(merge(&[run(1, 1, 1), empty], None, 0, &[]).is_err());
	}

	/// `benchmark storage` runs, rendered with `storage-run-data.hbs`: the largest average of
	/// each of `read` and `write`, plus the margin, into the database weights template.
	#[test]
	fn storage_runs_merge_into_the_largest_average_read_and_write() {
		let storage_run = |read: u128, write: u128| {
			let mut run = run(read, 0, 0);
			run["pallet"] = json!("ParityDb");
			for field in SLOPES {
				run["benchmarks"][0][*field] = json!([]);
			}
			let mut write_benchmark = run["benchmarks"][0].clone();
			run["benchmarks"][0]["name"] = json!("read");
			write_benchmark["name"] = json!("write");
			write_benchmark["base_weight"] = json!(write.to_string());
			run["benchmarks"].as_array_mut().unwrap().push(write_benchmark);
			run
		};
		let merged =
			merge(&[storage_run(5_000, 14_000), storage_run(4_500, 15_000)], None, 10, &[])
				.unwrap();
		assert_eq!(
			(&merged["benchmarks"][0]["base_weight"], &merged["benchmarks"][1]["base_weight"]),
			(&json!("5500"), &json!("16500"))
		);
		let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR").expect("run by cargo test");
		let template = std::fs::read_to_string(
			std::path::Path::new(&manifest_dir).join("../runtime/db-weight-template.hbs"),
		)
		.unwrap();
		let rendered = template_engine().render_template(&template, &merged).unwrap();
		assert!(rendered.contains("read: 5_500 * WEIGHT_REF_TIME_PER_NANOS"), "{rendered}");
		assert!(rendered.contains("write: 16_500 * WEIGHT_REF_TIME_PER_NANOS"), "{rendered}");
	}

	#[test]
	fn numbers_are_grouped_as_the_cli_groups_them() {
		let handlebars = template_engine();
		let render =
			|n: &str| handlebars.render_template("{{underscore n}}", &json!({ "n": n })).unwrap();
		assert_eq!(render("1234567"), "1_234_567");
		assert_eq!(render("123"), "123");
		assert_eq!(render("1000"), "1_000");
	}
}
