//! A decoded verifying key — FIPS 204 Algorithm 23 `pkDecode` plus everything Algorithm 8
//! derives from the key alone — and Algorithm 8 `ML-DSA.Verify_internal` with it.

use super::{
	encoding::{unpack_bits, w1_encode_poly, DecodedSignature, T1_POLY_BYTES},
	ring::{Poly, Portable, D},
	sampling::{expand_a, expand_a_row, h, h_bytes, sample_in_ball},
	Arithmetic, Engine, MAX_L, MAX_W1_BYTES,
};
use crate::{keccak::Shake256, ParameterSet};
use alloc::{boxed::Box, sync::Arc};
use core::{marker::PhantomData, mem::MaybeUninit};

/// `Â = ExpandA(ρ)` (Algorithm 32), in the NTT domain: the largest part of a decoded key, and
/// the part every key with the same `ρ` — every aggregate key of one committee — shares.
pub struct Matrix {
	rho: [u8; 32],
	rows: usize,
	columns: usize,
	/// Row by row: `Â[r][s]` at `r·columns + s`.
	polys: Box<[Poly]>,
}

impl Matrix {
	/// Algorithm 32 `ExpandA(ρ)` with the dimensions of level `P`.
	pub fn expand<P: ParameterSet>(rho: &[u8; 32]) -> Self {
		Self::expand_with::<P>(Engine::detect(), rho)
	}

	/// [`Self::expand`] by `engine` (or the portable one, if this CPU cannot run it).
	pub fn expand_with<P: ParameterSet>(engine: Engine, rho: &[u8; 32]) -> Self {
		Self { rho: *rho, rows: P::K, columns: P::L, polys: expand_a(engine, rho, P::K, P::L) }
	}

	/// Bytes the matrix of level `P` occupies, for a cache's byte budget.
	pub const fn bytes<P: ParameterSet>() -> usize {
		P::K * P::L * core::mem::size_of::<Poly>() + core::mem::size_of::<Self>()
	}

	/// The seed it was expanded from.
	pub fn rho(&self) -> &[u8; 32] {
		&self.rho
	}

	/// Row `r`: `Â[r][0..ℓ]`.
	pub fn row(&self, r: usize) -> &[Poly] {
		&self.polys[r * self.columns..][..self.columns]
	}

	fn is_for<P: ParameterSet>(&self, rho: &[u8]) -> bool {
		self.rho == rho && (self.rows, self.columns) == (P::K, P::L)
	}
}

/// A decoded ML-DSA verifying key of level `P`: its matrix, `NTT(t1·2^d)` and `tr = H(pk, 64)`.
///
/// Built only from an encoded key ([`Self::decode`], [`Self::decode_with`]), so it always is
/// exactly what `pkDecode` and the derivations give for that key.
pub struct VerifyingKey<P: ParameterSet> {
	matrix: Arc<Matrix>,
	t1_hat: Box<[Poly]>,
	tr: [u8; 64],
	level: PhantomData<fn() -> P>,
}

impl<P: ParameterSet> Clone for VerifyingKey<P> {
	fn clone(&self) -> Self {
		Self {
			matrix: self.matrix.clone(),
			t1_hat: self.t1_hat.clone(),
			tr: self.tr,
			level: PhantomData,
		}
	}
}

impl<P: ParameterSet> VerifyingKey<P> {
	/// Bytes one decoded key occupies besides its matrix.
	pub const BYTES: usize = P::K * core::mem::size_of::<Poly>() + core::mem::size_of::<Self>();

	/// Bytes one decoded key occupies with a matrix of its own.
	pub const BYTES_WITH_MATRIX: usize = Self::BYTES + Matrix::bytes::<P>();

	/// Algorithm 23 `pkDecode` of `public`, `Â = ExpandA(ρ)`, `NTT(t1·2^d)` and `tr`.
	/// `pkDecode` accepts every byte string of the key's length, so this cannot fail.
	pub fn decode(public: &P::EncodedPublicKey) -> Self {
		Self::decode_by(Engine::detect(), public)
	}

	/// [`Self::decode`] by `engine` (or the portable one, if this CPU cannot run it).
	pub fn decode_by(engine: Engine, public: &P::EncodedPublicKey) -> Self {
		let rho = public.as_ref()[..32].try_into().expect("a key starts with its 32-byte ρ");
		let matrix = Arc::new(Matrix::expand_with::<P>(engine, rho));
		Self::decode_with_by(engine, matrix, public).expect("the matrix of the key's own ρ")
	}

