//! Every member of a committee in one process: key generation, proofs of possession and the
//! two-round aggregate signing protocol, for tools, tests and benchmarks.
//!
//! A real deployment runs each member on its own machine and exchanges the round messages
//! (`wᵢ`, then `zᵢ`); the arithmetic is the same. Here the rounds are function calls, which
//! is enough to produce genuine aggregate signatures for any signer set of up to
//! [`MAX_COMMITTEE_SIZE`](pq_crypto::aggregate::MAX_COMMITTEE_SIZE) members.
//!
//! ## Signing (for the signer set `P`, `|P| = s`)
//!
//! 1. Each signer draws a fresh mask `yᵢ` with coefficients in `[−B_s, B_s]` and commits
//!    `wᵢ = A·yᵢ`.
//! 2. Anyone computes `W* = Σwᵢ`, `μ = H(tr ‖ M′)` with `tr = H(pk*)` (FIPS 204 Algorithm 7,
//!    lines 6–7), `c̃ = H(μ ‖ w1Encode(HighBits(W*)))` and `c = SampleInBall(c̃)`.
//! 3. Each signer answers `zᵢ = yᵢ + c·s1ᵢ`; anyone combines `z* = Σzᵢ`, computes
//!    `r = A·z* − c·t1*·2^d` (which equals `W* − c·s2* + c·t0*`) and the hint
//!    `h = MakeHint(−c·t0*, r)`, and checks what FIPS 204 verification will:
//!    `‖z*‖∞ < γ1 − β`, `‖c·t0*‖∞ < γ2`, at most `ω` hints and `UseHint(h, r) = HighBits(W*)`.
//!    On failure every signer starts again with a fresh mask.
//!
//! `B_s = ⌊(γ1 − β − 1)/s⌋ − β`, so `‖z*‖∞ ≤ s·(B_s + β) < γ1 − β` always holds; what can fail
//! is the hint check, when `c·s2*` moves `W*` across a rounding boundary (estimated from the
//! coefficient sizes, not measured: about one attempt in three for 128 signers, rarely for few).
//!
//! Masks are derived from the member's secret, `rnd`, `μ`, the signer set and the attempt
//! number, so a mask is only ever used again for the very same challenge. With `rnd` fixed
//! this holds only because every member here is honest and deterministic; a distributed
//! deployment must draw `rnd` afresh for every signing session.
//!
//! Secrets are wiped: a member's `s1`, mask seed and share signing key when the committee is
//! dropped, key generation's seeds and intermediates before it returns, and every mask,
//! `c·s1ᵢ` and response sum when its attempt ends (a rejected response would leak `s1ᵢ`
//! as FIPS 204's rejection sampling exists to prevent).

mod encoding;
mod ring;
mod sampling;

use alloc::vec::Vec;
use codec::Encode;
use encoding::{sig_encode, sk_encode};
use fips204::{
	encoding::w1_encode,
	ring::{high_bits, make_hint, use_hint},
	sampling::{h_bytes, sample_in_ball},
	Matrix, MAX_W1_BYTES,
};
use polkadot_sdk::sp_runtime::AccountId32;
use pq_crypto::aggregate::{
	encoding::pk_encode,
	ring::{centered, power2round, reduce, Poly, PolyVec, BETA, D, GAMMA1, GAMMA2, K, L, N, OMEGA},
	AggregateSignature, CommitteeId, SignerBitfield, MAX_COMMITTEE_SIZE,
};
use pq_crypto::committee::{committee_id, t1_of, PackedShare};
use pq_crypto::{
	keys::{MlDsa87Public, MlDsa87Signature},
	message::{pure_header, pure_message},
	params::{MlDsa87, ParameterSet},
	statement::MembershipStatement,
	Purpose,
};
use ring::{matrix_times, scale};
use sampling::{bounded_mask, expand_s};
use zeroize::{Zeroize, Zeroizing};

/// Domain tag of a member's secret seeds within a committee.
const MEMBER_SEED_TAG: &[u8] = b"pq-verifier/committee-member/v1";
/// Domain tag of a dev committee's `ρ` and member seeds ([`Committee::from_seed`]).
const DEV_COMMITTEE_TAG: &[u8] = b"pq-verifier/dev-committee/v1";
/// Attempts before giving up; by the estimate above each fails with probability about 1/3 at
/// worst.
const MAX_ATTEMPTS: u32 = 100;

/// Why an aggregate signature could not be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AggregateError {
	/// The signer set is empty or names someone who is not a member.
	InvalidSigners,
	/// Every attempt failed the hint check (astronomically unlikely).
	AttemptsExhausted,
}

