"""Real-set style families: every face drawn and distinct, sets vary, labels hold their tiles, held-out families stay out."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from pungchow_data.faces import FAMILY_STYLES, STYLES, family_variant, missing_fonts, render_faces, resolve_styles, style_available
from pungchow_data.realsets import (
    CORNERS,
    FAMILIES,
    HOLDOUT_FAMILIES,
    OTHER_MARKS,
    PRINTED,
    design,
    family_fonts,
    family_names,
    missing_family_fonts,
    missing_glyphs,
    printed,
    printed_characters,
)
from pungchow_data.scene import render_scene
from scoring.errors import PungChowError
from scoring.tiles import ALL_CODES
from tests.test_data_synthetic import quads_holding_another_tile

AVAILABLE = [n for n in FAMILIES if style_available(FAMILY_STYLES[n])]
MISSING_PACKAGES = sorted({p for n in FAMILIES for p in str(missing_family_fonts(FAMILIES[n]) or "").split()[-1:]
                           if p.startswith("fonts-")})
needs_fonts = pytest.mark.skipif(len(AVAILABLE) < len(FAMILIES),
                                 reason="some real-set family fonts missing: apt-get install " + " ".join(MISSING_PACKAGES))


@needs_fonts
@pytest.mark.parametrize("name", list(FAMILIES))
def test_every_face_is_drawn_and_distinct(name: str) -> None:
    style = family_variant(FAMILY_STYLES[name], np.random.default_rng(5))
    faces = render_faces(style)
    assert set(faces) == set(ALL_CODES)
    flat = {c: f[..., :3].astype(np.float32) for c, f in faces.items()}
    blank = flat["WD"]
    for code in ALL_CODES:
        if code not in ("WD", "XX"):
            assert np.abs(flat[code] - blank).mean() > 2.0, f"{name} {code} is an empty face"
    for a in ("1C", "2C", "1F", "1S", "EW"):
        for b in ("1C", "2C", "1F", "1S", "EW"):
            if a < b:
                assert np.abs(flat[a] - flat[b]).mean() > 1.0, f"{name}: {a} and {b} look the same"


@needs_fonts
@pytest.mark.parametrize("name", list(FAMILIES))
def test_every_font_of_a_family_draws_every_character_its_sets_print(name: str) -> None:
    family = FAMILIES[name]
    text = printed_characters(family)
    for key in family_fonts(family):
        assert missing_glyphs(key, text) == "", f"{name}: font {key} has no glyph for these"


def test_mainland_sets_print_the_simplified_forms_and_others_the_traditional() -> None:
    mainland = design(FAMILIES["real-mainland"], 3)
    kai = design(FAMILIES["real-kai"], 3)
    assert printed(mainland, "萬發東蘭南") == "万发东兰南"
    assert printed(kai, "萬發東蘭南") == "萬發東蘭南"


def test_flower_and_season_numbers_are_not_always_told_apart_by_colour() -> None:
    """Half the sets ink every flower and season number alike, so the classifier must read the number itself."""
    designs = [design(FAMILIES["real-kai"], v) for v in range(200)]
    one_ink = sum(d.bonus_ink is not None for d in designs)
    assert 60 < one_ink < 140
    assert {d.bonus_ink for d in designs if d.bonus_ink is not None} >= {(185, 28, 32), (28, 60, 150), (22, 115, 62), (28, 26, 30)}


def test_a_set_drawing_its_own_bird_makes_every_other_choice_the_same() -> None:
    """The drawn bird comes from a stream of its own: a set's fonts, inks and drawings do not move with the share."""
    family = FAMILIES["real-kai"]
    without = replace(family, drawn_birds=0.0)
    drawn = 0
    for v in range(200):
        a, b = design(family, v), design(without, v)
        assert replace(a, bird=b.bird) == b
        drawn += a.bird == "drawn"
    assert 0.45 * 200 < drawn < 0.75 * 200  # DRAWN_BIRDS 0.6
    assert all(design(without, v).bird != "drawn" for v in range(200))