	/// [`Self::decode`] with the matrix of the key's `ρ` already expanded; `None` if `matrix`
	/// belongs to another `ρ` or level.
	pub fn decode_with(matrix: Arc<Matrix>, public: &P::EncodedPublicKey) -> Option<Self> {
		Self::decode_with_by(Engine::detect(), matrix, public)
	}

	fn decode_with_by(
		engine: Engine,
		matrix: Arc<Matrix>,
		public: &P::EncodedPublicKey,
	) -> Option<Self> {
		let public = public.as_ref();
		let (rho, packed_t1) = public.split_at(32);
		if !matrix.is_for::<P>(rho) || packed_t1.len() != P::K * T1_POLY_BYTES {
			return None;
		}
		Some(Self {
			matrix,
			t1_hat: t1_hat(engine, packed_t1),
			tr: h_bytes(&[public]),
			level: PhantomData,
		})
	}

	/// The matrix this key verifies with (shared with every key decoded with it).
	pub fn matrix(&self) -> &Arc<Matrix> {
		&self.matrix
	}

	/// FIPS 204 Algorithm 3 `ML-DSA.Verify(pk, M, σ, ctx)` (pure mode), by the engine of this
	/// CPU: Algorithm 8 over `M′ = 0 ‖ |ctx| ‖ ctx ‖ M` ([`pure_header`]), hashed where it lies
	/// (never copied). A context over 255 bytes never verifies.
	pub fn verify(&self, message: &[u8], context: &[u8], signature: &P::EncodedSignature) -> bool {
		self.verify_by(Engine::detect(), message, context, signature)
	}

	/// [`Self::verify`] by `engine` (or the portable one, if this CPU cannot run it).
	pub fn verify_by(
		&self,
		engine: Engine,
		message: &[u8],
		context: &[u8],
		signature: &P::EncodedSignature,
	) -> bool {
		let Some(header) = pure_header(context) else { return false };
		self.verify_parts_by(engine, &[&header, context, message], signature)
	}

	/// FIPS 204 Algorithm 8 `ML-DSA.Verify_internal(pk, M′, σ)`, by the engine of this CPU.
	pub fn verify_internal(&self, m_prime: &[u8], signature: &P::EncodedSignature) -> bool {
		self.verify_internal_by(Engine::detect(), m_prime, signature)
	}

	/// [`Self::verify_internal`] by `engine` (or the portable one, if this CPU cannot run it).
	/// Every engine gives the same verdict; tests compare them.
	pub fn verify_internal_by(
		&self,
		engine: Engine,
		m_prime: &[u8],
		signature: &P::EncodedSignature,
	) -> bool {
		self.verify_parts_by(engine, &[m_prime], signature)
	}

	/// Algorithm 8 over `M′` given as consecutive parts.
	fn verify_parts_by(
		&self,
		engine: Engine,
		m_prime: &[&[u8]],
		signature: &P::EncodedSignature,
	) -> bool {
		algorithm_8_by::<P>(self, engine, m_prime, signature)
	}
}

/// What Algorithm 8 reads of a verifying key: `tr`, and row by row `Â` with the row's entry of
/// `NTT(t1·2^d)`. A [`VerifyingKey`] holds them; an [`EncodedKey`] makes each row as it is
/// reached.
trait KeyRows {
	/// `tr = H(pk, 64)`.
	fn tr(&self) -> &[u8; 64];
	/// Runs `product` on row `r` of `Â` and entry `r` of `NTT(t1·2^d)`.
	fn with_row(&self, arithmetic: impl Arithmetic, r: usize, product: impl FnOnce(&[Poly], &Poly));
}

impl<P: ParameterSet> KeyRows for VerifyingKey<P> {
	fn tr(&self) -> &[u8; 64] {
		&self.tr
	}

	#[inline(always)]
	fn with_row(&self, _: impl Arithmetic, r: usize, product: impl FnOnce(&[Poly], &Poly)) {
		product(self.matrix.row(r), &self.t1_hat[r])
	}
}

/// A verifying key as encoded, for one verification ([`verify_once_by`]): `tr` hashed, and each
/// row of `Â` and entry of `NTT(t1·2^d)` made on the stack when Algorithm 8 reaches it, then
/// overwritten by the next. Nothing of the key is allocated: in Wasm a decoded key's 16–56 KiB
/// matrix is fresh memory, every page of it faulted in and zeroed by the host.
struct EncodedKey<'a> {
	rho: &'a [u8; 32],
	packed_t1: &'a [u8],
	columns: usize,
	tr: [u8; 64],
}