/// One member's secrets, wiped when dropped.
struct Member {
	/// `NTT(s1ᵢ)`.
	s1_hat: PolyVec<L>,
	/// `tᵢ`.
	t: PolyVec<K>,
	/// The seed of this member's masks.
	mask_key: [u8; 32],
	/// `skEncode` of the member's share key, for its proof of possession.
	share_signing_key: Vec<u8>,
}

/// A committee with every member's secrets: makes shares, proofs and aggregate signatures.
pub struct Committee {
	rho: [u8; 32],
	a_hat: Matrix,
	threshold: u32,
	members: Vec<Member>,
	id: CommitteeId,
}

impl Member {
	/// FIPS 204 Algorithm 6 `KeyGen_internal`, with the committee's `ρ` in place of the
	/// member's own. Every secret intermediate is wiped before it returns.
	fn generate(rho: &[u8; 32], a_hat: &Matrix, seed: &[u8; 32]) -> Self {
		// `ρ′` for the secrets, `K` for the share key's own signing (its proof of possession),
		// and a separate seed for aggregate masks, so the two kinds of signing share nothing.
		let seeds: Zeroizing<[u8; 128]> = Zeroizing::new(h_bytes(&[MEMBER_SEED_TAG, rho, seed]));
		let rho_prime: Zeroizing<[u8; 64]> =
			Zeroizing::new(seeds[..64].try_into().expect("64 of 128 bytes"));
		let signing_seed: Zeroizing<[u8; 32]> =
			Zeroizing::new(seeds[64..96].try_into().expect("32 of 128 bytes"));
		let mask_key: [u8; 32] = seeds[96..].try_into().expect("32 of 128 bytes");
		let (mut s1, mut s2) = expand_s(&rho_prime);
		let s1_hat = s1.map(|poly| poly.ntt());
		// `A·s1 = t − s2`: with the public `t`, it gives `s2` away.
		let mut a_s1 = matrix_times(a_hat, &s1_hat);
		let t: PolyVec<K> = core::array::from_fn(|i| a_s1[i].add(&s2[i]));
		wipe(&mut a_s1);

		let (t1, mut t0) = split_power2round(&t);
		let tr: [u8; 64] = h_bytes(&[pk_encode(rho, &t1).as_ref()]);
		let (mut s1_signed, mut s2_signed) = (s1.map(|p| p.to_signed()), s2.map(|p| p.to_signed()));
		let share_signing_key = sk_encode(rho, &signing_seed, &tr, &s1_signed, &s2_signed, &t0);
		wipe(&mut s1);
		wipe(&mut s2);
		s1_signed.zeroize();
		s2_signed.zeroize();
		t0.zeroize();
		Member { s1_hat, t, mask_key, share_signing_key }
	}
}

impl Drop for Member {
	fn drop(&mut self) {
		wipe(&mut self.s1_hat);
		self.mask_key.zeroize();
		self.share_signing_key.zeroize();
	}
}

/// Overwrites the coefficients of secret polynomials with zeros.
fn wipe(polys: &mut [Poly]) {
	polys.iter_mut().for_each(|poly| poly.0.zeroize());
}

/// `Power2Round` of every coefficient: `t1` and the signed `t0`.
fn split_power2round(t: &PolyVec<K>) -> (PolyVec<K>, [[i32; N]; K]) {
	(t1_of(t), t.map(|poly| poly.0.map(|c| power2round(c).1)))
}

impl Committee {
	/// A committee on the public seed `ρ`, one member per secret seed (at most
	/// [`MAX_COMMITTEE_SIZE`]), accepting signer sets of at least `threshold` members.
	pub fn generate(rho: [u8; 32], member_seeds: &[[u8; 32]], threshold: u32) -> Self {
		assert!(member_seeds.len() <= MAX_COMMITTEE_SIZE as usize, "at most 128 members");
		let a_hat = Matrix::expand::<MlDsa87>(&rho);
		let members: Vec<Member> =
			member_seeds.iter().map(|seed| Member::generate(&rho, &a_hat, seed)).collect();
		let shares: Vec<PackedShare> =
			members.iter().map(|member| PackedShare::pack(&member.t)).collect();
		let id = committee_id(&rho, threshold, &shares);
		Committee { rho, a_hat, threshold, members, id }
	}

	/// A committee of `size` members whose `ρ` and member seeds all derive from `seed`: for dev
	/// chains, tests and benchmarks, where one party may know every secret.
	pub fn from_seed(seed: &[u8; 32], size: u32, threshold: u32) -> Self {
		let rho = h_bytes(&[DEV_COMMITTEE_TAG, seed, b"rho"]);
		let member_seeds: Vec<[u8; 32]> = (0..size)
			.map(|index| h_bytes(&[DEV_COMMITTEE_TAG, seed, &index.to_le_bytes()]))
			.collect();
		Self::generate(rho, &member_seeds, threshold)
	}

