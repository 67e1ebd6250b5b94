"""pytest plugin for tools/triton-suite.sh: GT_SHARD=I/N keeps the tests of every N-th test
function (the I-th of N shards, by the functions' order in the file), so that one test file
can be run over several device calls with no test in two shards."""
import os


def pytest_collection_modifyitems(config, items):
    spec = os.environ.get("GT_SHARD")
    if not spec:
        return
    i, n = (int(x) for x in spec.split("/"))
    order = {}
    for it in items:
        order.setdefault(getattr(it, "originalname", it.name), len(order))
    items[:] = [it for it in items if order[getattr(it, "originalname", it.name)] % n == i - 1]
