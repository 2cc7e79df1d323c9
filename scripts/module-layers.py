#!/usr/bin/env python3
"""Checks that a crate's imports point down: no cycle among its top-level modules.

A top-level module (a file `src/x.rs` or a directory `src/x/`) imports another when its code —
`use crate::…`/`super::…` trees or `crate::…` paths, tests left out — names an item of it
(an item the crate root re-exports counts as its module's). The crate root is the crate's
wiring (`mod` declarations, re-exports; in a pallet, `Config` and storage) and is left out.
Without cycles the modules stack in floors, each importing only from those below; a cycle is
printed with the imports that make it, and the script exits 1.

    scripts/module-layers.py CRATE_DIR...
"""
import os
import re
import sys

# Modules compiled only for tests: they sit above everything by nature.
TEST_ONLY = {"tests", "mock"}


def top_level_modules(src):
    """Each source file's top-level module name (None for the crate root)."""
    modules = {}
    for directory, _, files in os.walk(src):
        for name in files:
            if not name.endswith(".rs"):
                continue
            path = os.path.join(directory, name)
            parts = os.path.relpath(path, src)[: -len(".rs")].split(os.sep)
            if parts in (["lib"], ["main"]):
                modules[path] = None
            else:
                modules[path] = parts[0]
    return modules


def without_tests_and_comments(text):
    text = re.split(r"#\[cfg\(test\)\]\s*mod tests\b", text)[0]
    return re.sub(r"//[^\n]*", "", text)


def use_tree_paths(tree, prefix=()):
    """The paths a use tree names: `a::{b, c::{d}}` gives a::b and a::c::d."""
    tree = tree.strip()
    brace = tree.find("{")
    if brace < 0:
        return [prefix + tuple(p for p in tree.split("::") if p and p != "self")]
    head = tuple(p for p in tree[:brace].split("::") if p)
    body = tree[brace + 1 : tree.rfind("}")]
    paths, depth, item = [], 0, ""
    for char in body + ",":
        depth += char == "{"
        depth -= char == "}"
        if char == "," and depth == 0:
            if item.strip():
                paths += use_tree_paths(item, prefix + head)
            item = ""
        else:
            item += char
    return paths


def root_reexports(root_text):
    """Items the crate root re-exports from a module: `pub use m::{A, B}` gives A, B → m."""
    reexports = {}
    for match in re.finditer(r"pub use (\w+)::([^;]*);", root_text):
        for path in use_tree_paths(match.group(2)):
            if path:
                name = path[-1].split(" as ")[-1].strip()
                reexports[name] = match.group(1)
    return reexports


def imports(crate):
    src = os.path.join(crate, "src")
    modules = top_level_modules(src)
    names = {m for m in modules.values() if m}
    root = next(p for p, m in modules.items() if m is None)
    reexports = root_reexports(open(root).read())
    edges = {}
    for path, module in modules.items():
        if module is None or module in TEST_ONLY:
            continue
        depth = len(os.path.relpath(path, src).split(os.sep)) - (
            1 if os.path.basename(path) != "mod.rs" else 2
        )
        text = without_tests_and_comments(open(path).read())
        found = []
        for use in re.finditer(r"\buse\s+(crate|super)::([^;]*);", text, re.S):
            found += [(use.group(1), p) for p in use_tree_paths(use.group(2))]
        for use in re.finditer(r"(?<!use )\b(crate|super)::((?:\w+::)*\w+)", text):
            found.append((use.group(1), tuple(use.group(2).split("::"))))
        for base, target in found:
            if not target:
                continue
            if base == "super" and depth > 0:
                continue  # inside its own top-level module
            first = target[0]
            other = first if first in names else reexports.get(first)
            if other and other != module and other not in TEST_ONLY:
                edges.setdefault(module, {}).setdefault(other, set()).add("::".join(target))
    return edges


def cycles(edges):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in edges.get(node, {}):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = set()
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.add(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(component)

    for node in list(edges):
        if node not in index:
            visit(node)
    return found


def main(crates):
    failed = False
    for crate in crates:
        edges = imports(crate)
        for component in cycles(edges):
            failed = True
            print(f"{crate}: modules that import each other: {', '.join(sorted(component))}")
            for module in sorted(component):
                for other, items in sorted(edges.get(module, {}).items()):
                    if other in component:
                        print(f"  {module} -> {other}: {', '.join(sorted(items))}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
