"""Calling checkers in tests: a result, or the BadRequest a bad input raises."""
from __future__ import annotations

import pytest

from laws.checkers import registry
from laws.web.errors import BadRequest


def run(checker_id, **data):
    return registry.run(checker_id, data)


def bad(checker_id, **data) -> BadRequest:
    with pytest.raises(BadRequest) as info:
        registry.run(checker_id, data)
    return info.value
