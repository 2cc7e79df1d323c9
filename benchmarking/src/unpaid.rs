//! What a refused transaction costs a node: every refusal path of the runtime, measured.
//!
//! A transaction the pool refuses pays nothing, so the work before its refusal is what an
//! attacker can make a node do for free. For each path this sends distinct garbage (new bytes
//! each time, as an attacker would, past the pool's ban list) to a fresh manual-seal `pq-node`
//! as `TaggedTransactionQueue_validate_transaction` calls over JSON-RPC — what the pool runs on
//! a submission — and times each call. Each is followed by bytes of the same length that are
//! no extrinsic at all (refused before anything is read): a path's cost is its median call
//! minus theirs, so what remains is the runtime's own work, not the cost of carrying bytes
//! over JSON-RPC. Paths are interleaved round by round, as this VM's clock drifts.
//!
//! The host-function build runs twice: with the node's cache off (*cold*: every key decoded,
//! every committee matrix expanded) and on (*warm*: the key, or the committee's signer set,
//! verified once before, validly). The pure-Wasm build keeps nothing between runtime calls, so
//! it is cold either way. See `docs/security.md`.

use crate::throughput::{
	measure::{author_until_included, manual_seal_node, scratch_chain, submit_all},
	workload::Verifier,
};
use anyhow::{anyhow, ensure, Context};
use codec::{Compact, Decode, Encode};
use jsonrpsee::rpc_params;
use pallet_pq_verifier::PqInvalidTransaction;
use polkadot_sdk::{
	sp_core::{Bytes, H256},
	sp_crypto_hashing::blake2_256,
	sp_runtime::{
		generic::Preamble,
		transaction_validity::{
			InvalidTransaction, TransactionSource, TransactionValidity, TransactionValidityError,
		},
		AccountId32,
	},
};
use pq_crypto::{
	keys::{Ed25519Signature, Sr25519Signature},
	Scheme, TransactionSignature,
};
use pq_runtime::{UncheckedExtrinsic, UNIT};
use pq_runtime_client::{
	rpc::RpcClient,
	transactions::{self, ChainIdentity, Form, Sender},
};
use pq_signer::{aggregator::Committee, signing::Keypair};
use std::{
	collections::BTreeMap,
	fmt::Write as _,
	io::Write,
	path::Path,
	time::{Duration, Instant},
};

/// How the node was run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Setting {
	/// Host functions, the node's cache off.
	HostCold,
	/// Host functions, the key or signer set verified once before.
	HostWarm,
	/// Verification in Wasm (no cache between runtime calls).
	PureWasm,
}

impl Setting {
	/// Every setting, in the report's column order.
	pub const ALL: [Setting; 3] = [Setting::HostCold, Setting::HostWarm, Setting::PureWasm];

	fn verifier(self) -> Verifier {
		match self {
			Setting::HostCold | Setting::HostWarm => Verifier::HostFunctions,
			Setting::PureWasm => Verifier::PureWasm,
		}
	}

	fn label(self) -> &'static str {
		match self {
			Setting::HostCold => "host functions, cold",
			Setting::HostWarm => "host functions, warm",
			Setting::PureWasm => "pure Wasm",
		}
	}
}

/// A refusal path: garbage of one kind, and the refusal the runtime must give it.
struct RefusalPath {
	label: String,
	refusal: TransactionValidityError,
	/// Distinct transactions, each refused on this path.
	garbage: Vec<Vec<u8>>,
	/// A valid transaction whose validation warms the node's cache for this path, if any.
	warm_up: Option<Vec<u8>>,
}

/// Bytes of the same length as `extrinsic` that are no extrinsic (version byte 0xff): what
/// carrying a transaction of that size to the runtime costs, which each path's time is net of.
fn undecodable_like(extrinsic: &[u8], copy: usize) -> Vec<u8> {
	let mut input = extrinsic;
	let length =
		Compact::<u32>::decode(&mut input).expect("a length-prefixed extrinsic").0 as usize;
	let mut body: Vec<u8> =
		blake2_256(&(copy as u64, length as u64).encode()).repeat(length.div_ceil(32));
	body.truncate(length);
	body[0] = 0xff;
	[Compact(length as u32).encode(), body].concat()
}

