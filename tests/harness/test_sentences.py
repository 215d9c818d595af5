"""Splitting rulebooks into sections and sentences."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardrules.compiler.front.rulebook import fold
from boardrules.harness.sentences import rulebook_sentences, split_sentences

RULEBOOKS = Path(__file__).resolve().parents[2] / "rulesets"


def test_abbreviations_do_not_end_sentences():
    text = "Buy Main Street U.S.A. Buildings from the Bank. Then build (i.e., evenly). Done!"
    assert split_sentences(text) == [
        "Buy Main Street U.S.A. Buildings from the Bank.", "Then build (i.e., evenly).", "Done!",
    ]


def test_a_quote_closing_a_sentence_stays_with_it():
    assert split_sentences('Go to "Jail." Then wait.') == ['Go to "Jail."', "Then wait."]


def test_headings_lists_and_contents_are_structure():
    text = ("Title Of The Game\n\nTable of Contents\n\n• First\n• Second\n\nFirst\n\n"
            "One rule here. Another rule.\n\n• A listed rule\n1. A numbered step. With two.\n")
    headings, sentences = rulebook_sentences(text)
    assert headings == ["Title Of The Game", "Table of Contents", "First"]
    assert [s.text for s in sentences] == [
        "One rule here.", "Another rule.", "A listed rule", "A numbered step.", "With two."]
    assert {s.section for s in sentences} == {"First"}


def test_an_indented_line_belongs_to_the_list_item_above():
    text = ("A Game\n\nSet It Up\n\n1. Give each player:\n\n   \u2022 5 x2\n\n   (Total = 10)\n\n"
            "   Keep the rest.\n")
    headings, sentences = rulebook_sentences(text)
    assert headings == ["A Game", "Set It Up"]
    assert {s.section for s in sentences} == {"Set It Up"}


@pytest.mark.parametrize("edition", ["disney_theme_park"])
def test_every_sentence_sits_at_its_place_in_the_folded_rulebook(edition):
    text = (RULEBOOKS / edition / "rulebook.txt").read_text()
    folded = fold(text)
    headings, sentences = rulebook_sentences(text)
    assert "Jail" in headings and "Rules for a Short Game (60 to 90 minutes)" in headings
    assert len(sentences) > 100
    for sentence in sentences:
        assert folded[sentence.start:sentence.end] == sentence.text
    starts = [s.start for s in sentences]
    assert starts == sorted(starts)
