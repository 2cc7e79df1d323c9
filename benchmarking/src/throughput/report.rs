//! The throughput report: a Markdown table (every figure beside Ed25519 of the same run) and
//! SVG bar charts.

use super::{
	measure::Measurement,
	workload::{Case, Verifier, COMMITTEE_SIZE, COMMITTEE_THRESHOLD},
};
use pallet_pq_verifier::{SignatureCheck, WeightInfo};
use polkadot_sdk::{
	frame_support::{dispatch::DispatchClass, weights::Weight},
	frame_system,
};
use pq_runtime::{configs::RuntimeBlockLength, Runtime};
use pq_runtime_client::transactions::Form;
use std::{fmt::Write, time::Duration};

/// The benchmarked (Wasm) cost of checking one transaction's signature: key decode plus
/// verification, from the weights generated for the case's runtime build: what the runtime's
/// extrinsic type charges.
pub fn signature_check(case: Case) -> Weight {
	match case.verifier {
		Verifier::HostFunctions => signature_check_weighed::<pq_runtime::PqVerifierWeights>(case),
		Verifier::PureWasm => {
			signature_check_weighed::<pallet_pq_verifier::weights::SubstrateWeight<Runtime>>(case)
		},
	}
}

fn signature_check_weighed<Weights: WeightInfo>(case: Case) -> Weight {
	let check = match case.form {
		Form::KeyInline => SignatureCheck::KeyInline(case.scheme),
		Form::KeyRegistered => SignatureCheck::KeyRegistered(case.scheme),
		// The workload's signer sets need at most this many share reads.
		Form::Committee => {
			SignatureCheck::Committee { share_reads: COMMITTEE_SIZE - COMMITTEE_THRESHOLD }
		},
	};
	check.weight::<Weights>()
}

/// The shortest import the report turns into a rate: `import-blocks` polls its queue every
/// 200 ms, so a shorter import is measured to worse than a fifth of itself — or as nothing, when
/// the setup blocks' import, subtracted, happened to poll once more (seen at 835 transfers).
const IMPORT_RESOLUTION: Duration = Duration::from_secs(1);

/// Transactions per second over `duration`.
fn per_second(transactions: usize, duration: Duration) -> f64 {
	transactions as f64 / duration.as_secs_f64().max(f64::EPSILON)
}

/// Per-case figures derived from a [`Measurement`].
pub struct Row {
	/// The measurement.
	pub measurement: Measurement,
	/// Pool admissions per second.
	pub admission_tps: f64,
	/// Transactions per second of block authoring.
	pub authoring_tps: f64,
	/// Transactions per second of block import; `None` when the import was too short to
	/// measure ([`IMPORT_RESOLUTION`]).
	pub import_tps: Option<f64>,
	/// Transactions in a full block (the largest block of the run).
	pub per_block: usize,
	/// Which block limit the full blocks reached: `length`, `weight` or `none` (the run did
	/// not fill a block).
	pub binding_limit: &'static str,
}

impl Row {
	/// Derives the figures of `measurement`.
	pub fn new(measurement: Measurement) -> Self {
		let authoring: Duration = measurement.blocks.iter().map(|block| block.authoring).sum();
		let full = measurement
			.blocks
			.iter()
			.max_by_key(|block| block.transactions)
			.expect("at least one block");
		let max_length = *RuntimeBlockLength::get().max.get(DispatchClass::Normal) as f64;
		let weights = <Runtime as frame_system::Config>::BlockWeights::get();
		let max_ref_time = weights
			.get(DispatchClass::Normal)
			.max_total
			.map_or(u64::MAX, |weight| weight.ref_time()) as f64;
		// A block is full when one more transaction would not fit.
		let per_transaction_length = full.bytes as f64 / full.transactions as f64;
		let per_transaction_weight = full.ref_time as f64 / full.transactions as f64;
		let binding_limit = if measurement.blocks.len() < 2 {
			"none"
		} else if full.bytes as f64 + per_transaction_length > max_length {
			"length"
		} else if full.ref_time as f64 + per_transaction_weight > max_ref_time {
			"weight"
		} else {
			"none"
		};
		Self {
			admission_tps: per_second(measurement.transactions, measurement.pool_admission),
			authoring_tps: per_second(measurement.transactions, authoring),
			import_tps: (measurement.import >= IMPORT_RESOLUTION)
				.then(|| per_second(measurement.transactions, measurement.import)),
			per_block: full.transactions,
			binding_limit,
			measurement,
		}
	}

