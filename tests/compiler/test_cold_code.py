"""compiler/build/cold_code.py: the Python-facing functions of Cython's C marked for -O0, the
rest left as Cython wrote it."""

from __future__ import annotations

from boardrules.compiler.build import build_settings
from boardrules.compiler.build.cold_code import (
    COLD_FUNCTIONS,
    POP,
    PUSH,
    mark_cold_functions,
)

C = """static PyObject *__pyx_pw_1m_4Game_3score(PyObject *self, PyObject *arg); /*proto*/
static int __pyx_f_1m_4Game_turn(struct __pyx_obj_1m_Game *self, int p) {
  return p + 1;
}
static PyObject *__pyx_pw_1m_4Game_15invoke(PyObject *__pyx_v_self,
#if CYTHON_VECTORCALL
PyObject *const *__pyx_args, Py_ssize_t __pyx_nargs, PyObject *__pyx_kwds
#else
PyObject *__pyx_args, PyObject *__pyx_kwds
#endif
) {
  #if !CYTHON_VECTORCALL
  Py_ssize_t n;
  #endif
  return NULL;
}
static CYTHON_SMALL_CODE int __pyx_pymod_exec_m(PyObject *module)
{
  return 0;
}"""


def test_def_methods_and_module_setup_are_marked_and_game_code_is_not():
    marked, count = mark_cold_functions(C)
    assert count == 2
    lines = marked.split("\n")
    assert lines[0] == C.split("\n")[0]  # a prototype stays as it is
    assert lines[1].startswith("static int __pyx_f_1m_4Game_turn")  # game code: optimized
    assert lines[4:6] == list(PUSH) and lines[6].startswith("static PyObject *__pyx_pw_")
    assert lines[lines.index("  return NULL;") + 2] == POP
    assert lines[-7:-5] == list(PUSH) and lines[-1] == POP
    # nothing but the pragmas was added
    assert [line for line in lines if line not in (*PUSH, POP)] == C.split("\n")


def test_what_does_not_read_as_one_definition_is_left_alone():
    unclosed = "static PyObject *__pyx_pf_1m_f(PyObject *self) {\n  return 0;\n"
    assert mark_cold_functions(unclosed) == (unclosed, 0)
    two = ("static PyObject *__pyx_pf_1m_f(PyObject *self) {\n  return 0;\n"
           "static int __pyx_f_1m_hot(int x) {\n  return x;\n}")
    assert mark_cold_functions(two) == (two, 0)


def test_only_an_optimized_gcc_build_marks_them_and_its_cache_key_says_so(monkeypatch):
    monkeypatch.setenv("CC", "gcc")
    assert not build_settings.cold_functions_apart("0") and build_settings.cold_functions_apart("1")
    monkeypatch.setenv(build_settings.OPT_LEVEL_ENV, "1")
    assert COLD_FUNCTIONS in build_settings.toolchain()
    monkeypatch.setenv(build_settings.OPT_LEVEL_ENV, "0")
    assert COLD_FUNCTIONS not in build_settings.toolchain()
    monkeypatch.setenv("CC", "clang")
    assert not build_settings.cold_functions_apart("2")  # clang has no such pragma
