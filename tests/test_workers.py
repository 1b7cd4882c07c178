"""laws.workers.fork_map: the build's work side by side in worker processes,
with the same results, in the same order, as one process gives."""
from __future__ import annotations

import os

import pytest

from laws import workers
from laws.model import SourceError


def _square_where(shared, item):
    return shared["offset"] + item * item, os.getpid()


def _fail_on_three(shared, item):
    if item == 3:
        raise SourceError("corpus/x.txt", "has no Law 3", 12)
    return item


def test_results_in_order_from_other_processes():
    got = workers.fork_map(_square_where, range(8), shared={"offset": 100}, workers=2)
    assert [v for v, _ in got] == [100 + i * i for i in range(8)]
    assert {pid for _, pid in got} - {os.getpid()}  # the work left this process


def test_one_worker_or_one_item_runs_here():
    assert workers.fork_map(_square_where, [5], shared={"offset": 0}) == [(25, os.getpid())]
    assert workers.fork_map(_square_where, [1, 2], shared={"offset": 0}, workers=1) == \
        [(1, os.getpid()), (4, os.getpid())]


@pytest.mark.parametrize("n", [1, 2])
def test_a_source_error_in_a_worker_reaches_the_build_whole(n):
    with pytest.raises(SourceError) as err:
        workers.fork_map(_fail_on_three, range(6), workers=n)
    assert (err.value.file, err.value.message, err.value.line, str(err.value)) == \
        ("corpus/x.txt", "has no Law 3", 12, "corpus/x.txt, line 12: has no Law 3")
