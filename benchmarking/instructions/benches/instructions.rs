//! Instruction counts (valgrind's callgrind, through gungraun) of the steps `verify.rs` times:
//! Ed25519 decode+verify beside every ML-DSA level's libcrux decode+verify and the project's
//! own verifier (`Fips204`) decoding, verifying with a decoded key, and both. Wall-clock
//! time on this VM drifts by tens of percent within a run; instruction counts repeat exactly,
//! so a change's effect shows. They are not time: a vector instruction counts as one, a cache
//! miss as nothing. Run by `benchmarking/instructions.sh`.

use gungraun::{library_benchmark, library_benchmark_group, main};
use pq_crypto::{
	backend::{Fips204, Libcrux},
	verify::{DecodedKey, Signed},
	AccountSignature, AccountSigner, Purpose, Scheme,
};
use pq_signer::signing::Keypair;
use std::hint::black_box;

/// A transfer-sized payload, as in `verify.rs`.
const MESSAGE: &[u8] = &[0x5a; 128];
const PURPOSE: Purpose = Purpose::Transaction;

fn signed(scheme: Scheme) -> (AccountSigner, AccountSignature) {
	let keypair = Keypair::from_suri(scheme, "//Bench").expect("dev URI");
	(keypair.public(), keypair.sign(MESSAGE, PURPOSE))
}

fn decoded(scheme: Scheme) -> (DecodedKey<Fips204>, AccountSignature) {
	let (signer, signature) = signed(scheme);
	(DecodedKey::decode(&signer).expect("a single key"), signature)
}

fn signer(scheme: Scheme) -> AccountSigner {
	signed(scheme).0
}

// libcrux (Ed25519: ed25519-dalek, which every backend runs), key decoded in the call.
#[library_benchmark]
#[bench::ed25519(args = (Scheme::Ed25519), setup = signed)]
#[bench::ml_dsa_44(args = (Scheme::MlDsa44), setup = signed)]
#[bench::ml_dsa_65(args = (Scheme::MlDsa65), setup = signed)]
#[bench::ml_dsa_87(args = (Scheme::MlDsa87), setup = signed)]
fn libcrux_decode_verify((signer, signature): (AccountSigner, AccountSignature)) -> bool {
	black_box(signature.verify::<Libcrux>(black_box(&signer), MESSAGE, PURPOSE).is_ok())
}

#[library_benchmark]
#[bench::ml_dsa_44(args = (Scheme::MlDsa44), setup = signed)]
#[bench::ml_dsa_65(args = (Scheme::MlDsa65), setup = signed)]
#[bench::ml_dsa_87(args = (Scheme::MlDsa87), setup = signed)]
fn fips204_decode_verify((signer, signature): (AccountSigner, AccountSignature)) -> bool {
	black_box(signature.verify::<Fips204>(black_box(&signer), MESSAGE, PURPOSE).is_ok())
}

#[library_benchmark]
#[bench::ml_dsa_44(args = (Scheme::MlDsa44), setup = signer)]
#[bench::ml_dsa_65(args = (Scheme::MlDsa65), setup = signer)]
#[bench::ml_dsa_87(args = (Scheme::MlDsa87), setup = signer)]
fn fips204_decode(signer: AccountSigner) -> DecodedKey<Fips204> {
	black_box(DecodedKey::decode(black_box(&signer)).expect("a single key"))
}

#[library_benchmark]
#[bench::ml_dsa_44(args = (Scheme::MlDsa44), setup = decoded)]
#[bench::ml_dsa_65(args = (Scheme::MlDsa65), setup = decoded)]
#[bench::ml_dsa_87(args = (Scheme::MlDsa87), setup = decoded)]
fn fips204_verify_decoded((key, signature): (DecodedKey<Fips204>, AccountSignature)) -> bool {
	black_box(key.verify(black_box(&signature), Signed::ForPurpose(MESSAGE, PURPOSE)).is_ok())
}

library_benchmark_group!(
	name = verification,
	benchmarks =
		[libcrux_decode_verify, fips204_decode_verify, fips204_decode, fips204_verify_decoded]
);

main!(library_benchmark_groups = verification);