impl<'a> EncodedKey<'a> {
	fn new<P: ParameterSet>(public: &'a P::EncodedPublicKey) -> Self {
		let bytes = public.as_ref();
		let (rho, packed_t1) = bytes.split_at(32);
		Self {
			rho: rho.try_into().expect("a key starts with its 32-byte ρ"),
			packed_t1,
			columns: P::L,
			tr: h_bytes(&[bytes]),
		}
	}
}

impl KeyRows for EncodedKey<'_> {
	fn tr(&self) -> &[u8; 64] {
		&self.tr
	}

	#[inline(always)]
	fn with_row(
		&self,
		arithmetic: impl Arithmetic,
		r: usize,
		product: impl FnOnce(&[Poly], &Poly),
	) {
		let mut row = [const { MaybeUninit::<Poly>::uninit() }; MAX_L];
		let row = expand_a_row(self.rho, r, &mut row[..self.columns]);
		let mut t1_hat = Poly::default();
		t1_hat_poly(arithmetic, &self.packed_t1[r * T1_POLY_BYTES..][..T1_POLY_BYTES], &mut t1_hat);
		product(row, &t1_hat)
	}
}

/// FIPS 204 Algorithm 3 `ML-DSA.Verify(pk, M, σ, ctx)` (pure mode) under the encoded key
/// `public`, keeping nothing of it: for a key verified once. Same verdict as
/// [`VerifyingKey::decode`] then [`VerifyingKey::verify`]; tests compare them.
pub fn verify_once<P: ParameterSet>(
	public: &P::EncodedPublicKey,
	message: &[u8],
	context: &[u8],
	signature: &P::EncodedSignature,
) -> bool {
	let Some(header) = pure_header(context) else { return false };
	verify_once_by::<P>(Engine::detect(), public, &[&header, context, message], signature)
}

/// FIPS 204 Algorithm 8 `ML-DSA.Verify_internal(pk, M′, σ)` by `engine` under the encoded key
/// `public`, `M′` given as consecutive parts, keeping nothing of the key. The portable engine
/// makes `Â` and `NTT(t1·2^d)` a row at a time ([`EncodedKey`]); the AVX2 engine decodes the
/// key whole, whose ExpandA runs four streams at once and whose memory natively is not fresh.
pub fn verify_once_by<P: ParameterSet>(
	engine: Engine,
	public: &P::EncodedPublicKey,
	m_prime: &[&[u8]],
	signature: &P::EncodedSignature,
) -> bool {
	#[cfg(target_arch = "x86_64")]
	if engine.avx2().is_some() {
		return VerifyingKey::<P>::decode_by(engine, public)
			.verify_parts_by(engine, m_prime, signature);
	}
	algorithm_8_by::<P>(&EncodedKey::new::<P>(public), engine, m_prime, signature)
}

/// Algorithm 8 by `engine` (or the portable one, if this CPU cannot run it).
fn algorithm_8_by<P: ParameterSet>(
	key: &impl KeyRows,
	engine: Engine,
	m_prime: &[&[u8]],
	signature: &P::EncodedSignature,
) -> bool {
	#[cfg(target_arch = "x86_64")]
	if let Some(avx2) = engine.avx2() {
		// SAFETY: `avx2` proves the CPU supports AVX2.
		return unsafe { algorithm_8_avx2::<P>(key, avx2, m_prime, signature) };
	}
	let _ = engine;
	algorithm_8::<P>(key, Portable, m_prime, signature)
}

/// [`algorithm_8`] with the AVX2 arithmetic, the rest compiled for AVX2 too.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn algorithm_8_avx2<P: ParameterSet>(
	key: &impl KeyRows,
	avx2: super::avx2::Avx2,
	m_prime: &[&[u8]],
	signature: &P::EncodedSignature,
) -> bool {
	algorithm_8::<P>(key, avx2, m_prime, signature)
}