def test_held_out_families_keep_their_crane_and_never_draw_a_bird_of_their_own() -> None:
    """The crane is the held-out families' own bird: no training family draws it, so it measures an unseen drawing."""
    for name in HOLDOUT_FAMILIES:
        assert FAMILIES[name].drawn_birds == 0.0 and "crane" in FAMILIES[name].birds
        assert all(design(FAMILIES[name], v).bird != "drawn" for v in range(100))
    for name in family_names(["train"]):
        assert FAMILIES[name].drawn_birds > 0 and "crane" not in FAMILIES[name].birds


def test_each_set_that_draws_its_own_bird_draws_another() -> None:
    """Drawn on one blank canvas, birds of different sets differ from each other and from the fixed drawings."""
    from PIL import Image, ImageDraw

    from pungchow_data.realsets import _bird

    def bird(kind: str, seed: int) -> np.ndarray:
        canvas = Image.new("RGB", (96, 128), (240, 236, 220))
        _bird(ImageDraw.Draw(canvas), kind, (9.6, 9.0, 86.4, 119.0), np.random.default_rng(seed))
        return np.asarray(canvas, np.float32)

    blank = np.full((128, 96, 3), (240, 236, 220), np.float32)
    drawn = [bird("drawn", seed) for seed in range(8)]
    fixed = [bird(kind, 0) for kind in ("peacock", "sparrow", "stick")]
    for i, one in enumerate(drawn):
        inked = np.abs(one - blank).sum(axis=2) > 60
        assert 0.05 < inked.mean() < 0.6, f"bird {i}: {inked.mean():.2f} of the face inked"
        for other in drawn[:i] + fixed:
            differs = np.abs(one - other).sum(axis=2) > 60
            assert differs.mean() > 0.04, "two birds drawn alike"


def test_a_set_marking_its_flowers_otherwise_makes_every_other_choice_the_same() -> None:
    """The way flowers and seasons are marked comes from a stream of its own, as the drawn bird does."""
    family = FAMILIES["real-song"]
    without = replace(family, marked_otherwise=0.0)
    marks = [design(family, v).bonus_marks for v in range(400)]
    for v in range(400):
        marked, plain = design(family, v), design(without, v)
        if marked.bonus_marks == "number-only":  # no name: flowers red, seasons blue or green, whatever the set's ink
            assert marked.bonus_ink is None
            marked = replace(marked, bonus_ink=plain.bonus_ink)
        assert replace(marked, bonus_marks=CORNERS) == plain
    assert 0.4 * 400 < sum(m != CORNERS for m in marks) < 0.6 * 400  # MARKED_OTHERWISE 0.5
    assert set(marks) == {CORNERS, *OTHER_MARKS}


def test_held_out_families_mark_flowers_and_seasons_in_the_corners_only() -> None:
    """Their scenes stay as they were rendered: the other ways are measured by ``bench_bonus.py --marked-otherwise``."""
    for name in HOLDOUT_FAMILIES:
        assert {design(FAMILIES[name], v).bonus_marks for v in range(100)} == {CORNERS}


@needs_fonts
def test_each_way_of_marking_a_flower_draws_the_same_painting_with_different_marks() -> None:
    """One set, one flower, five markings: the painting in the middle stays and the marks differ."""
    from pungchow_data.realsets import draw_set_face, marked

    s = design(FAMILIES["real-kai"], 7)
    faces = {m: np.asarray(draw_set_face(marked(s, m), 7, "2F", 96, 128), np.float32) for m in (CORNERS, *OTHER_MARKS)}
    for m, face in faces.items():
        assert np.abs(face[50:110, 20:76] - faces[CORNERS][50:110, 20:76]).mean() < 1.0, f"{m}: the painting moved"
        for other, seen in faces.items():
            if other < m:
                assert np.abs(face - seen).mean() > 0.3, f"{m} and {other} draw the same marks"


