#!/usr/bin/env python3
"""The answer shapes written outside C++ name the keys the writers print (issue 61 part 4).

docs/json.md's key tables are held to what the commands print by cli.json_vocabulary (every key
printed is documented, every documented key printed). This test holds the two declarations of
the same shapes to those tables: Python's TypedDicts (python/arbiter/types.py) and the
TypeScript declarations (wasm/js/index.d.ts). A key added to a writer, then to docs/json.md (or
the vocabulary test fails), and missing in a stub fails here; so does a stub's key that no
writer prints.

Usage: answer_shapes_test.py SOURCE_DIR
"""
import ast
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")

# (docs/json.md section, a key prefix in it ("" for the top level), Python TypedDict, TypeScript type)
SHAPES = [
    ("status", "", "Status", "Status"),
    ("status", "claims.threefold", "ClaimOption", "OpenClaim"),
    ("status", "repetition", "Repetition", None),
    ("claim", "", "Claim", "ClaimVerdict"),
    ("claim", "penalty", "Penalty", "ClaimPenalty"),
    ("dead", "", "Dead", "DeadAnswer"),
    ("audit jsonl", "", "AuditRecord", "AuditRecord"),
    ("audit jsonl", "findings[]", "Finding", "Finding"),
    ("object termination", "", "Termination", "Termination"),
    ("object cited", "", "Cited", "CitedPosition"),
    ("object lookalike", "", "Lookalike", "Lookalike"),
]


def doc_keys(section, prefix, leave_out=()):
    """The keys one level below `prefix` in a section of docs/json.md, but those whose meaning
    starts with one of `leave_out` (such as "`--batch` only": printed by the CLI alone)."""
    keys, current, left_out = set(), None, set()
    for line in open(os.path.join(ROOT, "docs", "json.md"), encoding="utf-8"):
        m = re.match(r"^## (.+?)\s*$", line)
        if m:
            current = m.group(1)
            continue
        m = re.match(r"^\| `([^`]+)` \| [^|]* \| ([^|]*)", line)
        if not m or current != section:
            continue
        path = m.group(1)
        if prefix:
            if not path.startswith(prefix + "."):
                continue
            path = path[len(prefix) + 1:]
        root = re.split(r"[.\[]", path)[0]
        if m.group(2).strip().startswith(tuple(leave_out)):
            left_out.add(root)  # and its keys below
        elif root not in left_out:
            keys.add(root)
    return keys


def python_keys(name):
    tree = ast.parse(open(os.path.join(ROOT, "python", "arbiter", "types.py"), encoding="utf-8").read())
    classes = {c.name: c for c in tree.body if isinstance(c, ast.ClassDef)}

    def of(cls):
        out = set()
        for base in cls.bases:
            if isinstance(base, ast.Name) and base.id in classes:
                out |= of(classes[base.id])
        return out | {s.target.id for s in cls.body if isinstance(s, ast.AnnAssign)}
    return of(classes[name])


def typescript_keys(name):
    """The keys of an interface or type of index.d.ts: its own braces' top level, every member of
    a union or intersection, and what it extends or names (VerdictBase & {…})."""
    text = open(os.path.join(ROOT, "wasm", "js", "index.d.ts"), encoding="utf-8").read()
    m = re.search(r"^(?:export )?(interface|type) " + name + r"\b(?:<[^>]*>)?", text, re.M)
    assert m, "index.d.ts: no type " + name
    i, depth, start = m.end(), 0, m.end()
    # The declaration: to the interface's closing brace, or to the type's ";" at depth 0.
    while True:
        c = text[i]
        if c in "{(<":
            depth += 1
        elif c in "})>":
            depth -= 1
            if depth == 0 and m.group(1) == "interface" and c == "}":
                break
        elif c == ";" and depth == 0 and m.group(1) == "type":
            break
        i += 1
    decl = re.sub(r"/\*.*?\*/", "", text[start:i + 1], flags=re.S)
    keys, depth, outer = set(), 0, []
    for c in decl:  # the text at brace depth 0 (names) and 1 (keys)
        if c == "{":
            depth += 1
            outer.append("\n" if depth == 1 else "")
            continue
        if c == "}":
            depth -= 1
            outer.append("\n")
            continue
        outer.append(c if depth <= 1 else "")
        if depth == 0:
            continue
    flat = "".join(outer)
    keys = set(re.findall(r"(?:^|[;\n{])\s*([a-z_]+)\??:", flat, re.M))
    header = re.sub(r"\{[^{}]*\}", "", decl)
    while re.search(r"\{[^{}]*\}", header):
        header = re.sub(r"\{[^{}]*\}", "", header)
    for ref in re.findall(r"\b([A-Z][A-Za-z]+)\b", header):
        if ref != name and re.search(r"^(?:export )?(?:interface|type) " + ref + r"\b", text, re.M):
            keys |= typescript_keys(ref)  # what it extends or joins (its fields' types are inside braces)
    return keys


def main():
    failures = []
    for section, prefix, py, ts in SHAPES:
        # Python's dead() takes timing; no face but the CLI reads a batch, and JavaScript asks no times.
        for lang, name, leave_out in (("types.py", py, ["`--batch` only"]),
                                      ("index.d.ts", ts, ["`--batch` only", "`--timing` only"])):
            if name is None:
                continue
            want = doc_keys(section, prefix, leave_out)
            assert want, f"docs/json.md: no keys under {section!r} {prefix!r}"
            got = python_keys(name) if lang == "types.py" else typescript_keys(name)
            if got != want:
                failures.append(f"{lang} {name} vs docs/json.md {section} {prefix or '(top)'}: "
                                f"missing {sorted(want - got)}, not printed {sorted(got - want)}")
    for f in failures:
        print("FAIL", f)
    print(f"{len(SHAPES) * 2 - len(failures)} shapes agree, {len(failures)} differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