/// The label of the path every cost is measured against.
pub const REFERENCE: &str = "key inline, ML-DSA-87, bad signature";
/// The label of the path whose time is the fixed cost of a call.
const BASELINE: &str = "bytes that are no extrinsic";

/// The accounts and committees the garbage names, all funded at genesis.
struct Cast {
	keys: BTreeMap<Scheme, Keypair>,
	registered: Keypair,
	pauper: Keypair,
	owner: Keypair,
	/// 16 members, threshold 9; 128 members, threshold 1.
	small: Committee,
	large: Committee,
}

impl Cast {
	fn new() -> anyhow::Result<Self> {
		let key = |scheme: Scheme, role: &str| {
			Keypair::from_seed(scheme, &blake2_256(&("pq-unpaid", role, scheme.name()).encode()))
				.map_err(|error| anyhow!("{error:?}"))
		};
		let keys = Scheme::SINGLE_KEY
			.iter()
			.map(|scheme| Ok((*scheme, key(*scheme, "victim")?)))
			.collect::<anyhow::Result<_>>()?;
		Ok(Self {
			keys,
			registered: key(Scheme::MlDsa87, "registered")?,
			pauper: key(Scheme::MlDsa87, "pauper")?,
			// Post-quantum, as committee owners must be.
			owner: key(Scheme::MlDsa44, "owner")?,
			small: Committee::from_seed(&[0x51; 32], 16, 9),
			large: Committee::from_seed(&[0x52; 32], 128, 1),
		})
	}

	/// Everything endowed at genesis (not the pauper).
	fn endowed(&self) -> Vec<AccountId32> {
		let mut accounts: Vec<AccountId32> = self.keys.values().map(Keypair::account_id).collect();
		accounts.extend([self.registered.account_id(), self.owner.account_id()]);
		accounts.extend([self.small.id().account_id(), self.large.id().account_id()]);
		accounts
	}

	/// What must be on chain first: the registered key and the two committees.
	fn setup(&self, chain: &ChainIdentity) -> anyhow::Result<Vec<Vec<u8>>> {
		let register = transactions::register_key_call(
			&self.registered,
			&self.registered.account_id(),
			false,
			chain,
		);
		let mut setup =
			vec![transactions::sign(&self.registered, register, 0, 0, Form::KeyInline, chain)?
				.encode()];
		for (nonce, committee) in [&self.small, &self.large].into_iter().enumerate() {
			let call =
				transactions::create_committee_call(committee, &self.owner.account_id(), chain);
			setup.push(
				transactions::sign(&self.owner, call, nonce as u32, 0, Form::KeyInline, chain)?
					.encode(),
			);
		}
		Ok(setup)
	}
}

/// `count` copies of `extrinsic`, each with one byte of its signature flipped (another byte
/// each time): distinct garbage that only a verification refuses.
fn with_flipped_signature(extrinsic: &UncheckedExtrinsic, count: usize) -> Vec<Vec<u8>> {
	(0..count)
		.map(|copy| {
			let mut garbage = extrinsic.clone();
			let flip = |bytes: &mut [u8]| bytes[copy % bytes.len()] ^= 1 << (copy % 8);
			let Preamble::Signed(_, signature, _) = &mut garbage.preamble else {
				unreachable!("garbage is signed")
			};
			flip_signature(signature, flip);
			garbage.encode()
		})
		.collect()
}