	/// The committee's id.
	pub fn id(&self) -> CommitteeId {
		self.id.clone()
	}

	/// The shared public seed `ρ`.
	pub fn rho(&self) -> [u8; 32] {
		self.rho
	}

	/// The least number of signers the committee accepts.
	pub fn threshold(&self) -> u32 {
		self.threshold
	}

	/// Number of members.
	pub fn size(&self) -> u32 {
		self.members.len() as u32
	}

	/// Member `index`'s share.
	pub fn share(&self, index: u32) -> PackedShare {
		PackedShare::pack(&self.members[index as usize].t)
	}

	/// Every member's share, in member order.
	pub fn shares(&self) -> Vec<PackedShare> {
		(0..self.size()).map(|index| self.share(index)).collect()
	}

	/// Member `index`'s proof of possession: a deterministic ML-DSA-87 signature under its
	/// share key over the [`MembershipStatement`] naming this committee, the seat, `owner` (the
	/// account that will create the committee) and the chain, for [`Purpose::CommitteeShare`].
	pub fn membership_proof<Hash: Encode>(
		&self,
		index: u32,
		genesis_hash: Hash,
		owner: &AccountId32,
	) -> MlDsa87Signature {
		#[allow(deprecated)] // `skEncode` keys are what FIPS 204 defines; ours are generated here.
		let key = ml_dsa::ExpandedSigningKey::<ml_dsa::MlDsa87>::from_expanded(
			self.members[index as usize]
				.share_signing_key
				.as_slice()
				.try_into()
				.expect("skEncode writes SK_BYTES bytes"),
		);
		let committee = self.id();
		let statement =
			MembershipStatement { genesis_hash, owner, committee: &committee, member: index }
				.encode();
		let m_prime = pure_message(Purpose::CommitteeShare.context(), &statement)
			.expect("a purpose's context fits");
		let signature = key.sign_internal(&[m_prime.as_slice()], &Default::default());
		MlDsa87Signature::from_slice(&signature.encode())
			.expect("an ML-DSA-87 signature is 4,627 bytes")
	}

	/// The signer set of these members, as a canonical bitfield of this committee.
	pub fn signers(
		&self,
		members: impl IntoIterator<Item = u32>,
	) -> Result<SignerBitfield, AggregateError> {
		SignerBitfield::new(self.size(), members).ok_or(AggregateError::InvalidSigners)
	}

	/// The aggregate key `pk*` of a signer set.
	pub fn aggregate_key(&self, signers: &SignerBitfield) -> MlDsa87Public {
		pk_encode(&self.rho, &t1_of(&self.t_sum(signers)))
	}

	/// `Σ tᵢ` over the members in `signers`.
	fn t_sum(&self, signers: &SignerBitfield) -> PolyVec<K> {
		let mut sum: PolyVec<K> = Default::default();
		for member in signers.members().filter_map(|index| self.members.get(index as usize)) {
			sum = core::array::from_fn(|row| sum[row].add(&member.t[row]));
		}
		sum
	}

	/// The members in `signers` jointly sign `message` for `purpose`, with masks made fresh by
	/// randomness from the operating system.
	#[cfg(feature = "std")]
	pub fn sign(
		&self,
		signers: &SignerBitfield,
		message: &[u8],
		purpose: Purpose,
	) -> Result<AggregateSignature, AggregateError> {
		let mut rnd = [0u8; 32];
		getrandom::fill(&mut rnd).expect("the operating system provides randomness");
		self.sign_with_randomness(signers, message, purpose, rnd)
	}

