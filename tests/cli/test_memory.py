"""recycle/cli/memory.py: the memory ceiling of `run` and `stats` (--max-memory MB)."""
from __future__ import annotations

import resource

from recycle.cli import main
from recycle.cli.memory import restore_memory_ceiling, set_memory_ceiling
from support import FIXTURES


def test_a_ceiling_past_any_address_space_is_no_ceiling():
    """MB so large their bytes pass what setrlimit takes: nothing to lower, and no overflow."""
    before = resource.getrlimit(resource.RLIMIT_AS)
    old = set_memory_ceiling(10 ** 17)
    try:
        assert old is None and resource.getrlimit(resource.RLIMIT_AS) == before
    finally:
        restore_memory_ceiling(old)


def test_run_with_a_huge_max_memory_plays(capsys):
    code = main(["run", str(FIXTURES / "games" / "deal_n.gdl"), "-n", "2", "--seed", "1", "--max-memory",
                 "99999999999999999"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "Traceback" not in err
