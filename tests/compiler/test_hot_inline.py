"""compiler/build/hot_inline.py: a procedure's entry tests and the kernel's payment marked
always_inline in Cython's C, the rest left as Cython wrote it."""

from __future__ import annotations

from boardrules.compiler.build import build_settings
from boardrules.compiler.build.hot_inline import ALWAYS_INLINE, MARKED, mark_hot_inline

C = """static CYTHON_INLINE int __pyx_f_1m_4Game_proc_charge(struct G *, int); /*proto*/
static CYTHON_INLINE int __pyx_f_1m_10Primitives_k_pay(struct P *s, int a) {
  return a;
}
static CYTHON_INLINE int __pyx_f_1m_4Game_proc_charge(struct G *s, int p) {
  return __pyx_f_1m_4Game_rest_proc_charge(s, p);
}
static int __pyx_f_1m_4Game_rest_proc_charge(struct G *s, int p) {
  return p;
}
static CYTHON_INLINE int __pyx_f_1m_4Game_proc_owns_group(struct G *s, int p) {
  return p;
}
static int __pyx_f_1m_4Game_proc_build(struct G *s, int p) {
  return p;
}"""


def test_entry_tests_and_the_payment_are_marked_and_nothing_else():
    lines, count = mark_hot_inline(C)
    forced = [n for n, line in enumerate(lines.split("\n")) if ALWAYS_INLINE in line]
    # k_pay's definition and proc_charge's (not its prototype, its rest or the others)
    assert (count, forced) == (2, [1, 4])
    assert lines.replace(ALWAYS_INLINE, "") == C


def test_a_module_without_entry_tests_still_marks_the_payment_and_no_payment_no_marks():
    without_rest = "\n".join(line for line in C.split("\n") if "rest_" not in line)
    assert mark_hot_inline(without_rest)[1] == 1
    assert mark_hot_inline("static int __pyx_f_1m_4Game_turn(int p) {\n}") == (
        "static int __pyx_f_1m_4Game_turn(int p) {\n}", 0)


def test_a_function_not_declared_inline_is_not_forced():
    plain = ("static int __pyx_f_1m_4Game_proc_x(int p) {\n}\n"
             "static int __pyx_f_1m_4Game_rest_proc_x(int p) {\n}")
    assert mark_hot_inline(plain) == (plain, 0)


def test_only_an_optimized_gcc_build_marks_them_and_its_cache_key_says_so(monkeypatch):
    monkeypatch.setenv("CC", "gcc")
    for level, marks in (("0", False), ("1", True), ("pgo", True)):
        monkeypatch.setenv(build_settings.OPT_LEVEL_ENV, level)
        assert build_settings.hot_calls_inline(level) is marks
        assert (MARKED in build_settings.toolchain()) is marks
    monkeypatch.setenv("CC", "clang")  # gcc's attribute, tried with gcc only
    assert not build_settings.hot_calls_inline("2")
