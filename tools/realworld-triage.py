#!/usr/bin/env python3
"""Run today's gotriton over the real-world corpus and group every failure by its message.

    python3 tools/realworld-triage.py [-g .build/gotriton] [-r CORPUS] [-o RESULTS.jsonl]

CORPUS defaults to $GOTRITON_REALWORLD or .realworld (made by conformance/realworld/extract.sh).
For every kernel file of conformance/realworld/PROVENANCE.md: `gotriton list --json FILE`
against the kernels CPython's ast finds (tools/realworld_jit.py), and `gotriton check FILE` (its
errors, and the kernels it reports as not checked, grouped by reason).
For every specialization of conformance/realworld/specs.jsonl: `gotriton compile FILE -n K -s SIG
--emit ptx`. The same for our Inductor-shaped examples in conformance/realworld/inductor/. Writes one JSON line per file and per specialization to RESULTS (default
.build/realworld-triage.jsonl), with --write-expected also conformance/realworld/expected.jsonl
(the known failures the Go test accepts), and prints the errors grouped by message shape (names and numbers
replaced), largest group first, with one example each.
"""
import argparse, collections, json, os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import realworld_jit  # noqa: E402

ERROR = re.compile(r"^(?P<pos>\S+?:\d+:\d+): error: (?P<msg>.*)$")
UNCHECKED = re.compile(r"^\S+?:\d+:\d+: warning: kernel '(?P<kernel>[^']+)' not checked: (?P<why>.*)$")


def kernel_files(prov):
    """Corpus-relative paths (NAME/PATH) of the provenance rows with at least one jit function."""
    out = []
    for line in open(prov):
        cells = [c.strip().strip("`") for c in line.split("|")]
        if len(cells) == 8 and re.fullmatch(r"[0-9a-f]{40}", cells[3]) and cells[6].isdigit() and int(cells[6]) > 0:
            out.append(f"{cells[1]}/{cells[4]}")
    return out


def shape(msg):
    """The message with quoted names, numbers and paths replaced, for grouping."""
    msg = re.sub(r"'[^']*'", "'X'", msg)
    msg = re.sub(r'"[^"]*"', '"X"', msg)
    msg = re.sub(r"\(line \d+\)", "(line N)", msg)
    msg = re.sub(r"\(searched [^)]*\)", "(searched ...)", msg)
    return re.sub(r"\b\d+\b", "N", msg)


def run(cmd, timeout=60):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return 124, "", f"timed out after {timeout} s"


def errors(text):
    """[(position, message)] of the positioned errors in gotriton's output; other non-blank lines as ('', line)
    when no positioned error was printed."""
    found = [(m["pos"], m["msg"]) for m in map(ERROR.match, text.splitlines()) if m]
    if not found:
        found = [("", l.strip()) for l in text.splitlines() if l.strip()][:1]
    return found


def discovery(gt, corpus, rel):
    path = os.path.join(corpus, rel)
    want = realworld_jit.kernels(open(path, encoding="utf-8").read(), path)
    rc, out, err = run([gt, "list", "--json", path])
    got = []
    if rc == 0:
        for k in json.loads(out).get("kernels", []):
            got.append((k.get("qualname") or k["name"], k["line"]))
    missing = [f"{q}@{l}" for q, l in want if (q, l) not in got]
    extra = [f"{q}@{l}" for q, l in got if (q, l) not in want]
    return {"kind": "list", "file": rel, "rc": rc, "want": len(want), "got": len(got),
            "missing": missing, "extra": extra, "errors": errors(err) if rc else []}


def check(gt, corpus, rel):
    """`gotriton check FILE`: its errors, and the kernels it did not check with the reason."""
    rc, out, err = run([gt, "check", os.path.join(corpus, rel)])
    unchecked = [m.groupdict() for m in map(UNCHECKED.match, (out + err).splitlines()) if m]
    return {"kind": "check", "file": rel, "rc": rc, "errors": errors(out + err) if rc else [], "unchecked": unchecked}


def unchecked_cause(why):
    """The class of a 'not checked' reason, for grouping."""
    for needle, cause in (("got multiple values for argument", "no launch reached; guessing binds a parameter twice"),
                          ("missing required argument", "no launch reached; a parameter has no value to guess"),
                          ("is not known offline", "no launch reached; a parameter needs host values"),
                          ("does not type-check", "no launch reached; the guessed signature does not type-check"),
                          ("the heuristic for", "no launch reached; a heuristic failed")):
        if needle in why:
            return cause
    return shape(why)


def compile_spec(gt, corpus, spec):
    """Compiles one spec to tile IR, then to PTX; the result names the first stage that failed."""
    base = [gt, "compile", os.path.join(corpus, spec["file"]), "-n", spec["kernel"], "-s", spec["signature"],
            "-w", str(spec.get("num_warps", 4)), "-ns", str(spec.get("num_stages", 3))]
    res = {"kind": "compile", "file": spec["file"], "kernel": spec["kernel"], "signature": spec["signature"],
           "launch": spec.get("launch", ""), "rc": 0, "stage": "", "errors": []}
    for stage in ("tileir", "ptx"):
        rc, out, err = run(base + ["--emit", stage, "-o", os.devnull])
        if rc:
            res.update(rc=rc, stage=stage, errors=errors(out + err))
            break
    return res