@needs_fonts
def test_each_way_of_marking_draws_the_same_random_numbers() -> None:
    """So the tiles drawn after a flower or season, and a set marked in the corners, come out as they did before."""
    from PIL import Image

    from pungchow_data.realsets import _bonus_marks

    s = design(FAMILIES["real-kai"], 7)
    for ink in (None, s.bonus_ink or (28, 26, 30)):
        states = set()
        for m in (CORNERS, "chinese-numeral", "ringed", "name-below", "name-only"):  # number-only: no ink of its own (design())
            rng = np.random.default_rng(11)
            _bonus_marks(Image.new("RGBA", (96, 128)), replace(s, bonus_marks=m, bonus_ink=ink), "3S", 96, 128, rng)
            states.add(str(rng.bit_generator.state))
        assert len(states) == 1


def choices_drawn_apart(name: str, share: str, choice: str, plain: object, sets: int = 400) -> list[object]:
    """Each of ``sets`` sets' ``choice``, after checking that every other choice of each set is what it is when the
    family's ``share`` of sets making it is 0: the choice comes from a random stream of its own."""
    family = FAMILIES[name]
    without = replace(family, **{share: 0.0})
    for v in range(sets):
        assert replace(design(family, v), **{choice: plain}) == design(without, v)
    return [getattr(design(family, v), choice) for v in range(sets)]


def test_a_set_cutting_its_characters_by_hand_makes_every_other_choice_the_same() -> None:
    """The carving comes from a stream of its own too, so a set's fonts, inks, bird and marks stay as they were."""
    carvings = choices_drawn_apart("real-hei", "carved", "carving", PRINTED)
    assert 0.5 * 400 < sum(c != PRINTED for c in carvings) < 0.7 * 400  # CARVED 0.6
    assert len({c for c in carvings if c != PRINTED}) == sum(c != PRINTED for c in carvings), "each hand cuts its own way"


def test_held_out_families_print_their_characters_as_their_fonts_draw_them() -> None:
    """The held-out measure asks how fonts never seen read, as it always has; carving is a training family's."""
    for name in HOLDOUT_FAMILIES:
        assert {design(FAMILIES[name], v).carving for v in range(100)} == {PRINTED}


@needs_fonts
@pytest.mark.parametrize("code", ["2C", "SW", "GD"])
def test_a_hand_cut_character_keeps_its_place_and_differs_from_the_font(code: str) -> None:
    """Heavier, narrower and wavering, the character stays where the font puts it; drawn twice it comes out the same."""
    from pungchow_data.realsets import Carving, draw_set_face

    s = replace(design(FAMILIES["real-kai"], 3), carving=PRINTED, engraved=False)
    cut = replace(s, carving=Carving(weight=0.03, width=0.85, waver=0.04))
    plain = np.asarray(draw_set_face(s, 3, code, 96, 128), np.float32)
    carved = np.asarray(draw_set_face(cut, 3, code, 96, 128), np.float32)
    again = np.asarray(draw_set_face(cut, 3, code, 96, 128), np.float32)
    assert np.array_equal(carved, again)
    ink = lambda face: (face.sum(axis=2) < 500).astype(np.float32)  # noqa: E731
    assert ink(carved).sum() > 1.2 * ink(plain).sum(), "the strokes are heavier"
    assert np.abs(ink(carved) - ink(plain)).mean() > 0.03, "the character is cut otherwise"
    ys, xs = np.nonzero(ink(plain))
    yc, xc = np.nonzero(ink(carved))
    assert abs(ys.mean() - yc.mean()) < 4 and abs(xs.mean() - xc.mean()) < 4, "the character stays in its place"


def test_a_set_printing_the_formal_five_makes_every_other_choice_the_same() -> None:
    """Whether a set prints 伍 comes from a stream of its own, so its fonts, inks, bird, marks and carving stay as they were."""
    formal = choices_drawn_apart("real-song", "formal_five", "formal_five", False)
    assert 0.4 * 400 < sum(bool(f) for f in formal) < 0.6 * 400  # FORMAL_FIVE 0.5
    assert not any(design(FAMILIES[name], v).formal_five for name in HOLDOUT_FAMILIES for v in range(100))


