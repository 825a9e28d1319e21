"""The arbiter's language in Python (issue 62, docs/i18n.md): ``lang=`` on Game.claim and
request(), the module default (set_lang/get_lang, English whatever the locale), figurines, the
same message ids and codes in every language, and a bad language refused with the core's code."""

import pytest

import arbiter
from conftest import cli_json

REPEATED = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]


def test_languages_are_the_catalogs():
    assert arbiter.LANGUAGES[0] == "en"
    assert {"fa", "ar"} <= set(arbiter.LANGUAGES)
    assert arbiter.get_lang() == "en"


def test_a_claim_in_each_language_keeps_its_codes_and_message():
    game = arbiter.Game(moves=REPEATED)
    en = game.claim("threefold")
    fa = game.claim("threefold", lang="fa")
    ar = game.claim("threefold", lang="ar")
    assert en["reason"].startswith("The position with White to move has now stood 3 times")
    assert "سفید" in fa["reason"] and "۳ بار" in fa["reason"]
    assert "الأبيض" in ar["reason"] and "٣ مرات" in ar["reason"]
    for other in (fa, ar):
        assert other["reason_message"] == en["reason_message"]
        assert {k: v for k, v in other.items() if k != "reason"} == {k: v for k, v in en.items() if k != "reason"}
    assert en["reason_message"]["args"]["reason"]["id"] == "claim.threefold.now"


def test_the_module_default_and_figurines():
    game = arbiter.Game(moves=REPEATED[:7])
    previous = arbiter.set_lang("ar")
    try:
        assert previous == "en" and arbiter.get_lang() == "ar"
        ruling = game.claim("threefold", "Ng8")
        assert ruling["correct"] is True and "النقلة المقصودة" in ruling["reason"]
        assert "\u2066Ng8\u2069" in ruling["reason"]  # the move kept left to right
        assert "♘g8" in game.claim("threefold", "Ng8", figurines=True)["reason"]
        assert game.claim("threefold", "Ng8", lang="en")["reason"].startswith("The intended Ng8")
    finally:
        arbiter.set_lang(previous)
    with pytest.raises(arbiter.OptionError) as e:
        arbiter.set_lang("de")
    assert e.value.code == "bad_value" and e.value.field == "lang"
    assert arbiter.get_lang() == "en"


def test_a_language_without_a_catalog_is_refused_as_every_face_refuses_it(cli):
    game = arbiter.Game(moves=REPEATED)
    with pytest.raises(arbiter.OptionError) as e:
        game.claim("threefold", lang="de")
    assert e.value.code == "bad_value" and e.value.field == "lang"
    with pytest.raises(arbiter.OptionError) as e2:
        arbiter.request("claim", moves=" ".join(REPEATED), kind="threefold", lang="de")
    assert (e2.value.code, e2.value.field) == (e.value.code, e.value.field)
    with pytest.raises(TypeError):
        game.claim("threefold", lang=3)


def test_request_and_the_cli_give_the_same_ruling_in_persian(cli):
    moves = " ".join(REPEATED)
    via_request = arbiter.request("claim", moves=moves, kind="fifty", lang="fa", figurines=True)
    via_cli = cli_json(cli, "claim", "fifty", "--moves", moves, "--lang", "fa", "--figurines", "--json")
    assert via_request == via_cli
    assert "۵۰ حرکت برای هر بازیکن" in via_request["reason"]
