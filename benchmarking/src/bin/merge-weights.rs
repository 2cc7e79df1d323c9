//! Merges several `benchmark pallet` runs of one pallet into its weights file.
//!
//! This VM's speed drifts by tens of percent within a run, so one run can catch a benchmark in
//! a fast stretch and charge less than a slower moment costs: an undercharge. Each run is
//! rendered with `benchmarking/weights/run-data.hbs` (the CLI's template data, as JSON); this
//! takes, for every benchmark, the **largest** execution weight and per-component slope of all
//! runs, adds a **margin**, keeps reads, writes and proof sizes (deterministic: the largest, if
//! runs ever disagree), and renders the weight template with the same engine and helpers the
//! benchmark CLI uses. `scripts/generate-weights.sh` runs it.
//!
//! Usage: `merge-weights --template T --output O --margin-percent M --command C RUN.json…`

use anyhow::{bail, ensure, Context};
use clap::Parser;
use handlebars::{
	Context as HbContext, Handlebars, Helper, HelperResult, JsonRender, Output, RenderContext,
};
use serde_json::{json, Value};
use std::path::PathBuf;

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
	/// The runs, each rendered with `benchmarking/weights/run-data.hbs`.
	#[arg(required = true)]
	runs: Vec<PathBuf>,
}

/// Fields that drift with the machine's speed: the largest of the runs, plus the margin.
const EXECUTION: &[&str] = &["base_weight"];
const EXECUTION_SLOPES: &[&str] = &["component_weight"];
/// Fields that do not drift: the largest of the runs (they agree).
const DETERMINISTIC: &[&str] =
	&["base_reads", "base_writes", "base_calculated_proof_size", "base_recorded_proof_size"];
const DETERMINISTIC_SLOPES: &[&str] =
	&["component_reads", "component_writes", "component_calculated_proof_size"];

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

/// One benchmark merged from its runs.
fn merge_benchmark(runs: &[&Value], margin_percent: u32) -> anyhow::Result<Value> {
	let mut merged = runs[0].clone();
	let largest = |field: &str| max_of(runs.iter().map(|run| number(&run[field])));
	for field in EXECUTION {
		merged[*field] = json!(with_margin(largest(field)?, margin_percent).to_string());
	}
	for field in DETERMINISTIC {
		merged[*field] = json!(largest(field)?.to_string());
	}
	for (fields, margin) in [(EXECUTION_SLOPES, margin_percent), (DETERMINISTIC_SLOPES, 0)] {
		for field in fields {
			let mut slopes = Vec::new();
			for component in components(runs, field) {
				let max = max_of(runs.iter().map(|run| slope(run, field, &component)))?;
				slopes.push(
					json!({ "name": component, "slope": with_margin(max, margin).to_string() }),
				);
			}
			merged[*field] = Value::Array(slopes);
		}
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

/// The runs merged into the template data of the first.
fn merge(runs: &[Value], margin_percent: u32) -> anyhow::Result<Value> {
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
	let mut benchmarks = Vec::new();
	for name in &names {
		let of_each_run = runs
			.iter()
			.map(|run| benchmark(run, name))
			.collect::<anyhow::Result<Vec<_>>>()?;
		benchmarks.push(merge_benchmark(&of_each_run, margin_percent)?);
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
	let runs = args
		.runs
		.iter()
		.map(|path| {
			let text = std::fs::read_to_string(path)
				.with_context(|| format!("reading {}", path.display()))?;
			serde_json::from_str(&text)
				.with_context(|| format!("{} is not a run rendered as JSON", path.display()))
		})
		.collect::<anyhow::Result<Vec<Value>>>()?;
	if runs.is_empty() {
		bail!("no runs to merge");
	}
	let mut data = merge(&runs, args.margin_percent)?;
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

	#[test]
	fn execution_takes_the_largest_run_plus_the_margin_and_storage_the_largest() {
		let merged =
			merge(&[run(100_000, 2_000, 4), run(150_000, 1_000, 4), run(120_000, 3_000, 4)], 10)
				.unwrap();
		let benchmark = &merged["benchmarks"][0];
		assert_eq!(benchmark["base_weight"], "165000");
		assert_eq!(benchmark["component_weight"][0]["slope"], "3300");
		assert_eq!(benchmark["base_reads"], "4");
		assert_eq!(benchmark["component_reads"][0]["slope"], "1", "no margin on reads");
		assert_eq!(benchmark["min_execution_time"], "100", "the fastest run's minimum");
	}

	#[test]
	fn a_slope_one_run_omits_is_kept_from_the_others() {
		let mut without = run(100_000, 0, 4);
		without["benchmarks"][0]["component_weight"] = json!([]);
		let merged = merge(&[without, run(100_000, 5_000, 4)], 0).unwrap();
		assert_eq!(merged["benchmarks"][0]["component_weight"][0]["slope"], "5000");
	}

	#[test]
	fn runs_of_different_chains_are_refused() {
		let mut other = run(1, 1, 1);
		other["args"][4] = json!("dev-pure-wasm");
		assert!(merge(&[run(1, 1, 1), other], 0).is_err());
	}

	#[test]
	fn a_benchmark_missing_from_a_run_is_an_error() {
		let mut empty = run(1, 1, 1);
		empty["benchmarks"] = json!([]);
		assert!(merge(&[run(1, 1, 1), empty], 0).is_err());
	}

	/// `benchmark storage` runs, rendered with `storage-run-data.hbs`: the largest average of
	/// each of `read` and `write`, plus the margin, into the database weights template.
	#[test]
	fn storage_runs_merge_into_the_largest_average_read_and_write() {
		let storage_run = |read: u128, write: u128| {
			let mut run = run(read, 0, 0);
			run["pallet"] = json!("ParityDb");
			let mut write_benchmark = run["benchmarks"][0].clone();
			run["benchmarks"][0]["name"] = json!("read");
			write_benchmark["name"] = json!("write");
			write_benchmark["base_weight"] = json!(write.to_string());
			run["benchmarks"].as_array_mut().unwrap().push(write_benchmark);
			run
		};
		let merged = merge(&[storage_run(5_000, 14_000), storage_run(4_500, 15_000)], 10).unwrap();
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