@needs_fonts
def test_the_formal_five_changes_the_numeral_of_the_5_of_characters_only() -> None:
    """伍 replaces 五 above the 萬 of the 5 of characters; every other face, and the 萬, draw as before."""
    from pungchow_data.realsets import draw_set_face

    plain = replace(design(FAMILIES["real-kai"], 3), formal_five=False, carving=PRINTED)
    formal = replace(plain, formal_five=True)
    for code in ("4C", "6C", "WW", "5D"):
        assert np.array_equal(np.asarray(draw_set_face(plain, 3, code, 96, 128)), np.asarray(draw_set_face(formal, 3, code, 96, 128)))
    five, five_formally = (np.asarray(draw_set_face(s, 3, "5C", 96, 128), np.float32) for s in (plain, formal))
    assert np.abs(five[:56] - five_formally[:56]).mean() > 3, "the numeral differs"
    assert np.abs(five[80:] - five_formally[80:]).mean() < 1, "the 萬 below it does not"


@needs_fonts
def test_sets_of_one_family_differ() -> None:
    rng = np.random.default_rng(0)
    a, b = (render_faces(family_variant(FAMILY_STYLES["real-kai"], rng))["1B"] for _ in range(2))
    assert a.shape == b.shape and np.abs(a.astype(float) - b.astype(float)).mean() > 1.0


