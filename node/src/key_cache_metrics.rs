//! Prometheus metrics of the host functions' cache — decoded keys, committee matrices and
//! aggregate keys under one budget — read from it at each scrape (`pq_crypto::host::node`).

use polkadot_sdk::substrate_prometheus_endpoint::{
	register, MetricSource, Opts, PrometheusError, Registry, SourcedCounter, SourcedGauge,
};
use pq_crypto::host::node;

/// Lookups by result (`hit`, `miss`) and evictions.
#[derive(Clone)]
struct Counters;

impl MetricSource for Counters {
	type N = u64;

	fn collect(&self, mut set: impl FnMut(&[&str], u64)) {
		let stats = node::stats().keys;
		set(&["hit"], stats.hits);
		set(&["miss"], stats.misses);
		set(&["eviction"], stats.evictions);
	}
}

/// Committee cache lookups by kind (`matrix`, `key`, `signer_set`) and result (`hit`, `miss`),
/// and evictions.
#[derive(Clone)]
struct CommitteeCounters;

impl MetricSource for CommitteeCounters {
	type N = u64;

	fn collect(&self, mut set: impl FnMut(&[&str], u64)) {
		let stats = node::stats();
		for (kind, stats) in [
			("matrix", stats.matrices),
			("key", stats.aggregate_keys),
			("signer_set", stats.signer_sets),
		] {
			set(&[kind, "hit"], stats.hits);
			set(&[kind, "miss"], stats.misses);
			set(&[kind, "eviction"], stats.evictions);
		}
	}
}

/// Entries of each kind held, and the bytes of all of them.
#[derive(Clone)]
struct Occupancy;

impl MetricSource for Occupancy {
	type N = u64;

	fn collect(&self, mut set: impl FnMut(&[&str], u64)) {
		let occupancy = node::occupancy();
		set(&["keys"], occupancy.keys as u64);
		set(&["matrices"], occupancy.matrices as u64);
		set(&["aggregate_keys"], occupancy.aggregate_keys as u64);
		set(&["signer_sets"], occupancy.signer_sets as u64);
		set(&["bytes"], occupancy.bytes as u64);
	}
}

/// Registers `pq_verifier_key_cache_events_total{event="hit"|"miss"|"eviction"}`,
/// `pq_verifier_key_cache_size{unit="keys"|"matrices"|"aggregate_keys"|"signer_sets"|"bytes"}`
/// (bytes of all of them, one budget) and
/// `pq_verifier_committee_cache_events_total{kind="matrix"|"key"|"signer_set", event=…}`.
pub fn register_metrics(registry: &Registry) -> Result<(), PrometheusError> {
	register(
		SourcedCounter::new(
			&Opts::new(
				"pq_verifier_key_cache_events_total",
				"Lookups (hit, miss) and evictions of the node's decoded ML-DSA/Ed25519 key cache",
			)
			.variable_label("event"),
			Counters,
		)?,
		registry,
	)?;
	register(
		SourcedGauge::new(
			&Opts::new(
				"pq_verifier_key_cache_size",
				"Entries and bytes held by the node's cache of decoded keys, committee matrices and aggregate keys",
			)
				.variable_label("unit"),
			Occupancy,
		)?,
		registry,
	)?;
	register(
		SourcedCounter::new(
			&Opts::new(
				"pq_verifier_committee_cache_events_total",
				"Lookups (hit, miss) and evictions of the node's committee matrices, decoded aggregate keys and known signer sets",
			)
			.variable_label("kind")
			.variable_label("event"),
			CommitteeCounters,
		)?,
		registry,
	)?;
	Ok(())
}
