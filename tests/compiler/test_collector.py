"""The cyclic collector is paused in the front end's block and comes back as it was."""

from __future__ import annotations

import gc

import pytest

from boardrules.compiler.common.collector import cycle_collection_paused


def test_the_collector_is_paused_in_the_block_and_back_after_it():
    assert gc.isenabled()
    with cycle_collection_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_an_error_in_the_block_brings_the_collector_back():
    with pytest.raises(KeyError), cycle_collection_paused():
        raise KeyError("x")
    assert gc.isenabled()


def test_a_collector_turned_off_before_stays_off():
    gc.disable()
    try:
        with cycle_collection_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