	fn case(&self) -> Case {
		self.measurement.case
	}
}

/// The run of median authoring TPS among `runs` of one case.
pub fn median_run(runs: Vec<Row>) -> Row {
	crate::median_by(runs, |row| row.authoring_tps)
}

fn baseline<'a>(rows: &'a [Row], row: &Row) -> Option<&'a Row> {
	rows.iter().find(|candidate| candidate.case() == row.case().baseline())
}

/// The Markdown table of `rows`.
pub fn table(rows: &[Row]) -> String {
	let mut out = String::from(
		"| verifier | case | bytes/tx | tx/block | limit | pool admission tx/s | authoring TPS | import TPS | authoring vs Ed25519 | import vs Ed25519 | signature check µs | share of authoring |\n|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|\n",
	);
	for row in rows {
		let ratio = |value: Option<f64>, base: Option<f64>| match (value, base) {
			(Some(value), Some(base)) => format!("{:.2}×", value / base),
			_ => "—".to_owned(),
		};
		let import_tps = row.import_tps.map_or("—".to_owned(), |tps| format!("{tps:.0}"));
		let base = baseline(rows, row);
		let signature_micros = signature_check(row.case()).ref_time() as f64 / 1e6;
		let authoring_micros = 1e6 / row.authoring_tps.max(f64::EPSILON);
		let _ = writeln!(
			out,
			"| {} | {} | {} | {} | {} | {:.0} | {:.0} | {} | {} | {} | {:.0} | {:.0}% |",
			row.case().verifier.label(),
			row.case().label(),
			row.measurement.bytes_per_transaction,
			row.per_block,
			row.binding_limit,
			row.admission_tps,
			row.authoring_tps,
			import_tps,
			ratio(Some(row.authoring_tps), base.map(|base| base.authoring_tps)),
			ratio(row.import_tps, base.and_then(|base| base.import_tps)),
			signature_micros,
			100.0 * signature_micros / authoring_micros,
		);
	}
	out
}

/// A horizontal bar chart: one bar per label, several series side by side; a value that is not a
/// number (not measured) gets no bar and a dash.
pub fn bar_chart(
	title: &str,
	unit: &str,
	labels: &[String],
	series: &[(&str, Vec<f64>)],
) -> String {
	const COLOURS: [&str; 3] = ["#4e79a7", "#f28e2b", "#59a14f"];
	let (label_width, bar_area, bar_height, gap) = (240.0, 520.0, 12.0, 10.0);
	let group_height = bar_height * series.len() as f64 + gap;
	let height = 60.0 + group_height * labels.len() as f64 + 20.0 * series.len() as f64;
	let max = series
		.iter()
		.flat_map(|(_, values)| values.iter().copied())
		.fold(f64::EPSILON, f64::max);
	let mut svg = format!(
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"11\">\n\
		 <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"10\" y=\"20\" font-size=\"14\">{title}</text>\n",
		label_width + bar_area + 90.0
	);
	for (index, label) in labels.iter().enumerate() {
		let top = 40.0 + group_height * index as f64;
		let _ = writeln!(
			svg,
			"<text x=\"10\" y=\"{}\">{label}</text>",
			top + bar_height * series.len() as f64 / 2.0 + 4.0
		);
		for (position, (_, values)) in series.iter().enumerate() {
			let y = top + bar_height * position as f64;
			let value = values[index];
			let (width, text) = if value.is_nan() {
				(0.0, "—".to_owned())
			} else {
				(bar_area * value / max, format!("{value:.0}"))
			};
			let _ = writeln!(
				svg,
				"<rect x=\"{label_width}\" y=\"{y}\" width=\"{width:.1}\" height=\"{}\" fill=\"{}\"/><text x=\"{:.1}\" y=\"{:.1}\">{text}</text>",
				bar_height - 2.0,
				COLOURS[position % COLOURS.len()],
				label_width + width + 4.0,
				y + bar_height - 3.0,
			);
		}
	}
	let legend_top = 50.0 + group_height * labels.len() as f64;
	for (position, (name, _)) in series.iter().enumerate() {
		let y = legend_top + 18.0 * position as f64;
		let _ = writeln!(
			svg,
			"<rect x=\"{label_width}\" y=\"{y}\" width=\"10\" height=\"10\" fill=\"{}\"/><text x=\"{}\" y=\"{}\">{name} ({unit})</text>",
			COLOURS[position % COLOURS.len()],
			label_width + 16.0,
			y + 9.0
		);
	}
	svg.push_str("</svg>\n");
	svg
}

