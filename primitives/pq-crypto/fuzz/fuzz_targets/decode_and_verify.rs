//! Arbitrary bytes into every decoder; whatever decodes is verified by every backend, which
//! must agree. Nothing may panic.
#![no_main]

use codec::Decode;
use libfuzzer_sys::fuzz_target;
use pq_crypto::{
	backend::{Libcrux, RustCrypto},
	AccountSignature, AccountSigner, AggregateSignature, Purpose, TransactionSignature,
};

fuzz_target!(|data: &[u8]| {
	let _ = AggregateSignature::decode(&mut &data[..]);
	let _ = TransactionSignature::decode(&mut &data[..]);
	let input = &mut &data[..];
	if let (Ok(signer), Ok(signature)) =
		(AccountSigner::decode(input), AccountSignature::decode(input))
	{
		let message: &[u8] = input;
		assert_eq!(
			signature.verify::<Libcrux>(&signer, message, Purpose::Transaction),
			signature.verify::<RustCrypto>(&signer, message, Purpose::Transaction),
		);
	}
});
