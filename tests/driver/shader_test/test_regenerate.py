"""The generated part of the corpus is what gen_corpus.py writes (tinygrad-style autogen check)."""

from tests.driver.shader_test import gen_corpus


def test_generated_corpus_is_up_to_date(capsys):
    assert gen_corpus.main(["--check"]) == 0, capsys.readouterr().out