/// FIPS 204 Algorithm 8 `ML-DSA.Verify_internal(pk, M′, σ)`, inlined into each engine.
#[inline(always)]
fn algorithm_8<P: ParameterSet>(
	key: &impl KeyRows,
	arithmetic: impl Arithmetic,
	m_prime: &[&[u8]],
	signature: &P::EncodedSignature,
) -> bool {
	let parameters = &P::PARAMETERS;
	let (k, l) = (P::K, P::L);
	let (encoded, mut signature) = (signature, DecodedSignature::default());
	if !signature.decode(parameters, encoded.as_ref()) {
		return false;
	}
	if signature.z[..l]
		.iter()
		.any(|poly| poly.infinity_norm() >= parameters.gamma1 - parameters.beta())
	{
		return false;
	}
	// μ = H(tr ‖ M′, 64), the parts of M′ absorbed where they lie.
	let mut mu_hasher = Shake256::new();
	mu_hasher.absorb(key.tr());
	m_prime.iter().for_each(|part| mu_hasher.absorb(part));
	let mut mu = [0u8; 64];
	mu_hasher.finalize().read(&mut mu);
	let mut c_hat = sample_in_ball(signature.c_tilde, parameters.tau);
	arithmetic.ntt(&mut c_hat);
	// z is needed only in the NTT domain from here on.
	let z_hat = &mut signature.z[..l];
	z_hat.iter_mut().for_each(|poly| arithmetic.ntt(poly));
	// w′Approx = NTT⁻¹(Â ∘ NTT(z) − NTT(c) ∘ NTT(t1·2^d)), then w1′ = UseHint(h, w′Approx),
	// a row at a time, each row encoded (w1Encode) as it is made.
	let (mut w1_row, mut approx) = (Poly::default(), Poly::default());
	let mut w1_encoded = [0u8; MAX_W1_BYTES];
	let w1_encoded = &mut w1_encoded[..k * parameters.w1_poly_bytes()];
	for (row, encoded_row) in w1_encoded.chunks_exact_mut(parameters.w1_poly_bytes()).enumerate() {
		key.with_row(arithmetic, row, |a_hat_row, t1_hat| {
			arithmetic.inner_product_minus(a_hat_row, z_hat, &c_hat, t1_hat, &mut approx)
		});
		arithmetic.inverse_ntt(&mut approx);
		arithmetic.use_hints(&signature.hint[row], &approx, parameters.gamma2, &mut w1_row);
		w1_encode_poly(parameters, &w1_row, encoded_row);
	}
	let c_tilde = signature.c_tilde;
	let mut c_tilde_prime = [0u8; 64];
	h(&[&mu, w1_encoded]).read(&mut c_tilde_prime[..c_tilde.len()]);
	c_tilde_prime[..c_tilde.len()] == *c_tilde
}

/// The first two bytes of pure mode's `M′ = 0 ‖ |ctx| ‖ ctx ‖ M` (FIPS 204 Algorithms 2 and 3:
/// domain separator 0, then the context's length); `None` for a context over 255 bytes, which
/// FIPS 204 refuses.
pub fn pure_header(context: &[u8]) -> Option<[u8; 2]> {
	Some([0, u8::try_from(context.len()).ok()?])
}

/// `NTT(t1·2^d)` of a packed `t1` (Algorithm 23's `t1`, 10 bits per coefficient), by `engine`.
fn t1_hat(engine: Engine, packed_t1: &[u8]) -> Box<[Poly]> {
	#[cfg(target_arch = "x86_64")]
	if let Some(avx2) = engine.avx2() {
		return t1_hat_with(avx2, packed_t1);
	}
	let _ = engine;
	t1_hat_with(Portable, packed_t1)
}

fn t1_hat_with(arithmetic: impl Arithmetic, packed_t1: &[u8]) -> Box<[Poly]> {
	// Filled in place, like `Â`: no 1 KiB copies.
	let mut t1_hat =
		alloc::vec![Poly::default(); packed_t1.len() / T1_POLY_BYTES].into_boxed_slice();
	for (poly, packed) in t1_hat.iter_mut().zip(packed_t1.chunks_exact(T1_POLY_BYTES)) {
		t1_hat_poly(arithmetic, packed, poly);
	}
	t1_hat
}

/// One polynomial of `NTT(t1·2^d)` from its packed `t1`, written into `poly`.
#[inline(always)]
fn t1_hat_poly(arithmetic: impl Arithmetic, packed: &[u8], poly: &mut Poly) {
	// t1 < 2^10, so t1·2^d ≤ q − 1 is already reduced.
	for (i, coefficient) in poly.0.iter_mut().enumerate() {
		*coefficient = unpack_bits(packed, i, 10) << D;
	}
	arithmetic.ntt(poly);
}

#[cfg(test)]
mod tests {
	use super::*;
	use crate::{MlDsa44, MlDsa87};

	#[test]
	fn a_matrix_decodes_only_keys_of_its_own_rho_and_level() {
		let matrix = Arc::new(Matrix::expand::<MlDsa87>(&[1; 32]));
		let mut key = [0u8; 2592];
		key[..32].copy_from_slice(&[1; 32]);
		assert!(VerifyingKey::<MlDsa87>::decode_with(matrix.clone(), &key).is_some());
		key[0] = 2;
		assert!(VerifyingKey::<MlDsa87>::decode_with(matrix, &key).is_none());
		let other_level = Arc::new(Matrix::expand::<MlDsa44>(&[1; 32]));
		key[0] = 1;
		assert!(VerifyingKey::<MlDsa87>::decode_with(other_level, &key).is_none());
	}
}