/// Transactions per second of each stage, per case.
pub fn tps_chart(rows: &[Row]) -> String {
	let labels: Vec<String> = rows.iter().map(|row| row.case().title()).collect();
	bar_chart(
		"Transactions per second on the dev node, by stage",
		"tx/s",
		&labels,
		&[
			("pool admission", rows.iter().map(|row| row.admission_tps).collect()),
			("block authoring", rows.iter().map(|row| row.authoring_tps).collect()),
			("block import", rows.iter().map(|row| row.import_tps.unwrap_or(f64::NAN)).collect()),
		],
	)
}

/// Microseconds per transaction of each stage, per case.
pub fn stage_time_chart(rows: &[Row]) -> String {
	let labels: Vec<String> = rows.iter().map(|row| row.case().title()).collect();
	let micros = |tps: f64| 1e6 / tps.max(f64::EPSILON);
	bar_chart(
		"Time per transaction, by block stage",
		"µs/tx",
		&labels,
		&[
			("pool admission", rows.iter().map(|row| micros(row.admission_tps)).collect()),
			("block authoring", rows.iter().map(|row| micros(row.authoring_tps)).collect()),
			(
				"block import",
				rows.iter().map(|row| row.import_tps.map_or(f64::NAN, micros)).collect(),
			),
		],
	)
}

#[cfg(test)]
mod tests {
	use super::*;
	use crate::throughput::measure::BlockStats;
	use pq_crypto::Scheme;

	fn run(case: Case, authoring_millis: u64) -> Row {
		run_imported_in(case, authoring_millis, 2_000)
	}

	fn run_imported_in(case: Case, authoring_millis: u64, import_millis: u64) -> Row {
		Row::new(Measurement {
			case,
			transactions: 100,
			bytes_per_transaction: 146,
			pool_admission: Duration::from_millis(100),
			blocks: vec![BlockStats {
				hash: Default::default(),
				transactions: 100,
				bytes: 14_600,
				ref_time: 1,
				charged_ref_time: 1,
				authoring: Duration::from_millis(authoring_millis),
			}],
			import: Duration::from_millis(import_millis),
		})
	}

	/// The baseline: Ed25519 through host functions.
	const BASELINE: Case =
		Case { verifier: Verifier::HostFunctions, scheme: Scheme::Ed25519, form: Form::KeyInline };
	const PURE_ML_DSA_44: Case =
		Case { verifier: Verifier::PureWasm, scheme: Scheme::MlDsa44, form: Form::KeyInline };

	#[test]
	fn a_case_reports_its_run_of_median_authoring_speed() {
		let median = median_run(vec![run(BASELINE, 400), run(BASELINE, 100), run(BASELINE, 200)]);
		assert_eq!(median.authoring_tps.round(), 500.0);
		assert_eq!(median_run(vec![run(BASELINE, 300)]).authoring_tps.round(), 333.0);
	}

	#[test]
	fn ratios_are_to_ed25519_through_host_functions() {
		let table = table(&[run(BASELINE, 100), run(PURE_ML_DSA_44, 200)]);
		assert!(
			table.contains("| host functions | ed25519 key inline | 146 | 100 | none |"),
			"{table}"
		);
		assert!(table.contains("| pure Wasm | ml-dsa-44 key inline | 146 | 100 | none | 1000 | 500 | 50 | 0.50× | 1.00× |"), "{table}");
	}

	#[test]
	fn an_import_shorter_than_the_poll_resolution_is_not_turned_into_a_rate() {
		// Zero: the setup blocks' import, subtracted, polled once more than the whole's.
		let rows = [run(BASELINE, 100), run_imported_in(PURE_ML_DSA_44, 200, 0)];
		assert_eq!(rows[1].import_tps, None);
		let table = table(&rows);
		assert!(table.contains("| pure Wasm | ml-dsa-44 key inline | 146 | 100 | none | 1000 | 500 | — | 0.50× | — |"), "{table}");
		// The charts give the import a dash, not a bar: one per chart.
		for chart in [tps_chart(&rows), stage_time_chart(&rows)] {
			assert_eq!(chart.matches(">—</text>").count(), 1, "{chart}");
		}
	}
}
