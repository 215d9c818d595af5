"""Warnings say what they are about, and come before a command's summary on a pipe."""

from __future__ import annotations

import subprocess
import sys


def test_a_local_that_hides_a_definition_names_it(editions):
    c = editions.compile("rule r { on turn(p: player) { let s1 = 2 } }\n")
    [warning] = [w for w in c.warnings if "hides" in w.message]
    assert warning.message == "local 's1' hides the space 's1' (ed.rules:9)"
    assert warning.code == "hidden-definition"


def test_a_local_that_hides_a_procedure_or_an_enum_member(editions):
    c = editions.compile("proc helper() { }\n"
                         "rule r { on turn(p: player) { helper()\n let helper = 1\n"
                         " let special = 2 } }\n")
    messages = sorted(w.message for w in c.warnings if "hides" in w.message)
    assert messages == ["local 'helper' hides the procedure 'helper' (ed.rules:13)",
                        "local 'special' hides the member 'special' of enum kind (ed.rules:6)"]


def test_warnings_come_before_the_summary_on_a_pipe(editions):
    path = editions.write("rule r { on turn(p: player) { let s1 = 2 } }\n")
    for command in (["check"], ["test", "--backend", "interpreted"]):
        run = subprocess.run([sys.executable, "-m", "boardrules.cli", *command, str(path)],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             timeout=300, check=False)
        assert run.returncode == 0, run.stdout
        out = run.stdout
        assert "warning: local 's1' hides the space 's1'" in out, (command, out)
        summary = "warning(s)" if command == ["check"] else "passed, 0 failed"
        assert out.index("hides the space") < out.index(summary), (command, out)