@needs_fonts
@pytest.mark.parametrize("name", ["real-kai", "real-wenkai"])
def test_each_labelled_quad_holds_its_tile(name: str) -> None:
    checked = wrong = 0
    for i in range(3):
        style = family_variant(FAMILY_STYLES[name], np.random.default_rng([7, i]))
        faces = render_faces(style)
        scene = render_scene(np.random.default_rng([99, i]), style, f"t{i}", photo_effects=False)
        n, bad = quads_holding_another_tile(scene, faces)
        checked, wrong = checked + n, wrong + bad
    assert checked >= 10
    assert wrong <= max(1, checked // 20), f"{wrong} of {checked} labelled quads hold another tile"


def test_family_names_and_held_out_families() -> None:
    assert set(family_names(["train"])).isdisjoint(HOLDOUT_FAMILIES)
    assert set(family_names(["train"])) | set(HOLDOUT_FAMILIES) == set(FAMILIES)
    assert family_names(["heldout"]) == list(HOLDOUT_FAMILIES)
    assert set(FAMILY_STYLES).isdisjoint(STYLES)  # classic default style list unchanged: old commands keep their bytes


@pytest.mark.skipif(missing_fonts() is not None, reason=str(missing_fonts()))
def test_the_default_styles_are_the_classic_ones() -> None:
    assert all(s.family is None for s in resolve_styles(None))


def test_missing_family_fonts_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Given none of a family's fonts, one line names its packages; given no DejaVu either (a bare machine), one line
    names that package first, since every family draws its Latin indices with it."""
    from pungchow_data import realsets

    monkeypatch.setattr(realsets, "_fontconfig_files", lambda: {})
    monkeypatch.setattr(realsets, "FONT_FILES", {k: ("/nonexistent/" + k, p, i) for k, (_, p, i) in realsets.FONT_FILES.items()})
    monkeypatch.setattr(realsets, "_latin_file", lambda: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    message = missing_family_fonts(FAMILIES["real-wenkai"])
    assert message is not None and "\n" not in message and "fonts-lxgw-wenkai" in message
    with pytest.raises(PungChowError, match="install"):
        resolve_styles(["real-wenkai"])
    monkeypatch.setattr(realsets, "_latin_file", lambda: None)
    message = missing_family_fonts(FAMILIES["real-wenkai"])
    assert message is not None and "\n" not in message and "fonts-dejavu-core" in message


@needs_fonts
def test_a_run_can_ask_for_more_flowers_and_seasons(monkeypatch: pytest.MonkeyPatch) -> None:
    from recognizer.labels import CLASSES
    from recognizer.train import realcrops

    monkeypatch.setattr(realcrops, "SET_POOL", 1)
    monkeypatch.setattr(realcrops, "BONUS_SHARE", 1.0)
    source = realcrops.RealCropSource(["real-kai"], np.random.default_rng(3))
    labels = [CLASSES[source.sample()[1]] for _ in range(40)]
    assert set(labels) <= set(realcrops.BONUS_CODES) | {"NT"} and len(set(labels) - {"NT"}) >= 5
    monkeypatch.setattr(realcrops, "BONUS_SHARE", 0.0)
    assert not {CLASSES[source.sample()[1]] for _ in range(40)} & set(realcrops.BONUS_CODES)


def test_a_set_laid_out_by_kind_or_potted_makes_every_other_choice_the_same() -> None:
    """The number's side by kind and the pot come from streams of their own; the held-out families never draw them."""
    by_kind = choices_drawn_apart("real-kai", "sides_by_kind", "sides_by_kind", False)
    potted = choices_drawn_apart("real-ming", "potted", "potted", False)
    assert 0.4 * 400 < sum(bool(b) for b in by_kind) < 0.6 * 400  # SIDES_BY_KIND 0.5
    assert 0.3 * 400 < sum(bool(p) for p in potted) < 0.5 * 400  # POTTED 0.4
    assert not any(design(FAMILIES[name], v).sides_by_kind or design(FAMILIES[name], v).potted
                   for name in HOLDOUT_FAMILIES for v in range(100))


def _ink_columns(face: np.ndarray) -> tuple[float, float]:
    """How much ink the top band of a face holds on its left and on its right half."""
    band = (face[:28].sum(axis=2) < 450).astype(np.float32)
    return float(band[:, :48].sum()), float(band[:, 48:].sum())


@needs_fonts
def test_laid_out_by_kind_a_flower_shows_its_number_right_and_a_season_left() -> None:
    """As the dev HK sets print them: 梅 top-left and 1 top-right on a flower, 1 top-left and 春 top-right on a season;
    the number's ink is the red or blue one, the name's black."""
    from pungchow_data.realsets import draw_set_face

    s = replace(design(FAMILIES["real-kai"], 7), bonus_marks=CORNERS, sides_by_kind=True, bonus_ink=None, potted=False)
    for code, number_right in (("1F", True), ("3F", True), ("1S", False), ("4S", False)):
        face = np.asarray(draw_set_face(s, 7, code, 96, 128), np.float32)
        for right in (False, True):
            flipped = replace(s, sides_by_kind=False, bonus_number_right=right)
            other = np.asarray(draw_set_face(flipped, 7, code, 96, 128), np.float32)
            same = np.abs(face[:28] - other[:28]).mean() < 0.5
            assert same == (right == number_right), f"{code}: its number is not on the {'right' if number_right else 'left'}"


@needs_fonts
def test_name_only_over_a_pot_prints_the_name_and_no_number() -> None:
    """Some HK sets print only 梅 蘭 菊 竹 / 春 夏 秋 冬 over a potted flower: one corner inked, the other bare, and a
    pot drawn below the painting."""
    from pungchow_data.realsets import draw_set_face

    s = replace(design(FAMILIES["real-kai"], 7), bonus_marks="name-only", potted=True, sides_by_kind=True)
    flower = np.asarray(draw_set_face(s, 7, "2F", 96, 128), np.float32)
    left, right = _ink_columns(flower)
    assert left > 20 and right < 3, "a flower's name top-left and nothing top-right"
    bare = np.asarray(draw_set_face(replace(s, potted=False), 7, "2F", 96, 128), np.float32)
    assert np.abs(flower[100:] - bare[100:]).mean() > 3, "the pot stands at the bottom"
