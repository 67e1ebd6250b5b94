#!/usr/bin/env python3
"""Writes docs/triton-suite.md from one or more runs of tools/triton-suite.sh.

    tools/triton-suite-report.py [--test-file test_core.py] [--commit C] -o docs/triton-suite.md DIR...

Each DIR holds results.jsonl.gz (every test's outcome with gotriton's PTX; gt.xml, junit, is
read when it is missing), gt.jsonl.gz (the plugin's compile log) and, when some test failed,
control.jsonl (Triton alone on the failures). A test that several DIRs ran takes the outcome of
the last of them (list a rerun of earlier failures after the runs it reruns). Per test:
  - not counted: skipped by the test itself, a kernel the harness could not hand to gotriton
    ("skip" in the log), or a failure that Triton alone shares (the control failed or skipped);
  - not applicable: it failed on Triton's own intermediate text (asm['ttgir'], 'llir', 'ttir');
  - counted, and then: passed; refused (gotriton refused a kernel: the reason is its message);
    or compiled-and-failed, split into wrong (a numerical assertion), check (another assertion,
    e.g. on our PTX text) and crash (a launch or runtime error).
"""
import argparse, collections, gzip, json, os, re, subprocess, sys, xml.etree.ElementTree as ET

NA = re.compile(r"""asm\[\s*['"](ttgir|llir|ttir|amdgcn)['"]\s*\]""")
NUMERIC = re.compile(r"Not equal to tolerance|Mismatched elements|Tensor-likes are not (close|equal)|assert_close|assert_allclose|assert_array_equal|Arrays are not")
# Tests that check what the harness itself replaces, not the compiler: not applicable.
HARNESS_NA = {
    "test_value_specialization": "it reads the kernel name that @triton.jit(repr=...) derives from the "
    "specialization; the harness hands gotriton the kernel's body without that decorator and gives Triton "
    "our entry name",
}
CRASH = re.compile(r"CUDA error|illegal memory access|misaligned address|RuntimeError: Triton Error|device-side assert|out of resource|CUDA_ERROR")


def outcomes(d, stem):
    """name -> (outcome, message): from STEM.jsonl(.gz), which gt_results.py writes as tests
    end (a run stopped at its limit keeps it), else from the junit file STEM.xml."""
    for path in (os.path.join(d, stem + ".jsonl.gz"), os.path.join(d, stem + ".jsonl")):
        if os.path.exists(path):
            out = {}
            opener = gzip.open if path.endswith(".gz") else open
            with opener(path, "rt") as f:
                for line in f:
                    r = json.loads(line)
                    prev = out.get(r["test"])
                    if prev and prev[0] in ("failed", "error"):
                        continue  # a failed call stays failed whatever its teardown says
                    outcome = r["outcome"]
                    if r["when"] != "call" and outcome == "failed":
                        outcome = "error"
                    out[r["test"]] = (outcome, r.get("longrepr", ""))
            return out
    return junit(os.path.join(d, stem + ".xml"))


def junit(path):
    """name -> (outcome, message) for every testcase of a junit file."""
    out = {}
    if not os.path.exists(path):
        return out
    for tc in ET.parse(path).iter("testcase"):
        name, outcome, msg = tc.get("name"), "passed", ""
        for tag in ("failure", "error", "skipped"):
            e = tc.find(tag)
            if e is not None:
                outcome = {"failure": "failed", "error": "error", "skipped": "skipped"}[tag]
                msg = (e.get("message") or "") + "\n" + (e.text or "")
                break
        out[name] = (outcome, msg)
    return out


def compile_log(path):
    """test name -> list of log records."""
    recs = collections.defaultdict(list)
    if not os.path.exists(path):
        return recs
    with gzip.open(path, "rt") as f:
        for line in f:
            try:
                r = json.loads(line)
            except ValueError:
                continue
            t = r.get("test", "")
            t = t.split("::", 1)[-1].rsplit(" (", 1)[0]
            recs[t].append(r)
    return recs


def reason(text):
    """The first line of a gotriton message, without the file position, shortened."""
    for line in text.splitlines():
        line = line.strip()
        if "error:" in line:
            line = line.split("error:", 1)[1].strip()
            break
    else:
        line = text.strip().splitlines()[0] if text.strip() else "(no message)"
    line = re.sub(r"'[^']*\.gt_[^']*\.py'|\S*\.gt_\S*\.py", "FILE", line)
    line = re.sub(r"\b\d+\b", "N", line)
    return line[:160]


def failing_lines(msg):
    """The lines of a pytest failure text that say what failed: the source line marked '>'
    and the 'E' lines (the rest is the test's source, which names every branch it has)."""
    return "\n".join(l for l in msg.splitlines() if l.startswith(">") or l.startswith("E "))


