"""pytest plugin for tools/triton-suite.sh: GT_SHARD=I/N keeps the tests of every N-th test
function (the I-th of N shards, by the functions' order in the file), so that one test file
can be run over several device calls with no test in two shards. GT_SKIP=FILE drops the tests
named in FILE (one name per line, as results.jsonl writes them), so that a later call can finish
a shard that an earlier call's time limit stopped; GT_ONLY=FILE keeps only the tests FILE names
(to rerun the failures of earlier calls)."""
import os


def pytest_collection_modifyitems(config, items):
    spec = os.environ.get("GT_SHARD")
    if spec:
        i, n = (int(x) for x in spec.split("/"))
        order = {}
        for it in items:
            order.setdefault(getattr(it, "originalname", it.name), len(order))
        items[:] = [it for it in items if order[getattr(it, "originalname", it.name)] % n == i - 1]
    for var, keep in (("GT_SKIP", False), ("GT_ONLY", True)):
        path = os.environ.get(var)
        if path:
            with open(path) as f:
                names = {line.strip() for line in f if line.strip()}
            items[:] = [it for it in items if (it.nodeid.split("::", 1)[-1] in names) == keep]