fn flip_signature(signature: &mut TransactionSignature, flip: impl Fn(&mut [u8])) {
	match signature {
		TransactionSignature::Ed25519(signature) => flip(&mut signature.0),
		TransactionSignature::Sr25519(signature) => flip(&mut signature.0),
		TransactionSignature::Ecdsa(signature) => flip(&mut signature.0),
		TransactionSignature::MlDsa44(_, signature)
		| TransactionSignature::MlDsa44Registered(signature) => flip(&mut signature.0),
		TransactionSignature::MlDsa65(_, signature)
		| TransactionSignature::MlDsa65Registered(signature) => flip(&mut signature.0),
		TransactionSignature::MlDsa87(_, signature)
		| TransactionSignature::MlDsa87Registered(signature) => flip(&mut signature.0),
		TransactionSignature::Committee(aggregate) => flip(&mut aggregate.signature.0),
	}
}

/// Every refusal path, `count` distinct transactions each.
fn paths(cast: &Cast, chain: &ChainIdentity, count: usize) -> anyhow::Result<Vec<RefusalPath>> {
	let recipient = cast.owner.account_id();
	let transfer = || transactions::transfer_call(recipient.clone(), UNIT);
	let sign = |sender: Sender, nonce: u32, form: Form| {
		transactions::sign(sender, transfer(), nonce, 0, form, chain)
	};
	let bad_proof: TransactionValidityError = InvalidTransaction::BadProof.into();
	let mut paths = Vec::new();
	let mut path = |label: String,
	                refusal: TransactionValidityError,
	                garbage: Vec<Vec<u8>>,
	                warm_up: Option<UncheckedExtrinsic>| {
		paths.push(RefusalPath {
			label,
			refusal,
			garbage,
			warm_up: warm_up.map(|valid| valid.encode()),
		})
	};

	let undecodable = (0..count)
		.map(|copy| {
			let mut body: Vec<u8> = blake2_256(&(copy as u64).encode()).repeat(8);
			body[0] = 0xff; // No extrinsic version.
			[Compact(body.len() as u32).encode(), body].concat()
		})
		.collect();
	path(BASELINE.into(), PqInvalidTransaction::Undecodable.into(), undecodable, None);

	let ml_dsa_87 = &cast.keys[&Scheme::MlDsa87];
	// An Ed25519 signature naming a funded ML-DSA-87 account.
	let mut classical = sign(ml_dsa_87.into(), 0, Form::KeyInline)?;
	if let Preamble::Signed(_, signature, _) = &mut classical.preamble {
		*signature = TransactionSignature::Ed25519(Ed25519Signature([0x11; 64]));
	}
	path(
		"Ed25519 for an ML-DSA account".into(),
		PqInvalidTransaction::InvalidKey.into(),
		with_flipped_signature(&classical, count),
		None,
	);
	// A stock wallet's sr25519 signature: refused by its variant.
	if let Preamble::Signed(_, signature, _) = &mut classical.preamble {
		*signature = TransactionSignature::Sr25519(Sr25519Signature([0x11; 64]));
	}
	path(
		"sr25519".into(),
		PqInvalidTransaction::ClassicalSignature.into(),
		with_flipped_signature(&classical, count),
		None,
	);
	// An ML-DSA-87 key that does not derive the account it names.
	let mut misaddressed = sign((&cast.registered).into(), 0, Form::KeyInline)?;
	if let Preamble::Signed(address, _, _) = &mut misaddressed.preamble {
		*address = pq_runtime::Address::Id(ml_dsa_87.account_id());
	}
	path(
		"key inline, ML-DSA-87 key not the account's".into(),
		InvalidTransaction::BadSigner.into(),
		with_flipped_signature(&misaddressed, count),
		None,
	);
	path(
		"key inline, ML-DSA-87, sender cannot pay".into(),
		InvalidTransaction::Payment.into(),
		with_flipped_signature(&sign((&cast.pauper).into(), 0, Form::KeyInline)?, count),
		None,
	);
	for scheme in Scheme::SINGLE_KEY {
		let key = &cast.keys[&scheme];
		let valid = sign(key.into(), 0, Form::KeyInline)?;
		path(
			format!("key inline, {}, bad signature", display(scheme)),
			bad_proof,
			with_flipped_signature(&valid, count),
			Some(valid),
		);
	}
	let registered = sign((&cast.registered).into(), 1, Form::KeyRegistered)?;
	path(
		"registered, ML-DSA-87, bad signature".into(),
		bad_proof,
		with_flipped_signature(&registered, count),
		Some(registered),
	);
	path(
		"registered, ML-DSA-87, no key registered".into(),
		PqInvalidTransaction::NoRegisteredKey.into(),
		with_flipped_signature(&sign(ml_dsa_87.into(), 0, Form::KeyRegistered)?, count),
		None,
	);

	let committee_transfer = |committee: &Committee, signers: std::ops::Range<u32>| {
		let signers = committee.signers(signers).map_err(|error| anyhow!("{error:?}"))?;
		Ok::<_, anyhow::Error>(sign(
			Sender::Committee { committee, signers: &signers },
			0,
			Form::Committee,
		)?)
	};
	let unknown = Committee::from_seed(&[0x53; 32], 4, 1);
	path(
		"committee, unknown".into(),
		PqInvalidTransaction::UnknownCommittee.into(),
		with_flipped_signature(&committee_transfer(&unknown, 0..2)?, count),
		None,
	);
	path(
		"committee of 16, below its threshold".into(),
		PqInvalidTransaction::BelowThreshold.into(),
		with_flipped_signature(&committee_transfer(&cast.small, 0..8)?, count),
		None,
	);
	for (committee, signers, reads) in
		[(&cast.small, 0..9, 7), (&cast.large, 0..64, 64), (&cast.large, 0..128, 0)]
	{
		let valid = committee_transfer(committee, signers.clone())?;
		let label = format!(
			"committee of {}, {} signers ({reads} share reads), bad signature",
			committee.size(),
			signers.len()
		);
		path(label, bad_proof, with_flipped_signature(&valid, count), Some(valid));
	}
	Ok(paths)
}