def classify(name, gt, log, control):
    outcome, full = gt
    msg = failing_lines(full) or full
    recs = log.get(name, [])
    if outcome == "skipped":
        return "skipped", ""
    if any(r["outcome"] == "skip" for r in recs):
        return "harness", next(r["why"] for r in recs if r["outcome"] == "skip")[:160]
    if outcome == "passed":
        return "passed", ""
    c = control.get(name)
    if c is not None and c[0] != "passed":
        return "triton-fails", ""
    if NA.search(msg):
        return "n/a", NA.search(msg).group(0)
    if name.split("[", 1)[0] in HARNESS_NA:
        return "n/a", HARNESS_NA[name.split("[", 1)[0]]
    refused = [r for r in recs if r["outcome"] == "fail"]
    if refused:
        return "refused", reason(refused[0]["why"])
    if CRASH.search(msg):
        return "crash", CRASH.search(msg).group(0)
    if NUMERIC.search(msg):
        return "wrong", ""
    e = [l[1:].strip() for l in msg.splitlines() if l.startswith("E ")]
    first = " ".join(e[:2]) if e else (msg.strip().splitlines()[0] if msg.strip() else "")
    first = re.sub(r" at 0x[0-9a-f]+", "", first)
    first = re.sub(r"'//\\n// Generated by gotriton.*", "OUR_PTX", first)
    return "check", first[:200]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("-o", required=True)
    ap.add_argument("--commit", default="")
    ap.add_argument("--date", default="")
    ap.add_argument("--scope", default="the whole file", help="what was run, for the page's first line")
    ap.add_argument("--notes", help="a Markdown file appended to the page (the explanations written by hand)")
    args = ap.parse_args()
    per = collections.defaultdict(collections.Counter)
    why = collections.defaultdict(collections.Counter)
    examples = {}
    total = collections.Counter()
    final = {}  # name -> (class, reason): a later DIR's outcome replaces an earlier one's (a rerun)
    for d in args.dirs:
        gt, control, log = outcomes(d, "results"), outcomes(d, "control"), compile_log(os.path.join(d, "gt.jsonl.gz"))
        for name, res in gt.items():
            final[name] = classify(name, res, log, control)
    for name in sorted(final):
        cls, r = final[name]
        fn = name.split("[", 1)[0]
        per[fn][cls] += 1
        total[cls] += 1
        if r:
            why[(fn, cls)][r] += 1
        if cls in ("wrong", "check", "crash"):
            examples.setdefault((fn, cls, r), name)
    counted = sum(total[c] for c in ("passed", "refused", "wrong", "check", "crash"))
    commit = args.commit or subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    date = args.date or subprocess.run(["date", "-u", "+%Y-%m-%d"], capture_output=True, text=True).stdout.strip()
    w = []
    w.append("# Triton's test_core.py on gotriton's PTX\n")
    w.append(f"Run {date} at commit {commit} on the H200 (Triton 3.6.0, torch 2.11) with `tools/triton-suite.sh` "
             f"({args.scope}, pytest-xdist) and `tools/triton-suite-report.py`. Triton parses each kernel and builds its "
             "launcher; at the PTX stage the plugin compiles the same kernel with gotriton and runs our PTX, and the "
             "test's own assertions judge it. Tests that failed were re-run with Triton alone as the control.\n")
    pct = 100.0 * total["passed"] / counted if counted else 0.0
    w.append(f"**Counted: {counted} tests; passed {total['passed']} ({pct:.2f}%), refused {total['refused']}, "
             f"wrong results {total['wrong']}, other assertion failures {total['check']}, crashes {total['crash']}.** "
             f"Not counted: {total['skipped']} skipped by the test, {total['harness']} the harness could not hand to gotriton, "
             f"{total['triton-fails']} that fail with Triton alone too; {total['n/a']} not applicable (they read Triton's "
             "own TTGIR/LLVM IR, or what the harness replaces: below).\n")
    w.append("| test function | counted | passed | refused | wrong | check | crash | n/a | not counted |")
    w.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for fn in sorted(per):
        c = per[fn]
        cnt = sum(c[k] for k in ("passed", "refused", "wrong", "check", "crash"))
        w.append(f"| {fn} | {cnt} | {c['passed']} | {c['refused']} | {c['wrong']} | {c['check']} | {c['crash']} | {c['n/a']} | "
                 f"{c['skipped'] + c['harness'] + c['triton-fails']} |")
    w.append("\n## Why the counted tests that did not pass failed\n")
    for cls, title in (("wrong", "Wrong results (numerical assertions)"), ("crash", "Crashes"), ("check", "Other assertions"), ("refused", "Refusals"), ("n/a", "Not applicable (not counted)")):
        rows = [(fn, r, n) for (fn, c), rs in why.items() if c == cls for r, n in rs.items()]
        rows += [(fn, "", per[fn][cls]) for fn in per if per[fn][cls] and not why.get((fn, cls))]
        if not rows:
            continue
        w.append(f"### {title}\n")
        for fn, r, n in sorted(rows, key=lambda x: (-x[2], x[0])):
            ex = examples.get((fn, cls, r), "")
            w.append(f"- `{fn}` ({n}){': ' + r if r else ''}{' — e.g. `' + ex + '`' if ex else ''}")
        w.append("")
    harness = [(fn, r, n) for (fn, c), rs in why.items() if c == "harness" for r, n in rs.items()]
    if harness:
        w.append("## Not counted: kernels the harness could not hand to gotriton\n")
        for fn, r, n in sorted(harness, key=lambda x: (-x[2], x[0]))[:40]:
            w.append(f"- `{fn}` ({n}): {r}")
        w.append("")
    if args.notes:
        with open(args.notes) as f:
            w.append(f.read().rstrip() + "\n")
    os.makedirs(os.path.dirname(args.o) or ".", exist_ok=True)
    with open(args.o, "w") as f:
        f.write("\n".join(w) + "\n")
    print(f"counted {counted}, passed {total['passed']} ({pct:.2f}%), refused {total['refused']}, wrong {total['wrong']}, "
          f"check {total['check']}, crash {total['crash']}, n/a {total['n/a']}")


if __name__ == "__main__":
    main()
