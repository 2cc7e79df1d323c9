//! `docs/pallet.md` shows this runtime's own code: each block there marked
//! `<!-- pq-minimal-runtime: NAME -->` is the code between `// docs/pallet.md: NAME` and
//! `// docs/pallet.md: end` in `src/lib.rs` (indentation aside), and every marked region of
//! the source is in the doc. An edit to either without the other fails here.

use std::collections::BTreeMap;

const SOURCE: &str = include_str!("../src/lib.rs");
const DOC: &str = include_str!("../../docs/pallet.md");

/// `lines` without the indentation they all share.
fn dedent(lines: &[&str]) -> String {
	let indent = lines
		.iter()
		.filter(|line| !line.trim().is_empty())
		.map(|line| line.len() - line.trim_start().len())
		.min()
		.unwrap_or(0);
	lines
		.iter()
		.map(|line| line.get(indent..).unwrap_or("").trim_end())
		.collect::<Vec<_>>()
		.join("\n")
}

fn source_regions() -> BTreeMap<String, String> {
	let mut regions = BTreeMap::new();
	let mut current: Option<(String, Vec<&str>)> = None;
	for line in SOURCE.lines() {
		match (line.trim().strip_prefix("// docs/pallet.md: "), &mut current) {
			(Some("end"), Some(_)) => {
				let (name, lines) = current.take().unwrap();
				assert!(regions.insert(name.clone(), dedent(&lines)).is_none(), "{name} twice");
			},
			(Some(name), None) => current = Some((name.to_owned(), Vec::new())),
			(Some(marker), Some((name, _))) => panic!("{marker} inside {name}"),
			(None, Some((_, lines))) => lines.push(line),
			(None, None) => {},
		}
	}
	assert!(current.is_none(), "a region without its end");
	regions
}

fn doc_blocks() -> BTreeMap<String, String> {
	let mut blocks = BTreeMap::new();
	let mut lines = DOC.lines();
	while let Some(line) = lines.next() {
		let Some(name) = line
			.trim()
			.strip_prefix("<!-- pq-minimal-runtime: ")
			.and_then(|rest| rest.strip_suffix(" -->"))
		else {
			continue;
		};
		assert_eq!(lines.next().map(str::trim), Some("```rust"), "{name}: a rust block follows");
		let code: Vec<&str> = lines.by_ref().take_while(|line| line.trim() != "```").collect();
		assert!(blocks.insert(name.to_owned(), dedent(&code)).is_none(), "{name} twice");
	}
	blocks
}

#[test]
fn the_pallet_guide_shows_this_runtimes_code() {
	let (regions, blocks) = (source_regions(), doc_blocks());
	assert!(regions.len() >= 4, "the marked regions of src/lib.rs: {:?}", regions.keys());
	assert!(regions.values().all(|code| !code.trim().is_empty()), "an empty region");
	let rust_blocks = DOC.lines().filter(|line| line.trim() == "```rust").count();
	assert_eq!(rust_blocks, blocks.len(), "every rust block of docs/pallet.md is marked");
	assert_eq!(
		regions.keys().collect::<Vec<_>>(),
		blocks.keys().collect::<Vec<_>>(),
		"the same regions in src/lib.rs and docs/pallet.md"
	);
	for (name, code) in &regions {
		assert_eq!(&blocks[name], code, "docs/pallet.md's {name} is not src/lib.rs's");
	}
}