fn display(scheme: Scheme) -> &'static str {
	match scheme {
		Scheme::Ed25519 => "Ed25519",
		Scheme::MlDsa44 => "ML-DSA-44",
		Scheme::MlDsa65 => "ML-DSA-65",
		Scheme::MlDsa87 => "ML-DSA-87",
		Scheme::AggregateMlDsa87 => "aggregate ML-DSA-87",
	}
}

/// One call of `validate_transaction` at `at`: its time and its answer.
async fn validate(
	rpc: &RpcClient,
	extrinsic: &[u8],
	at: H256,
) -> anyhow::Result<(Duration, TransactionValidity)> {
	// The extrinsic encodes as itself: a length-prefixed byte string.
	let arguments =
		[TransactionSource::External.encode(), extrinsic.to_vec(), at.encode()].concat();
	let start = Instant::now();
	let output: Bytes = rpc
		.request(
			"state_call",
			rpc_params!["TaggedTransactionQueue_validate_transaction", Bytes(arguments), at],
		)
		.await?;
	let elapsed = start.elapsed();
	Ok((
		elapsed,
		TransactionValidity::decode(&mut &output[..]).context("validate_transaction's answer")?,
	))
}

/// Median call time per path, in one setting.
pub struct SettingRun {
	/// The setting.
	pub setting: Setting,
	/// Net microseconds per path label (median call minus the baseline's median call).
	pub net_micros: BTreeMap<String, f64>,
	/// The baseline's median call, microseconds.
	pub baseline_micros: f64,
}

