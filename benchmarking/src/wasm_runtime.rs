//! A pq-runtime Wasm blob executed in-process by the node's executor (wasmtime, compiled),
//! with the host functions a pq-node provides: to measure verification inside Wasm, and to
//! run conformance vectors through a runtime blob.

use codec::{Decode, Encode};
use polkadot_sdk::{
	sc_executor::WasmExecutor,
	sp_core::traits::{CallContext, CodeExecutor, RuntimeCode, WrappedRuntimeCode},
	sp_io,
	sp_state_machine::BasicExternalities,
};
use pq_crypto::{
	aggregate::CommitteeId, host::pq_verify, AccountSignature, AccountSigner, Domain, Purpose,
	Scheme, VerifyError,
};
use pq_signer::signing::Keypair;
use std::borrow::Cow;

/// The host functions of a pq-node (without the benchmarking ones).
pub type NodeHostFunctions = (sp_io::SubstrateHostFunctions, pq_verify::HostFunctions);

/// The checks of one `PqVerifierApi_verify_signatures` call: signer, signature, message and
/// purpose each.
pub type Checks = Vec<(AccountSigner, AccountSignature, Vec<u8>, Purpose)>;

/// `count` valid checks of `scheme` by distinct dev keys (`//Bench//<index>`), each signing
/// `message` for `purpose`: every key decoded in a call, as a block's distinct senders are.
pub fn checks_by_distinct_keys(
	scheme: Scheme,
	count: u32,
	message: &[u8],
	purpose: Purpose,
) -> Checks {
	(0..count)
		.map(|index| {
			let keypair =
				Keypair::from_suri(scheme, &format!("//Bench//{index}")).expect("dev URI");
			(keypair.public(), keypair.sign(message, purpose), message.to_vec(), purpose)
		})
		.collect()
}

/// `count` checks of `signature` for a committee signer: refused as a scheme mismatch before
/// any backend decodes or verifies anything, so a call of them costs what the call itself does.
pub fn refused_checks(
	signature: AccountSignature,
	count: u32,
	message: &[u8],
	purpose: Purpose,
) -> Checks {
	let committee = AccountSigner::AggregateMlDsa87(CommitteeId([7; 32]));
	vec![(committee, signature, message.to_vec(), purpose); count as usize]
}

/// A runtime blob and an executor that keeps its compiled instance between calls.
pub struct WasmRuntime {
	executor: WasmExecutor<NodeHostFunctions>,
	code: WrappedRuntimeCode<'static>,
	hash: Vec<u8>,
}

impl WasmRuntime {
	/// The runtime of `blob` (compressed or not).
	pub fn new(blob: &'static [u8]) -> Self {
		Self {
			executor: WasmExecutor::builder().build(),
			code: WrappedRuntimeCode(Cow::Borrowed(blob)),
			hash: polkadot_sdk::sp_crypto_hashing::blake2_256(blob).to_vec(),
		}
	}

	/// Calls the runtime API function `method` (e.g. `Core_version`) with encoded `arguments`.
	pub fn call(&self, method: &str, arguments: &[u8]) -> Result<Vec<u8>, String> {
		let runtime_code =
			RuntimeCode { code_fetcher: &self.code, heap_pages: None, hash: self.hash.clone() };
		let mut externalities = BasicExternalities::new_empty();
		self.executor
			.call(&mut externalities, &runtime_code, method, arguments, CallContext::Offchain)
			.0
			.map_err(|error| format!("{method}: {error}"))
	}

	/// `PqVerifierApi::verify_signature`, the runtime's own verification.
	pub fn verify_signature(
		&self,
		signer: &AccountSigner,
		signature: &AccountSignature,
		message: &[u8],
		domain: &Domain,
	) -> Result<Result<(), VerifyError>, String> {
		let arguments = (signer, signature, message, domain).encode();
		let output = self.call("PqVerifierApi_verify_signature", &arguments)?;
		Decode::decode(&mut &output[..])
			.map_err(|error| format!("PqVerifierApi_verify_signature output: {error}"))
	}

	/// `PqVerifierApi::verify_signatures`: every check in one runtime call, a key seen earlier
	/// in `checks` decoded once (as when a block is imported).
	pub fn verify_signatures(
		&self,
		checks: &[(AccountSigner, AccountSignature, Vec<u8>, Purpose)],
	) -> Result<Vec<Result<(), VerifyError>>, String> {
		let output = self.call("PqVerifierApi_verify_signatures", &checks.encode())?;
		Decode::decode(&mut &output[..])
			.map_err(|error| format!("PqVerifierApi_verify_signatures output: {error}"))
	}
}
