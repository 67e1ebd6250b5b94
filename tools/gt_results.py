"""pytest plugin for tools/triton-suite.sh: writes every test's outcome to $GT_RESULTS as one
JSON line as soon as the test ends (name, phase, outcome, and the failure text), so that a
run stopped at its time limit keeps what it measured; junit files only appear at the end."""
import json
import os


def pytest_runtest_logreport(report):
    path = os.environ.get("GT_RESULTS")
    if not path:
        return
    if report.when != "call" and report.outcome == "passed":
        return  # setup and teardown that passed say nothing
    rec = {"test": report.nodeid.split("::", 1)[-1], "when": report.when, "outcome": report.outcome,
           "longrepr": str(report.longrepr)[-3000:] if report.failed or report.skipped else ""}
    with open(path, "a") as f:
        f.write(json.dumps(rec) + "\n")
