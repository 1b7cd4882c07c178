"""Comparing editions: which laws, which provisions and which words changed.

One module per stage, data flowing one way (a module imports only from the
modules before it; tests/test_compare_package.py checks it):

    text       normalising a text, word ops, cross-references changed in place, tables as text
    align      provisions cut into units and paired into groups (a law, or a whole code)
    changes    the groups as changes: status, word ops, order either way
    summary    changes counted and said in one line
    overrides  the corpus's curated alignments, read and checked
    stored     the build: successive codes compared, the rows the store keeps
    ondemand   serve time: any other pair compared from the store, cached
    read       the web app's reading: CONTRACT.md's GET /api/diff and the pages

Build time (`build`): successive codes of each family (for each law, every
code that has it against the next one that has it: `successive_pairs`) are
compared, each pair of codes aligned whole (`changes.compare_code`: a
provision may move to another law).  That is linear in editions: thirty codes of one family make
twenty-nine pairs, not 435.  Serve time (`law_data`): any other pair of codes
(2007 against a rubber code, or two codes of a family further apart) is
compared when a reader first asks for it, by the same function over the
read-only store.  Query time (`pairs`, `overview`, `diff`, `history`): plain
functions over the read-only store.

This module re-exports what the rest of the application calls, so that
`from laws import compare; compare.diff(...)` goes on working.  `align` and
`summary` are the modules here, not the functions of those names (import
them from `laws.compare.align` and `laws.compare.summary`).  Tunable values
(the aligner's thresholds, `ondemand.ON_DEMAND_LAWS`) are not re-exported:
setting a copy here would change nothing.
"""
from __future__ import annotations

from laws.compare.align import coverage, expand, units
from laws.compare.changes import STATUSES, compare_code, compare_law
from laws.compare.ondemand import compute_law, law_data
from laws.compare.overrides import OVERRIDES, load_overrides
from laws.compare.read import diff, history, law_comparison, other_pairs, overview, pairs
from laws.compare.stored import build, compare_pair_law, successive_pairs
from laws.compare.stored import editions_by_id as _editions  # laws.web.compare reads the editions through it
from laws.compare.summary import counts, law_status
from laws.compare.text import citation_changes, normalise, reverse_ops, word_ops

__all__ = [
    "OVERRIDES", "STATUSES", "build", "citation_changes", "compare_code", "compare_law", "compare_pair_law", "compute_law",
    "counts", "coverage", "diff", "expand", "history", "law_comparison", "law_data", "law_status",
    "load_overrides", "normalise", "other_pairs", "overview", "pairs", "reverse_ops", "successive_pairs",
    "units", "word_ops",
]