/// Measures every path in `setting`, `count` calls each, interleaved in `rounds`.
pub async fn run(
	node_binary: &Path,
	setting: Setting,
	count: usize,
	rounds: usize,
	progress: &mut impl Write,
) -> anyhow::Result<SettingRun> {
	let cast = Cast::new()?;
	let directory = tempfile::tempdir()?;
	let (spec, base_path) =
		scratch_chain(node_binary, setting.verifier(), &cast.endowed(), 0, directory.path())?;
	let args: &[&str] = if setting == Setting::HostCold { &["--key-cache-mib", "0"] } else { &[] };
	let node = manual_seal_node(node_binary, &spec, &base_path, args).await;
	let rpc = node.rpc().await;
	let chain = rpc.chain_identity().await?;
	let setup = cast.setup(&chain)?;
	submit_all(&rpc, &setup).await?;
	author_until_included(&rpc, setup.len()).await?;
	let at: H256 = rpc.request("chain_getBlockHash", rpc_params![]).await?;
	writeln!(progress, "  {}: chain set up; building garbage", setting.label())?;
	let paths = paths(&cast, &chain, count)?;

	// Per path, its garbage's times and those of as many undecodable bytes of the same sizes,
	// one after the other.
	let mut times: Vec<(Vec<Duration>, Vec<Duration>)> =
		paths.iter().map(|_| Default::default()).collect();
	let per_round = count.div_ceil(rounds);
	let undecodable: TransactionValidityError = PqInvalidTransaction::Undecodable.into();
	for round in 0..rounds {
		for (index, path) in paths.iter().enumerate() {
			if setting == Setting::HostWarm {
				if let Some(valid) = &path.warm_up {
					let (_, validity) = validate(&rpc, valid, at).await?;
					ensure!(
						validity.is_ok(),
						"{}: the warm-up transaction is refused: {validity:?}",
						path.label
					);
				}
			}
			for (copy, garbage) in
				path.garbage.iter().enumerate().skip(round * per_round).take(per_round)
			{
				let (elapsed, validity) = validate(&rpc, garbage, at).await?;
				ensure!(
					validity == Err(path.refusal),
					"{}: refused as {validity:?}, not {:?}",
					path.label,
					path.refusal
				);
				times[index].0.push(elapsed);
				let (elapsed, validity) =
					validate(&rpc, &undecodable_like(garbage, copy), at).await?;
				ensure!(
					validity == Err(undecodable),
					"{}: its size-matched baseline: {validity:?}",
					path.label
				);
				times[index].1.push(elapsed);
			}
		}
		writeln!(progress, "  {}: round {}/{rounds}", setting.label(), round + 1)?;
	}
	drop(rpc);
	node.stop().await;

	let median = |times: &mut Vec<Duration>| {
		times.sort();
		times[times.len() / 2].as_secs_f64() * 1e6
	};
	let mut net_micros = BTreeMap::new();
	let mut baseline_micros = 0.0;
	for (path, (garbage, baseline)) in paths.iter().zip(&mut times) {
		let (garbage, baseline) = (median(garbage), median(baseline));
		if path.label == BASELINE {
			baseline_micros = garbage;
		}
		net_micros.insert(path.label.clone(), garbage - baseline);
	}
	Ok(SettingRun { setting, net_micros, baseline_micros })
}

/// The report: one row per path, net microseconds per setting and the ratio to the reference
/// path in the same setting.
pub fn report(runs: &[SettingRun]) -> anyhow::Result<String> {
	let mut out = String::new();
	let header = Setting::ALL
		.map(|setting| format!("{} µs (÷ reference)", setting.label()))
		.join(" | ");
	writeln!(out, "| refusal path | {header} |")?;
	writeln!(out, "|---|{}", "---|".repeat(Setting::ALL.len()))?;
	let labels: Vec<&String> = runs.first().context("a run")?.net_micros.keys().collect();
	let reference = |run: &SettingRun| run.net_micros[REFERENCE];
	let order = |label: &&String| runs[0].net_micros[*label];
	let mut labels = labels;
	labels.sort_by(|a, b| order(a).total_cmp(&order(b)));
	for label in labels {
		let cells: Vec<String> = Setting::ALL
			.iter()
			.map(|setting| match runs.iter().find(|run| run.setting == *setting) {
				Some(run) if label == BASELINE => format!("0 (a call: {:.0})", run.baseline_micros),
				Some(run) => format!(
					"{:.0} ({:.2}×)",
					run.net_micros[label],
					run.net_micros[label] / reference(run)
				),
				None => "—".into(),
			})
			.collect();
		writeln!(out, "| {label} | {} |", cells.join(" | "))?;
	}
	Ok(out)
}
