import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "agents.md"
SECTIONS = ("The flat action space", "The observation encoding", "PettingZoo", "Gymnasium")


def examples():
    text = DOC.read_text()
    out = []
    for title in SECTIONS:
        body = text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]
        blocks = re.findall(r"```python\n(.*?)```", body, re.S)
        assert blocks, f"the section {title!r} has no example"
        out += [(title, code) for code in blocks]
    return out


@pytest.mark.parametrize(("title", "code"), examples(), ids=lambda v: v if v in SECTIONS else "")
def test_the_examples_of_the_agent_builders_sections_run(title, code, capsys):
    exec(compile(code, f"docs/agents.md ({title})", "exec"), {})
