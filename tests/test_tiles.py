"""Tiles and their notation: every code prints as the text that rebuilds it."""

import pytest

from scoring.errors import NotationError
from scoring.tiles import ALL_CODES, ALL_TILES, Tile, format_tiles, parse_mpsz, parse_tiles


@pytest.mark.parametrize("code", ALL_CODES)
def test_every_code_round_trips(code: str) -> None:
    assert str(Tile.parse(code)) == code
    assert parse_tiles(format_tiles([Tile(code)])) == [Tile(code)]


def test_there_are_34_kinds_8_bonus_tiles_and_the_back() -> None:
    assert len(ALL_TILES) == 43
    assert sum(t.is_bonus for t in ALL_TILES) == 8
    assert sum(t.is_face_down for t in ALL_TILES) == 1
    assert sum(t.is_major for t in ALL_TILES) == 13  # Harr's "heads"


def test_mpsz_reads_riichi_notation() -> None:
    tiles = parse_mpsz("123m456p789s1122z")
    assert format_tiles(tiles) == "1C2C3C4D5D6D7B8B9BEWEWSWSW"
    assert format_tiles(parse_tiles("567z")) == "WDGDRD"


def test_lower_case_s_after_digits_is_mpsz_bamboo_not_seasons() -> None:
    assert format_tiles(parse_tiles("123s")) == "1B2B3B"
    assert format_tiles(parse_tiles("1S2S")) == "1S2S"


@pytest.mark.parametrize("bad", ["0B", "5W", "QQ", "8z", "1B2", "12x"])
def test_unknown_codes_are_rejected_loudly(bad: str) -> None:
    with pytest.raises(NotationError):
        parse_tiles(bad)


def test_tile_families() -> None:
    assert Tile("1B").is_terminal and Tile("1B").is_major
    assert Tile("5D").is_simple and not Tile("5D").is_major
    assert Tile("RD").is_dragon and Tile("RD").is_honour
    assert Tile("3F").wind == "W" and Tile("EW").wind == "E"