	/// As [`Self::sign`] with caller-chosen `rnd` (see the module docs for when it may be
	/// fixed: tests, benchmarks, and any case where every member is this process).
	pub fn sign_with_randomness(
		&self,
		signers: &SignerBitfield,
		message: &[u8],
		purpose: Purpose,
		rnd: [u8; 32],
	) -> Result<AggregateSignature, AggregateError> {
		let members: Vec<&Member> =
			signers.members().filter_map(|i| self.members.get(i as usize)).collect();
		if members.is_empty() || !signers.is_canonical_for(self.size()) {
			return Err(AggregateError::InvalidSigners);
		}
		let (t1, t0) = split_power2round(&self.t_sum(signers));
		let tr: [u8; 64] = h_bytes(&[pk_encode(&self.rho, &t1).as_ref()]);
		let context = purpose.context();
		let header = pure_header(context).expect("a purpose's context fits in 255 bytes");
		let mu: [u8; 64] = h_bytes(&[&tr, &header, context, message]);

		let t1_scaled_hat = t1.map(|poly| Poly(poly.0.map(|c| c << D)).ntt());
		let t0_hat = t0.map(|coefficients| Poly::from_signed(&coefficients).ntt());
		let mask_bound = (GAMMA1 - BETA - 1) / members.len() as u32 - BETA;

		for attempt in 0..MAX_ATTEMPTS {
			// Round 1: commitments. A mask and `c·s1ᵢ` give `s1ᵢ` away with `zᵢ`: both are
			// wiped once the attempt is over, whatever its outcome.
			let mut masks: Vec<PolyVec<L>> = members
				.iter()
				.map(|member| {
					let seed =
						Zeroizing::new((&member.mask_key, &rnd, &mu, signers, attempt).encode());
					bounded_mask(&seed, mask_bound)
				})
				.collect();
			let mut w_sum: PolyVec<K> = Default::default();
			for mask in &masks {
				let mut mask_hat = mask.map(|poly| poly.ntt());
				let w = matrix_times(&self.a_hat, &mask_hat);
				wipe(&mut mask_hat);
				w_sum = core::array::from_fn(|row| w_sum[row].add(&w[row]));
			}
			let w1 = w_sum.map(|poly| Poly(poly.0.map(|r| high_bits(r, GAMMA2))));
			let mut w1_encoded = [0u8; MAX_W1_BYTES];
			let c_tilde: [u8; 64] =
				h_bytes(&[&mu, w1_encode(&MlDsa87::PARAMETERS, &w1, &mut w1_encoded)]);
			let c_hat = sample_in_ball(&c_tilde, MlDsa87::PARAMETERS.tau).ntt();

			// Round 2: responses, combined.
			let mut z = [[0i32; N]; L];
			for (member, mask) in members.iter().zip(&masks) {
				let mut c_s1 = scale(&c_hat, &member.s1_hat);
				for (column, poly) in z.iter_mut().enumerate() {
					let (mut y, mut cs1) = (mask[column].to_signed(), c_s1[column].to_signed());
					for (coefficient, (y, cs1)) in poly.iter_mut().zip(y.iter().zip(cs1.iter())) {
						*coefficient += y + cs1;
					}
					y.zeroize();
					cs1.zeroize();
				}
				wipe(&mut c_s1);
			}
			masks.iter_mut().for_each(|mask| wipe(mask));
			let signature = self.finish(&z, &c_tilde, &c_hat, &t1_scaled_hat, &t0_hat, &w1);
			z.zeroize();
			if let Some(signature) = signature {
				return Ok(AggregateSignature {
					committee: self.id(),
					signers: signers.clone(),
					signature,
				});
			}
		}
		Err(AggregateError::AttemptsExhausted)
	}

	/// Computes the hint and checks `σ* = (c̃, z*, h)` the way FIPS 204 verification will;
	/// `None` sends the signers back to round 1.
	fn finish(
		&self,
		z: &[[i32; N]; L],
		c_tilde: &[u8; 64],
		c_hat: &Poly,
		t1_scaled_hat: &PolyVec<K>,
		t0_hat: &PolyVec<K>,
		w1: &PolyVec<K>,
	) -> Option<MlDsa87Signature> {
		if z.iter().flatten().any(|c| c.unsigned_abs() >= GAMMA1 - BETA) {
			return None;
		}
		// `z*` of an attempt that is rejected must not outlive it: wiped here, as `z` by the caller.
		let mut z_hat = z.map(|coefficients| Poly::from_signed(&coefficients).ntt());
		let a_z = matrix_times(&self.a_hat, &z_hat);
		wipe(&mut z_hat);
		let c_t1 = scale(c_hat, t1_scaled_hat);
		let c_t0 = scale(c_hat, t0_hat);
		if c_t0.iter().any(|poly| poly.infinity_norm() >= GAMMA2) {
			return None;
		}
		let mut hints = [[false; N]; K];
		let mut hint_count = 0;
		for (row, row_hints) in hints.iter_mut().enumerate() {
			let r = a_z[row].sub(&c_t1[row]);
			for (j, slot) in row_hints.iter_mut().enumerate() {
				let minus_c_t0 = reduce(-(centered(c_t0[row].0[j]) as i64));
				let hint = make_hint(minus_c_t0, r.0[j], GAMMA2);
				if use_hint(hint, r.0[j], GAMMA2) != w1[row].0[j] {
					return None;
				}
				*slot = hint;
				hint_count += hint as usize;
			}
		}
		if hint_count > OMEGA {
			return None;
		}
		Some(sig_encode(c_tilde, z, &hints))
	}
}