def spec_table(results):
    """A markdown table of the specializations: tile IR and PTX results, the error where one failed."""
    rows = ["| file | kernel | launch | tile IR | PTX | error |", "|---|---|---|---|---|---|"]
    for r in results:
        if r["kind"] != "compile":
            continue
        tileir = "no" if r["stage"] == "tileir" else "yes"
        ptx = "yes" if not r["rc"] else "no" if r["stage"] == "ptx" else "-"
        err = r["errors"][0][1] if r["errors"] else ""
        err = re.sub(r"/\S*/\.realworld/", "", err).replace("|", "\\|")
        rows.append(f"| `{r['file']}` | `{r['kernel']}` | {r['launch']} | {tileir} | {ptx} | {err} |")
    return "\n".join(rows)


def write_expected(path, results, corpus):
    """The known failures, one JSON line each, that the Go test accepts (and asks to remove once fixed)."""
    prefix = os.path.abspath(corpus) + os.sep
    with open(path, "w") as f:
        for r in results:
            if r["kind"] == "list" and (r["missing"] or r["extra"] or r["rc"]):
                row = {"kind": "list", "file": r["file"], "missing": r["missing"], "extra": r["extra"]}
            elif r["kind"] in ("check", "compile") and r["rc"]:
                row = {k: r[k] for k in ("kind", "file", "kernel", "signature") if k in r}
                row["error"] = r["errors"][0][1].replace(prefix, "") if r["errors"] else ""
            else:
                row = None
            if row:
                f.write(json.dumps(row) + "\n")
            if r["kind"] == "check" and r["unchecked"]:
                f.write(json.dumps({"kind": "unchecked", "file": r["file"],
                                    "kernels": sorted(u["kernel"] for u in r["unchecked"])}) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-g", "--gotriton", default=os.path.join(ROOT, ".build", "gotriton"))
    ap.add_argument("-r", "--corpus", default=os.environ.get("GOTRITON_REALWORLD", os.path.join(ROOT, ".realworld")))
    ap.add_argument("-o", "--out", default=os.path.join(ROOT, ".build", "realworld-triage.jsonl"))
    ap.add_argument("--table", action="store_true", help="print the specializations as a markdown table")
    ap.add_argument("--write-expected", action="store_true",
                    help="rewrite conformance/realworld/expected.jsonl from this run's failures")
    a = ap.parse_args()
    prov = os.path.join(ROOT, "conformance", "realworld", "PROVENANCE.md")
    specs = [json.loads(l) for l in open(os.path.join(ROOT, "conformance", "realworld", "specs.jsonl")) if l.strip()]
    results = []
    for rel in kernel_files(prov):
        results.append(discovery(a.gotriton, a.corpus, rel))
        results.append(check(a.gotriton, a.corpus, rel))
    for spec in specs:
        results.append(compile_spec(a.gotriton, a.corpus, spec))
    # our own Inductor-shaped examples, named relative to conformance/realworld
    here = os.path.join(ROOT, "conformance", "realworld")
    for rel in sorted(f"inductor/{f}" for f in os.listdir(os.path.join(here, "inductor")) if f.endswith(".py")):
        results.append(discovery(a.gotriton, here, rel))
        results.append(check(a.gotriton, here, rel))
    for l in open(os.path.join(here, "inductor", "specs.jsonl")):
        if l.strip():
            results.append(compile_spec(a.gotriton, here, json.loads(l)))
    with open(a.out, "w") as f:
        for r in results:
            f.write(json.dumps(r) + "\n")

    if a.write_expected:
        write_expected(os.path.join(ROOT, "conformance", "realworld", "expected.jsonl"), results, a.corpus)

    if a.table:
        print(spec_table(results))
        return
    lists = [r for r in results if r["kind"] == "list"]
    print(f"list: {len(lists)} files, {sum(r['want'] for r in lists)} jit functions by ast, "
          f"{sum(r['got'] for r in lists)} found, {sum(len(r['missing']) for r in lists)} missing, "
          f"{sum(len(r['extra']) for r in lists)} extra, {sum(1 for r in lists if r['rc'])} list failures")
    for r in lists:
        if r["missing"] or r["extra"] or r["rc"]:
            print(f"  {r['file']}: missing {r['missing']} extra {r['extra']} {r['errors'][:1]}")
    unchecked = [(r, u) for r in results if r["kind"] == "check" for u in r["unchecked"]]
    print(f"\ncheck: {len(unchecked)} kernels not checked, in {len({r['file'] for r, _ in unchecked})} files")
    causes = collections.defaultdict(list)
    for r, u in unchecked:
        causes[unchecked_cause(u["why"])].append((r, u))
    for cause, items in sorted(causes.items(), key=lambda kv: -len(kv[1])):
        r, u = items[0]
        print(f"  {len(items):4d} x {cause}\n         e.g. {r['file']} {u['kernel']}: {u['why'][:300]}")
    for kind in ("check", "compile"):
        rs = [r for r in results if r["kind"] == kind]
        bad = [r for r in rs if r["rc"]]
        print(f"\n{kind}: {len(rs)} runs, {len(rs) - len(bad)} ok, {len(bad)} failed")
        groups = collections.defaultdict(list)
        for r in bad:
            for pos, msg in r["errors"]:
                groups[shape(msg)].append((r, pos, msg))
        for key, items in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            r, pos, msg = items[0]
            where = pos or r["file"]
            print(f"  {len(items):4d} x {key}\n         e.g. {where}: {msg}" + (f" [{r['kernel']}]" if kind == "compile" else ""))


if __name__ == "__main__":
    main()
